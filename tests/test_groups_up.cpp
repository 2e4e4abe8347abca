// SPDX-License-Identifier: GPL-2.0-only
// Task groups on one CPU (issue 36): golden schedules computed by hand from
// 6.18.44's fair.c, and the shares the hierarchy gives. Notation as in
// test_golden.cpp: times in ms; V_root, V_A the averages of the root's and
// group A's cfs_rq; a group's entity is se_A.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "group_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

u64 total(const std::vector<u64>& v, size_t from, size_t to)
{
	u64 s = 0;
	for (size_t i = from; i < to; i++)
		s += v[i];
	return s;
}

}  // namespace

// /A holds hog 0, /B hogs 1..3, both of weight 1024; HZ=250, slice 0.7 ms.
// t=0: hog 0 forks into A (v=V_A, d=V_A+0.35: PLACE_DEADLINE_INITIAL), se_A
// joins the root as a wake-up (v=V_root, d=V_root+0.7: its slice is the
// min slice below it); the CPU is idle, so hog 0 runs. Hogs 1..3 fork into B
// (forks do not preempt), se_B joins the root with v=V_root, d=V_root+0.7.
// t=4 (tick): at A's level nr_queued == 1 (no resched there); at the root
// se_A has v=4 >= d: renewed to 4.7 and resched; V_root=2, se_B (d=0.7)
// wins, and in B hog 1 (first of three equal deadlines). t=8: se_B v=4,
// d=4.7; se_A v=4, d=4.7 was queued first: se_A, hog 0. t=12: V_root=6,
// se_B (4.7 < 8.7); in B hog 1 has v=4, hogs 2 and 3 v=0: hog 2. And so on:
// the groups alternate every tick and B's tick goes round its three hogs.
TEST_CASE("two equal groups alternate every tick whatever their task counts", "[groups][golden]")
{
	Workload wl = workload({in_group(hog("a0"), "/A"), in_group(hog("b1"), "/B"), in_group(hog("b2"), "/B"),
				in_group(hog("b3"), "/B")});
	wl.groups = {{"/A", NICE_0_LOAD}, {"/B", NICE_0_LOAD}};
	const GroupRun r = run_groups(config("6.18.39", 250), wl, 40 * MS);
	const std::vector<Switch> expect = {{0, IDLE, 0},      {4 * MS, 0, 1},  {8 * MS, 1, 0},  {12 * MS, 0, 2},
					    {16 * MS, 2, 0},   {20 * MS, 0, 3}, {24 * MS, 3, 0}, {28 * MS, 0, 1},
					    {32 * MS, 1, 0},   {36 * MS, 0, 2}};
	REQUIRE(r.rec.switches.size() >= expect.size());
	for (size_t i = 0; i < expect.size(); i++)
		CHECK(r.rec.switches[i] == expect[i]);
}

TEST_CASE("the same four hogs without groups take turns one tick each", "[groups][golden]")
{
	// The contrast: flat, the four hogs round-robin (0,1,2,3,0,...).
	const GroupRun r = run_groups(config("6.18.39", 250), workload({hog("a0"), hog("b1"), hog("b2"), hog("b3")}), 20 * MS);
	REQUIRE(r.rec.switches.size() >= 5);
	CHECK(r.rec.switches[1] == Switch{4 * MS, 0, 1});
	CHECK(r.rec.switches[2] == Switch{8 * MS, 1, 2});
	CHECK(r.rec.switches[3] == Switch{12 * MS, 2, 3});
	CHECK(r.rec.switches[4] == Switch{16 * MS, 3, 0});
}

TEST_CASE("equal groups split the CPU in half: one hog gets what three share", "[groups]")
{
	Workload wl = workload({in_group(hog("a0"), "/A"), in_group(hog("b1"), "/B"), in_group(hog("b2"), "/B"),
				in_group(hog("b3"), "/B")});
	wl.groups = {{"/A", NICE_0_LOAD}, {"/B", NICE_0_LOAD}};
	const GroupRun r = run_groups(config("6.18.39", 250), wl, 4000 * MS, true);
	CHECK(r.violation == "");
	// sum_exec_runtime is charged at each tick: the last run, cut by the end
	// of the simulation, is not (the tick ends at 4000 ms exactly).
	const u64 a = r.runtime[0], b = total(r.runtime, 1, 4);
	CHECK(a + b == 4000 * MS - 4 * MS);
	CHECK(a - b + 4 * MS <= 8 * MS);  // |a - b| <= one tick: 500 ticks each but the last
	for (size_t i = 1; i < 4; i++) {
		CHECK(r.runtime[i] + 4 * MS >= b / 3);
		CHECK(r.runtime[i] <= b / 3 + 4 * MS);
	}
}

