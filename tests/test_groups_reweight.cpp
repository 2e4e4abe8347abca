// SPDX-License-Identifier: GPL-2.0-only
// A group's weight changed mid-run (a cpu.weight write): reweight_entity() of
// a queued, possibly running, group entity, in each release's form
// (fair_events.cpp reweight_entity_queued()): 6.6 keeps v; 6.12 and 7.1.5
// keep V and move v and d about it; 6.13 .. 6.18.x save the lag and
// re-place the entity.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string_view>
#include <vector>

#include "group_helpers.hpp"
#include "io/rtapp.hpp"
#include "model/fair.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

// Three nice-0 entities on one cfs_rq, driven by hand: all placed at t=0,
// e0 picked and run 3 ms, so e1 and e2 wait with positive lag.
struct Rq3 {
	Config cfg;
	CfsRq cfs;
	std::vector<SchedEntity> se;

	explicit Rq3(std::string_view preset, u64 slice = 3 * MS)
		: cfg(config(preset, 1000, slice)), cfs(cfg), se(nice0_entities(3, cfg))
	{
		cfs.clock_task = 0;
		for (SchedEntity& e : se)
			cfs.enqueue_entity(&e, ENQUEUE_WAKEUP);
		REQUIRE(cfs.pick_next_task_fair() == &se[0]);
		cfs.clock_task = 3 * MS;
		cfs.update_curr();
	}
	// w_i (V - v_i) in ns of real time (scale_load_down weights).
	s64 lag(const SchedEntity& e) const
	{
		return wrapped_diff(cfs.avg_vruntime(), e.vruntime) * static_cast<s64>(scale_load_down(e.load.weight)) /
		       static_cast<s64>(scale_load_down(NICE_0_LOAD));
	}
};

// One CPU, HZ=1000, 3 ms slices, hrtick off: /A {hog a (task 0)} and /B {hog
// b (task 1)}, both at cpu.weight 100; task `writer` writes /A's cpu.weight
// 200 (shares 2048) once it has run `after` of CPU time. The first switches.
std::vector<Switch> weight_write_switches(std::string_view preset, int writer, u64 after, size_t n)
{
	auto hog_in = [&](const char* name, int id, const char* group) {
		TaskSpec t = id == writer ? task(name,
						 {run(after), Event{Event::Kind::SetShares, 2 * NICE_0_LOAD, 0, 0},
						  run(RUN_FOREVER)},
						 1)
					  : hog(name);
		return in_group(t, group);
	};
	Workload wl = workload({hog_in("a", 0, "/A"), hog_in("b", 1, "/B")});
	wl.groups = {{"/A", NICE_0_LOAD}, {"/B", NICE_0_LOAD}};
	const Config cfg = golden_config(preset, 1000);
	const GroupRun r = run_groups(cfg, wl, 30 * MS, true);
	CAPTURE(r.violation);
	CHECK(r.checked_ok());
	std::vector<Switch> first = r.rec.switches;
	first.resize(std::min(first.size(), n));
	return first;
}

}  // namespace

TEST_CASE("7.1.5: reweighting a queued entity keeps V and the entity's lag", "[groups][reweight]")
{
	Rq3 r("7.1.5");
	const u64 v_before = r.cfs.avg_vruntime();
	const s64 lag_before = r.lag(r.se[1]);
	REQUIRE(lag_before > 0);
	r.cfs.reweight_entity(&r.se[1], LoadWeight{2 * NICE_0_LOAD, 0});
	CHECK(r.se[1].on_rq);
	CHECK(r.se[1].load.weight == 2 * NICE_0_LOAD);
	const s64 dv = wrapped_diff(r.cfs.avg_vruntime(), v_before);
	CHECK(dv >= -1);
	CHECK(dv <= 1);
	CHECK(r.lag(r.se[1]) >= lag_before - 2);
	CHECK(r.lag(r.se[1]) <= lag_before + 2);
}

