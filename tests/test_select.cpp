// SPDX-License-Identifier: GPL-2.0-only
// CPU selection at wake-up and fork (model/select_task_rq_fair.*), against
// cases worked by hand from kernel/sched/fair.c (v6.18.44).
//
// Conventions of the comments: times in ms; HZ = 250, so ticks (and with
// them every periodic or nohz balance that could rewrite nr_idle_scan) fall
// on multiples of 4 ms, and wake-ups are put between ticks. "busy" and
// "idle" are idle_cpu(): the idle task running, nothing queued, no wake-up
// pending. The background tasks are pinned (TaskSpec::cpus) so that no load
// balance can move them, and a wakee always sleeps while alone on its CPU,
// so it is eligible then and fully dequeued (no DELAY_DEQUEUE), and its
// wake-up selects a CPU.
#include <catch2/catch.hpp>

#include <optional>

#include "model/select_task_rq_fair.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;
using namespace eevdf::selection;

namespace {

Config smp(u32 cpus, u32 llc_size = 0, std::string_view preset = "6.18.33")
{
	Config c = make_config(*find_preset(preset), 250, cpus);
	c.llc_size = llc_size;
	return c;
}

// A pinned CPU hog that starts at `delay` and runs `ns` (forever by default).
TaskSpec pinned_hog(std::string name, u32 cpu, u64 delay = 0, u64 ns = RUN_FOREVER)
{
	TaskSpec t = task(std::move(name), {run(ns)}, 1);
	t.cpus = {cpu};
	t.delay = delay;
	return t;
}

// Where each enqueue (fork or wake-up) of a task happened, and every move.
struct Placements : Observer {
	struct Enq {
		u64 t;
		int task;
		u32 cpu;
		bool new_task;
	};
	struct Move {
		u64 t;
		int task;
		u32 from, to;
	};
	std::vector<Enq> enqueues;
	std::vector<Move> moves;

