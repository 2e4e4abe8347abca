// SPDX-License-Identifier: GPL-2.0-only
#include "report/metrics_json.hpp"

namespace eevdf::cli {

double mean(const Distribution& d) { return d.count ? static_cast<double>(d.sum) / static_cast<double>(d.count) : 0.0; }


std::vector<u64> tick_histogram(const SampleCounts& runs, u64 tick, u64& longer)
{
	std::vector<u64> counts;
	longer = 0;
	for (const auto& [r, n] : runs.counts()) {
		const u64 k = r / tick + ((r % tick) >= (tick + 1) / 2 ? 1 : 0);  // (r + tick / 2) / tick without overflow
		if (k >= MAX_TICK_BUCKETS) {
			longer += n;
			continue;
		}
		if (k >= counts.size())
			counts.resize(static_cast<size_t>(k) + 1);
		counts[static_cast<size_t>(k)] += n;
	}
	return counts;
}

namespace {

// Percentiles past SampleCounts' limit are bucket lower bounds: said so,
// with the bound on their error, only then (exact output is unchanged).
void mark_inexact(JsonWriter& w, const Distribution& d)
{
	if (!d.exact)
		w.member("percentiles_within_relative", 1.0 / static_cast<double>(u64{1} << d.precision_bits));
}

// A distribution as "run_ns" (with mean and min) or "wakeup_latency_ns" lists it.
void write_distribution(JsonWriter& w, const Distribution& d, bool with_mean_and_min)
{
	w.begin_object();
	w.member("count", d.count);
	if (with_mean_and_min) {
		w.member("mean", mean(d));
		w.member("min", d.min);
	}
	w.member("p50", d.p50);
	w.member("p90", d.p90);
	w.member("p99", d.p99);
	w.member("max", d.max);
	mark_inexact(w, d);
	w.end_object();
}

void write_histogram(JsonWriter& w, const SampleCounts& runs, u64 tick)
{
	u64 longer = 0;
	w.begin_object();
	w.member("bucket_ns", tick);
	w.key("counts");
	w.begin_array();
	for (u64 n : tick_histogram(runs, tick, longer))
		w.value(n);
	w.end_array();
	if (longer)
		w.member("longer", longer);
	w.end_object();
}

}  // namespace

// The members a task object and the summary share, from cpu_ns on.
void write_task_metrics(JsonWriter& w, const TaskMetrics& m, const MetricsShape& shape)
{
	const Distribution runs = summarize(m.runs);
	w.member("cpu_ns", m.cpu_ns);
	w.member("runs", runs.count);
	w.key("run_ns");
	write_distribution(w, runs, true);
	if (shape.tick_ns) {
		w.key("run_histogram");
		write_histogram(w, m.runs, shape.tick_ns);
	}
	w.member("switches", m.switches);
	w.member("involuntary_switches", m.involuntary_switches);
	w.key("wakeup_latency_ns");
	write_distribution(w, summarize(m.wakeup_latency), false);
	if (shape.lag)
		w.member("max_abs_lag_ns", m.max_abs_lag_ns);
	if (shape.smp) {
		w.member("migrations", m.migrations);
		w.key("wakeups");
		w.begin_object();
		w.member("total", m.wakeups);
		w.member("local", m.wakeups_local);
		w.member("remote", m.wakeups_remote);
		w.member("migrated", m.wakeups_migrate);
		w.end_object();
		w.member("run_delay_ns", m.run_delay_ns);
		w.key("cpu_ns_per_cpu");
		w.begin_array();
		for (u64 ns : m.cpu_ns_per_cpu)
			w.value(ns);
		w.end_array();
	}
}


}  // namespace eevdf::cli
