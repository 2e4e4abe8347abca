// SPDX-License-Identifier: GPL-2.0-only
// wake_affine() and wake_wide() (model/select_task_rq_fair.*): whether a
// task woken by another is pulled to the waker's CPU. A whole run worked by
// hand (tests/select_helpers.hpp gives the conventions), then record_wakee,
// wake_wide, wake_affine_idle and wake_affine_weight on states built by
// running a workload and, where said, by writing the state.
#include <catch2/catch.hpp>

#include "model/select_task_rq_fair.hpp"
#include "select_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;
using namespace eevdf::test::select_cases;
using namespace eevdf::selection;

namespace {

// ---------------------------------------------------------------------------
// Scenario A (affine wake-up by a task), 2 CPUs, one LLC:
//   task 0 W: forks at 1 (both CPUs idle: stays on CPU 0, as in T), runs 5,
//             sleeps 200, runs 0.1, suspends on s; once woken runs 1, exits;
//   task 1 A: pinned to 1, 30 times (sleep 10, run 0.1), then resumes s,
//             then sleeps 10 and exits;
//   task 2 H: hog pinned to 0 from 210.
// A task's averages attach with a full load_sum (attach_entity_load_avg()
// scales load_avg = 1024 up to the divider), so W weighs ~1024 until it
// sleeps; its 200 ms sleep is decayed at its next enqueue (206: CPU 0 is
// idle then, so W wakes where it slept), leaving 1024 / 2^(200/32) ~ 13,
// plus its 0.1 ms run: ~16 when it suspends at 206.1. A's timeline is exact
// (alone on CPU 1): the resume is at 30 x 10.1 = 303. Then CPU 0 holds H
// (attached full, always runnable: ~1024) and what is left of W's blocked
// load; CPU 1 holds A, running 1% of the time (~14). At 303, this = 1
// (current A), prev = 0: record_wakee on A (flips 1), wake_wide (1, 0): no;
// want_affine. MC spans prev, this != prev: wake_affine(): WA_IDLE: CPU 1
// runs A, no sync, CPU 0 runs H: none. WA_WEIGHT: tl = task_h_load(W) =
// 16 * L0 / (L0 + 1) = 15;
//   this_eff = (load(1) + tl) * 100 * 1024 ~ (14 + 15) * 102400,
//   prev_eff = (load(0) - tl) * 108 * 1024 ~ (1026 - 15) * 110592,
// this_eff < prev_eff: CPU 1. select_idle_sibling(W, 0, 1): 1 busy (A),
// 0 busy (H), recent_used_cpu 0 == prev, nothing idle to scan: target 1.
Workload scenario_a()
{
	Workload wl;
	const int s = wl.ref("s");
	const TaskSpec a = pinned(phased("a",
					 {Phase{"light", 30, {sleep(10 * MS), run(100 * US)}},
					  Phase{"wake", 1, {resume(s), sleep(10 * MS)}}},
					 1),
				  {1});
	wl.tasks = {
		delayed(task("w", {run(5 * MS), sleep(200 * MS), run(100 * US), suspend(s), run(1 * MS)}, 1), 1 * MS),
		a, pinned_hog("h", 0, 210 * MS)};
	return wl;
}

constexpr u64 A_RESUME = 303 * MS;

TEST_CASE("select: wake_affine_weight pulls the wakee to a lightly loaded waker's CPU", "[select]")
{
	Run r(smp(2), scenario_a(), 320 * MS);
	r.sim.run_until(A_RESUME - 500 * US);
	const Simulation& s = r.sim;
	REQUIRE(s.tasks()[0].cpu == 0);
	REQUIRE(s.tasks()[0].state == TaskState::Suspended);
	REQUIRE(r.rec.delayed_blocks.empty());
	REQUIRE(cpu_load(s.rq(0).cfs.avg) > 900);
	REQUIRE(cpu_load(s.rq(1).cfs.avg) < 50);
	REQUIRE(s.tasks()[0].se.avg.load_avg > 5);
	REQUIRE(s.tasks()[0].se.avg.load_avg < 30);
	r.sim.run_until(A_RESUME + 1);
	CHECK(r.where.cpu_at(0, A_RESUME) == 1u);
	CHECK(s.tasks()[0].wakeups_affine == 1);
	CHECK(s.tasks()[1].last_wakee == 0);
	CHECK(s.tasks()[1].wakee_flips == 1);
}

TEST_CASE("select: wake_wide turns the affine pull off", "[select]")
{
	// As above, with A's flips at 4 (last wakee W: record_wakee adds none)
	// and W's at 2 before the resume. wake_wide: master 4, slave 2; 2 >=
	// llc_size 2 and 4 >= 2 * 2: wide, want_affine = 0. The walk breaks at
	// MC (no SD_BALANCE_WAKE), sd = NULL: select_idle_sibling(W, 0, 0): 0
	// busy, recent 0 == prev, the scan (1 runs A, 0 runs H) finds nothing:
	// W stays on CPU 0.
	Run r(smp(2), scenario_a(), 320 * MS);
	r.sim.run_until(A_RESUME - 500 * US);
	Task& a = r.sim.task_mut(1);
	a.wakee_flips = 4;
	a.last_wakee = 0;
	a.wakee_flip_decay_ts = r.sim.jiffies();
	r.sim.task_mut(0).wakee_flips = 2;
	r.sim.run_until(A_RESUME + 1);
	CHECK(r.where.cpu_at(0, A_RESUME) == 0u);
	CHECK(r.sim.tasks()[0].wakeups_affine == 0);
}

TEST_CASE("select: one flip short of wake_wide the affine pull stays", "[select]")
{
	// A's flips 3 < 2 * 2: not wide; as in the wake_affine_weight case.
	Run r(smp(2), scenario_a(), 320 * MS);
	r.sim.run_until(A_RESUME - 500 * US);
	Task& a = r.sim.task_mut(1);
	a.wakee_flips = 3;
	a.last_wakee = 0;
	a.wakee_flip_decay_ts = r.sim.jiffies();
	r.sim.task_mut(0).wakee_flips = 2;
	r.sim.run_until(A_RESUME + 1);
	CHECK(r.where.cpu_at(0, A_RESUME) == 1u);
}

TEST_CASE("select: without WA_WEIGHT a busy prev keeps the wakee", "[select]")
{
	// wake_affine(): WA_IDLE gives none (both CPUs busy), WA_WEIGHT is off:
	// prev. select_idle_sibling(W, 0, 0) finds nothing idle: CPU 0.
	Config c = smp(2);
	c.features.set(Feature::WA_WEIGHT, false);
	Run r(c, scenario_a(), 320 * MS);
	r.sim.run_until(A_RESUME + 1);
	CHECK(r.where.cpu_at(0, A_RESUME) == 0u);
}

// ---------------------------------------------------------------------------
// The helpers on states built by running two_hogs_and_sleeper() (and, where
// said, by writing the state).

TEST_CASE("select helpers: record_wakee counts a flip per change of wakee", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 3 * MS);
	Simulation& sim = st.sim;
	Task& c = sim.task_mut(0);
	Task& d = sim.task_mut(1);
	Task& w = sim.task_mut(2);
	REQUIRE(sim.curr_task(0) == &c);
	c.wakee_flip_decay_ts = sim.jiffies();
	record_wakee(sim, w, 0);
	CHECK(c.last_wakee == 2);
	CHECK(c.wakee_flips == 1);
	record_wakee(sim, w, 0);
	CHECK(c.wakee_flips == 1);
	record_wakee(sim, d, 0);
	CHECK(c.last_wakee == 1);
	CHECK(c.wakee_flips == 2);
	CHECK(w.wakee_flips == 0);
}

