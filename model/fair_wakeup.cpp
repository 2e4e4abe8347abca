// SPDX-License-Identifier: GPL-2.0-only
// Wake-up preemption (kernel/sched/fair.c check_preempt_wakeup_fair()),
// across group levels by find_matching_se(), in
// each release's shape: the pick (6.6 .. 6.16, with PREEMPT_SHORT's
// do_preempt_short() from 6.12), the protect parameter (6.17 .. 6.18.32)
// and preempt_wakeup_action's enum (6.18.33+, 7.x); and the SCHED_IDLE
// curr that any non-idle waker preempts.
#include "model/fair.hpp"

namespace eevdf {

namespace {

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
	// 6.6.0 also returns for a batch or idle waker here, before the matched
	// entities' idle test (6.12+ test the task's policy after it): with
	// groups, a batch task never preempts a curr whose group is idle.
	if (paths_->idle_preempt_first && !pse->normal_policy)
		return;
	if (!feat(Feature::WAKEUP_PREEMPTION))
		return;
	const SchedEntity* p = pse;
	if (pse)
		find_matching_se(se, pse);
	warn().on(Warn::WAKEUP_PREEMPT_NO_WAKEE, pse == nullptr);
	cfs_rq_of(se).check_preempt_matched(pse, se, p, wake_flags);
}


bool CfsRq::do_preempt_short(const SchedEntity* pse, const SchedEntity* se) const
{
	if (!feat(Feature::PREEMPT_SHORT))
		return false;
	if (pse->slice >= se->slice)
		return false;
	if (!entity_eligible(pse) && !bug(Bug::PREEMPT_INELIGIBLE))
		return false;
	return entity_before(pse, se) || !entity_eligible(se);
}

// check_preempt_wakeup_fair() past find_matching_se() (above), on
// the cfs_rq where curr's entity se and the waker's pse are queued (the
// tasks themselves, or the group entities above them): preempt iff the
// pick here would choose pse. p is the waking task. The caller handles an
// idle CPU (always rescheduled).
void CfsRq::check_preempt_matched(SchedEntity* pse, SchedEntity* se, const SchedEntity* p, unsigned wake_flags)
{
	// The matched entities' idleness (cse_is_idle, pse_is_idle, every
	// release since 5.15's cgroup SCHED_IDLE): an idle se gives way to a
	// non-idle pse, and neither preempts across the line the other way.
	// Where the task-level test came first (idle_preempt_first), this one
	// decides only with groups: on tasks it already returned.
	if (preempt_idle_curr(pse, se))
		return;
	if (se_is_idle(se) != se_is_idle(pse))
		return;
	// Batch and idle tasks do not preempt (their preemption is driven by the
	// tick): check_preempt_wakeup_fair() returns before update_curr(), 6.12
	// to 7.1 (6.6 returned before find_matching_se(), above). An idle wakee
	// with a non-idle curr returns one test earlier, on cse_is_idle !=
	// pse_is_idle: the same.
	if (!p->normal_policy)
		return;

	update_curr();

	switch (paths_->wakeup_preempt) {
	case KernelPaths::WakeupPreempt::Pick:
		wakeup_preempt_pick(pse, se);
		return;
	case KernelPaths::WakeupPreempt::ProtectParam:
		wakeup_preempt_protect_param(pse, se);
		return;
	case KernelPaths::WakeupPreempt::Actions:
		wakeup_preempt_actions(pse, se, wake_flags);
		return;
	}
}

// "Idle tasks are by definition preempted by non-idle tasks": a SCHED_IDLE
// curr (or, matched level, the entity of an idle group above it) is
// rescheduled for any non-idle waker without update_curr() or a pick.
// The pick that follows is the schedule's: up to 6.12 RUN_TO_PARITY can
// give the CPU straight back to a still protected idle curr; f553741ac8c0
// (6.15+) cancels that protection first. Returns true when it decided.
bool CfsRq::preempt_idle_curr(const SchedEntity* pse, SchedEntity* se)
{
	if (!se_is_idle(se) || se_is_idle(pse))
		return false;
	if (paths_->idle_preempt_cancels_protect)
		cancel_protect_slice(se);
	resched_curr_lazy();
	return true;
}

// 6.6 - 6.16 (PREEMPT_SHORT exists from 6.12).
void CfsRq::wakeup_preempt_pick(SchedEntity* pse, SchedEntity* se)
{
	if (do_preempt_short(pse, se) && !bug(Bug::PREEMPT_SHORT_KEEPS_PROTECTION))
		cancel_protect_slice(se);
	if (pick_eevdf() == pse)
		resched_curr_lazy();
}

// 6.17 - 6.18.32: a shorter-slice waker is judged without curr's protection;
// if it still does not win, curr's protection shrinks to the min slice.
void CfsRq::wakeup_preempt_protect_param(SchedEntity* pse, SchedEntity* se)
{
	const bool short_slice = feat(Feature::PREEMPT_SHORT) && pse->slice < se->slice;
	if (pick_eevdf_protect(!short_slice) == pse) {
		if (short_slice && !bug(Bug::PREEMPT_SHORT_KEEPS_PROTECTION))
			cancel_protect_slice(se);
		resched_curr_lazy();
		return;
	}
	if (feat(Feature::RUN_TO_PARITY) && short_slice)
		update_protect_slice(se);
}

// 6.18.33+ and 7.x (preempt_wakeup_action, NEXT_BUDDY off): a fork or a
// delayed waker never preempts unless its slice is shorter. The wakeup's pick
// is pick_next_entity(), so a delayed entity it chooses is dequeued for good
// and the pick is retried. Every wakeup that reaches the pick and does not
// preempt shrinks curr's protection to the queue's min slice.
void CfsRq::wakeup_preempt_actions(SchedEntity* pse, SchedEntity* se, unsigned wake_flags)
{
	const bool short_slice = feat(Feature::PREEMPT_SHORT) && pse->slice < se->slice;
	if (!short_slice && ((wake_flags & WF_FORK) || pse->sched_delayed))
		return;
	for (;;) {
		const u64 failures = rq_root().pick_failures;
		SchedEntity* nse = pick_next_entity(!short_slice);
		if (nse == pse) {
			if (short_slice && !bug(Bug::PREEMPT_SHORT_KEEPS_PROTECTION))
				cancel_protect_slice(se);
			if (short_slice && paths_->short_preempt_clears_buddy)
				clear_buddies(se);  // 7.x
			resched_curr_lazy();
			return;
		}
		if (nse || !nr_queued || rq_root().pick_failures != failures)
			break;
	}
	if (feat(Feature::RUN_TO_PARITY))
		update_protect_slice(se);
}

}  // namespace eevdf
