// SPDX-License-Identifier: GPL-2.0-only
// Fork placement, the slow path of select_task_rq_fair()
// (sched_balance_find_dst_group() and its CPU choice, model/select_task_rq_fair.*):
// whole runs worked by hand (tests/select_helpers.hpp gives the
// conventions), then its rules on written statistics and on states built by
// running a workload.
#include <catch2/catch.hpp>

#include "model/select_task_rq_fair.hpp"
#include "select_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;
using namespace eevdf::test::select_cases;
using namespace eevdf::selection;

namespace {

// Scenario S: tests/select_helpers.hpp.
TEST_CASE("select: fork goes to the first idle group in ring order", "[select]")
{
	Run r(smp(4), scenario_s(), 5 * MS);
	r.sim.run_until(2 * MS);
	CHECK(r.where.fork_cpu(0) == 2u);
}

// ---------------------------------------------------------------------------
// Fork placement (the slow path).

TEST_CASE("select: fork prefers the equally idle group with less utilisation", "[select]")
{
	// 4 CPUs, one LLC. H0, H1 hogs pinned to 0 and 1; R pinned to 2 runs 2
	// and sleeps 100 (CPU 2 keeps R's blocked util_avg); W forks at 4.5 from
	// CPU 0. Groups from 0: {0} local (busy), {1} busy, {2} idle with util
	// u2 > 0, {3} idle with util 0. {2} beats {1} (one idle CPU), {3} ties it
	// on idle CPUs and has lower group_util (u2 > 0): idlest {3}; local has
	// no idle CPU: W forks onto 3, not onto the first idle CPU 2.
	Workload wl = workload({delayed(task("w", {run(1 * MS)}, 1), 4500 * US), pinned_hog("h0", 0),
				pinned_hog("h1", 1), pinned(task("r", {run(2 * MS), sleep(100 * MS)}, 1), {2})});
	Run r(smp(4), wl, 10 * MS);
	r.sim.run_until(4 * MS + 400 * US);
	REQUIRE(r.sim.rq(2).idle_cpu());
	REQUIRE(cpu_util_cfs(r.sim.rq(2).cfs.avg) > 0);
	REQUIRE(cpu_util_cfs(r.sim.rq(3).cfs.avg) == 0);
	r.sim.run_until(5 * MS);
	CHECK(r.where.fork_cpu(0) == 3u);
}

TEST_CASE("select: fork stays local when the idlest busy group is within imbalance_pct", "[select]")
{
	// 2 CPUs. Seven hogs pinned to CPU 0, six to CPU 1, all from 0; W forks
	// at 500 from CPU 0. Each group has more tasks than CPUs and runnable
	// far above capacity: both overloaded. avg_load = load * 1024 / 1024:
	// ~7168 local and ~6144 for {1} (an always runnable task attaches with
	// a full load_sum and keeps it: 1024 each). {1} is the idlest (the only
	// candidate). Same type: idlest 6144 >= local + 1024 * 17 / 100 = 7342
	// fails, but 100 * 7168 = 716800 <= 117 * 6144 = 718848: keep local,
	// CPU 0, though CPU 1 has one task fewer.
	std::vector<TaskSpec> t = {delayed(task("w", {run(1 * MS)}, 1), 500 * MS)};
	for (int i = 0; i < 7; i++)
		t.push_back(pinned_hog("a" + std::to_string(i), 0));
	for (int i = 0; i < 6; i++)
		t.push_back(pinned_hog("b" + std::to_string(i), 1));
	Run r(smp(2), workload(t), 501 * MS);
	r.sim.run_until(499 * MS);
	const u64 l0 = cpu_load(r.sim.rq(0).cfs.avg), l1 = cpu_load(r.sim.rq(1).cfs.avg);
	REQUIRE(100 * l0 <= 117 * l1);
	REQUIRE(l1 < l0);
	r.sim.run_until(501 * MS);
	CHECK(r.where.fork_cpu(0) == 0u);
}

TEST_CASE("select: fork moves to a busy group loaded less than local by more than imbalance_pct", "[select]")
{
	// Three hogs on CPU 0, two on CPU 1: both overloaded; 2048 < 3072 + 174
	// and 100 * 3072 = 307200 > 117 * 2048 = 239616: push to {1}; a group
	// of one CPU needs no CPU choice: W forks onto 1.
	std::vector<TaskSpec> t = {delayed(task("w", {run(1 * MS)}, 1), 500 * MS)};
	for (int i = 0; i < 3; i++)
		t.push_back(pinned_hog("a" + std::to_string(i), 0));
	for (int i = 0; i < 2; i++)
		t.push_back(pinned_hog("b" + std::to_string(i), 1));
	Run r(smp(2), workload(t), 501 * MS);
	r.sim.run_until(501 * MS);
	CHECK(r.where.fork_cpu(0) == 1u);
}

TEST_CASE("select: fork across LLCs takes the group with more idle CPUs and its most recently idled CPU", "[select]")
{
	// 4 CPUs, LLCs {0,1} and {2,3}: PKG (groups {0,1}, {2,3}) over MC.
	// H0 hog pinned to 0; R2 pinned to 2 runs 1 then sleeps; R3 pinned to 3
	// runs 2 then sleeps: idle_stamp(2) = 1 < idle_stamp(3) = 2. W forks at
	// 3 from CPU 0. PKG: local {0,1} has one idle CPU, {2,3} two: both
	// has_spare, push to {2,3}. sched_balance_find_dst_group_cpu(): CPU 2 is
	// the first idle CPU (any exit latency beats UINT_MAX), CPU 3 is in the
	// same idle state with a later idle_stamp: 3. Then the MC of CPU 3 (the
	// levels below PKG's weight 4): {3} local and {2} both idle with one
	// idle CPU each: stay. W forks onto 3.
	Workload wl = workload({delayed(task("w", {run(1 * MS)}, 1), 3 * MS), pinned_hog("h0", 0),
				pinned(task("r2", {run(1 * MS), sleep(100 * MS)}, 1), {2}),
				pinned(task("r3", {run(2 * MS), sleep(100 * MS)}, 1), {3})});
	Run r(smp(4, 2), wl, 5 * MS);
	r.sim.run_until(2500 * US);
	REQUIRE(r.sim.rq(2).idle_stamp == 1 * MS);
	REQUIRE(r.sim.rq(3).idle_stamp == 2 * MS);
	r.sim.run_until(4 * MS);
	CHECK(r.where.fork_cpu(0) == 3u);
}

// ---- the slow path's rules on written statistics

SgWakeupStats stats(u32 nr, u64 util, u64 runnable, u32 weight = 1)
{
	SgWakeupStats s;
	s.sum_nr_running = nr;
	s.group_util = util;
	s.group_runnable = runnable;
	s.group_weight = weight;
	s.group_capacity = 1024 * weight;
	return s;
}

TEST_CASE("select helpers: group_has_capacity thresholds at imbalance_pct 117", "[select]")
{
	// Fewer tasks than CPUs: spare whatever the signals say.
	CHECK(group_has_capacity(117, stats(0, 1024, 4096)));
	// capacity * 117 = 119808 < runnable * 100 from runnable 1199.
	CHECK(group_has_capacity(117, stats(1, 875, 1198)));
	CHECK_FALSE(group_has_capacity(117, stats(1, 875, 1199)));
	// capacity * 100 = 102400 > util * 117 up to util 875.
	CHECK_FALSE(group_has_capacity(117, stats(1, 876, 0)));
}

TEST_CASE("select helpers: group_is_overloaded needs more tasks than CPUs and a saturated signal", "[select]")
{
	CHECK_FALSE(group_is_overloaded(117, stats(1, 1024, 4096)));
	CHECK(group_is_overloaded(117, stats(2, 876, 0)));
	CHECK(group_is_overloaded(117, stats(2, 0, 1199)));
	CHECK_FALSE(group_is_overloaded(117, stats(2, 875, 1198)));
}

TEST_CASE("select helpers: group_classify orders overloaded, imbalanced, fully_busy, has_spare", "[select]")
{
	SchedGroupCapacity sgc;
	sgc.capacity = 1024;
	SchedGroup g;
	g.weight = 1;
	g.sgc = &sgc;
	CHECK(group_classify(117, g, stats(2, 900, 2000)) == GroupType::overloaded);
	CHECK(group_classify(117, g, stats(1, 900, 900)) == GroupType::fully_busy);
	CHECK(group_classify(117, g, stats(2, 875, 1198)) == GroupType::has_spare);
	sgc.imbalance = 1;
	CHECK(group_classify(117, g, stats(2, 900, 2000)) == GroupType::overloaded);
	CHECK(group_classify(117, g, stats(1, 100, 100)) == GroupType::imbalanced);
}

TEST_CASE("select helpers: update_pick_idlest prefers a lower type, then load or idle CPUs and util", "[select]")
{
	SgWakeupStats a, b;
	a.group_type = GroupType::fully_busy;
	b.group_type = GroupType::has_spare;
	CHECK(update_pick_idlest(a, b));
	CHECK_FALSE(update_pick_idlest(b, a));
	// Busy groups: strictly lower avg_load.
	b.group_type = GroupType::overloaded;
	a.group_type = GroupType::overloaded;
	a.avg_load = 2000;
	b.avg_load = 2000;
	CHECK_FALSE(update_pick_idlest(a, b));
	b.avg_load = 1999;
	CHECK(update_pick_idlest(a, b));
	// Spare: more idle CPUs, then strictly lower util.
	a = SgWakeupStats{};
	b = SgWakeupStats{};
	a.idle_cpus = 1;
	b.idle_cpus = 2;
	b.group_util = 500;
	CHECK(update_pick_idlest(a, b));
	b.idle_cpus = 1;
	a.group_util = 500;
	CHECK_FALSE(update_pick_idlest(a, b));
	b.group_util = 499;
	CHECK(update_pick_idlest(a, b));
	// imbalanced groups never replace each other.
	a.group_type = b.group_type = GroupType::imbalanced;
	CHECK_FALSE(update_pick_idlest(a, b));
}

TEST_CASE("select helpers: wake-up stats leave out p and count idle CPUs without it", "[select]")
{
	// C pinned to 0 from 0; W (allowed on 0 and 1) forks at 0.2: CPU 0 is
	// busy, so onto 1; it runs 1 and sleeps, its averages still
	// attached to CPU 1's. At 5 (jiffy 1, so task_h_load() refreshes h_load
	// = load_avg L): CPU 1 is idle and holds only W's blocked load.
	Workload wl = workload(
		{pinned_hog("c", 0), delayed(pinned(task("w", {run(1 * MS), sleep(100 * MS)}, 1), {0, 1}), 200 * US)});
	State st(smp(2), wl, 5 * MS);
	Simulation& sim = st.sim;
	const Task& w = sim.tasks()[1];
	REQUIRE(w.cpu == 1);
	REQUIRE(w.se.avg.last_update_time != 0);
	const SchedDomain& mc = *sim.topology().sd(0);
	const SchedGroup& g1 = sim.topology().group(1);
	const SgWakeupStats s = update_sg_wakeup_stats(sim, mc, g1, w);
	CHECK(s.sum_nr_running == 0);
	CHECK(s.idle_cpus == 1);
	CHECK(s.group_type == GroupType::has_spare);
	CHECK(s.avg_load == 0);
	// W sleeps: not queued, so task_running_on_cpu() is 0, but its load is
	// taken out: L - W.load_avg * L / (L + 1), floored at 0 (lsub_positive).
	// W's own average is its value at the dequeue (1.2: ~1024, attached
	// full) while the CPU's blocked average may have decayed since, so the
	// floor can be what decides.
	CHECK(task_running_on_cpu(1, w) == 0);
	const u64 l = cpu_load(sim.rq(1).cfs.avg);
	REQUIRE(l > 1);
	const u64 tl = w.se.avg.load_avg * l / (l + 1);
	CHECK(s.group_load == (tl < l ? l - tl : 0));
	// A wake-up on its way makes the CPU non-idle.
	sim.rq_mut(1).ttwu_pending = true;
	CHECK(update_sg_wakeup_stats(sim, mc, g1, w).idle_cpus == 0);
}

TEST_CASE("select helpers: 6.18.39 sums only the allowed CPUs of a group", "[select]")
{
	// 4 CPUs, LLCs {0,1} {2,3}; PKG groups of two. At 3: C on 0, D on 1
	// (from 2), 2 and 3 idle. A task allowed on {0, 2}: the PKG group {2,3}
	// has 2 idle CPUs over the whole span but 1 over the allowed part.
	Workload wl = two_hogs_and_sleeper();
	State st(smp(4, 2), wl, 3 * MS);
	Simulation& sim = st.sim;
	Task& w = sim.task_mut(2);
	w.cpus_ptr = CpuMask::of(0) | CpuMask::of(2);
	const SchedDomain& pkg = *sim.topology().sd(0)->parent;
	REQUIRE(pkg.groups.size() == 2);
	const SchedGroup& remote = sim.topology().group(pkg.groups[1]);
	REQUIRE(remote.span == (CpuMask::of(2) | CpuMask::of(3)));
	CHECK(update_sg_wakeup_stats(sim, pkg, remote, w, true).idle_cpus == 1);
	CHECK(update_sg_wakeup_stats(sim, pkg, remote, w, false).idle_cpus == 2);
	const SchedGroup& local = sim.topology().group(pkg.groups[0]);
	CHECK(update_sg_wakeup_stats(sim, pkg, local, w, true).sum_nr_running == 1);
	CHECK(update_sg_wakeup_stats(sim, pkg, local, w, false).sum_nr_running == 2);
}

TEST_CASE("select helpers: find_dst_group_cpu takes the latest idle, else the least loaded CPU", "[select]")
{
	// 4 CPUs, LLCs {0,1} {2,3}. At 3 CPUs 0, 1 busy (C, D), 2, 3 idle.
	State st(smp(4, 2), two_hogs_and_sleeper(), 3 * MS);
	Simulation& sim = st.sim;
	Task& w = sim.task_mut(2);
	w.cpus_ptr = CpuMask::first_n(4);
	const SchedDomain& pkg = *sim.topology().sd(0)->parent;
	const SchedGroup& g01 = sim.topology().group(pkg.groups[0]);
	const SchedGroup& g23 = sim.topology().group(pkg.groups[1]);
	sim.rq_mut(2).idle_stamp = 5;
	sim.rq_mut(3).idle_stamp = 5;
	CHECK(sched_balance_find_dst_group_cpu(sim, g23, w, 0) == 2u);  // tie: the first
	sim.rq_mut(3).idle_stamp = 6;
	CHECK(sched_balance_find_dst_group_cpu(sim, g23, w, 0) == 3u);
	sim.rq_mut(2).idle_stamp = 0;  // an idle CPU with no stamp is still taken first
	sim.rq_mut(3).idle_stamp = 0;
	CHECK(sched_balance_find_dst_group_cpu(sim, g23, w, 0) == 2u);
	// Both busy: the lower cpu_load; a tie keeps the first.
	sim.rq_mut(0).cfs.avg.avg.load_avg = 700;
	sim.rq_mut(1).cfs.avg.avg.load_avg = 600;
	CHECK(sched_balance_find_dst_group_cpu(sim, g01, w, 3) == 1u);
	sim.rq_mut(1).cfs.avg.avg.load_avg = 700;
	CHECK(sched_balance_find_dst_group_cpu(sim, g01, w, 3) == 0u);
	// Disallowed CPUs are not considered.
	w.cpus_ptr = CpuMask::of(1) | CpuMask::of(3);
	CHECK(sched_balance_find_dst_group_cpu(sim, g23, w, 0) == 3u);
}

}  // namespace
