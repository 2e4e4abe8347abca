// SPDX-License-Identifier: GPL-2.0-only
// Weight and slice changes of the running task: set_user_nice() and
// sched_setattr(sched_runtime), each through reweight_entity() off the
// queue, and prio_changed_fair().
#include "oracle/internal.hpp"

#include <algorithm>

namespace eevdf::oracle {

// reweight_entity() for an entity off the queue: vlag scaled by
// w_old / w_new; from 6.13 (6d71a9c61604) a kept relative deadline too.
void DecisionOracle::reweight_off_queue(Ent& e, const LoadWeight& lw)
{
	e.lagword = static_cast<u64>(wscale(e.vlag(), e.load.weight, lw.weight));
	if (rules_->rel_deadline_613 && e.rel_deadline)
		e.deadline = static_cast<u64>(wscale(static_cast<s64>(e.deadline), e.load.weight, lw.weight));
	e.load = lw;
}

// prio_changed_fair() for the running task (the only caller in this model).
void DecisionOracle::prio_changed_fair(const Simulation& sim, Ent& e, int old_prio)
{
	if (!e.on_rq)
		return;
	if (qs_[0].nr_queued == 1)  // rq->cfs.nr_queued: the root's entities
		return;
	if (running_ == id_of(e)) {
		if (120 + e.nice > old_prio)
			resched_curr();
	} else {
		wakeup_preempt(sim, id_of(e), 0);
	}
}

void DecisionOracle::adopt_saved_lag(Ent& e, const s64* model_vlag)
{
	if (e.slice_augment_dependent && model_vlag && *model_vlag != e.vlag()) {
		counters_.undetermined_slices++;
		e.lagword = static_cast<u64>(*model_vlag);
	}
	e.slice_augment_dependent = false;
}

// set_user_nice(): dequeue (SAVE), put_prev, reweight off the queue,
// enqueue (RESTORE), set_next_task(first = false), prio_changed.
void DecisionOracle::set_user_nice(Ent& e, int nice, const s64* model_vlag)
{
	if (e.nice == nice || nice < MIN_NICE || nice > MAX_NICE)
		return;
	const int id = id_of(e);
	const bool queued = e.on_rq, running = running_ == id;
	if (queued && dequeue_entities(id, DQ_SAVE) >= 0)
		hrtick_update();
	adopt_saved_lag(e, model_vlag);
	if (running)
		put_prev_task_fair(id);
	saved_vlag_ = e.vlag();
	saved_old_weight_ = e.load.weight;
	saved_old_prio_ = 120 + e.nice;
	e.nice = nice;
	// SCHED_IDLE keeps weight 3; v6.6's set_load_weight() does not even
	// reweight to it (6.12+ reweight to the same weight).
	if (!e.idle)
		reweight_off_queue(e, task_load_weight(nice));
	else if (version_ != Version::V6_6)
		reweight_off_queue(e, e.load);
	if (queued) {
		enqueue_task_fair(id, EN_RESTORE);
		hrtick_update_enqueued();
	}
	if (running)
		set_next_task_fair(id, false);
}

// sched_setattr(sched_runtime) on SCHED_OTHER (6.12+, 857b158dc5e8): no
// change unless the runtime differs from the current slice; else the
// change path (dequeue SAVE|MOVE, put_prev, __setscheduler_params() with
// the slice clamped to [0.1 ms, 100 ms] or cleared, a same-weight
// reweight, enqueue RESTORE|MOVE, set_next_task). The priority is unchanged,
// so no prio_changed().
void DecisionOracle::sched_setattr_runtime(Ent& e, u64 runtime, const s64* model_vlag)
{
	if (!rules_->custom_slices)
		return;
	if (runtime == e.slice)
		return;
	const int id = id_of(e);
	const bool queued = e.on_rq, running = running_ == id;
	if (queued && dequeue_entities(id, DQ_SAVE | DQ_MOVE) >= 0)
		hrtick_update();
	adopt_saved_lag(e, model_vlag);
	if (running)
		put_prev_task_fair(id);
	if (runtime) {
		e.custom = true;
		e.slice = std::clamp<u64>(runtime, NSEC_PER_MSEC / 10, NSEC_PER_MSEC * 100);
	} else {
		e.custom = false;
		e.slice = cfg_.base_slice_ns;
	}
	reweight_off_queue(e, e.load);
	if (queued) {
		enqueue_task_fair(id, EN_RESTORE | EN_MOVE);
		hrtick_update_enqueued();
	}
	if (running)
		set_next_task_fair(id, false);
}

}  // namespace eevdf::oracle