	void on_wakeup(const Simulation& s, u64 t, int task, int, bool new_task) override
	{
		enqueues.push_back({t, task, s.event_cpu(), new_task});
	}
	void on_migrate(const Simulation&, u64 t, int task, u32 from, u32 to) override
	{
		moves.push_back({t, task, from, to});
	}
	// The CPU of `task`'s first enqueue at time t, if any.
	std::optional<u32> cpu_at(int task, u64 t) const
	{
		for (const Enq& e : enqueues)
			if (e.task == task && e.t == t)
				return e.cpu;
		return std::nullopt;
	}
	std::optional<u32> fork_cpu(int task) const
	{
		for (const Enq& e : enqueues)
			if (e.task == task && e.new_task)
				return e.cpu;
		return std::nullopt;
	}
	size_t moves_of(int task) const
	{
		size_t n = 0;
		for (const Move& m : moves)
			n += m.task == task;
		return n;
	}
};

struct Run {
	Simulation sim;
	Placements where;
	Recorder rec;
	Run(const Config& cfg, Workload wl, u64 duration) : sim(cfg, (wl.duration = duration, wl))
	{
		sim.add_observer(&where);
		sim.add_observer(&rec);
	}
	SchedDomainShared& llc_shared(u32 cpu) { return *sim.topology_mut().sd_llc_shared(cpu); }
};

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

// ---------------------------------------------------------------------------
// Scenario S (scan order and limit), 4 CPUs, one LLC:
//   task 0 W: forks at 1, runs 1, sleeps 9.5 (timer on its CPU), runs 1;
//   task 1 H0: hog pinned to 0;  task 2 H1: pinned to 1, runs 5 then exits;
//   task 3 H2: hog pinned to 2 from 3;  task 4 H3: hog pinned to 3 from 3.
// Fork of W at 1 from CPU 0: CPUs 0 and 1 are busy, 2 and 3 idle. Groups in
// ring order from 0: {0} (local, idle_cpus 0), {1} (idle 0), {2} (idle 1),
// {3} (idle 1). {1} beats the initial (overloaded) idlest, {2} beats {1} on
// idle CPUs or type, {3} ties {2} (same idle CPUs, util 0 <= 0): idlest {2};
// the local group has fewer idle CPUs (or a busier type): W forks onto 2.
// recent_used_cpu = 0 (task_cpu at fork).
// At 11.5 the timer fires on CPU 2, current = H2; this = prev = 2; target 2
// busy; recent_used_cpu 0 is busy (H0); the scan starts at CPU 3 and wraps:
// 3 busy, 0 busy, 1 idle (H1 exited at 5).
Workload scenario_s()
{
	return workload({delayed(task("w", {run(1 * MS), sleep(9500 * US), run(1 * MS)}, 1), 1 * MS),
			 pinned_hog("h0", 0), pinned_hog("h1", 1, 0, 5 * MS), pinned_hog("h2", 2, 3 * MS),
			 pinned_hog("h3", 3, 3 * MS)});
}

TEST_CASE("select: fork goes to the first idle group in ring order", "[select]")
{
	Run r(smp(4), scenario_s(), 5 * MS);
	r.sim.run_until(2 * MS);
	CHECK(r.where.fork_cpu(0) == 2u);
}

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
// Scenario A (affine wake-up by a task), 2 CPUs, one LLC:
//   task 0 W: forks at 1 (both CPUs idle: stays on CPU 0, as in T), runs 5,
//             sleeps 200, runs 0.1, suspends on s; once woken runs 1, exits;
//   task 1 A: pinned to 1, 30 times (sleep 10, run 0.1), then resumes s,
//             then sleeps 10 and exits;
//   task 2 H: hog pinned to 0 from 210.
// A task's averages attach with a full load_sum (attach_entity_load_avg()
// scales load_avg = 1024 up to the divider), so W weighs ~1024 until it
// sleeps; its 200 ms sleep is decayed at its next enqueue (206: CPU 0 is
// idle then, so W wakes where it slept), leaving 1024 / 2^(200/32) ~ 13,
// plus its 0.1 ms run: ~16 when it suspends at 206.1. A's timeline is exact
// (alone on CPU 1): the resume is at 30 x 10.1 = 303. Then CPU 0 holds H
// (attached full, always runnable: ~1024) and what is left of W's blocked
// load; CPU 1 holds A, running 1% of the time (~14). At 303, this = 1
// (current A), prev = 0: record_wakee on A (flips 1), wake_wide (1, 0): no;
// want_affine. MC spans prev, this != prev: wake_affine(): WA_IDLE: CPU 1
// runs A, no sync, CPU 0 runs H: none. WA_WEIGHT: tl = task_h_load(W) =
// 16 * L0 / (L0 + 1) = 15;
//   this_eff = (load(1) + tl) * 100 * 1024 ~ (14 + 15) * 102400,
//   prev_eff = (load(0) - tl) * 108 * 1024 ~ (1026 - 15) * 110592,
// this_eff < prev_eff: CPU 1. select_idle_sibling(W, 0, 1): 1 busy (A),
// 0 busy (H), recent_used_cpu 0 == prev, nothing idle to scan: target 1.
Workload scenario_a()
{
	Workload wl;
	const int s = wl.ref("s");
	const TaskSpec a = pinned(phased("a",
					 {Phase{"light", 30, {sleep(10 * MS), run(100 * US)}},
					  Phase{"wake", 1, {resume(s), sleep(10 * MS)}}},
					 1),
				  {1});
	wl.tasks = {delayed(task("w", {run(5 * MS), sleep(200 * MS), run(100 * US), suspend(s), run(1 * MS)}, 1),
			    1 * MS),
		    a, pinned_hog("h", 0, 210 * MS)};
	return wl;
}

constexpr u64 A_RESUME = 303 * MS;

TEST_CASE("select: wake_affine_weight pulls the wakee to a lightly loaded waker's CPU", "[select]")
{
	Run r(smp(2), scenario_a(), 320 * MS);
	r.sim.run_until(A_RESUME - 500 * US);
	const Simulation& s = r.sim;
	REQUIRE(s.tasks()[0].cpu == 0);
	REQUIRE(s.tasks()[0].state == TaskState::Suspended);
	REQUIRE(r.rec.delayed_blocks.empty());
	REQUIRE(cpu_load(s.rq(0).cfs.avg) > 900);
	REQUIRE(cpu_load(s.rq(1).cfs.avg) < 50);
	REQUIRE(s.tasks()[0].se.avg.load_avg > 5);
	REQUIRE(s.tasks()[0].se.avg.load_avg < 30);
	r.sim.run_until(A_RESUME + 1);
	CHECK(r.where.cpu_at(0, A_RESUME) == 1u);
	CHECK(s.tasks()[0].wakeups_affine == 1);
	CHECK(s.tasks()[1].last_wakee == 0);
	CHECK(s.tasks()[1].wakee_flips == 1);
}

TEST_CASE("select: wake_wide turns the affine pull off", "[select]")
{
	// As above, with A's flips at 4 (last wakee W: record_wakee adds none)
	// and W's at 2 before the resume. wake_wide: master 4, slave 2; 2 >=
	// llc_size 2 and 4 >= 2 * 2: wide, want_affine = 0. The walk breaks at
	// MC (no SD_BALANCE_WAKE), sd = NULL: select_idle_sibling(W, 0, 0): 0
	// busy, recent 0 == prev, the scan (1 runs A, 0 runs H) finds nothing:
	// W stays on CPU 0.
	Run r(smp(2), scenario_a(), 320 * MS);
	r.sim.run_until(A_RESUME - 500 * US);
	Task& a = r.sim.task_mut(1);
	a.wakee_flips = 4;
	a.last_wakee = 0;
	a.wakee_flip_decay_ts = r.sim.jiffies();
	r.sim.task_mut(0).wakee_flips = 2;
	r.sim.run_until(A_RESUME + 1);
	CHECK(r.where.cpu_at(0, A_RESUME) == 0u);
	CHECK(r.sim.tasks()[0].wakeups_affine == 0);
}

TEST_CASE("select: one flip short of wake_wide the affine pull stays", "[select]")
{
	// A's flips 3 < 2 * 2: not wide; as in the wake_affine_weight case.
	Run r(smp(2), scenario_a(), 320 * MS);
	r.sim.run_until(A_RESUME - 500 * US);
	Task& a = r.sim.task_mut(1);
	a.wakee_flips = 3;
	a.last_wakee = 0;
	a.wakee_flip_decay_ts = r.sim.jiffies();
	r.sim.task_mut(0).wakee_flips = 2;
	r.sim.run_until(A_RESUME + 1);
	CHECK(r.where.cpu_at(0, A_RESUME) == 1u);
}

TEST_CASE("select: without WA_WEIGHT a busy prev keeps the wakee", "[select]")
{
	// wake_affine(): WA_IDLE gives none (both CPUs busy), WA_WEIGHT is off:
	// prev. select_idle_sibling(W, 0, 0) finds nothing idle: CPU 0.
	Config c = smp(2);
	c.features.set(Feature::WA_WEIGHT, false);
	Run r(c, scenario_a(), 320 * MS);
	r.sim.run_until(A_RESUME + 1);
	CHECK(r.where.cpu_at(0, A_RESUME) == 0u);
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

// ---------------------------------------------------------------------------
// Direct tests of the helpers on states built by running a short workload
// (and, where said, by writing the state).

// A Simulation run to `until`, for reading and writing its state.
// two_hogs_and_sleeper(): C (task 0) pinned to 0 from 0; D (task 1) pinned
// to 1 from 2; W (task 2) forks at 0.2 while only C runs: CPU 0 is busy, so
// W forks onto CPU 1 (the first idle group; with two LLCs and W allowed
// everywhere the PKG level sends it to CPU 2 instead), runs 1 and sleeps
// from 1.2. So at 1.5 CPU 0 is busy and CPU 1 idle; from 2 both are busy
// and any others idle.
struct State {
	Simulation sim;
	explicit State(const Config& cfg, Workload wl, u64 until) : sim(cfg, (wl.duration = 1000 * MS, wl))
	{
		sim.run_until(until);
	}
};

Workload two_hogs_and_sleeper()
{
	return workload({pinned_hog("c", 0), pinned_hog("d", 1, 2 * MS),
			 delayed(pinned(task("w", {run(1 * MS), sleep(100 * MS)}, 1), {0, 1}), 200 * US)});
}

TEST_CASE("select helpers: record_wakee counts a flip per change of wakee", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 3 * MS);
	Simulation& sim = st.sim;
	Task& c = sim.task_mut(0);
	Task& d = sim.task_mut(1);
	Task& w = sim.task_mut(2);
	REQUIRE(sim.curr_task(0) == &c);
	c.wakee_flip_decay_ts = sim.jiffies();
	record_wakee(sim, w, 0);
	CHECK(c.last_wakee == 2);
	CHECK(c.wakee_flips == 1);
	record_wakee(sim, w, 0);
	CHECK(c.wakee_flips == 1);
	record_wakee(sim, d, 0);
	CHECK(c.last_wakee == 1);
	CHECK(c.wakee_flips == 2);
	CHECK(w.wakee_flips == 0);
}

TEST_CASE("select helpers: record_wakee halves the flips once more than HZ jiffies after the last decay", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 3 * MS);
	Simulation& sim = st.sim;
	Task& c = sim.task_mut(0);
	// jiffies is 0 here: the stamps below wrap under zero, as the kernel's
	// (which start at INITIAL_JIFFIES) do.
	const u64 j = sim.jiffies();
	const u64 hz = sim.config().hz;
	// jiffies == stamp + HZ is not after it: no decay; W is a new wakee: +1.
	c.wakee_flips = 9;
	c.last_wakee = 1;
	c.wakee_flip_decay_ts = j - hz;
	record_wakee(sim, sim.task_mut(2), 0);
	CHECK(c.wakee_flips == 10);
	CHECK(c.wakee_flip_decay_ts == j - hz);
	// One jiffy later than that: 10 >> 1 = 5, stamp = jiffies, then +1 for a
	// new wakee.
	c.wakee_flip_decay_ts = j - hz - 1;
	record_wakee(sim, sim.task_mut(1), 0);
	CHECK(c.wakee_flips == 6);
	CHECK(c.wakee_flip_decay_ts == j);
}

