// SPDX-License-Identifier: GPL-2.0-only
// Where the kernel's real semantics depart from a bound one might expect:
// each finding is kept as a replayable regression case (docs/findings.md).
#include <catch2/catch.hpp>

#include <algorithm>

#include "io/rtapp.hpp"
#include "props/bounds.hpp"
#include "props/gen.hpp"
#include "props/harness.hpp"
#include "props/workload_dsl.hpp"

using namespace eevdf;
using namespace eevdf::props;
using namespace eevdf::test;

namespace {

u64 longest_run(const Config& cfg, const Workload& wl)
{
	SwitchLog log;
	REQUIRE(run_checked(cfg, wl, {&log}).empty());
	u64 longest = 0;
	for (size_t i = 1; i < log.switches.size(); i++)
		if (log.switches[i - 1].second != IDLE)
			longest = std::max(longest, log.switches[i].first - log.switches[i - 1].first);
	return longest;
}

std::string data(const std::string& name) { return std::string(EEVDF_TEST_DATA) + "/findings/" + name; }

}  // namespace

// F1. Two nice-0 hogs, slice 0.1 ms, HZ=100, the first tick 1 ns after the
// start. hog-0's first run is 1 ns longer than hog-1's, so when hog-1 renews
// its deadline at 20 ms it is 1 ns behind, eligible, with the earlier
// deadline: it is picked again and runs a second tick. The run-length bound
// slice + TICK_NSEC holds only when accounted runtimes tie exactly.
TEST_CASE("F1: a start between ticks lets a hog be re-picked for an extra tick", "[findings]")
{
	Config cfg = make_config(*find_preset("6.18"), 100);
	cfg.base_slice_ns = 100 * US;
	cfg.features.set(Feature::PLACE_DEADLINE_INITIAL, false);
	const Workload wl = equal_hogs(2, 0, 200 * MS);
	CHECK(longest_run(cfg, wl) == 10 * MS);  // on the tick grid: one tick
	cfg.knobs.tick_phase = 1;
	CHECK(longest_run(cfg, wl) == 20 * MS);  // 1 ns off it: two
	// 6.6-6.16 reschedule only on a renewal, so the re-picked task keeps
	// the CPU until its next one: again one tick here (slice < tick), but a
	// whole slice more for larger slices.
	Config old = make_config(*find_preset("6.6"), 100);
	old.base_slice_ns = 25 * MS;
	old.features.set(Feature::PLACE_DEADLINE_INITIAL, false);
	old.knobs.tick_phase = 1;
	Config now = make_config(*find_preset("6.18"), 100);
	now.base_slice_ns = 25 * MS;
	now.features.set(Feature::PLACE_DEADLINE_INITIAL, false);
	now.knobs.tick_phase = 1;
	const u64 old_longest = longest_run(old, equal_hogs(2, 0, 2000 * MS));
	const u64 now_longest = longest_run(now, equal_hogs(2, 0, 2000 * MS));
	CHECK(now_longest <= 25 * MS + 2 * 10 * MS - 1);
	CHECK(old_longest > now_longest);
	CHECK(old_longest <= 2 * (25 * MS + 10 * MS - 1));
}

// F2. The smallest eps in run <= max(slice, TICK_NSEC) + eps is TICK_NSEC - 1:
// with slice = TICK_NSEC + 1 ns the deadline is one ns short after one tick,
// so every run takes two ticks, 2 TICK_NSEC = max(slice, TICK) + TICK - 1.
TEST_CASE("F2: eps = TICK_NSEC - 1 is reached with slice = TICK_NSEC + 1 ns", "[findings]")
{
	Config cfg = make_config(*find_preset("6.18"), 1000);
	cfg.base_slice_ns = 1 * MS + 1;
	CHECK(longest_run(cfg, equal_hogs(2, 0, 100 * MS)) == std::max(cfg.base_slice_ns, cfg.tick_ns) + cfg.tick_ns - 1);
}

