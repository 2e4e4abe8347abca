// SPDX-License-Identifier: GPL-2.0-only
#include "cli/trace_input.hpp"

#include <fnmatch.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli/args.hpp"
#include "io/input_error.hpp"

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

bool task_selected(const TraceOptions& o, const TaskMetrics& m)
{
	if (o.tasks.empty())
		return true;
	for (const std::string& p : o.tasks) {
		if (p == std::to_string(m.pid))
			return true;
		if (fnmatch(p.c_str(), m.name.c_str(), 0) == 0)
			return true;
	}
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
	TraceInput in(o.file);
	trace::Reader r(in.stream(), in.name(), trace::ReadOptions{o.lenient});
	mt.metrics = trace::measure(r, mt.window);
	mt.read = r.stats();
	if (mt.read.events == 0)
		throw InputError(in.name() + ": no sched_switch, sched_wakeup or sched_migrate_task line (" +
				 std::to_string(mt.read.lines) + " lines read): not a scheduler trace");
	for (TaskMetrics& m : mt.metrics.tasks)
		if (task_selected(o, m))
			mt.selected.push_back(&m);
	if (mt.selected.empty())
		throw UsageError("--task: no task in " + in.name() + " matches");
	return mt;
}

TaskMetrics total_of(const std::vector<const TaskMetrics*>& tasks)
{
	TaskMetrics t;
	t.name = "total";
	for (const TaskMetrics* x : tasks) {
		t.cpu_ns += x->cpu_ns;
		t.runs.merge(x->runs);
		t.switches += x->switches;
		t.involuntary_switches += x->involuntary_switches;
		t.wakeup_latency.merge(x->wakeup_latency);
		t.migrations += x->migrations;
		t.wakeups += x->wakeups;
		t.wakeups_local += x->wakeups_local;
		t.wakeups_remote += x->wakeups_remote;
		t.wakeups_migrate += x->wakeups_migrate;
		t.run_delay_ns += x->run_delay_ns;
		if (t.cpu_ns_per_cpu.size() < x->cpu_ns_per_cpu.size())
			t.cpu_ns_per_cpu.resize(x->cpu_ns_per_cpu.size());
		for (size_t c = 0; c < x->cpu_ns_per_cpu.size(); c++)
			t.cpu_ns_per_cpu[c] += x->cpu_ns_per_cpu[c];
	}
	return t;
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
