// SPDX-License-Identifier: GPL-2.0-only
#include "cli/trace_cmd.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/trace_input.hpp"
#include "io/input_error.hpp"
#include "io/values.hpp"
#include "report/fixed_decimal.hpp"
#include "report/json_writer.hpp"
#include "report/metrics_json.hpp"
#include "report/version.hpp"

namespace eevdf::cli {

namespace {

std::string ms(u64 ns)
{
	std::string s;
	append_ms(s, ns);
	return s;
}

std::string us(u64 ns)
{
	std::string s;
	append_us(s, ns);
	return s;
}

void write_stats_json(const TraceOptions& o, const MeasuredTrace& mt, std::ostream& os)
{
	const trace::ReadStats& rs = mt.read;
	const bool smp = mt.metrics.cpus.size() > 1;
	std::string buf;
	JsonWriter w(buf, 0);
	w.begin_object();
	w.key("eevdf");
	write_version(w);
	w.key("trace");
	w.begin_object();
	w.member("file", o.file);
	w.member("format", std::string(trace::format_name(rs.format)));
	w.member("cpus", static_cast<u64>(mt.metrics.cpus.size()));
	w.member("timestamp_resolution_ns", rs.resolution_ns());
	w.member("first_ns", rs.first_ts);
	w.member("last_ns", rs.last_ts);
	w.member("lines", rs.lines);
	w.member("events", rs.events);
	w.key("skipped_events");
	w.begin_object();
	for (const auto& [name, n] : rs.skipped)
		w.member(name, n);
	w.end_object();
	w.member("unparsed_lines", rs.unparsed);
	w.member("lost_markers", rs.lost_markers);
	w.member("lost_events", rs.lost_events);
	w.member("overwritten_events", rs.overwritten());
	w.member("wakeups_of_running", mt.metrics.wakeups_of_running);
	w.member("missed_switches", mt.metrics.missed_switches);
	w.end_object();
	w.key("config");
	w.begin_object();
	if (mt.tick_ns) {
		w.member("hz", static_cast<u64>(o.hz));
		w.member("tick_ns", mt.tick_ns);
	}
	w.member("cpus", static_cast<u64>(mt.metrics.cpus.size()));
	w.member("from_ns", mt.metrics.start_ns - rs.first_ts);
	w.member("duration_ns", mt.metrics.end_ns - mt.metrics.start_ns);
	w.end_object();
	w.key("tasks");
	w.begin_array();
	const MetricsShape shape{mt.tick_ns, smp, false};
	for (const TaskMetrics* m : mt.selected) {
		w.begin_object();
		w.member("name", m->name);
		w.member("pid", m->pid);
		write_task_metrics(w, *m, shape);
		w.end_object();
	}
	w.end_array();
	w.key("summary");
	w.begin_object();
	write_task_metrics(w, total_of(mt.selected), shape);
	u64 busy = 0, idle = 0;
	for (const CpuMetrics& c : mt.metrics.cpus) {
		busy += c.busy_ns;
		idle += c.idle_ns;
	}
	w.member("busy_ns", busy);
	w.member("idle_ns", idle);
	w.member("events", rs.events);
	w.end_object();
	if (smp) {
		w.key("cpus");
		w.begin_array();
		for (size_t c = 0; c < mt.metrics.cpus.size(); c++) {
			const CpuMetrics& m = mt.metrics.cpus[c];
			w.begin_object();
			w.member("cpu", static_cast<u64>(c));
			w.member("busy_ns", m.busy_ns);
			w.member("idle_ns", m.idle_ns);
			w.member("switches", m.switches);
			w.member("unattributed_ns", mt.metrics.unattributed_ns[c]);
			if (!mt.metrics.observed[c])
				w.member("observed", false);
			w.end_object();
		}
		w.end_array();
	}
	w.end_object();
	os << buf << "\n";
}

void write_stats_table(const TraceOptions& o, const MeasuredTrace& mt, std::ostream& os)
{
	const trace::ReadStats& rs = mt.read;
	os << "# trace " << o.file << ": " << trace::format_name(rs.format) << ", " << mt.metrics.cpus.size()
	   << " CPUs, " << rs.events << " sched events";
	u64 skipped = 0;
	for (const auto& [name, n] : rs.skipped)
		skipped += n;
	if (skipped)
		os << ", " << skipped << " other events skipped";
	os << "\n# window " << ms(mt.metrics.start_ns - rs.first_ts) << " .. " << ms(mt.metrics.end_ns - rs.first_ts)
	   << " ms after the first event (" << ms(mt.metrics.end_ns - mt.metrics.start_ns) << " ms)\n";
	print_trace_warnings(rs, os, "# ", &mt.metrics);
	char line[512];
	std::snprintf(line, sizeof line, "%-16s %7s %11s %7s %9s %9s %9s %9s %9s %9s %8s %7s %10s %10s %6s\n", "task",
		      "pid", "cpu_ms", "runs", "mean_ms", "min_ms", "p50_ms", "p90_ms", "p99_ms", "max_ms", "switches",
		      "invol", "wake_p50us", "wake_p99us", "migr");
	os << line;
	auto row = [&](const TaskMetrics& m, const std::string& pid) {
		const Distribution d = summarize(m.runs);
		const Distribution wl = summarize(m.wakeup_latency);
		std::snprintf(line, sizeof line, "%-16s %7s %11s %7llu %9.3f %9s %9s %9s %9s %9s %8llu %7llu %10s %10s %6llu\n",
			      m.name.c_str(), pid.c_str(), ms(m.cpu_ns).c_str(), static_cast<unsigned long long>(d.count),
			      mean(d) / 1e6, ms(d.min).c_str(), ms(d.p50).c_str(), ms(d.p90).c_str(), ms(d.p99).c_str(),
			      ms(d.max).c_str(), static_cast<unsigned long long>(m.switches),
			      static_cast<unsigned long long>(m.involuntary_switches), wl.count ? us(wl.p50).c_str() : "-",
			      wl.count ? us(wl.p99).c_str() : "-", static_cast<unsigned long long>(m.migrations));
		os << line;
	};
	for (const TaskMetrics* m : mt.selected)
		row(*m, std::to_string(m->pid));
	const TaskMetrics total = total_of(mt.selected);
	row(total, "-");
	if (mt.tick_ns) {
		u64 longer = 0;
		const std::vector<u64> hist = tick_histogram(total.runs, mt.tick_ns, longer);
		os << "# runs by length in ticks (HZ=" << o.hz << ", rounded), ticks:runs:";
		for (size_t k = 0; k < hist.size(); k++)
			if (hist[k])
				os << " " << k << ":" << hist[k];
		if (longer)
			os << " >=" << MAX_TICK_BUCKETS << ":" << longer;
		os << "\n";
	}
	for (size_t c = 0; c < mt.metrics.cpus.size() && mt.metrics.cpus.size() > 1; c++) {
		const CpuMetrics& m = mt.metrics.cpus[c];
		if (!mt.metrics.observed[c])
			os << "# cpu " << c << ": no line in the trace (idle throughout, or one task never switched out)\n";
		else
			os << "# cpu " << c << ": busy " << ms(m.busy_ns) << " ms, idle " << ms(m.idle_ns) << " ms, "
			   << (mt.metrics.unattributed_ns[c] ? "unattributed " + ms(mt.metrics.unattributed_ns[c]) + " ms, " : "")
			   << m.switches << " switches\n";
	}
}

}  // namespace

int cmd_trace_stats(const TraceOptions& o)
{
	const MeasuredTrace mt = measure_trace(o);
	std::ostringstream out;
	if (o.json)
		write_stats_json(o, mt, out);
	else
		write_stats_table(o, mt, out);
	std::cout << out.str();
	if (o.json)
		print_trace_warnings(mt.read, std::cerr, "eevdf: ", &mt.metrics);
	return 0;
}

}  // namespace eevdf::cli
