// SPDX-License-Identifier: GPL-2.0-only
#include "cli/schbench_cmd.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/activity.hpp"
#include "cli/ensemble.hpp"
#include "cli/sweep.hpp"
#include "io/profile.hpp"
#include "io/rtapp.hpp"
#include "io/schbench.hpp"
#include "io/values.hpp"
#include "model/simulation.hpp"
#include "report/outputs.hpp"
#include "report/run_record.hpp"
#include "report/schbench_meter.hpp"
#include "report/version.hpp"
#include "report/run_budget.hpp"

namespace eevdf::cli {

namespace {

// The percentiles schbench's --json writes (write_json_stats()), and the
// sample count, min and max.
nlohmann::ordered_json percentiles(const SchbenchStats& st)
{
	nlohmann::ordered_json j = {{"count", st.samples()}};
	if (!st.samples())
		return j;
	for (const SchbenchStats::Row& r : st.percentiles()) {
		char name[16];
		std::snprintf(name, sizeof name, "p%g", r.pct);
		j[name] = r.value;
	}
	j["min"] = st.min();
	j["max"] = st.max();
	return j;
}

// The checked options, the workload and the warm-up: what every seed's run
// shares.
struct Prepared {
	SchbenchOptions o;
	Workload wl;
	std::vector<size_t> with_tasks;
	u64 warmup_s = 0;
};

Prepared prepare(const ModelOptions& mo, const SchbenchCmdOptions& so)
{
	if (so.message_threads < 1)
		throw UsageError("schbench -m: " + std::to_string(so.message_threads) + " message threads; need at least 1");
	if (so.workers < 0)
		throw UsageError("schbench -t: " + std::to_string(so.workers) + " workers; need at least 1 (0: the default)");
	if (so.operations < 0)
		throw UsageError("schbench -n: " + std::to_string(so.operations) + " operations; need 0 or more");
	if (so.runtime_s < 1 || so.runtime_s > MAX_SCHBENCH_RUNTIME_S)
		throw UsageError("schbench -r: runtime " + std::to_string(so.runtime_s) + " s; need 1.." +
				 std::to_string(MAX_SCHBENCH_RUNTIME_S) + " seconds");
	if (so.sleep_us > MAX_TIME_NS / NSEC_PER_USEC)
		throw UsageError("schbench -s: " + std::to_string(so.sleep_us) + " us is beyond 2^62 ns (" +
				 std::to_string(MAX_TIME_NS / NSEC_PER_USEC) + " us)");
	// schbench forces the warm-up to 0 for runs under 30 s; past that it
	// must leave some of the run to measure.
	if (so.runtime_s >= 30 && so.warmup_s >= so.runtime_s)
		throw UsageError("schbench -w: a warm-up of " + std::to_string(so.warmup_s) +
				 " s leaves nothing of -r " + std::to_string(so.runtime_s) +
				 " s to measure; give -w below -r");
	if (!so.pin.empty() && so.pin != "auto")
		throw UsageError("schbench -M " + so.pin + ": only 'auto' is modelled (message thread i on CPU i)");
	if (so.operations > 0 && so.op_cost.empty())
		throw UsageError("schbench -n " + std::to_string(so.operations) +
				 ": give --op-cost DUR, the CPU time of one matrix operation on the machine modelled (or -n 0)");
	const Config cfg = build_config(mo);
	SchbenchOptions o;
	o.message_threads = so.message_threads;
	o.workers = so.workers;
	o.runtime_ns = so.runtime_s * NSEC_PER_SEC;
	o.sleep_ns = so.sleep_us * NSEC_PER_USEC;
	o.operations = so.operations;
	o.op_cost_ns = so.op_cost.empty() ? 0 : parse_duration(so.op_cost, "--op-cost");
	o.no_locking = so.no_locking;
	o.pin_auto = so.pin == "auto";
	o.timer_slack_ns = parse_duration(so.timer_slack, "--timer-slack");
	o.msg_cost_ns = parse_duration(so.msg_cost, "--msg-cost");
	o.worker_cost_ns = parse_duration(so.worker_cost, "--worker-cost");
	if (so.stress < 0 || so.stress > MAX_SCHBENCH_STRESS)
		throw UsageError("--stress: " + std::to_string(so.stress) + " stressors; need 0.." +
				 std::to_string(MAX_SCHBENCH_STRESS));
	o.stress = so.stress;
	o.schbench_slice_ns = so.schbench_slice.empty() ? 0 : parse_duration(so.schbench_slice, "--schbench-slice");
	o.stress_slice_ns = so.stress_slice.empty() ? 0 : parse_duration(so.stress_slice, "--stress-slice");
	if (o.msg_cost_ns == 0 || o.sleep_ns + o.timer_slack_ns == 0)
		throw UsageError("schbench: --msg-cost and the sleep (-s plus --timer-slack) must be above 0, or no time passes");
	// schbench forces the warm-up to 0 for runs under 30 s.
	Prepared p{o, schbench_workload(o, cfg.cpus), {}, so.runtime_s < 30 ? 0 : so.warmup_s};
	for (const std::string& f : so.with) {
		const Workload extra = load_rtapp_file(f);
		append_workload(p.wl, extra, f);
		p.with_tasks.push_back(extra.tasks.size());
	}
	return p;
}

// What one seed's run gives.
struct SeedRun {
	SchbenchStats wakeup, request, rps;
	double average_rps = 0;
	u64 wakeups = 0, delayed_wakeups = 0;
};

SeedRun run_seed(const ModelOptions& mo, const Prepared& p, u64 runtime_s)
{
	const Config cfg = build_config(mo);
	Simulation sim(cfg, p.wl);
	SchbenchMeter meter(sim, p.warmup_s * NSEC_PER_SEC);
	sim.add_observer(&meter);
	run_bounded(sim);
	return {meter.wakeup,
		meter.request,
		schbench_rps_stats(meter.requests_per_s),
		static_cast<double>(meter.requests) / static_cast<double>(runtime_s - p.warmup_s),
		meter.wakeups,
		meter.delayed_wakeups};
}

// One figure of every seed's run, and of the pooled samples.
struct Figure {
	const char* name;
	double (*of)(const SeedRun&);
};
double at(const SchbenchStats& st, double pct) { return static_cast<double>(st.value_at(pct)); }
constexpr Figure FIGURES[] = {
	{"wakeup_p50_us", [](const SeedRun& r) { return at(r.wakeup, 50); }},
	{"wakeup_p90_us", [](const SeedRun& r) { return at(r.wakeup, 90); }},
	{"wakeup_p99_us", [](const SeedRun& r) { return at(r.wakeup, 99); }},
	{"wakeup_p99.9_us", [](const SeedRun& r) { return at(r.wakeup, 99.9); }},
	{"request_p50_us", [](const SeedRun& r) { return at(r.request, 50); }},
	{"request_p90_us", [](const SeedRun& r) { return at(r.request, 90); }},
	{"request_p99_us", [](const SeedRun& r) { return at(r.request, 99); }},
	{"request_p99.9_us", [](const SeedRun& r) { return at(r.request, 99.9); }},
	{"rps_p20", [](const SeedRun& r) { return at(r.rps, 20); }},
	{"rps_p50", [](const SeedRun& r) { return at(r.rps, 50); }},
	{"rps_p90", [](const SeedRun& r) { return at(r.rps, 90); }},
	{"average_rps", [](const SeedRun& r) { return r.average_rps; }},
	{"delayed_wakeup_fraction",
	 [](const SeedRun& r) {
		 return r.wakeups ? static_cast<double>(r.delayed_wakeups) / static_cast<double>(r.wakeups) : 0.0;
	 }},
};

int schbench_ensemble(const ModelOptions& mo, const SchbenchCmdOptions& so)
{
	if (so.seeds < 1 || so.seeds > MAX_SEEDS)
		throw UsageError("--seeds: " + std::to_string(so.seeds) + " is not 1.." + std::to_string(MAX_SEEDS));
	if (mo.seed > ~u64{0} - so.seeds)
		throw UsageError("--seeds: --seed " + std::to_string(mo.seed) + " + " + std::to_string(so.seeds) +
				 " seeds passes 2^64");
	const Prepared p = prepare(mo, so);
	const Config cfg = build_config(mo);
	warn_adjustments(adjustments(cfg, p.wl));
	set_activity("simulating the seeds");
	std::vector<SeedRun> runs(so.seeds);
	const unsigned jobs = run_parallel(so.seeds, so.jobs, [&](size_t i) {
		ModelOptions m = mo;
		m.seed = mo.seed + i;
		runs[i] = run_seed(m, p, so.runtime_s);
	});
	// The pooled figures: every seed's samples in one histogram (the
	// percentiles schbench would print for one run as long as all of them),
	// and for the averages the mean over the seeds.
	SeedRun pooled;
	for (const SeedRun& r : runs) {
		pooled.wakeup.merge(r.wakeup);
		pooled.request.merge(r.request);
		pooled.rps.merge(r.rps);
		pooled.average_rps += r.average_rps / static_cast<double>(runs.size());
		pooled.wakeups += r.wakeups;
		pooled.delayed_wakeups += r.delayed_wakeups;
	}
	std::vector<EnsembleMetric> out;
	bool identical = true;
	for (const Figure& f : FIGURES) {
		std::vector<double> v;
		for (const SeedRun& r : runs)
			v.push_back(f.of(r));
		identical = identical && std::all_of(v.begin(), v.end(), [&](double x) { return x == v.front(); });
		out.push_back(summarise_seeds(f.name, v, f.of(pooled)));
	}
	const std::string profile = find_profile(mo.profile).name;
	// Under the exact profile the seed draws no cost: only --tick-jitter
	// and NI_RANDOM's sampling read it, so the seeds may all be one run.
	// Say so rather than let a zero-width interval pass for a measured one.
	const std::string same =
		!identical ? ""
			   : std::string("every seed gave the same figures") +
				     (profile == "exact" ? " (the exact profile draws no cost from the seed)" : "") +
				     ": the interval is one run, not a spread";
	if (so.json) {
		nlohmann::ordered_json j;
		j["eevdf"] = version_json();
		j["model"] = describe(cfg);
		j["ensemble"] = {
			{"seeds", so.seeds},
			{"first_seed", mo.seed},
			{"profile", profile},
			{"interval", "2.5th..97.5th percentile of the per-seed values"},
			{"pooled",
			 "schbench's percentile of all seeds' samples together; for averages, the mean over seeds"},
			{"identical_seeds", identical}};
		nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
		for (const EnsembleMetric& m : out)
			metrics[m.name] = {{"median", m.median}, {"lo", m.lo}, {"hi", m.hi}, {"pooled", m.pooled}};
		j["metrics"] = metrics;
		std::cout << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
		return 0;
	}
	std::cout << "# eevdf model: " << describe(cfg) << "\n";
	for (size_t i = 0; i < so.with.size(); i++)
		std::cout << "# with " << so.with[i] << ": " << p.with_tasks[i] << " tasks beside schbench's\n";
	std::printf("# ensemble: %u seeds (%llu..%llu), profile %s, on %u threads\n", so.seeds,
		    static_cast<unsigned long long>(mo.seed), static_cast<unsigned long long>(mo.seed + so.seeds - 1),
		    profile.c_str(), jobs);
	std::printf("# median and 95%% interval: over the per-seed values (2.5th..97.5th percentile);\n"
		    "# pooled: schbench's percentile of all seeds' samples together (average_rps: the mean)\n");
	if (!same.empty())
		std::printf("# %s\n", same.c_str());
	std::printf("| metric                  |       median | 95%% of seeds              |       pooled |\n"
		    "| ----------------------- | ------------ | ------------------------- | ------------ |\n");
	for (const EnsembleMetric& m : out)
		std::printf("| %-23s | %12.3f | %11.3f .. %-11.3f | %12.3f |\n", m.name.c_str(), m.median, m.lo, m.hi,
			    m.pooled);
	return 0;
}

}  // namespace

int cmd_schbench(const ModelOptions& mo, const SchbenchCmdOptions& so)
{
	if (so.ensemble)
		return schbench_ensemble(mo, so);
	const Prepared p = prepare(mo, so);
	const Config cfg = build_config(mo);
	const SchbenchOptions& o = p.o;
	const Workload& wl = p.wl;
	const std::vector<size_t>& with_tasks = p.with_tasks;
	const u64 warmup_s = p.warmup_s;
	const std::vector<Adjustment> adj = adjustments(cfg, wl);
	warn_adjustments(adj);
	set_activity("simulating");
	Simulation sim(cfg, wl);
	SchbenchMeter meter(sim, warmup_s * NSEC_PER_SEC);
	sim.add_observer(&meter);
	run_bounded(sim);
	const double avg = static_cast<double>(meter.requests) / static_cast<double>(so.runtime_s - warmup_s);
	if (so.json) {
		nlohmann::ordered_json j;
		j["eevdf"] = version_json();
		j["model"] = describe(cfg);
		if (!adj.empty())
			j["adjustments"] = adjustments_json(adj);
		j["schbench"] = {{"message_threads", o.message_threads}, {"workers_per_message_thread", schbench_workers(o, cfg.cpus)},
				 {"runtime_s", so.runtime_s}, {"sleep_us", so.sleep_us}, {"operations", o.operations},
				 {"op_cost_ns", o.op_cost_ns}, {"pin", o.pin_auto ? "auto" : "none"}, {"timer_slack_ns", o.timer_slack_ns},
				 {"msg_cost_ns", o.msg_cost_ns}, {"worker_cost_ns", o.worker_cost_ns}, {"warmup_s", warmup_s},
				 {"stress", o.stress}, {"schbench_slice_ns", o.schbench_slice_ns},
				 {"stress_slice_ns", o.stress_slice_ns}};
		if (!so.with.empty()) {
			nlohmann::ordered_json w = nlohmann::ordered_json::array();
			for (size_t i = 0; i < so.with.size(); i++)
				w.push_back({{"file", so.with[i]}, {"tasks", with_tasks[i]}});
			j["schbench"]["with"] = w;
		}
		j["wakeup_latency_us"] = percentiles(meter.wakeup);
		j["request_latency_us"] = percentiles(meter.request);
		j["rps"] = percentiles(schbench_rps_stats(meter.requests_per_s));
		j["average_rps"] = avg;
		j["worker_wakeups"] = meter.wakeups;
		j["worker_wakeups_delayed"] = meter.delayed_wakeups;
		j["busy_ns"] = sim.busy_ns();
		j["idle_ns"] = sim.idle_ns();
		std::cout << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
		return 0;
	}
	std::cout << "# eevdf model: " << describe(cfg) << "\n";
	for (const Adjustment& a : adj)
		std::cout << "# adjusted: " << a.text() << "\n";
	for (size_t i = 0; i < so.with.size(); i++)
		std::cout << "# with " << so.with[i] << ": " << with_tasks[i] << " tasks beside schbench's\n";
	std::cout << meter.wakeup.show("Wakeup Latencies", "usec", so.runtime_s, PLIST_FOR_LAT, PLIST_99);
	std::cout << meter.request.show("Request Latencies", "usec", so.runtime_s, PLIST_FOR_LAT, PLIST_99);
	std::cout << format_schbench_rps(meter.requests_per_s, so.runtime_s);
	char b[64];
	std::snprintf(b, sizeof b, "average rps: %.2f\n", avg);
	std::cout << b;
	return 0;
}

}  // namespace eevdf::cli
