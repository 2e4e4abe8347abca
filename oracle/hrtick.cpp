// SPDX-License-Identifier: GPL-2.0-only
// The hrtick: fair.c's hrtick_start_fair() and hrtick_update(), and core.c's
// hrtick_start() with its 7.x deferral inside __schedule().
#include "oracle/internal.hpp"

#include <algorithm>

namespace eevdf::oracle {

namespace {

constexpr u64 HRTICK_MIN_NS = 10000;  // hrtick_start(): no slice shorter than 10 us

}  // namespace

void DecisionOracle::hrtick_start_fair(Ent& e, bool current)
{
	if (qs_[0].h_nr_queued <= 1)  // rq->cfs.h_nr_queued
		return;
	if (rules_->hrtick_v7) {
		// Real time to the virtual deadline: w (d - v) / NICE_0_LOAD.
		const s64 vdelta = static_cast<s64>(e.deadline - e.vruntime);
		if (vdelta < 0) {
			if (current)
				resched_curr();
			return;
		}
		hrtick_start(e.load.weight * static_cast<u64>(vdelta) / NICE_0_LOAD);
		return;
	}
	const s64 delta = static_cast<s64>(e.slice - (e.sum_exec - e.prev_sum_exec));
	if (delta < 0) {
		if (current)
			resched_curr();
		return;
	}
	hrtick_at_ = now_ + std::max<u64>(static_cast<u64>(delta), HRTICK_MIN_NS);
}

// hrtick_update(): at the end of enqueue_task_fair()/dequeue_task_fair()
// (and the final dequeue of a delayed task), for rq->curr if it is fair.
void DecisionOracle::hrtick_update()
{
	if (!feat(Feature::HRTICK) || running_ == IDLE || rules_->hrtick_v7)
		return;
	hrtick_start_fair(ents_[static_cast<size_t>(running_)], true);
}

void DecisionOracle::hrtick_clear()
{
	if (feat(Feature::HRTICK) && !rules_->hrtick_v7)
		hrtick_at_ = NONE;
}

// The hrtick_update() that ends enqueue_task_fair(); 7.x only while no
// hrtick is armed (hrtick_active()).
void DecisionOracle::hrtick_update_enqueued()
{
	if (!rules_->hrtick_v7) {
		hrtick_update();
		return;
	}
	if (!feat(Feature::HRTICK) || running_ == IDLE || hrtick_at_ != NONE)
		return;
	hrtick_start_fair(ents_[static_cast<size_t>(running_)], true);
}

void DecisionOracle::hrtick_start(u64 delay)
{
	const u64 delta = std::max<u64>(delay, HRTICK_MIN_NS);
	if (in_schedule_) {
		hrtick_pending_ = true;
		hrtick_delay_ = delta;
		return;
	}
	hrtick_cond_restart(now_ + delta);
}

// hrtick_needs_rearm(): an armed timer stays unless the expiry moves by
// more than 5000 ns.
void DecisionOracle::hrtick_cond_restart(u64 at)
{
	if (hrtick_at_ != NONE && (at > hrtick_at_ ? at - hrtick_at_ : hrtick_at_ - at) <= 5000)
		return;
	hrtick_at_ = at;
}

void DecisionOracle::hrtick_schedule_exit(bool idle)
{
	in_schedule_ = false;
	if (hrtick_pending_) {
		hrtick_pending_ = false;
		hrtick_cond_restart(now_ + hrtick_delay_);
	} else if (idle) {
		hrtick_at_ = NONE;
	}
}

}  // namespace eevdf::oracle
