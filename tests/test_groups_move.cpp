// SPDX-License-Identifier: GPL-2.0-only
// A task moving itself to another group (sched_move_task(), rt-app's
// phase-level "taskgroup"): under sched_change it leaves its group's chain
// and joins the new one, and its CPU time counts for the group it ran in.
#include <catch2/catch.hpp>

#include "group_helpers.hpp"
#include "model/metrics.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

Event move_to(int group) { return Event{Event::Kind::MoveGroup, 0, group, 0}; }

struct MoveRun {
	std::vector<u64> runtime;
	std::vector<TaskMetrics::GroupMove> moves;  // m's
	const SchedEntity* m_parent = nullptr;
	const SchedEntity* b_group_se = nullptr;
	bool a_group_queued = true;
};

// m runs 30 ms of CPU alone in /A (beside /B's hog b and a root hog r:
// three root entities, a third each), then moves into /B and runs on.
MoveRun run_move(u64 duration, bool check)
{
	Workload wl = workload({in_group(phased("m", {Phase{"inA", 1, {run(30 * MS)}},
						     Phase{"inB", 1, {move_to(1), run(RUN_FOREVER)}}},
						   1),
					    "/A"),
				   in_group(hog("b"), "/B"), hog("r")});
	wl.groups = {{"/A", NICE_0_LOAD}, {"/B", NICE_0_LOAD}};
	wl.duration = duration;
	Simulation sim(config("6.18.39", 250), wl);
	MetricsCollector metrics;
	sim.add_observer(&metrics);
	InvariantChecker checker;
	if (check)
		sim.add_observer(&checker);
	sim.run();
	metrics.finish(sim);
	MoveRun out;
	for (const Task& t : sim.tasks())
		out.runtime.push_back(t.se.sum_exec_runtime);
	out.moves = metrics.tasks[0].group_moves;
	out.m_parent = sim.tasks()[0].se.parent;
	out.b_group_se = &sim.groups()[1].se[0];
	out.a_group_queued = sim.groups()[0].se[0].on_rq;
	return out;
}

}  // namespace

TEST_CASE("a phase-level taskgroup moves the running task below the new group's entity", "[groups]")
{
	const MoveRun r = run_move(400 * MS, true);
	CHECK(r.m_parent == r.b_group_se);
	CHECK_FALSE(r.a_group_queued);  // /A emptied: its entity left the root
	REQUIRE(r.moves.size() == 1);
	CHECK(r.moves[0].group == 1);
	CHECK(r.moves[0].cpu_ns == 30 * MS);  // what m ran in /A: its first phase, exactly
}

// Before the move m's group is one of three root entities; after it /A is
// gone and m shares /B's half with b: a quarter, to within a tick's run.
TEST_CASE("after a move the task shares its new group's share", "[groups]")
{
	const MoveRun before = run_move(90 * MS, false);
	const MoveRun after = run_move(890 * MS, false);
	REQUIRE(before.moves.size() == 1);  // m used its 30 ms in the first 90 ms
	const u64 m_after = after.runtime[0] - before.runtime[0];
	CHECK(m_after >= 200 * MS - 8 * MS);
	CHECK(m_after <= 200 * MS + 8 * MS);
}

TEST_CASE("a move to the group the task is in changes nothing", "[groups]")
{
	auto run_with = [](bool stay) {
		std::vector<Event> ev = {run(3 * MS), sleep(1 * MS)};
		if (stay)
			ev.insert(ev.begin(), move_to(0));
		Workload wl = workload({in_group(task("m", ev), "/A"), in_group(hog("b"), "/B")});
		wl.groups = {{"/A", NICE_0_LOAD}, {"/B", NICE_0_LOAD}};
		return run_groups(config("6.18.39", 250), wl, 100 * MS, true);
	};
	const GroupRun moved = run_with(true), plain = run_with(false);
	CHECK(moved.violation == "");
	CHECK(moved.rec.switches == plain.rec.switches);
}
