// SPDX-License-Identifier: GPL-2.0-only
// Autogroup on one CPU (issue 36, model/autogroup.hpp): each session's task
// group, what it changes against the flat schedule and what it does not,
// the session's nice as the group's shares, and the input that asks for it.
#include <catch2/catch.hpp>

#include <string>
#include <utility>

#include "io/model_options.hpp"
#include "io/rtapp.hpp"
#include "model/autogroup.hpp"
#include "group_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;
using Catch::Contains;

namespace {

Config autogroup_config(std::string_view preset, u32 hz = 250)
{
	Config c = config(preset, hz);
	c.autogroup = true;
	return c;
}

TaskSpec setsid(TaskSpec t, int autogroup_nice = 0)
{
	t.setsid = true;
	t.autogroup_nice = autogroup_nice;
	return t;
}

// Hogs at three nice levels, a sleeper, a periodic task with a custom slice
// on an rt-app timer, a yielder, a long runner, a batch and an idle task,
// and two tasks forked late: wake-up preemption, delayed dequeue, eligibility
// and the tick, all inside the one group.
Workload wakeup_mix()
{
	TaskSpec s = task("s", {run(700 * US), sleep(2300 * US)});
	TaskSpec p = with_slice(task("p", {run(300 * US), timer(0, 5 * MS)}), 400 * US);
	TaskSpec y = task("y", {run(5 * MS), yield(), run(2 * MS), sleep(1 * MS)});
	TaskSpec b = with_policy(task("batch", {run(3 * MS), sleep(900 * US)}), Policy::Batch);
	TaskSpec i = with_policy(task("idle", {run(1 * MS), sleep(100 * US)}), Policy::Idle);
	Workload w = workload({hog("a"), hog("b", 4), s, p, y, hog("c", -3), task("d", {run(13 * MS), sleep(7 * MS)}),
			       b, i, delayed(task("late", {run(150 * US), sleep(450 * US)}), 37 * MS),
			       delayed(niced(task("late2", {run(2 * MS), sleep(6 * MS)}), -7), 61 * MS)});
	w.refs = {"t"};
	return w;
}

// Short sleepers only: the CPU goes idle, every wake-up meets a short curr.
Workload sleepers()
{
	return workload({task("s1", {run(200 * US), sleep(1 * MS)}), task("s2", {run(1300 * US), sleep(700 * US)}),
			 niced(task("s3", {run(50 * US), sleep(150 * US)}), 5),
			 with_slice(task("s4", {run(400 * US), sleep(3 * MS)}), 100 * US)});
}

}  // namespace

// With every task in the workload's one session, the root holds one
// entity, /autogroup-1's: update_curr() there never asks for a resched
// (nr_queued == 1), every pick there has one choice, a sleeper's next buddy
// is that entity anyway, and the group's cfs_rq decides as the root did for
// the flat workload (h_nr_queued, which NO_HZ_FULL's sched_can_stop_tick()
// reads, counts the same tasks). So the schedule is the flat one, switch
// for switch, on every preset that models groups.
TEST_CASE("a workload in one session schedules under autogroup as without it", "[autogroup]")
{
	for (const char* preset : {"6.18", "6.18.39", "7.1.5"})
		for (u32 hz : {250u, 1000u})
			for (int w = 0; w < 2; w++) {
				CAPTURE(preset, hz, w);
				const Workload wl = w == 0 ? wakeup_mix() : sleepers();
				const GroupRun flat = run_groups(config(preset, hz), wl, 400 * MS, true);
				const GroupRun ag = run_groups(autogroup_config(preset, hz), wl, 400 * MS, true);
				CHECK(ag.violation == "");
				CHECK(ag.rec.switches.size() > 100);
				CHECK(ag.rec.switches == flat.rec.switches);
				CHECK(ag.runtime == flat.runtime);
			}
}

