// SPDX-License-Identifier: GPL-2.0-only
#include "cli/report.hpp"

#include <cstdio>
#include <ostream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "cli/run_record.hpp"
#include "cli/version.hpp"
#include "model/fair.hpp"

namespace eevdf::cli {
namespace {

using ordered_json = nlohmann::ordered_json;

double mean(const Distribution& d) { return d.count ? static_cast<double>(d.sum) / static_cast<double>(d.count) : 0.0; }

// Percentiles past SampleCounts' limit are bucket lower bounds: said so,
// with the bound on their error, only then (exact output is unchanged).
void mark_inexact(ordered_json& j, const Distribution& d)
{
	if (!d.exact)
		j["percentiles_within_relative"] = 1.0 / static_cast<double>(u64{1} << d.precision_bits);
}

ordered_json run_json(const Distribution& d)
{
	ordered_json j{{"count", d.count}, {"mean", mean(d)}, {"min", d.min}, {"p50", d.p50},
		       {"p90", d.p90},     {"p99", d.p99},    {"max", d.max}};
	mark_inexact(j, d);
	return j;
}

ordered_json latency_json(const Distribution& d)
{
	ordered_json j{{"count", d.count}, {"p50", d.p50}, {"p90", d.p90}, {"p99", d.p99}, {"max", d.max}};
	mark_inexact(j, d);
	return j;
}

// Runs counted by their length in ticks, rounded to the nearest tick: with
// a periodic tick runs are quantised to ticks (give or take the jitter), so
// this is the distribution that matters. counts[k] = runs of k ticks, for k
// up to MAX_TICK_BUCKETS - 1; `longer` counts the runs past that (a run of
// 2^62 ns would otherwise ask for 2^42 buckets).
constexpr size_t MAX_TICK_BUCKETS = size_t{1} << 16;

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

ordered_json histogram_json(const SampleCounts& runs, u64 tick)
{
	u64 longer = 0;
	ordered_json j{{"bucket_ns", tick}, {"counts", tick_histogram(runs, tick, longer)}};
	if (longer)
		j["longer"] = longer;
	return j;
}

ordered_json task_json(const TaskMetrics& m, u64 tick, bool smp)
{
	const Distribution runs = summarize(m.runs);
	ordered_json j;
	j["name"] = m.name;
	j["pid"] = m.pid;
	j["cpu_ns"] = m.cpu_ns;
	j["runs"] = runs.count;
	j["run_ns"] = run_json(runs);
	j["run_histogram"] = histogram_json(m.runs, tick);
	j["switches"] = m.switches;
	j["involuntary_switches"] = m.involuntary_switches;
	j["wakeup_latency_ns"] = latency_json(summarize(m.wakeup_latency));
	j["max_abs_lag_ns"] = m.max_abs_lag_ns;
	if (smp) {
		j["migrations"] = m.migrations;
		j["wakeups"] = ordered_json{{"total", m.wakeups}, {"local", m.wakeups_local},
					   {"remote", m.wakeups_remote}, {"migrated", m.wakeups_migrate}};
		j["run_delay_ns"] = m.run_delay_ns;
		j["cpu_ns_per_cpu"] = m.cpu_ns_per_cpu;
	}
	return j;
}

std::string ms(u64 ns) { char b[32]; std::snprintf(b, sizeof b, "%.3f", static_cast<double>(ns) / 1e6); return b; }
std::string ms(double ns) { char b[32]; std::snprintf(b, sizeof b, "%.3f", ns / 1e6); return b; }
std::string us(u64 ns) { char b[32]; std::snprintf(b, sizeof b, "%.1f", static_cast<double>(ns) / 1e3); return b; }

// `text` (a dump with indent 2) as a value nested `by` columns deeper.
std::string indented(const std::string& text, size_t by)
{
	std::string out;
	out.reserve(text.size() + text.size() / 8);
	for (char ch : text) {
		out += ch;
		if (ch == '\n')
			out.append(by, ' ');
	}
	return out;
}

// One member of the top-level object, as ordered_json::dump(2) writes it.
void member(std::ostream& os, const char* key, const ordered_json& value, bool first)
{
	os << (first ? "  \"" : ",\n  \"") << key << "\": " << indented(value.dump(2), 2);
}

}  // namespace

TaskMetrics total_metrics(const MetricsCollector& m)
{
	TaskMetrics t;
	t.name = "total";
	for (const TaskMetrics& x : m.tasks) {
		t.cpu_ns += x.cpu_ns;
		t.runs.merge(x.runs);
		t.switches += x.switches;
		t.involuntary_switches += x.involuntary_switches;
		t.wakeup_latency.merge(x.wakeup_latency);
		t.max_abs_lag_ns = std::max(t.max_abs_lag_ns, x.max_abs_lag_ns);
		t.migrations += x.migrations;
		t.wakeups += x.wakeups;
		t.wakeups_local += x.wakeups_local;
		t.wakeups_remote += x.wakeups_remote;
		t.wakeups_migrate += x.wakeups_migrate;
		t.run_delay_ns += x.run_delay_ns;
		if (t.cpu_ns_per_cpu.size() < x.cpu_ns_per_cpu.size())
			t.cpu_ns_per_cpu.resize(x.cpu_ns_per_cpu.size());
		for (size_t c = 0; c < x.cpu_ns_per_cpu.size(); c++)
			t.cpu_ns_per_cpu[c] += x.cpu_ns_per_cpu[c];
	}
	return t;
}

void write_json(const Report& r, std::ostream& os)
{
	const Config& c = r.sim.config();
	ordered_json cfg;
	cfg["kernel"] = std::string(c.preset->name);
	cfg["kernel_description"] = std::string(c.preset->description);
	cfg["hz"] = c.hz;
	cfg["tick_ns"] = c.tick_ns;
	cfg["base_slice_ns"] = c.base_slice_ns;
	cfg["cpus"] = c.cpus;
	if (c.online_cpus != c.cpus)
		cfg["online_cpus"] = c.online_cpus;
	if (c.cpus > 1) {
		cfg["llc_size"] = llc_size_of(c);
		cfg["skew_tick"] = c.skew_tick;
	}
	if (c.preempt != Preempt::None)
		cfg["preempt"] = std::string(preempt_name(c.preempt));
	ordered_json feats = ordered_json::object();
	// The SMP features only where there are several CPUs (they decide
	// nothing on one), so one-CPU documents keep their shape.
	const unsigned nfeat = c.cpus > 1 ? static_cast<unsigned>(feature_names.size()) : FIRST_SMP_FEATURE;
	for (unsigned i = 0; i < nfeat; i++)
		feats[std::string(feature_names[i])] = c.features[static_cast<Feature>(i)];
	cfg["features"] = feats;
	cfg["seed"] = c.seed;
	// Only when some are switched in, so a clean run's document is unchanged.
	ordered_json bugs = ordered_json::array();
	for (unsigned i = 0; i < bug_info.size(); i++)
		if (c.bugs[static_cast<Bug>(i)])
			bugs.push_back(std::string(bug_info[i].name));
	if (!bugs.empty())
		cfg["bugs"] = bugs;
	// Only when the kernel would clamp or ignore a setting (run_record.hpp).
	if (const auto adj = adjustments(c, r.sim.workload()); !adj.empty())
		cfg["adjustments"] = adjustments_json(adj);
	cfg["knobs"] = ordered_json{{"tick_phase_ns", c.knobs.tick_phase},
				    {"tick_jitter_ns", c.knobs.tick_jitter},
				    {"switch_cost_ns", c.knobs.switch_cost}};
	if (c.cpus > 1) {
		cfg["knobs"]["ipi_latency_ns"] = c.knobs.ipi_latency;
		cfg["knobs"]["idle_exit_latency_ns"] = c.knobs.idle_exit_latency;
		cfg["knobs"]["wakeup_irq_cost_ns"] = c.knobs.wakeup_irq_cost;
		cfg["knobs"]["balance_cost_ns"] = c.knobs.balance_cost;
	}
	cfg["duration_ns"] = r.sim.now();

	const bool smp = c.cpus > 1;
	ordered_json summary = task_json(total_metrics(r.metrics), c.tick_ns, smp);
	summary.erase("name");
	summary.erase("pid");
	summary["busy_ns"] = r.sim.busy_ns();
	summary["idle_ns"] = r.sim.idle_ns();
	summary["ticks"] = r.sim.ticks();
	summary["events"] = r.sim.events();

	// The document is written member by member, each task as it is made,
	// so a run of many tasks never holds them all as JSON values: the bytes
	// are those of one ordered_json dumped with indent 2.
	os << "{\n";
	member(os, "eevdf", version_json(), true);
	member(os, "config", cfg, false);
	os << ",\n  \"tasks\": [";
	const auto& specs = r.sim.workload().tasks;
	for (size_t i = 0; i < r.metrics.tasks.size(); i++) {
		ordered_json t = task_json(r.metrics.tasks[i], c.tick_ns, smp);
		// The settings it started with, when not the defaults.
		if (specs[i].nice)
			t["nice"] = specs[i].nice;
		if (specs[i].custom_slice && c.preset->paths.custom_slices)
			t["custom_slice_ns"] = clamp_custom_slice(specs[i].custom_slice);
		os << (i ? ",\n    " : "\n    ") << indented(t.dump(2), 4);
	}
	os << (r.metrics.tasks.empty() ? "]" : "\n  ]");
	member(os, "summary", summary, false);
	if (smp) {
		ordered_json cpus = ordered_json::array();
		for (size_t i = 0; i < r.metrics.cpus.size(); i++) {
			const CpuMetrics& m = r.metrics.cpus[i];
			cpus.push_back(ordered_json{{"cpu", i},
						    {"busy_ns", m.busy_ns},
						    {"idle_ns", m.idle_ns},
						    {"switches", m.switches},
						    {"ticks", m.ticks},
						    {"ipis", m.ipis},
						    {"balance_attempts", m.balance_attempts},
						    {"tasks_pulled", m.tasks_pulled}});
		}
		member(os, "cpus", cpus, false);
	}
	os << "\n}\n";
}

std::string format_json(const Report& r)
{
	std::ostringstream os;
	write_json(r, os);
	return os.str();
}

std::string format_table(const Report& r)
{
	std::string out = "# eevdf model: " + describe(r.sim.config()) + "\n";
	out += header_lines(r.sim.config(), r.sim.workload(), adjustments(r.sim.config(), r.sim.workload()));
	out += "# simulated " + ms(r.sim.now()) + " ms: busy " + ms(r.sim.busy_ns()) + " ms, idle " +
	       ms(r.sim.idle_ns()) + " ms, " + std::to_string(r.sim.ticks()) + " ticks\n";
	char line[512];
	std::snprintf(line, sizeof line, "%-16s %6s %11s %7s %9s %9s %9s %9s %9s %9s %8s %7s %10s %10s %10s\n", "task",
		      "pid", "cpu_ms", "runs", "mean_ms", "min_ms", "p50_ms", "p90_ms", "p99_ms", "max_ms", "switches",
		      "invol", "wake_p50us", "wake_p99us", "maxlag_us");
	out += line;
	auto row = [&](const TaskMetrics& m, const std::string& pid) {
		const Distribution d = summarize(m.runs);
		const Distribution w = summarize(m.wakeup_latency);
		std::snprintf(line, sizeof line,
			      "%-16s %6s %11s %7llu %9s %9s %9s %9s %9s %9s %8llu %7llu %10s %10s %10s\n",
			      m.name.c_str(), pid.c_str(), ms(m.cpu_ns).c_str(), static_cast<unsigned long long>(d.count),
			      ms(mean(d)).c_str(), ms(d.min).c_str(), ms(d.p50).c_str(), ms(d.p90).c_str(),
			      ms(d.p99).c_str(), ms(d.max).c_str(), static_cast<unsigned long long>(m.switches),
			      static_cast<unsigned long long>(m.involuntary_switches), w.count ? us(w.p50).c_str() : "-",
			      w.count ? us(w.p99).c_str() : "-", us(static_cast<u64>(m.max_abs_lag_ns)).c_str());
		out += line;
	};
	for (const TaskMetrics& m : r.metrics.tasks)
		row(m, std::to_string(m.pid));
	const TaskMetrics total = total_metrics(r.metrics);
	row(total, "-");
	u64 longer = 0;
	const std::vector<u64> hist = tick_histogram(total.runs, r.sim.config().tick_ns, longer);
	if (!hist.empty() || longer) {
		out += "# runs by length in ticks (rounded), ticks:runs:";
		for (size_t k = 0; k < hist.size(); k++)
			if (hist[k])
				out += " " + std::to_string(k) + ":" + std::to_string(hist[k]);
		if (longer)
			out += " >=" + std::to_string(MAX_TICK_BUCKETS) + ":" + std::to_string(longer);
		out += "\n";
	}
	std::string inexact;
	for (const TaskMetrics& m : r.metrics.tasks)
		if (!m.runs.exact() || !m.wakeup_latency.exact())
			inexact += (inexact.empty() ? "" : ", ") + m.name;
	if (!inexact.empty())
		out += "# percentiles approximate (more distinct values than a task's sample memory keeps; docs/cli.md, "
		       "Limits) for: " + inexact + "\n";
	if (r.sim.nr_cpus() > 1) {
		out += "# migrations (wake-ups local/remote/migrated):";
		for (const TaskMetrics& m : r.metrics.tasks)
			out += " " + m.name + "=" + std::to_string(m.migrations) + " (" + std::to_string(m.wakeups_local) +
			       "/" + std::to_string(m.wakeups_remote) + "/" + std::to_string(m.wakeups_migrate) + ")";
		out += "\n";
		for (size_t i = 0; i < r.metrics.cpus.size(); i++) {
			const CpuMetrics& m = r.metrics.cpus[i];
			std::snprintf(line, sizeof line,
				      "# cpu %zu: busy %s ms, idle %s ms, %llu switches, %llu ticks, %llu IPIs, %llu balance "
				      "attempts, %llu tasks pulled\n",
				      i, ms(m.busy_ns).c_str(), ms(m.idle_ns).c_str(), static_cast<unsigned long long>(m.switches),
				      static_cast<unsigned long long>(m.ticks), static_cast<unsigned long long>(m.ipis),
				      static_cast<unsigned long long>(m.balance_attempts),
				      static_cast<unsigned long long>(m.tasks_pulled));
			out += line;
		}
	}
	return out;
}

}  // namespace eevdf::cli