TEST_CASE("6.18.x: reweighting a queued entity re-places it with its lag", "[groups][reweight]")
{
	for (const char* preset : {"6.18", "6.18.39"}) {
		CAPTURE(preset);
		Rq3 r(preset);
		const s64 lag_before = r.lag(r.se[1]);
		const s64 rel_d = wrapped_diff(r.se[1].deadline, r.se[1].vruntime);
		r.cfs.reweight_entity(&r.se[1], LoadWeight{2 * NICE_0_LOAD, 0});
		CHECK(r.se[1].on_rq);
		// place_entity() inflates the saved lag so that, once the entity is
		// in the queue again, w' (V' - v') is the lag it left with.
		CHECK(r.lag(r.se[1]) >= lag_before - 2);
		CHECK(r.lag(r.se[1]) <= lag_before + 2);
		// The request keeps its real-time length: d - v scales by w / w'.
		CHECK(wrapped_diff(r.se[1].deadline, r.se[1].vruntime) == rel_d / 2);
	}
}

// 6.6.0 (before eab03c23c2a1): a queued entity keeps its v; only d - v is
// rescaled, and V moves with the weight. Rq3 at t=3: v0 = 3 ms (curr), v1 =
// v2 = 0, d1 = 3; V = 3 x 1024 / 3072 = 1 ms. e1 to weight 2048: v1 = 0,
// d1 = 0 + 3 x 1024 / 2048 = 1.5; V' = 3 x 1024 / 4096 = 0.75 ms. So e1's
// lag w (V - v) goes from 1 ms to 2048 x 0.75 / 1024 = 1.5 ms: the defect
// eab03c23c2a1 mended.
TEST_CASE("6.6: reweighting a queued entity keeps its vruntime and rescales its request", "[groups][reweight][6.6]")
{
	Rq3 r("6.6");
	const u64 v1 = r.se[1].vruntime;
	REQUIRE(wrapped_diff(r.cfs.avg_vruntime(), v1) == 1000000);
	REQUIRE(wrapped_diff(r.se[1].deadline, v1) == 3000000);
	r.cfs.reweight_entity(&r.se[1], LoadWeight{2 * NICE_0_LOAD, 0});
	CHECK(r.se[1].on_rq);
	CHECK(r.se[1].vruntime == v1);
	CHECK(wrapped_diff(r.se[1].deadline, v1) == 1500000);
	CHECK(wrapped_diff(r.cfs.avg_vruntime(), v1) == 750000);
	CHECK(r.lag(r.se[1]) == 1500000);
	CHECK(r.cfs.timeline.size() == 2);
	CHECK(r.cfs.load == 4 * NICE_0_LOAD);
	// In place: e1 and e2 share the key v = 0 and e1 went in first; an
	// erase and insert would put it after e2 (equal keys go right).
	CHECK(r.cfs.timeline.leftmost() == &r.se[1]);
}

// v6.12.0's reweight_eevdf() (eab03c23c2a1): V is kept, v and d move about
// it. Rq3 at t=3: V = 1 ms, e1 at v1 = 0, d1 = 3, lag 1 ms (within the
// clamp, max(2 x 3, 1) = 6 ms). e1 to weight 2048: v1 = V - 1 x 1024 / 2048
// = 0.5, d1 = V + (3 - 1) x 1024 / 2048 = 2; V' = (3 + 2 x 0.5 + 0) / 4 =
// 1 ms, e1's lag 2048 x 0.5 / 1024 = 1 ms: both kept. e1 (d 2) now leads
// e2 (d 3) in the deadline-keyed tree; its vlag field is not written.
TEST_CASE("6.12: reweighting a queued entity keeps V and moves v and d about it", "[groups][reweight][6.12]")
{
	Rq3 r("6.12");
	REQUIRE(r.cfs.avg_vruntime() == r.se[1].vruntime + 1000000);
	const u64 V = r.cfs.avg_vruntime();
	const s64 vlag = r.se[1].vlag;
	r.cfs.reweight_entity(&r.se[1], LoadWeight{2 * NICE_0_LOAD, 0});
	CHECK(r.se[1].on_rq);
	CHECK(wrapped_diff(V, r.se[1].vruntime) == 500000);
	CHECK(wrapped_diff(r.se[1].deadline, V) == 1000000);
	CHECK(r.cfs.avg_vruntime() == V);
	CHECK(r.lag(r.se[1]) == 1000000);
	CHECK(r.se[1].vlag == vlag);
	CHECK(r.cfs.timeline.leftmost() == &r.se[1]);
	CHECK(r.cfs.load == 4 * NICE_0_LOAD);
	CHECK(r.cfs.nr_queued == 3);
}

