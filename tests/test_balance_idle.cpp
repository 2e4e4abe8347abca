// SPDX-License-Identifier: GPL-2.0-only
// The balance of a tickless idle CPU (CPU_IDLE): which task it may take
// (cache hotness, affinity), how a busy CPU's tick gets it to run (the ILB
// kick), and active balance when every pull fails (tests/balance_helpers.hpp
// gives the set-ups).
#include <catch2/catch.hpp>

#include "balance_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;
using namespace eevdf::test::balance_cases;

// ---------------------------------------------------------------- cache hotness, affinity, active balance

// R (unpinned) and X (pinned to CPU 0) fork at t=0 on CPU 0, R first: R runs
// at once (CPU 0 was idle), X waits. CPU 1 never had a task: tickless idle,
// in nohz from the first balancer call. HZ=1000, slice 1.4 ms: a forked
// task's first request is half a slice (PLACE_DEADLINE_INITIAL), over at
// the first tick after 0.7 ms, later ones at the second tick after their
// start. So CPU 0 switches R -> X at 1 ms, X -> R at 2, R -> X at 4,
// X -> R at 6, R -> X at 8: R runs [0, 1), [2, 4), [6, 8).
//
// Every busy tick of CPU 0 kicks the ILB (nr_running >= 2) once
// nohz.next_balance is due; CPU 1 is the only candidate and balances itself
// (CPU_IDLE) when its rq->next_balance is due. At 1 ms its MC domain
// (last_balance 0 at boot, idle interval msecs_to_jiffies(2) = 2) is not
// due; it is at 2, and after each failure the interval is back to 2 ms:
// passes at 2, 4, 6, 8 ms. The IPI lands at the tick's instant, after CPU 0
// has switched. migrate_task, imbalance (2 - 0) >> 1 = 1, from the tail:
// - 2 ms: R was just picked (running), X is pinned: fails, nr_balance_failed 1;
// - 4 ms: R stopped running 0 ns ago: task_hot() (< 500 us) and
//   nr_balance_failed 1 is not above cache_nice_tries 1: refused; failure 2;
// - 6 ms: R running again: failure 3;
// - 8 ms: R hot again, but 3 > 1: moved, counted in lb_hot_gained.
TEST_CASE("a cache-hot task is refused until nr_balance_failed exceeds cache_nice_tries", "[balance]")
{
	struct FailedLog : Observer {
		std::vector<std::pair<u64, u32>> changes;  // (t, CPU 1's MC nr_balance_failed)
		u32 last = 0;
		void on_event(const Simulation& s, u64 t) override
		{
			const u32 f = s.topology().sd(1)->nr_balance_failed;
			if (f != last)
				changes.emplace_back(t, f);
			last = f;
		}
	} log;
	Workload wl = workload({hog("R"), pinned(hog("X"), {0})});
	wl.duration = 20 * MS;
	Simulation sim(smp(1000, 2), wl);
	MigrationRecorder r;
	sim.add_observer(&r);
	sim.add_observer(&log);
	sim.run_until(4 * MS + 1);
	// The refusal at 4 ms was for hotness alone: R waits, cold would pass.
	const Task& R = sim.tasks()[0];
	CHECK(R.cpu == 0);
	CHECK(sim.current(0) == 1);
	CHECK(R.se.exec_start == 4 * MS);
	CHECK(sim.topology().sd(1)->nr_balance_failed == 2);
	sim.run();

	REQUIRE(r.migrations.size() == 1);
	CHECK(r.migrations[0].t == 8 * MS);
	CHECK(r.migrations[0].task == 0);
	CHECK(r.migrations[0].cpu == 1);  // in CPU 1's nohz idle balance
	const std::vector<std::pair<u64, u32>> expect = {{2 * MS, 1}, {4 * MS, 2}, {6 * MS, 3}, {8 * MS, 0}};
	CHECK(log.changes == expect);
	const BalanceCpu& b = sim.balance_state().cpu[1];
	CHECK(b.lb_failed[CPU_IDLE] == 3);
	CHECK(b.lb_hot_gained[CPU_IDLE] == 1);
}

