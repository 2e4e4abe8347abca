// SPDX-License-Identifier: GPL-2.0-only
// Wake-up preemption: wakeup_preempt() and check_preempt_wakeup_fair() in
// each release's shape (Rules::Preempt), do_preempt_short(), and the
// SCHED_IDLE curr that any other waker preempts.
#include "oracle/internal.hpp"

#include <algorithm>

namespace eevdf::oracle {

bool DecisionOracle::do_preempt_short(Ent& pse, Ent& se)
{
	if (!feat(Feature::PREEMPT_SHORT))
		return false;
	if (pse.slice >= se.slice)
		return false;
	if (!entity_eligible(pse))
		return false;
	if (wrapped_diff(pse.deadline, se.deadline) < 0)
		return true;
	if (!entity_eligible(se))
		return true;
	return false;
}

// find_matching_se(): walk se and pse up to the entities of theirs that
// share a cfs_rq.
void DecisionOracle::find_matching_se(int& se, int& pse) const
{
	int sd = ents_[static_cast<size_t>(se)].depth, pd = ents_[static_cast<size_t>(pse)].depth;
	for (; sd > pd; sd--)
		se = ents_[static_cast<size_t>(se)].parent;
	for (; pd > sd; pd--)
		pse = ents_[static_cast<size_t>(pse)].parent;
	while (ents_[static_cast<size_t>(se)].cfs != ents_[static_cast<size_t>(pse)].cfs) {
		se = ents_[static_cast<size_t>(se)].parent;
		pse = ents_[static_cast<size_t>(pse)].parent;
	}
}

// check_preempt_wakeup_fair() (wakeup_preempt_fair() in 7.x): with groups
// curr and the wakee are compared as the entities of theirs that share a
// cfs_rq (find_matching_se()), on that cfs_rq; an idle one of the two is
// preempted by, and never preempts, the other.
void DecisionOracle::check_preempt_wakeup_fair(int pi, unsigned wake_flags)
{
	if (pi == running_)
		return;
	if (need_resched_ && !resched_lazy_)  // test_tsk_need_resched(): the full flag only
		return;
	const bool v66 = version_ == Version::V6_6;
	const bool wakee_normal = ent(pi).normal;
	// 6.6.0: the idle-curr preemption and the batch/idle waker's return on
	// the tasks, before find_matching_se(); the matched entities' idle test
	// follows all the same.
	if (v66 && idle_curr_preempted(ent(running_), ent(pi)))
		return;
	if (v66 && !wakee_normal)
		return;
	if (!feat(Feature::WAKEUP_PREEMPTION))
		return;
	int si = running_;
	find_matching_se(si, pi);
	Ent& se = ent(si);
	Ent& pse = ent(pi);
	if (idle_curr_preempted(se, pse))
		return;
	if (se_is_idle(se) != se_is_idle(pse))
		return;
	// "BATCH and IDLE tasks do not preempt others", before update_curr().
	if (!wakee_normal)
		return;
	On on(*this, se.cfs);
	update_curr();
	switch (rules_->preempt) {
	case Rules::Preempt::V66: {
		// 6.6: preempt iff pick_eevdf() returns the wakee.
		const Pick p = pick_eevdf(true);
		if (!p.tied.empty()) {
			if (std::find(p.tied.begin(), p.tied.end(), pi) == p.tied.end())
				return;  // the pick is one of the others either way
			counters_.undetermined_picks++;
			undetermined_now_ = true;  // the caller adopts the model's side of the tie
			return;
		}
		if (p.chosen == pi)
			resched_curr_lazy();
		return;
	}
	case Rules::Preempt::V612:
		// 6.12-6.16: a shorter eligible wakee cancels curr's protection.
		if (do_preempt_short(pse, se) && se.lagword == se.deadline)
			se.lagword = se.deadline + 1;
		if (pick_eevdf(true).chosen == pi)
			resched_curr_lazy();
		return;
	case Rules::Preempt::ProtectParam: {
		// 6.17 .. 6.18.32: a shorter wakee picks without curr's protection.
		const bool dps = feat(Feature::PREEMPT_SHORT) && pse.slice < se.slice;
		if (pick_eevdf(!dps).chosen == pi) {
			if (dps)
				cancel_protect_slice(se);
			resched_curr_lazy();
			return;
		}
		if (feat(Feature::RUN_TO_PARITY) && dps)
			update_protect_slice(se);
		return;
	}
	case Rules::Preempt::Actions: {
		// 6.18.33+ (e837456fdca8): PREEMPT_WAKEUP_SHORT / _PICK; a fork or a
		// delayed wakee does not preempt unless shorter; a delayed pick is
		// dequeued and the pick retried; protection shrinks after every
		// wakeup that does not preempt.
		const bool shrt = feat(Feature::PREEMPT_SHORT) && pse.slice < se.slice;
		if (!shrt && ((wake_flags & WF_FORK_) || pse.delayed))
			return;
		for (;;) {
			int got = pick_eevdf(!shrt).chosen;
			if (got != IDLE && ent(got).delayed) {
				dequeue_entities(got, DQ_SLEEP | DQ_DELAYED);
				got = IDLE;
			}
			if (got == pi) {
				if (shrt) {
					cancel_protect_slice(se);
					if (rules_->short_clears_buddy)
						clear_buddies(se.cfs, si);
				}
				resched_curr_lazy();
				return;
			}
			if (got == IDLE && q().nr_queued)
				continue;
			break;
		}
		if (feat(Feature::RUN_TO_PARITY))
			update_protect_slice(se);
		return;
	}
	}
}

// A SCHED_IDLE curr and a waker that is not: resched without update_curr()
// or a pick (6.6: task_has_idle_policy(curr) before the WAKEUP_PREEMPTION
// test; 6.12+: se_is_idle() after it). From 6.15 (f553741ac8c0) the idle
// curr's protection is cancelled first: vlag = deadline + 1 where the stash
// protects, vprot = vruntime where vprot does.
bool DecisionOracle::idle_curr_preempted(Ent& se, const Ent& pse)
{
	if (!se_is_idle(se) || se_is_idle(pse))
		return false;
	if (version_ != Version::V6_6 && version_ != Version::V6_12) {
		if (rules_->stash) {
			if (se.lagword == se.deadline)
				se.lagword = se.deadline + 1;
		} else {
			cancel_protect_slice(se);
		}
	}
	// 7.x: and clear_buddies() on the cfs_rq of curr's task, which is se's
	// only when se is that task or sits on the same cfs_rq.
	if (rules_->short_clears_buddy)
		clear_buddies(ent(running_).cfs, id_of(se));
	resched_curr_lazy();
	return true;
}

// wakeup_preempt(): the idle task is always preempted by a fair task.
void DecisionOracle::wakeup_preempt(const Simulation&, int p, unsigned wake_flags)
{
	if (running_ == IDLE) {
		resched_curr();
		return;
	}
	check_preempt_wakeup_fair(p, wake_flags);
}

}  // namespace eevdf::oracle
