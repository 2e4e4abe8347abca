// SPDX-License-Identifier: GPL-2.0-only
// The decision oracle (oracle/decision_oracle.hpp) in lockstep with the
// model: a second implementation of the per-event EEVDF rules, written from
// the kernel sources, must make every decision the model makes (issue 12).
// The property runs generated workloads; the TEST_CASEs each drive one kind
// of decision on every preset, and show the oracle catching the model's
// historical bugs and mutations on the workloads the bug × detector table
// gives it (props/bug_detectors.cpp).
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include "oracle/decision_oracle.hpp"
#include "props/bug_detectors.hpp"
#include "props/expectation_tests.hpp"
#include "props/gen.hpp"
#include "props/harness.hpp"
#include "props/properties.hpp"
#include "props/workload_dsl.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

struct Outcome {
	std::string error;  // the oracle refused the preset, or the workload failed
	bool agreed = false;
	std::string report;
	oracle::OracleCounters counters;
};

// Runs `wl` under `cfg` with the oracle attached; the report lists the first
// disagreement of every class.
Outcome run_oracle(const Config& cfg, const Workload& wl)
{
	Outcome out;
	try {
		oracle::DecisionOracle o(cfg);
		Simulation sim(cfg, wl);
		sim.add_observer(&o);
		sim.run();
		out.agreed = o.agreed();
		out.counters = o.counters();
		out.report = o.report();
		for (const oracle::Disagreement& d : o.classes())
			out.report += "\n  " + d.describe();
	} catch (const std::exception& e) {
		out.error = e.what();
	}
	return out;
}

// The replay of a disagreement: the rt-app file and the flags.
std::string replay(const std::string& name, const Config& cfg, const Workload& wl, const std::string& why)
{
	const std::string file = props::save_counterexample(name, cfg, wl, why);
	return why + "\ncounterexample: " + file + "\nreplay: eevdf sim " + file + " " + command_line_flags(cfg);
}

// The oracle runs `wl` under `cfg` (preset p), agrees with the model and
// compares something; a disagreement is saved as `file`-PRESET.
Outcome check_agrees(const KernelPreset& p, const Config& cfg, const Workload& wl, const std::string& file)
{
	const Outcome o = run_oracle(cfg, wl);
	INFO("preset " << p.name);
	INFO(o.error);
	REQUIRE(o.error.empty());
	INFO(replay(file + "-" + std::string(p.name), cfg, wl, o.report));
	CHECK(o.agreed);
	CHECK(o.counters.comparisons > 0);
	return o;
}

// Every preset at HZ=250 with its default features, `adjust` applied.
template <class Adjust>
void for_every_preset(const Workload& wl, Adjust&& adjust, const char* name)
{
	for (const KernelPreset& p : kernel_presets()) {
		Config cfg = make_config(p, 250);
		adjust(cfg);
		check_agrees(p, cfg, wl, std::string("oracle-") + name);
	}
}
void for_every_preset(const Workload& wl, const char* name)
{
	for_every_preset(wl, [](Config&) {}, name);
}

}  // namespace

// ---------------------------------------------------------------- the property

// The oracle follows released kernels: TTWU_QUEUE_DELAYED, the unmerged
// series' wake-up of delayed tasks (patch 11 dequeues a delayed wakee even
// on one CPU), is outside it.
TEST_CASE("the decision oracle agrees with the model on every event: any workload, preset, flags and knobs", "[props]")
{
	rc::prop("oracle agrees", props::decision_oracle_agrees());
}

TEST_CASE("the decision oracle agrees with the model on every event with task groups", "[props]")
{
	rc::prop("oracle agrees with groups", props::decision_oracle_agrees_with_groups());
}

// ---------------------------------------------------------------- single decisions

TEST_CASE("oracle: equal hogs forked together are picked and renewed alike", "[props]")
{
	for_every_preset(hogs_workload(3, 100 * MS), "hogs");
}

TEST_CASE("oracle: a task forked onto a busy CPU gets the version's first deadline", "[props]")
{
	const Workload w = workload(
		{task("hog", {run(RUN_FOREVER)}), delayed(task("child", {run(RUN_FOREVER)}), 1500 * US)}, 20 * MS);
	for_every_preset(w, "fork");
}

