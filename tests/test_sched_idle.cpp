// SPDX-License-Identifier: GPL-2.0-only
// SCHED_IDLE (issue 17): weight 3 whatever the nice value; a non-idle waker
// preempts an idle curr at once, an idle waker never preempts; a CPU whose
// queued tasks are all SCHED_IDLE counts as idle for CPU selection (not for
// an idle wakee on 7.1); an idle task is never cache-hot. Each schedule is
// worked out by hand from fair.c (6.6.0, 6.12.0, 6.18.44, 7.1.5) below.
//
// Numbers used throughout: an idle task's calc_delta_fair(d) is
// d * 1024 * WMULT_IDLEPRIO >> 32 = floor(d * 1024 / 3), 341.33 x d.
#include <catch2/catch.hpp>

#include "io/rtapp.hpp"
#include "model/select_task_rq_fair.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

// One CPU, HZ=250 (ticks at 0, 4, 8 ... ms), base slice 3 ms. A hog forked
// at 0 runs alone; at 1 ms "b" forks with 100 us of work.
Workload hog_then_fork(Policy hog_policy, Policy b_policy, u64 b_slice = 0)
{
	const TaskSpec b = delayed(with_slice(task("b", {run(100 * US)}, 1), b_slice), 1 * MS);
	return workload({with_policy(hog("hog"), hog_policy), with_policy(b, b_policy)});
}

u64 first_switch_to(const Recorder& r, int task)
{
	const std::vector<u64> ins = r.switch_ins(task);
	return ins.empty() ? NEVER : ins.front();
}

}  // namespace

TEST_CASE("a SCHED_IDLE task weighs 3 whatever its nice value, and a nice change keeps that")
{
	const TaskSpec t = niced(with_policy(task("i", {set_nice(-20), run(1 * MS)}, 1), Policy::Idle), 19);
	Simulation sim(config("6.18", 250), workload({t}));
	CHECK(sim.tasks()[0].se.load.weight == 3 << 10);
	CHECK(sim.tasks()[0].se.load.inv_weight == 1431655765u);
	CHECK(sim.tasks()[0].se.idle_policy);
	CHECK_FALSE(sim.tasks()[0].se.normal_policy);
	sim.run();
	CHECK(sim.tasks()[0].nice == -20);
	CHECK(sim.tasks()[0].se.load.weight == 3 << 10);
}

TEST_CASE("a SCHED_OTHER fork preempts a running SCHED_IDLE hog at once (6.18)")
{
	// At 1 ms the idle hog's v is 341.33 ms (virtual), its deadline
	// v0 + vslice/2 = 512 ms. b is placed at V = 341.33 ms with deadline
	// 342.83 ms. cse_is_idle && !pse_is_idle: PREEMPT_WAKEUP_SHORT, the
	// hog's protection cancelled, resched; the pick takes b (eligible,
	// earlier deadline). b runs 1.0 .. 1.1 ms and exits. (A SCHED_OTHER hog
	// in its place keeps the CPU to the tick at 4 ms: its deadline 1.5 ms
	// is before b's 2.5 ms.)
	const Recorder idle = simulate(config("6.18", 250, 3 * MS), hog_then_fork(Policy::Idle, Policy::Normal), 10 * MS);
	REQUIRE(idle.switches.size() >= 3);
	CHECK(idle.switches[1] == Switch{1 * MS, 0, 1});
	CHECK(idle.switches[2] == Switch{1 * MS + 100 * US, 1, 0});
	const Recorder normal =
		simulate(config("6.18", 250, 3 * MS), hog_then_fork(Policy::Normal, Policy::Normal), 10 * MS);
	CHECK(first_switch_to(normal, 1) == 4 * MS);
}

