// SPDX-License-Identifier: GPL-2.0-only
// Queueing on one cfs_rq (kernel/sched/fair.c): place_entity() and the
// saved lag (update_entity_lag(), its clamp), enqueue_entity() and
// dequeue_entity() with delayed dequeue (DELAY_DEQUEUE, DELAY_ZERO),
// requeue_delayed_entity(), PELT's update_load_avg() call, and the task
// level's walks over the group hierarchy that call them:
// enqueue_task_fair(), dequeue_task_fair() and dequeue_entities() (one
// translation unit, so a flat run's one-level walk inlines the per-entity
// functions as before groups).
#include "model/fair.hpp"

#include <algorithm>

#include "model/task_group.hpp"
#include "model/wrapping.hpp"

namespace eevdf {

// place_entity(). Joining a queue of weight W with virtual lag vl moves V by
// -w vl / (W + w), leaving the entity only vl W / (W + w); so the lag is
// inflated to vl (W + w) / W beforehand, and after joining it is vl. W counts
// the others only (the entity is not yet accounted): joining an empty queue
// forfeits the lag.
void CfsRq::place_entity(SchedEntity* se, unsigned flags)
{
	if (paths_->ref_point == KernelPaths::RefPoint::ZeroVruntimeAtAvg)
		update_zero_vruntime();
	const u64 vruntime = avg_vruntime();
	s64 lag = 0;

	if (!se->custom_slice)
		se->slice = cfg_->base_slice_ns;
	u64 vslice = vdelta(se->slice, se->load);

	bool update_zero = false;
	if (feat(Feature::PLACE_LAG) && nr_queued && se->vlag) {
		s64 wsum = static_cast<s64>(avg_load);
		if (curr && curr->on_rq)
			wsum += avg_weight(curr);
		if (bug(Bug::NO_LAG_INFLATION)) {
			lag = se->vlag;
		} else {
			lag = wmul(se->vlag, wsum + avg_weight(se));
			// 7.x: an entity heavier than the rest will pull V to itself,
			// so v0 follows it and its large weight meets a small key.
			update_zero = paths_->avg_full_weight && avg_weight(se) > wsum;
			if (warn().on(Warn::PLACE_ENTITY_NO_LOAD, !wsum))
				wsum = 1;
			lag = div_s64(lag, wsum);
		}
	}
	se->vruntime = vruntime - static_cast<u64>(lag);
	if (update_zero) {
		avg_vruntime_update(-lag);
		ref_vruntime -= static_cast<u64>(lag);
	}

	if (se->rel_deadline) {
		se->deadline += se->vruntime;
		se->rel_deadline = false;
		return;
	}
	// A joining task meets others that are on average halfway through
	// their slice, so it starts with half a slice.
	if (feat(Feature::PLACE_DEADLINE_INITIAL) && (flags & ENQUEUE_INITIAL))
		vslice /= 2;
	se->deadline = se->vruntime + vslice;
}

u64 CfsRq::lag_limit(SchedEntity* se) const
{
	const u64 tick = cfg_->tick_ns;
	if (paths_->lag_clamp == KernelPaths::LagClamp::TwiceSlice) {
		const u64 r = 2 * se->slice > tick ? 2 * se->slice : tick;
		return vdelta(r, se->load);
	}
	// 6e3c0a4e1ad1: the paper's steady-state bound -r_max < lag < max(r_max, q).
	return vdelta(cfs_rq_max_slice() + tick, se->load);
}

// entity_lag(): V - v clamped to +-lag_limit(se) (minmax.h's clamp order).
s64 CfsRq::entity_lag(u64 avruntime, SchedEntity* se) const
{
	const s64 raw = wrapped_diff(avruntime, se->vruntime);
	const s64 limit = static_cast<s64>(lag_limit(se));
	return raw < -limit ? -limit : (raw > limit ? limit : raw);
}

bool CfsRq::update_entity_lag(SchedEntity* se)
{
	warn().on(Warn::UPDATE_ENTITY_LAG_NOT_QUEUED, !se->on_rq);
	if (paths_->ref_point == KernelPaths::RefPoint::ZeroVruntimeAtAvg)
		update_zero_vruntime();
	const u64 v = avg_vruntime();
	s64 vlag = bug(Bug::NO_LAG_CLAMP) ? wrapped_diff(v, se->vruntime) : entity_lag(v, se);
	// 7.x: delayed dequeue exists to burn off negative lag, so the lag it
	// leaves with is never below what it had when the dequeue was delayed
	// (se->vlag, saved then), and DELAY_ZERO forfeits any positive lag.
	if (paths_->delayed_lag_floor && se->sched_delayed) {
		vlag = vlag > se->vlag ? vlag : se->vlag;
		if (feat(Feature::DELAY_ZERO) && !bug(Bug::DELAY_ZERO_KEEPS_LAG))
			vlag = vlag < 0 ? vlag : 0;
	}
	se->vlag = vlag;
	return v - static_cast<u64>(vlag) != se->vruntime;
}

void CfsRq::enqueue_entity(SchedEntity* se, unsigned flags)
{
	const bool is_curr = curr == se;

	// curr is renormalised before update_curr(); others are placed after
	// it, against a V that includes curr's latest runtime.
	if (is_curr)
		place_entity(se, flags);
	update_curr();
	update_load_avg(se, UPDATE_TG | DO_ATTACH);
	se_update_runnable(se);
	// A group's entity takes its share before it is placed, so its saved
	// lag is rescaled to the weight it joins with.
	if (se->my_q)
		update_cfs_group(se);
	if (!is_curr && !(bug(Bug::MIGRATE_KEEPS_VRUNTIME) && (flags & ENQUEUE_MIGRATED)))
		place_entity(se, flags);

	load += se->load.weight;
	nr_queued++;
	if (se->is_task())
		rq_root().list_add_task(se);  // account_entity_enqueue()
	if (nr_queued == 1)
		list_add_leaf_cfs_rq();
	if (flags & ENQUEUE_MIGRATED)
		se->exec_start = 0;  // cold for task_hot()
	if (!is_curr)
		enqueue_in_tree(se);
	se->on_rq = true;
}

bool CfsRq::dequeue_entity(SchedEntity* se, unsigned flags)
{
	const bool sleep = flags & DEQUEUE_SLEEP;

	update_curr();
	clear_buddies(se);
	if (flags & DEQUEUE_DELAYED) {
		warn().on(Warn::DEQUEUE_DELAYED_NOT_DELAYED, !se->sched_delayed);
	} else {
		const bool delay = sleep && !(flags & DEQUEUE_SPECIAL);
		warn().on(Warn::DEQUEUE_SLEEP_ALREADY_DELAYED, delay && se->sched_delayed);
		// An ineligible sleeper stays queued and keeps competing until
		// it has burnt off its negative lag (152e11f6df29).
		if (feat(Feature::DELAY_DEQUEUE) && delay && !entity_eligible(se)) {
			update_load_avg(se, 0);
			if (paths_->util_est_after_ageing)
				util_est_sample(se);
			if (paths_->delayed_lag_floor)
				update_entity_lag(se);  // the lag at the delay: the floor it leaves with
			se->sched_delayed = true;
			set_delayed(se);
			return false;
		}
	}

	// DEQUEUE_MIGRATING rides up the walk, but only the task detaches: its
	// group's entity stays, with what the detach propagates.
	const bool detach = (flags & DEQUEUE_MIGRATING) && se->is_task();
	update_load_avg(se, UPDATE_TG | (detach ? DO_DETACH : 0));
	se_update_runnable(se);
	if (paths_->util_est_after_ageing && sleep && !(flags & DEQUEUE_DELAYED))
		util_est_sample(se);
	update_entity_lag(se);
	if (feat(Feature::PLACE_REL_DEADLINE) && !sleep) {
		se->deadline -= se->vruntime;
		se->rel_deadline = true;
	}
	if (se != curr)
		dequeue_from_tree(se);
	se->on_rq = false;
	load -= se->load.weight;
	nr_queued--;
	if (se->is_task())
		rq_root().list_del_task(se);  // account_entity_dequeue()
	// update_cfs_group(): an emptied group keeps its weight from 6.13
	// (66951e4860d3; update_group_entity_shares() decides per release).
	if (se->my_q)
		update_cfs_group(se);

	// DEQUEUE_SAVE without DEQUEUE_MOVE (a nice change) leaves min_vruntime alone.
	if (paths_->ref_point == KernelPaths::RefPoint::MinVruntime &&
	    (flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE)
		update_min_vruntime();
	if (flags & DEQUEUE_DELAYED)
		finish_delayed_dequeue_entity(se);
	return true;
}

void CfsRq::finish_delayed_dequeue_entity(SchedEntity* se)
{
	se->sched_delayed = false;
	clear_delayed(se);
	// 7.x: update_entity_lag() has applied DELAY_ZERO already.
	if (!paths_->delayed_lag_floor && feat(Feature::DELAY_ZERO) && se->vlag > 0 &&
	    !bug(Bug::DELAY_ZERO_KEEPS_LAG))
		se->vlag = 0;
}

// A delayed task woken while still queued keeps its vruntime and deadline,
// unless DELAY_ZERO finds it eligible by now: then it restarts at zero lag
// with a fresh request. 7.x re-places it whenever update_entity_lag() changed
// its lag from V - v: clamped, raised to its lag at the delay, or capped at 0.
void CfsRq::requeue_delayed_entity(SchedEntity* se)
{
	// "se->sched_delayed should imply: se->on_rq == 1": a delayed entity
	// is still queued, competing until it is eligible.
	warn().on(Warn::REQUEUE_NOT_DELAYED, !se->sched_delayed);
	warn().on(Warn::REQUEUE_NOT_QUEUED, !se->on_rq);
	if (paths_->delayed_lag_floor) {
		if (update_entity_lag(se) && !bug(Bug::DELAY_ZERO_REQUEUE_KEEPS)) {
			nr_queued--;
			if (se != curr)
				dequeue_from_tree(se);
			place_entity(se, 0);
			if (se != curr)
				enqueue_in_tree(se);
			nr_queued++;
		}
	} else if (feat(Feature::DELAY_ZERO)) {
		update_entity_lag(se);
		if (se->vlag > 0 && !bug(Bug::DELAY_ZERO_REQUEUE_KEEPS)) {
			nr_queued--;
			if (se != curr)
				dequeue_from_tree(se);
			se->vlag = 0;
			place_entity(se, 0);
			if (se != curr)
				enqueue_in_tree(se);
			nr_queued++;
		}
	}
	update_load_avg(se, 0);
	se->sched_delayed = false;
	clear_delayed(se);
}

void CfsRq::set_delayed(SchedEntity* se)
{
	if (!se->is_task())
		return;  // "Delayed se of cfs_rq have no tasks queued on them"
	for (SchedEntity* e = se; e; e = e->parent)
		cfs_rq_of(e).nr_delayed++;
}

void CfsRq::clear_delayed(SchedEntity* se)
{
	if (!se->is_task())
		return;
	for (SchedEntity* e = se; e; e = e->parent)
		cfs_rq_of(e).nr_delayed--;
}

// ---------------------------------------------------------------- enqueue

// The group slice (aef6987d8954, 6.12): a group's entity takes the
// smallest slice queued below it. Bug GROUP_SLICE_BASE: it keeps the base
// slice, as before 6.12.
void CfsRq::set_group_slice(SchedEntity* se, u64 slice)
{
	if (!bug(Bug::GROUP_SLICE_BASE))
		se->slice = slice;
}

// min_vruntime_cb_propagate() after a level's slice changed: the tree's
// min_slice/max_slice above the entity are recomputed (563bc2161b94, 6.15).
// 6.12 .. 6.14 leave them (KernelPaths::group_slice_tree_stale), unless the
// model keeps exact augments (Config::exact_tree_augments, its own fix:
// every augment the true subtree extremum). Bug GROUP_SLICE_STALE_TREE
// undoes the fix on a later preset, exact augments or not.
void CfsRq::propagate_slice(SchedEntity* se)
{
	if (se == curr || bug(Bug::GROUP_SLICE_STALE_TREE))
		return;
	if (paths_->group_slice_tree_stale && !timeline.min_slice_exact())
		return;
	timeline.propagate(se);
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
		if (slice && !q.bug(Bug::GROUP_SLICE_BASE)) {
			e->slice = slice;
			e->custom_slice = true;
		}
		q.enqueue_entity(e, flags);
		if (e->parent)  // the slice is for the levels above (a flat task has none)
			slice = q.cfs_rq_min_slice();
		q.h_nr_queued++;
		q.nr_delayed += h_nr_delayed;
		q.h_nr_idle += h_nr_idle_add;
		if (q.idle)
			h_nr_idle_add = 1;  // the task is idle to every level above an idle group
		flags = ENQUEUE_WAKEUP;
	}
	for (; e; e = parent_entity(e)) {
		CfsRq& q = cfs_rq_of(e);
		q.update_load_avg(e, UPDATE_TG);
		se_update_runnable(e);
		q.update_cfs_group(e);
		q.set_group_slice(e, slice);
		q.propagate_slice(e);
		if (e->parent)
			slice = q.cfs_rq_min_slice();
		q.h_nr_queued++;
		q.nr_delayed += h_nr_delayed;
		q.h_nr_idle += h_nr_idle_add;
		if (q.idle)
			h_nr_idle_add = 1;
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
	// v6.12.0 (KernelPaths::delayed_break_keeps_slice; bug
	// GROUP_SLICE_U64_MAX on a later preset): a group entity's dequeue (a
	// delayed one picked) starts from its own cfs_rq's min slice, U64_MAX
	// since it is empty, and a delayed break below keeps `slice` as it is:
	// 0 from a task's dequeue, so the delayed entity takes slice 0, and so
	// does every level above whose curr it is (cfs_rq_min_slice() reads
	// curr's slice). The U64_MAX reaches loop 2 only if the parent of the
	// emptied group is delayed in the same walk, which a pick's dequeue
	// cannot do (the pick just found that parent eligible): only a
	// cgroup's removal, not modelled. The checker rejects the value.
	const bool keeps_slice = paths_->delayed_break_keeps_slice || bug(Bug::GROUP_SLICE_U64_MAX);
	if (!p && keeps_slice)
		slice = se->my_q->cfs_rq_min_slice();
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
			if (!keeps_slice)
				slice = q.cfs_rq_min_slice();
			break;  // a group's entity delayed: loop 2 starts at it
		}
		q.h_nr_queued -= h_nr_queued_sub;
		q.nr_delayed -= h_nr_delayed_sub;
		q.h_nr_idle -= h_nr_idle_sub;
		if (q.idle)
			h_nr_idle_sub = h_nr_queued_sub;
		if (q.load) {
			e = parent_entity(e);
			if (e)
				slice = q.cfs_rq_min_slice();
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
		se_update_runnable(e);
		q.update_cfs_group(e);
		q.set_group_slice(e, slice);
		q.propagate_slice(e);
		if (e->parent)
			slice = q.cfs_rq_min_slice();
		q.h_nr_queued -= h_nr_queued_sub;
		q.nr_delayed -= h_nr_delayed_sub;
		q.h_nr_idle -= h_nr_idle_sub;
		if (q.idle)
			h_nr_idle_sub = h_nr_queued_sub;
	}
	// "balance early to pull high priority tasks"
	if (!was_sched_idle && sched_idle_rq() && became_sched_idle)
		became_sched_idle(became_sched_idle_arg);
	return true;
}

// 7.x: update_load_avg(UPDATE_UTIL_EST) samples util_est after the ageing.
void CfsRq::util_est_sample(SchedEntity* se)
{
	if (tracks_load())
		util_est_update(se->avg, true, PeltFeatures{feat(Feature::UTIL_EST), true});
}

void CfsRq::update_load_avg(SchedEntity* se, int flags)
{
	if (!tracks_load())
		return;
	EntityState st = task_entity_state(se->on_rq, se->sched_delayed, curr == se);
	GroupCfsRq g;
	if (se->my_q) {
		// se_runnable() of a group's entity: its cached runnable_weight.
		st.runnable = se->sched_delayed ? 0 : se->my_q->se_runnable_weight;
		g = GroupCfsRq{&se->my_q->avg, se->my_q->load};
	}
	const CfsRqLoad rq{load, pelt_runnable(), curr != nullptr};
	if (eevdf::update_load_avg(avg, se->avg, pelt_now(), se_weight_of(se->load), st, rq, flags,
				   PeltFeatures{feat(Feature::UTIL_EST), true}, g))
		update_tg_load_avg();
}

// list_add_rcu() and list_add_tail_rcu() of the intrusive leaf list:
// link this cfs_rq in after `prev` (nullptr: the head, so at the front),
// that is, before prev's successor.
void CfsRq::leaf_link_after(CfsRq* prev)
{
	CfsRq& root = rq_root();
	CfsRq* next = prev ? prev->leaf_next : root.leaf_first;
	leaf_prev = prev;
	leaf_next = next;
	(prev ? prev->leaf_next : root.leaf_first) = this;
	(next ? next->leaf_prev : root.leaf_last) = this;
}

bool CfsRq::list_add_leaf_cfs_rq()
{
	CfsRq& root = rq_root();
	if (on_list)
		return root.tmp_alone_branch == nullptr;
	on_list = true;
	// Bottom up, as the enqueue adds: either the parent is listed and this
	// cfs_rq goes just before it (the branch is connected), or this is the
	// root and goes at the tail, or the parent is not listed yet and this
	// cfs_rq goes after tmp_alone_branch, which then points here so that
	// the parent, added next, lands just after it. The parent of a
	// top-level group's cfs_rq is the root.
	CfsRq* parent = is_root() ? nullptr : (tg_se->parent ? tg_se->parent->my_q : &root);
	if (parent && parent->on_list) {
		leaf_link_after(parent->leaf_prev);
		root.tmp_alone_branch = nullptr;
		return true;
	}
	if (!parent) {
		leaf_link_after(root.leaf_last);
		root.tmp_alone_branch = nullptr;
		return true;
	}
	leaf_link_after(root.tmp_alone_branch);
	root.tmp_alone_branch = this;
	return false;
}

void CfsRq::list_del_leaf_cfs_rq()
{
	if (!on_list)
		return;
	CfsRq& root = rq_root();
	if (root.tmp_alone_branch == this)
		root.tmp_alone_branch = leaf_prev;
	(leaf_prev ? leaf_prev->leaf_next : root.leaf_first) = leaf_next;
	(leaf_next ? leaf_next->leaf_prev : root.leaf_last) = leaf_prev;
	leaf_prev = leaf_next = nullptr;
	on_list = false;
}

// child_cfs_rq_on_list(): a listed child always sits just before its parent
// (or, on a branch not yet connected, just before where the parent will
// go), so the kernel looks at that one entry only: prev_cfs_rq->tg->parent
// == cfs_rq->tg, where a top-level group's parent is the root's group.
bool CfsRq::child_cfs_rq_on_list() const
{
	const CfsRq* prev = on_list ? leaf_prev : rq_root().tmp_alone_branch;
	if (!prev || prev->is_root())
		return false;
	const SchedEntity* prev_parent = prev->tg_se->parent;
	return is_root() ? prev_parent == nullptr : prev_parent == tg_se;
}

bool CfsRq::cfs_rq_is_decayed() const
{
	const SchedAvg& a = avg.avg;
	return load == 0 && a.load_sum == 0 && a.util_sum == 0 && a.runnable_sum == 0 && !child_cfs_rq_on_list() &&
	       tg_load_avg_contrib == 0;
}

// One cfs_rq's step of __update_blocked_fair(): age it (folding in what
// left it), refresh its part of tg->load_avg, and let the group's entity
// above take in what it propagates. Returns cfs_rq_has_blocked().
bool CfsRq::update_blocked_averages()
{
	const CfsRqLoad rq{load, pelt_runnable(), curr != nullptr};
	if (update_cfs_rq_load_avg(pelt_now(), avg, rq))  // cfs_rq_clock_pelt()
		update_tg_load_avg();
	if (tg_se && !skip_blocked_update(tg_se->avg, avg))
		cfs_rq_of(tg_se).update_load_avg(tg_se, UPDATE_TG);
	return avg.avg.load_avg || avg.avg.util_avg;
}

}  // namespace eevdf
