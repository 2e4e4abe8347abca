// SPDX-License-Identifier: GPL-2.0-only
// Task groups on several CPUs (issue 36, stage 2): a group's entity on each
// CPU weighs calc_group_shares() of the group's load there, the balancer
// moves a grouped task by its task_h_load(), and a task that changes CPU
// queues below its group's entity of the new CPU.
//
// The expectations follow from the kernel's formulas, not from the model's
// code. A nice-0 hog that never sleeps has load_avg -> 1024 (its load_sum
// tends to the divider); a group cfs_rq holding only such hogs has
// load_avg -> 1024 x their count, and calc_group_shares() gives the
// group's entity on CPU i
//
//   tg->shares * L_i / (tg->load_avg - contrib_i + L_i)  ~  tg->shares * L_i / Σ_j L_j
//
// within the 1/64 by which update_tg_load_avg() lets a contribution go stale.
#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "group_helpers.hpp"
#include "io/rtapp.hpp"
#include "model/check.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {


TaskSpec on_cpu(TaskSpec t, u32 cpu) { return pinned(std::move(t), {cpu}); }

Config two_cpus(const char* preset) { return make_config(*find_preset(preset), 250, 2); }

// A CPU's leaf cfs_rq list front to back (the kernel's head->next first).
std::vector<const CfsRq*> leaf_list(const Simulation& sim, u32 cpu)
{
	std::vector<const CfsRq*> list;
	for (const CfsRq* q = sim.cfs_rq(cpu).leaf_first; q; q = q->leaf_next)
		list.push_back(q);
	return list;
}

// Runs `wl` for `d` under the invariant checker and hands back the state.
struct SmpRun {
	std::unique_ptr<Simulation> sim;
	InvariantChecker checker;
};

void run_checked(SmpRun& r, const Config& cfg, Workload wl, u64 d)
{
	wl.duration = d;
	r.sim = std::make_unique<Simulation>(cfg, wl);
	r.sim->add_observer(&r.checker);
	r.sim->run();
}

double share_of(const Simulation& sim, int task, u64 d)
{
	return static_cast<double>(sim.tasks()[static_cast<size_t>(task)].se.sum_exec_runtime) / static_cast<double>(d);
}

}  // namespace

// /A has a hog on each CPU, /B one hog on CPU 0. A's load is split evenly,
// so A.se weighs tg->shares / 2 on each CPU, B.se all of tg->shares on CPU
// 0: there a0 gets 1/3 and b 2/3, while a1 has CPU 1 alone. Flat, a0 and b
// would halve CPU 0.
TEST_CASE("a group split over two CPUs weighs half its shares on each", "[groups][smp]")
{
	for (const char* preset : {"6.18.39", "7.1.5"}) {
		INFO(preset);
		Workload wl = workload({on_cpu(in_group(hog("a0"), "/A"), 0), on_cpu(in_group(hog("a1"), "/A"), 1),
					on_cpu(in_group(hog("b"), "/B"), 0)});
		wl.groups = {{"/A", NICE_0_LOAD}, {"/B", NICE_0_LOAD}};
		SmpRun r;
		const u64 d = 4000 * MS;
		run_checked(r, two_cpus(preset), wl, d);
		const TaskGroup& a = r.sim->groups()[0];
		const TaskGroup& b = r.sim->groups()[1];
		const double half = static_cast<double>(NICE_0_LOAD) / 2;
		CHECK(static_cast<double>(a.se[0].load.weight) == Approx(half).epsilon(1.0 / 64));
		CHECK(static_cast<double>(a.se[1].load.weight) == Approx(half).epsilon(1.0 / 64));
		CHECK(b.se[0].load.weight == NICE_0_LOAD);  // all of B's load is on CPU 0
		CHECK(share_of(*r.sim, 0, d) == Approx(1.0 / 3).margin(0.01));
		CHECK(share_of(*r.sim, 2, d) == Approx(2.0 / 3).margin(0.01));
		CHECK(share_of(*r.sim, 1, d) == Approx(1.0).margin(0.001));
	}
}