TEST_CASE("select helpers: wake_wide needs llc_size flips on one side and llc_size times that on the other",
	  "[select]")
{
	// 4 CPUs in one LLC: factor 4.
	Workload wl = two_hogs_and_sleeper();
	wl.tasks[2].cpus = {0, 1, 2, 3};
	State st(smp(4), wl, 3 * MS);
	Simulation& sim = st.sim;
	Task& c = sim.task_mut(0);
	Task& w = sim.task_mut(2);
	auto wide = [&](u32 waker, u32 wakee) {
		c.wakee_flips = waker;
		w.wakee_flips = wakee;
		return wake_wide(sim, w, 0);
	};
	CHECK(wide(16, 4));
	CHECK(wide(4, 16));  // symmetric
	CHECK_FALSE(wide(15, 4));
	CHECK_FALSE(wide(100, 3));
	CHECK(wide(12, 3) == false);
	// An idle waker (CPU 2 runs the idle task) counts zero flips.
	w.wakee_flips = 100;
	CHECK_FALSE(wake_wide(sim, w, 2));
}

TEST_CASE("select helpers: wake_affine_idle from an idle waking CPU", "[select]")
{
	// 2 CPUs: at 1.5 CPU 0 runs C, CPU 1 is idle (D starts at 2, W sleeps).
	State st(smp(2), two_hogs_and_sleeper(), 1500 * US);
	const Simulation& sim = st.sim;
	REQUIRE(sim.rq(1).idle_cpu());
	REQUIRE_FALSE(sim.rq(0).idle_cpu());
	// this idle, same LLC, prev busy: this.
	CHECK(wake_affine_idle(sim, 1, 0, false) == 1u);
	// this busy, prev idle: prev.
	CHECK(wake_affine_idle(sim, 0, 1, false) == 1u);
	// this idle and prev idle (the same CPU): prev.
	CHECK(wake_affine_idle(sim, 1, 1, false) == 1u);
}