// se_A weighs 2048 (cpu.shares 2048 = cpu.weight 200): its vruntime grows at
// half the rate of se_B's, so over a long run A gets 2/3 of the CPU, to
// within the tick that ends each run.
TEST_CASE("a group of twice the weight gets two thirds of the CPU", "[groups]")
{
	Workload wl = workload({in_group(hog("a"), "/A"), in_group(hog("b"), "/B")});
	wl.groups = {{"/A", 2 * NICE_0_LOAD}, {"/B", NICE_0_LOAD}};
	const GroupRun r = run_groups(config("6.18.39", 250), wl, 3000 * MS, true);
	CHECK(r.violation == "");
	CHECK(r.runtime[0] >= 2000 * MS - 8 * MS);
	CHECK(r.runtime[0] <= 2000 * MS + 8 * MS);
	CHECK(r.runtime[0] + r.runtime[1] == 3000 * MS - 4 * MS);  // the last run is not charged
}

// A root task competes with the group's entity, not with each of its tasks:
// the root hog gets half, A's two hogs a quarter each.
TEST_CASE("a group competes with root tasks as one entity", "[groups]")
{
	Workload wl = workload({hog("root"), in_group(hog("a1"), "/A"), in_group(hog("a2"), "/A")});
	wl.groups = {{"/A", NICE_0_LOAD}};
	const GroupRun r = run_groups(config("6.18.39", 250), wl, 4000 * MS, true);
	CHECK(r.violation == "");
	CHECK(r.runtime[0] + r.runtime[1] + r.runtime[2] == 4000 * MS - 4 * MS);  // the last run is not charged
	CHECK(r.runtime[0] + 4 * MS >= 2000 * MS);
	CHECK(r.runtime[0] <= 2000 * MS + 4 * MS);
	CHECK(r.runtime[1] + 4 * MS >= 1000 * MS);
	CHECK(r.runtime[1] <= 1000 * MS + 4 * MS);
}

// With every task in one group, the root holds one entity (update_curr()
// there returns at nr_queued == 1, picks there have one choice), and the
// group's cfs_rq decides as the root did for the flat workload; a sleeper's
// buddy (set_next_buddy(se_A)) is the only entity at the root anyway. So
// the schedule is the flat one, switch for switch -- for workloads without
// nice changes: prio_changed_fair() skips its resched when rq->cfs.nr_queued
// == 1, which counts the root's entities (6.18.44 and 7.1.5 alike).
TEST_CASE("a workload all in one group schedules as the flat workload", "[groups]")
{
	for (const char* preset : {"6.18", "6.18.17", "6.18.39", "7.1.5"}) {
		CAPTURE(preset);
		TaskSpec s = task("s", {run(700 * US), sleep(2300 * US)});
		TaskSpec p = with_slice(task("p", {run(300 * US), timer(0, 5 * MS)}), 400 * US);
		TaskSpec y = task("y", {run(5 * MS), yield(), run(2 * MS), sleep(1 * MS)});
		Workload flat = workload({hog("a"), hog("b", 4), s, p, y, hog("c", -3), task("d", {run(13 * MS), sleep(7 * MS)})});
		flat.refs = {"t"};
		Workload grouped = flat;
		for (TaskSpec& t : grouped.tasks)
			t.taskgroup = "/A";
		grouped.groups = {{"/A", NICE_0_LOAD}};
		const GroupRun f = run_groups(config(preset, 250), flat, 500 * MS);
		const GroupRun g = run_groups(config(preset, 250), grouped, 500 * MS, true);
		CHECK(g.violation == "");
		CHECK(g.rec.switches == f.rec.switches);
		CHECK(g.runtime == f.runtime);
	}
}

