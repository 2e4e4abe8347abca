// SPDX-License-Identifier: GPL-2.0-only
// Idle task groups (cpu.idle = 1, cgroup SCHED_IDLE since 5.15's
// 304000390f88; issue 36): the group weighs WEIGHT_IDLEPRIO, its entities
// are idle entities to check_preempt_wakeup_fair() (a non-idle waker
// preempts them at once, its own tasks never preempt across the line),
// and its tasks count as idle (h_nr_idle) to every level above it. The
// schedules below are worked out by hand from fair.c of 6.18.44 (6.18.39
// preset); 7.1.5 takes the same idle decisions but also ends a request at
// its deadline between ticks, which moves every switch after the first.
//
// Numbers: one CPU, HZ=250 (ticks at 4, 8 ... ms), base slice 3 ms. A group
// entity of weight 3 << 10 advances calc_delta_fair(d) = d x 1024 / 3,
// 341.33 x d, so its vslice is 1024 ms (virtual). With i a hog alone in
// /I from 0: se_I's v at t is 341.33 t; its deadline, renewed at ticks 4
// and 8, is 3754.67 ms after tick 8.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "group_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

// A group /I of the given shares, idle or not (an idle one weighs 3 whatever
// its shares).
GroupSpec group_i(bool idle, u64 shares = NICE_0_LOAD)
{
	GroupSpec g{"/I", shares};
	g.idle = idle;
	return g;
}

// i: a hog in /I; w: a root hog forked at 10 ms. /I is idle, or a normal
// group of the same weight (cpu.shares 3) for the contrast.
Workload idle_group_then_fork(bool idle)
{
	Workload wl = workload({in_group(hog("i"), "/I"), delayed(hog("w"), 10 * MS)});
	wl.groups = {group_i(idle, scale_load(WEIGHT_IDLEPRIO))};
	return wl;
}

}  // namespace

// t=10: w is placed at V = v_I(10) = 3413.33 with deadline V + 1.5.
// find_matching_se() lifts i to se_I; cse_is_idle && !pse_is_idle: the
// fork preempts at once (before the WF_FORK test), and the pick takes w
// (d = V + 1.5 < se_I's 3754.67). t=12: w's v = V + 2 passed its deadline:
// resched; V_root = (1024 (V + 2) + 3 V) / 1027 < V + 2, so w is not
// eligible and se_I (v = V) is: i runs. t=16: se_I's v = V + 1365.33, w
// (v = V + 2) is eligible again and runs until its v passes se_I's:
// V + 2 + (t - 16) > V + 1365.33 first at the tick t = 1380, when i gets
// its next tick.
TEST_CASE("a root fork preempts an idle group's task at once; the group then gets a tick per its weight",
	  "[groups][golden][idle]")
{
	const GroupRun r = run_groups(config("6.18.39", 250, 3 * MS), idle_group_then_fork(true), 1390 * MS, true);
	CHECK(r.checked_ok());
	const std::vector<Switch> expect = {{0, IDLE, 0},	  {10 * MS, 0, 1},   {12 * MS, 1, 0},
					    {16 * MS, 0, 1},	  {1380 * MS, 1, 0}, {1384 * MS, 0, 1}};
	CHECK(r.rec.switches == expect);
}

// The same weight, not idle: at 10 the fork does not preempt (WF_FORK),
// so w waits for the tick at 12, where se_I (v = 4096, renewed) is not
// eligible and w (v = 3413.33) is. w runs until its v passes se_I's
// 4096: 3413.33 + (t - 12) > 4096 first at the tick t = 696.
TEST_CASE("a group of the same weight that is not idle makes the fork wait for the tick", "[groups][golden][idle]")
{
	const GroupRun r = run_groups(config("6.18.39", 250, 3 * MS), idle_group_then_fork(false), 702 * MS, true);
	CHECK(r.checked_ok());
	const std::vector<Switch> expect = {{0, IDLE, 0}, {12 * MS, 0, 1}, {696 * MS, 1, 0}, {700 * MS, 0, 1}};
	CHECK(r.rec.switches == expect);
}

// The other way round: a task of an idle group waking (here forking) while
// a root hog runs: cse_is_idle != pse_is_idle, so no preemption, nor a
// PREEMPT_SHORT one for a shorter slice; it waits for a tick's pick.
TEST_CASE("an idle group's task never preempts a non-idle task at wake-up, even with a shorter slice",
	  "[groups][golden][idle]")
{
	Workload wl = workload({hog("r"), delayed(with_slice(in_group(task("i", {run(100 * US)}, 1), "/I"), 100 * US), 1 * MS)});
	wl.groups = {group_i(true)};
	const GroupRun r = run_groups(config("6.18.39", 250, 3 * MS), wl, 10 * MS, true);
	CHECK(r.checked_ok());
	REQUIRE(r.rec.switches.size() >= 2);
	CHECK(r.rec.switches[1].t % (4 * MS) == 0);  // at a tick, not at 1 ms
	CHECK(r.rec.switches[1].next == 1);
}

// h_nr_idle: /I's own cfs_rq counts its tasks by policy (j is SCHED_IDLE,
// i is not); the root counts both, as the levels above an idle cfs_rq do
// (enqueue_task_fair(): h_nr_idle = 1 past it). A CPU whose tasks are all
// idle to the root is sched_idle_cpu(); a root task ends that.
// 7.1.5's first decision is the same: the fork preempts at 10 ms.
TEST_CASE("7.1.5 also preempts an idle group's task at a root fork", "[groups][idle]")
{
	const GroupRun r = run_groups(config("7.1.5", 250, 3 * MS), idle_group_then_fork(true), 20 * MS, true);
	CHECK(r.checked_ok());
	REQUIRE(r.rec.switches.size() >= 2);
	CHECK(r.rec.switches[1] == Switch{10 * MS, 0, 1});
}