TEST_CASE("without groups the same three hogs halve CPU 0", "[groups][smp]")
{
	Workload wl = workload({on_cpu(hog("a0"), 0), on_cpu(hog("a1"), 1), on_cpu(hog("b"), 0)});
	SmpRun r;
	const u64 d = 4000 * MS;
	run_checked(r, two_cpus("6.18.39"), wl, d);
	CHECK(share_of(*r.sim, 0, d) == Approx(0.5).margin(0.01));
	CHECK(share_of(*r.sim, 2, d) == Approx(0.5).margin(0.01));
}

// The balancer balances root load, and a grouped task carries only its
// task_h_load(). /A's three hogs and /B's one hog, unpinned, end with A's
// three on one CPU and b alone on the other: there each CPU's root load is
// one group entity of full shares (1024 each), balanced. A 2 + 2 split
// would be 2/3 of A's shares against 1/3 plus B's (683 vs 1365), and the
// imbalance (341) is exactly the moved hog's task_h_load(), so it moves.
// Flat, the four hogs split 2 + 2 (design note golden 9).
TEST_CASE("the balancer moves grouped hogs by their task_h_load: three share a CPU, one has the other",
	  "[groups][smp]")
{
	for (const char* preset : {"6.18.39", "7.1.5"}) {
		INFO(preset);
		Workload wl = workload({in_group(hog("a0"), "/A"), in_group(hog("a1"), "/A"), in_group(hog("a2"), "/A"),
					in_group(hog("b"), "/B")});
		wl.groups = {{"/A", NICE_0_LOAD}, {"/B", NICE_0_LOAD}};
		SmpRun r;
		const u64 d = 4000 * MS;
		run_checked(r, two_cpus(preset), wl, d);
		const auto& t = r.sim->tasks();
		CHECK(t[0].cpu == t[1].cpu);
		CHECK(t[1].cpu == t[2].cpu);
		CHECK(t[3].cpu != t[0].cpu);
		CHECK(share_of(*r.sim, 3, d) == Approx(1.0).margin(0.01));
		for (int i = 0; i < 3; i++)
			CHECK(share_of(*r.sim, i, d) == Approx(1.0 / 3).margin(0.01));
	}
}

TEST_CASE("without groups the balancer splits four hogs two and two", "[groups][smp]")
{
	Workload wl = workload({hog("a0"), hog("a1"), hog("a2"), hog("b")});
	SmpRun r;
	const u64 d = 4000 * MS;
	run_checked(r, two_cpus("6.18.39"), wl, d);
	for (int i = 0; i < 4; i++)
		CHECK(share_of(*r.sim, i, d) == Approx(0.5).margin(0.01));
}

// set_task_rq(): after any migration a grouped task's entity sits below its
// group's entity of the CPU it is on, and that CPU's group cfs_rq holds it.
TEST_CASE("a grouped task that changes CPU queues below its group's entity there", "[groups][smp]")
{
	TaskSpec s = in_group(task("s", {run(3 * MS), sleep(2 * MS)}), "/A");
	Workload wl = workload({s, in_group(hog("a"), "/A"), in_group(hog("b"), "/B"), hog("r")});
	wl.groups = {{"/A", NICE_0_LOAD}, {"/B", NICE_0_LOAD}};
	SmpRun r;
	run_checked(r, two_cpus("6.18.39"), wl, 2000 * MS);
	u64 migrations = 0;
	for (const Task& t : r.sim->tasks()) {
		migrations += t.nr_migrations;
		if (t.se.parent) {
			const CfsRq* q = t.se.parent->my_q;
			CHECK(t.se.parent == &q->tg->se[t.cpu]);
		}
	}
	CHECK(migrations > 0);  // the case happened
}