TEST_CASE("a workload in one session schedules as without autogroup under NO_HZ_FULL too", "[autogroup]")
{
	Config flat_cfg = config("6.18.39", 250), ag_cfg = autogroup_config("6.18.39");
	flat_cfg.features.set(Feature::NO_HZ_FULL, true);
	ag_cfg.features.set(Feature::NO_HZ_FULL, true);
	const GroupRun flat = run_groups(flat_cfg, sleepers(), 400 * MS, true);
	const GroupRun ag = run_groups(ag_cfg, sleepers(), 400 * MS, true);
	CHECK(ag.violation == "");
	CHECK(ag.rec.switches == flat.rec.switches);
}

// The one exception found: a nice change. prio_changed_fair() returns
// without a resched when rq->cfs.nr_queued == 1 -- the root's entities, one
// under autogroup however many tasks the session runs (6.18.44 fair.c and
// 7.1.5 alike; model/core.cpp set_user_nice()). Task "r" runs from t=0
// (hog "h", forked after it, waits) and at 0.2 ms lowers its priority to
// nice 10: flat, prio_changed_fair() reschedules at once and "h" runs at
// 0.2 ms; in the session's autogroup "r" runs on until a resched it would
// have had anyway: the tick at 4 ms on 6.18.x, the end of its first slice
// (0.35 ms, PLACE_DEADLINE_INITIAL) on 7.1.5. A renice to a higher priority
// (nice -10) changes nothing here: curr is not rescheduled for it either way.
TEST_CASE("under autogroup a renice of curr does not reschedule at once", "[autogroup][finding]")
{
	const std::pair<const char*, u64> next_resched[] = {{"6.18", 4 * MS}, {"6.18.39", 4 * MS}, {"7.1.5", 350 * US}};
	for (const auto& [preset, at] : next_resched) {
		CAPTURE(preset);
		const Workload wl = workload({task("r", {run(200 * US), set_nice(10), run(RUN_FOREVER)}, 1), hog("h")});
		const GroupRun flat = run_groups(config(preset, 250), wl, 20 * MS, true);
		const GroupRun ag = run_groups(autogroup_config(preset), wl, 20 * MS, true);
		CHECK(ag.violation == "");
		REQUIRE(flat.rec.switches.size() >= 2);
		REQUIRE(ag.rec.switches.size() >= 2);
		CHECK(flat.rec.switches[1] == Switch{200 * US, 0, 1});
		CHECK(ag.rec.switches[1] == Switch{at, 0, 1});
	}
}

// Two sessions of equal weight split the CPU in half whatever their task
// counts; flat, the four hogs would get a quarter each (1/4 against 3/4).
TEST_CASE("two sessions share the CPU equally: one hog gets what three share", "[autogroup]")
{
	const Workload wl = workload({setsid(hog("a")), hog("b1"), hog("b2"), hog("b3")});
	const GroupRun ag = run_groups(autogroup_config("6.18.39"), wl, 4000 * MS, true);
	CHECK(ag.violation == "");
	const u64 a = ag.runtime[0], b = ag.runtime[1] + ag.runtime[2] + ag.runtime[3];
	CHECK(a + b == 4000 * MS - 4 * MS);  // the last run, cut by the end, is not charged
	CHECK(a + 4 * MS >= b);
	CHECK(b + 4 * MS >= a);
	const GroupRun flat = run_groups(config("6.18.39", 250), wl, 4000 * MS, true);
	CHECK(flat.runtime[0] + 4 * MS >= 1000 * MS);
	CHECK(flat.runtime[0] <= 1000 * MS + 4 * MS);
}