// The same two tasks at HZ=250 (the live machine's), with IPIs taking
// 0.6 ms. CPU 0 ticks at 4 ms: R's half-slice request is over, CPU 0
// switches R -> X; the tick kicks the ILB (nohz.next_balance 0 is due,
// nr_running 2), the IPI lands on CPU 1 at 4.6 ms. CPU 1's MC domain is
// due (idle interval msecs_to_jiffies(2) = 1 jiffy, last_balance 0): a
// CPU_IDLE pass for itself, migrate_task 1; the tail is R, off the CPU for
// 0.6 ms >= 500 us: cold, moved by the first pass. A tickless idle CPU gets
// work from a busy CPU's tick, without a tick or a newidle pass of its own.
TEST_CASE("a tickless idle CPU is balanced through the ILB kick of a busy CPU's tick", "[balance]")
{
	Workload wl = workload({hog("R"), pinned(hog("X"), {0})});
	wl.duration = 40 * MS;
	Config cfg = smp(250, 2);
	cfg.knobs.ipi_latency = 600 * US;
	Simulation sim(cfg, wl);
	MigrationRecorder r;
	sim.add_observer(&r);
	sim.run();

	REQUIRE(r.migrations.size() == 1);
	CHECK(r.migrations[0].t == 4 * MS + 600 * US);
	CHECK(r.migrations[0].task == 0);
	CHECK(r.migrations[0].cpu == 1);
	const BalanceCpu& b1 = sim.balance_state().cpu[1];
	CHECK(b1.lb_count[CPU_IDLE] == 1);
	CHECK(b1.lb_gained[CPU_IDLE] == 1);
	CHECK(b1.newidle_calls == 0);  // CPU 1 never went through a failed pick
	CHECK(sim.balance_state().cpu[0].nohz_kicks >= 1);
	CHECK(sim.current(1) == 0);
}

// Three hogs pinned to CPU 0 and an idle CPU 1: every idle balance of CPU 1
// finds only pinned tasks (LBF_ALL_PINNED), drops CPU 0 from env->cpus,
// has nothing left outside its own group: out_all_pinned. Nothing moves,
// nr_balance_failed stays 0 (so no active balance), and the interval
// doubles on every pass up to MAX_PINNED_INTERVAL = 512 ms (beyond
// max_interval 4), where get_sd_balance_interval() clamps it to
// max_load_balance_interval = HZ * 2 / 10 = 200 jiffies.
TEST_CASE("tasks pinned elsewhere are never pulled and the idle CPU backs off to 512 ms", "[balance]")
{
	Workload wl = workload({pinned(hog("a"), {0}), pinned(hog("b"), {0}), pinned(hog("c"), {0})});
	wl.duration = 3000 * MS;
	Simulation sim(smp(1000, 2), wl);
	MigrationRecorder r;
	sim.add_observer(&r);
	sim.run();

	CHECK(r.migrations.empty());
	CHECK(sim.rq(1).idle());
	const SchedDomain& sd = *sim.topology().sd(1);
	CHECK(sd.balance_interval == 512);
	CHECK(sd.nr_balance_failed == 0);
	CHECK(lb::get_sd_balance_interval(sd, false, 1000, 2) == 200);
	const BalanceCpu& b = sim.balance_state().cpu[1];
	CHECK(b.lb_count[CPU_IDLE] > 8);  // 2, 4, ..., 512: at least nine passes
	CHECK(b.lb_gained[CPU_IDLE] == 0);
	CHECK(b.alb_count == 0);
}