TEST_CASE("select helpers: wake_affine_idle gives nothing for two busy CPUs without sync", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 3 * MS);
	const Simulation& sim = st.sim;
	CHECK(wake_affine_idle(sim, 0, 1, false) == NO_TARGET);
	// sync with this_rq holding only the waker: this.
	REQUIRE(sim.rq(0).nr_running() == 1);
	CHECK(wake_affine_idle(sim, 0, 1, true) == 0u);
}

TEST_CASE("select helpers: an idle CPU in another LLC does not pull in wake_affine_idle", "[select]")
{
	// 4 CPUs, LLCs {0,1} and {2,3}: CPU 2 idle, prev 0 busy: not cache
	// affine, so the first test fails; prev busy, no sync: none.
	State st(smp(4, 2), two_hogs_and_sleeper(), 3 * MS);
	const Simulation& sim = st.sim;
	REQUIRE(sim.rq(2).idle_cpu());
	CHECK(wake_affine_idle(sim, 2, 0, false) == NO_TARGET);
	CHECK(wake_affine_idle(sim, 3, 2, false) == 2u);
}

// C pinned to 0 from 0; Dl pinned to 0 forks at 0, runs 3 at once (C's fork
// at 0.5 does not preempt it, no tick before 4) and sleeps at 3 while its
// vruntime (3) is past V ((3 + 0.5) / 2): ineligible, so it stays queued,
// delayed. D keeps CPU 1 busy. At 3.5 CPU 0 has nr_running 2, one delayed.
Workload delayed_state()
{
	return workload({pinned(task("dl", {run(3 * MS), sleep(50 * MS)}, 1), {0}), pinned_hog("c", 0, 500 * US),
			 pinned_hog("d", 1)});
}

