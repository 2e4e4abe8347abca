// SPDX-License-Identifier: GPL-2.0-only
#include "model/pick_by_definition.hpp"

namespace eevdf {

u64 ExactV::floor_v() const
{
	if (weight == 0)
		return ref;
	s128 q = sum / weight;  // truncates toward zero: one step down for a negative inexact quotient
	if (sum < 0 && q * weight != sum)
		q -= 1;
	return ref + static_cast<u64>(static_cast<s64>(q));
}

ExactV exact_v(const CfsRq& cfs)
{
	ExactV v;
	v.ref = cfs.ref_vruntime;
	cfs.timeline.for_each([&](const SchedEntity* se) { v.add(cfs, *se); });
	if (cfs.curr && cfs.curr->on_rq)
		v.add(cfs, *cfs.curr);
	return v;
}

namespace {

// The tree's eligible entity with the earliest deadline, the one queued
// first among equal deadlines; the only part of the pick that scans, and
// the same for both protect values.
const SchedEntity* earliest_eligible(const CfsRq& cfs, const ExactV& v)
{
	const SchedEntity* best = nullptr;
	cfs.timeline.for_each([&](const SchedEntity* se) {
		if (!v.eligible(se->vruntime))
			return;
		if (!best || wrapped_diff(se->deadline, best->deadline) < 0 ||
		    (se->deadline == best->deadline && se->node_seq < best->node_seq))
			best = se;
	});
	return best;
}

// The pick given the scan's result: a lone entity is picked; an eligible
// curr that is protected (and honoured) is kept; else the scan's entity,
// unless curr's deadline is earlier (curr loses ties).
const SchedEntity* decide(const CfsRq& cfs, bool protect, const ExactV& v, const SchedEntity* best)
{
	const SchedEntity* c = cfs.curr && cfs.curr->on_rq ? cfs.curr : nullptr;
	if (cfs.nr_queued == 1)
		return c ? c : cfs.timeline.leftmost();
	// PICK_BUDDY: the next buddy, if eligible, before anything else, where
	// __pick_eevdf() itself tests it (6.18.33+; 7.x only when protecting).
	const auto buddy = cfs.cfg().preset->paths.pick_buddy;
	if (cfs.next && v.eligible(cfs.next->vruntime) &&
	    (buddy == KernelPaths::PickBuddy::InPickEevdf || (buddy == KernelPaths::PickBuddy::InPickEevdfProtect && protect)))
		return cfs.next;
	if (c && !v.eligible(c->vruntime))
		c = nullptr;
	const bool honour = cfs.cfg().preset->paths.protect == KernelPaths::Protect::VlagStash
				    ? cfs.cfg().features[Feature::RUN_TO_PARITY]
				    : protect;
	if (c && honour && cfs.protect_slice(c))
		return c;
	if (!best || (c && wrapped_diff(c->deadline, best->deadline) < 0))
		best = c;
	return best;
}

}  // namespace

const SchedEntity* pick_eevdf_bruteforce(const CfsRq& cfs, bool protect)
{
	const ExactV v = exact_v(cfs);
	return decide(cfs, protect, v, cfs.nr_queued == 1 ? nullptr : earliest_eligible(cfs, v));
}

BruteForcePicks pick_eevdf_bruteforce_both(const CfsRq& cfs, const ExactV& v)
{
	const SchedEntity* best = cfs.nr_queued == 1 ? nullptr : earliest_eligible(cfs, v);
	return {decide(cfs, true, v, best), decide(cfs, false, v, best)};
}

bool picks_agree(const CfsRq& cfs, const SchedEntity* fast, const SchedEntity* slow)
{
	if (fast == slow)
		return true;
	if (cfs.cfg().preset->paths.tree != KernelPaths::Tree::VruntimeKeyed || !fast || !slow)
		return false;
	return fast->deadline == slow->deadline && exact_v(cfs).eligible(fast->vruntime) && fast->on_rq;
}

namespace {

std::string id_of(const SchedEntity* se) { return se ? "task " + std::to_string(se->id) : "none"; }

}  // namespace

std::string PickComparison::describe() const
{
	return std::string("__pick_eevdf(protect=") + (protect ? "true" : "false") + ") = " + id_of(tree) +
	       ", brute force = " + id_of(by_definition);
}

std::array<PickComparison, 2> compare_picks(const CfsRq& cfs, const ExactV& v)
{
	const BruteForcePicks by_definition = pick_eevdf_bruteforce_both(cfs, v);
	auto compare = [&](bool protect) {
		PickComparison c;
		c.protect = protect;
		c.tree = cfs.pick_eevdf_protect(protect);
		c.by_definition = protect ? by_definition.protect : by_definition.no_protect;
		c.agree = picks_agree(cfs, c.tree, c.by_definition);
		return c;
	};
	return {compare(true), compare(false)};
}

std::string tree_pick_difference(const CfsRq& cfs)
{
	for (const PickComparison& c : compare_picks(cfs, exact_v(cfs)))
		if (!c.agree)
			return c.describe();
	return "";
}

}  // namespace eevdf
