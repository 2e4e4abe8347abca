// SPDX-License-Identifier: GPL-2.0-only
// Golden schedules for the places where kernel releases decide differently
// (issue "Fidelity: six places where a preset decides differently from its
// kernel"). Each is computed by hand from the kernel source of the releases
// named; times in ms, vruntimes relative to the boot reference point v0,
// V the weighted average vruntime, "vprot" the protection end.
#include <catch2/catch.hpp>

#include "model/fair.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

u64 first_switch_in(const Recorder& r, int task)
{
	const auto v = r.switch_ins(task);
	return v.empty() ? ~0ULL : v.front();
}

// A cfs_rq driven by hand: entities enqueued, picked, blocked and woken at
// chosen clock values, exactly as core.c calls the fair class.
struct HandRq {
	Config cfg;
	CfsRq cfs;
	std::vector<SchedEntity> se;

	HandRq(std::string_view preset, std::vector<u64> slices) : cfg(config(preset, 1000, 3 * MS)), cfs(cfg), se(slices.size())
	{
		for (size_t i = 0; i < se.size(); i++) {
			se[i].id = static_cast<int>(i);
			se[i].load = task_load_weight(0);
			se[i].custom_slice = slices[i] != cfg.base_slice_ns;
			se[i].slice = slices[i];
		}
	}
	u64 v(size_t i) const { return se[i].vruntime - cfg.vruntime_origin; }
	u64 d(size_t i) const { return se[i].deadline - cfg.vruntime_origin; }
	void at(u64 t) { cfs.clock_task = t; }
	void wake(size_t i) { cfs.enqueue_entity(&se[i], ENQUEUE_WAKEUP); }
	SchedEntity* pick()
	{
		SchedEntity* next = cfs.pick_next_task_fair();
		cfs.need_resched = false;
		return next;
	}
	bool block_curr() { return cfs.dequeue_entity(cfs.curr, DEQUEUE_SLEEP); }
};

}  // namespace

// 1. yield_task_fair(). v6.18.0 pushes the deadline by a slice; the forfeit
// (79104becf42b) came to 6.18 only in 6.18.2. Hog h and a task y that loops
// "run 0.2, yield", HZ=1000, base slice 0.7, both forked at 0 (first
// deadlines 0.35). At 1 h renews (d=1.7) and y runs, protected to 0.35.
//  6.18.0: at 1.2 y yields with v=0.2, d -> 1.05, still protected: re-picked.
//          At 1.4, 1.6, 1.8 y is past its protection but h (v=1) is not
//          eligible (V = 0.7, 0.8, 0.9): re-picked. At 2.0 V=1: h (d=1.7) wins.
//  6.18.2: at 1.2 y forfeits: v=d=0.35, d=1.05, unprotected, h not eligible
//          (V=0.675). At 1.4 v=0.55 is eligible (V=0.775): forfeit to v=1.05,
//          V=1.025, so y is not eligible and h runs.
TEST_CASE("6.18.0 yield pushes the deadline; 6.18.2 forfeits the rest of the request", "[fidelity]")
{
	const auto wl = workload({hog("h"), task("y", {run(200 * US), yield()})});
	const Recorder pushed = simulate(config("6.18", 1000), wl, 10 * MS);
	REQUIRE(pushed.switches.size() >= 3);
	CHECK(pushed.switches[0] == Switch{0, IDLE, 0});
	CHECK(pushed.switches[1] == Switch{1 * MS, 0, 1});
	CHECK(pushed.switches[2] == Switch{2 * MS, 1, 0});

	const Recorder forfeit = simulate(config("6.18.2", 1000), wl, 10 * MS);
	REQUIRE(forfeit.switches.size() >= 3);
	CHECK(forfeit.switches[0] == Switch{0, IDLE, 0});
	CHECK(forfeit.switches[1] == Switch{1 * MS, 0, 1});
	CHECK(forfeit.switches[2] == Switch{1400 * US, 1, 0});
}

