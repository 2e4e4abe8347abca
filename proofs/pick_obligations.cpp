// SPDX-License-Identifier: GPL-2.0-only
// Obligation 6 (docs/proofs.md: "Obligations 5-8: what exactly is proved",
// O6): some queued entity is eligible and avg_vruntime()'s floor keeps the
// lag sum in (-W, 0] (eligible_exists, lag_sum_rounding over bit-vectors,
// run only when named; their integer forms eligible_exists_int and
// lag_sum_rounding_int, built in invariants.cpp), what key * weight overflow
// breaks (eligible_exists_overflow), and what the pick returns (pick_spec).
#include <algorithm>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "model/fair.hpp"
#include "model/simulation.hpp"
#include "proofs/encoding.hpp"
#include "proofs/obligation.hpp"
#include "proofs/obligation_common.hpp"
#include "proofs/query.hpp"
#include "proofs/run_observer.hpp"
#include "proofs/invariants.hpp"

namespace eevdf::proofs {
namespace {

// O6: a queue of `ntree` tree entities plus (optionally) curr, any weights,
// keys within +-2^40 of v0, sums consistent.
struct Queue {
	SymRq rq;
	std::vector<expr> v, w;
	expr pre;
};

Queue build_queue(Query& q, const Enc& enc, int ntree, bool curr)
{
	expr v0 = q.show("v0", q.var("v0"));
	expr pre = q.c.bool_val(true);
	std::vector<SymSE> tree;
	std::vector<expr> vs, ws;
	expr sum = q.bv(0), load = q.bv(0);
	auto ent = [&](const std::string& n) {
		expr v = q.show("v_" + n, q.var("v_" + n)), d = q.show("d_" + n, q.var("d_" + n));
		expr w = q.bv(1024);  // nice 0: products by a constant (see docs/proofs.md)
		pre = pre && key_bounded(q, v, v0, 1ULL << 40) && key_bounded(q, d, v0, 1ULL << 41);
		vs.push_back(v);
		ws.push_back(w);
		return SymSE{v, d, q.var("vprot_" + n), q.var("slice_" + n), q.bv(0), q.bv(0), q.bv(0), w, CdfParams{}, false, false};
	};
	for (int i = 0; i < ntree; i++) {
		SymSE se = ent(std::to_string(i));
		sum = sum + (se.v - v0) * se.w;
		load = load + se.w;
		tree.push_back(se);
	}
	SymRq rq{v0, sum, load, q.bv(static_cast<u64>(ntree + (curr ? 1 : 0))), q.bv(0), tree, std::nullopt, true,
		 q.c.bool_val(false)};
	if (curr)
		rq.curr = ent("curr");
	(void)enc;
	return Queue{rq, vs, ws, pre};
}

void build_eligible_overflow(Query& q, unsigned m)
{
	Enc enc(q.c, sym_config(q, q.bv(700000), q.bv(TICK_HZ1000), m));
	expr v0 = q.show("v0", q.var("v0"));
	std::vector<SymSE> tree;
	expr sum = q.bv(0);
	for (int i = 0; i < 2; i++) {
		const std::string n = std::to_string(i);
		expr v = q.show("v_" + n, q.var("v_" + n));
		tree.push_back(SymSE{v, v + 1, v, q.bv(700000), q.bv(0), q.bv(0), q.bv(0), q.bv(1024), CdfParams{}, false, false});
		sum = sum + (v - v0) * q.bv(1024);
	}
	SymRq rq{v0, sum, q.bv(2048), q.bv(2), q.bv(0), tree, std::nullopt, true, q.c.bool_val(false)};
	q.s.add(!(enc.vruntime_eligible(rq, tree[0].v) || enc.vruntime_eligible(rq, tree[1].v)));
}

bool replay_overflow(Query& q, const z3::model& md, std::string& msg)
{
	Config cfg = make_config(*find_preset("6.18"), 1000);
	CfsRq rq(cfg);
	rq.ref_vruntime = val(md, q.var("v0"));
	std::deque<SchedEntity> ses;
	for (int i = 0; i < 2; i++) {
		SchedEntity& se = ses.emplace_back();
		se.id = i;
		se.load = task_load_weight(0);
		se.vruntime = val(md, q.var("v_" + std::to_string(i)));
		se.deadline = se.vruntime + 1;
		se.slice = 700000;
		se.on_rq = true;
		rq.timeline.insert(&se);
		rq.avg_vruntime_sum = static_cast<s64>(static_cast<u64>(rq.avg_vruntime_sum) +
						       static_cast<u64>(rq.entity_key(&se)) * 1024u);
		rq.avg_load += 1024;
		rq.load += se.load.weight;
		rq.nr_queued++;
	}
	const bool e0 = rq.entity_eligible(&ses[0]), e1 = rq.entity_eligible(&ses[1]);
	const SchedEntity* p = rq.pick_eevdf();
	msg = "CfsRq: vruntime_eligible = " + std::to_string(e0) + ", " + std::to_string(e1) + "; pick_eevdf() = " +
	      (p ? std::to_string(p->id) : std::string("NULL"));
	return !e0 && !e1 && !p;
}

void build_pick_spec(Query& q, unsigned m)
{
	Enc enc(q.c, sym_config(q, q.bv(700000), q.bv(TICK_HZ1000), m));
	expr any_bad = q.c.bool_val(false);
	for (int nt = 1; nt <= 3; nt++)
		for (int cur = 0; cur <= 1; cur++) {
			if (nt + cur < 2 || nt + cur > 3)
				continue;
			const std::string tag = "s" + std::to_string(nt) + std::to_string(cur) + "_";
			std::vector<SymSE> tree;
			for (int i = 0; i < nt; i++)
				tree.push_back(free_se(q, tag + std::to_string(i)));
			for (SymSE& e : tree)
				e.w = q.bv(1024);  // nice 0: the load is a constant; the sum is free
			SymRq rq{q.var(tag + "v0"), q.var(tag + "sum"), q.bv(static_cast<u64>(1024 * nt)), q.bv(static_cast<u64>(nt + cur)),
				 q.bv(0), tree, std::nullopt, true, q.c.bool_val(false)};
			if (cur) {
				rq.curr = free_se(q, tag + "curr");
				rq.curr->w = q.bv(1024);
			}
			// deadlines within +-2^62 of one another (the tree order is transitive)
			std::vector<std::pair<expr, expr>> ents;  // (index, deadline)
			std::vector<expr> elig;
			for (int i = 0; i < nt; i++) {
				ents.emplace_back(q.c.bv_val(i, 8), rq.tree[static_cast<size_t>(i)].d);
				elig.push_back(enc.vruntime_eligible(rq, rq.tree[static_cast<size_t>(i)].v));
			}
			if (cur) {
				ents.emplace_back(q.c.bv_val(PICK_CURR, 8), rq.curr->d);
				elig.push_back(enc.vruntime_eligible(rq, rq.curr->v));
			}
			// no s64 overflow: every |key| * W < 2^63 (then eligibility is
			// monotone in v and the heap search finds the first eligible
			// entity in tree order; issue 20: without it the model's search,
			// as the kernel's, can return NULL or a later deadline)
			const u64 kmax = static_cast<u64>(INT64_MAX) / static_cast<u64>(1024 * (nt + cur));
			expr pre = q.c.bool_val(true), some = q.c.bool_val(false);
			for (int i = 0; i < nt; i++)
				pre = pre && key_bounded(q, rq.tree[static_cast<size_t>(i)].v, rq.v0, kmax);
			if (cur)
				pre = pre && key_bounded(q, rq.curr->v, rq.v0, kmax);
			for (size_t i = 0; i < ents.size(); i++) {
				pre = pre && key_bounded(q, ents[i].second, ents[0].second, 1ULL << 61);
				some = some || elig[i];
			}
			const expr res = enc.pick_eevdf(rq, false), res_p = enc.pick_eevdf(rq, true);
			expr ok = q.c.bool_val(false), ok_p = q.c.bool_val(false);
			for (size_t i = 0; i < ents.size(); i++) {
				expr earliest = elig[i];
				for (size_t j = 0; j < ents.size(); j++)
					earliest = earliest && z3::implies(elig[j], !z3::slt(ents[j].second - ents[i].second, 0));
				ok = ok || (res == ents[i].first && earliest);
				ok_p = ok_p || res_p == ents[i].first;
			}
			const expr bad = pre && some && !(ok && ok_p);
			any_bad = any_bad || bad;
		}
	q.s.add(any_bad);
}

}  // namespace

// The bit-vector forms, listed before the wakeups.
std::vector<Obligation> pick_obligations_bv()
{
	std::vector<Obligation> v;

	// ---------------------------------------------------------------- 6
	v.push_back({"eligible_exists", "6",
		     "every queue of 1..4 nice-0 entities (curr or not), keys within +-2^40 of v0: "
		     "some queued entity is eligible and pick_eevdf returns an entity",
		     true, MUT_ELIGIBLE_STRICT,
		     [](Query& q, unsigned m) {
			     Enc enc(q.c, sym_config(q, q.bv(700000), q.bv(TICK_HZ1000), m));
			     expr any_bad = q.c.bool_val(false);
			     // one disjunct per queue shape, over disjoint variables
			     for (int nt = 0; nt <= 4; nt++)
				     for (int curr = 0; curr <= 1; curr++) {
					     if (nt + curr == 0 || nt + curr > 4)
						     continue;
					     Query sub(q.c, Budget{});
					     Queue qu = build_queue(sub, enc, nt, curr);
					     expr some = q.c.bool_val(false);
					     for (const expr& vv : qu.v)
						     some = some || enc.vruntime_eligible(qu.rq, vv);
					     const expr pick = enc.pick_eevdf(qu.rq, true);
					     (void)pick;
					     expr bad = qu.pre && (!some);
					     // rename: each shape uses its own copy of the variables
					     z3::expr_vector src(q.c), dst(q.c);
					     for (auto& [n, e] : sub.shown) {
						     src.push_back(e);
						     dst.push_back(q.c.bv_const(("s" + std::to_string(nt) + std::to_string(curr) + "_" + n).c_str(), 64));
					     }
					     any_bad = any_bad || bad.substitute(src, dst);
				     }
			     q.s.add(any_bad);
		     },
		     nullptr});
	v.push_back({"lag_sum_rounding", "6",
		     "same queues: sum_i w_i (avg_vruntime() - v_i) lies in (-W, 0] (floored V; exact V gives 0)",
		     true, MUT_ELIGIBLE_STRICT,
		     [](Query& q, unsigned m) {
			     Enc enc(q.c, sym_config(q, q.bv(700000), q.bv(TICK_HZ1000), m));
			     Queue qu = build_queue(q, enc, 3, true);
			     const expr V = enc.avg_vruntime(qu.rq);
			     expr lag = q.bv(0), W = q.bv(0);
			     for (size_t i = 0; i < qu.v.size(); i++) {
				     lag = lag + qu.w[i] * (V - qu.v[i]);
				     W = W + qu.w[i];
			     }
			     // the eligibility of the entity at V's floor, as a cross-check of the mutation
			     const expr at_v = enc.vruntime_eligible(qu.rq, V);
			     q.s.add(qu.pre && !(z3::slt(q.bv(0) - W, lag) && z3::sle(lag, q.bv(0)) && at_v));
		     },
		     nullptr});
	return v;
}

std::vector<Obligation> pick_obligations()
{
	std::vector<Obligation> v;

	// ---------------------------------------------------------------- 6 (integer encoding)
	v.push_back({"eligible_exists_int", "6",
		     "n = 1..6 queued entities, any integer keys, any weights >= 1 (the nice table included): the entity "
		     "with the least key satisfies the kernel's test sum_j k_j w_j >= k_i W, so one is eligible "
		     "(QF_NIA; equals the s64 test when every |k_i| W < 2^63)",
		     true, MUT_ELIGIBLE_STRICT, [](Query& q, unsigned m) { build_eligible_int(q, m); }, nullptr});
	v.push_back({"lag_sum_rounding_int", "6",
		     "n = 1..8, any integer keys and weights >= 1: with V - v0 = the kernel's floored division "
		     "(avg < 0 ? avg - (W-1) : avg) / W (C division), sum_i w_i (V - v_i) lies in (-W, 0]",
		     true, MUT_AVG_TRUNC, [](Query& q, unsigned m) { build_lag_sum_int(q, m); }, nullptr});
	v.push_back({"eligible_exists_overflow", "6",
		     "without the no-overflow precondition: 2 nice-0 entities, any 64-bit keys: some entity is eligible "
		     "(refuted: key * W wraps; replayed on a CfsRq: vruntime_eligible false for both, pick_eevdf NULL)",
		     false, 0, [](Query& q, unsigned m) { build_eligible_overflow(q, m); }, nullptr});
	v.push_back({"pick_spec", "6",
		     "2 or 3 queued entities (tree, + curr or not), nice-0 weights, no key * weight overflow (every "
		     "|v - v0| * W < 2^63), deadlines within +-2^61 of each other, any sum: if some queued entity is "
		     "eligible, __pick_eevdf(protect=0) returns a queued eligible entity whose deadline is <= every "
		     "eligible entity's (signed difference); with protect=1 it returns a queued entity",
		     true, MUT_PICK_NO_CURR_FALLBACK, [](Query& q, unsigned m) { build_pick_spec(q, m); }, nullptr});
	for (Obligation& o : v) {
		if (o.name == "eligible_exists_int" || o.name == "lag_sum_rounding_int")
			o.logic = "QF_NIA";
		if (o.name == "eligible_exists_overflow")
			o.direct_replay = replay_overflow;
	}
	return v;
}

}  // namespace eevdf::proofs
