// SPDX-License-Identifier: GPL-2.0-only
// `eevdf trace stats|check|workload|compare TRACE`: a kernel scheduler
// trace (ftrace, trace-cmd report or perf script text) measured with the
// metrics of `eevdf sim`, checked against the proved run bounds, turned
// into an rt-app workload, and replayed in the model beside itself.
#pragma once

#include <string>
#include <vector>

#include "io/model_options.hpp"

namespace eevdf::cli {

struct TraceOptions {
	std::string file;                 // "-": stdin
	bool json = false;
	std::vector<std::string> tasks;   // --task: comm globs or pids; empty: every task
	std::string from, to;             // relative to the first event
	unsigned hz = 0;                  // --hz: run_histogram in ticks; check's TICK_NSEC
	bool lenient = false;
	// check
	std::string kernel = "6.18";      // whose default base slice, when --slice is not given
	unsigned cpus = 0;                // the traced machine's CPUs (default slice); 0: from the trace's header
	std::string slice;                // the base slice; default the kernel's for the trace's CPU count
	std::vector<std::string> task_slices;  // --task-slice GLOB=DUR: a task's custom slice
	std::string jitter = "0";         // ticks early by up to this (J)
	std::string tolerance = "0";      // added to each bound (the trace's clock and irq entry)
	// workload / compare
	std::string output;               // -o
	bool resume = false;              // wake-ups by replayed tasks as suspend/resume
	bool no_affinity = false;         // no "cpus" from the CPUs observed
	double threshold = 0.1;           // compare: flag a relative difference above this
};

int cmd_trace_stats(const TraceOptions& o);
int cmd_trace_check(const TraceOptions& o);
int cmd_trace_workload(const TraceOptions& o);
int cmd_trace_compare(const TraceOptions& o, const ModelOptions& mo);

}  // namespace eevdf::cli