// Over 2 s the deadline push keeps the two at their fair share (lag stays
// within a slice and a tick); the forfeit gives away every unused request.
TEST_CASE("a yielding task keeps its fair share on 6.18.0 and loses it on 6.18.2", "[fidelity]")
{
	auto cpu_of_y = [](std::string_view preset) {
		Workload wl = workload({hog("h"), task("y", {run(200 * US), yield()})});
		wl.duration = 2000 * MS;
		Simulation sim(config(preset, 1000), wl);
		sim.run();
		return sim.tasks()[1].se.sum_exec_runtime;
	};
	const u64 pushed = cpu_of_y("6.18");
	CHECK(pushed >= 1000 * MS - 2 * MS);
	CHECK(pushed <= 1000 * MS + 2 * MS);
	CHECK(cpu_of_y("6.18.2") < 700 * MS);
}

// 4a. Fork. Hogs a (t=0), b (t=0.1) and c (t=2.3), HZ=1000, base slice 0.7.
// a runs to 1 (d renewed to 1.7), b to 2 (v=1.1, d=1.8), a again from 2,
// protected to 1.7. At 2.3 a has v=1.3 and c is placed at V=1.2 with d=1.55;
// with c, V=1.2 and a is not eligible, so the pick is c.
//  6.18.0: the wakeup's pick is c: it preempts a at 2.3.
//  6.18.33: a fork does not preempt unless its slice is shorter: a runs to the
//           tick at 3, renews (d=2.7), and the pick is c (d=1.55 < b's 1.8).
//           With a 0.3 ms custom slice c takes the short path and preempts.
TEST_CASE("6.18.33 lets a forked task preempt only with a shorter slice", "[fidelity]")
{
	const auto wl = workload({hog("a"), delayed(hog("b"), 100 * US), delayed(hog("c"), 2300 * US)});
	CHECK(first_switch_in(simulate(config("6.18", 1000), wl, 10 * MS), 2) == 2300 * US);
	CHECK(first_switch_in(simulate(config("6.18.17", 1000), wl, 10 * MS), 2) == 2300 * US);
	CHECK(first_switch_in(simulate(config("6.18.33", 1000), wl, 10 * MS), 2) == 3 * MS);

	const auto shorter =
		workload({hog("a"), delayed(hog("b"), 100 * US), delayed(with_slice(hog("c"), 300 * US), 2300 * US)});
	CHECK(first_switch_in(simulate(config("6.18.33", 1000), shorter, 10 * MS), 2) == 2300 * US);
}

// 4b. A delayed entity chosen by the wakeup's pick. Base slice 3. d and c are
// placed at 0 with deadline 3; d runs and blocks at 2 while not eligible
// (V=1): it stays queued, delayed, and c runs, protected to 3. At 4.5 c has
// v=2.5, V=2.25, so d (v=2) is eligible again and c is not. w wakes with a
// 1 ms custom slice: placed at V=2.25, d=3.25. w is shorter than c, so the
// pick ignores c's protection, and it is d (deadline 3).
//  6.18.0 / 6.18.17: the pick is not w: no preemption; d stays delayed.
//  6.18.33: pick_next_entity() dequeues d for good (its lag, +0.25, is zeroed
//           by DELAY_ZERO) and picks again: V=2.375, c is not eligible, w is
//           the pick: preempt, and c's protection is cancelled.
TEST_CASE("6.18.33's wakeup pick dequeues a delayed entity and picks again", "[fidelity]")
{
	for (std::string_view preset : {"6.18", "6.18.17", "6.18.33"}) {
		INFO("preset " << preset);
		HandRq rq(preset, {3 * MS, 3 * MS, 1 * MS});  // d, c, w
		rq.at(0);
		rq.wake(0);
		rq.wake(1);
		REQUIRE(rq.pick() == &rq.se[0]);
		rq.at(2 * MS);
		REQUIRE_FALSE(rq.block_curr());  // delayed
		REQUIRE(rq.pick() == &rq.se[1]);
		rq.at(4500 * US);
		rq.wake(2);
		REQUIRE(rq.v(2) == 2250 * US);
		REQUIRE(rq.d(2) == 3250 * US);
		REQUIRE_FALSE(rq.cfs.need_resched);  // c is still protected (v=2.5 < 3)
		rq.cfs.check_preempt_wakeup_fair(&rq.se[2], WF_TTWU);
		if (preset == "6.18.33") {
			CHECK(rq.cfs.need_resched);
			CHECK_FALSE(rq.se[0].on_rq);
			CHECK(rq.se[0].vlag == 0);
			CHECK_FALSE(rq.cfs.protect_slice(&rq.se[1]));
		} else {
			CHECK_FALSE(rq.cfs.need_resched);
			CHECK(rq.se[0].on_rq);
			CHECK(rq.se[0].sched_delayed);
			CHECK(rq.cfs.protect_slice(&rq.se[1]));
		}
	}
}