TEST_CASE("select helpers: wake_affine_idle's sync test leaves delayed tasks out from 6.16", "[select]")
{
	State st(smp(2), delayed_state(), 3500 * US);
	const Simulation& sim = st.sim;
	REQUIRE(sim.rq(0).nr_running() == 2);
	REQUIRE(sim.rq(0).cfs.nr_delayed == 1);
	REQUIRE(sim.current(0) == 1);
	// 2 - 1 == 1: the waker is alone but for a delayed task: this.
	CHECK(wake_affine_idle(sim, 0, 1, true) == 0u);
}

TEST_CASE("select helpers: wake_affine_idle's sync test counts delayed tasks before 6.16", "[select]")
{
	State st(smp(2, 0, "6.15"), delayed_state(), 3500 * US);
	const Simulation& sim = st.sim;
	REQUIRE(sim.rq(0).nr_running() == 2);
	REQUIRE(sim.rq(0).cfs.nr_delayed == 1);
	// nr_running 2 != 1, prev busy: none.
	CHECK(wake_affine_idle(sim, 0, 1, true) == NO_TARGET);
}

// wake_affine_weight() on written loads: W (task 2) has task_cpu 1 = prev;
// this = 0. The written h_load is stamped with the current jiffy so
// task_h_load() uses it: tl = W.load_avg * Lp / (Lp + 1).
struct Loads {
	u64 this_load, prev_load, task_load, current_load = 0;
};

u32 affine_weight(Simulation& sim, Loads l, bool sync = false)
{
	CfsRqAvg& t = sim.rq_mut(0).cfs.avg;
	CfsRqAvg& p = sim.rq_mut(1).cfs.avg;
	t.avg.load_avg = t.h_load = l.this_load;
	p.avg.load_avg = p.h_load = l.prev_load;
	t.last_h_load_update = p.last_h_load_update = sim.jiffies();
	sim.task_mut(2).se.avg.load_avg = l.task_load;
	sim.task_mut(0).se.avg.load_avg = l.current_load;
	return wake_affine_weight(sim, *sim.topology().sd(0), sim.tasks()[2], 0, 1, sync);
}

