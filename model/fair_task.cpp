// SPDX-License-Identifier: GPL-2.0-only
// The task level of the fair class (kernel/sched/fair.c, 6.18.44 and
// 7.1.5): the functions the core calls for a task, each a walk over the
// task's entity and the group entities above it (for_each_sched_entity),
// called on the CPU's root cfs_rq. For a task of the root group the walk is
// one step and every group-only line does nothing, so a flat workload is
// scheduled as before groups existed.
//
//   enqueue_task_fair()   loop 1 enqueues each level not yet queued (a
//                         group's entity as a wake-up: it is placed with
//                         the lag it left with), loop 2 updates the levels
//                         above; both count the task in h_nr_queued.
//   dequeue_entities()    loop 1 dequeues while the cfs_rq left behind is
//                         empty (a group's entity as a sleep, so it may be
//                         delayed), then makes the rest of the path the next
//                         buddy when the task slept; loop 2 updates above.
//   pick_next_task_fair() picks level by level from the root, restarting
//                         when a pick finally dequeues a delayed entity,
//                         then puts prev and sets next only below the group
//                         both are in.
//   task_tick_fair()      entity_tick() on every level, leaf first.
//   check_preempt_wakeup_fair()  compares the waker with curr at the level
//                         of the group they share (find_matching_se()).
//
// The group slice (aef6987d8954, 6.12): a group's entity carries the
// smallest slice queued below it, as a custom slice, so its deadline and
// protection follow its most latency-sensitive task.
#include "model/fair.hpp"
#include "model/task_group.hpp"

