// SPDX-License-Identifier: GPL-2.0-only
// Queueing: enqueue_entity(), dequeue_entity() (with DELAY_DEQUEUE),
// requeue_delayed_entity(), and set_next_entity()/put_prev_entity(), which
// take curr out of the tree and put it back.
#include "oracle/internal.hpp"

namespace eevdf::oracle {

// enqueue_entity() on the entity's cfs_rq: a group's entity is weighed
// (update_cfs_group()) before it is placed. curr is placed before
// update_curr(), as the kernel does; on one CPU no path enqueues curr (a
// set_user_nice() has put it back first), but the order is the kernel's.
void DecisionOracle::enqueue_entity(Ent& e, unsigned flags)
{
	On on(*this, e.cfs);
	const bool is_curr = q().curr == id_of(e);
	if (is_curr)
		place_entity(e, flags);
	update_curr();
	update_cfs_group(e);
	if (!is_curr)
		place_entity(e, flags);
	q().nr_queued++;
	if (!is_curr)
		tree_insert(e);
	e.on_rq = true;
}

// dequeue_entity(): 6.12+ keep an ineligible sleeper queued (DELAY_DEQUEUE,
// not for DEQUEUE_SPECIAL) and save d - v for a non-sleep dequeue
// (PLACE_REL_DEADLINE); the final dequeue of a delayed entity clips its
// positive lag (DELAY_ZERO). Returns false when delayed.
bool DecisionOracle::dequeue_entity(Ent& e, unsigned flags)
{
	On on(*this, e.cfs);
	update_curr();
	clear_buddies(e.cfs, id_of(e));
	const bool sleep = flags & DQ_SLEEP;
	if (rules_->v612_code && !(flags & DQ_DELAYED)) {
		const bool delay = sleep && !(flags & DQ_SPECIAL);
		if (feat(Feature::DELAY_DEQUEUE) && delay && !entity_eligible(e)) {
			if (rules_->delayed_floor)
				update_entity_lag(e);  // 7.x: the lag at the delay, the floor it leaves with
			e.delayed = true;
			return false;
		}
	}
	update_entity_lag(e);
	if (feat(Feature::PLACE_REL_DEADLINE) && !sleep) {
		e.deadline -= e.vruntime;
		e.rel_deadline = true;
	}
	if (id_of(e) != q().curr)
		tree_erase(e);
	e.on_rq = false;
	q().nr_queued--;
	if ((flags & (DQ_SAVE | DQ_MOVE)) != DQ_SAVE)
		update_min_vruntime();
	update_cfs_group(e);
	if (flags & DQ_DELAYED) {
		e.delayed = false;
		if (!rules_->delayed_floor && feat(Feature::DELAY_ZERO) && e.vlag() > 0)
			e.lagword = 0;
	}
	return true;
}

// requeue_delayed_entity() (6.12+): with DELAY_ZERO a delayed entity that
// became eligible is re-placed at zero lag.
void DecisionOracle::requeue_delayed_entity(Ent& e)
{
	On on(*this, e.cfs);
	if (rules_->delayed_floor) {
		// 7.x: re-placed whenever its lag is not V - v.
		if (update_entity_lag(e)) {
			const bool is_curr = id_of(e) == q().curr;
			q().nr_queued--;
			if (!is_curr)
				tree_erase(e);
			place_entity(e, 0);
			if (!is_curr)
				tree_insert(e);
			q().nr_queued++;
		}
	} else if (feat(Feature::DELAY_ZERO)) {
		update_entity_lag(e);
		if (e.vlag() > 0) {
			const bool is_curr = id_of(e) == q().curr;
			q().nr_queued--;
			if (!is_curr)
				tree_erase(e);
			e.lagword = 0;
			place_entity(e, 0);
			if (!is_curr)
				tree_insert(e);
			q().nr_queued++;
		}
	}
	e.delayed = false;
}

// set_next_entity(): curr leaves the tree; 6.6-6.16 stash the deadline in
// vlag, 6.17+ set the protection (6.18.17+ only for first = true).
void DecisionOracle::set_next_entity(Ent& e, bool first)
{
	On on(*this, e.cfs);
	clear_buddies(e.cfs, id_of(e));
	if (e.on_rq) {
		tree_erase(e);
		if (rules_->stash)
			e.lagword = e.deadline;
		else if (!rules_->protect_first_only || first)
			set_protect_slice(e);
	}
	e.exec_start = now_;
	q().curr = id_of(e);
	e.prev_sum_exec = e.sum_exec;
}

void DecisionOracle::put_prev_entity(Ent& e)
{
	On on(*this, e.cfs);
	if (e.on_rq) {
		update_curr();
		tree_insert(e);
	}
	q().curr = IDLE;
}

}  // namespace eevdf::oracle