// F3. A short periodic sleeper that waits for the CPU at each wakeup gains
// lag while it waits and keeps it across its sleeps (PLACE_LAG), so its lag
// ratchets up until the clamp max(2 slice, TICK_NSEC) binds: the paper's
// steady-state bound assumes joins and leaves at zero lag. Shrunk by
// RapidCheck from the lag-clamp property; replay:
//   eevdf sim tests/data/findings/lag_clamp_binds.json --kernel 6.6 --hz 947 --cpus 1 --online-cpus 8 --slice 1056000ns
//     --features -PLACE_DEADLINE_INITIAL,+PLACE_REL_DEADLINE,+PREEMPT_SHORT,+DELAY_ZERO,+NO_HZ_FULL
TEST_CASE("F3: the lag clamp binds for a short sleeper woken by another task", "[findings]")
{
	const Workload wl = load_rtapp_file(data("lag_clamp_binds.json"));
	Config cfg = make_config_one_of(*find_preset("6.6"), 947, 8);
	cfg.base_slice_ns = 1'056'000;
	cfg.features.set(Feature::PLACE_DEADLINE_INITIAL, false)
		.set(Feature::PLACE_REL_DEADLINE, true)
		.set(Feature::PREEMPT_SHORT, true)
		.set(Feature::DELAY_ZERO, true)
		.set(Feature::NO_HZ_FULL, true);
	ClampWatch clamp;
	CHECK(run_checked(cfg, wl, {&clamp}).empty());
	CHECK_FALSE(clamp.bound_hit.empty());
	// And with today's defaults too.
	ClampWatch today;
	Config cur = make_config_one_of(*find_preset("6.18"), 947, 8);
	cur.base_slice_ns = 1'056'000;
	CHECK(run_checked(cur, wl, {&today}).empty());
	CHECK_FALSE(today.bound_hit.empty());
}

// F4. With unequal weights the heavy task is re-picked after each renewal
// (still eligible, still the earliest deadline), so its runs are not bounded
// by its slice: nice -10 against nice 10 at HZ=1000 with 3 ms slices gives a
// 348 ms run. What holds is the weighted share (9548:110).
TEST_CASE("F4: with unequal weights the heavy task runs far beyond its slice", "[findings]")
{
	const Workload wl = load_rtapp_file(data("unequal_weights.json"));
	Config cfg = make_config(*find_preset("6.18"), 1000);
	cfg.base_slice_ns = 3 * MS;
	CHECK(longest_run(cfg, wl) > 100 * MS);
}

// F6 (found by fuzz_workload). On 6.12-6.16 a re-picked hog is preempted at
// the next tick only through PREEMPT_SHORT's did_preempt_short(); without it
// the re-picked task runs a whole second request. 2 hogs with the default
// slice at 8 CPUs (2.80 ms on 6.15) at HZ=1000, ticks up to 1 us early and a
// 41 us switch cost: the mean run exceeds 3 ticks (2ae891b82695's claim is
// for the default features), and it does not with PREEMPT_SHORT on.
namespace {
struct MeanRun {
	u64 runs = 0, longest = 0;
	double mean_ns = 0;
};
MeanRun mean_run(const Config& cfg, const Workload& wl)
{
	SwitchLog log;
	REQUIRE(run_checked(cfg, wl, {&log}).empty());
	MeanRun m;
	u64 sum = 0;
	for (size_t i = 1; i < log.switches.size(); i++)
		if (log.switches[i - 1].second != IDLE) {
			const u64 r = log.switches[i].first - log.switches[i - 1].first;
			sum += r;
			m.runs++;
			m.longest = std::max(m.longest, r);
		}
	m.mean_ns = m.runs ? static_cast<double>(sum) / static_cast<double>(m.runs) : 0;
	return m;
}
}  // namespace

