// SPDX-License-Identifier: GPL-2.0-only
// The EEVDF pick by definition, in O(n): a test oracle for __pick_eevdf(),
// and the one comparison of the tree pick with it (compare_picks()) that the
// invariant checker, the properties, the fuzzers and the tests all make.
#pragma once

#include <array>
#include <string>

#include "model/fair.hpp"

namespace eevdf {

// Exact V as a rational Σ (v_i - v0) w_i / W over every queued entity
// (tree and curr), in 128-bit arithmetic that cannot overflow. w_i is the
// weight the release averages with (CfsRq::avg_weight(): scale_load_down()
// up to 6.18, the full weight on 7.x); the two give the same V for table
// weights, not for a group entity's calc_group_shares() weight.
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
	// Counts one more queued entity of `cfs` in (ref set first).
	void add(const CfsRq& cfs, const SchedEntity& se)
	{
		const s128 w = static_cast<s128>(cfs.avg_weight(&se));
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

// __pick_eevdf(protect) against the pick by the definition, for one
// protect value.
struct PickComparison {
	bool protect = false;
	const SchedEntity* tree = nullptr;  // cfs.pick_eevdf_protect(protect)
	const SchedEntity* by_definition = nullptr;  // pick_eevdf_bruteforce(cfs, protect)
	bool agree = true;  // picks_agree(cfs, tree, by_definition)
	// What differed: "__pick_eevdf(protect=true) = task 3, brute force = task 2".
	std::string describe() const;
};

// "The tree pick equals the brute-force pick": both protect values, true
// first, from one scan of the queue (`v` = exact_v(cfs)).
std::array<PickComparison, 2> compare_picks(const CfsRq& cfs, const ExactV& v);
// The same as one verdict: "" when both agree, else the first difference.
std::string tree_pick_difference(const CfsRq& cfs);

}  // namespace eevdf
