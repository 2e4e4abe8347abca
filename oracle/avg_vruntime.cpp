// SPDX-License-Identifier: GPL-2.0-only
// V and eligibility: avg_vruntime() and vruntime_eligible() recomputed from
// the queue at every call (decision_oracle.hpp says why that is exact),
// calc_delta_fair(), the reference point v0 (update_min_vruntime(),
// zero_vruntime at tree updates) and cfs_rq_min_slice()/cfs_rq_max_slice().
#include "oracle/internal.hpp"

#include <algorithm>
#include <limits>

namespace eevdf::oracle {

namespace {

s128 floor_div(s128 a, s128 b)
{
	s128 q = a / b;
	if ((a % b) != 0 && ((a < 0) != (b < 0)))
		q -= 1;
	return q;
}

}  // namespace

// 7.x avg_vruntime_weight(): the full weight (PARANOID_AVG's shift is off).
u64 DecisionOracle::avg_w(const Ent& e) const
{
	return rules_->full_weight ? e.load.weight : scale_load_down(e.load.weight);
}

// calc_delta_fair(); 7.x on 64-bit: (delta * NICE_0_LOAD) / weight, the
// product wrapping as a u64 does.
u64 DecisionOracle::cdf(u64 delta, const Ent& e) const
{
	if (rules_->calc_div)
		return e.load.weight == NICE_0_LOAD ? delta : delta * NICE_0_LOAD / e.load.weight;
	LoadWeight lw = e.load;
	return calc_delta_fair(delta, lw);
}

void DecisionOracle::need_s64(s128 x)
{
	if (x > std::numeric_limits<s64>::max() || x < std::numeric_limits<s64>::min())
		overflow_ = true;
}

s64 DecisionOracle::wscale(s64 x, u64 old_w, u64 new_w)
{
	const s128 p = static_cast<s128>(x) * static_cast<s128>(old_w);
	need_s64(p);
	return static_cast<s64>(p / static_cast<s128>(new_w));
}

// The tree's entities and curr if it is on the queue: the terms of
// cfs_rq->avg_vruntime (+ curr's, added by avg_vruntime()/vruntime_eligible()).
// Both for an entity in the tree that is still curr: put_prev_entity()
// puts prev back into the tree before it clears cfs_rq->curr, and 6.18.4
// .. 6.18.16 re-centre zero_vruntime in between (with groups that value
// stays: no set_next_entity() on that level follows to re-centre it).
void DecisionOracle::sums(s128& S, s128& W) const
{
	S = 0;
	W = 0;
	for (size_t i = 0; i < ents_.size(); i++) {
		const Ent& e = ents_[i];
		if (e.cfs != cq_)
			continue;
		const int terms = (e.in_tree ? 1 : 0) + (static_cast<int>(i) == q().curr && e.on_rq ? 1 : 0);
		if (!terms)
			continue;
		const s128 w = static_cast<s128>(avg_w(e)) * terms;
		S += static_cast<s128>(wrapped_diff(e.vruntime, q().v0)) * w;
		W += w;
	}
}

u64 DecisionOracle::v_now()
{
	s128 S, W;
	sums(S, W);
	if (!W)
		return q().v0;
	need_s64(S);
	if (S < 0)
		need_s64(S - (W - 1));
	return q().v0 + static_cast<u64>(static_cast<s64>(floor_div(S, W)));
}

// avg_vruntime(); from 6.18.17 (b3d99f43c72b) every call also moves
// zero_vruntime to the V it returns.
u64 DecisionOracle::avg_vruntime()
{
	const u64 v = v_now();
	if (rules_->ref == Rules::Ref::ZeroAtAvg)
		q().v0 = v;
	return v;
}

bool DecisionOracle::vruntime_eligible(u64 v)
{
	s128 S, W;
	sums(S, W);
	const s128 rhs = static_cast<s128>(wrapped_diff(v, q().v0)) * W;
	need_s64(S);
	if (!rules_->full_weight)  // 7.x compares in __int128
		need_s64(rhs);
	return S >= rhs;
}

// update_min_vruntime() (6.6 .. 6.18.3): v0 only moves forward, to the
// smaller of curr's vruntime (if queued) and the tree's minimum.
void DecisionOracle::update_min_vruntime()
{
	if (rules_->ref != Rules::Ref::MinVruntime)
		return;
	u64 cand = q().v0;
	const Ent* c = q().curr != IDLE ? &ent(q().curr) : nullptr;
	if (c && !c->on_rq)
		c = nullptr;
	if (c)
		cand = c->vruntime;
	bool have = false;
	u64 tmin = 0;
	for (const Ent& e : ents_)
		if (e.in_tree && e.cfs == cq_) {
			tmin = have ? min_vruntime(tmin, e.vruntime) : e.vruntime;
			have = true;
		}
	if (have)
		cand = c ? min_vruntime(cand, tmin) : tmin;
	if (wrapped_diff(cand, q().v0) > 0)
		q().v0 = cand;
}

// __enqueue_entity()/__dequeue_entity(): tree membership; 6.18.4 .. 6.18.16
// (79f3f9bedd14) re-centre zero_vruntime on V after each, with whatever
// cfs_rq->curr is at that moment (put_prev_entity() still has prev as curr).
void DecisionOracle::tree_insert(Ent& e)
{
	note_slice(e.slice);
	e.in_tree = true;
	e.seq = ++seq_;
	if (rules_->ref == Rules::Ref::ZeroAtTreeOps)
		q().v0 = v_now();
}

void DecisionOracle::tree_erase(Ent& e)
{
	e.in_tree = false;
	if (rules_->ref == Rules::Ref::ZeroAtTreeOps)
		q().v0 = v_now();
}

// cfs_rq_min_slice()/cfs_rq_max_slice() as true extrema. The kernel reads
// the root's augmented min_slice/max_slice, which RB_DECLARE_CALLBACKS's
// rotate and copy do not carry (only min_vruntime), and 6.18.17's
// __enqueue_entity does not reset max_slice: with mixed slices the kernel's
// value depends on the tree's history and shape. A vlag word computed from
// them then is adopted from the model when it differs (undetermined_slices).
void DecisionOracle::note_slice(u64 slice)
{
	q().min_seen_slice = std::min(q().min_seen_slice, slice);
	if (!q().seen_slice)
		q().seen_slice = slice;
	else if (slice != q().seen_slice)
		q().slices_mixed = true;
}

u64 DecisionOracle::cfs_rq_min_slice() const
{
	u64 m = ~0ULL;
	for (size_t i = 0; i < ents_.size(); i++) {
		const Ent& e = ents_[i];
		if (e.cfs == cq_ && (e.in_tree || (static_cast<int>(i) == q().curr && e.on_rq)))
			m = std::min(m, e.slice);
	}
	return m;
}

u64 DecisionOracle::cfs_rq_max_slice() const
{
	u64 m = 0;
	for (size_t i = 0; i < ents_.size(); i++) {
		const Ent& e = ents_[i];
		if (e.cfs == cq_ && (e.in_tree || (static_cast<int>(i) == q().curr && e.on_rq)))
			m = std::max(m, e.slice);
	}
	return m;
}

}  // namespace eevdf::oracle
