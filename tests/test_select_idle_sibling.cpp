// SPDX-License-Identifier: GPL-2.0-only
// select_idle_sibling() and select_idle_cpu() (model/select_task_rq_fair.*):
// where a wake-up lands when its target is busy: an idle prev, the CPU used
// before it, or an idle CPU of the LLC found by a scan limited by SIS_UTIL.
// Whole runs worked by hand (tests/select_helpers.hpp gives the
// conventions), then the helpers on states built by running a workload.
#include <catch2/catch.hpp>

#include "model/select_task_rq_fair.hpp"
#include "select_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;
using namespace eevdf::test::select_cases;
using namespace eevdf::selection;

namespace {

// ---------------------------------------------------------------------------
// Scenario T (timer wake-up on a busy CPU), 2 CPUs, one LLC (MC only):
//   task 0 W: forks at 0, runs 1, sleeps 10 (timer on CPU 0), runs 1, exits;
//   task 1 H: hog pinned to CPU 0 from 2.
// Fork of W at 0 from CPU 0: all idle; MC groups {0} (local) and {1} are
// both has_spare with one idle CPU, local.idle_cpus >= idlest.idle_cpus, so
// sched_balance_find_dst_group() returns NULL and W stays on CPU 0. It
// sleeps alone at 1 (dequeued). At 11 the timer fires on CPU 0, current = H:
// record_wakee on H; wake_wide: flips (1, 0), 0 < llc_size 2: not wide;
// want_affine. MC has SD_WAKE_AFFINE and spans prev = this = 0, so no
// wake_affine(); new_cpu = 0. select_idle_sibling(W, 0, 0): CPU 0 busy,
// prev == target, recent_used_cpu = 0 (set at fork) == prev. select_idle_cpu:
// nr = nr_idle_scan + 1; scan from CPU 1.
Workload scenario_t()
{
	return workload({task("w", {run(1 * MS), sleep(10 * MS), run(1 * MS)}, 1), pinned_hog("h", 0, 2 * MS)});
}

TEST_CASE("select: a timer wake-up on a busy CPU moves to an idle CPU found by the LLC scan", "[select]")
{
	// nr_idle_scan = 1: nr = 2; CPU 1: --nr = 1 > 0 and idle: W goes there.
	Run r(smp(2), scenario_t(), 20 * MS);
	r.sim.run_until(10 * MS + 500 * US);
	REQUIRE(r.sim.tasks()[0].cpu == 0);
	REQUIRE(r.rec.delayed_blocks.empty());
	r.llc_shared(0).nr_idle_scan = 1;
	r.sim.run_until(11 * MS + 1);
	CHECK(r.where.cpu_at(0, 11 * MS) == 1u);
	CHECK(r.where.moves_of(0) == 1);
	CHECK(r.sim.tasks()[0].cpu == 1);
}

TEST_CASE("select: SIS_UTIL with nr_idle_scan 0 scans nothing and keeps the busy target", "[select]")
{
	// nr = 0 + 1 == 1: select_idle_cpu() returns -1 at once; W stays on
	// CPU 0 behind H although CPU 1 is idle.
	Run r(smp(2), scenario_t(), 20 * MS);
	r.sim.run_until(10 * MS + 500 * US);
	r.llc_shared(0).nr_idle_scan = 0;
	REQUIRE(r.sim.rq(1).idle_cpu());
	r.sim.run_until(11 * MS + 1);
	CHECK(r.where.cpu_at(0, 11 * MS) == 0u);
	CHECK(r.where.moves_of(0) == 0);
}

TEST_CASE("select: without SIS_UTIL the scan is unlimited whatever nr_idle_scan says", "[select]")
{
	// nr = INT_MAX: CPU 1 is examined and idle.
	Config c = smp(2);
	c.features.set(Feature::SIS_UTIL, false);
	Run r(c, scenario_t(), 20 * MS);
	r.sim.run_until(10 * MS + 500 * US);
	r.llc_shared(0).nr_idle_scan = 0;
	r.sim.run_until(11 * MS + 1);
	CHECK(r.where.cpu_at(0, 11 * MS) == 1u);
}

TEST_CASE("select: a task pinned to its CPU stays there whatever is idle", "[select]")
{
	// nr_cpus_allowed == 1: select_task_rq() takes cpumask_any() and never
	// asks the fair class; W (pinned to 0) waits behind H with CPU 1 idle and
	// the scan enabled.
	Workload wl = scenario_t();
	wl.tasks[0].cpus = {0};
	Run r(smp(2), wl, 20 * MS);
	r.sim.run_until(10 * MS + 500 * US);
	r.llc_shared(0).nr_idle_scan = 1;
	r.sim.run_until(11 * MS + 1);
	CHECK(r.where.cpu_at(0, 11 * MS) == 0u);
	CHECK(r.where.moves_of(0) == 0);
}

TEST_CASE("select: without a shared LLC the fast path returns the busy target", "[select]")
{
	// llc_size 1: MC spans one CPU and degenerates, PKG is the only domain
	// (SD_WAKE_AFFINE, no SD_SHARE_LLC): sd_llc is NULL, cpus_share_cache(0, 1)
	// is false, sd_llc_size is 1. Timer wake-up of W on CPU 0 (this = prev):
	// want_affine, PKG spans prev, no wake_affine(); select_idle_sibling():
	// CPU 0 busy, recent_used_cpu == prev, no sd_llc: return target 0.
	Run r(smp(2, 1), scenario_t(), 20 * MS);
	r.sim.run_until(10 * MS + 500 * US);
	REQUIRE(r.sim.topology().sd_llc(0) == nullptr);
	r.sim.run_until(11 * MS + 1);
	CHECK(r.where.cpu_at(0, 11 * MS) == 0u);
}

// Scenario S: tests/select_helpers.hpp.
TEST_CASE("select: the idle scan wraps past the last CPU to find an idle one", "[select]")
{
	// nr_idle_scan = 3: nr = 4; CPU 3: nr 3, busy; CPU 0: nr 2, busy; CPU 1:
	// nr 1 > 0, idle: W goes to 1, below its target.
	Run r(smp(4), scenario_s(), 20 * MS);
	r.sim.run_until(10 * MS + 500 * US);
	REQUIRE(r.sim.tasks()[0].cpu == 2);
	REQUIRE(r.sim.rq(1).idle_cpu());
	r.llc_shared(2).nr_idle_scan = 3;
	r.sim.run_until(11500 * US + 1);
	CHECK(r.where.cpu_at(0, 11500 * US) == 1u);
}

TEST_CASE("select: the idle scan examines at most nr_idle_scan CPUs", "[select]")
{
	// nr_idle_scan = 2: nr = 3; CPU 3: nr 2, busy; CPU 0: nr 1, busy; CPU 1:
	// --nr = 0 stops the scan before looking: -1, so target 2.
	Run r(smp(4), scenario_s(), 20 * MS);
	r.sim.run_until(10 * MS + 500 * US);
	r.llc_shared(2).nr_idle_scan = 2;
	r.sim.run_until(11500 * US + 1);
	CHECK(r.where.cpu_at(0, 11500 * US) == 2u);
}

TEST_CASE("select: affinity limits the idle scan to the allowed CPUs", "[select]")
{
	// W allowed on {0, 2, 3} only: the fork is as above (2). At 11.5 the scan
	// set is {0, 2, 3}: 3 busy, 0 busy, 2 (target) busy: no idle CPU although
	// CPU 1 is idle and nr_idle_scan would allow every CPU.
	Workload wl = scenario_s();
	wl.tasks[0].cpus = {0, 2, 3};
	Run r(smp(4), wl, 20 * MS);
	r.sim.run_until(10 * MS + 500 * US);
	REQUIRE(r.sim.tasks()[0].cpu == 2);
	r.llc_shared(2).nr_idle_scan = 4;
	r.sim.run_until(11500 * US + 1);
	CHECK(r.where.cpu_at(0, 11500 * US) == 2u);
}

// ---------------------------------------------------------------------------
// Scenario R (recent_used_cpu), 4 CPUs, one LLC: as S but H0 runs only 5
// (CPU 0 idle from 5), H1 is a hog on 1 and CPU 3 stays idle (no H3).
// Fork at 1: CPUs 0, 1 busy, 2, 3 idle: onto 2 as in S; recent_used_cpu = 0.
// At 11.5 on CPU 2 (busy, H2): target = prev = 2 busy; recent_used_cpu 0 !=
// prev, != target, shares the LLC, is idle and allowed: returned before any
// scan, although the scan (from CPU 3) would have found 3.
TEST_CASE("select: the CPU used before prev is taken when idle, ahead of the scan", "[select]")
{
	Workload wl = workload({delayed(task("w", {run(1 * MS), sleep(9500 * US), run(1 * MS)}, 1), 1 * MS),
				pinned_hog("h0", 0, 0, 5 * MS), pinned_hog("h1", 1), pinned_hog("h2", 2, 3 * MS)});
	Run r(smp(4), wl, 20 * MS);
	r.sim.run_until(10 * MS + 500 * US);
	REQUIRE(r.sim.tasks()[0].cpu == 2);
	REQUIRE(r.sim.tasks()[0].recent_used_cpu == 0);
	REQUIRE(r.sim.rq(0).idle_cpu());
	REQUIRE(r.sim.rq(3).idle_cpu());
	r.llc_shared(2).nr_idle_scan = 3;
	r.sim.run_until(11500 * US + 1);
	CHECK(r.where.cpu_at(0, 11500 * US) == 0u);
	// select_idle_sibling() stored prev before returning.
	CHECK(r.sim.tasks()[0].recent_used_cpu == 2);
}

// ---------------------------------------------------------------------------
// The helpers on states built by running two_hogs_and_sleeper() (and, where
// said, by writing the state).

TEST_CASE("select helpers: available_idle_cpu is false while a wake-up is pending", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 1500 * US);
	Simulation& sim = st.sim;
	REQUIRE(available_idle_cpu(sim, 1));
	sim.rq_mut(1).ttwu_pending = true;
	CHECK_FALSE(available_idle_cpu(sim, 1));
	CHECK_FALSE(available_idle_cpu(sim, 0));
	CHECK_FALSE(sched_idle_cpu(sim, 0));
}