// 4c. Protection after a wakeup that does not preempt. Base slice 3. c and x
// are placed at 0 (d=3); c runs, protected to 3. At 1 x gets a 0.5 ms custom
// slice (sched_setattr: re-queued with its lag and relative deadline; no
// wakeup preemption). At 1.2 y wakes with the base slice: placed at V=0.6,
// d=3.6; x (d=3) is the pick, so y does not preempt.
//  6.18.0: y is not shorter, so c's protection stays at 3: the tick at 2 does
//          not reschedule.
//  6.18.33: every wakeup that reaches the pick and does not preempt shrinks
//           the protection to v + min slice = 1.2 + 0.5 = 1.7: the tick at 2
//           reschedules.
TEST_CASE("6.18.33 shrinks curr's protection after any wakeup that does not preempt", "[fidelity]")
{
	for (std::string_view preset : {"6.18", "6.18.33"}) {
		INFO("preset " << preset);
		HandRq rq(preset, {3 * MS, 3 * MS, 3 * MS});  // c, x, y
		rq.at(0);
		rq.wake(0);
		rq.wake(1);
		REQUIRE(rq.pick() == &rq.se[0]);
		rq.at(1 * MS);
		SchedEntity& x = rq.se[1];
		rq.cfs.dequeue_entity(&x, DEQUEUE_SAVE | DEQUEUE_MOVE);
		x.custom_slice = true;
		x.slice = 500 * US;
		rq.cfs.enqueue_entity(&x, ENQUEUE_RESTORE);
		REQUIRE(rq.v(1) == 0);
		REQUIRE(rq.d(1) == 3 * MS);
		rq.at(1200 * US);
		rq.wake(2);
		REQUIRE(rq.v(2) == 600 * US);
		rq.cfs.check_preempt_wakeup_fair(&rq.se[2], WF_TTWU);
		REQUIRE_FALSE(rq.cfs.need_resched);
		rq.at(2 * MS);
		rq.cfs.entity_tick(false);
		CHECK(rq.cfs.need_resched == (preset == "6.18.33"));
	}
}

// 5. 6.18.17 .. 6.18.44 keep vlag and vprot in one union and set protection
// only at a pick. Three hogs with 8 ms custom slices, HZ=1000 (first
// deadlines 4): a runs 0-4, b 4-8, c 8-12; at 12 all have v=4, d=12 and a
// runs (FIFO among equal deadlines), protected to 12. At 14 a (v=6) is
// reniced to -1: the dequeue saves its lag (-1.333) into the shared field,
// the reweight scales it to -1.069 (w 1024 -> 1277) and the relative deadline
// 6 to 4.811; the enqueue places a at 5.736 with d=10.547.
//  6.18.0: set_next_entity() renews protection (to the deadline): a runs to
//          its renewal at the tick at 21.
//  6.18.17: protection is not renewed and the field now holds the lag, so a
//           is unprotected: the tick at 15 reschedules, and a (v=6.54 > V) is
//           not eligible: b runs at 15.
TEST_CASE("6.18.17's shared vlag/vprot storage cancels protection across a nice change", "[fidelity]")
{
	auto runs_of_a = [](std::string_view preset) {
		TaskSpec a = with_slice(task("a", {run(6 * MS), set_nice(-1), run(RUN_FOREVER)}, 1), 8 * MS);
		const auto wl = workload({a, with_slice(hog("b"), 8 * MS), with_slice(hog("c"), 8 * MS)});
		return simulate(config(preset, 1000), wl, 30 * MS);
	};
	for (std::string_view preset : {"6.18", "6.18.17"}) {
		INFO("preset " << preset);
		const Recorder r = runs_of_a(preset);
		REQUIRE(r.switches.size() >= 5);
		CHECK(r.switches[1] == Switch{4 * MS, 0, 1});
		CHECK(r.switches[2] == Switch{8 * MS, 1, 2});
		CHECK(r.switches[3] == Switch{12 * MS, 2, 0});
		CHECK(r.switches[4] == Switch{(preset == "6.18" ? 21 : 15) * MS, 0, 1});
	}
}