TEST_CASE("F6: without PREEMPT_SHORT a re-picked hog keeps the CPU for a second request (6.15)", "[findings]")
{
	const Workload wl = load_rtapp_file(data("default_slice_no_preempt_short.json"));
	Config cfg = make_config_one_of(*find_preset("6.15"), 1000, 8);
	REQUIRE(cfg.base_slice_ns == 2'800'000);
	cfg.knobs.tick_jitter = 1 * US;
	cfg.knobs.switch_cost = 41'399;
	cfg.seed = 140;
	cfg.features.set(Feature::PREEMPT_SHORT, false);
	const MeanRun off = mean_run(cfg, wl);
	CHECK(off.mean_ns > 3.0 * MS);
	CHECK(off.longest >= 2 * cfg.base_slice_ns);  // two requests back to back
	cfg.features.set(Feature::PREEMPT_SHORT, true);
	const MeanRun on = mean_run(cfg, wl);
	CHECK(on.mean_ns <= 3.0 * MS);
	CHECK(on.longest < 2 * cfg.base_slice_ns);
}

// F6, second case (found by fuzz_workload, 2026-12-04): without
// PLACE_DEADLINE_INITIAL two hogs forked together start with equal
// deadlines, and with 1 ns of tick jitter more runs are re-picked to 4 ticks
// than cut to 2, so the mean of all runs (the last up to the end, as
// fuzz/genome.cpp measures it) exceeds 3 ticks on 6.18.17; with the
// feature on, as by default, it does not.
TEST_CASE("F6: without PLACE_DEADLINE_INITIAL two 2.80 ms hogs average more than 3 ticks (6.18.17)", "[findings]")
{
	const Workload wl = load_rtapp_file(data("two_hogs_no_place_deadline_initial.json"));
	REQUIRE(wl.duration == 1936 * MS);
	Config cfg = make_config_one_of(*find_preset("6.18.17"), 1000, 8);
	REQUIRE(cfg.base_slice_ns == 2'800'000);
	cfg.knobs.tick_jitter = 1;
	struct Ticks {
		double mean_ms;
		int four, two;  // runs of about 4 and 2 ticks
	};
	auto runs_of = [&](bool place_deadline_initial) {
		cfg.features.set(Feature::PLACE_DEADLINE_INITIAL, place_deadline_initial);
		SwitchLog log;
		REQUIRE(run_checked(cfg, wl, {&log}).empty());
		const std::vector<u64> runs = runs_until(log, wl.duration);
		Ticks t{0, 0, 0};
		u64 sum = 0;
		for (u64 r : runs) {
			sum += r;
			t.four += r > 3500 * US;
			t.two += r < 2500 * US;
		}
		t.mean_ms = static_cast<double>(sum) / static_cast<double>(runs.size()) / static_cast<double>(MS);
		return t;
	};
	const Ticks off = runs_of(false);
	CHECK(off.mean_ms > 3.0);
	CHECK(off.four == 5);
	CHECK(off.two == 4);
	const Ticks on = runs_of(true);
	CHECK(on.mean_ms <= 3.0);
	CHECK(on.four == 3);
	CHECK(on.two == 5);
}