TEST_CASE("a group's weight from cpu.weight and cpu.weight.nice is the kernel's", "[groups]")
{
	// DIV_ROUND_CLOSEST_ULL(w * 1024, 100): 100 -> 1024, 1 -> 10, 200 -> 2048, 10000 -> 102400, 3 -> 31
	CHECK(sched_weight_from_cgroup(100) == 1024);
	CHECK(sched_weight_from_cgroup(1) == 10);
	CHECK(sched_weight_from_cgroup(200) == 2048);
	CHECK(sched_weight_from_cgroup(10000) == 102400);
	CHECK(sched_weight_from_cgroup(3) == 31);
	// and back, as cpu.weight reads: 1024 -> 100, 10 -> 1, 102400 -> 10000, 2 -> 1 (clamped)
	CHECK(sched_weight_to_cgroup(1024) == 100);
	CHECK(sched_weight_to_cgroup(10) == 1);
	CHECK(sched_weight_to_cgroup(102400) == 10000);
	CHECK(sched_weight_to_cgroup(2) == 1);
	CHECK(sched_weight_to_cgroup(262144) == 10000);
}

TEST_CASE("groups run on every preset, one CPU or several", "[groups]")
{
	Workload wl = workload({in_group(hog("a"), "/A")});
	wl.groups = {{"/A", NICE_0_LOAD}};
	wl.duration = 10 * MS;
	for (const KernelPreset& p : kernel_presets()) {
		INFO(p.name);
		CHECK(Simulation(make_config(p, 250), wl).groups().size() == 1);
		CHECK(Simulation(make_config(p, 250, 2), wl).groups().size() == 1);
	}
}

TEST_CASE("a taskgroup that is not among the groups is refused", "[groups]")
{
	Workload wl = workload({in_group(hog("a"), "/A")});
	wl.duration = 10 * MS;
	CHECK_THROWS_WITH(Simulation(config("6.18.39", 250), wl), Catch::Contains("taskgroup '/A'"));
	wl.groups = {{"/B", NICE_0_LOAD}, {"/B/C", NICE_0_LOAD}};
	CHECK_THROWS_WITH(Simulation(config("6.18.39", 250), wl), Catch::Contains("taskgroup '/A'"));
}

TEST_CASE("a group listed before its parent is refused", "[groups]")
{
	Workload wl = workload({in_group(hog("a"), "/B/C")});
	wl.groups = {{"/B/C", NICE_0_LOAD}, {"/B", NICE_0_LOAD}};
	wl.duration = 10 * MS;
	CHECK_THROWS_WITH(Simulation(config("6.18.39", 250), wl), Catch::Contains("parent '/B'"));
}

// The next buddy decides a short-slice wake-up, and where each release tests
// it changes the answer. HZ=1000, slice 0.7 ms, hrtick off; /G (1024) holds
// a (runs 1 ms once, then sleeps) and hog b; w is a root task with a 0.2 ms
// custom slice that sleeps at once and wakes at 2.4 ms. Times in ms of
// virtual time from V_root at t=0 (every weight is 1024).
//   t=0..2: b runs 0..1, a 1..2; se_G is the root's only queued entity, so the
//   root's update_curr() returns before its resched test (nr_queued == 1) and
//   se_G's request is renewed at the ticks: d(se_G) = 2.0 + 0.7 = 2.7.
//   t=2: a sleeps and leaves G non-empty: dequeue_entities() makes se_G the
//   root's next buddy. b runs; se_G stays curr at the root, so no
//   set_next_entity() there clears the buddy.
//   t=2.4: w wakes with lag 0: v(w) = V_root = v(se_G) = 2.4, d(w) = 2.6. Its
//   slice is shorter than se_G's (b's 0.7), so the wake-up's pick runs without
//   protection; the update_curr() before it sees delta 0 (the enqueue already
//   charged b) and returns before clearing the buddy. Both are eligible, w's
//   deadline is earlier: without a buddy w preempts.
//   6.18.17 (PICK_BUDDY in pick_next_entity()): the wake-up's __pick_eevdf()
//   returns w, the resched goes through, and the schedule's pick_next_entity()
//   takes the eligible buddy se_G: b again, until the tick at 3 renews se_G
//   (v 3 >= d 2.7), whose resched clears the buddy: w runs at 3.
//   6.18.39 (PICK_BUDDY in __pick_eevdf()): the wake-up's pick returns se_G,
//   no resched; w runs at 3, the same way.
//   6.15 (PICK_BUDDY in pick_next_entity(), the vlag==deadline protection):
//   as 6.18.17. se_G's stash (vlag = d = 0.7 at its pick at 0) differs from
//   its deadline since the renewals at the ticks (2.7 now), so it is not
//   protected; the wake-up's pick_eevdf() returns w (d 2.6 < 2.7) and asks
//   for the resched, the schedule's pick_next_entity() takes the eligible
//   buddy se_G back, and w runs at 3.
//   7.1.5 (only when protecting, and SHORT clears curr's buddy): the wake-up's
//   pick returns w, which preempts at once, at 2.4.
TEST_CASE("a short-slice waker waits for the next buddy on 6.15 .. 6.18 and not on 7.1", "[groups][golden]")
{
	auto a = in_group(task("a", {run(1 * MS), sleep(100 * MS)}, 1), "/G");
	auto b = in_group(hog("b"), "/G");
	auto w = with_slice(task("w", {sleep(2400 * US), run(200 * US), sleep(100 * MS)}, 1), 200 * US);
	Workload wl = workload({a, b, w});
	wl.groups = {{"/G", NICE_0_LOAD}};
	auto w_first_run = [&](std::string_view preset) {
		Config cfg = config(preset, 1000);
		cfg.features.set(Feature::HRTICK, false);
		const GroupRun r = run_groups(cfg, wl, 5 * MS, true);
		CHECK(r.checked_ok());
		const std::vector<u64> in = r.rec.switch_ins(2);
		REQUIRE(in.size() >= 2);  // its first pick at 0 runs zero time and sleeps
		return in[1];
	};
	CHECK(w_first_run("6.15") == 3 * MS);
	CHECK(w_first_run("6.18.17") == 3 * MS);
	CHECK(w_first_run("6.18.39") == 3 * MS);
	CHECK(w_first_run("7.1.5") == 2400 * US);
}