// The running entity at t=3.5 (6.12): update_curr() charges it to v0 =
// 3.5 (d0 = 6 from its renewal at 3); V = 3.5 / 3 = 1166666 ns (floored);
// lag V - v0 = -2333334 ns, at 512: -4666668, so v0 = V + 4666668 =
// 5833334; d0 = V + (6000000 - 1166666) x 2 = 10833334. It stays curr,
// out of the tree.
TEST_CASE("6.12: reweighting the running entity charges it and moves it about V", "[groups][reweight][6.12]")
{
	Rq3 r("6.12");
	const u64 base = r.se[1].vruntime;  // v = 0 of this queue
	r.cfs.clock_task = 3500 * US;
	r.cfs.reweight_entity(&r.se[0], LoadWeight{NICE_0_LOAD / 2, 0});
	CHECK(r.cfs.curr == &r.se[0]);
	CHECK(wrapped_diff(r.se[0].vruntime, base) == 5833334);
	CHECK(wrapped_diff(r.se[0].deadline, base) == 10833334);
	CHECK(r.cfs.timeline.size() == 2);
	CHECK(r.cfs.load == 2 * NICE_0_LOAD + NICE_0_LOAD / 2);
}

// The running entity at t=3.5: update_curr() first charges it the 0.5 ms
// since Rq3's last update (v0 = 3.5; its request, renewed at 3 to d0 = 6,
// is not used up), then d - v = 2.5 ms at 1024 becomes 5 at 512; v0 stays.
TEST_CASE("6.6: reweighting the running entity charges it and rescales its request in place", "[groups][reweight][6.6]")
{
	Rq3 r("6.6");
	const u64 v0 = r.se[0].vruntime;
	r.cfs.clock_task = 3500 * US;
	r.cfs.reweight_entity(&r.se[0], LoadWeight{NICE_0_LOAD / 2, 0});
	CHECK(r.cfs.curr == &r.se[0]);
	CHECK(r.se[0].vruntime == v0 + 500 * US);
	CHECK(wrapped_diff(r.se[0].deadline, r.se[0].vruntime) == 5000000);
	CHECK(r.cfs.timeline.size() == 2);
	CHECK(r.cfs.load == 2 * NICE_0_LOAD + NICE_0_LOAD / 2);
}

TEST_CASE("reweighting the running entity keeps it running and out of the tree", "[groups][reweight]")
{
	for (const char* preset : {"6.18.39", "7.1.5"}) {
		CAPTURE(preset);
		Rq3 r(preset);
		r.cfs.reweight_entity(&r.se[0], LoadWeight{NICE_0_LOAD / 2, 0});
		CHECK(r.cfs.curr == &r.se[0]);
		CHECK(r.cfs.nr_queued == 3);
		CHECK(r.cfs.timeline.size() == 2);
		CHECK(r.cfs.load == 2 * NICE_0_LOAD + NICE_0_LOAD / 2);
		CHECK_FALSE(r.cfs.warnings.any());
	}
}

// /A and /B each hold one hog at equal weight; B's hog writes cpu.weight 200
// for its own group after 100 ms of its own CPU time. From then on B weighs
// twice A: over the rest of the run it gets 2/3 of the CPU.
TEST_CASE("a cpu.weight write mid-run moves the groups' shares to the new weights", "[groups][reweight]")
{
	for (const char* preset : {"6.18", "6.18.17", "6.18.39", "7.1.5"}) {
		CAPTURE(preset);
		Workload wl = workload({task("a", {run(RUN_FOREVER)}),
					phased("b", {Phase{"first", 1, {run(100 * MS), Event{Event::Kind::SetShares, 2 * NICE_0_LOAD, 1, 0}}},
						     Phase{"then", 1, {run(RUN_FOREVER)}}},
					       1)});
		wl.tasks[0].taskgroup = "/A";
		wl.tasks[1].taskgroup = "/B";
		wl.groups = {{"/A", NICE_0_LOAD}, {"/B", NICE_0_LOAD}};
		wl.duration = 3200 * MS;
		Simulation sim(config(preset, 250), wl);
		InvariantChecker check;
		sim.add_observer(&check);
		u64 a_at = 0, b_at = 0;
		Recorder r;
		r.each_event = [&](const Simulation& s, u64 t) {
			if (t <= 200 * MS) {
				a_at = s.tasks()[0].se.sum_exec_runtime;
				b_at = s.tasks()[1].se.sum_exec_runtime;
			}
		};
		sim.add_observer(&r);
		REQUIRE_NOTHROW(sim.run());
		CHECK(sim.groups()[1].shares == 2 * NICE_0_LOAD);
		const u64 a = sim.tasks()[0].se.sum_exec_runtime - a_at;
		const u64 b = sim.tasks()[1].se.sum_exec_runtime - b_at;
		// 3 s after t = 200 ms: B 2 s, A 1 s, within a few ticks.
		CHECK(b + 12 * MS >= 2 * a + 0);
		CHECK(b <= 2 * a + 12 * MS);
		CHECK(a + b >= 2990 * MS);
	}
}

