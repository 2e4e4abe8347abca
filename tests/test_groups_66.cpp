// SPDX-License-Identifier: GPL-2.0-only
// Task groups on v6.6.0 (issue 36): the walks of the first EEVDF, where
// they differ from 6.13+ (docs/model.md "Task groups", Releases). Golden
// schedules computed by hand from v6.6.0's fair.c; each is set beside
// 6.15's, which decides the same workload by the later rules. One CPU,
// HZ=250 (ticks at 4, 8 .. ms), 3 ms slices, hrtick off. Times in ms.
#include <catch2/catch.hpp>

#include <vector>

#include "group_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

// a: a hog in /A; r: a root hog; s: forked into /A at 3.5 ms (100 us of
// work, then a long sleep). Wake-up preemption is off, so only the walks
// decide.
Workload hog_in_a_then_fork_into_a()
{
	Workload wl = workload({in_group(hog("a"), "/A"), hog("r"),
				delayed(in_group(task("s", {run(100 * US), sleep(100 * MS)}, 1), "/A"), 3500 * US)});
	wl.groups = {{"/A", NICE_0_LOAD}};
	return wl;
}

// The first switch away from a.
u64 first_switch_from_a(const char* preset)
{
	Config cfg = golden_config(preset, 250);
	cfg.features.set(Feature::WAKEUP_PREEMPTION, false);
	const GroupRun r = run_groups(cfg, hog_in_a_then_fork_into_a(), 20 * MS, true);
	CHECK(r.checked_ok());
	REQUIRE(r.rec.switches.size() >= 2);
	CHECK(r.rec.switches[0] == Switch{0, IDLE, 0});
	CHECK(r.rec.switches[1].prev == 0);
	return r.rec.switches[1].t;
}

}  // namespace

// 6.6.0's update_cfs_group() reweights a group's entity even when its share
// is unchanged (eab03c23c2a1, 6.7, made it return), and reweight_entity()
// of a running entity charges its level first (update_curr()). So an
// enqueue below a running group entity charges the root at that instant.
//   t=0: a forks into /A, se_A joins the root (v 0, d 3: a wake-up's whole
//   slice), a runs. r forks into the root at V = 0: v 0, d 3 (6.6's
//   activation re-places a fork with a whole slice).
//   t=3.5: s forks into /A. task_fork_fair() charges a's level; loop 1
//   enqueues s in /A and stops at se_A, queued; loop 2's update_cfs_group()
//   reweights se_A (1024 to 1024): update_curr() at the root: se_A's v 3.5
//   passed d 3, so update_deadline() renews it (6.5) and, with r queued,
//   reschedules. The pick: V_root = (3.5 + 0) / 2 = 1.75, se_A is not
//   eligible, r is: r runs at 3.5.
//   6.15: loop 2 leaves se_A alone (same weight), nothing charges the root
//   before the tick at 4, whose renewal of se_A (v 4 >= d 3) hands the CPU
//   to r (V 2, r eligible at v 0): r runs at 4.
TEST_CASE("6.6: an enqueue below a running group entity charges its level and may end its request",
	  "[groups][golden][6.6]")
{
	CHECK(first_switch_from_a("6.6") == 3500 * US);
	CHECK(first_switch_from_a("6.15") == 4 * MS);
}

// 6.6.0's check_preempt_wakeup() returns for a batch (or idle) waker before
// find_matching_se(); 6.12+ test the matched entities' idleness first, so a
// batch waker preempts a task whose group is idle. RUN_TO_PARITY is off
// here: with it, 6.6's pick after such a preemption hands the CPU straight
// back to the still protected idle entity (what f553741ac8c0, 6.15, fixed).
//   h: a hog in the idle group /I (weight 3); b: a root task forked at 1 ms.
//   6.6, b SCHED_BATCH: the fork's wake-up returns on b's policy. t=4
//   (tick): se_I's v = 4 ms x 1024/3 = 1365.3 passed its d (3 x 1024/3 =
//   1024): renewed, resched; b (placed at V = se_I's v at 1 ms, 341.3) is
//   eligible and se_I is not: b runs at 4.
//   6.6, b SCHED_OTHER: find_matching_se() pairs se_I with b at the root;
//   se_I is idle, b is not: resched, and the pick takes b (d 344.3 against
//   se_I's 1024): b runs at 1.
//   6.15, b SCHED_BATCH: the matched idle test comes before the policy's:
//   b runs at 1.
TEST_CASE("6.6: a batch waker does not preempt a task of an idle group; 6.15 does", "[groups][golden][6.6]")
{
	auto b_first_run = [&](const char* preset, Policy policy) {
		Workload wl = workload(
			{in_group(hog("h"), "/I"), delayed(with_policy(task("b", {run(MS), sleep(100 * MS)}, 1), policy), MS)});
		GroupSpec idle{"/I", NICE_0_LOAD};
		idle.idle = true;
		wl.groups = {idle};
		Config cfg = golden_config(preset, 250);
		cfg.features.set(Feature::RUN_TO_PARITY, false);
		const GroupRun r = run_groups(cfg, wl, 20 * MS, true);
		CHECK(r.checked_ok());
		const std::vector<u64> in = r.rec.switch_ins(1);
		REQUIRE_FALSE(in.empty());
		return in[0];
	};
	CHECK(b_first_run("6.6", Policy::Batch) == 4 * MS);
	CHECK(b_first_run("6.6", Policy::Normal) == 1 * MS);
	CHECK(b_first_run("6.15", Policy::Batch) == 1 * MS);
}