// F7. 6.18.17 .. 6.18.44 keep vlag and vprot in one union and set protection
// only at a pick, so after a nice change of the running task its protection
// end is its saved lag read as an absolute vruntime: whether it is still
// protected depends on where vruntimes happen to lie, and shifting every
// vruntime by a constant changes the schedule (found by the vruntime-shift
// property). The scenario of tests/test_fidelity.cpp item 5: a is reniced
// at 14 ms holding lag -1069180 ns; with the boot origin its vruntime is
// past that value (read as u64) and it is preempted at the tick at 15; with
// vruntimes 20 ms below it, it stays protected until its renewal at 21.
TEST_CASE("F7: with vlag and vprot shared (6.18.17+), a nice change makes protection depend on absolute vruntime", "[findings]")
{
	auto end_of_as_run = [](u64 origin) {
		Config cfg = make_config(*find_preset("6.18.17"), 1000);
		cfg.vruntime_origin = origin;
		const Workload wl =
			workload({with_slice(task("a", {run(6 * MS), set_nice(-1), run(RUN_FOREVER)}, 1), 8 * MS),
				  with_slice(hog("b"), 8 * MS), with_slice(hog("c"), 8 * MS)},
				 30 * MS);
		SwitchLog log;
		REQUIRE(run_checked(cfg, wl, {&log}).empty());
		REQUIRE(log.switches.size() >= 5);
		REQUIRE(log.switches[3] == std::pair<u64, int>{12 * MS, 0});
		return log.switches[4].first;
	};
	const u64 boot = static_cast<u64>(-(1LL << 20));
	CHECK(end_of_as_run(boot) == 15 * MS);
	// a's vruntime at 14 ms is origin + 5735851 ns; put it 20 ms below the lag.
	const u64 below = static_cast<u64>(-1069180LL) - 5735851 - 20 * MS;
	CHECK(end_of_as_run(below) == 21 * MS);
}

// F9. The kernel's augmented tree keeps min_slice and max_slice only as
// min_vruntime_cb leaves them (model/timeline.hpp): a rotation gives the
// node it moves up only min_vruntime, and 6.18.17's __enqueue_entity does
// not reset max_slice. Config::exact_tree_augments is the model's own exact
// tree; each case runs both and checks where the schedules part.
namespace {
std::vector<std::pair<u64, int>> switches_of(Config cfg, const Workload& wl, bool exact)
{
	cfg.exact_tree_augments = exact;
	SwitchLog log;
	REQUIRE(run_checked(cfg, wl, {&log}).empty());
	return log.switches;
}
}  // namespace

// Four hogs forked at 0 at HZ=1000 with slices 3, 10, 10 and 0.1 ms. At 2 ms
// b is picked; putting a back and taking b out leaves a at the root by two
// rotations that give it only min_vruntime: its min_slice is still its own
// 3 ms though the 0.1 ms hog d is its left child. set_protect_slice() reads
// 3 ms, so b is protected for 3 ms and runs to its tick at 5; with the true
// 0.1 ms it is preempted at 3. 6.12 - 6.16 do not read min_slice (a flat
// queue), so the two trees schedule alike there.
TEST_CASE("F9: a stale min_slice at the root lengthens slice protection (6.18+)", "[findings]")
{
	const Workload wl = workload({with_slice(hog("a"), 3 * MS), with_slice(hog("b"), 10 * MS),
				      with_slice(hog("c"), 10 * MS), with_slice(hog("d"), 100 * US)},
				     8 * MS);
	for (const char* preset : {"6.18", "6.18.17", "6.18.33"}) {
		INFO("preset " << preset);
		const Config cfg = make_config(*find_preset(preset), 1000);
		const auto kernel = switches_of(cfg, wl, false), exact = switches_of(cfg, wl, true);
		REQUIRE(kernel.size() > 4);
		REQUIRE(exact.size() > 4);
		CHECK(std::equal(kernel.begin(), kernel.begin() + 4, exact.begin()));
		CHECK(kernel[3] == std::pair<u64, int>{2 * MS, 1});
		CHECK(kernel[4].first == 5 * MS);
		CHECK(exact[4].first == 3 * MS);
	}
	const Config old = make_config(*find_preset("6.15"), 1000);
	CHECK(switches_of(old, wl, false) == switches_of(old, wl, true));
}