TEST_CASE("rtapp: a group_weight event names its group and weight, and is written back", "[rtapp][groups]")
{
	const Workload w = parse_rtapp(R"({"groups": {"/A": {"weight": 100}}, "tasks": {"t": {"taskgroup": "/A",
		"phases": {"p": {"run": 1000, "group_weight": {"group": "/B/C", "weight": 200}}}}}})",
				       "t.json");
	REQUIRE(w.groups.size() == 3);  // /A, /B, /B/C
	const Event& e = w.tasks[0].phases[0].events[1];
	CHECK(e.kind == Event::Kind::SetShares);
	CHECK(w.groups[static_cast<size_t>(e.ref)].path == "/B/C");
	CHECK(e.ns == 2048 << 10);
	CHECK(parse_rtapp(to_rtapp_json(w), "u.json") == w);
	CHECK_THROWS_WITH(parse_rtapp(R"({"tasks": {"t": {"run": 1, "group_weight": {"group": "/A"}}}})", "t.json"),
			  Catch::Contains("group_weight"));
	CHECK_THROWS_WITH(
		parse_rtapp(R"({"tasks": {"t": {"run": 1, "group_weight": {"group": "/A", "weight": 0}}}})", "t.json"),
		Catch::Contains("outside 1..10000"));
}

// docs/findings.md F19. e0 runs 3 ms of an 8 ms request, so it is protected
// (vprot = its deadline); then its weight doubles while it runs, as a group
// entity's does when its cgroup's cpu.weight is written. 7.1.5 keeps the
// protection, rescaled about V with the deadline: vprot' - v' = (vprot - v) / 2.
TEST_CASE("7.1.5: reweighting the running entity keeps its slice protection", "[groups][reweight]")
{
	Rq3 r("7.1.5", 8 * MS);
	SchedEntity& e0 = r.se[0];
	REQUIRE(r.cfs.curr == &e0);
	REQUIRE(r.cfs.protect_slice(&e0));
	const s64 left = wrapped_diff(r.cfs.protect_end(&e0), e0.vruntime);
	CHECK(left == 5 * MS);  // vprot = d = v0 + 8 ms, v = v0 + 3 ms
	r.cfs.reweight_entity(&e0, LoadWeight{2 * NICE_0_LOAD, 0});
	CHECK(r.cfs.protect_slice(&e0));
	const s64 left_after = wrapped_diff(r.cfs.protect_end(&e0), e0.vruntime);
	CHECK(left_after >= left / 2 - 1);
	CHECK(left_after <= left / 2 + 1);
	REQUIRE_FALSE(r.cfs.need_resched);
	r.cfs.clock_task += 100 * US;
	r.cfs.update_curr();
	CHECK_FALSE(r.cfs.need_resched);  // still protected: no resched
}

// The same on 6.18.x, where se->vlag and se->vprot are one union (until
// 80390ead2080 in 7.0): reweight_entity() saves the lag into the shared field
// before it tests protect_slice(), so 6.18.17+ (ff38424030f9) reads the lag
// back as the protection end, and 6.18.0-6.18.16 never save it at all. e0 ran
// ahead of V (lag < 0), so "v < vprot" compares v with V - v read as a u64:
// with the boot origin (v just past 2^64 - 2^20 + 3 ms) it is false, and the
// running entity's protection is gone: its next update_curr() with others
// queued asks for a resched.
TEST_CASE("6.18.x: reweighting the running entity ends its slice protection (F19)", "[groups][reweight][finding]")
{
	for (const char* preset : {"6.18", "6.18.17", "6.18.39"}) {
		CAPTURE(preset);
		Rq3 r(preset, 8 * MS);
		SchedEntity& e0 = r.se[0];
		REQUIRE(r.cfs.protect_slice(&e0));
		REQUIRE_FALSE(r.cfs.need_resched);
		r.cfs.reweight_entity(&e0, LoadWeight{2 * NICE_0_LOAD, 0});
		CHECK_FALSE(r.cfs.protect_slice(&e0));
		r.cfs.clock_task += 100 * US;
		r.cfs.update_curr();
		CHECK(r.cfs.need_resched);
	}
}