TEST_CASE("an autogroup's nice gives its shares as a nice gives a task's weight", "[autogroup]")
{
	// proc_sched_autogroup_set_nice(): scale_load(sched_prio_to_weight[nice + 20]).
	CHECK(autogroup_shares(0) == scale_load(1024));
	CHECK(autogroup_shares(-20) == scale_load(88761));
	CHECK(autogroup_shares(19) == scale_load(15));
	CHECK(autogroup_shares(5) == scale_load(335));
	const Workload wl = workload({setsid(hog("lo"), 19), setsid(hog("hi"), -20), hog("plain")}, 10 * MS);
	Simulation sim(autogroup_config("6.18.39"), wl);
	REQUIRE(sim.autogroups().size() == 3);
	CHECK(sim.autogroups()[0].shares == scale_load(1024));
	CHECK(sim.autogroups()[1].shares == scale_load(15));
	CHECK(sim.autogroups()[2].shares == scale_load(88761));
	// And the group entities weigh that once their tasks are queued.
	Simulation run(autogroup_config("6.18.39"), wl);
	run.run();
	REQUIRE(run.groups().size() == 3);
	CHECK(run.groups()[1].se[0].load.weight == scale_load(15));
	CHECK(run.groups()[2].se[0].load.weight == scale_load(88761));
}

// Session "lo" (nice 5, 335) against the workload's session (1024): lo's hog
// gets 335/1359 of the CPU, within a tick per run.
TEST_CASE("a session of lower autogroup nice gets its weight's share of the CPU", "[autogroup]")
{
	const Workload wl = workload({setsid(hog("lo"), 5), hog("x"), hog("y")});
	const GroupRun ag = run_groups(autogroup_config("6.18.39"), wl, 4000 * MS, true);
	CHECK(ag.violation == "");
	const u64 total = ag.runtime[0] + ag.runtime[1] + ag.runtime[2];
	const u64 expect = total * 335 / 1359;
	CHECK(ag.runtime[0] + 8 * MS >= expect);
	CHECK(ag.runtime[0] <= expect + 8 * MS);
}

// autogroup_task_group() applies to tasks of the root cpu cgroup only.
TEST_CASE("a task in a cpu cgroup ignores autogroup", "[autogroup]")
{
	TaskSpec c = hog("in_cgroup");
	c.taskgroup = "/A";
	Workload wl = workload({c, hog("r1"), hog("r2"), setsid(c)}, 10 * MS);
	wl.tasks[3].name = "in_cgroup_setsid";
	wl.groups = {{"/A", NICE_0_LOAD}};
	Simulation sim(autogroup_config("6.18.39"), wl);
	CHECK(sim.task_group_path(0) == "/A");
	CHECK(sim.task_autogroup(0) == nullptr);
	CHECK(sim.task_group_path(1) == "/autogroup-1");
	CHECK(sim.task_group_path(2) == "/autogroup-1");
	// A setsid task in a cgroup still makes its session's group, empty.
	CHECK(sim.task_group_path(3) == "/A");
	REQUIRE(sim.autogroups().size() == 2);
	CHECK(sim.autogroups()[1].path == "/autogroup-2");
	// /A (two hogs) and /autogroup-1 (two hogs) of equal weight: half each.
	const GroupRun r = run_groups(autogroup_config("6.18.39"), wl, 2000 * MS, true);
	CHECK(r.violation == "");
	const u64 a = r.runtime[0] + r.runtime[3], s = r.runtime[1] + r.runtime[2];
	CHECK(a + 4 * MS >= s);
	CHECK(s + 4 * MS >= a);
}

TEST_CASE("autogroup ids: the workload's session is 1, then setsid tasks as they are created", "[autogroup]")
{
	const Workload wl = workload(
		{delayed(setsid(hog("late")), 5 * MS), setsid(hog("early")), hog("plain"), setsid(hog("early2"))});
	const Autogroups a = autogroup_sessions(wl);
	REQUIRE(a.groups.size() == 4);
	for (size_t i = 0; i < a.groups.size(); i++) {
		CHECK(a.groups[i].autogroup_id == i + 1);
		CHECK(a.groups[i].path == "/autogroup-" + std::to_string(i + 1));
	}
	CHECK(a.of_task == std::vector<int>{3, 1, 0, 2});
}

