// SPDX-License-Identifier: GPL-2.0-only
// A group's weight changed mid-run (a cpu.weight write): reweight_entity() of
// a queued, possibly running, group entity, in each release's form
// (fair_events.cpp reweight_entity_queued()): 6.18.x saves the lag and
// re-places the entity; 7.1.5 keeps V and moves v and d about it.
#include <catch2/catch.hpp>

#include "io/rtapp.hpp"
#include "model/check.hpp"
#include "model/fair.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

// Three nice-0 entities on one cfs_rq, driven by hand: all placed at t=0,
// e0 picked and run 3 ms, so e1 and e2 wait with positive lag.
struct Rq3 {
	Config cfg;
	CfsRq cfs;
	std::vector<SchedEntity> se;

	explicit Rq3(std::string_view preset, u64 slice = 3 * MS) : cfg(config(preset, 1000, slice)), cfs(cfg), se(3)
	{
		for (size_t i = 0; i < se.size(); i++) {
			se[i].id = static_cast<int>(i);
			se[i].load = task_load_weight(0);
			se[i].slice = cfg.base_slice_ns;
		}
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