TEST_CASE("oracle: a woken sleeper is placed with its lag and may preempt", "[props]")
{
	const Workload w = workload({niced(task("hog", {run(RUN_FOREVER)}), -2),
				     niced(task("sleeper", {run(400 * US), sleep(3 * MS)}), 4),
				     delayed(niced(task("light", {run(100 * US), sleep(1100 * US)}), 10), 300 * US)},
				    100 * MS);
	for_every_preset(w, "wakeup");
}

TEST_CASE("oracle: a short-slice waker preempts a protected task (PREEMPT_SHORT)", "[props]")
{
	const Workload w =
		workload({with_slice(task("hog", {run(RUN_FOREVER)}), 20 * MS),
			  with_slice(delayed(task("short", {run(200 * US), sleep(2 * MS)}), 100 * US), 300 * US)},
			 100 * MS);
	for_every_preset(w, "preempt-short");
}

TEST_CASE("oracle: an ineligible sleeper is delayed and leaves at its pick", "[props]")
{
	const Workload w = workload({task("hog", {run(RUN_FOREVER)}), task("hog2", {run(RUN_FOREVER)}),
				     delayed(niced(task("burst", {run(2500 * US), sleep(400 * US)}), -5), 700 * US)},
				    100 * MS);
	for_every_preset(w, "delayed");
}

TEST_CASE("oracle: sched_yield() pushes the deadline or forfeits the request, per version", "[props]")
{
	const Workload w = workload({task("hog", {run(RUN_FOREVER)}),
				     niced(task("yielder", {run(300 * US), yield(), run(500 * US), sleep(1 * MS)}), 2)},
				    60 * MS);
	for_every_preset(w, "yield");
}

TEST_CASE("oracle: set_user_nice() on the running task reweights it per version", "[props]")
{
	const Workload w = workload(
		{task("hog", {run(RUN_FOREVER)}), task("niced", {run(1200 * US), set_nice(8), run(800 * US),
								 set_nice(-6), run(300 * US), sleep(600 * US)})},
		60 * MS);
	for_every_preset(w, "nice");
}

TEST_CASE("oracle: sched_setattr(sched_runtime) changes the slice per version", "[props]")
{
	const Workload w = workload(
		{task("hog", {run(RUN_FOREVER)}),
		 task("slicer", {set_slice(400 * US), run(1300 * US), set_slice(0), run(200 * US), sleep(900 * US)})},
		60 * MS);
	for_every_preset(w, "setattr");
}

TEST_CASE("oracle: HRTICK ends a slice between ticks", "[props]")
{
	for_every_preset(hogs_workload(3, 40 * MS), [](Config& c) { c.features.set(Feature::HRTICK, true); }, "hrtick");
}

TEST_CASE("oracle: NO_HZ_FULL stops the tick with one task queued", "[props]")
{
	const Workload w = workload(
		{task("hog", {run(RUN_FOREVER)}), delayed(task("periodic", {run(500 * US), sleep(9 * MS)}), 3 * MS)},
		60 * MS);
	for_every_preset(w, [](Config& c) { c.features.set(Feature::NO_HZ_FULL, true); }, "nohz-full");
}

// ---------------------------------------------------------------- single decisions with task groups

namespace {

TaskSpec in_group(TaskSpec t, std::string path)
{
	t.taskgroup = std::move(path);
	return t;
}

// `wl` with its groups declared (paths, parents first, with their shares),
// on every preset, with exact slice augments so that
// nothing is left undetermined. The oracle must agree and compare.
// `autogroup`: with --autogroup on (every task outside a cgroup in its
// session's group).
void for_every_group_preset(Workload wl, std::vector<GroupSpec> groups, const char* name, bool autogroup = false)
{
	wl.groups = std::move(groups);
	int presets = 0;
	for (const KernelPreset& p : kernel_presets()) {
		presets++;
		Config cfg = make_config(p, 250);
		cfg.exact_tree_augments = true;
		cfg.autogroup = autogroup;
		const Outcome o = check_agrees(p, cfg, wl, std::string("oracle-groups-") + name);
		CHECK(o.counters.augment_skipped == 0);
	}
	CHECK(presets == 10);  // 6.6, 6.12, 6.15, the six 6.18 presets, 7.1.5
}

Event set_shares(int group, u64 shares) { return Event{Event::Kind::SetShares, shares, group, 0}; }

}  // namespace