// 6. v6.12.0 rescales only vlag in an off-queue reweight; 6d71a9c61604 (6.13)
// also rescales the relative deadline. Two hogs, HZ=1000, base slice 0.75:
// a 0-1, b 1-2, a 2-3, b from 3 (v=1, d=1.75). At 3.3 (1.3 ms of CPU) b is
// reniced to -10: lag +0.35 -> 0.0375 in the new weight, relative deadline
// 0.45; b is re-placed at 1.612 (V=2) and re-protected.
//  6.12: the relative deadline stays 0.45 virtual, 4.2 ms of b's time at
//        weight 9548: the renewal is at the tick at 8, and b (v=2.117 > V=2.105)
//        gives way to a.
//  6.15: it becomes 0.048 (0.45 ms): b renews at 4, 5 and 6 while still
//        eligible and stays; at 7 (v=2.0093 > V=2.0084) a runs.
TEST_CASE("v6.12.0 keeps the relative deadline unscaled across a nice change", "[fidelity]")
{
	const auto wl = workload({hog("a"), task("b", {run(1300 * US), set_nice(-10), run(RUN_FOREVER)}, 1)});
	for (std::string_view preset : {"6.12", "6.15"}) {
		INFO("preset " << preset);
		Config cfg = config(preset, 1000, 750 * US);
		const Recorder r = simulate(cfg, wl, 20 * MS);
		REQUIRE(r.switches.size() >= 5);
		CHECK(r.switches[1] == Switch{1 * MS, 0, 1});
		CHECK(r.switches[2] == Switch{2 * MS, 1, 0});
		CHECK(r.switches[3] == Switch{3 * MS, 0, 1});
		CHECK(r.switches[4] == Switch{(preset == "6.12" ? 8 : 7) * MS, 1, 0});
	}
}

// 2. v6.6's __pick_eevdf() starts from curr and takes a queued entity only
// for a strictly earlier deadline on its walk. Two hogs, HZ=1000, base
// slice 0.75, both forked at 0 with a whole first slice (item 3): a runs to
// 1 (renewed d=1.75), b from 1. At 2 b renews (v=1, d=1.75); V=1 and a
// (v=1, d=1.75) ties: b keeps the CPU. At 3 b (v=2) is not eligible: a runs
// to 5, and so on: 2 ms runs. The 6.8+ rule (curr loses ties) switches
// every millisecond.
TEST_CASE("v6.6 keeps curr on a deadline tie: equal hogs run two ticks", "[fidelity]")
{
	const auto wl = workload({hog("a"), hog("b")});
	const Recorder r = simulate(config("6.6", 1000), wl, 100 * MS);
	REQUIRE(r.switches.size() > 10);
	CHECK(r.switches[0] == Switch{0, IDLE, 0});
	CHECK(r.switches[1] == Switch{1 * MS, 0, 1});
	CHECK(r.switches[2] == Switch{3 * MS, 1, 0});
	CHECK(r.switches[3] == Switch{5 * MS, 0, 1});
	for (size_t i = 2; i < r.switches.size(); i++)
		CHECK(r.switches[i].t - r.switches[i - 1].t == 2 * MS);

	Config later = config("6.12", 1000);  // the same slice, the 6.8+ tie rule
	const Recorder n = simulate(later, wl, 100 * MS);
	REQUIRE(n.switches.size() > 10);
	for (size_t i = 2; i < n.switches.size(); i++)
		CHECK(n.switches[i].t - n.switches[i - 1].t == 1 * MS);
}

