// SPDX-License-Identifier: GPL-2.0-only
#include "cli/sim.hpp"

#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/activity.hpp"
#include "cli/write_file.hpp"
#include "io/output_file.hpp"
#include "io/output_spool.hpp"
#include "io/rtapp.hpp"
#include "io/values.hpp"
#include "model/check.hpp"
#include "model/metrics.hpp"
#include "model/simulation.hpp"
#include "report/deadlock.hpp"
#include "report/ftrace.hpp"
#include "report/outputs.hpp"
#include "report/plots.hpp"
#include "report/record.hpp"
#include "report/report.hpp"
#include "report/run_record.hpp"
#include "report/run_budget.hpp"

namespace eevdf::cli {
namespace {

// Reports an invariant violation with the state and a replayable workload file.
int report_violation(const Simulation& sim, const InvariantViolation& v, const std::string& path,
		     const std::string& workload_file)
{
	const CheckFailure& f = v.failure;
	std::cerr << "eevdf: invariant '" << f.invariant << "' violated after event " << f.event << " at t=" << f.t
		  << " ns\n  " << f.detail << "\nrun queue:\n" << f.state;
	try {
		write_file_atomic(path, to_rtapp_json(rtapp_terminating(sim.workload())), "--counterexample",
				  workload_file.empty() ? std::vector<std::string>{} : std::vector<std::string>{workload_file});
		std::cerr << "replay: eevdf sim " << path << " " << command_line_flags(sim.config()) << " --duration "
			  << (f.t / 1000 + 1) << "us --check\n";
	} catch (const std::exception& e) {
		std::cerr << "eevdf: could not write the counterexample: " << e.what() << "\n";
	}
	return 1;
}

std::string process_name(const Config& cfg)
{
	return "eevdf model (kernel " + std::string(cfg.preset->name) + ", HZ=" + std::to_string(cfg.hz) + ")";
}

}  // namespace

Workload build_workload(const SimOptions& s, RtappNotes* notes)
{
	if (s.workload.empty() == (s.hogs == 0))
		throw UsageError("sim: give a workload file or --hogs N (exactly one); see 'eevdf sim --help'");
	Workload wl;
	if (s.hogs) {
		if (s.hogs < 0 || s.hogs > MAX_HOGS)
			throw UsageError("--hogs: " + std::to_string(s.hogs) + " is outside 1.." + std::to_string(MAX_HOGS));
		if (s.nice < MIN_NICE || s.nice > MAX_NICE)
			throw UsageError("--nice: " + std::to_string(s.nice) + " is outside -20..19");
		wl = hogs_workload(s.hogs, 10 * NSEC_PER_SEC);
		for (TaskSpec& t : wl.tasks) {
			t.nice = s.nice;
			if (!s.custom_slice.empty())
				t.custom_slice = parse_duration(s.custom_slice, "--custom-slice");
			if (!s.pin.empty())
				t.cpus = parse_cpu_list(s.pin, "--pin");
		}
	} else {
		if (!s.pin.empty())
			throw UsageError("--pin applies to --hogs; a workload file sets \"cpus\" per task");
		if (s.nice || !s.custom_slice.empty())
			throw UsageError("--nice and --custom-slice apply to --hogs; a workload file sets priority and dl-runtime per task");
		wl = load_rtapp_file(s.workload, notes);
	}
	if (!s.duration.empty()) {
		wl.duration = parse_duration(s.duration, "--duration");
		if (wl.duration == 0)
			throw UsageError("--duration: must be positive");
	}
	return wl;
}

int cmd_sim(const ModelOptions& mo, const SimOptions& so)
{
	const Config cfg = build_config(mo);
	RtappNotes notes;
	Workload wl = build_workload(so, &notes);
	// Once, on stderr: keys rt-app reads that do not change the fair class.
	if (!notes.ignored.empty()) {
		std::string keys;
		for (const std::string& k : notes.ignored)
			keys += (keys.empty() ? "" : ", ") + k;
		std::cerr << "eevdf: " << so.workload << ": ignored (rt-app settings with no effect on the fair class): "
			  << keys << "\n";
	}
	if (notes.workgen_suspends)
		std::cerr << "eevdf: " << so.workload << ": read as rt-app's workgen rewrites it: " << notes.workgen_suspends
			  << " bare \"suspend\" key" << (notes.workgen_suspends == 1 ? "" : "s")
			  << " given the name of the task they are in\n";
	warn_adjustments(adjustments(cfg, wl));
	if (!so.pin.empty())
		for (u32 c : parse_cpu_list(so.pin, "--pin"))
			if (c >= cfg.cpus)
				throw UsageError("--pin " + so.pin + ": CPU " + std::to_string(c) + " is not one of the model's " +
						 std::to_string(cfg.cpus) + " (0.." + std::to_string(cfg.cpus - 1) +
						 "; simulate more with --cpus)");
	// An error the model finds in a file's workload (a task's cpus outside
	// --cpus) names the file.
	try {
		validate_workload(cfg, wl);
	} catch (const WorkloadError& e) {
		if (so.workload.empty())
			throw;
		throw WorkloadError(so.workload + ": " + e.what());
	}
	if (so.want_schbench && so.schbench == "-" && so.json)
		throw UsageError("--schbench: with --json, give a file (--schbench FILE) so stdout stays one JSON document");
	// FILE "-" sends that output to stdout in place of the table: it cannot
	// share stdout with --json or the schbench block.
	for (const auto& [flag, path] : {std::pair{"--trace", &so.trace}, {"--timehist", &so.timehist}, {"--latency", &so.latency},
					 {"--csv", &so.csv}, {"--map", &so.map}, {"--chrome", &so.chrome},
					 {"--svg-lag", &so.svg_lag}})
		if (*path == "-" && (so.json || (so.want_schbench && so.schbench == "-")))
			throw UsageError(std::string(flag) + " -: the standard output already carries " +
					 (so.json ? "--json" : "the --schbench block") + "; write one of them to a file");
	if (so.trace_waking && so.trace.empty())
		throw UsageError("--trace-waking: it adds sched_waking lines to the --trace output; give --trace FILE");
	if ((!so.svg_from.empty() || !so.svg_to.empty()) && so.svg_lag.empty())
		throw UsageError("--from/--to: they set the window of the --svg-lag figure; give --svg-lag FILE");
	const u64 from = so.svg_from.empty() ? 0 : parse_duration(so.svg_from, "--from");
	const u64 to = so.svg_to.empty() ? 0 : parse_duration(so.svg_to, "--to");
	if (!so.svg_to.empty() && to <= from)
		throw UsageError("--to " + so.svg_to + ": must be after --from (" + (so.svg_from.empty() ? "0" : so.svg_from) + ")");
	set_activity("building the model");
	Simulation sim(cfg, std::move(wl));
	MetricsCollector metrics;
	FtraceWriter trace(so.trace_waking);
	Recorder rec(!so.chrome.empty() || !so.svg_lag.empty(), !so.map.empty());
	sim.add_observer(&metrics);
	if (!so.trace.empty()) {
		trace.spool_to(so.trace, "--trace");  // a long run's trace is gigabytes: on disk, not in memory
		sim.add_observer(&trace);
	}
	const bool recording = !(so.timehist.empty() && so.latency.empty() && so.csv.empty() && so.map.empty() &&
				 so.chrome.empty() && so.svg_lag.empty());
	if (recording)
		sim.add_observer(&rec);
	InvariantChecker checker;
	if (so.check)
		sim.add_observer(&checker);
	DeadlockWatch deadlock_watch;
	sim.add_observer(&deadlock_watch);
	set_activity("simulating");
	try {
		run_bounded(sim);
	} catch (const InvariantViolation& v) {
		return report_violation(sim, v, so.counterexample, so.workload);
	}
	set_activity("formatting the outputs");
	metrics.finish(sim);
	if (recording)  // the names and pids of every task, for the outputs that read the record
		rec.finish(sim);
	// Every output file of the run, whole or not at all together, before
	// anything goes to stdout. The long ones (a line or more per run or
	// switch) are written to their temporaries as they are formatted, so
	// that only the run's record is in memory, never their whole text.
	std::vector<std::unique_ptr<OutputSpool>> spools;  // outlive `outs`, which reads them
	OutputSet outs;
	auto spooled = [&](const std::string& path, const char* flag, const auto& write) {
		OutputSpool& spool = *spools.emplace_back(std::make_unique<OutputSpool>(path, flag));
		write([&spool](std::string_view text) { spool.write(text); });
		outs.add(path, "", &spool, "", flag);
	};
	if (!so.workload.empty())
		outs.add_input(so.workload, "the workload file");
	if (!so.trace.empty())
		outs.add(so.trace, trace.header(), trace.spool(), trace.held(), "--trace");
	if (!so.timehist.empty())
		spooled(so.timehist, "--timehist", [&](const TextSink& sink) { write_timehist(rec, sink); });
	if (!so.latency.empty())
		outs.add(so.latency, format_latency(rec), "--latency");
	if (!so.csv.empty())
		spooled(so.csv, "--csv", [&](const TextSink& sink) { write_csv(rec, sink); });
	if (!so.map.empty())
		spooled(so.map, "--map", [&](const TextSink& sink) { write_sched_map(rec, sink); });
	if (!so.chrome.empty())
		spooled(so.chrome, "--chrome", [&](const TextSink& sink) { write_chrome(rec, process_name(cfg), sink); });
	if (!so.svg_lag.empty())
		outs.add(so.svg_lag, lag_figure(rec, "Lag and v - V, " + process_name(cfg), from, to), "--svg-lag");
	std::string schbench;
	if (so.want_schbench) {
		schbench = format_schbench(total_metrics(metrics).wakeup_latency, sim.now());
		if (so.schbench != "-")
			outs.add(so.schbench, schbench, "--schbench");
	}
	set_activity("writing the output files");
	if (const std::string err = outs.commit(); !err.empty())
		throw UsageError(err);
	set_activity("printing the report");
	std::vector<int> pids;
	for (const TaskMetrics& m : metrics.tasks)
		pids.push_back(m.pid);
	const std::optional<Deadlock> deadlock = deadlock_watch.find(sim, pids);
	if (deadlock)  // tasks waited to the end of the run: say on what
		std::cerr << "eevdf: " << (so.workload.empty() ? "" : so.workload + ": ") << describe(*deadlock) << "\n";
	const Report r{sim, metrics, deadlock ? &*deadlock : nullptr};
	if (!outs.stdout_flag().empty())  // FILE "-": that output is the whole of stdout
		outs.write_stdout(std::cout);
	else if (so.json)
		write_json(r, std::cout);
	else
		write_table(r, std::cout);
	if (so.want_schbench && so.schbench == "-")
		std::cout << "\n" << schbench;
	if (sim.cfs_rq().pick_failures) {
		std::cerr << "eevdf: invariant violated: " << sim.cfs_rq().pick_failures
			  << " picks found no eligible entity\n";
		return 1;
	}
	// On stderr, so that --json stays one document.
	if (so.check)
		std::cerr << "eevdf: --check: " << checker.events_checked() << " events checked against "
			  << INVARIANT_NAMES.size() << " invariants (model/check.hpp): 0 violations\n";
	return 0;
}

}  // namespace eevdf::cli
