// SPDX-License-Identifier: GPL-2.0-only
// Lag and placement: update_entity_lag() saves the lag of an entity that
// leaves the queue, place_entity() places one that joins it by its lag.
#include "oracle/internal.hpp"

#include <algorithm>

namespace eevdf::oracle {

// update_entity_lag(): vlag = V - v clamped to calc_delta_fair(max(2 r,
// TICK_NSEC)) (<= 6.18.16) or calc_delta_fair(max_slice + TICK_NSEC)
// (6.18.17+, 6e3c0a4e1ad1). 7.x: a delayed entity leaves with at least the
// lag it had when its dequeue was delayed, at most 0 under DELAY_ZERO.
bool DecisionOracle::update_entity_lag(Ent& e)
{
	On on(*this, e.cfs);
	const u64 v = avg_vruntime();
	const s64 lag = static_cast<s64>(v - e.vruntime);
	const u64 bound = rules_->lag_clamp_max_slice ? cfs_rq_max_slice() + cfg_.tick_ns
						      : std::max<u64>(2 * e.slice, cfg_.tick_ns);
	const s64 limit = static_cast<s64>(cdf(bound, e));
	s64 vlag = std::clamp(lag, -limit, limit);
	if (rules_->delayed_floor && e.delayed) {
		vlag = std::max(vlag, e.vlag());
		if (feat(Feature::DELAY_ZERO))
			vlag = std::min<s64>(vlag, 0);
	}
	e.lagword = static_cast<u64>(vlag);
	// A stale max_slice is some slice an entity in the tree had: a lag
	// beyond the clamp of the smallest one may have been clamped.
	const s64 low = static_cast<s64>(cdf(std::min(q().min_seen_slice, bound) + cfg_.tick_ns, e));
	e.slice_augment_dependent = rules_->lag_clamp_max_slice && q().slices_mixed && (lag > low || lag < -low);
	return v - static_cast<u64>(vlag) != e.vruntime;
}

// place_entity(): v = V - vlag (W + w) / W with PLACE_LAG and a non-empty
// queue; a kept relative deadline (PLACE_REL_DEADLINE, 6.12+) is made
// absolute, else d = v + r/w (half for ENQUEUE_INITIAL with
// PLACE_DEADLINE_INITIAL). 6.6 always resets the slice to the base slice.
void DecisionOracle::place_entity(Ent& e, unsigned flags)
{
	On on(*this, e.cfs);
	const u64 v = avg_vruntime();
	if (!rules_->custom_slices || !e.custom)
		e.slice = cfg_.base_slice_ns;
	u64 vslice = cdf(e.slice, e);
	s64 lag = 0;
	bool heavy = false;
	if (feat(Feature::PLACE_LAG) && q().nr_queued) {
		lag = e.vlag();
		s128 S, load;
		sums(S, load);
		const s128 prod = static_cast<s128>(lag) * (load + static_cast<s128>(avg_w(e)));
		need_s64(prod);
		heavy = rules_->full_weight && static_cast<s128>(avg_w(e)) > load;
		if (!load)
			load = 1;
		lag = static_cast<s64>(prod / load);  // div_s64 truncates toward zero
	}
	e.vruntime = v - static_cast<u64>(lag);
	if (heavy)  // 7.x: update_zero_vruntime(cfs_rq, -lag) for an entity heavier than the queue
		q().v0 -= static_cast<u64>(lag);
	const bool rel = rules_->rel_deadline_613 ? e.rel_deadline : (feat(Feature::PLACE_REL_DEADLINE) && e.rel_deadline);
	if (rel) {
		e.deadline += e.vruntime;
		e.rel_deadline = false;
		return;
	}
	if (feat(Feature::PLACE_DEADLINE_INITIAL) && (flags & EN_INITIAL))
		vslice /= 2;
	e.deadline = e.vruntime + vslice;
}

}  // namespace eevdf::oracle
