// SPDX-License-Identifier: GPL-2.0-only
// Multi-CPU scenarios: `eevdf probe --scenario NAME [probe options]`. The
// probe's unpinned scenario on every CPU of the machine and the model's run
// of it, each reduced to the same figures (what the probe records, recorded
// from the model by ScenarioObserver); probe_scenario_rows.cpp judges them.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "cli/companion.hpp"
#include "cli/ensemble.hpp"
#include "cli/probe_compare.hpp"
#include "cli/probe_table.hpp"
#include "cli/write_file.hpp"
#include "io/profile.hpp"
#include "model/metrics.hpp"
#include "model/simulation.hpp"
#include "report/run_budget.hpp"

namespace eevdf::cli {
namespace {

using nlohmann::json;
using probe::ms;
using probe::num;
using probe::Row;
using probe::ScFig;
using probe::ScSide;
using probe::scenario_rows;

// The scenario's tasks as the probe describes them (its JSON "scenario").
struct ScTask {
	std::string name, role;
	u64 period = 0, run = 0, offset = 0, sleep = 0, slice = 0;
	std::string partner;
	int nice = 0;
	bool idle = false;  // SCHED_IDLE
};

// What both sides are reduced to: the probe's per-task and per-CPU figures.
struct ScWake {
	u64 waking = 0, in = 0;
	int prev_cpu = -1, target_cpu = -1;
	bool target_idle = false, enqueued = false;
};

struct ScTaskStats {
	u64 cpu_ns = 0;
	std::vector<u64> per_cpu;
	std::vector<u64> runs;
	std::vector<u64> migrations;  // timestamps in the window
	std::vector<double> shares;
	std::vector<ScWake> wakes;
};

// Records the model's run as the probe records the kernel's: on-CPU intervals
// per CPU (switch to switch), try_to_wake_up (sched_waking), the enqueue
// (sched_wakeup), set_task_cpu (sched_migrate_task), all in [t0, t1).
class ScenarioObserver : public Observer {
public:
	ScenarioObserver(size_t ntasks, u32 ncpus, u64 t0, u64 t1, u64 window)
	    : tasks(ntasks), busy(ncpus, 0), cur_(ncpus, IDLE), since_(ncpus, 0), pending_(ntasks), t0_(t0), t1_(t1),
	      window_(window)
	{
		for (ScTaskStats& s : tasks) {
			s.per_cpu.assign(ncpus, 0);
			s.shares.assign(window ? (t1 - t0) / window : 0, 0.0);
		}
	}

	void on_switch(const Simulation& sim, u64 t, int, int next, bool, u64) override
	{
		const u32 cpu = sim.event_cpu();
		close(cpu, t, false);
		cur_[cpu] = next;
		since_[cpu] = t;
		if (next >= 0) {
			Pending& p = pending_[static_cast<size_t>(next)];
			if (p.active) {
				p.w.in = t;
				if (p.w.waking >= t0_ && p.w.waking < t1_)
					tasks[static_cast<size_t>(next)].wakes.push_back(p.w);
				p.active = false;
			}
		}
	}
	void on_ttwu(const Simulation& sim, u64 t, int task, int) override
	{
		Pending& p = pending_[static_cast<size_t>(task)];
		p.active = true;
		p.w = ScWake{};
		p.w.waking = t;
		p.w.prev_cpu = static_cast<int>(sim.tasks()[static_cast<size_t>(task)].cpu);
		idle_at_waking_ = cur_;
	}
	void on_wakeup(const Simulation& sim, u64, int task, int, bool) override
	{
		Pending& p = pending_[static_cast<size_t>(task)];
		if (!p.active || p.w.enqueued)
			return;
		p.w.enqueued = true;
		p.w.target_cpu = static_cast<int>(sim.event_cpu());
		p.w.target_idle = idle_at_waking_[sim.event_cpu()] == IDLE;
	}
	void on_migrate(const Simulation&, u64 t, int task, u32, u32) override
	{
		if (t >= t0_ && t < t1_)
			tasks[static_cast<size_t>(task)].migrations.push_back(t);
	}
	void finish(u64 end)
	{
		for (u32 c = 0; c < cur_.size(); c++)
			close(c, end, true);
	}

