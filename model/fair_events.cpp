// SPDX-License-Identifier: GPL-2.0-only
// The cfs_rq's other events (kernel/sched/fair.c): entity_tick(),
// yield_task_fair()'s own level in its two versions, and reweight_entity()
// of an entity off the queue (a nice change, a group's first share).
#include "model/fair.hpp"
#include "model/wrapping.hpp"

namespace eevdf {

void CfsRq::entity_tick(bool queued)
{
	update_curr();
	if (curr) {
		update_load_avg(curr, UPDATE_TG);
		update_cfs_group(curr);
	}
	// The hrtick expired: the slice is over. resched_curr_lazy() on 6.13 ..
	// 6.18.y, resched_curr() on 7.1.5 (whose hrtick is the reworked one).
	if (queued && paths_->hrtick_rework)
		resched_curr();
	else if (queued)
		resched_curr_lazy();
}

// task_tick_fair(): entity_tick() on every level of curr's path, leaf first.
void CfsRq::task_tick_fair(bool queued)
{
	SchedEntity* se = curr;
	if (se && !se->my_q) {
		entity_tick(queued);  // a task of the root group: one level
		return;
	}
	for (se = curr_task(); se; se = parent_entity(se))
		cfs_rq_of(se).entity_tick(queued);
}

// yield_task_fair() on the yielding task's own cfs_rq (fair_task.cpp),
// after update_curr().
void CfsRq::yield_entity(SchedEntity* se)
{
	if (paths_->yield == KernelPaths::Yield::PushDeadline) {
		se->deadline += vdelta(se->slice, se->load);
		return;
	}
	// 79104becf42b: forfeit the rest of the request, if eligible (an
	// ineligible yielder keeps its vruntime, or core scheduling could pick it
	// again and again and run its vruntime away).
	if (!entity_eligible(se))
		return;
	se->vruntime = se->deadline;
	if (bug(Bug::YIELD_KEEPS_DEADLINE)) {
		// v0 moves as it would below; only the deadline is not renewed.
		if (paths_->ref_point == KernelPaths::RefPoint::ZeroVruntimeAtAvg)
			update_zero_vruntime();
		else if (paths_->ref_point == KernelPaths::RefPoint::MinVruntime)
			update_min_vruntime();
		return;
	}
	if (paths_->ref_point == KernelPaths::RefPoint::ZeroVruntimeAtAvg) {
		// 6.18.22+: the new request through update_deadline(), which also
		// pulls zero_vruntime (6.18.17 .. 6.18.21 added the slice by hand
		// and pulled it at the next tick: the same decisions).
		update_deadline(se);
		return;
	}
	se->deadline += vdelta(se->slice, se->load);
	if (paths_->ref_point == KernelPaths::RefPoint::MinVruntime)
		update_min_vruntime();  // 6.18.2 / 6.18.3 only; zero_vruntime (6.18.4) dropped it
}

// reweight_entity() for an entity off the queue: a task's nice change goes
// through dequeue(SAVE) / enqueue(RESTORE), so only the stored virtual lag
// and (6.13+, 6d71a9c61604) the relative deadline are rescaled: lag_i =
// w_i vlag_i and the real-time length of the remaining request are what is
// kept. v6.12.0 leaves the relative deadline in the old weight's units.
void CfsRq::reweight_entity(SchedEntity* se, const LoadWeight& lw)
{
	if (se->on_rq) {
		reweight_entity_queued(se, lw);
		return;
	}
	const s64 old_w = static_cast<s64>(se->load.weight);
	const s64 new_w = static_cast<s64>(bug(Bug::REWEIGHT_NO_RESCALE) ? se->load.weight : lw.weight);
	se->vlag = div_s64(wmul(se->vlag, old_w), new_w);
	if (se->rel_deadline && paths_->reweight_rescales_rel_deadline)
		se->deadline = static_cast<u64>(div_s64(wmul(static_cast<s64>(se->deadline), old_w), new_w));
	if (tracks_load())
		reweight_entity_load_avg(avg, se->avg, se_weight_of(se->load), se_weight_of(lw));
	se->load = lw;
}

// reweight_entity() of a queued entity: a group's entity whose share
// changed (update_cfs_group() after a cpu.weight write), running or not.
// What is kept across the change is the entity's lag, w_i (V - v_i), and the
// real-time length of its request (so d - v scales by w_old / w_new):
//
//   6.13 .. 6.18.44 (6d71a9c61604): the lag is saved as on a dequeue
//   (update_entity_lag(), clamped), the entity is taken off the queue,
//   rescaled, and placed again with place_entity(), which inflates the lag
//   by the queue's weight with the entity itself out of it (curr, though,
//   is counted there as on every placement: its own new weight enters the
//   inflation). 6.18.17+ (ff38424030f9) also keeps curr's protection,
//   relative to v and rescaled; on 6.17 .. 6.18.44 vprot shares vlag's
//   storage, so what it reads back is the lag just saved.
//
//   7.x (101f3498b4bd, the revert): V does not move under a reweight at the
//   0-lag point's weight (fair.c's derivation: V' (W - w + w') = W V - w v +
//   w' v' with v' = V - (V - v) w / w' gives V' = V), so v' = V - vl w / w'
//   and d' = V + (d - V) w / w', vprot likewise: no placement.
void CfsRq::reweight_entity_queued(SchedEntity* se, const LoadWeight& lw)
{
	if (paths_->queued_reweight == KernelPaths::QueuedReweight::KeepVruntime) {
		reweight_entity_queued_66(se, lw);
		return;
	}
	if (paths_->queued_reweight == KernelPaths::QueuedReweight::ReweightEevdf) {
		reweight_eevdf(se, lw);
		return;
	}
	const bool is_curr = curr == se;
	const s64 old_w = static_cast<s64>(se->load.weight);
	const s64 new_w = static_cast<s64>(lw.weight);
	auto rescale = [&](s64 x) { return div_s64(wmul(x, old_w), new_w); };
	bool rel_vprot = false;
	s64 vprot = 0;
	u64 avruntime = 0;

	update_curr();
	last_queued_reweight = {se, avg_vruntime(), se->vruntime, se->deadline, se->load.weight, lag_limit(se), is_curr};
	// Bug REWEIGHT_PLACE_ENTITY: 7.x with 6d71a9c61604's lag-and-place form.
	const auto form = bug(Bug::REWEIGHT_PLACE_ENTITY) && paths_->queued_reweight == KernelPaths::QueuedReweight::PreserveV
				  ? KernelPaths::QueuedReweight::PlaceEntityRelVprot
				  : paths_->queued_reweight;
	if (form == KernelPaths::QueuedReweight::PreserveV) {
		if (paths_->ref_point == KernelPaths::RefPoint::ZeroVruntimeAtAvg)
			update_zero_vruntime();
		avruntime = avg_vruntime();
		se->vlag = entity_lag(avruntime, se);
		se->deadline -= avruntime;
		if (is_curr && protect_slice(se)) {
			vprot_of(se) -= avruntime;
			rel_vprot = true;
		}
	} else {
		update_entity_lag(se);
		se->deadline -= se->vruntime;
		if (form == KernelPaths::QueuedReweight::PlaceEntityRelVprot && is_curr &&
		    protect_slice(se)) {
			vprot = static_cast<s64>(vprot_of(se) - se->vruntime);
			rel_vprot = true;
		}
	}
	se->rel_deadline = true;
	nr_queued--;
	if (!is_curr)
		dequeue_from_tree(se);
	load -= se->load.weight;

	se->vlag = rescale(se->vlag);
	se->deadline = static_cast<u64>(rescale(static_cast<s64>(se->deadline)));
	if (rel_vprot && form == KernelPaths::QueuedReweight::PreserveV)
		vprot_of(se) = static_cast<u64>(rescale(static_cast<s64>(vprot_of(se))));
	else if (rel_vprot)
		vprot = rescale(vprot);
	if (tracks_load())
		reweight_entity_load_avg(avg, se->avg, se_weight_of(se->load), se_weight_of(lw));
	se->load = lw;

	if (form == KernelPaths::QueuedReweight::PreserveV) {
		if (rel_vprot)
			vprot_of(se) += avruntime;
		se->deadline += avruntime;
		se->rel_deadline = false;
		se->vruntime = avruntime - static_cast<u64>(se->vlag);
	} else {
		place_entity(se, 0);
		if (rel_vprot)
			vprot_of(se) = se->vruntime + static_cast<u64>(vprot);
	}
	load += se->load.weight;
	if (!is_curr)
		enqueue_in_tree(se);
	nr_queued++;
}

// 6.6.0 (before eab03c23c2a1): the entity keeps its v, and only its
// request is rescaled to the new slope: d' = v + (d - v) w / w', so the
// real time left in the request is kept. Its lag w (V - v) is not: V moves
// with the new weight (a queued entity's term w (v - v0) is taken out at the
// old weight and put back at the new). The node keeps its place in the
// vruntime-keyed tree; only the min_deadline augment above it is redone.
// curr is charged first (update_curr()); the others are not.
void CfsRq::reweight_entity_queued_66(SchedEntity* se, const LoadWeight& lw)
{
	const bool is_curr = curr == se;
	if (is_curr)
		update_curr();
	last_queued_reweight = {se, avg_vruntime(), se->vruntime, se->deadline, se->load.weight, lag_limit(se), is_curr};
	if (!is_curr)
		avg_vruntime_sub(se);
	load -= se->load.weight;
	const s64 old_w = static_cast<s64>(se->load.weight);
	const s64 new_w = static_cast<s64>(lw.weight);
	if (tracks_load())
		reweight_entity_load_avg(avg, se->avg, se_weight_of(se->load), se_weight_of(lw));
	se->load = lw;
	const s64 rel = wrapped_diff(se->deadline, se->vruntime);
	se->deadline = se->vruntime + static_cast<u64>(div_s64(wmul(rel, old_w), new_w));
	if (!is_curr)
		timeline.propagate(se);
	load += se->load.weight;
	if (!is_curr)
		avg_vruntime_add(se);
}

// reweight_eevdf() (eab03c23c2a1, 6.7 .. 6.12): the queued entity keeps
// its lag about V, sampled with the entity still in the sums. Taking
// w_i (V - v_i) = w'_i (V' - v'_i) with V' = V (the derivation in the 6.7
// comment: V' (W - w + w') = W V - w v + w' v' holds with V' = V exactly
// when v' = V - (V - v) w / w'), so
//
//   v' = V - clamp(V - v) w / w'   (only if v != V; clamped as entity_lag())
//   d' = V + (d - V) w / w'        (the request's real time, about V)
//
// se->vlag is not written, so a running entity's vlag == deadline stash
// breaks unless d' == d; nr_queued is untouched; update_min_vruntime()
// follows (an exact shift of the sums' reference). No resched.
void CfsRq::reweight_eevdf(SchedEntity* se, const LoadWeight& lw)
{
	const bool is_curr = curr == se;
	update_curr();
	const u64 avruntime = avg_vruntime();
	last_queued_reweight = {se, avruntime, se->vruntime, se->deadline, se->load.weight, lag_limit(se), is_curr};
	if (!is_curr)
		dequeue_from_tree(se);
	load -= se->load.weight;
	const s64 old_w = static_cast<s64>(se->load.weight);
	const s64 new_w = static_cast<s64>(lw.weight);
	if (avruntime != se->vruntime)  // entity_lag() at the old weight
		se->vruntime = avruntime - static_cast<u64>(div_s64(wmul(entity_lag(avruntime, se), old_w), new_w));
	const s64 vslice = wrapped_diff(se->deadline, avruntime);
	se->deadline = avruntime + static_cast<u64>(div_s64(wmul(vslice, old_w), new_w));
	if (tracks_load())
		reweight_entity_load_avg(avg, se->avg, se_weight_of(se->load), se_weight_of(lw));
	se->load = lw;
	load += se->load.weight;
	if (!is_curr)
		enqueue_in_tree(se);
	update_min_vruntime();
}

void CfsRq::update_group_shares(SchedEntity* group_se)
{
	for (SchedEntity* e = group_se; e; e = parent_entity(e)) {
		CfsRq& q = cfs_rq_of(e);
		q.update_load_avg(e, UPDATE_TG);
		q.update_cfs_group(e);
	}
}

}  // namespace eevdf