TEST_CASE("select helpers: select_idle_sibling returns an idle prev in the target's LLC", "[select]")
{
	// At 1.5 CPU 0 busy (C), CPU 1 idle. W (task 2) prev 1, target 0: prev.
	// The return comes before the recent_used_cpu step: the slot is kept.
	State st(smp(2), two_hogs_and_sleeper(), 1500 * US);
	Simulation& sim = st.sim;
	Task& w = sim.task_mut(2);
	w.recent_used_cpu = 0;
	CHECK(select_idle_sibling(sim, w, 1, 0) == 1u);
	CHECK(w.recent_used_cpu == 0);
}

TEST_CASE("select helpers: select_idle_sibling ignores an idle prev in another LLC", "[select]")
{
	// 4 CPUs, LLCs {0,1} {2,3}; at 3 CPUs 0 and 1 are busy (C, D), 2 and 3
	// idle. Target 0, prev 2: prev is idle but not cache affine; recent 2 ==
	// prev; the scan covers target's LLC {0,1} only: target 0.
	Workload wl = two_hogs_and_sleeper();
	wl.tasks[2].cpus = {0, 1, 2, 3};
	State st(smp(4, 2), wl, 3 * MS);
	Simulation& sim = st.sim;
	sim.topology_mut().sd_llc_shared(0)->nr_idle_scan = 2;
	Task& w = sim.task_mut(2);
	w.recent_used_cpu = 2;
	CHECK(select_idle_sibling(sim, w, 2, 0) == 0u);
	CHECK(w.recent_used_cpu == 2);
}

