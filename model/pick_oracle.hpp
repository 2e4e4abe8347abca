// SPDX-License-Identifier: GPL-2.0-only
// The EEVDF pick by definition, in O(n): a test oracle for __pick_eevdf().
#pragma once

#include "model/fair.hpp"

namespace eevdf {

// Exact V as a rational Σ (v_i - v0) w_i / W over every queued entity
// (tree and curr), in 128-bit arithmetic that cannot overflow.
struct ExactV {
	s128 sum = 0;  // Σ key_i * w_i
	s128 weight = 0;
	u64 ref = 0;
	bool eligible(u64 vruntime) const
	{
		return sum >= static_cast<s128>(wrapped_diff(vruntime, ref)) * weight;
	}
	// floor(sum / weight) + ref, as avg_vruntime() should return it.
	u64 floor_v() const;
	// Counts one more queued entity in (ref set first).
	void add(const SchedEntity& se)
	{
		const s128 w = static_cast<s128>(scale_load_down(se.load.weight));
		sum += static_cast<s128>(wrapped_diff(se.vruntime, ref)) * w;
		weight += w;
	}
};

ExactV exact_v(const CfsRq& cfs);

// Among eligible queued entities the earliest deadline; among equal
// deadlines the one queued first; curr loses ties; a protected eligible
// curr (or one alone on the queue) is kept. The same contract as
// __pick_eevdf(), computed by scanning every entity.
const SchedEntity* pick_eevdf_bruteforce(const CfsRq& cfs, bool protect);
// Both protect values from one scan of the queue, `v` = exact_v(cfs).
struct BruteForcePicks {
	const SchedEntity* protect = nullptr;
	const SchedEntity* no_protect = nullptr;
};
BruteForcePicks pick_eevdf_bruteforce_both(const CfsRq& cfs, const ExactV& v);

// Whether the tree pick `fast` is the pick `slow` of the definition. On the
// 6.8+ deadline-keyed tree they are the same entity. v6.6's vruntime-keyed
// search breaks a tie between equal deadlines by the tree's shape (curr
// keeps it against the nodes it walks, not inside a left subtree), so there
// any eligible entity with the same deadline is the same choice.
bool picks_agree(const CfsRq& cfs, const SchedEntity* fast, const SchedEntity* slow);

}  // namespace eevdf