// 3. v6.6 places a forked task in task_fork_fair() with ENQUEUE_INITIAL but
// activates it without: its first deadline is a whole slice away. Hogs a
// (t=0), b (t=0.1), c (t=2.3), HZ=1000, base slice 0.75: a runs to 1, b to
// 2, a from 2. At 2.3 a has v=1.3 and c is placed at V=1.2 with d=1.95; V
// is then 1.2 and a (v=1.3) is not eligible; b (v=1.1, d=1.85) is the pick,
// so c does not preempt. At 3 a renews and b runs; at 4 b renews (v=2.1)
// and only c (v=1.2) is eligible: c first runs at 4. With half a slice
// (d=1.575 < 1.85) c would preempt at 2.3.
TEST_CASE("v6.6 gives a forked task a whole first slice", "[fidelity]")
{
	const auto wl = workload({hog("a"), delayed(hog("b"), 100 * US), delayed(hog("c"), 2300 * US)});
	const Recorder r = simulate(config("6.6", 1000), wl, 10 * MS);
	CHECK(first_switch_in(r, 2) == 4 * MS);
	CHECK(r.switches[1] == Switch{1 * MS, 0, 1});
	CHECK(r.switches[2] == Switch{2 * MS, 1, 0});
	CHECK(r.switches[3] == Switch{3 * MS, 0, 1});
	CHECK(r.switches[4] == Switch{4 * MS, 1, 2});
	// 6.12 activates with ENQUEUE_INITIAL: c's first deadline is 1.575 and it
	// preempts at once (its other decisions here match 6.6's).
	CHECK(first_switch_in(simulate(config("6.12", 1000), wl, 10 * MS), 2) == 2300 * US);
}

// 7. Slice protection with mixed slices (052c3d87c82e, 6.17+). Hogs s (1 ms
// custom slice) and l (10 ms), forked at 0, HZ=1000: half-slice first
// deadlines s 0.5, l 5; s runs, renews at 1 (v=1, d=2) and with V=0.5 only l
// is eligible. set_protect_slice() gives l the smallest slice queued, s's:
// vprot = min(d, v + 1) = 1.
//  6.18.0 / 6.18.17 / 6.18.33: at 2 l (v=1) is past vprot: resched; V=1,
//      both eligible, s has the earlier deadline (2 against 5). From then on
//      s renews at every tick it runs and l is protected for one tick from
//      each pick (on a deadline tie, at l's v=4, curr l loses): a switch at
//      every tick, s at even and l at odd milliseconds.
//  6.15: protection is the deadline stash: l runs until v reaches d=5, at 6;
//      s (v=1, d=2) then runs, re-picked at each renewal, until at 11 its v=6
//      against V=5.5 makes it ineligible.
TEST_CASE("6.17+ protects a long-slice task only for the smallest queued slice; 6.15 to its deadline", "[fidelity]")
{
	const auto wl = workload({with_slice(hog("s"), 1 * MS), with_slice(hog("l"), 10 * MS)});
	for (std::string_view preset : {"6.18", "6.18.17", "6.18.33"}) {
		INFO("preset " << preset);
		const Recorder r = simulate(config(preset, 1000), wl, 30 * MS);
		REQUIRE(r.switches.size() >= 30);
		CHECK(r.switches[0] == Switch{0, IDLE, 0});
		for (size_t i = 1; i < 30; i++)
			CHECK(r.switches[i] == Switch{i * MS, static_cast<int>((i - 1) % 2), static_cast<int>(i % 2)});
	}
	const Recorder old = simulate(config("6.15", 1000), wl, 30 * MS);
	REQUIRE(old.switches.size() >= 4);
	CHECK(old.switches[0] == Switch{0, IDLE, 0});
	CHECK(old.switches[1] == Switch{1 * MS, 0, 1});
	CHECK(old.switches[2] == Switch{6 * MS, 1, 0});
	CHECK(old.switches[3] == Switch{11 * MS, 0, 1});
}

// 8. The default base slice, update_sysctl() with SCHED_TUNABLESCALING_LOG:
// 0.70 ms x (1 + ilog2(min(online CPUs, 8))), so 2.80 ms from 8 CPUs on
// (6.18). One CPU of a machine with 8, 16 or 64 online, two hogs forked at
// 0, HZ=1000: both v=0, d=1.4. Hog 0 renews at 2 (v=2, d=4.8), V=1: hog 1
// runs; it renews at 4 (v=2, d=4.8) and loses the tie. Each run then ends
// at the first tick with v >= d, after 2.8 ms of runtime: a switch every
// 3 ms (a 3.5 ms slice at 16 CPUs would make it 4 ms).
TEST_CASE("the default base slice stops growing at 8 CPUs: 16 and 64 CPUs run 3-tick slices at HZ=1000", "[fidelity]")
{
	for (u32 online : {8u, 16u, 64u}) {
		INFO("online CPUs " << online);
		const Config cfg = make_config_one_of(*find_preset("6.18"), 1000, online);
		const Recorder r = simulate(cfg, workload({hog("a"), hog("b")}), 60 * MS);
		REQUIRE(r.switches.size() > 10);
		CHECK(r.switches[1] == Switch{2 * MS, 0, 1});
		CHECK(r.switches[2] == Switch{4 * MS, 1, 0});
		for (size_t i = 3; i < r.switches.size(); i++)
			CHECK(r.switches[i] == Switch{(4 + 3 * (i - 2)) * MS, r.switches[i - 1].next, r.switches[i - 1].prev});
	}
}