TEST_CASE("with autogroup off, setsid changes nothing", "[autogroup]")
{
	const Workload plain = workload({hog("a"), hog("b1"), hog("b2")});
	Workload sessions = plain;
	sessions.tasks[0] = setsid(sessions.tasks[0], -5);
	const GroupRun p = run_groups(config("6.18.39", 250), plain, 200 * MS, true);
	const GroupRun s = run_groups(config("6.18.39", 250), sessions, 200 * MS, true);
	CHECK(s.rec.switches == p.rec.switches);
	Workload longer = sessions;
	longer.duration = MS;
	CHECK(Simulation(config("6.18.39", 250), longer).groups().empty());
}

TEST_CASE("autogroup runs on every preset, one CPU or several", "[autogroup]")
{
	const Workload wl = workload({hog("a")}, 10 * MS);
	for (const KernelPreset& p : kernel_presets()) {
		INFO(p.name);
		Config one = make_config(p, 250);
		one.autogroup = true;
		CHECK(Simulation(one, wl).groups().size() == 1);
		Config two = make_config(p, 250, 2);
		two.autogroup = true;
		CHECK(Simulation(two, wl).groups().size() == 1);
		CHECK(Simulation(make_config(p, 250), wl).groups().empty());  // off: flat as ever
	}
}

TEST_CASE("a cgroup named as an autogroup is refused with autogroup on", "[autogroup]")
{
	TaskSpec c = hog("c");
	c.taskgroup = "/autogroup-1/x";
	Workload wl = workload({c}, 10 * MS);
	wl.groups = {{"/autogroup-1", NICE_0_LOAD}, {"/autogroup-1/x", NICE_0_LOAD}};
	CHECK_THROWS_WITH(Simulation(autogroup_config("6.18.39"), wl), Contains("name of an autogroup"));
	CHECK_NOTHROW(Simulation(config("6.18.39", 250), wl));
}

TEST_CASE("a workload's autogroup_nice is checked: -20..19 and only with setsid", "[autogroup]")
{
	Workload wl = workload({setsid(hog("a"), 20)}, 10 * MS);
	CHECK_THROWS_WITH(Simulation(autogroup_config("6.18.39"), wl), Contains("autogroup_nice 20 outside -20..19"));
	wl.tasks[0].setsid = false;
	wl.tasks[0].autogroup_nice = -1;
	CHECK_THROWS_WITH(Simulation(config("6.18.39", 250), wl), Contains("without setsid"));
}

TEST_CASE("rt-app files give setsid and autogroup_nice at task level, and round-trip", "[autogroup][rtapp]")
{
	const Workload w = parse_rtapp(R"({"tasks": {"a": {"setsid": true, "autogroup_nice": -7, "run": -1},
		"b": {"instance": 2, "run": -1}, "c": {"setsid": false, "run": 10}}})",
				       "ag.json");
	REQUIRE(w.tasks.size() == 4);
	CHECK(w.tasks[0].setsid);
	CHECK(w.tasks[0].autogroup_nice == -7);
	CHECK_FALSE(w.tasks[1].setsid);
	CHECK_FALSE(w.tasks[3].setsid);
	CHECK(parse_rtapp(to_rtapp_json(w), "back.json") == w);
}

TEST_CASE("rt-app session keys are refused with file, field and value when wrong", "[autogroup][rtapp]")
{
	auto parse = [](const std::string& task) {
		return parse_rtapp(R"({"tasks": {"a": {)" + task + R"(, "run": 10}}})", "ag.json");
	};
	CHECK_THROWS_WITH(parse(R"("setsid": 1)"),
			  Contains("ag.json:1:") && Contains("tasks.a.setsid") && Contains("got 1"));
	CHECK_THROWS_WITH(parse(R"("setsid": true, "autogroup_nice": 20)"),
			  Contains("tasks.a.autogroup_nice") && Contains("20 is outside -20..19"));
	CHECK_THROWS_WITH(parse(R"("setsid": true, "autogroup_nice": -21)"), Contains("-21 is outside -20..19"));
	CHECK_THROWS_WITH(parse(R"("autogroup_nice": 3)"),
			  Contains("tasks.a.autogroup_nice") && Contains("3 without \"setsid\": true"));
	CHECK_THROWS_WITH(parse(R"("setsid": false, "autogroup_nice": 3)"), Contains("without \"setsid\": true"));
	CHECK_THROWS_WITH(parse(R"("setsid": true, "autogroup_nice": "x")"), Contains("tasks.a.autogroup_nice"));
}