// Two tasks at HZ=1000: "long" has a 10 ms custom slice, runs 5 ms, drops to
// the base slice (sched_runtime 0), runs 5 ms more, then asks for 1 ms; a
// base-slice hog beside it. With one entity in the tree besides curr, that
// entity's max_slice is never recomputed; each time the other is linked
// under it the parent's recomputation takes the child's leftover. So the
// 10 ms that long had stays in both nodes' max_slice after it gave it up.
// At 16 ms long's second slice change saves its lag -2.0 ms against the
// 6.18.17 clamp max_slice + TICK_NSEC: 11 ms with the leftover, 1.7 ms with
// the true max (0.7 ms), which clamps it to -1.7 ms. The hog, picked at 17,
// then runs to 23 instead of 22. The 2 x slice clamp of 6.18 - 6.18.16 does
// not read max_slice.
TEST_CASE("F9: a slice a task gave up stays in max_slice and loosens the lag clamp (6.18.17+)", "[findings]")
{
	const TaskSpec l = with_slice(
		task("long", {run(5 * MS), set_slice(0), run(5 * MS), set_slice(1 * MS), run(RUN_FOREVER)}, 1),
		10 * MS);
	const Workload wl = workload({l, with_slice(hog("hog"), 0)}, 30 * MS);
	for (const char* preset : {"6.18.17", "6.18.33"}) {
		INFO("preset " << preset);
		const Config cfg = make_config(*find_preset(preset), 1000);
		const auto kernel = switches_of(cfg, wl, false), exact = switches_of(cfg, wl, true);
		auto next_after = [](const std::vector<std::pair<u64, int>>& sw, std::pair<u64, int> at) {
			const auto it = std::find(sw.begin(), sw.end(), at);
			REQUIRE(it != sw.end());
			REQUIRE(it + 1 != sw.end());
			return (it + 1)->first;
		};
		CHECK(next_after(kernel, {17 * MS, 1}) == 23 * MS);
		CHECK(next_after(exact, {17 * MS, 1}) == 22 * MS);
	}
	const Config old = make_config(*find_preset("6.18.5"), 1000);
	CHECK(switches_of(old, wl, false) == switches_of(old, wl, true));
}

// F10. Active balance of a running task (several CPUs). The stopper on the
// busiest CPU preempts the task it pushes and attach_one_task() puts it on
// push_cpu in the same stopper run; the model used to enqueue it only at a
// second IPI, so for that while the task was runnable and on no rq, and
// the SMP checker property's "runnable" rule (a lost wake-up) caught it.
// Shrunk by RapidCheck; replay:
//   eevdf sim tests/data/findings/smp_active_balance_push.json --kernel 6.15 --hz 300 --cpus 4 --llc 2
//     --skew-tick --slice 2100000ns --features -PLACE_LAG,-PLACE_DEADLINE_INITIAL,-PLACE_REL_DEADLINE,
//     -RUN_TO_PARITY,-DELAY_DEQUEUE,-DELAY_ZERO,-WAKEUP_PREEMPTION,-WA_IDLE,-WA_WEIGHT,-WA_BIAS
//     --switch-cost 198ns --wakeup-irq-cost 3830ns --check
TEST_CASE("F10: a running task pushed by active balance is queued on its new CPU at once", "[findings][smp]")
{
	const Workload wl = load_rtapp_file(data("smp_active_balance_push.json"));
	Config cfg = make_config(*find_preset("6.15"), 300, 4);
	cfg.llc_size = 2;
	cfg.skew_tick = true;
	cfg.base_slice_ns = 2'100'000;
	for (Feature f : {Feature::PLACE_LAG, Feature::PLACE_DEADLINE_INITIAL, Feature::PLACE_REL_DEADLINE,
			  Feature::RUN_TO_PARITY, Feature::DELAY_DEQUEUE, Feature::DELAY_ZERO, Feature::WAKEUP_PREEMPTION,
			  Feature::WA_IDLE, Feature::WA_WEIGHT, Feature::WA_BIAS})
		cfg.features.set(f, false);
	cfg.knobs.switch_cost = 198;
	cfg.knobs.wakeup_irq_cost = 3830;
	// The pushes of running tasks: a switch to the stopper (shown as idle)
	// and the migration of the task it preempted, at one instant.
	struct Pushes : Observer {
		u64 t_out = ~0ULL;
		int out = -1;
		std::vector<std::pair<u64, int>> pushed;
		void on_switch(const Simulation&, u64 t, int prev, int next, bool, u64) override
		{
			if (next == IDLE && prev >= 0) {
				t_out = t;
				out = prev;
			}
		}
		void on_migrate(const Simulation&, u64 t, int task, u32, u32) override
		{
			if (task == out && t == t_out)
				pushed.emplace_back(t, task);
		}
	} pushes;
	CHECK(run_checked(cfg, wl, {&pushes}) == "");
	REQUIRE_FALSE(pushes.pushed.empty());
	CHECK(pushes.pushed.front() == std::pair<u64, int>{817'916'583, 7});
}