TEST_CASE("up to 6.12 RUN_TO_PARITY hands the CPU back to a protected SCHED_IDLE curr; 6.15 cancels it")
{
	// 6.6 and 6.12: the idle preemption only reschedules. The pick finds the
	// hog eligible (v = V = 341.33 ms, both at the same vruntime) with
	// vlag == deadline (protected since its pick at 0): it keeps the CPU.
	// Its request ends at 512 ms (6.12, half slice) or 1024 ms (6.6, a
	// whole first slice) virtual, 1.5 or 3 ms real: the tick at 4 ms renews
	// it, asks for the resched, and the pick takes b (the hog is far past V).
	// 6.15 (f553741ac8c0) sets vlag = deadline + 1 first: b at 1 ms.
	for (const char* p : {"6.6", "6.12"}) {
		const Recorder r = simulate(config(p, 250, 3 * MS), hog_then_fork(Policy::Idle, Policy::Normal), 10 * MS);
		INFO(p);
		CHECK(first_switch_to(r, 1) == 4 * MS);
	}
	const Recorder r15 = simulate(config("6.15", 250, 3 * MS), hog_then_fork(Policy::Idle, Policy::Normal), 10 * MS);
	CHECK(first_switch_to(r15, 1) == 1 * MS);
}

TEST_CASE("a SCHED_IDLE fork never preempts, even with the earlier deadline")
{
	// b (SCHED_IDLE, custom slice 0.1 ms) forks at 1 ms: placed at V = 1 ms
	// with deadline 1 + floor(100 us * 1024 / 3) / 2 = 18.07 ms (virtual).
	// !normal_policy(b): no update_curr(), no pick, no preemption (a
	// SCHED_OTHER b with that slice preempts at 1 ms: tests/test_policy.cpp).
	// The tick at 4 ms renews the hog (v = 4 >= 1.5, deadline 7) and the
	// pick finds it ineligible: V = (1024 * 4 + 3 * 1) / 1027 < 4. b, the
	// only eligible task, runs 4.0 .. 4.1 ms.
	const Recorder r =
		simulate(config("6.18", 250, 3 * MS), hog_then_fork(Policy::Normal, Policy::Idle, 100 * US), 30 * MS);
	REQUIRE(r.switches.size() >= 3);
	CHECK(r.switches[1] == Switch{4 * MS, 0, 1});
	CHECK(r.switches[2] == Switch{4 * MS + 100 * US, 1, 0});
}

TEST_CASE("beside a SCHED_OTHER hog a SCHED_IDLE hog runs one tick per 1364 ms: 3/1027 of the CPU")
{
	// n and i (SCHED_IDLE) fork at 0, both at v = 0; n runs first. Tick at
	// 4: n renews (v 4 >= 1.5) and is ineligible (V = 4096/1027 ms < 4): i
	// runs. Tick at 8: i's v = floor(4 ms * 1024 / 3) = 1365.33 ms is past
	// its deadline 512: renewed, resched; n (v 4 <= V) runs. n stays
	// eligible while 1027 v_n <= 1024 v_n + 3 * 1365.33, i.e. v_n <=
	// 1365.33 ms: v_n = t - 4 at the tick at t, first above at t = 1372.
	// i runs 1372 .. 1376 (v += 1365.33), n until v_n = t - 8 > 2730.67:
	// t = 2740. i's share 4 / 1368 ~ 3 / 1027.
	Workload wl = workload({hog("n"), with_policy(hog("i"), Policy::Idle)});
	const Recorder r = simulate(config("6.18", 250, 3 * MS), wl, 3000 * MS);
	const std::vector<Switch> expect = {{0, IDLE, 0},        {4 * MS, 0, 1},    {8 * MS, 1, 0},
					    {1372 * MS, 0, 1},   {1376 * MS, 1, 0}, {2740 * MS, 0, 1},
					    {2744 * MS, 1, 0}};
	CHECK(r.switches == expect);
}

TEST_CASE("a SCHED_IDLE waker does not preempt a SCHED_IDLE curr either")
{
	// Both idle: cse_is_idle == pse_is_idle, then !normal_policy(b): no
	// preemption. b (V = 1 ms at its fork, deadline 1 + 3 * 341.33 / 2 ms
	// virtual) waits for the hog's renewal at the 4 ms tick: the hog's v is
	// 4 * 341.33 ms, far past V, and b runs at 4 ms.
	const Recorder r = simulate(config("6.18", 250, 3 * MS), hog_then_fork(Policy::Idle, Policy::Idle), 10 * MS);
	CHECK(first_switch_to(r, 1) == 4 * MS);
}

