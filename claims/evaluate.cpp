// SPDX-License-Identifier: GPL-2.0-only
// A claim run on the model: each row's settings over the claim's config made
// a configuration and workload (CPU hogs, an rt-app file or schbench's
// command line), its metric measured and judged against the claimed value.
#include "claims/claims.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>

#include "io/input_error.hpp"
#include "io/rtapp.hpp"
#include "io/schbench.hpp"
#include "report/quantile.hpp"
#include "report/run_budget.hpp"
#include "io/values.hpp"
#include "model/check.hpp"
#include "model/metrics.hpp"
#include "model/simulation.hpp"
#include "report/schbench_meter.hpp"

namespace eevdf::cli {
namespace {

struct RunSpec {
	ModelOptions model;
	Workload workload;
	std::string schbench;  // a schbench command line: the workload is eevdf schbench's
	u64 schbench_warmup_ns = 0;  // its -w: the metrics start after it
};

bool skew_tick_value(const std::string& v)
{
	if (v == "true" || v == "1")
		return true;
	if (v == "false" || v == "0")
		return false;
	throw UsageError("skew_tick: \"" + v + "\" is not true or false");
}

RunSpec spec_for(const Claim& c, const Settings& row, const std::string& where)
{
	Settings all = c.config;
	all.insert(all.end(), row.begin(), row.end());
	RunSpec s;
	int hogs = 4, nice = 0;
	std::string custom_slice, duration, workload_file = c.workload_file;
	try {
		for (const auto& [k, v] : all) {
			if (k == "kernel")
				s.model.kernel = v;
			else if (k == "hz")
				s.model.hz = static_cast<u32>(std::stoul(v));
			else if (k == "cpus")
				s.model.cpus = static_cast<u32>(std::stoul(v));
			else if (k == "online_cpus")
				s.model.online_cpus = static_cast<u32>(std::stoul(v));
			else if (k == "slice")
				s.model.slice = v;
			else if (k == "custom_slice")
				custom_slice = v;
			else if (k == "features")
				s.model.features = v;
			else if (k == "tick_phase")
				s.model.tick_phase = v;
			else if (k == "tick_jitter")
				s.model.tick_jitter = v;
			else if (k == "switch_cost")
				s.model.switch_cost = v;
			else if (k == "seed")
				s.model.seed = std::stoull(v);
			else if (k == "duration")
				duration = v;
			else if (k == "nice")
				nice = std::stoi(v);
			else if (k == "hogs")
				hogs = std::stoi(v);
			else if (k == "bug")
				s.model.bugs.push_back(v);
			else if (k == "workload")
				workload_file = v;
			else if (k == "schbench")
				s.schbench = v;
			else if (k == "llc")
				s.model.llc = static_cast<u32>(std::stoul(v));
			else if (k == "topology")
				s.model.topology = v;
			else if (k == "skew_tick")
				s.model.skew_tick = skew_tick_value(v);
			else if (k == "preempt")
				s.model.preempt = v;
			else if (k == "autogroup")
				s.model.autogroup = v;
			else if (k == "ipi_latency")
				s.model.ipi_latency = v;
			else if (k == "idle_exit_latency")
				s.model.idle_exit_latency = v;
			else if (k == "wakeup_irq_cost")
				s.model.wakeup_irq_cost = v;
			else if (k == "balance_cost")
				s.model.balance_cost = v;
			else if (k == "profile")
				s.model.profile = v;
			// "seeds" is how many runs evaluate() makes, not a setting of one.
		}
		if (!s.schbench.empty()) {
			if (duration.empty())
				throw UsageError("schbench: the claim must give a duration (schbench's -r)");
			SchbenchOptions o = parse_schbench_command(s.schbench);
			o.runtime_ns = parse_duration(duration, "duration");
			if (o.warmup_ns >= o.runtime_ns)
				throw UsageError("schbench -w: the warm-up must end before the duration");
			s.workload = schbench_workload(o, s.model.cpus);
			s.schbench_warmup_ns = o.warmup_ns;
		} else if (workload_file.empty()) {
			if (hogs < 1 || hogs > MAX_HOGS)
				throw UsageError("hogs: " + std::to_string(hogs) + " is outside 1.." + std::to_string(MAX_HOGS));
			s.workload = hogs_workload(hogs, 0);
			for (TaskSpec& t : s.workload.tasks) {
				t.nice = nice;
				if (!custom_slice.empty())
					t.custom_slice = parse_duration(custom_slice, "custom_slice");
			}
		} else {
			const auto path = std::filesystem::path(c.file).parent_path() / workload_file;
			s.workload = load_rtapp_file(path.string());
		}
		if (!duration.empty())
			s.workload.duration = parse_duration(duration, "duration");
		if (s.workload.duration == 0)
			throw UsageError("duration: the claim must give one");
	} catch (const std::invalid_argument& e) {  // std::stoi and the schbench command line
		throw InputError(c.file + ": " + where + ": bad setting: " + e.what());
	} catch (const std::logic_error& e) {  // std::stoi and friends
		throw InputError(c.file + ": " + where + ": bad setting: " + e.what());
	} catch (const UsageError& e) {
		throw InputError(c.file + ": " + where + ": " + e.what());
	}
	return s;
}

// What one schbench run gives every schbench metric (and idle_fraction).
struct SchbenchFigures {
	double rps = 0, wakeup_p50_us = 0, wakeup_p99_us = 0, delayed_fraction = 0, idle_fraction = 0;
};

double idle_fraction_of(const Simulation& sim)
{
	const u64 all = sim.busy_ns() + sim.idle_ns();
	return all ? static_cast<double>(sim.idle_ns()) / static_cast<double>(all) : 0.0;
}

// The figures after the warm-up (schbench -w), idle time included.
SchbenchFigures run_schbench(const Config& cfg, const Workload& wl, u64 warmup_ns, bool check)
{
	Simulation sim(cfg, wl);
	SchbenchMeter meter(sim, warmup_ns);
	InvariantChecker checker;
	sim.add_observer(&meter);
	if (check)
		sim.add_observer(&checker);
	run_bounded_until(sim, warmup_ns);
	const u64 busy0 = sim.busy_ns(), idle0 = sim.idle_ns();
	run_bounded(sim);
	SchbenchFigures f;
	f.rps = static_cast<double>(meter.requests) * 1e9 / static_cast<double>(wl.duration - warmup_ns);
	// As schbench reports them: its histogram's 50th and 99th percentiles.
	f.wakeup_p50_us = static_cast<double>(meter.wakeup.value_at(50.0));
	f.wakeup_p99_us = static_cast<double>(meter.wakeup.value_at(99.0));
	f.delayed_fraction =
		meter.wakeups ? static_cast<double>(meter.delayed_wakeups) / static_cast<double>(meter.wakeups) : 0.0;
	const u64 busy = sim.busy_ns() - busy0, idle = sim.idle_ns() - idle0;
	f.idle_fraction = busy + idle ? static_cast<double>(idle) / static_cast<double>(busy + idle) : 0.0;
	return f;
}

double schbench_metric(const SchbenchFigures& f, const std::string& name)
{
	if (name == "schbench_rps")
		return f.rps;
	if (name == "schbench_delayed_wakeup_fraction")
		return f.delayed_fraction;
	if (name == "idle_fraction")
		return f.idle_fraction;
	return name == "schbench_wakeup_p50_us" ? f.wakeup_p50_us : f.wakeup_p99_us;
}

// Schbench runs of one evaluate(), by their settings.
using SchbenchRuns = std::map<std::string, SchbenchFigures>;

double metric_value(const Claim& c, const Metric& mt, const Settings& row, const std::string& where,
		    SchbenchRuns& runs_of, bool check = false)
{
	RunSpec s = spec_for(c, row, where);
	Config cfg;
	try {
		cfg = build_config(s.model);
	} catch (const UsageError& e) {
		throw InputError(c.file + ": " + where + ": " + e.what());
	}
	MetricsCollector m;
	try {
		if (mt.name.rfind("schbench_", 0) == 0 && s.schbench.empty())
			throw InputError(c.file + ": " + where + ": metric " + mt.name + " needs a \"schbench\" setting");
		if (!s.schbench.empty() && (mt.name.rfind("schbench_", 0) == 0 || mt.name == "idle_fraction")) {
			Settings all = c.config;
			all.insert(all.end(), row.begin(), row.end());
			const std::string key = label_of(all);
			auto it = runs_of.find(key);
			if (it == runs_of.end())
				it = runs_of.emplace(key, run_schbench(cfg, s.workload, s.schbench_warmup_ns, check))
					     .first;
			return schbench_metric(it->second, mt.name);
		}
		Simulation sim(cfg, s.workload);
		InvariantChecker checker;
		if (check)
			sim.add_observer(&checker);
		if (mt.name == "idle_fraction") {
			run_bounded(sim);
			return idle_fraction_of(sim);
		}
		sim.add_observer(&m);
		run_bounded(sim);
		m.finish(sim);
		SampleCounts runs, lat;
		u64 switches = 0, invol = 0, cpu = 0, total_cpu = 0;
		for (const TaskMetrics& t : m.tasks) {
			total_cpu += t.cpu_ns;
			if (t.name.rfind(mt.tasks, 0) != 0)
				continue;
			runs.merge(t.runs);
			lat.merge(t.wakeup_latency);
			switches += t.switches;
			invol += t.involuntary_switches;
			cpu += t.cpu_ns;
		}
		const Distribution r = summarize(runs), w = summarize(lat);
		const std::string& n = mt.name;
		if (n == "mean_run_ms")
			return r.count ? static_cast<double>(r.sum) / static_cast<double>(r.count) / 1e6 : 0;
		if (n == "p50_run_ms")
			return static_cast<double>(r.p50) / 1e6;
		if (n == "p90_run_ms")
			return static_cast<double>(r.p90) / 1e6;
		if (n == "p99_run_ms")
			return static_cast<double>(r.p99) / 1e6;
		if (n == "max_run_ms")
			return static_cast<double>(r.max) / 1e6;
		if (n == "context_switches")
			return static_cast<double>(switches);
		if (n == "involuntary_switches")
			return static_cast<double>(invol);
		if (n == "wakeup_p50_us")
			return static_cast<double>(w.p50) / 1e3;
		if (n == "wakeup_p90_us")
			return static_cast<double>(w.p90) / 1e3;
		if (n == "wakeup_p99_us")
			return static_cast<double>(w.p99) / 1e3;
		if (n == "wakeup_max_us")
			return static_cast<double>(w.max) / 1e3;
		if (n == "cpu_share")
			return total_cpu ? static_cast<double>(cpu) / static_cast<double>(total_cpu) : 0;
		if (n == "ticks_per_second")
			return static_cast<double>(sim.ticks()) * 1e9 / static_cast<double>(sim.now());
		u64 above = 0;
		for (const auto& [x, count] : runs.counts())
			if (x >= mt.threshold)
				above += count;
		if (n == "runs_at_least")
			return static_cast<double>(above);
		return runs.empty() ? 0 : static_cast<double>(above) / static_cast<double>(runs.count());
	} catch (const WorkloadError& e) {
		throw InputError(c.file + ": " + where + ": " + e.what());
	}
}

}  // namespace

bool row_agrees(const Claim& c, const ClaimRow& r, double claimed, double model)
{
	const Tolerance& t = r.tolerance ? *r.tolerance : c.tolerance;
	const double tol = std::max(t.absolute, t.relative * std::fabs(claimed));
	if (r.compare == "at_most")
		return model <= claimed + tol;
	if (r.compare == "at_least")
		return model >= claimed - tol;
	return std::fabs(model - claimed) <= tol;
}

int interval_verdict(const Claim& c, const ClaimRow& r, double claimed, double lo, double hi)
{
	// What the row accepts is one interval of values (a half-line for
	// at_most and at_least), so [lo, hi] is inside it when both ends are,
	// and outside it when both ends are on the same side of it.
	const bool lo_ok = row_agrees(c, r, claimed, lo), hi_ok = row_agrees(c, r, claimed, hi);
	if (lo_ok && hi_ok)
		return 1;
	if (lo_ok || hi_ok)
		return 0;
	const Tolerance& t = r.tolerance ? *r.tolerance : c.tolerance;
	const double tol = std::max(t.absolute, t.relative * std::fabs(claimed));
	if (r.compare == "within" && lo < claimed - tol && hi > claimed + tol)
		return 0;  // around the whole band
	return -1;
}

namespace {

// The setting `key` of a row over its claim's config (the row's wins), or "".
std::string setting(const Claim& c, const Settings& row, const std::string& key)
{
	std::string v;
	for (const Settings* s : {&c.config, &row})
		for (const auto& [k, x] : *s)
			if (k == key)
				v = x;
	return v;
}

// A row over seeds: each seed's value, its median and 95 % interval, and the
// verdict against the interval.
void judge_over_seeds(const Claim& c, const ClaimRow& r, const std::vector<double>& values,
		      const std::vector<double>& claimed_values, RowResult& res)
{
	res.seeds = static_cast<unsigned>(values.size());
	res.model = quantile_linear(values, 0.5);
	res.lo = quantile_linear(values, 0.025);
	res.hi = quantile_linear(values, 0.975);
	if (!claimed_values.empty())
		res.claimed = quantile_linear(claimed_values, 0.5);  // same_as: the other setting's median
	const std::string over = " over the 95 % interval of " + std::to_string(res.seeds) + " seeds";
	if (!res.claimed) {
		res.verdict = "info";
		return;
	}
	const int v = interval_verdict(c, r, *res.claimed, res.lo, res.hi);
	const std::string word = v > 0 ? "holds" : v < 0 ? "fails" : "straddles";
	if (r.expect_disagree) {
		res.ok = v < 0;
		res.verdict = res.ok ? "finding: fails" + over : "HOLDS, expected to fail," + over;
		if (v == 0)
			res.verdict = "STRADDLES, expected to fail," + over;
	} else if (r.expect_straddle) {
		res.ok = v == 0;
		res.verdict = res.ok ? "finding: straddles" + over
				     : (v > 0 ? "HOLDS" : "FAILS") + std::string(", expected to straddle,") + over;
	} else {
		res.ok = v > 0;
		res.verdict = (v > 0 ? word : v < 0 ? "FAILS" : "STRADDLES") + over;
	}
}

}  // namespace

std::vector<RowResult> evaluate(const Claim& c, const EvaluateOptions& o)
{
	std::vector<RowResult> out;
	SchbenchRuns runs;
	// Rows over seeds: run after the others, seed by seed (each seed's runs
	// shared by the rows that read them, as one run is below).
	struct Seeded {
		size_t row;
		unsigned n;
		u64 first;
	};
	std::vector<Seeded> seeded;
	for (size_t i = 0; i < c.rows.size(); i++) {
		const ClaimRow& r = c.rows[i];
		const std::string where = "rows[" + std::to_string(i) + "] (" + r.label + ")";
		const Metric& mt = metric_of_row(c, r);
		RowResult res;
		res.label = r.label;
		res.metric = mt.name + (r.over.empty() ? "" : " ratio");  // metric(set) / metric(over)
		res.compare = r.compare;
		res.tolerance = r.tolerance ? *r.tolerance : c.tolerance;
		res.claimed = r.claimed;
		res.why = r.why;
		res.judged = res.claimed || !r.same_as.empty() ? judged_text(r.compare, res.tolerance) : "-";
		const std::string n = setting(c, r.set, "seeds"), first = setting(c, r.set, "seed");
		const unsigned seeds = o.seeds ? o.seeds : n.empty() ? 0 : static_cast<unsigned>(std::stoul(n));
		if (seeds) {
			const u64 s0 = o.first_seed ? *o.first_seed : first.empty() ? 0 : std::stoull(first);
			if (s0 > ~u64{0} - seeds)
				throw InputError(c.file + ": " + where + ": seed " + std::to_string(s0) + " + " +
						 std::to_string(seeds) + " seeds passes 2^64");
			seeded.push_back({i, seeds, s0});
			out.push_back(res);
			continue;
		}
		res.model = metric_value(c, mt, r.set, where, runs);
		if (!r.over.empty()) {
			const double denom = metric_value(c, mt, r.over, where, runs);
			res.model = denom != 0 ? res.model / denom : 0;
		}
		if (!r.same_as.empty())
			res.claimed = metric_value(c, mt, r.same_as, where, runs);
		res.judged = res.claimed ? judged_text(r.compare, res.tolerance) : "-";
		if (!res.claimed) {
			res.verdict = "info";
		} else {
			const bool ok = row_agrees(c, r, *res.claimed, res.model);
			if (r.expect_disagree) {
				res.verdict = ok ? "AGREES, expected not to" : "finding";
				res.ok = !ok;
			} else {
				res.verdict = ok ? "agrees" : "DISAGREES";
				res.ok = ok;
			}
		}
		out.push_back(res);
	}
	if (seeded.empty())
		return out;

	// Seed index k of every seeded row, in parallel over k; each k has
	// its own schbench runs, and writes only its own slots.
	unsigned most = 0;
	for (const Seeded& s : seeded)
		most = std::max(most, s.n);
	const size_t R = seeded.size();
	std::vector<double> value(R * most, 0), claimed(R * most, 0);
	std::vector<std::string> broke(R * most);
	auto with_seed = [](Settings s, u64 seed) {
		s.emplace_back("seed", std::to_string(seed));
		return s;
	};
	auto one_seed = [&](size_t k) {
		SchbenchRuns runs_k;
		for (size_t j = 0; j < R; j++) {
			const Seeded& sd = seeded[j];
			if (k >= sd.n)
				continue;
			const ClaimRow& r = c.rows[sd.row];
			const Metric& mt = metric_of_row(c, r);
			const std::string where = "rows[" + std::to_string(sd.row) + "] (" + r.label + ")";
			const u64 seed = sd.first + k;
			try {
				double v =
					metric_value(c, mt, with_seed(r.set, seed), where, runs_k, o.check_invariants);
				if (!r.over.empty()) {
					const double d = metric_value(c, mt, with_seed(r.over, seed), where, runs_k,
								      o.check_invariants);
					v = d != 0 ? v / d : 0;
				}
				value[j * most + k] = v;
				if (!r.same_as.empty())
					claimed[j * most + k] = metric_value(c, mt, with_seed(r.same_as, seed), where,
									     runs_k, o.check_invariants);
			} catch (const InvariantViolation& e) {
				broke[j * most + k] = "seed " + std::to_string(seed) + " broke invariant '" +
						      e.failure.invariant + "' at t=" + std::to_string(e.failure.t) +
						      " ns";
			}
		}
	};
	if (o.parallel)
		o.parallel(most, one_seed);
	else
		for (size_t k = 0; k < most; k++)
			one_seed(k);
	for (size_t j = 0; j < R; j++) {
		const Seeded& sd = seeded[j];
		const ClaimRow& r = c.rows[sd.row];
		RowResult& res = out[sd.row];
		const auto b = value.begin() + static_cast<std::ptrdiff_t>(j * most);
		const auto cb = claimed.begin() + static_cast<std::ptrdiff_t>(j * most);
		judge_over_seeds(c, r, {b, b + sd.n},
				 r.same_as.empty() ? std::vector<double>{} : std::vector<double>{cb, cb + sd.n}, res);
		for (unsigned k = 0; k < sd.n; k++)
			if (!broke[j * most + k].empty()) {  // the first seed that broke one: the one to replay
				res.violation = broke[j * most + k] + "; replay: " + o.replay + " --seeds 1 --seed " +
						std::to_string(sd.first + k);
				res.verdict = "VIOLATION (seed " + std::to_string(sd.first + k) + ")";
				res.ok = false;
				break;
			}
	}
	return out;
}

}  // namespace eevdf::cli