// F11. Lag travels with a migrating task (6.6+, e8f331bcc270), so on several
// CPUs the one-CPU run bound does not hold after a migration: a hog that
// arrives owed time is eligible longer and is re-picked. Seven nice-0 hogs
// on 3 CPUs, 16.001 ms slices (5 ticks a request) at HZ=250: property 2c's
// bound is r + 2 TICK_NSEC - 1 = 24.000999 ms, and a hog moved to CPU 1 at
// 132 ms runs 144 -> 172 ms there (7 ticks) with another hog queued
// throughout. Found by smp_hog_run_bound (2026-12-01) before it was limited
// to CPUs no migration has touched; replay:
//   eevdf sim --hogs 7 --cpus 3 --hz 250 --kernel 6.18.5 --slice 16001us --duration 200ms --trace t.txt
TEST_CASE("F11: a hog migrated with positive lag runs beyond the one-CPU bound", "[findings][smp]")
{
	Config cfg = make_config(*find_preset("6.18.5"), 250, 3);
	cfg.base_slice_ns = 16'001'000;
	struct Runs : Observer {
		std::vector<std::pair<int, u64>> on;  // per CPU: task, since
		std::vector<u64> min_queued;
		u64 longest = 0, longest_at = 0, migrated_in_at = 0;
		int longest_task = -1, moved = -1;
		void on_switch(const Simulation& sim, u64 t, int prev, int next, bool, u64) override
		{
			const u32 c = sim.event_cpu();
			on.resize(sim.nr_cpus(), {IDLE, 0});
			min_queued.resize(sim.nr_cpus(), 0);
			if (prev >= 0 && on[c].first == prev && min_queued[c] >= 2 && t - on[c].second > longest) {
				longest = t - on[c].second;
				longest_at = on[c].second;
				longest_task = prev;
			}
			on[c] = {next, t};
			min_queued[c] = sim.cfs_rq(c).nr_queued;
		}
		void on_migrate(const Simulation&, u64 t, int task, u32, u32 to) override
		{
			if (to == 1 && t < 144'000'000) {
				migrated_in_at = t;
				moved = task;
			}
		}
		void on_event(const Simulation& sim, u64) override
		{
			min_queued.resize(sim.nr_cpus(), 0);
			for (u32 c = 0; c < sim.nr_cpus(); c++)
				min_queued[c] = std::min<u64>(min_queued[c], sim.cfs_rq(c).nr_queued);
		}
	} runs;
	CHECK(run_checked(cfg, equal_hogs(7, 0, 200 * MS), {&runs}) == "");
	CHECK(hog_run_bound(cfg, false) == 24'000'999);
	CHECK(runs.longest == 28 * MS);
	CHECK(runs.longest_at == 144 * MS);
	CHECK(runs.longest_task == runs.moved);
	CHECK(runs.migrated_in_at == 132 * MS);
}

