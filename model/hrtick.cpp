// SPDX-License-Identifier: GPL-2.0-only
// The hrtick (kernel/sched/core.c hrtick_start() and its 7.x rework,
// fair.c hrtick_start_fair() and hrtick_update()): a per-CPU timer that ends
// the running task's slice between ticks, when HRTICK is on, and its expiry.
#include "model/simulation.hpp"

namespace eevdf {

// The hrtick expired: entity_tick(queued = 1), which asks for a resched.
void Simulation::hrtick(u32 cpu)
{
	Rq& rq = rqs_[cpu];
	if (!rq.cfs.curr_task())
		return;
	set_clock(rq);
	rq.cfs.task_tick_fair(true);
	event_cpu_ = cpu;
	notify(&Observer::on_tick, now_, true);
}

// hrtick_start_fair(rq, p) (6.6 - 6.18): end p's slice by timer, measured
// in real runtime since its pick, when more than one task is queued;
// hrtick_start() never arms it less than 10 us ahead. With one task queued
// an armed timer is left alone. p is rq->donor, the running task, even
// between a sched_change's put_prev and set_next.
//
// 7.x: the timer is set for the real time to p's virtual deadline,
// w (d - v) / NICE_0_LOAD (no IRQ time here to scale it by), through
// hrtick_start() below. A start asked of another CPU arrives by IPI in the
// kernel; the model arms it at once (the expiry is absolute in both).
void Simulation::hrtick_start_fair(u32 cpu, const SchedEntity* se)
{
	Rq& rq = rqs_[cpu];
	if (!cfg_.features[Feature::HRTICK] || !se || rq.cfs.h_nr_queued <= 1)
		return;
	constexpr u64 HRTICK_MIN_NS = 10 * NSEC_PER_USEC;
	if (cfg_.preset->paths.hrtick_rework) {
		const s64 vdelta = wrapped_diff(se->deadline, se->vruntime);
		if (vdelta < 0) {
			if (se == rq.cfs.curr_task())
				rq.cfs.resched_curr();
			return;
		}
		hrtick_start(cpu, se->load.weight * static_cast<u64>(vdelta) / NICE_0_LOAD);
		return;
	}
	u64 ran = se->sum_exec_runtime - se->prev_sum_exec_runtime;
	if (cfg_.bugs[Bug::HRTICK_FROM_PICK_TIME])
		ran = 0;  // as if picked now: the runtime since the pick is forgotten
	const s64 delta = static_cast<s64>(se->slice - ran);
	if (delta < 0) {
		rq.cfs.resched_curr();  // resched_curr(): full, an IPI if remote
		return;
	}
	rq.hrtick_at = now_ + std::max<u64>(static_cast<u64>(delta), HRTICK_MIN_NS);
	touch(cpu);
}

// hrtick_update(): at the end of enqueue_task_fair() and dequeue_task_fair(),
// for the task running there (none on the idle task). 7.x calls it only
// from enqueue (hrtick_update_enqueued()).
void Simulation::hrtick_update(u32 cpu, const SchedEntity* donor)
{
	if (donor && !cfg_.preset->paths.hrtick_rework)
		hrtick_start_fair(cpu, donor);
}

// enqueue_task_fair()'s hrtick_update(); 7.x: only when no hrtick is armed
// (hrtick_active()), so an armed timer is never moved by an enqueue.
void Simulation::hrtick_update_enqueued(u32 cpu, const SchedEntity* donor)
{
	if (!cfg_.preset->paths.hrtick_rework) {
		hrtick_update(cpu, donor);
		return;
	}
	if (donor && rqs_[cpu].hrtick_at == NEVER)
		hrtick_start_fair(cpu, donor);
}

// 7.x hrtick_start(): at least 10 us; inside __schedule() only noted, else
// armed unless an armed timer already expires within 5 us of the new time
// (hrtick_needs_rearm()).
void Simulation::hrtick_start(u32 cpu, u64 delay)
{
	Rq& rq = rqs_[cpu];
	const u64 delta = std::max<u64>(delay, 10 * NSEC_PER_USEC);
	if (rq.hrtick_sched) {
		rq.hrtick_start_pending = true;
		rq.hrtick_delay = delta;
		return;
	}
	hrtick_cond_restart(cpu, now_ + delta);
}

void Simulation::hrtick_cond_restart(u32 cpu, u64 at)
{
	Rq& rq = rqs_[cpu];
	if (rq.hrtick_at != NEVER && (at > rq.hrtick_at ? at - rq.hrtick_at : rq.hrtick_at - at) <= 5000)
		return;
	rq.hrtick_at = at;
	touch(cpu);
}

// 7.x hrtick_schedule_exit(): arm the last start noted in __schedule();
// without one, a CPU going idle cancels its timer and any other keeps it
// (it may fire for a task that did not ask for it: a full resched).
void Simulation::hrtick_schedule_exit(u32 cpu, bool idle)
{
	Rq& rq = rqs_[cpu];
	rq.hrtick_sched = false;
	if (rq.hrtick_start_pending) {
		rq.hrtick_start_pending = false;
		hrtick_cond_restart(cpu, now_ + rq.hrtick_delay);
	} else if (idle && rq.hrtick_at != NEVER) {
		rq.hrtick_at = NEVER;
		touch(cpu);
	}
}

}  // namespace eevdf