TEST_CASE("select helpers: wake_affine_weight compares loads with the 108% bias", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 3 * MS);
	Simulation& sim = st.sim;
	REQUIRE(sim.tasks()[2].cpu == 1);
	// tl = 300 * 600 / 601 = 299.
	// this (100 + 299) * 100 = 39900 vs prev (600 - 299) * 108 = 32508: none.
	CHECK(affine_weight(sim, {100, 600, 300}) == NO_TARGET);
	// this (10 + 299) * 100 = 30900 < 32508: this.
	CHECK(affine_weight(sim, {10, 600, 300}) == 0u);
	// tl = 0: 104 * 100 = 10400 < 100 * 108 = 10800: the bias lets the
	// slightly busier this_cpu win.
	CHECK(affine_weight(sim, {104, 100, 0}) == 0u);
}

TEST_CASE("select helpers: wake_affine_weight without WA_BIAS compares plain loads", "[select]")
{
	Config c = smp(2);
	c.features.set(Feature::WA_BIAS, false);
	State st(c, two_hogs_and_sleeper(), 3 * MS);
	// 104 < 100 is false: none.
	CHECK(affine_weight(st.sim, {104, 100, 0}) == NO_TARGET);
	CHECK(affine_weight(st.sim, {99, 100, 0}) == 0u);
}

TEST_CASE("select helpers: wake_affine_weight ties go to prev unless sync", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 3 * MS);
	// 108 * 100 == 100 * 108: not less: none. With sync (current C of load
	// 0: nothing to subtract) prev_eff gets + 1: this.
	CHECK(affine_weight(st.sim, {108, 100, 0}) == NO_TARGET);
	CHECK(affine_weight(st.sim, {108, 100, 0}, true) == 0u);
}

TEST_CASE("select helpers: wake_affine_weight sync takes the waker's load off this_cpu", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 3 * MS);
	// current C: load_avg 500 on this (h_load 600): task_h_load = 500 * 600
	// / 601 = 499. this_eff = 600 - 499 = 101, + tl 0: 10100 * 1024 vs
	// prev (100) * 108 * 1024 + 1: this.
	CHECK(affine_weight(st.sim, {600, 100, 0, 500}, true) == 0u);
	// Without sync: 60000 vs 10800: none.
	CHECK(affine_weight(st.sim, {600, 100, 0, 500}) == NO_TARGET);
	// The waker's load above this_cpu's (a stale h_load): this at once.
	// task_h_load = 700 * 600 / 601 = 698 > 600.
	CHECK(affine_weight(st.sim, {600, 100, 0, 700}, true) == 0u);
}

TEST_CASE("select helpers: wake_affine_weight compares signed when the task outweighs prev", "[select]")
{
	State st(smp(2), two_hogs_and_sleeper(), 3 * MS);
	// tl = 300 * 100 / 101 = 297: prev_eff = (100 - 297) * 108 * 1024 < 0,
	// below this_eff = (0 + 297) * 100 * 1024: none (an unsigned compare
	// would say this).
	CHECK(affine_weight(st.sim, {0, 100, 300}) == NO_TARGET);
}

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
	CHECK(select_idle_cpu(sim, w, llc, 0) == 2u);
	sds.nr_idle_scan = 1;  // nr 2: 1 (busy), then stop
	CHECK(select_idle_cpu(sim, w, llc, 0) == NO_TARGET);
	sds.nr_idle_scan = 0;
	CHECK(select_idle_cpu(sim, w, llc, 0) == NO_TARGET);
	// Mask {0, 1, 3}: 2 is skipped without counting: nr 3 reaches 3.
	sds.nr_idle_scan = 2;
	w.cpus_ptr = CpuMask::of(0) | CpuMask::of(1) | CpuMask::of(3);
	CHECK(select_idle_cpu(sim, w, llc, 0) == 3u);
	// From target 3 the scan starts at 0 (wrapping at once): 0, 1 busy.
	CHECK(select_idle_cpu(sim, w, llc, 3) == NO_TARGET);
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
	SchedGroup g;
	g.weight = 1;
	g.capacity = 1024;
	CHECK(group_classify(117, g, stats(2, 900, 2000)) == GroupType::overloaded);
	CHECK(group_classify(117, g, stats(1, 900, 900)) == GroupType::fully_busy);
	CHECK(group_classify(117, g, stats(2, 875, 1198)) == GroupType::has_spare);
	g.imbalance = 1;
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