TEST_CASE("select helpers: select_idle_cpu honours the mask and the limit from the target", "[select]")
{
	// 4 CPUs, one LLC, at 3: CPUs 0, 1 busy, 2, 3 idle. Target 0.
	Workload wl = two_hogs_and_sleeper();
	wl.tasks[2].cpus = {0, 1, 2, 3};
	State st(smp(4), wl, 3 * MS);
	Simulation& sim = st.sim;
	const SchedDomain& llc = *sim.topology().sd_llc(0);
	Task& w = sim.task_mut(2);
	SchedDomainShared& sds = *sim.topology_mut().sd_llc_shared(0);
	sds.nr_idle_scan = 2;  // nr 3: 1 (busy), 2 (idle)
	CHECK(select_idle_cpu(sim, w, llc, false, 0) == 2u);
	sds.nr_idle_scan = 1;  // nr 2: 1 (busy), then stop
	CHECK(select_idle_cpu(sim, w, llc, false, 0) == NO_TARGET);
	sds.nr_idle_scan = 0;
	CHECK(select_idle_cpu(sim, w, llc, false, 0) == NO_TARGET);
	// Mask {0, 1, 3}: 2 is skipped without counting: nr 3 reaches 3.
	sds.nr_idle_scan = 2;
	w.cpus_ptr = CpuMask::of(0) | CpuMask::of(1) | CpuMask::of(3);
	CHECK(select_idle_cpu(sim, w, llc, false, 0) == 3u);
	// From target 3 the scan starts at 0 (wrapping at once): 0, 1 busy.
	CHECK(select_idle_cpu(sim, w, llc, false, 3) == NO_TARGET);
}

}  // namespace