// Found by the SMP group property (a 'resched' rule false alarm, twice):
// entity_tick() decides in update_curr() and only then reweights the group's
// entity (update_cfs_group(): its share moved with the loads), and on 6.18.0
// the reweight's saved lag overwrites vprot (they share storage), so the
// entity the tick kept looks unprotected afterwards, as it would in the
// kernel. And a group entity charged up to the tick's instant by another
// update_curr() is charged nothing by the tick, which then decides nothing.
TEST_CASE("regression: the checker does not expect a resched the tick never decided", "[groups][smp]")
{
	const std::string file =
#ifdef EEVDF_TEST_DATA_DIR
		std::string(EEVDF_TEST_DATA_DIR) + "/regress/smp-groups-resched-at-tick.json";
#else
		(std::filesystem::path(__FILE__).parent_path() / "data" / "regress" / "smp-groups-resched-at-tick.json")
			.string();
#endif
	Config cfg = make_config(*find_preset("6.18"), 1000, 2);
	cfg.skew_tick = true;
	cfg.knobs.balance_cost = 0;
	for (Feature f : {Feature::PLACE_LAG, Feature::PLACE_DEADLINE_INITIAL, Feature::PLACE_REL_DEADLINE,
			  Feature::RUN_TO_PARITY, Feature::PREEMPT_SHORT, Feature::DELAY_DEQUEUE, Feature::DELAY_ZERO,
			  Feature::WAKEUP_PREEMPTION, Feature::TTWU_QUEUE, Feature::SIS_UTIL, Feature::WA_IDLE,
			  Feature::WA_WEIGHT, Feature::WA_BIAS, Feature::UTIL_EST})
		cfg.features.set(f, false);
	for (Feature f : {Feature::HRTICK, Feature::NO_HZ_FULL, Feature::TTWU_QUEUE_DELAYED})
		cfg.features.set(f, true);
	SmpRun r;
	CHECK_NOTHROW(run_checked(r, cfg, load_rtapp_file(file), 100 * MS));
}

// Every group has an entity and a cfs_rq on every CPU: the product is
// bounded (MAX_GROUP_ENTITIES) before anything is allocated.
TEST_CASE("groups times CPUs beyond the limit are refused with the count", "[groups][smp]")
{
	Workload wl = workload({hog("a")});
	for (int i = 0; i < 2000; i++)
		wl.groups.push_back({"/g" + std::to_string(i), NICE_0_LOAD});
	wl.duration = 10 * MS;
	CHECK_THROWS_WITH(Simulation(make_config(*find_preset("6.18.39"), 250, 64), wl),
			  Catch::Contains("2000 groups on 64 CPUs make 128000 group entities, at most 65536"));
	CHECK_NOTHROW(Simulation(make_config(*find_preset("6.18.39"), 250, 32), wl));
}

// The leaf cfs_rq list: /A's cfs_rq on CPU 0 joins it when its task first
// queues there, stays while the task's blocked load decays, leaves it once
// __update_blocked_fair() finds every sum 0, and joins again at the next
// enqueue. A new task starts at its full weight (init_entity_runnable_
// average()), so the cfs_rq's load_sum is near 1024 x 47742 ~ 2^25.5 when it
// sleeps, which decay_load() halves every 32 periods: 0 after ~26 x 32
// periods, ~0.85 s.
// A root hog on CPU 0 keeps its periodic balance (and blocked ageing)
// going; /B never has a task on CPU 0 and is never on its list.
TEST_CASE("a group's cfs_rq is on the leaf list from its first enqueue until fully decayed", "[groups][smp]")
{
	Workload wl = workload({on_cpu(in_group(task("a", {run(5 * MS), sleep(1000 * MS), run(5 * MS), sleep(10000 * MS)}), "/A"), 0),
				on_cpu(in_group(hog("b"), "/B"), 1), delayed(on_cpu(hog("r"), 0), 50 * MS)});
	wl.groups = {{"/A", NICE_0_LOAD}, {"/B", NICE_0_LOAD}};
	wl.duration = 1200 * MS;
	for (const char* preset : {"6.18.39", "7.1.5"}) {
		CAPTURE(preset);
		Simulation sim(two_cpus(preset), wl);
		InvariantChecker checker;
		sim.add_observer(&checker);
		const CfsRq& a0 = sim.groups()[0].cfs_rq[0];
		const CfsRq& b0 = sim.groups()[1].cfs_rq[0];
		sim.run_until(2 * MS);
		CHECK(a0.on_list);
		sim.run_until(100 * MS);  // a sleeps, its load blocked on /A's cfs_rq
		CHECK(a0.nr_queued == 0);
		CHECK(a0.avg.avg.load_sum > 0);
		CHECK(a0.on_list);
		sim.run_until(900 * MS);
		CHECK(a0.avg.avg.load_sum == 0);
		CHECK(a0.tg_load_avg_contrib == 0);
		CHECK_FALSE(a0.on_list);
		CHECK(leaf_list(sim, 0) == std::vector<const CfsRq*>{&sim.cfs_rq(0)});  // r keeps the root queued
		sim.run_until(1010 * MS);  // a runs again
		CHECK(a0.on_list);
		CHECK_FALSE(b0.on_list);
		sim.run();
	}
}

