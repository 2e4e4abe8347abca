// SPDX-License-Identifier: GPL-2.0-only
// `eevdf trace workload TRACE -o W.json` and `eevdf trace compare TRACE`:
// the trace's tasks as an rt-app workload (trace/to_workload.hpp), and that
// workload simulated beside the trace, metric by metric.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <sstream>

#include "cli/trace_cmd.hpp"
#include "cli/trace_input.hpp"
#include "cli/write_file.hpp"
#include "io/input_error.hpp"
#include "io/model_options.hpp"
#include "io/rtapp.hpp"
#include "io/values.hpp"
#include "model/cpumask.hpp"
#include "model/metrics.hpp"
#include "model/simulation.hpp"
#include "report/fixed_decimal.hpp"
#include "report/metrics_json.hpp"
#include "report/side_by_side.hpp"
#include "report/run_budget.hpp"
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
		wo.select = [&](const std::string& comm, int pid) { return task_selected(o, comm, pid); };
	trace::ToWorkloadResult res = trace::to_workload(r, wo);
	if (r.stats().events == 0)
		not_a_scheduler_trace(o.file == "-" ? std::string("<stdin>") : o.file, r.stats().lines);
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
	run_bounded(sim);
	metrics.finish(sim);

	std::ostringstream os;
	os << "# kernel: " << o.file << " (" << trace::format_name(mt.read.format) << ", " << mt.read.cpus()
	   << " CPUs); model: " << describe(cfg) << "\n";
	os << "# the trace's tasks replayed as 'eevdf trace workload' writes them; '*': differs by more than "
	   << percent(o.threshold) << "\n";
	print_trace_warnings(mt.read, os, "# ", &mt.metrics);
	size_t flagged = 0;
	for (size_t i = 0; i < res.pids.size(); i++) {
		const TaskMetrics* k = nullptr;
		for (const TaskMetrics& t : mt.metrics.tasks)
			if (t.pid == res.pids[i])
				k = &t;
		if (!k)
			continue;
		flagged += write_side_by_side(os, res.workload.tasks[i].name + " (model pid " + std::to_string(metrics.tasks[i].pid) + ")",
					      *k, metrics.tasks[i], o.threshold);
	}
	os << "\n" << flagged << " metrics differ by more than " << percent(o.threshold) << "\n";
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