TEST_CASE("select helpers: record_wakee halves the flips once more than HZ jiffies after the last decay", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 3 * MS);
	Simulation& sim = st.sim;
	Task& c = sim.task_mut(0);
	// jiffies is 0 here: the stamps below wrap under zero, as the kernel's
	// (which start at INITIAL_JIFFIES) do.
	const u64 j = sim.jiffies();
	const u64 hz = sim.config().hz;
	// jiffies == stamp + HZ is not after it: no decay; W is a new wakee: +1.
	c.wakee_flips = 9;
	c.last_wakee = 1;
	c.wakee_flip_decay_ts = j - hz;
	record_wakee(sim, sim.task_mut(2), 0);
	CHECK(c.wakee_flips == 10);
	CHECK(c.wakee_flip_decay_ts == j - hz);
	// One jiffy later than that: 10 >> 1 = 5, stamp = jiffies, then +1 for a
	// new wakee.
	c.wakee_flip_decay_ts = j - hz - 1;
	record_wakee(sim, sim.task_mut(1), 0);
	CHECK(c.wakee_flips == 6);
	CHECK(c.wakee_flip_decay_ts == j);
}

TEST_CASE("select helpers: wake_wide needs llc_size flips on one side and llc_size times that on the other", "[select]")
{
	// 4 CPUs in one LLC: factor 4.
	Workload wl = two_hogs_and_sleeper();
	wl.tasks[2].cpus = {0, 1, 2, 3};
	State st(smp(4), wl, 3 * MS);
	Simulation& sim = st.sim;
	Task& c = sim.task_mut(0);
	Task& w = sim.task_mut(2);
	auto wide = [&](u32 waker, u32 wakee) {
		c.wakee_flips = waker;
		w.wakee_flips = wakee;
		return wake_wide(sim, w, 0);
	};
	CHECK(wide(16, 4));
	CHECK(wide(4, 16));  // symmetric
	CHECK_FALSE(wide(15, 4));
	CHECK_FALSE(wide(100, 3));
	CHECK(wide(12, 3) == false);
	// An idle waker (CPU 2 runs the idle task) counts zero flips.
	w.wakee_flips = 100;
	CHECK_FALSE(wake_wide(sim, w, 2));
}