// ---------------------------------------------------------------- 7.1.5
//
// 7a. A delayed task keeps at least the lag it had at the delay (v7.1
// update_entity_lag() for sched_delayed, requeue_delayed_entity()). Base
// slice 3; a, b, c woken at 0 (v=0, d=3). a runs to 2 (v=2) and blocks:
// V = 2/3 = 666666, so a is ineligible and delayed with lag 666666 - 2000000
// = -1333334 (7.1 saves it now). b is picked. At 2, d wakes with a saved lag
// of +2 ms: W = 3 (a, c in the tree, b curr), lag inflated to 2 * 4/3 =
// 2666666, v_d = 666666 - 2666666 = -2000000, and V drops to
// (2 + 0 + 0 - 2)/4 = 0: a's lag is now -2000000, below its delay-time lag.
// a is woken (still queued, delayed):
//  6.18.39: DELAY_ZERO re-places only a positive lag: a keeps v=2, d=3.
//  7.1.5: its lag is raised back to -1333334 and it is re-placed: without a,
//         V = (0 + 0 - 2000000)/3 = -666667 (floored), the lag inflated
//         -1333334 * 4/3 = -1777778 (truncated), v = -666667 + 1777778 =
//         1111111, and a fresh request d = v + 3 = 4111111.
TEST_CASE("7.1.5 restores a delayed task's lag at the delay when it is woken", "[fidelity]")
{
	for (std::string_view preset : {"6.18.39", "7.1.5"}) {
		INFO("preset " << preset);
		HandRq rq(preset, {3 * MS, 3 * MS, 3 * MS, 3 * MS});  // a, b, c, d
		rq.at(0);
		rq.wake(0);
		rq.wake(1);
		rq.wake(2);
		REQUIRE(rq.pick() == &rq.se[0]);
		rq.at(2 * MS);
		REQUIRE_FALSE(rq.block_curr());  // delayed
		REQUIRE(rq.pick() == &rq.se[1]);
		rq.se[3].vlag = 2 * MS;
		rq.wake(3);
		REQUIRE(rq.v(3) == static_cast<u64>(-2000000));
		REQUIRE(rq.cfs.avg_vruntime() - rq.cfg.vruntime_origin == 0);
		rq.cfs.enqueue_task_fair(&rq.se[0], ENQUEUE_WAKEUP | ENQUEUE_DELAYED);
		CHECK_FALSE(rq.se[0].sched_delayed);
		if (preset == "7.1.5") {
			CHECK(rq.v(0) == 1111111);
			CHECK(rq.d(0) == 4111111);
			CHECK(wrapped_diff(rq.cfs.avg_vruntime(), rq.se[0].vruntime) == -1333334);
		} else {
			CHECK(rq.v(0) == 2 * MS);
			CHECK(rq.d(0) == 3 * MS);
		}
	}
}

// 7b. v7.1's 64-bit __calc_delta() divides: a nice-13 task (weight 56) has
// a virtual slice of 0.7 ms * 1024 / 56 = 12800000 ns, exactly; 6.18's
// multiply by the inverse weight 76695844 and shift truncates to 12799999.
// Woken alone at 0 with the 0.7 ms base slice, its first deadline is that
// far from its vruntime.
TEST_CASE("7.1.5 computes a reniced task's virtual slice by division", "[fidelity]")
{
	for (std::string_view preset : {"6.18.39", "7.1.5"}) {
		INFO("preset " << preset);
		Config cfg = config(preset, 1000);
		CfsRq cfs(cfg);
		SchedEntity se;
		se.load = task_load_weight(13);
		cfs.clock_task = 0;
		cfs.enqueue_entity(&se, ENQUEUE_WAKEUP);
		CHECK(se.deadline - se.vruntime == (preset == "7.1.5" ? 12800000u : 12799999u));
	}
}