TEST_CASE("a phase-level autogroup_nice (a write mid-run) is refused", "[autogroup][rtapp]")
{
	const std::string text = R"({"tasks": {"a": {"phases": {"p": {"autogroup_nice": 3, "run": 10}}}}})";
	CHECK_THROWS_WITH(parse_rtapp(text, "ag.json"),
			  Contains("tasks.a.phases.p.autogroup_nice") && Contains("not modelled"));
}

TEST_CASE("rt-app files give setsid in a phase, as a Setsid event after the phase's move, and round-trip",
	  "[autogroup][rtapp]")
{
	const Workload w = parse_rtapp(R"({"tasks": {"a": {"phases": {"p1": {"run": 100},
		"p2": {"taskgroup": "/", "setsid": true, "run": 200}, "p3": {"setsid": false, "run": 300}}}}})",
				       "ag.json");
	REQUIRE(w.tasks.size() == 1);
	const auto& ph = w.tasks[0].phases;
	REQUIRE(ph.size() == 3);
	CHECK(ph[0].events.size() == 1);
	REQUIRE(ph[1].events.size() == 3);
	CHECK(ph[1].events[0].kind == Event::Kind::MoveGroup);
	CHECK(ph[1].events[1].kind == Event::Kind::Setsid);
	CHECK(ph[1].events[2].kind == Event::Kind::Run);
	CHECK(ph[2].events.size() == 1);
	CHECK(parse_rtapp(to_rtapp_json(w), "back.json") == w);
	CHECK_THROWS_WITH(parse_rtapp(R"({"tasks": {"a": {"phases": {"p": {"setsid": 1, "run": 10}}}}})", "ag.json"),
			  Contains("tasks.a.phases.p.setsid") && Contains("got 1"));
}

namespace {

// a, b, c hog one CPU in the workload's session; after 50 ms of CPU time
// (150 ms in) c calls setsid() (once, or `calls` times).
Workload three_hogs_one_leaves(int calls = 1)
{
	std::vector<Event> c = {run(50 * MS)};
	for (int i = 0; i < calls; i++)
		c.push_back(Event{Event::Kind::Setsid, 0, -1, 0});
	c.push_back(run(RUN_FOREVER));
	return workload({hog("a"), hog("b"), task("c", c)});
}

}  // namespace

TEST_CASE("a setsid in a phase moves the task to its new session's autogroup", "[autogroup]")
{
	// 0-150 ms: one group, a third each (50 ms). Then autogroup-1 {a, b}
	// and autogroup-2 {c}, equal weights: c half of the 850 ms left, a and
	// b a quarter each. Within three ticks.
	const GroupRun r = run_groups(autogroup_config("6.18.39"), three_hogs_one_leaves(), 1000 * MS, true);
	REQUIRE(r.checked_ok());
	const u64 c = 50 * MS + 425 * MS, ab = 50 * MS + 425 * MS / 2;
	CHECK(r.runtime[2] + 12 * MS >= c);
	CHECK(r.runtime[2] <= c + 12 * MS);
	for (int i : {0, 1}) {
		CHECK(r.runtime[static_cast<size_t>(i)] + 12 * MS >= ab);
		CHECK(r.runtime[static_cast<size_t>(i)] <= ab + 12 * MS);
	}
	Workload wl = three_hogs_one_leaves();
	wl.duration = 400 * MS;
	Simulation sim(autogroup_config("6.18.39"), wl);
	REQUIRE(sim.autogroups().size() == 2);
	CHECK(sim.task_group_path(2) == "/autogroup-1");
	sim.run();
	CHECK(sim.task_group_path(2) == "/autogroup-2");
	CHECK(sim.task_group_path(0) == "/autogroup-1");
}

