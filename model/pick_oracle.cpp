// SPDX-License-Identifier: GPL-2.0-only
#include "model/pick_oracle.hpp"

namespace eevdf {

u64 ExactV::floor_v() const
{
	if (weight == 0)
		return ref;
	s128 q = sum / weight;
	if (sum % weight != 0 && sum < 0)
		q -= 1;
	return ref + static_cast<u64>(static_cast<s64>(q));
}

ExactV exact_v(const CfsRq& cfs)
{
	ExactV v;
	v.ref = cfs.ref_vruntime;
	auto add = [&](const SchedEntity* se) {
		const s128 w = static_cast<s128>(scale_load_down(se->load.weight));
		v.sum += static_cast<s128>(wrapped_diff(se->vruntime, v.ref)) * w;
		v.weight += w;
	};
	cfs.timeline.for_each(add);
	if (cfs.curr && cfs.curr->on_rq)
		add(cfs.curr);
	return v;
}

const SchedEntity* pick_eevdf_bruteforce(const CfsRq& cfs, bool protect)
{
	return pick_eevdf_bruteforce(cfs, protect, exact_v(cfs));
}

const SchedEntity* pick_eevdf_bruteforce(const CfsRq& cfs, bool protect, const ExactV& v)
{
	const SchedEntity* c = cfs.curr && cfs.curr->on_rq ? cfs.curr : nullptr;
	if (cfs.nr_queued == 1)
		return c ? c : cfs.timeline.leftmost();

	if (c && !v.eligible(c->vruntime))
		c = nullptr;
	const bool honour = cfs.cfg().preset->paths.protect == KernelPaths::Protect::VlagStash
				    ? cfs.cfg().features[Feature::RUN_TO_PARITY]
				    : protect;
	if (c && honour && cfs.protect_slice(c))
		return c;

	const SchedEntity* best = nullptr;
	cfs.timeline.for_each([&](const SchedEntity* se) {
		if (!v.eligible(se->vruntime))
			return;
		if (!best || wrapped_diff(se->deadline, best->deadline) < 0 ||
		    (se->deadline == best->deadline && se->node_seq < best->node_seq))
			best = se;
	});
	if (!best || (c && wrapped_diff(c->deadline, best->deadline) < 0))
		best = c;
	return best;
}

bool picks_agree(const CfsRq& cfs, const SchedEntity* fast, const SchedEntity* slow)
{
	if (fast == slow)
		return true;
	if (cfs.cfg().preset->paths.tree != KernelPaths::Tree::VruntimeKeyed || !fast || !slow)
		return false;
	return fast->deadline == slow->deadline && exact_v(cfs).eligible(fast->vruntime) && fast->on_rq;
}

}  // namespace eevdf