// 7c. v7.1's vruntime_eligible() multiplies in 128 bits: with the full
// weights of two nice-0 tasks (W = 2^21) a key of 3 * 2^41 gives key * W =
// 3 * 2^62, which wraps an s64 to -2^62 and would read as eligible.
TEST_CASE("7.1.5's eligibility test does not wrap where full weights overflow 64 bits", "[fidelity]")
{
	const s64 w = 2 * static_cast<s64>(NICE_0_LOAD);
	const u64 v = 3ULL << 41;
	CHECK_FALSE(CfsRq::Eligibility{0, w, 0, false, true}(v));
	CHECK(CfsRq::Eligibility{0, w, 0, false, false}(v));  // the 64-bit product wraps
	CHECK(CfsRq::Eligibility{0, w, 0, false, true}(static_cast<u64>(-(3LL << 41))));
}

// 7d. v7.1 samples util_est inside update_load_avg() (UPDATE_UTIL_EST),
// after the dequeue has aged the task; 6.18's dequeue_task_fair() samples
// before. A task attached at 0 with no history runs alone for 3.3 ms and
// sleeps: before the dequeue's update its util_avg is still 0, after it
// has three periods of running.
TEST_CASE("7.1.5 samples util_est after the dequeue's PELT update", "[fidelity]")
{
	for (std::string_view preset : {"6.18.39", "7.1.5"}) {
		INFO("preset " << preset);
		Config cfg = make_config(*find_preset(preset), 1000, 2);  // two CPUs: PELT is tracked
		CfsRq cfs(cfg);
		SchedEntity se;
		se.load = task_load_weight(0);
		cfs.clock_task = 0;
		cfs.enqueue_task_fair(&se, ENQUEUE_WAKEUP);
		REQUIRE(cfs.pick_next_task_fair() == &se);
		cfs.clock_task = 3300 * US;
		REQUIRE(cfs.dequeue_task_fair(&se, DEQUEUE_SLEEP));
		REQUIRE(se.avg.util_avg > 0);
		CHECK(task_util_est_raw(se.avg) == (preset == "7.1.5" ? se.avg.util_avg : 0));
	}
}

// 7e. v7.1.5's hrtick, on by default on x86 (CONFIG_HRTIMER_REARM_DEFERRED):
// armed for the real time to the virtual deadline. Two hogs at HZ=250 with
// a 3 ms base slice, forked at 0 with half-slice first requests (d = 1.5).
// a runs; b's fork (enqueue, no hrtick armed) arms it for a: 1.5 ms. At 1.5
// a's request is renewed (d = 4.5) and b (d = 1.5) is picked, armed 1.5 ahead;
// at 3.0 b renews to 4.5 and loses the tie to a, armed 3 ahead (6.0); then
// every 3 ms. 6.18.39 with HRTICK arms slice - ran (3 ms) from each pick, so
// a runs to 3.0 first. Without HRTICK (6.18.39's default, or 7.1.5 -HRTICK)
// the switches wait for the 4 ms ticks.
TEST_CASE("7.1.5 ends each request by hrtick at its virtual deadline", "[fidelity]")
{
	struct Case {
		std::string_view preset;
		bool hrtick;
		std::vector<u64> switches_ms_x10;
	};
	for (const Case& c : {Case{"7.1.5", true, {15, 30, 60, 90, 120}}, Case{"7.1.5", false, {40, 80, 120}},
			      Case{"6.18.39", true, {30, 60, 90, 120}}, Case{"6.18.39", false, {40, 80, 120}}}) {
		INFO("preset " << c.preset << (c.hrtick ? "" : " -HRTICK"));
		Config cfg = config(c.preset, 250, 3 * MS);
		CHECK(cfg.features[Feature::HRTICK] == (c.preset == "7.1.5"));  // the preset's default
		cfg.features.set(Feature::HRTICK, c.hrtick);
		const Recorder r = simulate(cfg, workload({hog("a"), hog("b")}), 12 * MS + 1);
		std::vector<u64> got;
		for (const Switch& s : r.switches)
			if (s.t > 0)
				got.push_back(s.t / (100 * US));
		CHECK(got == c.switches_ms_x10);
	}
}