TEST_CASE("only a task's first setsid leads a session: the next ones fail and change nothing", "[autogroup]")
{
	const GroupRun once = run_groups(autogroup_config("6.18.39"), three_hogs_one_leaves(1), 300 * MS);
	const GroupRun thrice = run_groups(autogroup_config("6.18.39"), three_hogs_one_leaves(3), 300 * MS);
	CHECK(once.rec.switches == thrice.rec.switches);
	// a task that starts as a session leader makes no second session
	Workload leader = three_hogs_one_leaves();
	leader.tasks[2].setsid = true;
	CHECK(autogroup_sessions(leader).groups.size() == 2);
}

TEST_CASE("with autogroup off, a setsid in a phase changes nothing", "[autogroup]")
{
	Workload none = three_hogs_one_leaves(0);
	const GroupRun with = run_groups(config("6.18.39", 250), three_hogs_one_leaves(), 300 * MS);
	const GroupRun without = run_groups(config("6.18.39", 250), none, 300 * MS);
	CHECK(with.rec.switches == without.rec.switches);
}

TEST_CASE("a task in a cpu cgroup that calls setsid stays there, and a move to the root takes it to its session",
	  "[autogroup]")
{
	// c starts in /A, calls setsid() at 0 (a new session, but /A is not
	// the root cgroup: it stays), and moves to the root after 20 ms of CPU
	// time: it goes to its new session's autogroup, not the workload's.
	TaskSpec c = task("c", {Event{Event::Kind::Setsid, 0, -1, 0}, run(20 * MS),
				Event{Event::Kind::MoveGroup, 0, -1, 0}, run(RUN_FOREVER)});
	c.taskgroup = "/A";
	// d starts in /A too and moves to the root without a setsid: to the
	// workload's session's group.
	TaskSpec d = task("d", {run(20 * MS), Event{Event::Kind::MoveGroup, 0, -1, 0}, run(RUN_FOREVER)});
	d.taskgroup = "/A";
	Workload wl = workload({hog("a"), c, d}, 400 * MS);
	wl.groups = {{"/A", NICE_0_LOAD}};
	Simulation sim(autogroup_config("6.18.39"), wl);
	REQUIRE(sim.autogroups().size() == 2);
	sim.run();
	CHECK(sim.task_group_path(1) == "/autogroup-2");
	CHECK(sim.task_group_path(2) == "/autogroup-1");
	CHECK(run_groups(autogroup_config("6.18.39"), wl, 400 * MS, true).checked_ok());
}

TEST_CASE("autogroup ids: a phase's setsid sessions come after every task-level one", "[autogroup]")
{
	Workload wl = three_hogs_one_leaves();
	wl.tasks.push_back(setsid(hog("leader")));
	const Autogroups a = autogroup_sessions(wl);
	REQUIRE(a.groups.size() == 3);
	CHECK(a.session_of_task == std::vector<int>{0, 0, 0, 1});
	CHECK(a.setsid_group == std::vector<int>{-1, -1, 2, -1});
	CHECK(a.groups[2].path == "/autogroup-3");
}

TEST_CASE("the option --autogroup takes on or off, off by default", "[autogroup][cli]")
{
	cli::ModelOptions o;
	CHECK_FALSE(cli::build_config(o).autogroup);
	o.autogroup = "on";
	CHECK(cli::build_config(o).autogroup);
	CHECK(command_line_flags(cli::build_config(o)).find("--autogroup on") != std::string::npos);
	o.autogroup = "1";
	CHECK_THROWS_WITH(cli::build_config(o), Contains("--autogroup: '1' is not on or off"));
}
