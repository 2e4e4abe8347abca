// SPDX-License-Identifier: GPL-2.0-only
// Accounting and slice protection: update_curr() charges curr,
// update_deadline() renews its request, and the protection that may end a
// request early: did_preempt_short() (6.12 .. 6.16) or
// set_protect_slice()/update_protect_slice()/cancel_protect_slice() (6.17+).
#include "oracle/internal.hpp"

#include <algorithm>

namespace eevdf::oracle {

// update_deadline(): renew the request from the current vruntime once it is
// used up. 6.6 resets the slice to the base slice and reschedules here
// (nr_running > 1); 6.12+ keep a custom slice and leave the resched to
// update_curr(); 6.18.22+ pull zero_vruntime.
bool DecisionOracle::update_deadline(Ent& e)
{
	On on(*this, e.cfs);
	if (wrapped_diff(e.vruntime, e.deadline) < 0)
		return false;
	if (!rules_->custom_slices || !e.custom)
		e.slice = cfg_.base_slice_ns;
	e.deadline = e.vruntime + cdf(e.slice, e);
	if (rules_->avg_in_update_deadline)
		avg_vruntime();
	if (version_ == Version::V6_6 && q().nr_queued > 1) {
		resched_curr();
		clear_buddies(cq_, id_of(e));  // 6.6: here, with the resched
	}
	return true;
}

bool DecisionOracle::did_preempt_short(Ent& c)
{
	if (!feat(Feature::PREEMPT_SHORT))
		return false;
	if (c.lagword == c.deadline)
		return false;
	return !entity_eligible(c);
}

// update_curr(): charge curr; 6.12-6.16 reschedule on renewal or
// did_preempt_short(), 6.17+ on renewal or the end of protection, both only
// with more than one entity queued.
void DecisionOracle::update_curr()
{
	Ent* c = cur();
	if (!c)
		return;
	const s64 delta = static_cast<s64>(now_ - c->exec_start);
	if (delta <= 0)
		return;
	c->exec_start = now_;
	c->sum_exec += static_cast<u64>(delta);
	c->vruntime += cdf(static_cast<u64>(delta), *c);
	const bool resched = update_deadline(*c);
	update_min_vruntime();
	if (version_ == Version::V6_6)
		return;
	if (q().nr_queued == 1)
		return;
	const bool more = rules_->did_preempt_short ? did_preempt_short(*c) : (!rules_->stash && !protect_slice(*c));
	if (resched || more) {
		resched_curr_lazy();
		clear_buddies(cq_, q().curr);
	}
}

u64& DecisionOracle::prot(Ent& e) const { return rules_->vprot_split ? e.protword : e.lagword; }

u64 DecisionOracle::prot(const Ent& e) const { return rules_->vprot_split ? e.protword : e.lagword; }

void DecisionOracle::set_protect_slice(Ent& e)
{
	On on(*this, e.cfs);
	note_slice(e.slice);
	e.slice_augment_dependent = q().slices_mixed && feat(Feature::RUN_TO_PARITY);
	u64 slice = feat(Feature::RUN_TO_PARITY) ? cfs_rq_min_slice() : rules_->normalized_slice;
	slice = std::min(slice, e.slice);
	u64 vprot = e.deadline;
	if (slice != e.slice)
		vprot = min_vruntime(vprot, e.vruntime + cdf(slice, e));
	prot(e) = vprot;
}

void DecisionOracle::update_protect_slice(Ent& e)
{
	On on(*this, e.cfs);
	e.slice_augment_dependent = e.slice_augment_dependent || q().slices_mixed;
	const u64 slice = cfs_rq_min_slice();
	prot(e) = min_vruntime(prot(e), e.vruntime + cdf(slice, e));
}

void DecisionOracle::cancel_protect_slice(Ent& e)
{
	if (protect_slice(e))
		prot(e) = e.vruntime;
}

}  // namespace eevdf::oracle
