// SPDX-License-Identifier: GPL-2.0-only
// `eevdf sim --seeds N` (cli/ensemble.hpp): N seeds of one configuration,
// run as a sweep over the seed, summarised metric by metric.
#include "cli/ensemble.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/sweep.hpp"
#include "io/profile.hpp"
#include "io/values.hpp"
#include "model/check.hpp"
#include "model/metrics.hpp"

namespace eevdf::cli {

EnsembleMetric summarise_seeds(const std::string& name, const std::vector<double>& per_seed, double pooled)
{
	return {name, quantile_linear(per_seed, 0.5), quantile_linear(per_seed, 0.025),
		quantile_linear(per_seed, 0.975), pooled};
}

namespace {

double ms(u64 ns) { return static_cast<double>(ns) / 1e6; }
double us(u64 ns) { return static_cast<double>(ns) / 1e3; }

// One metric's value in a run, and over the pooled samples (or nullptr:
// the mean over the seeds stands for it).
struct MetricDef {
	const char* name;
	double (*of)(const SweepRow&);
	double (*pooled)(const TaskMetrics&);
};

double mean_run(const TaskMetrics& t)
{
	const Distribution d = summarize(t.runs);
	return d.count ? ms(d.sum) / static_cast<double>(d.count) : 0;
}

const MetricDef metric_defs[] = {
	{"mean_run_ms", [](const SweepRow& r) { return mean_run(r.total); }, mean_run},
	{"p50_run_ms", [](const SweepRow& r) { return ms(summarize(r.total.runs).p50); },
	 [](const TaskMetrics& t) { return ms(summarize(t.runs).p50); }},
	{"p99_run_ms", [](const SweepRow& r) { return ms(summarize(r.total.runs).p99); },
	 [](const TaskMetrics& t) { return ms(summarize(t.runs).p99); }},
	{"wakeup_p50_us", [](const SweepRow& r) { return us(summarize(r.total.wakeup_latency).p50); },
	 [](const TaskMetrics& t) { return us(summarize(t.wakeup_latency).p50); }},
	{"wakeup_p90_us", [](const SweepRow& r) { return us(summarize(r.total.wakeup_latency).p90); },
	 [](const TaskMetrics& t) { return us(summarize(t.wakeup_latency).p90); }},
	{"wakeup_p99_us", [](const SweepRow& r) { return us(summarize(r.total.wakeup_latency).p99); },
	 [](const TaskMetrics& t) { return us(summarize(t.wakeup_latency).p99); }},
	{"switches", [](const SweepRow& r) { return static_cast<double>(r.total.switches); }, nullptr},
	{"involuntary_switches", [](const SweepRow& r) { return static_cast<double>(r.total.involuntary_switches); },
	 nullptr},
	{"migrations", [](const SweepRow& r) { return static_cast<double>(r.total.migrations); }, nullptr},
	{"max_abs_lag_us", [](const SweepRow& r) { return us(static_cast<u64>(r.total.max_abs_lag_ns)); }, nullptr},
};

double mean(const std::vector<double>& v)
{
	double s = 0;
	for (double x : v)
		s += x;
	return v.empty() ? 0 : s / static_cast<double>(v.size());
}

}  // namespace

std::vector<EnsembleMetric> ensemble_metrics(const std::vector<SweepRow>& rows)
{
	std::vector<EnsembleMetric> out;
	TaskMetrics pooled;
	for (const SweepRow& r : rows)
		add_to_total(pooled, r.total);
	for (const MetricDef& m : metric_defs) {
		std::vector<double> v;
		for (const SweepRow& r : rows)
			v.push_back(m.of(r));
		out.push_back(summarise_seeds(m.name, v, m.pooled ? m.pooled(pooled) : mean(v)));
	}
	// Each task's share of a CPU (time on a CPU over the run), where
	// every row kept them.
	const size_t tasks = rows.front().task_cpu_ns.size();
	for (size_t i = 0; i < tasks; i++) {
		std::vector<double> v;
		for (const SweepRow& r : rows)
			v.push_back(r.duration_ns ? static_cast<double>(r.task_cpu_ns[i]) / static_cast<double>(r.duration_ns)
						  : 0);
		out.push_back(summarise_seeds("cpu_share[" + std::to_string(i) + "]", v, mean(v)));
	}
	return out;
}

int cmd_ensemble(const ModelOptions& mo, const SimOptions& so, unsigned seeds, unsigned jobs)
{
	if (seeds < 1 || seeds > MAX_SEEDS)
		throw UsageError("--seeds: " + std::to_string(seeds) + " is not 1.." + std::to_string(MAX_SEEDS));
	if (mo.seed > ~u64{0} - seeds)
		throw UsageError("--seeds: --seed " + std::to_string(mo.seed) + " + " + std::to_string(seeds) +
				 " seeds passes 2^64");
	for (const auto& [flag, v] : {std::pair{"--trace", so.trace}, {"--timehist", so.timehist}, {"--latency", so.latency},
				      {"--csv", so.csv}, {"--chrome", so.chrome}, {"--svg-lag", so.svg_lag}, {"--map", so.map}})
		if (!v.empty())
			throw UsageError(std::string(flag) + " writes one schedule; it cannot be combined with --seeds "
							     "(run 'eevdf sim --seed S' for the seed you want to see)");
	if (so.want_schbench)
		throw UsageError("--schbench cannot be combined with --seeds yet; the table has the wake-up percentiles");
	// The seeds as one sweep axis: S..S+N-1 in steps of 1.
	const std::string spec = "seed=" + std::to_string(mo.seed) + ".." + std::to_string(mo.seed + seeds - 1) + ":1";
	SimOptions quiet = so;
	quiet.json = false;
	const Sweep sw = run_sweep(mo, quiet, {spec}, jobs);

	const std::vector<EnsembleMetric> out = ensemble_metrics(sw.rows);
	const std::string profile = find_profile(mo.profile).name;
	if (so.check && sw.status == 0) {
		u64 events = 0;
		for (const SweepRow& r : sw.rows)
			events += r.events_checked;
		std::cerr << "eevdf: --check: " << events << " events checked in " << seeds << " seeds against "
			  << INVARIANT_NAMES.size() << " invariants (model/check.hpp): 0 violations\n";
	}
	if (so.json) {
		nlohmann::ordered_json doc;
		doc["ensemble"] = {{"seeds", seeds},
				   {"first_seed", mo.seed},
				   {"profile", profile},
				   {"interval", "2.5th..97.5th percentile of the per-seed values"},
				   {"pooled", "percentile of all seeds' samples together; for counts, the mean over seeds"}};
		nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
		for (const EnsembleMetric& m : out)
			metrics[m.name] = {{"median", m.median}, {"lo", m.lo}, {"hi", m.hi}, {"pooled", m.pooled}};
		doc["metrics"] = metrics;
		std::cout << doc.dump(2) << "\n";
		return sw.status;
	}
	std::printf("# ensemble: %u seeds (%llu..%llu), profile %s, on %u threads\n", seeds,
		    static_cast<unsigned long long>(mo.seed), static_cast<unsigned long long>(mo.seed + seeds - 1),
		    profile.c_str(), sw.jobs);
	std::printf("# median and 95%% interval: over the per-seed values (2.5th..97.5th percentile);\n"
		    "# pooled: the percentile of all seeds' samples together (for counts and shares, the mean)\n");
	std::printf("| metric               |       median | 95%% of seeds              |       pooled |\n"
		    "| -------------------- | ------------ | ------------------------- | ------------ |\n");
	for (const EnsembleMetric& m : out)
		std::printf("| %-20s | %12.3f | %11.3f .. %-11.3f | %12.3f |\n", m.name.c_str(), m.median, m.lo, m.hi,
			    m.pooled);
	return sw.status;
}

}  // namespace eevdf::cli
