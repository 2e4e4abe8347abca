// SPDX-License-Identifier: GPL-2.0-only
// struct rq: one CPU's run queue and the per-CPU machinery around it: its
// cfs_rq (CfsRq, unchanged from the one-CPU model), clocks, periodic tick
// and hrtick, the wakelist of remote wake-ups, pending IPIs, idle and
// balancing bookkeeping (avg_idle, idle_stamp, next_balance), and the
// cfs_tasks list the load balancer walks.
//
// All CPUs read one global time (a stable TSC: sched_clock_cpu() is the same
// clock everywhere); each rq's clock_task is that time.
#pragma once

#include <vector>

#include "model/config.hpp"
#include "model/dist.hpp"
#include "model/fair.hpp"
#include "model/pelt.hpp"

namespace eevdf {

inline constexpr u64 NEVER = ~0ULL;
inline constexpr u64 SYSCTL_SCHED_MIGRATION_COST = 500'000;  // ns

class Rq {
public:
	Rq(const Config& cfg, u32 cpu);
	Rq(const Rq&) = delete;
	Rq& operator=(const Rq&) = delete;
	Rq(Rq&&) = default;

	const u32 cpu;
	CfsRq cfs;
	class Simulation* owner = nullptr;  // for the fair class's callbacks into the core

	// curr == the idle task: nothing of the fair class is running.
	bool idle() const { return cfs.curr == nullptr; }
	u32 nr_running() const { return static_cast<u32>(cfs.h_nr_queued); }  // fair tasks only
	u32 h_nr_runnable() const { return static_cast<u32>(cfs.h_nr_queued - cfs.nr_delayed); }
	// idle_cpu(): the idle task runs, nothing is queued, no wake-up is on its way.
	// Not during a newidle balance that a task's __schedule() runs: rq->curr
	// is still that task until the switch.
	bool idle_cpu() const { return idle() && !newidle_from_task && nr_running() == 0 && !ttwu_pending; }
	// sched_idle_rq() (sched_idle_cpu() of this CPU): only SCHED_IDLE tasks
	// are queued. Never idle_cpu(): it has tasks.
	bool sched_idle_rq() const { return cfs.sched_idle_rq(); }

	// ---- periodic tick (one clockevent per CPU, on a shared grid)
	u64 next_tick = 0;       // next tick's firing time (grid point minus jitter)
	u64 next_tick_grid = 0;  // the grid point it belongs to
	u64 last_tick_grid = 0;  // the grid point of the last tick delivered
	bool tick_was_running = false;
	u64 tick_offset = 0;     // tick_phase plus the skew_tick offset of this CPU
	u64 grid_tick_after(u64 t, u64 tick_ns) const;  // first grid point strictly after t
	void arm_next_tick(u64 after, u64 tick_ns, u64 jitter);
	u64 prng_next();

	// ---- hrtick
	u64 hrtick_at = NEVER;
	// A task blocked (or exited) and __schedule() will dequeue it after
	// clearing the hrtick: its dequeue re-arms it for the blocked task.
	const SchedEntity* hrtick_dequeue_donor = nullptr;
	// 7.x: hrtick_start() inside __schedule() only notes the delay
	// (rq->hrtick_sched); hrtick_schedule_exit() arms the last one noted.
	bool hrtick_sched = false;
	bool hrtick_start_pending = false;
	u64 hrtick_delay = 0;

	// ---- what curr is doing
	u64 useful_start = 0;  // when curr starts running its own code (after switch cost / IRQ time)
	// The stopper preempted curr (Machine::stopper_preempt()): until the next
	// __schedule() the CPU runs the stop class's task, shown as idle, so that
	// switch neither leaves nor enters idle; the next does whichever it is.
	bool stopper_ran = false;
	// sched_balance_newidle() runs from the __schedule() of a task (prev),
	// which is still rq->curr: the CPU is not idle_cpu() to its own balance.
	bool newidle_from_task = false;

	// ---- wakelist and IPIs
	bool ttwu_pending = false;
	std::vector<int> wake_list;  // tasks queued by remote CPUs, in arrival order; capacity = #tasks
	u64 ipi_at = NEVER;          // the pending IPI's arrival, NEVER if none
	bool ipi_wakelist = false;   // it carries a wakelist flush
	bool ipi_resched = false;    // it carries a resched
	unsigned ipi_nohz_flags = 0; // it carries a nohz idle-balance kick (nohz_csd)

	// ---- a local timer wake-up's resched on its way to __schedule()
	// (Profile::resched_delay): when this CPU's scheduling point comes,
	// NEVER if it is not waiting. Any earlier __schedule() there ends it.
	u64 resched_at = NEVER;

	// ---- idle and balancing (sched_balance_newidle(), sched_balance_domains())
	u64 avg_idle = 2 * SYSCTL_SCHED_MIGRATION_COST;
	u64 idle_stamp = 0;
	u64 max_idle_balance_cost = SYSCTL_SCHED_MIGRATION_COST;
	u64 next_balance = 0;  // jiffies
	bool idle_balance = false;
	bool nohz_idle = false;  // in nohz.idle_cpus_mask (tick stopped while idle)
	u64 rng_state;           // sched_rng() (NI_RANDOM), seeded per CPU

	// ---- the profile's per-CPU draws (model/profile.hpp), one stream per
	// source: a cost that is 0 draws nothing.
	struct Noise {
		Rng switch_cost, tick_jitter, ipi_latency, idle_exit_latency, wakeup_irq_cost, balance_cost, timer_delay,
		    timer_delay_busy, resched_delay, resched_delay_busy, ipi_send_cost,
		    hrtimer_arm_cost;
	} noise;
	static u64 draw(const Dist& d, Rng& stream) { return d.is_zero() ? 0 : d.sample(stream); }

	// ---- statistics
	u64 busy_ns = 0, idle_ns = 0, ticks = 0;
	u64 ipis = 0;              // IPIs received (resched and call-function)
	u64 balance_attempts = 0;  // sched_balance_rq() calls with this CPU as dst
	u64 tasks_pulled = 0;
	u64 switches = 0;

private:
	u64 prng_state_;
};

}  // namespace eevdf
