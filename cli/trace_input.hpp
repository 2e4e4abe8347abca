// SPDX-License-Identifier: GPL-2.0-only
// What every `eevdf trace` command starts from: the trace file (or stdin)
// read and measured over the window, and the tasks --task selects.
#pragma once

#include <fstream>
#include <iostream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cli/trace_cmd.hpp"
#include "trace/reader.hpp"
#include "trace/stats.hpp"

namespace eevdf::cli {

// The trace as a stream: "-" is stdin; a file that cannot be opened, or a
// directory, is an InputError naming it.
class TraceInput {
public:
	explicit TraceInput(const std::string& path);
	std::istream& stream() { return path_ == "-" ? std::cin : file_; }
	const std::string& name() const { return name_; }

private:
	std::string path_, name_;
	std::ifstream file_;
};

struct MeasuredTrace {
	trace::Window window;
	u64 tick_ns = 0;                       // from --hz; 0 without
	trace::ReadStats read;
	trace::TraceMetrics metrics;
	std::vector<const TaskMetrics*> selected;  // into metrics.tasks, by pid
};

trace::Window trace_window(const TraceOptions& o);
u64 trace_tick_ns(unsigned hz);
bool task_selected(const TraceOptions& o, const std::string& comm, int pid);
// Reads and measures o.file; throws InputError for a file with no sched
// event, UsageError when --task selects nothing.
MeasuredTrace measure_trace(const TraceOptions& o);
TaskMetrics total_of(const std::vector<const TaskMetrics*>& tasks);
// Throws the InputError for a file with no sched event.
[[noreturn]] void not_a_scheduler_trace(const std::string& name, u64 lines);
// Lost or overwritten events and --lenient's unparsed lines, one line each.
// With `m`, also the switches the trace is missing.
void print_trace_warnings(const trace::ReadStats& rs, std::ostream& os, const char* prefix,
			  const trace::TraceMetrics* m = nullptr);

}  // namespace eevdf::cli