namespace eevdf {

namespace {

// is_same_group(): both queued on one cfs_rq.
bool is_same_group(const SchedEntity* se, const SchedEntity* pse) { return se->parent == pse->parent; }

// find_matching_se(): climb the deeper entity to the other's depth, then
// both until they are queued on the same cfs_rq.
void find_matching_se(SchedEntity*& se, SchedEntity*& pse)
{
	int se_depth = se->depth, pse_depth = pse->depth;
	while (se_depth > pse_depth) {
		se_depth--;
		se = parent_entity(se);
	}
	while (pse_depth > se_depth) {
		pse_depth--;
		pse = parent_entity(pse);
	}
	while (!is_same_group(se, pse)) {
		se = parent_entity(se);
		pse = parent_entity(pse);
	}
}

}  // namespace

// ---------------------------------------------------------------- enqueue

// min_vruntime_cb_propagate() after a level's slice changed: the tree's
// min_slice/max_slice above the entity are recomputed (563bc2161b94, 6.15).
static void propagate_slice(CfsRq& cfs_rq, SchedEntity* se)
{
	if (se != cfs_rq.curr)
		cfs_rq.timeline.propagate(se);
}

void CfsRq::enqueue_task_fair(SchedEntity* se, unsigned flags)
{
	const PeltFeatures pf{feat(Feature::UTIL_EST), true};
	// util_est is the root's (rq->cfs) whatever the task's group.
	if (tracks_load() && (!se->sched_delayed || (flags & ENQUEUE_DELAYED)))
		util_est_enqueue(avg, se->avg, pf);
	if (flags & ENQUEUE_DELAYED) {
		cfs_rq_of(se).requeue_delayed_entity(se);
		return;
	}
	const bool task_new = !(flags & ENQUEUE_WAKEUP);
	// A task re-queued by a sched_change while delayed arrives delayed.
	const u64 h_nr_delayed = task_new && se->sched_delayed ? 1 : 0;
	u64 h_nr_idle_add = se->idle_policy;
	u64 slice = 0;

	SchedEntity* e = se;
	for (; e; e = parent_entity(e)) {
		CfsRq& q = cfs_rq_of(e);
		if (e->on_rq) {
			if (e->sched_delayed)
				q.requeue_delayed_entity(e);
			break;
		}
		if (slice) {
			e->slice = slice;
			e->custom_slice = true;
		}
		q.enqueue_entity(e, flags);
		slice = q.cfs_rq_min_slice();
		q.h_nr_queued++;
		q.nr_delayed += h_nr_delayed;
		q.h_nr_idle += h_nr_idle_add;
		flags = ENQUEUE_WAKEUP;
	}
	for (; e; e = parent_entity(e)) {
		CfsRq& q = cfs_rq_of(e);
		q.update_load_avg(e, UPDATE_TG);
		q.update_cfs_group(e);
		e->slice = slice;
		propagate_slice(q, e);
		slice = q.cfs_rq_min_slice();
		q.h_nr_queued++;
		q.nr_delayed += h_nr_delayed;
		q.h_nr_idle += h_nr_idle_add;
	}
}

// ---------------------------------------------------------------- dequeue

// A sleep folds util_avg into the task's estimate before the dequeue's own
// PELT update (up to 6.18; 7.x samples it inside update_load_avg()).
bool CfsRq::dequeue_task_fair(SchedEntity* se, unsigned flags)
{
	const PeltFeatures pf{feat(Feature::UTIL_EST), true};
	if (tracks_load()) {
		if (!se->sched_delayed)
			util_est_dequeue(avg, se->avg, pf);
		if (!paths_->util_est_after_ageing)
			util_est_update(se->avg, (flags & DEQUEUE_SLEEP) != 0, pf);
	}
	return dequeue_entities(se, flags);
}

bool CfsRq::dequeue_entities(SchedEntity* se, unsigned flags)
{
	const bool was_sched_idle = sched_idle_rq();
	const bool task_sleep = flags & DEQUEUE_SLEEP;
	const bool task_delayed = flags & DEQUEUE_DELAYED;
	SchedEntity* const p = se->is_task() ? se : nullptr;
	u64 h_nr_queued_sub = 0, h_nr_delayed_sub = 0, h_nr_idle_sub = 0;
	u64 slice = 0;
	if (p) {
		h_nr_queued_sub = 1;
		h_nr_idle_sub = p->idle_policy;
		// Still delayed when it leaves (a migration or sched_change takes it
		// off the queue delayed): it counted as delayed, not runnable.
		if (!task_sleep && !task_delayed && se->sched_delayed)
			h_nr_delayed_sub = 1;
	}

	SchedEntity* e = se;
	for (; e; e = parent_entity(e)) {
		CfsRq& q = cfs_rq_of(e);
		if (!q.dequeue_entity(e, flags)) {
			if (e == p)
				return false;
			slice = q.cfs_rq_min_slice();
			break;  // a group's entity delayed: loop 2 starts at it
		}
		q.h_nr_queued -= h_nr_queued_sub;
		q.nr_delayed -= h_nr_delayed_sub;
		q.h_nr_idle -= h_nr_idle_sub;
		if (q.load) {
			slice = q.cfs_rq_min_slice();
			e = parent_entity(e);
			if (task_sleep && e)
				set_next_buddy(e);
			break;
		}
		// The group is empty: its entity leaves its parent as a sleep.
		flags |= DEQUEUE_SLEEP;
		flags &= ~(DEQUEUE_DELAYED | DEQUEUE_SPECIAL);
	}
	for (; e; e = parent_entity(e)) {
		CfsRq& q = cfs_rq_of(e);
		q.update_load_avg(e, UPDATE_TG);
		q.update_cfs_group(e);
		e->slice = slice;
		propagate_slice(q, e);
		slice = q.cfs_rq_min_slice();
		q.h_nr_queued -= h_nr_queued_sub;
		q.nr_delayed -= h_nr_delayed_sub;
		q.h_nr_idle -= h_nr_idle_sub;
	}
	// "balance early to pull high priority tasks"
	if (!was_sched_idle && sched_idle_rq() && became_sched_idle)
		became_sched_idle(became_sched_idle_arg);
	return true;
}

// ---------------------------------------------------------------- buddies

void CfsRq::set_next_buddy(SchedEntity* se)
{
	for (; se; se = parent_entity(se)) {
		if (warn().on(Warn::SET_NEXT_BUDDY_NOT_QUEUED, !se->on_rq))
			return;
		if (se->idle_policy)
			return;  // se_is_idle()
		cfs_rq_of(se).next = se;
	}
}

// clear_buddies() / __clear_buddies_next(): se stops being the buddy, and
// so do its group entities while they are theirs.
void CfsRq::clear_buddies(SchedEntity* se)
{
	if (next != se)
		return;
	for (; se; se = parent_entity(se)) {
		CfsRq& q = cfs_rq_of(se);
		if (q.next != se)
			break;
		q.next = nullptr;
	}
}

// ---------------------------------------------------------------- pick

SchedEntity* CfsRq::pick_next_task_fair()
{
	SchedEntity* const prev = curr_task();
	SchedEntity* se = nullptr;
	// pick_task_fair(): down from the root; a pick that finally dequeued a
	// delayed entity (nullptr) starts again from the root, a failed pick
	// (no eligible entity: arithmetic gone wrong) ends it.
	while (nr_queued) {
		CfsRq* q = this;
		const u64 failures = pick_failures;
		do {
			q->update_curr_if_queued();
			se = q->pick_next_entity();
			q = se ? se->my_q : nullptr;
		} while (q);
		if (se || pick_failures != failures)
			break;
	}
	if (!se) {
		if (prev)
			put_prev_task_fair(prev);
		return nullptr;
	}
	if (se == prev)
		return se;
	if (!prev) {
		set_next_task_fair(se, true);  // from the idle task: every level
		return se;
	}
	SchedEntity* n = se;
	SchedEntity* pse = prev;
	while (!is_same_group(n, pse)) {
		const int n_depth = n->depth, pse_depth = pse->depth;
		if (n_depth <= pse_depth) {
			cfs_rq_of(pse).put_prev_entity(pse);
			pse = parent_entity(pse);
		}
		if (n_depth >= pse_depth) {
			cfs_rq_of(n).set_next_entity(n, true);
			n = parent_entity(n);
		}
	}
	CfsRq& common = cfs_rq_of(n);
	common.put_prev_entity(pse);
	common.set_next_entity(n, true);
	list_move_task_head(se);  // __set_next_task_fair(): cfs_tasks is MRU
	return se;
}

void CfsRq::put_prev_task_fair(SchedEntity* prev)
{
	for (SchedEntity* e = prev; e; e = parent_entity(e))
		cfs_rq_of(e).put_prev_entity(e);
}

void CfsRq::set_next_task_fair(SchedEntity* se, bool first)
{
	for (SchedEntity* e = se; e; e = parent_entity(e))
		cfs_rq_of(e).set_next_entity(e, first);
	if (first)
		list_move_task_head(se);
}

// ---------------------------------------------------------------- tick, yield

void CfsRq::task_tick_fair(bool queued)
{
	for (SchedEntity* e = curr_task(); e; e = parent_entity(e))
		cfs_rq_of(e).entity_tick(queued);
}

// yield_task_fair(): nothing if the task is alone on the CPU; otherwise its
// own level only (the group entities above it are untouched).
void CfsRq::yield_task_fair()
{
	if (h_nr_queued == 1)
		return;
	SchedEntity* se = curr_task();
	if (!se) {
		update_curr();
		return;
	}
	CfsRq& q = cfs_rq_of(se);
	q.clear_buddies(se);
	q.update_curr();
	q.yield_entity(se);
}

// ---------------------------------------------------------------- wake-up

void CfsRq::check_preempt_wakeup_fair(SchedEntity* pse, unsigned wake_flags)
{
	SchedEntity* se = curr_task();
	if (!se || se == pse)
		return;
	// test_tsk_need_resched(): only the full flag ends the check here (6.6 ..
	// 7.1.5); with only the lazy one (PREEMPT_LAZY) it goes on, so update_curr(),
	// the pick (a delayed entity it picks is dequeued) and the protection
	// updates still happen.
	if (test_tsk_need_resched())
		return;
	if (paths_->idle_preempt_first && preempt_idle_curr(pse, se))
		return;
	if (!feat(Feature::WAKEUP_PREEMPTION))
		return;
	const SchedEntity* p = pse;
	if (pse)
		find_matching_se(se, pse);
	warn().on(Warn::WAKEUP_PREEMPT_NO_WAKEE, pse == nullptr);
	cfs_rq_of(se).check_preempt_matched(pse, se, p, wake_flags);
}

}  // namespace eevdf
