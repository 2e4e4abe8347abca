// SPDX-License-Identifier: GPL-2.0-only
// SCHED_BATCH (issue 17): a batch task never preempts at its wake-up or
// fork (check_preempt_wakeup_fair() returns before update_curr() when
// !normal_policy(p->policy)); the tick preempts for it. Schedules worked
// out by hand below.
#include <catch2/catch.hpp>

#include "io/rtapp.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

// HZ=250 (ticks at 0, 4, 8 ms), base slice 3 ms, 6.18. A hog forked at 0
// runs alone: its first deadline is v + r/2 = 1.5 ms (PLACE_DEADLINE_INITIAL).
// At 1 ms "b" forks with a 0.1 ms custom slice and 100 us of work: placed at
// V = 1 ms with deadline 1.05 ms, eligible, the earliest deadline.
Workload hog_and_short_fork(Policy b_policy, Policy hog_policy = Policy::Normal)
{
	const TaskSpec b = delayed(with_slice(task("b", {run(100 * US)}, 1), 100 * US), 1 * MS);
	return workload({with_policy(hog("hog"), hog_policy), with_policy(b, b_policy)});
}

}  // namespace

TEST_CASE("a SCHED_OTHER fork that is the pick's choice preempts the running hog at once")
{
	// PREEMPT_SHORT: judged without the hog's protection; b wins the pick
	// at 1 ms, runs 1.0 .. 1.1 ms and exits.
	const Recorder r = simulate(config("6.18", 250, 3 * MS), hog_and_short_fork(Policy::Normal), 10 * MS);
	REQUIRE(r.switches.size() >= 3);
	CHECK(r.switches[1] == Switch{1 * MS, 0, 1});
	CHECK(r.switches[2] == Switch{1 * MS + 100 * US, 1, 0});
}

TEST_CASE("a SCHED_BATCH fork does not preempt: it runs when the next tick renews the hog's request")
{
	// No update_curr at the fork. The tick at 4 ms: the hog's v = 4 ms is past
	// its 1.5 ms deadline, update_deadline() asks for the resched, and the
	// pick takes b (v 1 ms, eligible, deadline 1.05 ms): b runs 4.0 .. 4.1 ms.
	const Recorder r = simulate(config("6.18", 250, 3 * MS), hog_and_short_fork(Policy::Batch), 10 * MS);
	REQUIRE(r.switches.size() >= 3);
	CHECK(r.switches[1] == Switch{4 * MS, 0, 1});
	CHECK(r.switches[2] == Switch{4 * MS + 100 * US, 1, 0});
}

TEST_CASE("a running SCHED_BATCH task is preempted by a SCHED_OTHER waker as any task is")
{
	const Recorder r =
		simulate(config("6.18", 250, 3 * MS), hog_and_short_fork(Policy::Normal, Policy::Batch), 10 * MS);
	REQUIRE(r.switches.size() >= 2);
	CHECK(r.switches[1] == Switch{1 * MS, 0, 1});
}

TEST_CASE("rt-app's SCHED_BATCH policy, per task or as default_policy, is read and written back")
{
	const Workload w = parse_rtapp(R"({"global": {"default_policy": "SCHED_BATCH"}, "tasks": {
		"a": {"run": 10}, "b": {"policy": "SCHED_OTHER", "run": 10}, "c": {"policy": "SCHED_BATCH", "priority": 5, "run": 10}}})",
				       "p.json");
	REQUIRE(w.tasks.size() == 3);
	CHECK(w.tasks[0].policy == Policy::Batch);
	CHECK(w.tasks[1].policy == Policy::Normal);
	CHECK(w.tasks[2].policy == Policy::Batch);
	CHECK(w.tasks[2].nice == 5);
	CHECK(parse_rtapp(to_rtapp_json(w), "back.json") == w);
}

TEST_CASE("a policy change within a task and the RT policies are refused with the reason")
{
	CHECK_THROWS_WITH(parse_rtapp(R"({"tasks": {"t": {"policy": "SCHED_BATCH", "phases": {"p": {"policy": "SCHED_OTHER",
		"run": 10}}}}})", "c.json"),
			  Catch::Contains("tasks.t.phases.p.policy: a policy change within a task"));
	CHECK_THROWS_WITH(parse_rtapp(R"({"tasks": {"t": {"policy": "SCHED_IDLE", "phases": {"p": {"policy": "SCHED_OTHER",
		"run": 10}}}}})", "c.json"),
			  Catch::Contains("tasks.t.phases.p.policy: a policy change within a task"));
	CHECK_THROWS_WITH(parse_rtapp(R"({"tasks": {"t": {"policy": "SCHED_FIFO", "run": 10}}})", "f.json"),
			  Catch::Contains("tasks.t.policy: SCHED_FIFO is not modelled"));
}