TEST_CASE("an idle group's tasks count as idle to the levels above it", "[groups][idle]")
{
	Workload wl = workload({in_group(hog("i"), "/I"), in_group(with_policy(hog("j"), Policy::Idle), "/I"),
				delayed(hog("r"), 5 * MS)});
	wl.groups = {group_i(true)};
	wl.duration = 10 * MS;
	Simulation sim(config("6.18.39", 250), wl);
	InvariantChecker checker;
	sim.add_observer(&checker);
	sim.run_until(2 * MS);
	const CfsRq& in_i = sim.groups()[0].cfs_rq[0];
	CHECK(in_i.h_nr_queued == 2);
	CHECK(in_i.h_nr_idle == 1);
	CHECK(sim.cfs_rq(0).h_nr_idle == 2);
	CHECK(sim.rq(0).sched_idle_rq());
	sim.run_until(6 * MS);
	CHECK(sim.cfs_rq(0).h_nr_queued == 3);
	CHECK(sim.cfs_rq(0).h_nr_idle == 2);
	CHECK_FALSE(sim.rq(0).sched_idle_rq());
	sim.run();
}

TEST_CASE("an idle group weighs WEIGHT_IDLEPRIO whatever shares it was given", "[groups][idle]")
{
	Workload wl = workload({in_group(hog("i"), "/I")});
	wl.groups = {group_i(true, scale_load(4096))};
	wl.duration = 10 * MS;
	Simulation sim(config("6.18.39", 250), wl);
	CHECK(sim.groups()[0].shares == scale_load(WEIGHT_IDLEPRIO));
	CHECK(sim.groups()[0].idle);
	CHECK(sim.groups()[0].cfs_rq[0].idle);
	sim.run();
	CHECK(sim.groups()[0].se[0].load.weight == scale_load(WEIGHT_IDLEPRIO));
}

// sched_group_set_shares() refuses an idle group (-EINVAL): a root task
// writing /I's cpu.shares 2048 at 2 ms leaves it at WEIGHT_IDLEPRIO.
TEST_CASE("a weight write to an idle group changes nothing", "[groups][idle]")
{
	Workload wl = workload({in_group(hog("i"), "/I"),
				task("w", {run(2 * MS), Event{Event::Kind::SetShares, 2 * NICE_0_LOAD, 0, 0}, run(RUN_FOREVER)}, 1)});
	wl.groups = {group_i(true)};
	wl.duration = 20 * MS;
	Simulation sim(config("6.18.39", 250), wl);
	InvariantChecker checker;
	sim.add_observer(&checker);
	sim.run();
	CHECK(sim.tasks()[1].se.sum_exec_runtime > 2 * MS);  // the write happened
	CHECK(sim.groups()[0].shares == scale_load(WEIGHT_IDLEPRIO));
	CHECK(sim.groups()[0].se[0].load.weight == scale_load(WEIGHT_IDLEPRIO));
}

// A cpu.idle write mid-run (sched_group_set_idle()): /I with a hog and a
// SCHED_IDLE task beside a root task "w" that writes cpu.idle 1 at 2 ms of
// its CPU and 0 at 4 ms. While idle, /I's non-idle task counts as idle up
// the chain and the group weighs WEIGHT_IDLEPRIO; made normal again, the
// count goes back and the group weighs NICE_0_LOAD, not what it had.
TEST_CASE("a cpu.idle write mid-run makes a group idle and back", "[groups][idle]")
{
	Workload wl = workload({in_group(hog("i"), "/I"), in_group(with_policy(hog("j"), Policy::Idle), "/I"),
				task("w",
				     {run(2 * MS), Event{Event::Kind::SetIdle, 0, 0, 1}, run(2 * MS),
				      Event{Event::Kind::SetIdle, 0, 0, 0}, run(RUN_FOREVER)},
				     1)});
	wl.groups = {group_i(false, 2 * NICE_0_LOAD)};
	wl.duration = 60 * MS;
	Simulation sim(config("6.18.39", 250), wl);
	InvariantChecker checker;
	sim.add_observer(&checker);
	const TaskGroup& tg = sim.groups()[0];
	auto w_ran = [&] { return sim.tasks()[2].se.sum_exec_runtime; };
	while (w_ran() < 2 * MS && !sim.finished())
		sim.run_until(sim.now() + 100 * US);
	sim.run_until(sim.now() + 1);  // the write's event
	CHECK(tg.idle);
	CHECK(tg.cfs_rq[0].idle);
	CHECK(tg.se[0].load.weight == scale_load(WEIGHT_IDLEPRIO));
	CHECK(sim.cfs_rq(0).h_nr_idle == 2);  // i now counts as idle above /I, j did already
	while (w_ran() < 4 * MS && !sim.finished())
		sim.run_until(sim.now() + 100 * US);
	sim.run_until(sim.now() + 1);
	CHECK_FALSE(tg.idle);
	CHECK(tg.se[0].load.weight == NICE_0_LOAD);
	CHECK(sim.cfs_rq(0).h_nr_idle == 1);  // only j
	sim.run();
}