// Golden schedules for a cpu.weight write (issue 36: decisions, not only
// invariants), computed by hand from 6.18.39's and 7.1.5's fair.c. Setup as
// in weight_write_switches(); the write lands between ticks. Each group holds
// one task, so every decision is the root's; v, d, V below are the root's,
// in ms of virtual time from its start (zero_vruntime's (u64)-(1 << 20) ns),
// weights scale_load_down. A group entity's slice is the min slice of its
// queue, 3 ms (custom_slice), so its vslice is 3 ms at 1024, 1.5 at 2048.
//   t=0: se_A placed (v 0, d 3), a runs, vprot_A = d_A = 3 (RUN_TO_PARITY:
//   the min slice is its own); se_B placed at V = 0 (v 0, d 3), no preemption.
//   t=3: v_A 3 >= d_A: d_A = 6, resched; V = 1.5, se_B eligible: b runs.
//   t=6: v_B 3 >= d_B: d_B = 6, resched; V = 3, both eligible, deadlines tie
//   and entity_before() is strict: the tree's se_A beats curr, a runs.
//
// The write while se_A is queued: b (run 4.5 ms: 3..6, 9..10.5) writes.
//   t=9: v_A 6, d_A = 9, resched; V = 4.5: b (v 3, d 6), vprot_B = 6.
//   t=10.5: update_curr(): v_B = 4.5 < vprot_B, no resched. V = (6 + 4.5) /
//   2 = 5.25: se_A's lag V - v_A = -0.75, d_A - v_A = 3.
//   6.18.39 (6d71a9c61604's lag and place): vlag = -0.75 * 1024 / 2048 =
//   -0.375, d - v = 1.5; place_entity() with se_A out of the tree: V = v_B =
//   4.5, load = 1024 (curr), lag inflated to -0.375 (1024 + 2048) / 1024 =
//   -1.125: v_A = 5.625, d_A = 7.125 (and V' = (4.5 + 2 * 5.625) / 3 = 5.25).
//   7.1.5 (101f3498b4bd): V = 5.25 kept, v_A = V + 0.75 / 2 = 5.625, d_A = V +
//   (9 - 5.25) / 2 = 7.125: the same entity, to the ns.
//   t=12: v_B 6 >= d_B: d_B = 9, resched. V = (6 + 2 * 5.625) / 3 = 5.75:
//   se_A eligible (d 7.125), se_B not: a runs, vprot_A = d_A = 7.125.
//   Now only __calc_delta() tells the releases apart: 7.1.5 divides (1 ms of
//   se_A is 0.5 ms exactly), 6.18.39 multiplies by inv_weight = (2^32 - 1) /
//   2048 and truncates (499999 ns per ms, 1499999 per slice).
//   7.1.5, t=15: v_A = 7.125 >= d_A: d_A = 8.625, resched; V = (6 + 14.25) /
//   3 = 6.75 >= v_B: b runs.
//   6.18.39, t=15: v_A = 7124997 ns, 3 ns short of d_A (placed at v + 1.5 ms
//   exactly, a division), so still protected: a runs on. t=16: v_A = 7624996
//   ns >= d_A: d_A = v_A + 1499999 ns, resched; V = 7.08 >= v_B 6: b runs.
//   6.15 (the same reweight form; protection is the vlag == deadline stash,
//   and update_curr() also reschedules on did_preempt_short(): curr neither
//   stashed nor eligible): the write leaves b's stash alone, a is stashed at
//   its pick at 12 and stays so to 16; the same schedule.
//   6.12 (reweight_eevdf(): V = 5.25 kept, v_A = V + 0.75 / 2 = 5.625, d_A =
//   V + (9 - 5.25) / 2 = 7.125, 7.1.5's entity; b's stash untouched): from
//   12 on 6.15's steps with 6.18.39's arithmetic: a runs 12 .. 16.
//   6.6: at t=6 the deadlines tie and 6.6's pick keeps curr (best starts
//   as curr, a tree entity replaces it only with an earlier deadline): b
//   runs on to 9 (v_B 6, renewed to 9; V 4.5: a). So b's 4.5 ms of CPU end
//   at 7.5, se_A queued at v 3, d 6: v kept, d_A = 3 + 3 / 2 = 4.5 (only
//   se_A's level touched, b is not charged). t=9: V = (6 + 2 x 3) / 3 = 4,
//   a, stashed. 0.5 ms of vruntime per ms, less 1 ns: t=12 v_A = 4499997
//   ns, 3 short; t=13 d_A = 6499995 ns, resched, V 5.33, only se_A
//   eligible: a stays, unstashed (and 6.6 has no did_preempt_short()).
//   t=16: 2 short; t=17: V 6.67, b (v 6, d 9) runs; t=20: d_B = 12, V
//   7.67: a (v 7, d 8.499991); t=24: v_A 8999988 ns, renewed, but V =
//   8999992 ns: a stays; t=28: b.
TEST_CASE("a cpu.weight write to a queued group: the golden schedule", "[groups][reweight][golden]")
{
	const std::vector<Switch> common = {
		{0, IDLE, 0}, {3 * MS, 0, 1}, {6 * MS, 1, 0}, {9 * MS, 0, 1}, {12 * MS, 1, 0}};
	std::vector<Switch> v618 = common, v71 = common;
	v618.push_back({16 * MS, 0, 1});
	v71.push_back({15 * MS, 0, 1});
	CHECK(weight_write_switches("6.6", 1, 4500 * US, 6) ==
	      std::vector<Switch>{{0, IDLE, 0}, {3 * MS, 0, 1}, {9 * MS, 1, 0}, {17 * MS, 0, 1}, {20 * MS, 1, 0},
				  {28 * MS, 0, 1}});
	CHECK(weight_write_switches("6.12", 1, 4500 * US, 6) == v618);
	CHECK(weight_write_switches("6.15", 1, 4500 * US, 6) == v618);
	CHECK(weight_write_switches("6.18.39", 1, 4500 * US, 6) == v618);
	CHECK(weight_write_switches("7.1.5", 1, 4500 * US, 6) == v71);
}