TEST_CASE("oracle: tasks in two groups are picked level by level", "[props]")
{
	const Workload w = workload({in_group(task("a", {run(RUN_FOREVER)}), "/A"),
				     in_group(task("b1", {run(RUN_FOREVER)}), "/B"),
				     in_group(task("b2", {run(RUN_FOREVER)}), "/B"), task("root", {run(RUN_FOREVER)})},
				    60 * MS);
	for_every_group_preset(w, {{"/A", 2 * NICE_0_LOAD}, {"/B", NICE_0_LOAD}}, "two-groups");
}

TEST_CASE("oracle: nested groups walk every level up and down", "[props]")
{
	const Workload w = workload({in_group(task("deep", {run(700 * US), sleep(1300 * US)}), "/A/B/C"),
				     in_group(task("mid", {run(RUN_FOREVER)}), "/A/B"),
				     in_group(niced(task("top", {run(2 * MS), sleep(3 * MS)}), 3), "/A"),
				     task("root", {run(RUN_FOREVER)})},
				    80 * MS);
	for_every_group_preset(w, {{"/A", NICE_0_LOAD}, {"/A/B", 3 * NICE_0_LOAD}, {"/A/B/C", NICE_0_LOAD / 2}},
			       "nested");
}

TEST_CASE("oracle: a sleeping task leaves its group as the next buddy", "[props]")
{
	// "s" sleeps while "h" keeps /A queued: /A's entity becomes the root's
	// next buddy, and stays it while h runs (the switch from s to h sets
	// nothing on the root). A short-slice root task waking then meets the
	// buddy in the pick that ignores protection: 6.18.33 .. 6.18.44 return
	// the buddy (no preemption), 7.x skip it (PICK_BUDDY only when
	// protecting), 6.18.0 .. 6.18.32 test it in pick_next_entity() only.
	const Workload w = workload({in_group(task("s", {run(300 * US), sleep(200 * US)}), "/A"),
				     in_group(task("h", {run(RUN_FOREVER)}), "/A"), task("r1", {run(RUN_FOREVER)}),
				     with_slice(task("short", {run(100 * US), sleep(1300 * US)}), 100 * US)},
				    60 * MS);
	for_every_group_preset(w, {{"/A", NICE_0_LOAD}}, "buddy");
}

TEST_CASE("oracle: a wake-up preempts by the entities curr and the wakee share a cfs_rq", "[props]")
{
	const Workload w =
		workload({in_group(task("hog", {run(RUN_FOREVER)}), "/A"),
			  in_group(with_slice(task("short", {run(150 * US), sleep(1700 * US)}), 200 * US), "/B"),
			  in_group(task("sib", {run(400 * US), sleep(900 * US)}), "/A")},
			 80 * MS);
	for_every_group_preset(w, {{"/A", NICE_0_LOAD}, {"/B", NICE_0_LOAD}}, "preempt");
}

TEST_CASE("oracle: a delayed group entity is dequeued at its pick", "[props]")
{
	// "burst" runs past its share and sleeps while ineligible: it is
	// delayed, its group's cfs_rq then holds no runnable task, and /A's
	// entity is delayed in turn on the root.
	const Workload w = workload({task("hog", {run(RUN_FOREVER)}), task("hog2", {run(RUN_FOREVER)}),
				     in_group(niced(task("burst", {run(2500 * US), sleep(400 * US)}), -5), "/A")},
				    100 * MS);
	for_every_group_preset(w, {{"/A", NICE_0_LOAD}}, "delayed-group");
}

TEST_CASE("oracle: a cpu.weight write reweights the queued group entity per version", "[props]")
{
	const Workload w = workload({in_group(task("a", {run(RUN_FOREVER)}), "/A"),
				     task("w", {run(1300 * US), set_shares(0, 4 * NICE_0_LOAD), run(2100 * US),
						set_shares(0, NICE_0_LOAD / 4), run(900 * US), sleep(1 * MS)})},
				    60 * MS);
	for_every_group_preset(w, {{"/A", NICE_0_LOAD}}, "cpu-weight");
}

