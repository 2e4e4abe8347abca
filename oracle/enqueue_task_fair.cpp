// SPDX-License-Identifier: GPL-2.0-only
// The task level of the fair class, which walks the group hierarchy
// (CONFIG_FAIR_GROUP_SCHED, 6.18.44 and 7.1.5 fair.c alike):
// enqueue_task_fair() and dequeue_entities() up the chain of a task's
// entities, put_prev_task_fair()/set_next_task_fair() on every level,
// task_tick_fair(), and the next buddy a sleeping task leaves its group.
// Without groups each walk has one level and is the flat code.
#include "oracle/internal.hpp"

namespace eevdf::oracle {

u64 DecisionOracle::min_slice_of(int cfs)
{
	On on(*this, cfs);
	return cfs_rq_min_slice();
}

// A group entity's slice from cfs_rq_min_slice() of its cfs_rq (or, for a
// delayed group entity, of the cfs_rq it is on). The kernel reads the
// root's min_slice augment, which rotations leave stale (see
// cfs_rq_min_slice()): once that cfs_rq has seen mixed slices the value
// depends on the tree's shape. Unless the model keeps exact augments
// (Config::exact_tree_augments) nothing is compared from then on
// (OracleCounters::augment_skipped): a group slice is read again at every
// renewal and placement, so adopting the model's value once would not do.
//
// 6.12 sets the slice of an entity in its tree without propagating it
// (563bc2161b94 came in 6.15): the min_slice augments above it keep the
// old slice, so its cfs_rq's min slice is undetermined from then on, as
// with mixed slices (the model propagates only under exact augments).
void DecisionOracle::set_group_slice(Ent& e, u64 slice, int from)
{
	if (rules_->slice_tree_stale && e.in_tree && e.slice != slice)
		qs_[static_cast<size_t>(e.cfs)].slices_mixed = true;
	e.slice = slice;
	if (!cfg_.exact_tree_augments && from >= 0 && qs_[static_cast<size_t>(from)].slices_mixed)
		stale_augment_ = true;
}

// enqueue_task_fair(): enqueue the entities up to the first one already
// queued (requeued if it is delayed); a group's entity takes the smallest
// slice queued below it, as a custom slice; then the levels above take
// theirs (se->slice = slice) and count the task.
void DecisionOracle::enqueue_task_fair(int task, unsigned flags)
{
	int se = task;
	u64 slice = 0;
	int from = 0;  // the cfs_rq slice is the min slice of
	for (; se != IDLE; se = ent(se).parent) {
		Ent& e = ent(se);
		if (e.on_rq) {
			if (e.delayed)
				requeue_delayed_entity(e);
			break;
		}
		if (slice) {
			set_group_slice(e, slice, from);
			e.custom = true;
		}
		enqueue_entity(e, flags);
		slice = min_slice_of(from = e.cfs);
		qs_[static_cast<size_t>(e.cfs)].h_nr_queued++;
		flags = EN_WAKEUP;
	}
	for (; se != IDLE; se = ent(se).parent) {
		Ent& e = ent(se);
		update_cfs_group(e);
		set_group_slice(e, slice, from);
		slice = min_slice_of(from = e.cfs);
		qs_[static_cast<size_t>(e.cfs)].h_nr_queued++;
	}
}

// dequeue_entities(): dequeue up the chain while each cfs_rq is left
// empty (the levels above with DEQUEUE_SLEEP); a delayed entity stops the
// walk (-1 if it is the task itself). A sleeping task's group, left with
// other entities, becomes the next buddy on every level above. The levels
// above take the new min slice below them. v6.12.0: a group entity's
// dequeue starts from its own cfs_rq's min slice, and a delayed break
// keeps `slice` (0 after a task's dequeue) for the delayed entity.
int DecisionOracle::dequeue_entities(int se, unsigned flags)
{
	const bool is_task = ent(se).my_q < 0;
	const int task = is_task ? se : IDLE;
	const bool task_sleep = flags & DQ_SLEEP, task_delayed = flags & DQ_DELAYED;
	const u64 h = is_task ? 1 : 0;
	u64 slice = 0;
	int from = -1;  // the cfs_rq slice is the min slice of (-1: none, a constant)
	if (!is_task && rules_->break_keeps_slice)
		slice = min_slice_of(from = ent(se).my_q);
	for (; se != IDLE; se = ent(se).parent) {
		Ent& e = ent(se);
		if (!dequeue_entity(e, flags)) {
			if (se == task)
				return -1;
			if (!rules_->break_keeps_slice)
				slice = min_slice_of(from = e.cfs);
			break;
		}
		Q& cq = qs_[static_cast<size_t>(e.cfs)];
		cq.h_nr_queued -= h;
		if (cq.nr_queued) {  // cfs_rq->load.weight: every entity weighs > 0
			slice = min_slice_of(from = e.cfs);
			se = e.parent;
			if (task_sleep && se != IDLE)
				set_next_buddy(se);
			break;
		}
		flags |= DQ_SLEEP;
		flags &= ~(DQ_DELAYED | DQ_SPECIAL);
	}
	for (; se != IDLE; se = ent(se).parent) {
		Ent& e = ent(se);
		update_cfs_group(e);
		set_group_slice(e, slice, from);
		slice = min_slice_of(from = e.cfs);
		qs_[static_cast<size_t>(e.cfs)].h_nr_queued -= h;
	}
	if (task != IDLE && task_delayed)
		hrtick_update();  // the delayed task's final dequeue, then __block_task()
	return 1;
}

void DecisionOracle::put_prev_task_fair(int task)
{
	for (int se = task; se != IDLE; se = ent(se).parent)
		put_prev_entity(ent(se));
}

// set_next_task_fair(): every level, deepest first (then
// __set_next_task_fair(), whose hrtick the caller arms).
void DecisionOracle::set_next_task_fair(int task, bool first)
{
	for (int se = task; se != IDLE; se = ent(se).parent)
		set_next_entity(ent(se), first);
}

// set_next_buddy(): se and the entities above it become their cfs_rqs'
// next, up to an idle one.
void DecisionOracle::set_next_buddy(int se)
{
	for (; se != IDLE; se = ent(se).parent) {
		const Ent& e = ent(se);
		if (!e.on_rq || se_is_idle(e))
			return;
		qs_[static_cast<size_t>(e.cfs)].next = se;
	}
}

// clear_buddies(): if se is its cfs_rq's next, it and the entities above
// it stop being the buddy while they are (__clear_buddies_next()).
void DecisionOracle::clear_buddies(int cfs, int se)
{
	if (se == IDLE || qs_[static_cast<size_t>(cfs)].next != se)
		return;
	for (; se != IDLE; se = ent(se).parent) {
		Q& cq = qs_[static_cast<size_t>(ent(se).cfs)];
		if (cq.next != se)
			break;
		cq.next = IDLE;
	}
}

// task_tick_fair(): entity_tick() on every level of the running task,
// deepest first: charge, reweigh a group's entity, and with a queued
// (hrtick) tick reschedule.
void DecisionOracle::task_tick_fair(bool queued)
{
	for (int se = running_; se != IDLE; se = ent(se).parent) {
		Ent& e = ent(se);
		On on(*this, e.cfs);
		update_curr();
		update_cfs_group(e);
		if (queued)
			resched_curr_lazy();
	}
}

}  // namespace eevdf::oracle