TEST_CASE("rt-app's SCHED_IDLE policy is read and written back")
{
	const Workload w = parse_rtapp(R"({"tasks": {"a": {"policy": "SCHED_IDLE", "priority": 3, "run": 10},
		"b": {"run": 10}}})", "i.json");
	REQUIRE(w.tasks.size() == 2);
	CHECK(w.tasks[0].policy == Policy::Idle);
	CHECK(w.tasks[0].nice == 3);
	CHECK(w.tasks[1].policy == Policy::Normal);
	CHECK(parse_rtapp(to_rtapp_json(w), "back.json") == w);
}

// ---------------------------------------------------------------------------
// Two CPUs, one LLC, HZ=250 (tests/test_select_idle_sibling.cpp's scenario T with CPU 1
// running a SCHED_IDLE hog):
//   task 0 W: forks at 0, runs 1, sleeps 10 (timer on CPU 0), runs 1, exits;
//   task 1 H: SCHED_OTHER hog pinned to CPU 0 from 2;
//   task 2 I: SCHED_IDLE hog pinned to CPU 1 from 0.
// W forks first, onto CPU 0 (both CPUs idle, the local group wins). At 11
// the timer fires on CPU 0, current = H: want_affine, this = prev = 0, no
// wake_affine(); select_idle_sibling(W, 0, 0): CPU 0 busy, prev == target,
// recent_used_cpu == prev; select_idle_cpu() scans from CPU 1 with
// nr_idle_scan set to 1 (nr = 2): CPU 1 is not idle_cpu() but
// sched_idle_cpu(): it is taken.
namespace {

Config smp(std::string_view preset)
{
	return make_config(*find_preset(preset), 250, 2);
}

Workload scenario_t_idle(Policy w_policy)
{
	return workload({with_policy(task("w", {run(1 * MS), sleep(10 * MS), run(1 * MS)}, 1), w_policy),
			 pinned(delayed(hog("h"), 2 * MS), {0}), pinned(with_policy(hog("i"), Policy::Idle), {1})});
}

struct WakeCpu : Observer {
	std::vector<std::pair<u64, u32>> wakeups;  // (t, CPU) of task 0's enqueues
	void on_wakeup(const Simulation& s, u64 t, int task, int, bool) override
	{
		if (task == 0)
			wakeups.emplace_back(t, s.event_cpu());
	}
};

u32 wake_cpu_at_11ms(std::string_view preset, Policy w_policy)
{
	Workload wl = scenario_t_idle(w_policy);
	wl.duration = 20 * MS;
	Simulation sim(smp(preset), wl);
	WakeCpu w;
	sim.add_observer(&w);
	sim.run_until(10 * MS + 500 * US);
	REQUIRE(sim.tasks()[0].cpu == 0);
	REQUIRE(sim.rq(1).sched_idle_rq());
	REQUIRE_FALSE(sim.rq(1).idle_cpu());
	sim.topology_mut().sd_llc_shared(0)->nr_idle_scan = 1;
	sim.run_until(11 * MS + 1);
	for (const auto& [t, cpu] : w.wakeups)
		if (t == 11 * MS)
			return cpu;
	FAIL("no wake-up of W at 11 ms");
	return MAX_CPUS;
}

}  // namespace

TEST_CASE("a wake-up takes a CPU running only SCHED_IDLE tasks as idle, and preempts there")
{
	Workload wl = scenario_t_idle(Policy::Normal);
	wl.duration = 20 * MS;
	Simulation sim(smp("6.18.33"), wl);
	Recorder r;
	sim.add_observer(&r);
	sim.run_until(10 * MS + 500 * US);
	sim.topology_mut().sd_llc_shared(0)->nr_idle_scan = 1;
	sim.run_until(11 * MS + 1);
	CHECK(sim.tasks()[0].cpu == 1);
	CHECK(sim.current(1) == 0);  // I preempted at once (IPI latency 0)
	CHECK(wake_cpu_at_11ms("6.18.33", Policy::Normal) == 1u);
}