TEST_CASE("oracle: a task moving between groups is re-queued on the new chain", "[props]")
{
	// rt-app's phase-level taskgroup: /A, then /B/C, then the root, each
	// move by the running task under sched_change, then rescheduled.
	const Event to_a{Event::Kind::MoveGroup, 0, 0, 0}, to_c{Event::Kind::MoveGroup, 0, 2, 0},
		to_root{Event::Kind::MoveGroup, 0, -1, 0};
	const Workload w = workload({phased("m", {Phase{"a", 1, {to_a, run(1300 * US), sleep(300 * US)}},
						  Phase{"c", 1, {to_c, run(900 * US)}}, Phase{"r", 1, {to_root, run(700 * US)}}}),
				     in_group(task("a", {run(RUN_FOREVER)}), "/A"),
				     in_group(task("c", {run(500 * US), sleep(800 * US)}), "/B/C")},
				    60 * MS);
	for_every_group_preset(w, {{"/A", NICE_0_LOAD}, {"/B", 2 * NICE_0_LOAD}, {"/B/C", NICE_0_LOAD}}, "move");
}

TEST_CASE("oracle: a setsid in a phase moves the task to its new session's autogroup", "[props]")
{
	// --autogroup on: s sleeps and runs beside two hogs in the workload's
	// session, then calls setsid(): its own autogroup from then on.
	const Event setsid{Event::Kind::Setsid, 0, -1, 0};
	const Workload w = workload({phased("s", {Phase{"in", 1, {run(1300 * US), sleep(300 * US)}},
						  Phase{"out", 1, {setsid, run(900 * US), sleep(500 * US), run(RUN_FOREVER)}}}),
				     task("a", {run(RUN_FOREVER)}), task("b", {run(600 * US), sleep(700 * US)})},
				    60 * MS);
	for_every_group_preset(w, {}, "setsid", true);
}

TEST_CASE("oracle: a cpu.idle write mid-run makes a group's entity idle and back", "[props]")
{
	const Event idle_on{Event::Kind::SetIdle, 0, 0, 1}, idle_off{Event::Kind::SetIdle, 0, 0, 0};
	const Workload w = workload({in_group(task("bg", {run(RUN_FOREVER)}), "/G"),
				     task("fg", {run(300 * US), sleep(2 * MS)}),
				     task("w", {run(3 * MS), idle_on, run(5 * MS), idle_off, sleep(4 * MS)})},
				    80 * MS);
	for_every_group_preset(w, {{"/G", 2 * NICE_0_LOAD}}, "idle-write");
}

TEST_CASE("oracle: an idle group's entity yields to any non-idle wakee", "[props]")
{
	GroupSpec idle{"/I", NICE_0_LOAD};
	idle.idle = true;
	const Workload w = workload({in_group(task("bg", {run(RUN_FOREVER)}), "/I"),
				     task("fg", {run(300 * US), sleep(2 * MS)})},
				    60 * MS);
	for_every_group_preset(w, {idle}, "idle-group");
}

TEST_CASE("oracle: the 6.18.0 and 6.18.y preset names follow 6.18.0 and 6.18.17", "[props]")
{
	CHECK(oracle::version_of("6.18") == oracle::Version::V6_18_0);
	CHECK(oracle::version_of("6.18.0") == oracle::Version::V6_18_0);
	CHECK(oracle::version_of("6.18.y") == oracle::Version::V6_18_17);
	CHECK_FALSE(oracle::version_of("6.19").has_value());
}

// ---------------------------------------------------------------- the oracle catches broken models

namespace {

// On every preset the oracle agrees with the correct model on the
// detector's workload, and disagrees once the bug is switched into the
// model, on at least one preset.
void oracle_disagrees(const props::Detector& d, const props::Expectation& e)
{
	const Workload wl = d.scenario.workload();
	bool caught = false;
	for (const KernelPreset& p : kernel_presets()) {
		Config good = make_config(p, d.scenario.hz);
		good.features.set(Feature::WAKEUP_PREEMPTION, d.scenario.wakeup_preemption);
		const Outcome base = run_oracle(good, wl);
		INFO("preset " << p.name << ": " << base.report);
		REQUIRE(base.error.empty());
		REQUIRE(base.agreed);
		Config bad = good;
		bad.bugs.set(e.bug);
		const Outcome o = run_oracle(bad, wl);
		caught = caught || (!o.agreed && o.error.empty());
	}
	CHECK(caught);
}

// Which workload catches which bug: the bug × detector table
// (props/bug_detectors.cpp).
const bool registered = props::register_expectation_tests(props::DetectorKind::Oracle, oracle_disagrees,
							  "[props][mutations]", CATCH_INTERNAL_LINEINFO);

}  // namespace