// An idle CPU's blocked load is aged (by the nohz balancer) only while
// cfs_rq_has_blocked() sees load_avg or util_avg: once both round to 0
// the sums left below one divider stay, and so does the cfs_rq on the
// list, until the CPU's next update -- as in the kernel.
TEST_CASE("an idle CPU stops ageing a group once its averages round to 0, leaving it listed", "[groups][smp]")
{
	Workload wl = workload({on_cpu(in_group(task("a", {run(5 * MS), sleep(10000 * MS)}), "/A"), 0),
				on_cpu(in_group(hog("b"), "/B"), 1)});
	wl.groups = {{"/A", NICE_0_LOAD}, {"/B", NICE_0_LOAD}};
	wl.duration = 1200 * MS;
	Simulation sim(two_cpus("6.18.39"), wl);
	InvariantChecker checker;
	sim.add_observer(&checker);
	sim.run();
	const CfsRq& a0 = sim.groups()[0].cfs_rq[0];
	CHECK(a0.avg.avg.load_avg == 0);
	CHECK(a0.avg.avg.util_avg == 0);
	CHECK(a0.avg.avg.load_sum > 0);
	CHECK(a0.on_list);
}


// Two hogs pinned to CPU 0, in `first` from 0 and in `second` from 1 ms,
// and a root hog on CPU 1, for 20 ms: the leaf list order tests.
Workload joins_on_cpu0(const char* first, const char* second, std::vector<GroupSpec> groups)
{
	Workload wl = workload({on_cpu(in_group(hog("f"), first), 0), delayed(on_cpu(in_group(hog("s"), second), 0), 1 * MS),
				on_cpu(hog("r"), 1)});
	wl.groups = std::move(groups);
	wl.duration = 20 * MS;
	return wl;
}

// list_add_leaf_cfs_rq()'s order: the first hog's enqueue builds the
// branch /A/Y, /A (the root not listed yet: each grows at
// tmp_alone_branch), then the root at the tail; the second's /A/X joins
// just before its listed parent /A. So the
// siblings are in the order they joined, not by group id (/A/X was
// declared after /A/Y here, and joined after it).
TEST_CASE("the leaf list keeps the kernel's order: a new child just before its listed parent", "[groups][smp]")
{
	Simulation sim(two_cpus("6.18.39"),
		       joins_on_cpu0("/A/Y", "/A/X", {{"/A", NICE_0_LOAD}, {"/A/Y", NICE_0_LOAD}, {"/A/X", NICE_0_LOAD}}));
	InvariantChecker checker;
	sim.add_observer(&checker);
	const CfsRq* a = &sim.groups()[0].cfs_rq[0];
	const CfsRq* y = &sim.groups()[1].cfs_rq[0];
	const CfsRq* x = &sim.groups()[2].cfs_rq[0];
	const CfsRq* root = &sim.cfs_rq(0);
	sim.run_until(500 * US);
	CHECK(leaf_list(sim, 0) == std::vector<const CfsRq*>{y, a, root});
	sim.run_until(2 * MS);
	CHECK(leaf_list(sim, 0) == std::vector<const CfsRq*>{y, x, a, root});
	sim.run();
}

