// SPDX-License-Identifier: GPL-2.0-only
// The symbolic transition, function by function after model/fair.cpp (6.18).
#include "proofs/encoding.hpp"
#include "proofs/lb_encoding.hpp"
#include "proofs/tree_walk.hpp"

#include <bit>

namespace eevdf::proofs {

using z3::expr;

std::string mutation_name(unsigned m)
{
	std::string s;
	auto add = [&](unsigned bit, const char* name) {
		if (m & bit)
			s += (s.empty() ? "" : "+") + std::string(name);
	};
	add(MUT_DEADLINE_FROM_OLD, "deadline-from-old");
	add(MUT_ELIGIBLE_STRICT, "eligible-strict");
	add(MUT_NR_QUEUED_OFF_BY_ONE, "nr-queued-off-by-one");
	add(MUT_RENEW_STRICT, "renew-strict");
	add(MUT_WAKEUP_IGNORE_SHORT, "wakeup-ignore-short");
	add(MUT_NO_RESCHED_RENEWAL, "no-resched-renewal");
	add(MUT_PICK_NO_CURR_FALLBACK, "pick-no-curr-fallback");
	add(MUT_AVG_TRUNC, "avg-trunc");
	add(MUT_EXEC_START_STALE, "exec-start-stale");
	add(MUT_PROTECT_MAX, "protect-max");
	add(MUT_RENEW_PROTECT, "renew-protect");
	add(MUT_LB_IDLE_NEEDS_OVERLOADED, "lb-idle-needs-overloaded");
	add(MUT_LB_PCT_STRICT, "lb-pct-strict");
	add(MUT_WALK_NODE_FIRST, "walk-node-first");
	add(MUT_WALK66_PREFIX, "walk66-prefix");
	return s.empty() ? "none" : s;
}

// __calc_delta(delta, NICE_0_LOAD, lw): fact = scale_load_down(NICE_0_LOAD)
// = 1024 (no high word), times inv_weight, renormalised to 32 bits.
CdfParams cdf_params(const LoadWeight& lw)
{
	CdfParams p;
	if (lw.weight == NICE_0_LOAD)
		return p;
	p.identity = false;
	u32 inv = lw.inv_weight;
	if (!inv) {  // __update_inv_weight()
		const u64 w = scale_load_down(lw.weight);
		inv = w >= WMULT_CONST ? 1 : (!w ? WMULT_CONST : static_cast<u32>(WMULT_CONST / w));
	}
	u64 fact = scale_load_down(NICE_0_LOAD);
	unsigned shift = WMULT_SHIFT;
	fact = static_cast<u64>(static_cast<u32>(fact)) * inv;
	if (const u32 hi = static_cast<u32>(fact >> 32)) {
		const unsigned fs = 32 - static_cast<unsigned>(std::countl_zero(hi));
		shift -= fs;
		fact >>= fs;
	}
	p.fact = static_cast<u32>(fact);
	p.shift = shift;
	return p;
}

expr Enc::calc_delta_fair(const expr& delta, const CdfParams& p) const
{
	if (p.identity)
		return delta;
	const expr wide = z3::zext(delta, 64) * c_.bv_val(static_cast<uint64_t>(p.fact), 128);
	return z3::lshr(wide, c_.bv_val(static_cast<uint64_t>(p.shift), 128)).extract(63, 0);
}

expr Enc::avg_vruntime(const SymRq& rq) const
{
	expr avg = rq.sum;
	expr wsum = rq.avg_load;
	if (rq.curr && rq.curr_on_rq) {
		avg = avg + entity_key(rq, rq.curr->v) * rq.curr->w;
		wsum = wsum + rq.curr->w;
	}
	// floor: a negative sum is shifted by load - 1 before the truncating division
	const expr shifted = (cfg_.mutation & MUT_AVG_TRUNC) ? avg : z3::ite(z3::slt(avg, 0), avg - (wsum - 1), avg);
	const expr floored = shifted / z3::ite(wsum == 0, bv(1), wsum);
	return rq.v0 + z3::ite(wsum == 0, avg, floored);
}

expr Enc::vruntime_eligible(const SymRq& rq, const expr& v) const
{
	expr avg = rq.sum;
	expr wsum = rq.avg_load;
	if (rq.curr && rq.curr_on_rq) {
		avg = avg + entity_key(rq, rq.curr->v) * rq.curr->w;
		wsum = wsum + rq.curr->w;
	}
	const expr rhs = entity_key(rq, v) * wsum;
	return (cfg_.mutation & MUT_ELIGIBLE_STRICT) ? z3::sgt(avg, rhs) : z3::sge(avg, rhs);
}

expr Enc::cfs_rq_min_slice(const SymRq& rq) const
{
	expr m = bv(~0ULL);
	if (rq.curr && rq.curr_on_rq)
		m = rq.curr->slice;
	for (const SymSE& se : rq.tree)
		m = z3::ite(z3::ult(se.slice, m), se.slice, m);
	return m;
}

expr Enc::update_deadline(SymSE& se) const
{
	const expr past = (cfg_.mutation & MUT_RENEW_STRICT) ? z3::slt(0, se.v - se.d) : !z3::slt(se.v - se.d, 0);
	const expr slice = se.custom_slice ? se.slice : cfg_.base_slice;
	const expr from = (cfg_.mutation & MUT_DEADLINE_FROM_OLD) ? se.d : se.v;
	const expr d = from + calc_delta_fair(slice, se.cdf);
	se.slice = z3::ite(past, slice, se.slice);
	se.d = z3::ite(past, d, se.d);
	if (cfg_.mutation & MUT_RENEW_PROTECT)
		se.vprot = z3::ite(past, d, se.vprot);
	return past;
}

void Enc::update_min_vruntime(SymRq& rq) const
{
	const bool c = rq.curr && rq.curr_on_rq;
	expr vr = c ? rq.curr->v : rq.v0;
	if (!rq.tree.empty()) {
		// root->min_vruntime: the augmented (wrapped) minimum of the tree
		expr tm = rq.tree[0].v;
		for (size_t i = 1; i < rq.tree.size(); i++)
			tm = min_vruntime(tm, rq.tree[i].v);
		vr = c ? min_vruntime(vr, tm) : tm;
	}
	const expr delta = vr - rq.v0;
	const expr fwd = z3::slt(0, delta);
	rq.sum = z3::ite(fwd, rq.sum - rq.avg_load * delta, rq.sum);
	rq.v0 = z3::ite(fwd, vr, rq.v0);
}

expr Enc::protect_slice(const SymSE& se) const
{
	if (cfg_.mutation & MUT_RENEW_STRICT)
		return z3::sge(se.vprot - se.v, 0);
	return z3::slt(0, se.vprot - se.v);
}

void Enc::update_curr(SymRq& rq) const
{
	if (!rq.curr)
		return;
	const SymSE& old = *rq.curr;
	const expr delta = rq.clock - old.exec_start;
	const expr go = z3::slt(0, delta);

	SymRq n = rq;
	SymSE& cur = *n.curr;
	cur.exec_start = (cfg_.mutation & MUT_EXEC_START_STALE) ? old.exec_start : rq.clock;
	cur.sum_exec = old.sum_exec + delta;
	cur.v = old.v + calc_delta_fair(delta, old.cdf);
	const expr renewed = update_deadline(cur);
	update_min_vruntime(n);
	const expr multi = (cfg_.mutation & MUT_NR_QUEUED_OFF_BY_ONE) ? z3::ugt(rq.nr_queued, bv(2))
								       : rq.nr_queued != bv(1);
	const expr renew_resched = (cfg_.mutation & MUT_NO_RESCHED_RENEWAL) ? c_.bool_val(false) : renewed;
	const expr resched = multi && (renew_resched || !protect_slice(cur));

	SymSE& out = *rq.curr;
	out.exec_start = z3::ite(go, cur.exec_start, old.exec_start);
	out.sum_exec = z3::ite(go, cur.sum_exec, old.sum_exec);
	out.v = z3::ite(go, cur.v, old.v);
	out.d = z3::ite(go, cur.d, old.d);
	out.slice = z3::ite(go, cur.slice, old.slice);
	out.vprot = z3::ite(go, cur.vprot, old.vprot);  // unchanged unless a mutation touches it
	rq.sum = z3::ite(go, n.sum, rq.sum);
	rq.v0 = z3::ite(go, n.v0, rq.v0);
	rq.need_resched = rq.need_resched || (go && resched);
}

void Enc::set_protect_slice(const SymRq& rq, SymSE& se) const
{
	expr slice = bv(cfg_.normalized_base_slice);
	if (cfg_.features[Feature::RUN_TO_PARITY])
		slice = cfs_rq_min_slice(rq);
	slice = z3::ite(z3::ult(slice, se.slice), slice, se.slice);
	const expr limited = min_vruntime(se.d, se.v + calc_delta_fair(slice, se.cdf));
	se.vprot = z3::ite(slice != se.slice, limited, se.d);
}

expr Enc::pick_eevdf(const SymRq& rq, bool protect) const { return pick_eevdf(rq, c_.bool_val(protect)); }

expr Enc::pick_eevdf(const SymRq& rq, const expr& protect) const
{
	auto idx = [&](unsigned i) { return c_.bv_val(i, 8); };
	const size_t n = rq.tree.size();
	// tree order: deadline (wrapped), then insertion order
	auto less = [&](size_t i, size_t j) {
		const expr& di = rq.tree[i].d;
		const expr& dj = rq.tree[j].d;
		return i < j ? !z3::slt(dj - di, 0) : z3::slt(di - dj, 0);
	};
	// the leftmost entity, for nr_queued == 1
	expr leftmost = idx(PICK_NONE);
	for (size_t i = n; i-- > 0;) {
		expr first = c_.bool_val(true);
		for (size_t j = 0; j < n; j++)
			if (j != i)
				first = first && less(i, j);
		leftmost = z3::ite(first, idx(static_cast<unsigned>(i)), leftmost);
	}
	const bool have_curr = rq.curr && rq.curr_on_rq;
	const expr curr_or_left = have_curr ? idx(PICK_CURR) : leftmost;

	std::vector<expr> elig;
	for (const SymSE& se : rq.tree)
		elig.push_back(vruntime_eligible(rq, se.v));
	// best: the first eligible entity in tree order (what the heap search finds)
	expr best = idx(PICK_NONE);
	expr best_d = bv(0);
	expr any = c_.bool_val(false);
	for (size_t i = n; i-- > 0;) {
		expr cand = elig[i];
		for (size_t j = 0; j < n; j++)
			if (j != i)
				cand = cand && z3::implies(elig[j], less(i, j));
		best = z3::ite(cand, idx(static_cast<unsigned>(i)), best);
		best_d = z3::ite(cand, rq.tree[i].d, best_d);
		any = any || cand;
	}
	expr result = best;
	if (have_curr) {
		const SymSE& c = *rq.curr;
		const expr c_ok = vruntime_eligible(rq, c.v);
		const expr before = z3::slt(c.d - best_d, 0);
		const expr fallback = (cfg_.mutation & MUT_PICK_NO_CURR_FALLBACK) ? idx(PICK_NONE) : idx(PICK_CURR);
		result = z3::ite(any, z3::ite(c_ok && before, idx(PICK_CURR), best),
				 z3::ite(c_ok, fallback, idx(PICK_NONE)));
		result = z3::ite(protect && c_ok && protect_slice(c), idx(PICK_CURR), result);
	}
	return z3::ite(rq.nr_queued == bv(1), curr_or_left, result);
}

void Enc::update_protect_slice(const SymRq& rq, SymSE& se) const
{
	limit_protect_slice(se, calc_delta_fair(cfs_rq_min_slice(rq), se.cdf));
}

void Enc::limit_protect_slice(SymSE& se, const expr& vslice) const
{
	const expr limit = se.v + vslice;
	if (cfg_.mutation & MUT_PROTECT_MAX)
		se.vprot = z3::ite(z3::slt(se.vprot - limit, 0), limit, se.vprot);
	else
		se.vprot = min_vruntime(se.vprot, limit);
}

void Enc::cancel_protect_slice(SymSE& se) const
{
	se.vprot = z3::ite(protect_slice(se), se.v, se.vprot);
}

expr Enc::check_preempt_wakeup_fair(SymRq& rq, unsigned pse) const
{
	auto idx = [&](unsigned i) { return c_.bv_val(i, 8); };
	if (!rq.curr || !cfg_.features[Feature::WAKEUP_PREEMPTION])
		return idx(PICK_NONE);
	const expr was = rq.need_resched;
	SymRq n = rq;
	update_curr(n);
	const SymSE& p = n.tree[pse];
	const expr short_slice = (cfg_.features[Feature::PREEMPT_SHORT] && !(cfg_.mutation & MUT_WAKEUP_IGNORE_SHORT))
					 ? z3::ult(p.slice, n.curr->slice)
					 : c_.bool_val(false);
	const expr pick = pick_eevdf(n, !short_slice);
	const expr wins = pick == idx(pse);
	SymSE c = *n.curr;
	SymSE cancelled = c;
	cancel_protect_slice(cancelled);
	SymSE shrunk = c;
	if (cfg_.features[Feature::RUN_TO_PARITY])
		update_protect_slice(n, shrunk);
	c.vprot = z3::ite(wins, z3::ite(short_slice, cancelled.vprot, c.vprot), z3::ite(short_slice, shrunk.vprot, c.vprot));
	n.curr = c;
	n.need_resched = n.need_resched || wins;
	// need_resched already set: the function returns before update_curr
	SymSE& out = *rq.curr;
	const SymSE& nc = *n.curr;
	out.v = z3::ite(was, out.v, nc.v);
	out.d = z3::ite(was, out.d, nc.d);
	out.vprot = z3::ite(was, out.vprot, nc.vprot);
	out.slice = z3::ite(was, out.slice, nc.slice);
	out.exec_start = z3::ite(was, out.exec_start, nc.exec_start);
	out.sum_exec = z3::ite(was, out.sum_exec, nc.sum_exec);
	rq.sum = z3::ite(was, rq.sum, n.sum);
	rq.v0 = z3::ite(was, rq.v0, n.v0);
	rq.need_resched = was || n.need_resched;
	return z3::ite(was, idx(PICK_NONE), pick);
}

void Enc::place_entity(const SymRq& rq, SymSE& se, bool initial) const
{
	const expr V = avg_vruntime(rq);
	const expr slice = se.custom_slice ? se.slice : cfg_.base_slice;
	expr vslice = calc_delta_fair(slice, se.cdf);
	expr lag = bv(0);
	if (cfg_.features[Feature::PLACE_LAG]) {
		expr wsum = rq.avg_load;
		if (rq.curr && rq.curr_on_rq)
			wsum = wsum + rq.curr->w;
		const expr num = se.vlag * (wsum + se.w);
		const expr q = num / z3::ite(wsum == 0, bv(1), wsum);
		lag = z3::ite(rq.nr_queued != 0 && se.vlag != 0, q, bv(0));
	}
	se.slice = slice;
	se.v = V - lag;
	if (se.rel_deadline) {
		se.d = se.d + se.v;
		se.rel_deadline = false;
		return;
	}
	if (cfg_.features[Feature::PLACE_DEADLINE_INITIAL] && initial)
		vslice = z3::udiv(vslice, bv(2));
	se.d = se.v + vslice;
}

}  // namespace eevdf::proofs