	std::vector<ScTaskStats> tasks;
	std::vector<u64> busy;  // per CPU

private:
	struct Pending {
		bool active = false;
		ScWake w;
	};
	void close(u32 cpu, u64 t, bool at_end)
	{
		const int who = cur_[cpu];
		const u64 s = std::max(since_[cpu], t0_), e = std::min(t, t1_);
		if (who < 0 || e <= s)
			return;
		ScTaskStats& ts = tasks[static_cast<size_t>(who)];
		ts.cpu_ns += e - s;
		ts.per_cpu[cpu] += e - s;
		busy[cpu] += e - s;
		if (!at_end && since_[cpu] >= t0_ && t <= t1_)
			ts.runs.push_back(t - since_[cpu]);
		for (u64 k = (s - t0_) / window_; k < ts.shares.size(); k++) {
			const u64 ws = t0_ + k * window_, we = ws + window_;
			if (ws >= e)
				break;
			const u64 a = std::max(ws, s), b = std::min(we, e);
			if (b > a)
				ts.shares[k] += static_cast<double>(b - a) / static_cast<double>(window_);
		}
	}
	std::vector<int> cur_;
	std::vector<u64> since_;
	std::vector<Pending> pending_;
	std::vector<int> idle_at_waking_;
	u64 t0_, t1_, window_;
};

ScSide kernel_side(const json& k)
{
	ScSide s;
	const double win = k["config"]["duration_ns"].get<double>();
	for (const json& t : k["tasks"]) {
		ScFig f;
		f.name = t["name"].get<std::string>();
		f.role = t["role"].get<std::string>();
		f.share = t["share_without_others"].get<double>();
		const double cpu = t["cpu_ns"].get<double>();
		double top = 0;
		for (const json& c : t["cpu_ns_per_cpu"])
			top = std::max(top, c.get<double>());
		f.main_cpu = cpu > 0 ? top / cpu : 0;
		f.migr_per_s = t["migrations"]["per_s"].get<double>();
		const json& r = t["runs_merged"];
		if (r.value("count", 0) > 0)
			f.run_p50_ms = r["p50_ns"].get<double>() / 1e6;
		const json& w = t["share_windows"];
		f.win_min = w["min"].get<double>();
		f.win_max = w["max"].get<double>();
		const json& wk = t["wakeups"];
		f.wakes = wk["count"].get<u64>();
		if (f.wakes) {
			// No latency samples when no switch-in after a wake-up was
			// traced ({"count": 0}, no percentiles): then no measurement.
			// (Reading the missing key of a const json was undefined
			// behaviour: garbage, or type_error 302, in about half the
			// sleeper runs.)
			const json& lw = wk["latency_waking"];
			if (lw.value("count", 0) > 0) {
				f.lat_p50_us = lw["p50_ns"].get<double>() / 1e3;
				f.lat_p90_us = lw["p90_ns"].get<double>() / 1e3;
			}
			f.on_prev = wk["on_prev_cpu"].get<double>() / static_cast<double>(f.wakes);
			f.target_idle = wk["target_idle"].get<double>() / static_cast<double>(f.wakes);
		}
		s.tasks.push_back(f);
	}
	double foreign = 0;
	for (const json& c : k["cpus"]) {
		// what the scenario would have had without outside tasks: its own
		// time and the time it waited behind them
		s.cpu_busy.push_back((c["scenario_ns"].get<double>() + c["other_wait_ns"].get<double>()) / win);
		foreign += c["foreign_ns"].get<double>() / win;
	}
	std::sort(s.cpu_busy.rbegin(), s.cpu_busy.rend());
	s.foreign = foreign / static_cast<double>(std::max<size_t>(k["cpus"].size(), 1));
	const json& g = k["summary"]["migration_gaps"];
	if (g.value("count", 0) > 0)
		s.mig_gap_p50_ms = g["p50_ns"].get<double>() / 1e6;
	s.migr_per_s = k["summary"]["migrations_per_s"].get<double>();
	return s;
}

}  // namespace

// The probe's scenario as a workload (probe_table.hpp).
Workload probe::scenario_workload(const json& k, u64 t0)
{
	const u64 duration = k["config"]["duration_ns"].get<u64>();
	const u64 slice = k["config"]["slice_ns"].is_null() ? 0 : k["config"]["slice_ns"].get<u64>();
	std::vector<ScTask> sc;
	for (const json& t : k["scenario"]["tasks"]) {
		ScTask x;
		x.name = t["name"].get<std::string>();
		x.role = t["role"].get<std::string>();
		x.period = t.value("period_ns", u64{0});
		x.run = t.value("run_ns", u64{0});
		x.offset = t.value("offset_ns", u64{0});
		x.sleep = t.value("sleep_ns", u64{0});
		x.partner = t.value("partner", std::string());
		x.nice = t.value("nice", 0);
		x.idle = t.value("policy", std::string()) == "SCHED_IDLE";
		// the task's own slice; older probes wrote --slice's here too
		x.slice = t.contains("slice_ns") && !t["slice_ns"].is_null() ? t["slice_ns"].get<u64>() : slice;
		sc.push_back(x);
	}
	Workload wl;
	wl.duration = t0 + duration;
	u64 hog_delay = 0;
	for (const ScTask& x : sc)
		if (x.role == "sleeper")
			hog_delay = std::max(hog_delay, (t0 + x.offset) % x.period + 1000);
	for (const ScTask& x : sc) {
		TaskSpec t;
		if (x.role == "hog") {
			t = looping_task(x.name, {Event{Event::Kind::Run, RUN_FOREVER}});
			t.delay = hog_delay;
		} else if (x.role == "sleeper") {
			t = looping_task(x.name, {Event{Event::Kind::Timer, x.period, wl.ref("timer-" + x.name)},
						  Event{Event::Kind::Run, x.run}});
			t.delay = (t0 + x.offset) % x.period;
		} else if (x.role == "periodic") {
			// rt-app's run then a relative sleep: the profile's timer
			// slack and delay apply to the sleep's hrtimer
			t = looping_task(x.name, {Event{Event::Kind::Run, x.run}, Event{Event::Kind::Sleep, x.sleep}});
		} else if (x.role == "ping" || x.role == "pipe-ping" || x.role == "forker") {
			// The probe's ping starts by running; pong (delay 0) is
			// waiting by then. The hand-off is the probe's own: a futex
			// word per task that the partner sets and wakes (fpost), and
			// that the task takes or waits for (fwait), so a wake-up sent
			// before its partner waits is kept, as in the probe (rt-app's
			// suspend/resume would lose it, and under a profile's wake-up
			// costs the pair deadlocks). A pipe's write()/read() and a
			// fork()/exit()/waitpid() are the same hand-off to the model:
			// it charges no syscall's own CPU time, and it has no fork, so
			// each child is one task woken as pong is (its placement is a
			// wake-up's, not wake_up_new_task()'s).
			t = looping_task(x.name, {Event{Event::Kind::Run, x.run},
						  Event{Event::Kind::FutexPost, 0, wl.ref("word-" + x.partner)},
						  Event{Event::Kind::FutexWait, 0, wl.ref("word-" + x.name)}});
			t.delay = NSEC_PER_MSEC;
		} else if (x.role == "pong" || x.role == "pipe-pong" || x.role == "child") {
			t = looping_task(x.name, {Event{Event::Kind::FutexWait, 0, wl.ref("word-" + x.name)},
						  Event{Event::Kind::Run, x.run},
						  Event{Event::Kind::FutexPost, 0, wl.ref("word-" + x.partner)}});
		} else {
			throw std::runtime_error("the probe's scenario has a task of unknown role " + x.role);
		}
		t.custom_slice = x.slice;
		t.nice = x.nice;
		if (x.idle)
			t.policy = Policy::Idle;
		wl.tasks.push_back(t);
	}
	return wl;
}

namespace {

// The model's run of the probe's scenario. Its clock starts where the
// kernel's threads leave the gate; the window starts after the warm-up,
// rounded up to a tick as the probe's T0 is. A sleeper's rt-app timer counts
// from its first run, so each sleeper forks at its first grid point modulo the
// period on an idle machine (it runs at once and arms the timer there) and
// the hogs fork just after the last sleeper. `profile` and `seed` draw the
// machine's costs (docs/profiles.md); exact and seed 1 is the exact model.
ScSide model_side(const json& k, const std::string& preset, const Profile& profile, u64 seed, std::string& command)
{
	const u32 hz = k["kernel"]["hz"].get<u32>();
	const u32 cpus = static_cast<u32>(k["scenario"]["cpus"].size());
	Config cfg = make_config(*find_preset(preset), hz, cpus);
	cfg.seed = seed;
	cfg.profile = profile;
	if (tick_jitter_max(cfg) >= cfg.tick_ns)
		throw std::runtime_error("--profile " + profile.name + ": tick jitter must be below TICK_NSEC");
	const u64 tick = cfg.tick_ns;
	const u64 duration = k["config"]["duration_ns"].get<u64>();
	const u64 warmup = k["config"]["warmup_ns"].get<u64>();
	const u64 window = k["config"]["share_window_ns"].get<u64>();
	const u64 t0 = (warmup / tick + 1) * tick;  // the probe's T0 is past start + warm-up, on a tick
	const std::vector<ScTask> sc = [&] {
		std::vector<ScTask> v;
		for (const json& t : k["scenario"]["tasks"])
			v.push_back(ScTask{t["name"].get<std::string>(), t["role"].get<std::string>(), 0, 0, 0, 0, 0,
					   "", 0, false});
		return v;
	}();
	Workload wl = probe::scenario_workload(k, t0);
	command = "eevdf sim WORKLOAD --cpus " + std::to_string(cpus) + " --hz " + std::to_string(hz) + " --kernel " +
		  preset + "; window [" + ms(static_cast<double>(t0)) + ", " + ms(static_cast<double>(t0 + duration)) +
		  ") ms";
	Simulation sim(cfg, wl);
	ScenarioObserver obs(wl.tasks.size(), sim.nr_cpus(), t0, t0 + duration, window);
	sim.add_observer(&obs);
	run_bounded(sim);
	obs.finish(sim.now());

	ScSide s;
	const double win = static_cast<double>(duration);
	std::vector<u64> all;
	for (size_t i = 0; i < sc.size(); i++) {
		const ScTaskStats& x = obs.tasks[i];
		ScFig f;
		f.name = sc[i].name;
		f.role = sc[i].role;
		f.share = static_cast<double>(x.cpu_ns) / win;
		const u64 top = *std::max_element(x.per_cpu.begin(), x.per_cpu.end());
		f.main_cpu = x.cpu_ns ? static_cast<double>(top) / static_cast<double>(x.cpu_ns) : 0;
		f.migr_per_s = static_cast<double>(x.migrations.size()) * 1e9 / win;
		const Distribution r = summarize(x.runs);
		if (r.count)
			f.run_p50_ms = static_cast<double>(r.p50) / 1e6;
		f.win_min = x.shares.empty() ? 0 : *std::min_element(x.shares.begin(), x.shares.end());
		f.win_max = x.shares.empty() ? 0 : *std::max_element(x.shares.begin(), x.shares.end());
		f.wakes = x.wakes.size();
		if (f.wakes) {
			std::vector<u64> lat;
			u64 prev = 0, idle = 0;
			for (const ScWake& w : x.wakes) {
				lat.push_back(w.in - w.waking);
				prev += w.target_cpu == w.prev_cpu;
				idle += w.target_idle;
			}
			const Distribution l = summarize(lat);
			f.lat_p50_us = static_cast<double>(l.p50) / 1e3;
			f.lat_p90_us = static_cast<double>(l.p90) / 1e3;
			f.on_prev = static_cast<double>(prev) / static_cast<double>(f.wakes);
			f.target_idle = static_cast<double>(idle) / static_cast<double>(f.wakes);
		}
		all.insert(all.end(), x.migrations.begin(), x.migrations.end());
		s.tasks.push_back(f);
	}
	for (u64 b : obs.busy)
		s.cpu_busy.push_back(static_cast<double>(b) / win);
	std::sort(s.cpu_busy.rbegin(), s.cpu_busy.rend());
	std::sort(all.begin(), all.end());
	std::vector<u64> gaps;
	for (size_t i = 1; i < all.size(); i++)
		gaps.push_back(all[i] - all[i - 1]);
	if (!gaps.empty())
		s.mig_gap_p50_ms = static_cast<double>(summarize(gaps).p50) / 1e6;
	s.migr_per_s = static_cast<double>(all.size()) * 1e9 / win;
	for (u32 c = 0; c < sim.nr_cpus(); c++)
		s.balance_attempts += sim.rq(c).balance_attempts;
	return s;
}

std::string g(double x)
{
	char b[32];
	std::snprintf(b, sizeof b, "%g", x);
	return b;
}

std::string cell(const std::optional<double>& v) { return v ? num(*v) : std::string("-"); }

// One row over the seeds: the first seed's row (its scope, metric,
// tolerance) and the model's values of every seed that has it.
struct SeedRow {
	Row first;
	std::vector<double> model;
};

// The scenario's rows over seeds 1..N, run on up to two threads (this
// machine's cores); each seed's result has its own slot, so the order of
// the threads does not change the output.
std::vector<SeedRow> seed_rows(const json& k, const ScSide& ks, const std::string& preset, const Profile& profile,
			       unsigned seeds)
{
	const std::string name = k["scenario"]["name"].get<std::string>();
	std::vector<std::vector<Row>> per_seed(seeds);
	std::vector<std::string> errors(seeds);
	std::atomic<unsigned> next{0};
	auto work = [&] {
		for (unsigned i; (i = next++) < seeds;) {
			try {
				std::string command;
				per_seed[i] = scenario_rows(name, ks, model_side(k, preset, profile, i + 1, command));
			} catch (const std::exception& e) {
				errors[i] = e.what();
			}
		}
	};
	std::vector<std::thread> pool;
	const unsigned jobs = std::min(seeds, std::max(1u, std::min(2u, std::thread::hardware_concurrency())));
	for (unsigned j = 1; j < jobs; j++)
		pool.emplace_back(work);
	work();
	for (std::thread& t : pool)
		t.join();
	for (const std::string& e : errors)
		if (!e.empty())
			throw std::runtime_error(e);
	std::vector<SeedRow> rows;
	for (const Row& r : per_seed.front())
		rows.push_back(SeedRow{r, {}});
	for (const std::vector<Row>& rs : per_seed)
		for (const Row& r : rs)
			for (SeedRow& x : rows)
				if (x.first.scope == r.scope && x.first.metric == r.metric) {
					if (r.model)
						x.model.push_back(*r.model);
					break;
				}
	return rows;
}

// `eevdf probe --scenario ... --profile P --seeds N`: the kernel's value
// beside the model's median and 95 % interval over the seeds.
int print_ensemble(const json& k, const ScSide& ks, const std::string& preset, const Profile& profile, unsigned seeds,
		   const std::string& command, const std::string& table_json)
{
	const std::vector<SeedRow> rows = seed_rows(k, ks, preset, profile, seeds);
	const std::string release = k["kernel"]["release"].get<std::string>();
	std::printf("scenario %s: %s\nkernel %s, HZ=%u, %zu CPUs; %s s window after %s s warm-up\n",
		    k["scenario"]["name"].get<std::string>().c_str(),
		    k["scenario"]["description"].get<std::string>().c_str(), release.c_str(),
		    k["kernel"]["hz"].get<u32>(), k["scenario"]["cpus"].size(),
		    num(k["config"]["duration_ns"].get<double>() / 1e9).c_str(),
		    num(k["config"]["warmup_ns"].get<double>() / 1e9).c_str());
	std::printf("model: preset %s, profile %s, seeds 1..%u; %s\n", preset.c_str(), profile.name.c_str(), seeds,
		    command.c_str());
	std::printf("model = median over the seeds, 95 %% = 2.5th..97.5th percentile of the per-seed values; within = "
		    "the kernel's value lies in that interval\n\n");
	std::printf("| %-20s | %-34s | %10s | %10s | %-23s | %s\n", "task / CPU", "metric", "kernel", "model",
		    "model 95 %", "within");
	std::printf("|%s|%s|%s|%s|%s|%s\n", std::string(22, '-').c_str(), std::string(36, '-').c_str(),
		    std::string(12, '-').c_str(), std::string(12, '-').c_str(), std::string(25, '-').c_str(),
		    std::string(9, '-').c_str());
	json table = json::array();
	size_t compared = 0, within = 0;
	for (const SeedRow& r : rows) {
		const std::optional<double> kv = r.first.kernel;
		std::optional<EnsembleMetric> m;
		if (!r.model.empty())
			m = summarise_seeds(r.first.metric, r.model, 0);
		std::optional<bool> in;
		if (kv && m) {
			in = probe::ranges_overlap(*kv, *kv, m->lo, m->hi);
			compared++;
			within += *in;
		}
		const std::string range = m ? num(m->lo) + " .. " + num(m->hi) : std::string("-");
		// The mechanisms (probe_scenario_rows.cpp) are the exact model's:
		// under another profile the row only says that it is outside.
		const bool exact = profile.name == "exact";
		const std::string why = exact && !r.first.why.empty() ? ": " + r.first.why : "";
		const std::string verdict = !in ? "-" : *in ? "within" : "outside" + why;
		std::printf("| %-20s | %-34s | %10s | %10s | %-23s | %s\n", r.first.scope.c_str(),
			    r.first.metric.c_str(), cell(kv).c_str(), m ? num(m->median).c_str() : "-", range.c_str(),
			    verdict.c_str());
		json row = {{"scope", r.first.scope}, {"metric", r.first.metric}};
		row["kernel"] = kv ? json(*kv) : json(nullptr);
		row["model_median"] = m ? json(m->median) : json(nullptr);
		row["model_lo"] = m ? json(m->lo) : json(nullptr);
		row["model_hi"] = m ? json(m->hi) : json(nullptr);
		row["model_seeds"] = r.model.size();
		row["within"] = in ? json(*in) : json(nullptr);
		row["why"] = exact ? r.first.why : "";
		table.push_back(row);
	}
	std::printf("\nrows within: %zu/%zu\n", within, compared);
	if (!table_json.empty()) {
		json doc = {{"scenario", k["scenario"]["name"]},
			    {"kernel_release", release},
			    {"preset", preset},
			    {"profile", profile.name},
			    {"seeds", seeds},
			    {"first_seed", 1},
			    {"kernel_foreign", ks.foreign},
			    {"interval", "2.5th..97.5th percentile of the per-seed values"},
			    {"rows_within", within},
			    {"rows_compared", compared},
			    {"rows", table}};
		write_file_atomic(table_json,
				  doc.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n",
				  "--table-json");
	}
	return 0;
}

}  // namespace

// `eevdf probe --scenario NAME [probe options] [--table-json FILE]
// [--kernel-json FILE] [--profile exact|NAME|FILE] [--seeds N]`: the probe's
// multi-CPU scenario on this kernel (with
// --isolate added: all its tasks in one new autogroup) beside the model on
// as many CPUs with the running kernel's preset; --table-json also writes the
// rows as JSON; --kernel-json compares a saved probe JSON instead of running
// the probe (the kernel release in it chooses the preset). --profile and
// --seeds run the model under a machine profile with seeds 1..N: each row's
// model value is then the median over the seeds with its 95 % interval
// (cli/ensemble's), and the row is within when the kernel's value lies in it.
int probe_scenario(std::vector<std::string> args)
{
	auto take = [&](const char* flag) {
		std::string v;
		for (size_t i = 0; i + 1 < args.size(); i++)
			if (args[i] == flag) {
				v = args[i + 1];
				args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i) + 2);
				break;
			}
		return v;
	};
	const std::string table_json = take("--table-json");
	const std::string kernel_json = take("--kernel-json");
	const std::string profile_arg = take("--profile");
	const std::string seeds_arg = take("--seeds");
	const bool ensemble = !profile_arg.empty() || !seeds_arg.empty();
	unsigned seeds = 1;
	Profile profile;
	try {
		if (!seeds_arg.empty()) {
			size_t end = 0;
			const unsigned long v = std::stoul(seeds_arg, &end);
			if (end != seeds_arg.size() || v < 1 || v > MAX_SEEDS)
				throw std::invalid_argument("");
			seeds = static_cast<unsigned>(v);
		}
	} catch (const std::exception&) {
		std::cerr << "eevdf: probe: --seeds: " << seeds_arg << " is not 1.." << MAX_SEEDS << "\n";
		return 2;
	}
	try {
		profile = find_profile(profile_arg.empty() ? "exact" : profile_arg);
	} catch (const std::exception& e) {
		std::cerr << "eevdf: probe: --profile: " << e.what() << "\n";
		return 2;
	}
	std::string out;
	if (!kernel_json.empty()) {
		// a saved `eevdf-probe --scenario ... --json` instead of a new run
		std::ifstream in(kernel_json);
		if (!in) {
			std::cerr << "eevdf: probe: cannot read " << kernel_json << "\n";
			return 2;
		}
		out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
	} else {
		if (std::find(args.begin(), args.end(), "--isolate") == args.end())
			args.push_back("--isolate");
		const std::string path = find_companion(PROBE);
		if (path.empty())
			return exec_companion(PROBE, args);  // reports what is missing
		const int rc = run_probe(path, args, out);
		if (rc != 0)
			return rc;
	}
	try {
		const json k = json::parse(out);
		const std::string release = k["kernel"]["release"].get<std::string>();
		const std::string preset = preset_for(release);
		std::string command;
		const ScSide ks = kernel_side(k);
		const ScSide ms_ = model_side(k, preset, profile, 1, command);
		const std::vector<Row> rows = scenario_rows(k["scenario"]["name"].get<std::string>(), ks, ms_);
		if (ensemble)
			return print_ensemble(k, ks, preset, profile, seeds, command, table_json);
		std::printf("scenario %s: %s\nkernel %s, HZ=%u, %zu CPUs; %s s window after %s s warm-up; %s\n",
			    k["scenario"]["name"].get<std::string>().c_str(), k["scenario"]["description"].get<std::string>().c_str(),
			    release.c_str(), k["kernel"]["hz"].get<u32>(), k["scenario"]["cpus"].size(),
			    num(k["config"]["duration_ns"].get<double>() / 1e9).c_str(),
			    num(k["config"]["warmup_ns"].get<double>() / 1e9).c_str(),
			    k["config"].value("isolate", false) ? "all tasks in one autogroup (nice -20)"
								 : "not isolated: the tasks share the caller's autogroup");
		std::printf("model: preset %s, %s; %llu balance attempts; no task groups (the kernel's autogroup is one "
			    "group entity per CPU, the model's tasks are at the root)\n",
			    preset.c_str(), command.c_str(), static_cast<unsigned long long>(ms_.balance_attempts));
		std::printf("kernel noise: tasks from outside the scenario took %s %% of the CPUs; %s untraced switches\n",
			    num(100 * ks.foreign).c_str(),
			    std::to_string(k["noise"].value("untraced_switches", 0)).c_str());
		std::printf("share = time on a CPU / (window - time queued behind tasks from outside the scenario); "
			    "wake-up latency = sched_waking -> sched_switch in\n\n");
		std::printf("| %-20s | %-34s | %10s | %10s | %-14s | %s\n", "task / CPU", "metric", "kernel", "model",
			    "tolerance", "verdict");
		std::printf("|%s|%s|%s|%s|%s|%s\n", std::string(22, '-').c_str(), std::string(36, '-').c_str(),
			    std::string(12, '-').c_str(), std::string(12, '-').c_str(), std::string(16, '-').c_str(),
			    std::string(9, '-').c_str());
		json table = json::array();
		for (const Row& r : rows) {
			const std::string tol = (r.tol.abs > 0 ? "±" + g(r.tol.abs) : std::string()) +
						(r.tol.rel > 0 ? (r.tol.abs > 0 ? " or " : "±") + g(100 * r.tol.rel) + " %"
							       : std::string()) +
						(r.tol.asserted ? " *" : "");
			const std::string verdict = r.agrees() ? "agrees" : "differs: " + r.why;
			std::printf("| %-20s | %-34s | %10s | %10s | %-14s | %s\n", r.scope.c_str(), r.metric.c_str(),
				    cell(r.kernel).c_str(), cell(r.model).c_str(), tol.c_str(), verdict.c_str());
			json row = {{"scope", r.scope}, {"metric", r.metric}, {"tolerance_abs", r.tol.abs},
				    {"tolerance_rel", r.tol.rel}, {"asserted", r.tol.asserted}, {"agrees", r.agrees()},
				    {"why", r.why}};
			row["kernel"] = r.kernel ? json(*r.kernel) : json(nullptr);
			row["model"] = r.model ? json(*r.model) : json(nullptr);
			table.push_back(row);
		}
		std::printf("\n* asserted by the ctest kernel_smp_vs_model (tolerance from repeated runs); the others are "
			    "printed only\n");
		if (!table_json.empty()) {
			json doc = {{"scenario", k["scenario"]["name"]}, {"kernel_release", release}, {"preset", preset},
				    {"model_balance_attempts", ms_.balance_attempts}, {"kernel_foreign", ks.foreign},
				    {"rows", table}};
			write_file_atomic(table_json,
					  doc.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
						  "\n",
					  "--table-json");  // whole or not at all
		}
	} catch (const std::exception& e) {
		std::cerr << "eevdf: probe: cannot compare the probe's scenario with the model: " << e.what() << "\n";
		return 2;
	}
	return 0;
}

}  // namespace eevdf::cli
