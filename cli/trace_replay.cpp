// SPDX-License-Identifier: GPL-2.0-only
// `eevdf trace workload TRACE -o W.json` and `eevdf trace compare TRACE`:
// the trace's tasks as an rt-app workload (trace/to_workload.hpp), and that
// workload simulated beside the trace, metric by metric.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <sstream>

#include "cli/args.hpp"
#include "cli/fixed_decimal.hpp"
#include "cli/metrics_json.hpp"
#include "cli/options.hpp"
#include "cli/trace_cmd.hpp"
#include "cli/trace_input.hpp"
#include "io/input_error.hpp"
#include "io/rtapp.hpp"
#include "model/cpumask.hpp"
#include "model/metrics.hpp"
#include "model/simulation.hpp"
#include "trace/to_workload.hpp"

namespace eevdf::cli {
namespace {

// The trace's text: compare reads it twice (stats, then the workload), so
// stdin is read whole first.
std::string slurp(const std::string& path)
{
	TraceInput in(path);
	std::string text((std::istreambuf_iterator<char>(in.stream())), std::istreambuf_iterator<char>());
	if (in.stream().bad())
		throw InputError(in.name() + ": read error");
	return text;
}

trace::ToWorkloadResult build(const TraceOptions& o, const std::string& text)
{
	std::istringstream is(text);
	trace::Reader r(is, o.file == "-" ? "<stdin>" : o.file, trace::ReadOptions{o.lenient});
	trace::ToWorkloadOptions wo;
	wo.resume = o.resume;
	wo.affinity = !o.no_affinity;
	if (!o.tasks.empty())
		wo.select = [&](const std::string& comm, int pid) {
			TaskMetrics m;
			m.name = comm;
			m.pid = pid;
			return task_selected(o, m);
		};
	trace::ToWorkloadResult res = trace::to_workload(r, wo);
	if (r.stats().events == 0)
		throw InputError((o.file == "-" ? std::string("<stdin>") : o.file) +
				 ": no sched_switch, sched_wakeup or sched_migrate_task line: not a scheduler trace");
	if (res.workload.tasks.empty())
		throw UsageError(o.tasks.empty() ? "the trace has no fair-class task that ran"
						 : "--task: no fair-class task of the trace that ran matches");
	return res;
}

void print_notes(const trace::ToWorkloadResult& res, std::ostream& os)
{
	os << "eevdf: " << res.workload.tasks.size() << " tasks, " << res.suspends << " wake-ups by traced tasks as "
	   << "suspend/resume, " << res.timed_sleeps << " as timed sleeps\n";
	if (!res.left_out.empty()) {
		os << "eevdf: left out:";
		for (size_t i = 0; i < res.left_out.size() && i < 20; i++)
			os << (i ? "; " : " ") << res.left_out[i];
		if (res.left_out.size() > 20)
			os << "; and " << res.left_out.size() - 20 << " more";
		os << "\n";
	}
}

std::string fixed(double v, int prec)
{
	char b[64];
	std::snprintf(b, sizeof b, "%.*f", prec, v);
	return b;
}

struct Row {
	const char* name;
	double kernel, model;
	int prec;
};

std::vector<Row> rows(const TaskMetrics& k, const TaskMetrics& m)
{
	const Distribution kr = summarize(k.runs), mr = summarize(m.runs);
	const Distribution kw = summarize(k.wakeup_latency), mw = summarize(m.wakeup_latency);
	auto d = [](u64 v, double scale) { return static_cast<double>(v) / scale; };
	return {
		{"cpu_ms", d(k.cpu_ns, 1e6), d(m.cpu_ns, 1e6), 3},
		{"runs", d(kr.count, 1), d(mr.count, 1), 0},
		{"run_mean_ms", mean(kr) / 1e6, mean(mr) / 1e6, 3},
		{"run_p50_ms", d(kr.p50, 1e6), d(mr.p50, 1e6), 3},
		{"run_p99_ms", d(kr.p99, 1e6), d(mr.p99, 1e6), 3},
		{"run_max_ms", d(kr.max, 1e6), d(mr.max, 1e6), 3},
		{"switches", d(k.switches, 1), d(m.switches, 1), 0},
		{"involuntary", d(k.involuntary_switches, 1), d(m.involuntary_switches, 1), 0},
		{"wake_p50_us", d(kw.p50, 1e3), d(mw.p50, 1e3), 1},
		{"wake_p99_us", d(kw.p99, 1e3), d(mw.p99, 1e3), 1},
		{"migrations", d(k.migrations, 1), d(m.migrations, 1), 0},
		{"run_delay_ms", d(k.run_delay_ns, 1e6), d(m.run_delay_ns, 1e6), 3},
	};
}

bool differs(const Row& r, double threshold)
{
	const double a = r.kernel, b = r.model;
	if (a == b)
		return false;
	const double scale = std::max(std::fabs(a), std::fabs(b));
	return std::fabs(b - a) > threshold * scale;
}

}  // namespace

int cmd_trace_workload(const TraceOptions& o)
{
	if (o.output.empty())
		throw UsageError("-o: required (the rt-app file to write, '-' for stdout)");
	const std::string text = slurp(o.file);
	const trace::ToWorkloadResult res = build(o, text);
	const std::string json = to_rtapp_json(res.workload);
	if (o.output == "-")
		std::cout << json;
	else
		write_file_atomic(o.output, json, "-o", o.file == "-" ? std::vector<std::string>{} : std::vector<std::string>{o.file});
	print_notes(res, std::cerr);
	return 0;
}

int cmd_trace_compare(const TraceOptions& o, const ModelOptions& mo_in)
{
	if (o.hz == 0)
		throw UsageError("--hz: required (CONFIG_HZ to simulate, normally the traced kernel's)");
	const std::string text = slurp(o.file);
	// the trace's metrics over the whole trace, for the tasks replayed
	MeasuredTrace mt;
	{
		std::istringstream is(text);
		trace::Reader r(is, o.file == "-" ? "<stdin>" : o.file, trace::ReadOptions{o.lenient});
		mt.metrics = trace::measure(r);
		mt.read = r.stats();
	}
	const trace::ToWorkloadResult res = build(o, text);
	ModelOptions mo = mo_in;
	mo.hz = o.hz;
	if (mo.cpus == 0)
		mo.cpus = std::min<u32>(std::max<u32>(mt.read.cpus(), 1), MAX_CPUS);
	const Config cfg = build_config(mo);
	Workload wl = res.workload;
	for (const TaskSpec& t : wl.tasks)
		for (u32 c : t.cpus)
			if (c >= cfg.cpus)
				throw UsageError("--cpus " + std::to_string(cfg.cpus) + ": task " + t.name + " ran on CPU " +
						 std::to_string(c) + " in the trace; simulate at least " + std::to_string(c + 1));
	Simulation sim(cfg, std::move(wl));
	MetricsCollector metrics;
	sim.add_observer(&metrics);
	sim.run();
	metrics.finish(sim);

	std::ostringstream os;
	os << "# kernel: " << o.file << " (" << trace::format_name(mt.read.format) << ", " << mt.read.cpus()
	   << " CPUs); model: " << describe(cfg) << "\n";
	os << "# the trace's tasks replayed as 'eevdf trace workload' writes them; '*': differs by more than "
	   << fixed(o.threshold * 100, 0) << "%\n";
	print_trace_warnings(mt.read, os, "# ", &mt.metrics);
	size_t flagged = 0;
	std::vector<const TaskMetrics*> ks;
	char line[256];
	for (size_t i = 0; i < res.pids.size(); i++) {
		const TaskMetrics* k = nullptr;
		for (const TaskMetrics& t : mt.metrics.tasks)
			if (t.pid == res.pids[i])
				k = &t;
		if (!k)
			continue;
		ks.push_back(k);
		const TaskMetrics& m = metrics.tasks[i];
		os << "\n" << res.workload.tasks[i].name << " (model pid " << m.pid << ")\n";
		std::snprintf(line, sizeof line, "  %-14s %12s %12s %9s\n", "metric", "kernel", "model", "diff");
		os << line;
		for (const Row& r : rows(*k, m)) {
			const bool f = differs(r, o.threshold);
			flagged += f;
			const std::string pct = r.kernel != 0 ? fixed((r.model - r.kernel) / std::fabs(r.kernel) * 100, 1) + "%" : "-";
			std::snprintf(line, sizeof line, "  %-14s %12s %12s %9s%s\n", r.name, fixed(r.kernel, r.prec).c_str(),
				      fixed(r.model, r.prec).c_str(), pct.c_str(), f ? " *" : "");
			os << line;
		}
	}
	os << "\n" << flagged << " metrics differ by more than " << fixed(o.threshold * 100, 0) << "%\n";
	size_t stuck = 0;
	for (const Task& t : sim.tasks())
		stuck += t.state == TaskState::Suspended;
	if (stuck)
		os << "warning: " << stuck << " replayed tasks were left suspended at the end: a resume came before its "
		   << "suspend and was lost, as rt-app loses it (drop --resume for timed sleeps)\n";
	std::cout << os.str();
	print_notes(res, std::cerr);
	return 0;
}

}  // namespace eevdf::cli
