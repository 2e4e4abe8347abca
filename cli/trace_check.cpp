// SPDX-License-Identifier: GPL-2.0-only
// `eevdf trace check TRACE --hz N`: the proved run bounds on a trace's runs
// (trace/run_check.hpp), each violation with its timestamps; exit 1 when a
// bound is broken.
#include <fnmatch.h>

#include <iostream>
#include <sstream>

#include "cli/trace_cmd.hpp"
#include "cli/trace_input.hpp"
#include "io/input_error.hpp"
#include "io/model_options.hpp"
#include "io/values.hpp"
#include "model/cpumask.hpp"
#include "report/fixed_decimal.hpp"
#include "report/json_writer.hpp"
#include "report/version.hpp"
#include "trace/run_check.hpp"

namespace eevdf::cli {
namespace {

std::string ms(u64 ns)
{
	std::string s;
	append_ms(s, ns);
	return s;
}

// "SEC.USEC" as the trace prints its timestamps.
std::string stamp(u64 ns)
{
	char b[48];
	std::snprintf(b, sizeof b, "%llu.%06llu", static_cast<unsigned long long>(ns / NSEC_PER_SEC),
		      static_cast<unsigned long long>(ns % NSEC_PER_SEC / 1000));
	return b;
}

const char* kind_name(trace::BoundKind k) { return k == trace::BoundKind::Equal ? "equal" : "weighted"; }

struct Setup {
	trace::RunBoundParams p;
	std::string slice_source;
	u32 cpus = 0;
};

// The CPUs a trace without a "#P:"/"cpus=" header shows (perf script's
// has none): the highest CPU column + 1, from one pass over the file (not
// over stdin, which cannot be read twice). 0 when it cannot tell.
u32 cpus_seen(const TraceOptions& o)
{
	if (o.file == "-")
		return 0;
	TraceInput in(o.file);
	trace::Reader r(in.stream(), in.name(), trace::ReadOptions{o.lenient});
	trace::Event e;
	while (r.next(e)) {
	}
	return r.stats().max_cpu + 1;
}

Setup setup(const TraceOptions& o, const trace::ReadStats& rs)
{
	if (o.hz == 0)
		throw UsageError("--hz: required (CONFIG_HZ of the traced kernel: the bounds are in ticks)");
	Setup s;
	s.p.tick_ns = trace_tick_ns(o.hz);
	s.p.jitter_ns = parse_duration(o.jitter, "--jitter");
	if (s.p.jitter_ns >= s.p.tick_ns)
		throw UsageError("--jitter " + o.jitter + ": must be below TICK_NSEC (" + std::to_string(s.p.tick_ns) + " ns)");
	s.p.tolerance_ns = parse_duration(o.tolerance, "--tolerance");
	s.cpus = o.cpus ? o.cpus : rs.header_cpus;
	const bool seen = !o.cpus && !rs.header_cpus && o.slice.empty();
	if (seen)
		s.cpus = cpus_seen(o);
	if (!o.slice.empty()) {
		s.p.slice_ns = parse_duration(o.slice, "--slice");
		if (s.p.slice_ns == 0)
			throw UsageError("--slice " + o.slice + ": must be above 0");
		s.slice_source = "--slice";
		return s;
	}
	if (s.cpus == 0)
		throw UsageError("--slice: the trace on stdin does not say how many CPUs its kernel had (no '#P:' or "
				 "'cpus=' header), so the default base slice is unknown; give --slice or --cpus");
	ModelOptions mo;
	mo.kernel = o.kernel;
	mo.hz = o.hz;
	mo.cpus = s.cpus > MAX_CPUS ? MAX_CPUS : s.cpus;
	s.p.slice_ns = build_config(mo).base_slice_ns;
	s.slice_source = o.kernel + "'s default for " + std::to_string(s.cpus) + " CPUs" +
			 (seen ? ", as many as the trace shows; give --cpus if its machine had more" : "");
	return s;
}

void write_text(const TraceOptions& o, const Setup& s, const trace::ReadStats& rs, const trace::RunCheck& rc,
		std::ostream& os)
{
	os << "# trace " << o.file << ": " << trace::format_name(rs.format) << ", " << rs.cpus() << " CPUs, "
	   << rs.events << " sched events\n";
	os << "# HZ=" << o.hz << " (T = " << s.p.tick_ns << " ns), r = " << s.p.slice_ns << " ns (" << s.slice_source
	   << "), J = " << s.p.jitter_ns << " ns, tolerance " << s.p.tolerance_ns << " ns\n";
	for (const std::string& ts : o.task_slices)
		os << "# --task-slice " << ts << "\n";
	os << "# equal (run_whole_equal): a nice-0 run with the same 1..9 nice-0 tasks waiting on its CPU "
	      "throughout lasts, re-picks included, <= r + 2T + 2J - 1 (+ timestamp resolution - 1 + tolerance) = "
	   << rc.equal_bound << " ns; its first request <= r + T + J - 1 (run_length) = " << rc.request_bound
	   << " ns\n";
	os << "# weighted (run_weighted, read in real time): curr and the same 2..4 waiting tasks at nice "
	      "-20/-10/0/10/19 for the whole run\n";
	os << "# assumed, not in a trace: the tasks on a CPU are hogs that started there together (both theorems "
	      "are inductive from that start), one cfs_rq (no cpu cgroups between the tasks), no custom slices but r, "
	      "no SCHED_IDLE task, HRTICK off, the tick running, no steal time\n";
	print_trace_warnings(rs, os, "# ");
	if (rc.missed_switches)
		os << "# warning: " << rc.missed_switches << " sched_switch events missing (a CPU ran a task the trace "
		   << "never switched to): the runs they cut are not checked\n";
	os << "runs: " << rc.runs << " in the window; checked " << rc.checked_equal << " against the equal bound, "
	   << rc.checked_weighted << " against the weighted bound\n";
	for (const auto& [why, n] : rc.skipped)
		os << "  not checked, " << why << ": " << n << "\n";
	if (rc.checked_equal)
		os << "equal runs longer than one request (re-picked, or time the proofs do not model): "
		   << rc.longer_than_request << "\n";
	if (rc.closest_bound)
		os << "closest to its bound: " << ms(rc.closest_length) << " ms of " << ms(rc.closest_bound) << " ms ("
		   << kind_name(rc.closest_kind) << ")\n";
	for (const trace::RunViolation& v : rc.violations) {
		os << "VIOLATION " << kind_name(v.kind) << ": " << v.comm << " pid " << v.pid << " on CPU " << v.cpu
		   << " ran " << ms(v.length()) << " ms, " << stamp(v.start) << " to " << stamp(v.end) << " (bound "
		   << ms(v.bound) << " ms); waiting at the pick:";
		for (size_t i = 0; i < v.waiting_pids.size(); i++)
			os << " pid " << v.waiting_pids[i] << " (prio " << v.waiting_prios[i] << ")";
		os << "\n";
	}
	if (rc.violations.empty())
		os << "OK: every checked run is within its bound\n";
	else
		os << rc.violations.size() << " runs broke their bound\n";
}

void write_json(const TraceOptions& o, const Setup& s, const trace::ReadStats& rs, const trace::RunCheck& rc,
		std::ostream& os)
{
	std::string buf;
	JsonWriter w(buf, 0);
	w.begin_object();
	w.key("eevdf");
	write_version(w);
	w.key("trace");
	w.begin_object();
	w.member("file", o.file);
	w.member("format", std::string_view(trace::format_name(rs.format)));
	w.member("cpus", static_cast<u64>(rs.cpus()));
	w.member("events", rs.events);
	w.member("lost_events", rs.lost_events);
	w.member("overwritten_events", rs.overwritten());
	w.member("missed_switches", rc.missed_switches);
	w.end_object();
	w.key("bound");
	w.begin_object();
	w.member("hz", static_cast<u64>(o.hz));
	w.member("tick_ns", s.p.tick_ns);
	w.member("slice_ns", s.p.slice_ns);
	w.member("slice_source", s.slice_source);
	w.member("jitter_ns", s.p.jitter_ns);
	w.member("tolerance_ns", s.p.tolerance_ns);
	w.member("equal_bound_ns", rc.equal_bound);
	w.member("request_bound_ns", rc.request_bound);
	w.end_object();
	w.member("runs", rc.runs);
	w.member("checked_equal", rc.checked_equal);
	w.member("checked_weighted", rc.checked_weighted);
	w.member("equal_longer_than_request", rc.longer_than_request);
	w.key("not_checked");
	w.begin_array();
	for (const auto& [why, n] : rc.skipped) {
		w.begin_object();
		w.member("reason", why);
		w.member("runs", n);
		w.end_object();
	}
	w.end_array();
	w.member("closest_length_ns", rc.closest_length);
	w.member("closest_bound_ns", rc.closest_bound);
	w.key("violations");
	w.begin_array();
	for (const trace::RunViolation& v : rc.violations) {
		w.begin_object();
		w.member("bound", std::string_view(kind_name(v.kind)));
		w.member("comm", v.comm);
		w.member("pid", v.pid);
		w.member("cpu", static_cast<u64>(v.cpu));
		w.member("start_ns", v.start);
		w.member("end_ns", v.end);
		w.member("length_ns", v.length());
		w.member("bound_ns", v.bound);
		w.key("waiting_prios");
		w.begin_array();
		for (int p : v.waiting_prios)
			w.value(p);
		w.end_array();
		w.key("waiting_pids");
		w.begin_array();
		for (int p : v.waiting_pids)
			w.value(p);
		w.end_array();
		w.end_object();
	}
	w.end_array();
	w.member("holds", rc.violations.empty());
	w.end_object();
	os << buf << "\n";
}

}  // namespace

int cmd_trace_check(const TraceOptions& o)
{
	const trace::Window win = trace_window(o);
	if (o.hz == 0)
		throw UsageError("--hz: required (CONFIG_HZ of the traced kernel: the bounds are in ticks)");
	TraceInput in(o.file);
	trace::Reader r(in.stream(), in.name(), trace::ReadOptions{o.lenient});
	trace::Event e;
	if (!r.next(e))
		not_a_scheduler_trace(in.name(), r.stats().lines);
	const Setup s = setup(o, r.stats());
	trace::RunChecker checker(s.p, win.from, win.to);
	// --task-slice GLOB=DUR: the first that matches a task's comm (or pid) gives its slice
	std::vector<std::pair<std::string, u64>> task_slices;
	for (const std::string& ts : o.task_slices) {
		const size_t eq = ts.rfind('=');
		if (eq == std::string::npos || eq == 0)
			throw UsageError("--task-slice " + ts + ": expected GLOB=DURATION, e.g. 'stress-ng*=3ms'");
		const u64 ns = parse_duration(ts.substr(eq + 1), "--task-slice");
		if (ns == 0)
			throw UsageError("--task-slice " + ts + ": the slice must be above 0");
		task_slices.emplace_back(ts.substr(0, eq), ns);
	}
	if (!task_slices.empty())
		checker.slices([task_slices](const std::string& comm, int pid) -> u64 {
			for (const auto& [glob, ns] : task_slices)
				if (glob == std::to_string(pid) || fnmatch(glob.c_str(), comm.c_str(), 0) == 0)
					return ns;
			return 0;
		});
	if (!o.tasks.empty())
		checker.select([&](const std::string& comm, int pid) { return task_selected(o, comm, pid); });
	do {
		checker.add(e, r.stats());
	} while (r.next(e));
	const trace::RunCheck rc = checker.finish(r.stats());
	std::ostringstream out;
	if (o.json)
		write_json(o, s, r.stats(), rc, out);
	else
		write_text(o, s, r.stats(), rc, out);
	std::cout << out.str();
	return rc.violations.empty() ? 0 : 1;
}

}  // namespace eevdf::cli