// The kernel's order is not always children-just-before-parents: with /P
// listed (the first hog in /P/C), the second's first enqueue grows /P/E/D at tmp_alone_branch,
// the head, so at the front, and then /P/E joins just before its listed
// parent /P, after /P/C. /P/E/D ends up apart from its parent, and /P/E's
// child_cfs_rq_on_list() sees /P/C, no child of it. The model keeps this.
TEST_CASE("a branch that connects to a listed ancestor leaves its leaf at the front", "[groups][smp]")
{
	Simulation sim(two_cpus("6.18.39"), joins_on_cpu0("/P/C", "/P/E/D",
							  {{"/P", NICE_0_LOAD}, {"/P/C", NICE_0_LOAD}, {"/P/E", NICE_0_LOAD},
							   {"/P/E/D", NICE_0_LOAD}}));
	InvariantChecker checker;
	sim.add_observer(&checker);
	const CfsRq* p = &sim.groups()[0].cfs_rq[0];
	const CfsRq* c = &sim.groups()[1].cfs_rq[0];
	const CfsRq* e = &sim.groups()[2].cfs_rq[0];
	const CfsRq* d = &sim.groups()[3].cfs_rq[0];
	sim.run_until(500 * US);
	CHECK(leaf_list(sim, 0) == std::vector<const CfsRq*>{c, p, &sim.cfs_rq(0)});
	sim.run_until(2 * MS);
	CHECK(leaf_list(sim, 0) == std::vector<const CfsRq*>{d, c, e, p, &sim.cfs_rq(0)});
	CHECK_FALSE(e->child_cfs_rq_on_list());
	CHECK(p->child_cfs_rq_on_list());
	sim.run();
}

namespace {
// At the first event from `at` on, behind the model's back: unlinks /A's
// cfs_rq on CPU 0 from the leaf list, or (`leave_branch`) leaves
// tmp_alone_branch pointing at /A's cfs_rq, as an enqueue that did not
// connect its branch would.
struct UnlinkLeaf : Observer {
	u64 at;
	bool leave_branch;
	u64 done_at = 0;
	UnlinkLeaf(u64 at, bool leave_branch) : at(at), leave_branch(leave_branch) {}
	void on_event(const Simulation& sim, u64 t) override
	{
		if (t < at || done_at)
			return;
		CfsRq& a = const_cast<CfsRq&>(sim.groups()[0].cfs_rq[0]);
		if (leave_branch)
			const_cast<CfsRq&>(sim.cfs_rq(0)).tmp_alone_branch = &a;
		else
			a.list_del_leaf_cfs_rq();
		done_at = t;
	}
};
}  // namespace

TEST_CASE("the checker sees a queued group's cfs_rq off the leaf list, or a branch left unconnected", "[groups][smp]")
{
	const bool leave_branch = GENERATE(false, true);
	Workload wl = workload({on_cpu(in_group(hog("a"), "/A"), 0), on_cpu(hog("r"), 1)});
	wl.groups = {{"/A", NICE_0_LOAD}};
	wl.duration = 20 * MS;
	Simulation sim(two_cpus("6.18.39"), wl);
	UnlinkLeaf corrupt(5 * MS, leave_branch);
	InvariantChecker checker;
	sim.add_observer(&corrupt);  // before the checker: it sees the damage in the same event
	sim.add_observer(&checker);
	try {
		sim.run();
		FAIL("the damaged leaf list went unseen");
	} catch (const InvariantViolation& v) {
		CHECK(v.failure.invariant == "hierarchy");
		CHECK(v.failure.t == corrupt.done_at);
		CHECK(v.failure.detail.find(leave_branch ? "unconnected" : "not on the leaf list") != std::string::npos);
	}
}
