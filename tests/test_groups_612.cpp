// SPDX-License-Identifier: GPL-2.0-only
// Task groups on v6.12.0 (issue 36): the walks between 6.6.0's and 6.15's
// (docs/model.md "Task groups", Releases), where they decide differently.
// Golden values and schedules computed by hand from v6.12.0's fair.c, each
// set beside 6.15's. One CPU, HZ=1000 (ticks at 1, 2 .. ms), 3 ms slices,
// hrtick off. Times and virtual times in ms.
#include <catch2/catch.hpp>

#include <string_view>
#include <vector>

#include "group_helpers.hpp"
#include "model/fair.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

// t (task 0) in /A/B runs 2.5 ms and sleeps; u (task 1) is a hog in /A; x
// (task 2) a root hog. All cpu.weight 100.
Workload sleeper_below_a_hog()
{
	Workload wl = workload({in_group(task("t", {run(2500 * US), sleep(100 * MS)}, 1), "/A/B"),
				in_group(hog("u"), "/A"), hog("x")});
	wl.groups = {{"/A", NICE_0_LOAD}, {"/A/B", NICE_0_LOAD}};
	return wl;
}

const TaskGroup& group(const Simulation& sim, const char* path)
{
	for (const TaskGroup& tg : sim.groups())
		if (tg.path == path)
			return tg;
	FAIL("no group " << path);
	return sim.groups().front();
}

}  // namespace

// The delayed break of v6.12.0's dequeue_entities() keeps `slice` as the
// task's dequeue left it, 0 (bbce3de72be5, 6.15, takes the cfs_rq's min
// slice there):
//   t=0: t, u, x fork (a task's first request is half a slice: d 1.5);
//   se_B (A's queue) and se_A (the root's) get the min slice below them,
//   3, as whole requests: v 0, d 3. t runs; u and x do not preempt (the
//   matched entities se_B, se_A are protected: vlag == deadline).
//   t=2.5: t sleeps. /A/B empties (t, alone, is eligible: dequeued), so
//   se_B leaves A's queue as a sleep: v_B 2.5 against u's 0, V_A = 1.25,
//   not eligible: delayed, and the walk breaks. Loop 2 from se_B: se_B's
//   slice = 0; A's queue's min slice reads its curr, se_B: 0, so se_A's
//   slice is 0 too. 6.15: both take A's queue's min slice, 3.
TEST_CASE("6.12: a delayed group entity and its running ancestors take slice 0", "[groups][golden][6.12]")
{
	for (const char* preset : {"6.12", "6.15"}) {
		CAPTURE(preset);
		Workload wl = sleeper_below_a_hog();
		wl.duration = 2600 * US;
		Simulation sim(golden_config(preset, 1000), wl);
		InvariantChecker checker;
		sim.add_observer(&checker);
		sim.run();
		const SchedEntity& se_b = group(sim, "/A/B").se[0];
		const SchedEntity& se_a = group(sim, "/A").se[0];
		CHECK(se_b.on_rq);
		CHECK(se_b.sched_delayed);
		const u64 expect = std::string_view(preset) == "6.12" ? 0 : 3 * MS;
		CHECK(se_b.slice == expect);
		CHECK(se_a.slice == expect);
	}
}

// What the slice 0 then decides (continuing the case above):
//   t=2.5: the pick: V_root = (2.5 + 0) / 2, se_A is not eligible, x is
//   (v 0, d 1.5): x runs. t=4: v_x 1.5 = d_x: d_x = 4.5, resched; V_root
//   2, se_A still not eligible: x again (no set_next_entity(), no stash).
//   t=5: v_x 2.5 = V, eligible: runs on. t=6: v_x 3.5 > V 3, unstashed:
//   did_preempt_short(); se_A (v 2.5, d 3) is eligible: picked, and in A's
//   queue u (v 0, d 1.5; se_B delayed at 2.5, V_A 1.25, not eligible).
//   u runs; se_A stashes vlag = d_A = 3.
//   t=7: v_A 3.5 >= d_A: renewed with se_A's slice, resched. 6.15: d_A =
//   6.5; x (v 3.5, d 4.5) is eligible at V_root 3.5 and earlier: x runs
//   at 7. 6.12: d_A = 3.5 + 0 = 3.5, earlier than x's 4.5, and se_A is
//   eligible (v 3.5 = V): se_A again, u again. t=8: v_A 4.5 >= d_A 3.5:
//   d_A = 4.5, resched; V_root 4, se_A not eligible: x runs at 8.
TEST_CASE("6.12: a group entity of slice 0 renews its request at every tick", "[groups][golden][6.12]")
{
	const std::vector<Switch> common = {{0, IDLE, 0}, {2500 * US, 0, 2}, {6 * MS, 2, 1}};
	std::vector<Switch> v612 = common, v615 = common;
	v612.push_back({8 * MS, 1, 2});
	v615.push_back({7 * MS, 1, 2});
	for (const char* preset : {"6.12", "6.15"}) {
		CAPTURE(preset);
		const GroupRun r = run_groups(golden_config(preset, 1000), sleeper_below_a_hog(), 20 * MS, true);
		CAPTURE(r.violation);
		CHECK(r.checked_ok());
		std::vector<Switch> first = r.rec.switches;
		first.resize(std::min(first.size(), common.size() + 1));
		CHECK(first == (std::string_view(preset) == "6.12" ? v612 : v615));
	}
}

// v6.12.0 has no h_nr_delayed (76f2f783294d, 6.13): PELT's runnable count
// of a cfs_rq is h_nr_running, a delayed task included (a group entity's
// runnable_weight likewise). e0 runs 2 ms against e1's 0: V = 1 ms, e0
// is not eligible, so its sleep is delayed and it stays queued.
TEST_CASE("6.12: a delayed task still counts as runnable for PELT", "[pelt][6.12]")
{
	for (const char* preset : {"6.12", "6.15"}) {
		CAPTURE(preset);
		const Config cfg = config(preset, 1000, 3 * MS);
		CfsRq cfs(cfg);
		std::vector<SchedEntity> se = nice0_entities(2, cfg);
		cfs.clock_task = 0;
		for (SchedEntity& e : se)
			cfs.enqueue_task_fair(&e, ENQUEUE_WAKEUP);
		REQUIRE(cfs.pick_next_task_fair() == &se[0]);
		cfs.clock_task = 2 * MS;
		cfs.update_curr();
		REQUIRE_FALSE(cfs.dequeue_task_fair(&se[0], DEQUEUE_SLEEP));
		REQUIRE(se[0].sched_delayed);
		CHECK(cfs.h_nr_queued == 2);
		CHECK(cfs.pelt_runnable() == (std::string_view(preset) == "6.12" ? 2u : 1u));
	}
}