// F12. Found by libFuzzer in CI (2026-12-01): on 6.6 (and the other
// presets before slice protection, 6.12-6.16) property 2c's bound with one
// re-pick, 2 (slice + TICK_NSEC + jitter - 1), is 1 ns short for hogs at
// nice != 0. Two nice -10 hogs, HZ=1000, 3 ms slices, ticks up to 1 ns
// early: a run of 8000001 ns against 8000000. The weighted request's
// virtual slice is truncated (calc_delta_fair), the mechanism of the proved
// extra tick at nice != 0. Property 2c and the fuzzer's check now apply
// that bound on those presets to nice 0 only; a bound with the truncation
// term is open. Replay:
//   eevdf sim --hogs 2 --nice -10 --kernel 6.6 --hz 1000 --slice 3ms --tick-jitter 1ns --duration 1s --json
TEST_CASE("F12: 6.6 hogs at nice -10 with 1 ns early ticks run 1 ns beyond property 2c's bound", "[findings]")
{
	Config cfg = make_config(*find_preset("6.6"), 1000);
	cfg.base_slice_ns = 3 * MS;
	cfg.knobs.tick_jitter = 1;
	const u64 longest = longest_run(cfg, equal_hogs(2, -10, 1000 * MS));
	CHECK(hog_run_bound(cfg, false) == 8'000'000);
	CHECK(longest == 8'000'001);
}

// F13. Property 5 (fairness across CPUs) has no bound to state for n hogs on
// m CPUs when the split is within imbalance_pct: 13 nice-0 hogs on 2 CPUs
// split 7 / 6 at the fork and stay there (proofs: lb_hogs_pct_rule, an
// imbalance is found iff 100 n_b > 117 n_l, and lb_hogs_evened's replay).
// Over [1 s, 3 s] (PELT converged) no hog moves; each of the 6 gets about
// 2 s / 6 = 333 ms and each of the 7 about 2 s / 7 = 286 ms, where an even
// share would be 2 s * 2 / 13 = 308 ms: a spread that grows with time, T/42.
// Within a CPU EEVDF keeps them within its lag bound (property 4's
// slice + TICK_NSEC per hog, here 3.1 ms x 2).
TEST_CASE("F13: 13 hogs on 2 CPUs stay 7 against 6 and their shares never even out", "[findings][smp]")
{
	const Config cfg = make_config(*find_preset("6.18.39"), 250, 2);
	struct Shares : Observer {
		u64 from = NSEC_PER_SEC, migrations = 0;
		std::vector<u64> at_from;
		void on_migrate(const Simulation&, u64 t, int, u32, u32) override { migrations += t >= from; }
		void on_event(const Simulation& sim, u64 t) override
		{
			if (at_from.empty() && t >= from)
				for (const Task& k : sim.tasks())
					at_from.push_back(k.se.sum_exec_runtime);
		}
	} s;
	const Workload wl = equal_hogs(13, 0, 3 * NSEC_PER_SEC);
	Simulation sim(cfg, wl);
	sim.add_observer(&s);
	sim.run();
	CHECK(s.migrations == 0);
	REQUIRE(s.at_from.size() == 13);
	std::vector<u64> on[2];
	for (size_t i = 0; i < 13; i++)
		on[sim.tasks()[i].cpu].push_back(sim.tasks()[i].se.sum_exec_runtime - s.at_from[i]);
	const size_t seven = on[0].size() == 7 ? 0 : 1;
	REQUIRE(on[seven].size() == 7);
	REQUIRE(on[1 - seven].size() == 6);
	const u64 window = 2 * NSEC_PER_SEC, slack = 2 * (cfg.base_slice_ns + cfg.tick_ns);
	for (u64 x : on[seven])
		CHECK(std::llabs(static_cast<long long>(x) - static_cast<long long>(window / 7)) <= static_cast<long long>(slack));
	for (u64 x : on[1 - seven])
		CHECK(std::llabs(static_cast<long long>(x) - static_cast<long long>(window / 6)) <= static_cast<long long>(slack));
	// the fair share of 2/13 of a CPU each lies outside both bands
	CHECK(window / 6 - slack > 2 * window / 13);
	CHECK(window / 7 + slack < 2 * window / 13);
}
