// SPDX-License-Identifier: GPL-2.0-only
// What the simulation reports as it runs. Metrics, traces and the invariant
// checker are observers; the model itself keeps no history.
#pragma once

#include "model/types.hpp"

namespace eevdf {

class Simulation;

inline constexpr int IDLE = -1;  // the idle task's id in reports

// Callbacks about one CPU (a switch, a tick, a pick, an enqueue, a block)
// happen with Simulation::event_cpu() naming it.
struct Observer {
	virtual ~Observer() = default;

	// A context switch decided at `t` (the pick). `next` starts running its
	// own code at `run_start` = t + switch cost. prev_runnable: prev was
	// preempted (prev_state=R) rather than blocked (S).
	virtual void on_switch(const Simulation&, u64 /*t*/, int /*prev*/, int /*next*/, bool /*prev_runnable*/,
			       u64 /*run_start*/) {}
	// try_to_wake_up() (or wake_up_new_task()) was called for `task`: the
	// start of its wake-up latency. The enqueue may follow later (a
	// wakelist IPI); on_wakeup reports it.
	virtual void on_ttwu(const Simulation&, u64 /*t*/, int /*task*/, int /*waker*/) {}
	// A task moved from one CPU's rq to another's (set_task_cpu()).
	virtual void on_migrate(const Simulation&, u64 /*t*/, int /*task*/, u32 /*from*/, u32 /*to*/) {}
	// A queued task moved by the balancer or an affinity change was just
	// enqueued on its new CPU (ENQUEUE_MIGRATED), before that CPU's wake-up
	// preemption check and before any other task joins it.
	virtual void on_attach(const Simulation&, u64 /*t*/, int /*task*/) {}
	// A task became runnable on its rq (enqueued): forked (new) or woken.
	virtual void on_wakeup(const Simulation&, u64 /*t*/, int /*task*/, int /*waker*/, bool /*new_task*/) {}
	// A task blocked (slept, suspended or exited); `delayed`: DELAY_DEQUEUE kept it queued.
	virtual void on_block(const Simulation&, u64 /*t*/, int /*task*/, bool /*delayed*/, bool /*exited*/) {}
	// A queued task's weight changed (set_user_nice): `vlag` is the lag it
	// was saved with at the dequeue, under `old_weight`; it is queued again.
	virtual void on_reweight(const Simulation&, u64 /*t*/, int /*task*/, s64 /*vlag*/, u64 /*old_weight*/) {}
	// A cpu.weight write reweighted `group`'s queued entity on `cpu`
	// (reweight_entity() of a queued entity; its cfs_rq's
	// last_queued_reweight holds what it found).
	virtual void on_group_reweight(const Simulation&, u64 /*t*/, u32 /*cpu*/, size_t /*group*/) {}
	// `group`'s tg->shares changed (one cpu.weight or cpu.idle write) and
	// every CPU has reweighted its entities: one call per write, so a
	// second write in the same event is seen apart from the first.
	virtual void on_group_shares(const Simulation&, u64 /*t*/, size_t /*group*/) {}
	// The running task moved itself to another group (sched_move_task());
	// its se.parent names the new one.
	virtual void on_move_group(const Simulation&, u64 /*t*/, int /*task*/) {}
	// A periodic tick (or hrtick expiry) was handled.
	virtual void on_tick(const Simulation&, u64 /*t*/, bool /*hrtick*/) {}
	// __schedule() ran its pick: `next` is what runs now (== prev when the
	// pick kept curr; on_switch fires only when they differ).
	virtual void on_schedule(const Simulation&, u64 /*t*/, int /*prev*/, int /*next*/) {}
	// curr called sched_yield() (yield_task_fair() has run).
	virtual void on_yield(const Simulation&, u64 /*t*/, int /*task*/) {}
	// set_user_nice() or sched_setattr(sched_runtime) was called for `task`
	// (whether or not it changed anything); the new values are in the task.
	virtual void on_attr(const Simulation&, u64 /*t*/, int /*task*/) {}
	// After every event the simulation processed (the checker's hook).
	// A futex word was posted (fpost: it was BLOCKED and is RUNNING now), or
	// a task's fwait returned (`blocked` false: it found the word RUNNING)
	// or went to sleep on it (`blocked` true).
	virtual void on_futex_post(const Simulation&, u64 /*t*/, int /*task*/, int /*word*/) {}
	virtual void on_futex_wait(const Simulation&, u64 /*t*/, int /*task*/, int /*word*/, bool /*blocked*/) {}
	// curr set a futex word BLOCKED (schbench's `futex = FUTEX_BLOCKED`).
	virtual void on_futex_block(const Simulation&, u64 /*t*/, int /*task*/, int /*word*/) {}
	virtual void on_event(const Simulation&, u64 /*t*/) {}
};

}  // namespace eevdf