// R (nice -20, unpinned) and Q (nice 19, pinned to CPU 0) fork at t=0 on
// CPU 0, R first. R's weight is 88761 against Q's 15, so R runs nearly all
// the time (Q gets the 1 .. 2 ms tick period once, while R is briefly
// ineligible). CPU 1's idle balances (due at 2, 4, 6, 8 ms, as above) see
// Q (pinned) and R running: LBF_SOME_PINNED, nothing moved, failures
// 1, 2, 3, 4. At the fourth, migrate_task with nr_balance_failed 4 >
// cache_nice_tries + 2 = 3: need_active_balance(); R may run on CPU 1, so
// CPU 0's stopper is woken (stop_one_cpu_nowait) and, at the IPI, pushes R:
// it is the only task CPU 1 may take. CPU 0 then runs Q, CPU 1 runs R, and
// the stopper's success resets nr_balance_failed.
TEST_CASE("active balance: the stopper pushes the running task after four failures", "[balance]")
{
	Workload wl = workload({hog("R", -20), pinned(hog("Q", 19), {0})});
	wl.duration = 50 * MS;
	Simulation sim(smp(1000, 2), wl);
	MigrationRecorder r;
	Recorder sw;
	sim.add_observer(&r);
	sim.add_observer(&sw);
	sim.run();

	REQUIRE(r.migrations.size() == 1);
	CHECK(r.migrations[0].t == 8 * MS);
	CHECK(r.migrations[0].task == 0);
	CHECK(r.migrations[0].cpu == 0);  // by the stopper on the busiest CPU
	const BalanceCpu& b = sim.balance_state().cpu[1];
	CHECK(b.lb_failed[CPU_IDLE] == 4);
	CHECK(b.alb_pushed == 1);
	CHECK(sim.topology().sd(1)->nr_balance_failed == 0);
	CHECK(sim.current(0) == 1);
	CHECK(sim.current(1) == 0);
	// R left CPU 0 preempted by the stopper (migration/0, shown as the idle
	// task), Q was picked there when the stopper was done, and R started on
	// CPU 1 at the same instant: attach_one_task() runs in the stopper.
	bool to_stopper = false, q_in = false, in = false;
	for (const Switch& s : sw.switches) {
		to_stopper = to_stopper || (s.t == 8 * MS && s.prev == 0 && s.next == IDLE);
		q_in = q_in || (s.t == 8 * MS && s.prev == IDLE && s.next == 1);
		in = in || (s.t == 8 * MS && s.prev == IDLE && s.next == 0);
	}
	CHECK(to_stopper);
	CHECK(q_in);
	CHECK(in);
}

// The stopper switches out whatever runs on the busiest CPU, also when the
// task it moves is a queued one, and that CPU then picks afresh (6.18.44 and
// 7.1.5: the stopper's wake-up is resched_curr(), __schedule() puts curr
// back with put_prev_entity(), and the pick after the stopper sets the next
// task as new, its protection and prev_sum_exec_runtime included). C
// (unpinned) and A (pinned to CPU 0) fork at 0 on CPU 0, C first: as in the
// first case above, A runs [4, 6) while C waits, and CPU 1's idle balances
// have not moved C by 5 ms (failures at 2 and 4). At 5 ms CPU 0's stopper is
// asked (by hand) to push to CPU 1: it takes C, the only task it may move,
// and CPU 0 switches A out to the stopper and back in at 5 ms.
TEST_CASE("the stopper's CPU picks afresh after the stopper moved a queued task", "[balance]")
{
	Workload wl = workload({hog("C"), pinned(hog("A"), {0})});
	wl.duration = 20 * MS;
	Simulation sim(smp(1000, 2), wl);
	MigrationRecorder r;
	Recorder sw;
	sim.add_observer(&r);
	sim.add_observer(&sw);
	sim.run_until(5 * MS);
	REQUIRE(r.migrations.empty());
	REQUIRE(sim.current(0) == 1);
	const Task& A = sim.tasks()[1];
	REQUIRE(A.se.prev_sum_exec_runtime == 1 * MS);  // picked at 4 ms after running [1, 2)

	BalanceCpu& b0 = sim.balance_state().cpu[0];
	b0.active_balance = true;
	b0.push_cpu = 1;
	static_cast<Machine&>(sim).send_nohz_kick(0, ACTIVE_STOP_KICK);  // stop_one_cpu_nowait()
	sim.run_until(5 * MS + 1);

	REQUIRE(r.migrations.size() == 1);
	CHECK(r.migrations[0].task == 0);
	CHECK(r.migrations[0].t == 5 * MS);
	CHECK(sim.current(0) == 1);
	CHECK(sim.current(1) == 0);
	bool to_stopper = false, back = false;
	for (const Switch& s : sw.switches) {
		to_stopper = to_stopper || (s.t == 5 * MS && s.prev == 1 && s.next == IDLE);
		back = back || (s.t == 5 * MS && s.prev == IDLE && s.next == 1);
	}
	CHECK(to_stopper);
	CHECK(back);
	CHECK(A.se.sum_exec_runtime == 2 * MS);
	CHECK(A.se.prev_sum_exec_runtime == 2 * MS);  // set_next_entity() at 5 ms
}
