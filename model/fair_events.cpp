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
	warn().on(Warn::REWEIGHT_QUEUED, se->on_rq);
	const s64 old_w = static_cast<s64>(se->load.weight);
	const s64 new_w = static_cast<s64>(bug(Bug::REWEIGHT_NO_RESCALE) ? se->load.weight : lw.weight);
	se->vlag = div_s64(wmul(se->vlag, old_w), new_w);
	if (se->rel_deadline && paths_->reweight_rescales_rel_deadline)
		se->deadline = static_cast<u64>(div_s64(wmul(static_cast<s64>(se->deadline), old_w), new_w));
	if (tracks_load())
		reweight_entity_load_avg(avg, se->avg, se_weight_of(se->load), se_weight_of(lw));
	se->load = lw;
}

}  // namespace eevdf