TEST_CASE("up to 6.18 a SCHED_IDLE wakee also takes such a CPU; 7.1 keeps looking and stays on its target")
{
	// 7.1 choose_idle_cpu(): sched_idle_rq(CPU 1) counts only for a wakee
	// that is not SCHED_IDLE. W (idle) finds no idle CPU and returns the
	// target, CPU 0, where it waits behind H.
	CHECK(wake_cpu_at_11ms("6.18.33", Policy::Idle) == 1u);
	CHECK(wake_cpu_at_11ms("7.1.5", Policy::Idle) == 0u);
	CHECK(wake_cpu_at_11ms("7.1.5", Policy::Normal) == 1u);
}

// tests/test_balance_idle.cpp's cache-hot case (HZ=1000, 2 CPUs, 6.18.33, R a hog
// free to move and X a hog pinned to CPU 0) with both tasks SCHED_IDLE. The
// weights are equal, so CPU 0 runs the same schedule: R [0, 1), X [1, 2),
// R [2, 4), X from 4. CPU 1, idle and tickless, balances itself through the
// ILB kicks of CPU 0's ticks at 2, 4, 6, 8 ms (migrate_task: CPU 0 has two
// tasks, CPU 1 none; CPU 0 is sched_idle_cpu() but the group statistics
// count tasks). At 2 ms R is running: failure. At 4 ms R stopped 0 ns ago:
// a SCHED_OTHER R is cache-hot there (moved at 8 ms, after the failures
// exceed cache_nice_tries); task_hot() says 0 for a SCHED_IDLE task at its
// second test, so R is pulled at 4 ms.
TEST_CASE("a SCHED_IDLE task is never cache-hot: the balancer pulls it at its first chance")
{
	struct Moves : Observer {
		std::vector<std::pair<u64, int>> moves;
		void on_migrate(const Simulation&, u64 t, int task, u32, u32) override { moves.emplace_back(t, task); }
	};
	for (const Policy p : {Policy::Normal, Policy::Idle}) {
		Workload wl = workload({with_policy(hog("R"), p), pinned(with_policy(hog("X"), p), {0})});
		wl.duration = 20 * MS;
		Config c = make_config(*find_preset("6.18.33"), 1000, 2);
		c.features.set(Feature::NI_RANDOM, false);
		Simulation sim(c, wl);
		Moves m;
		sim.add_observer(&m);
		sim.run();
		INFO(policy_name(p));
		REQUIRE(m.moves.size() == 1);
		CHECK(m.moves[0].second == 0);
		CHECK(m.moves[0].first == (p == Policy::Idle ? 4 * MS : 8 * MS));
	}
}

// dequeue_entities(): "balance early to pull high priority tasks". CPU 0
// runs N (SCHED_OTHER, pinned, 20 ms of work) and I (SCHED_IDLE hog,
// pinned); N's exit leaves only I: rq->next_balance = jiffies, so the next
// tick's sched_balance_trigger() finds the softirq due; its periodic balance
// then computes the intervals as for a CPU that is not busy (busy_factor
// not applied: !sched_idle_cpu()). The same exit with I SCHED_OTHER leaves
// next_balance where the last balance put it, in the future.
TEST_CASE("the exit of the last SCHED_OTHER task leaves only SCHED_IDLE ones: balance at the next tick")
{
	struct AtExit : Observer {
		u64 next_balance = 0, jiffies = 0;
		bool seen = false;
		void on_block(const Simulation& s, u64, int task, bool, bool exited) override
		{
			if (task == 0 && exited && !seen) {
				seen = true;
				next_balance = s.rq(0).next_balance;
				jiffies = s.jiffies();
			}
		}
	};
	for (const Policy p : {Policy::Normal, Policy::Idle}) {
		Workload wl = workload({pinned(task("n", {run(20 * MS)}, 1), {0}), pinned(with_policy(hog("i"), p), {0})});
		wl.duration = 60 * MS;
		Simulation sim(make_config(*find_preset("6.18.33"), 1000, 2), wl);
		AtExit a;
		sim.add_observer(&a);
		sim.run();
		INFO(policy_name(p));
		REQUIRE(a.seen);
		if (p == Policy::Idle)
			CHECK(a.next_balance == a.jiffies);
		else
			CHECK(a.next_balance > a.jiffies);
	}
}
