// SPDX-License-Identifier: GPL-2.0-only
#include "cli/trace_input.hpp"

#include <fnmatch.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli/activity.hpp"
#include "io/input_error.hpp"
#include "io/values.hpp"

namespace eevdf::cli {

TraceInput::TraceInput(const std::string& path) : path_(path), name_(path == "-" ? "<stdin>" : path)
{
	if (path == "-")
		return;
	std::error_code ec;
	if (std::filesystem::is_directory(path, ec))
		throw InputError(path + ": is a directory, not a trace");
	file_.open(path, std::ios::binary);
	if (!file_)
		throw InputError(path + ": cannot open the trace: " + std::string(std::strerror(errno)));
}

bool task_selected(const TraceOptions& o, const std::string& comm, int pid)
{
	if (o.tasks.empty())
		return true;
	for (const std::string& p : o.tasks)
		if (p == std::to_string(pid) || fnmatch(p.c_str(), comm.c_str(), 0) == 0)
			return true;
	return false;
}

trace::Window trace_window(const TraceOptions& o)
{
	trace::Window w;
	if (!o.from.empty())
		w.from = parse_duration(o.from, "--from");
	if (!o.to.empty()) {
		w.to = parse_duration(o.to, "--to");
		if (w.to <= w.from)
			throw UsageError("--to " + o.to + ": must be after --from (" + (o.from.empty() ? "0" : o.from) + ")");
	}
	return w;
}

u64 trace_tick_ns(unsigned hz)
{
	if (hz == 0)
		return 0;
	if (hz < 24 || hz > 10000)
		throw UsageError("--hz " + std::to_string(hz) + ": CONFIG_HZ is 24..10000");
	return (NSEC_PER_SEC + hz / 2) / hz;
}

MeasuredTrace measure_trace(const TraceOptions& o)
{
	MeasuredTrace mt;
	mt.window = trace_window(o);
	mt.tick_ns = trace_tick_ns(o.hz);
	set_activity("reading the trace");
	TraceInput in(o.file);
	trace::Reader r(in.stream(), in.name(), trace::ReadOptions{o.lenient});
	mt.metrics = trace::measure(r, mt.window);
	mt.read = r.stats();
	if (mt.read.events == 0)
		not_a_scheduler_trace(in.name(), mt.read.lines);
	for (TaskMetrics& m : mt.metrics.tasks)
		if (task_selected(o, m.name, m.pid))
			mt.selected.push_back(&m);
	if (mt.selected.empty())
		throw UsageError("--task: no task in " + in.name() + " matches");
	return mt;
}

TaskMetrics total_of(const std::vector<const TaskMetrics*>& tasks)
{
	TaskMetrics t;
	t.name = "total";
	for (const TaskMetrics* x : tasks)
		add_to_total(t, *x);  // a trace's lag is 0 throughout
	return t;
}

void not_a_scheduler_trace(const std::string& name, u64 lines)
{
	throw InputError(name + ": no sched_switch, sched_wakeup or sched_migrate_task line (" + std::to_string(lines) +
			 " lines read): not a scheduler trace");
}

void print_trace_warnings(const trace::ReadStats& rs, std::ostream& os, const char* prefix, const trace::TraceMetrics* m)
{
	if (m && m->missed_switches) {
		u64 un = 0;
		for (u64 x : m->unattributed_ns)
			un += x;
		os << prefix << "warning: " << m->missed_switches
		   << " sched_switch events missing (a CPU ran a task the trace never switched to); " << un / 1000
		   << " us of CPU time unattributed, those runs and wake-ups not measured (docs/trace.md)\n";
	}
	if (rs.lost_events || rs.lost_markers)
		os << prefix << "warning: " << rs.lost_markers << " [LOST EVENTS] markers (" << rs.lost_events
		   << " events): the metrics around them are incomplete\n";
	if (rs.overwritten())
		os << prefix << "warning: the ring buffer overwrote " << rs.overwritten()
		   << " events (entries-in-buffer/entries-written); each CPU is measured from its first line\n";
	if (rs.unparsed)
		os << prefix << "warning: " << rs.unparsed << " lines not understood (--lenient)\n";
}

}  // namespace eevdf::cli