TEST_CASE("select helpers: wake_affine_idle from an idle waking CPU", "[select]")
{
	// 2 CPUs: at 1.5 CPU 0 runs C, CPU 1 is idle (D starts at 2, W sleeps).
	State st(smp(2), two_hogs_and_sleeper(), 1500 * US);
	const Simulation& sim = st.sim;
	REQUIRE(sim.rq(1).idle_cpu());
	REQUIRE_FALSE(sim.rq(0).idle_cpu());
	// this idle, same LLC, prev busy: this.
	CHECK(wake_affine_idle(sim, 1, 0, false) == 1u);
	// this busy, prev idle: prev.
	CHECK(wake_affine_idle(sim, 0, 1, false) == 1u);
	// this idle and prev idle (the same CPU): prev.
	CHECK(wake_affine_idle(sim, 1, 1, false) == 1u);
}

TEST_CASE("select helpers: wake_affine_idle gives nothing for two busy CPUs without sync", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 3 * MS);
	const Simulation& sim = st.sim;
	CHECK(wake_affine_idle(sim, 0, 1, false) == NO_TARGET);
	// sync with this_rq holding only the waker: this.
	REQUIRE(sim.rq(0).nr_running() == 1);
	CHECK(wake_affine_idle(sim, 0, 1, true) == 0u);
}

TEST_CASE("select helpers: an idle CPU in another LLC does not pull in wake_affine_idle", "[select]")
{
	// 4 CPUs, LLCs {0,1} and {2,3}: CPU 2 idle, prev 0 busy: not cache
	// affine, so the first test fails; prev busy, no sync: none.
	State st(smp(4, 2), two_hogs_and_sleeper(), 3 * MS);
	const Simulation& sim = st.sim;
	REQUIRE(sim.rq(2).idle_cpu());
	CHECK(wake_affine_idle(sim, 2, 0, false) == NO_TARGET);
	CHECK(wake_affine_idle(sim, 3, 2, false) == 2u);
}

// C pinned to 0 from 0; Dl pinned to 0 forks at 0, runs 3 at once (C's fork
// at 0.5 does not preempt it, no tick before 4) and sleeps at 3 while its
// vruntime (3) is past V ((3 + 0.5) / 2): ineligible, so it stays queued,
// delayed. D keeps CPU 1 busy. At 3.5 CPU 0 has nr_running 2, one delayed.
Workload delayed_state()
{
	return workload({pinned(task("dl", {run(3 * MS), sleep(50 * MS)}, 1), {0}), pinned_hog("c", 0, 500 * US),
			 pinned_hog("d", 1)});
}

TEST_CASE("select helpers: wake_affine_idle's sync test leaves delayed tasks out from 6.16", "[select]")
{
	State st(smp(2), delayed_state(), 3500 * US);
	const Simulation& sim = st.sim;
	REQUIRE(sim.rq(0).nr_running() == 2);
	REQUIRE(sim.rq(0).cfs.nr_delayed == 1);
	REQUIRE(sim.current(0) == 1);
	// 2 - 1 == 1: the waker is alone but for a delayed task: this.
	CHECK(wake_affine_idle(sim, 0, 1, true) == 0u);
}