namespace {

// b: a hog in /B from 0; s: 200 us of work with a 0.5 ms custom slice in
// /A, forked at 1 ms. One CPU, HZ=250, base slice 3 ms.
Workload short_slice_in_a_group()
{
	Workload wl = workload({in_group(hog("b"), "/B"),
				delayed(with_slice(in_group(task("s", {run(200 * US)}, 1), "/A"), 500 * US), 1 * MS)});
	wl.groups = {{"/A", NICE_0_LOAD}, {"/B", NICE_0_LOAD}};
	return wl;
}

}  // namespace

// aef6987d8954: a group's entity carries the smallest slice queued below
// it. t=0: se_B joins the root at v=0, d=3 (a wake-up at its level: the
// whole slice). t=1: s forks into /A; se_A joins at V=1 (se_B's v, charged
// by enqueue_entity()'s update_curr()) with its slice set to s's 0.5 ms:
// d=1.5. check_preempt_wakeup_fair() matches se_A against se_B:
// PREEMPT_SHORT (0.5 < 3) comes before the WF_FORK test and picks without
// protection: se_A (d=1.5 < 3, both eligible at V=1): s runs at once, for
// its 0.2 ms, and b resumes at 1.2. 6.15 has no WF_FORK test; its
// do_preempt_short() (0.5 < 3, se_A eligible and before se_B) cancels se_B's
// vlag==deadline protection and its pick chooses se_A: the same schedule.
TEST_CASE("a short-slice task's group entity takes its slice and preempts at fork", "[groups][golden]")
{
	for (const char* preset : {"6.15", "6.18.39"}) {
		INFO(preset);
		const GroupRun r = run_groups(config(preset, 250, 3 * MS), short_slice_in_a_group(), 10 * MS, true);
		CHECK(r.checked_ok());
		const std::vector<Switch> expect = {{0, IDLE, 0}, {1 * MS, 0, 1}, {1200 * US, 1, 0}};
		CHECK(r.rec.switches == expect);
	}
}

// The same with aef6987d8954 undone (bug group-slice-base): se_A keeps the
// 3 ms base slice, d=4; no PREEMPT_SHORT (3 = 3), and a fork does not
// preempt. t=4 (tick): se_B's v=4 passed d=3, renewed to 7, resched;
// V = (4 + 1) / 2 = 2.5, so se_A (v=1) is eligible and se_B is not: s
// runs at 4 ms, 3 ms later than with the commit.
TEST_CASE("without the group slice, the short-slice task waits for the tick", "[groups][golden]")
{
	Config cfg = config("6.18.39", 250, 3 * MS);
	cfg.bugs.set(Bug::GROUP_SLICE_BASE);
	const GroupRun r = run_groups(cfg, short_slice_in_a_group(), 10 * MS, false);
	const std::vector<Switch> expect = {{0, IDLE, 0}, {4 * MS, 0, 1}, {4200 * US, 1, 0}};
	CHECK(r.rec.switches == expect);
}