// The write while se_A is curr: a (run 3.5 ms: 0..3, 6..6.5) writes.
//   t=6.5: update_curr(): v_A = 3.5 < vprot_A = 6, no resched. V = (3 + 3.5)
//   / 2 = 3.25: se_A's lag -0.25, d_A - v_A = 2.5.
//   6.18.39: update_entity_lag() stores vlag = -0.25 in the field vprot shares
//   (F19), so protect_slice() compares v_A (+2451424 ns as s64) with -250000
//   ns: false, no relative vprot is kept. vlag = -0.125, d - v = 1.25;
//   place_entity() with curr se_A on_rq at its new weight: V = (3 + 2 * 3.5) /
//   3 = 3333333 ns, load = 1024 + 2048, lag = -125000 (3072 + 2048) / 3072 =
//   -208333 ns (truncated): v_A = 3541666 ns, d_A = 4791666 ns, and vprot
//   (= vlag) below v: se_A is no longer protected.
//   t=7: v_A = 3791665 ns < d_A, but !protect_slice(): resched. V = (3 + 2 *
//   3.791665) / 3 = 3.53 < v_A: b (v 3, d 6) runs, vprot_B = 6.
//   t=10: v_B 6 >= d_B: d_B = 9, resched; V = 4.53 >= v_A: a, vprot_A = d_A.
//   t=12: v_A = 4791663 ns, 3 ns short of d_A: runs on. t=13: v_A = 5291662
//   ns: d_A = v_A + 1499999 ns, resched; V = 5.53: se_B (v 6) not eligible,
//   curr is: a stays (no set_next_entity(), vprot_A stays behind v). t=14:
//   v_A = 5791661 ns, unprotected: resched; V = 5.86, b still not eligible.
//   t=15: v_A = 6291660 ns, resched; V = 6.19 >= v_B: b runs.
//   7.1.5: V = 3.25 kept; d - V = 2.75 and vprot - V = 2.75 (protected) both
//   halve: d_A = vprot_A = 4.625, v_A = 3.25 + 0.125 = 3.375. t=7, 8: v_A
//   3.625, 4.125, protected. t=9: v_A 4.625 >= d_A: d_A = 6.125, resched; V =
//   4.08 >= v_B 3: b runs. t=12: v_B 6, d_B = 9; V = 5.08 >= v_A: a runs,
//   vprot_A = 6.125. t=15: v_A 6.125 >= d_A: d_A = 7.625; V = 6.08 >= v_B 6:
//   b runs.
//   6.15: the same v and d as 6.18.39, and update_entity_lag() overwrites the
//   stash (vlag != d_A): unprotected. t=7: no deadline passed, but
//   did_preempt_short(): V = 3.53 < v_A, curr not eligible: resched, b runs.
//   t=10: a, stashed (vlag_A = d_A); t=12: 3 ns short, stashed. t=13: d_A
//   renewed, resched, b not eligible, a stays (prev == next: no stash).
//   t=14: unstashed but eligible (V 5.86 >= v_A 5.79): no resched (6.18
//   asks and picks a again). t=15: V 6.19 < v_A 6.29: did_preempt_short(),
//   b runs. The same switches as 6.18.39, by another rule at 7 and 15.
//   6.12: reweight_eevdf() about V = 3.25: v_A = 3.375, d_A = 4.625 (7.1.5's
//   entity), the stash (vlag_A = 6) broken. t=7: v_A = 3.375 + 249999 ns
//   (0.5 ms at 2048, truncated) = 3624999 ns, V = (3 + 2 x 3.624999) / 3 =
//   3.42 < v_A: did_preempt_short(), b runs (stash 6). t=10: d_B = 9; V =
//   4.42, a (d 4.625), stashed. t=12: v_A = 4624997 ns, 3 ns short. t=13:
//   v_A = 5124996: d_A = 6624995, resched, b (v 6) not eligible, a stays
//   unstashed. t=14: v_A 5.62 <= V 5.75: runs on. t=15: v_A 6.12 > V 6.08:
//   did_preempt_short(), b. 6.15's switches, from other values.
//   6.6: b runs on at the tie at 6 (above), a again at 9 (v_A 3, d_A 6,
//   stashed), so a's 3.5 ms of CPU end at 9.5: update_curr() (v_A = 3.5),
//   v kept, d_A = 3.5 + 2.5 / 2 = 4.75, the stash broken; 6.6 has no
//   did_preempt_short(), so a runs to its deadline: t=12 v_A = 4749997 ns,
//   3 short; t=13 d_A = 6749995 ns, resched, V 5.5, b (v 6) not eligible:
//   a stays. t=16: 2 short; t=17: renewed, V 6.83: b (v 6, d 9). t=20:
//   d_B = 12, V 7.83: a (v 7.25, d 8.749991). t=24: renewed, V 9.17 <
//   v_A 9.25: b.
// So on 6.18 the write ends a's protected slice at the next tick (F19) and
// a's next run is 5 ms; on 7.1.5 a finishes its slice and then runs 3 ms.
TEST_CASE("a cpu.weight write to the running group: the golden schedule", "[groups][reweight][golden]")
{
	const std::vector<Switch> common = {{0, IDLE, 0}, {3 * MS, 0, 1}, {6 * MS, 1, 0}};
	std::vector<Switch> v618 = common, v71 = common;
	v618.insert(v618.end(), {{7 * MS, 0, 1}, {10 * MS, 1, 0}, {15 * MS, 0, 1}});
	v71.insert(v71.end(), {{9 * MS, 0, 1}, {12 * MS, 1, 0}, {15 * MS, 0, 1}});
	CHECK(weight_write_switches("6.6", 0, 3500 * US, 6) ==
	      std::vector<Switch>{{0, IDLE, 0}, {3 * MS, 0, 1}, {9 * MS, 1, 0}, {17 * MS, 0, 1}, {20 * MS, 1, 0},
				  {24 * MS, 0, 1}});
	CHECK(weight_write_switches("6.12", 0, 3500 * US, 6) == v618);
	CHECK(weight_write_switches("6.15", 0, 3500 * US, 6) == v618);
	CHECK(weight_write_switches("6.18.39", 0, 3500 * US, 6) == v618);
	CHECK(weight_write_switches("7.1.5", 0, 3500 * US, 6) == v71);
}

// helper-21's finding: a write exactly at a tick (a runs 0..3 ms and from 6
// ms, so its 4 ms of running end at t = 7 ms, a tick at HZ=1000) charges
// curr first; the tick's update_curr() then sees no time and decides
// nothing, as the kernel's does, and the checker must not expect a resched.
TEST_CASE("a cpu.weight write at a tick's instant leaves that tick nothing to decide", "[groups][reweight]")
{
	for (const char* preset : {"6.18.39", "7.1.5"}) {
		INFO(preset);
		CHECK(weight_write_switches(preset, 0, 4 * MS, 6).size() == 6);
	}
}