TEST_CASE("select helpers: wake_affine_idle's sync test counts delayed tasks before 6.16", "[select]")
{
	State st(smp(2, 0, "6.15"), delayed_state(), 3500 * US);
	const Simulation& sim = st.sim;
	REQUIRE(sim.rq(0).nr_running() == 2);
	REQUIRE(sim.rq(0).cfs.nr_delayed == 1);
	// nr_running 2 != 1, prev busy: none.
	CHECK(wake_affine_idle(sim, 0, 1, true) == NO_TARGET);
}

// wake_affine_weight() on written loads: W (task 2) has task_cpu 1 = prev;
// this = 0. The written h_load is stamped with the current jiffy so
// task_h_load() uses it: tl = W.load_avg * Lp / (Lp + 1).
struct Loads {
	u64 this_load, prev_load, task_load, current_load = 0;
};

u32 affine_weight(Simulation& sim, Loads l, bool sync = false)
{
	CfsRqAvg& t = sim.rq_mut(0).cfs.avg;
	CfsRqAvg& p = sim.rq_mut(1).cfs.avg;
	t.avg.load_avg = t.h_load = l.this_load;
	p.avg.load_avg = p.h_load = l.prev_load;
	t.last_h_load_update = p.last_h_load_update = sim.jiffies();
	sim.task_mut(2).se.avg.load_avg = l.task_load;
	sim.task_mut(0).se.avg.load_avg = l.current_load;
	return wake_affine_weight(sim, *sim.topology().sd(0), sim.tasks()[2], 0, 1, sync);
}

TEST_CASE("select helpers: wake_affine_weight compares loads with the 108% bias", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 3 * MS);
	Simulation& sim = st.sim;
	REQUIRE(sim.tasks()[2].cpu == 1);
	// tl = 300 * 600 / 601 = 299.
	// this (100 + 299) * 100 = 39900 vs prev (600 - 299) * 108 = 32508: none.
	CHECK(affine_weight(sim, {100, 600, 300}) == NO_TARGET);
	// this (10 + 299) * 100 = 30900 < 32508: this.
	CHECK(affine_weight(sim, {10, 600, 300}) == 0u);
	// tl = 0: 104 * 100 = 10400 < 100 * 108 = 10800: the bias lets the
	// slightly busier this_cpu win.
	CHECK(affine_weight(sim, {104, 100, 0}) == 0u);
}

TEST_CASE("select helpers: wake_affine_weight without WA_BIAS compares plain loads", "[select]")
{
	Config c = smp(2);
	c.features.set(Feature::WA_BIAS, false);
	State st(c, two_hogs_and_sleeper(), 3 * MS);
	// 104 < 100 is false: none.
	CHECK(affine_weight(st.sim, {104, 100, 0}) == NO_TARGET);
	CHECK(affine_weight(st.sim, {99, 100, 0}) == 0u);
}

TEST_CASE("select helpers: wake_affine_weight ties go to prev unless sync", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 3 * MS);
	// 108 * 100 == 100 * 108: not less: none. With sync (current C of load
	// 0: nothing to subtract) prev_eff gets + 1: this.
	CHECK(affine_weight(st.sim, {108, 100, 0}) == NO_TARGET);
	CHECK(affine_weight(st.sim, {108, 100, 0}, true) == 0u);
}

TEST_CASE("select helpers: wake_affine_weight sync takes the waker's load off this_cpu", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 3 * MS);
	// current C: load_avg 500 on this (h_load 600): task_h_load = 500 * 600
	// / 601 = 499. this_eff = 600 - 499 = 101, + tl 0: 10100 * 1024 vs
	// prev (100) * 108 * 1024 + 1: this.
	CHECK(affine_weight(st.sim, {600, 100, 0, 500}, true) == 0u);
	// Without sync: 60000 vs 10800: none.
	CHECK(affine_weight(st.sim, {600, 100, 0, 500}) == NO_TARGET);
	// The waker's load above this_cpu's (a stale h_load): this at once.
	// task_h_load = 700 * 600 / 601 = 698 > 600.
	CHECK(affine_weight(st.sim, {600, 100, 0, 700}, true) == 0u);
}

TEST_CASE("select helpers: wake_affine_weight compares signed when the task outweighs prev", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 3 * MS);
	// tl = 300 * 100 / 101 = 297: prev_eff = (100 - 297) * 108 * 1024 < 0,
	// below this_eff = (0 + 297) * 100 * 1024: none (an unsigned compare
	// would say this).
	CHECK(affine_weight(st.sim, {0, 100, 300}) == NO_TARGET);
}

}  // namespace
