// SPDX-License-Identifier: GPL-2.0-only
// The integer-level obligations (QF_LIA / QF_NIA): inductive invariants over
// exact integer keys for O5 (lag), O1/O2 for whole runs (re-picks, the tick
// grid, unequal weights), O6's existence and rounding, and O7's pick. Their
// rules (eligibility as an exact sum, the pick, the update_curr step) are the
// ones proofs/check.cpp holds to the model; docs/proofs.md argues why they
// transfer to the kernel's s64 arithmetic. Each executable cross-check runs
// the same scenarios in the simulator.
#include "proofs/invariants.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "model/proved_bounds.hpp"
#include "model/simulation.hpp"
#include "model/weights.hpp"
#include "model/workload.hpp"
#include "proofs/encoding.hpp"
#include "proofs/int_rules.hpp"

namespace eevdf::proofs {

// O7, the pick, over the integers: entity 0 is curr, entity n-1 the waker
// P, any weights w_i >= 1, any keys. Eligibility is the kernel's test
// sum_j w_j (v_j - v_x) >= 0 (O6: equal to the s64 test without overflow);
// a pick is curr when curr is protected (eligible and v < vprot), else an
// entity as pick_spec proves __pick_eevdf returns one: eligible, with a
// deadline <= every eligible entity's. update_curr advances curr by any
// a >= 0 (calc_delta_fair of the elapsed time), renews its deadline by its
// vslice when v >= d, and requests the resched on a renewal or when
// protection is over (6.17+).
void build_waker_picked_int(Query& q, unsigned m)
{
	expr any_bad = q.c.bool_val(false);
	for (int n = 3; n <= 5; n++) {
		const std::string tag = "n" + std::to_string(n) + "_";
		auto iv = [&](const std::string& x) { return q.show(tag + x, q.ivar(tag + x)); };
		rules::Queue Q;
		expr pre = q.c.bool_val(true);
		for (int i = 0; i < n; i++) {
			Q.k.push_back(iv("v" + std::to_string(i)));
			Q.d.push_back(iv("d" + std::to_string(i)));
			Q.w.push_back(iv("w" + std::to_string(i)));
			pre = pre && Q.w.back() >= 1;
		}
		const std::vector<expr>& v = Q.k;
		const std::vector<expr>& d = Q.d;
		const size_t P = static_cast<size_t>(n - 1);
		const expr vprot = iv("vprot_curr"), vs = iv("vslice_curr"), a = iv("advance");
		const expr shorter = q.c.bool_const((tag + "shorter").c_str());  // PREEMPT_SHORT and slice_P < slice_curr
		const expr resched0 = q.c.bool_const((tag + "resched_at_wakeup_update").c_str());
		pre = pre && vprot <= d[0] && vs >= 1 && a >= 0;
		// the wakeup's own update_curr requested a resched (renewal or protection over): v >= vprot
		pre = pre && z3::implies(resched0, v[0] >= vprot);
		// every pick the specification allows (with protect) is P
		auto picks_waker = [&](const rules::Queue& S, const expr& vp) {
			expr only_p = !rules::protected_curr(S, 0, vp) && rules::spec_pick(S, P);
			for (int x = 0; x < n - 1; x++)
				only_p = only_p && !rules::spec_pick(S, static_cast<size_t>(x));
			return only_p;
		};
		expr cond = rules::eligible(Q, P);
		for (int i = 0; i < n - 1; i++)
			cond = cond && d[P] < d[static_cast<size_t>(i)];
		// check_preempt_wakeup_fair: pick_eevdf_protect(!shorter) == P requests the resched
		const expr prot_w = !shorter && rules::protected_curr(Q, 0, vprot);
		const expr wins = !prot_w;  // under cond the unprotected pick is P (checked below via picks_waker)
		// __schedule() after the wakeup: cancel_protect_slice if shorter (vprot = v)
		const expr vprot_s = z3::ite(shorter, z3::ite(v[0] < vprot, v[0], vprot), vprot);
		expr ok = z3::implies(resched0 || wins, picks_waker(Q, vprot_s));
		// no preemption: curr runs on; the next update_curr that requests a resched
		const rules::Step st = rules::update_curr_step(v[0], d[0], a, vs, vprot);
		rules::Queue Q2 = Q;
		Q2.k[0] = st.v;
		Q2.d[0] = st.d;
		const expr vprot2 = (m & MUT_RENEW_PROTECT) ? z3::ite(st.renew, st.d, vprot) : vprot;
		ok = ok && z3::implies(!resched0 && !wins && st.resched, picks_waker(Q2, vprot2));
		any_bad = any_bad || (pre && cond && !ok);
	}
	q.s.add(any_bad);
}

// ---------------------------------------------------------------- O6 (integers)
// n queued entities as integers: keys k_i = v_i - v0, weights w_i >= 1
// (deadlines play no part in O6).
struct IntQueue {
	rules::Queue q;
	expr pre;
};

IntQueue int_queue(Query& q, const std::string& tag, int n)
{
	IntQueue x{{}, q.c.bool_val(true)};
	for (int i = 0; i < n; i++) {
		x.q.k.push_back(q.ivar(tag + "k" + std::to_string(i)));
		x.q.w.push_back(q.ivar(tag + "w" + std::to_string(i)));
		x.q.d.push_back(q.ival(0));
		x.pre = x.pre && x.q.w.back() >= 1;
	}
	return x;
}

// The kernel's eligibility test as integers: sum_j k_j w_j >= k_i * W.
void build_eligible_int(Query& q, unsigned m)
{
	expr any_bad = q.c.bool_val(false);
	// The claim and the test are symmetric under a permutation of the
	// entities, so the least key is entity 0 without loss of generality.
	for (int n = 1; n <= 6; n++) {  // n = 8 is PROVED in-process too, but cvc5 needs > 30 s for the export
		IntQueue x = int_queue(q, "n" + std::to_string(n) + "m0_", n);
		for (int i = 0; i < n; i++)
			x.pre = x.pre && x.q.k[0] <= x.q.k[static_cast<size_t>(i)];
		any_bad = any_bad || (x.pre && !rules::eligible(x.q, 0, (m & MUT_ELIGIBLE_STRICT) != 0));
	}
	q.s.add(any_bad);  // the solver (run_prove) normalises to sums of monomials first
}

void build_lag_sum_int(Query& q, unsigned m)
{
	expr any_bad = q.c.bool_val(false);
	for (int n = 1; n <= 8; n++) {
		const std::string tag = "n" + std::to_string(n) + "_";
		IntQueue x = int_queue(q, tag, n);
		const std::vector<expr>& k = x.q.k;
		const std::vector<expr>& w = x.q.w;
		const expr A = rules::key_sum(x.q), W = rules::weight_sum(x.q);
		const expr qq = q.ivar(tag + "q"), rm = q.ivar(tag + "rem");
		const expr pre = x.pre && rules::avg_floor(A, W, qq, rm, (m & MUT_AVG_TRUNC) != 0);
		expr L = q.ival(0);
		for (int i = 0; i < n; i++)
			L = L + w[static_cast<size_t>(i)] * (qq - k[static_cast<size_t>(i)]);
		any_bad = any_bad || (pre && !(-W < L && L <= 0));
	}
	q.s.add(any_bad);  // the solver (run_prove) normalises to sums of monomials first
}

// ---------------------------------------------------------------- O5 (integers)
void build_lag_invariant(Query& q, unsigned m)
{
	expr r = q.show("slice", q.ivar("r")), T = q.show("TICK_NSEC", q.ivar("T")), J = q.show("jitter", q.ivar("J"));
	const expr B = r + T + J - 1;
	const expr base = r >= 1 && T >= 1 && J >= 0 && J < T;
	expr any_bad = q.c.bool_val(false);
	for (int n = 3; n <= 4; n++) {
		const std::string tag = "n" + std::to_string(n) + "_";
		std::vector<expr> v, d;
		for (int i = 0; i < n; i++) {
			v.push_back(q.show(tag + "v" + std::to_string(i), q.ivar(tag + "v" + std::to_string(i))));
			d.push_back(q.show(tag + "d" + std::to_string(i), q.ivar(tag + "d" + std::to_string(i))));
		}
		auto inv = [&](const std::vector<expr>& vv, const std::vector<expr>& dd, int c) {
			expr x = q.c.bool_val(true);
			for (int i = 0; i < n; i++) {
				x = x && dd[static_cast<size_t>(i)] - vv[static_cast<size_t>(i)] <= r &&
				    vv[static_cast<size_t>(i)] < dd[static_cast<size_t>(i)];
				for (int j = 0; j < n; j++)
					if (i != j) {
						x = x && vv[static_cast<size_t>(i)] - vv[static_cast<size_t>(j)] <= B;
						if (i == c)
							x = x && dd[static_cast<size_t>(c)] <= vv[static_cast<size_t>(j)] + r;
					}
			}
			return x;
		};
		auto sum = [&](const std::vector<expr>& vv) {
			expr s = q.ival(0);
			for (const expr& e : vv)
				s = s + e;
			return s;
		};
		// equal weights (any common weight: 1)
		const std::vector<expr> ones(static_cast<size_t>(n), q.ival(1));
		// initial: hogs placed together, 0 < d_i - v_i <= r
		expr init = base;
		for (int i = 0; i < n; i++)
			init = init && v[static_cast<size_t>(i)] == v[0] && d[static_cast<size_t>(i)] > v[0] &&
			       d[static_cast<size_t>(i)] - v[0] <= r;
		any_bad = any_bad || (init && !inv(v, d, 0));
		// step: curr = 0 runs g <= T + J; any resched but the renewal's is allowed
		const expr g = q.ivar(tag + "gap");
		const rules::Step st = rules::update_curr_step(v[0], d[0], g, r, d[0]);
		const rules::Queue Q2{[&] { auto x = v; x[0] = st.v; return x; }(), [&] { auto x = d; x[0] = st.d; return x; }(), ones};
		const expr rs = q.c.bool_const((tag + "resched").c_str());
		expr step_pre = base && inv(v, d, 0) && g >= 1 && g <= T + J;
		if (!(m & MUT_NO_RESCHED_RENEWAL))
			step_pre = step_pre && z3::implies(st.resched, rs);
		expr post = z3::implies(!rs, inv(Q2.k, Q2.d, 0));
		// a pick satisfying pick_spec: eligible, deadline <= every eligible one
		for (int j = 0; j < n; j++)
			post = post && z3::implies(rs && rules::spec_pick(Q2, static_cast<size_t>(j)), inv(Q2.k, Q2.d, j));
		any_bad = any_bad || (step_pre && !post);
		// the lag bound: V = floor(sum / n)
		const expr V = q.ivar(tag + "V");
		expr lag_ok = q.c.bool_val(true);
		for (int i = 0; i < n; i++)
			lag_ok = lag_ok && V - v[static_cast<size_t>(i)] <= B && v[static_cast<size_t>(i)] - V <= B;
		any_bad = any_bad || (base && inv(v, d, 0) && n * V <= sum(v) && sum(v) < n * V + n && !lag_ok);
	}
	q.s.add(any_bad);
}

// O5 for any weights: n hogs with weights w_i >= 1, virtual requests
// vs_i = cdf_i(r) and virtual steps A_i = cdf_i(TICK + J) (every accounting
// point is <= TICK + J after the last). V = S / W with S = sum_j w_j v_j,
// W = sum_j w_j, is exact (the kernel's floor is within 1 of it). curr = c
// keeps a ghost p = its v at its last pick. Inv:
//   every i: 0 < d_i - v_i <= vs_i;
//   every i != c: v_i - V <= U_i := vs_i + A_i - 1;
//   curr: p <= V, p <= v_c, d_c - p <= vs_c.
// V only grows (curr's v grows, nobody leaves), so a waiting entity's
// v - V only shrinks, and curr was eligible (p <= V) at its pick. From Inv,
// w_i (V - v_i) = sum_{j != i} w_j (v_j - V) bounds the other side.
//
// The weights are constants from the nice table (products w * v stay
// linear: QF_LIA); every assignment of the listed nice levels to curr and
// the waiting entities is checked. Symbolic weights make the query
// non-linear, and Z3 gives no answer in 100 s (docs/proofs.md).
std::vector<std::vector<int>> lag_weighted_nices()
{
	std::vector<std::vector<int>> out;
	const std::vector<int> levels(std::begin(WEIGHTED_NICES), std::end(WEIGHTED_NICES));
	// curr first, then a non-decreasing list of the others (their order does not matter)
	for (int c : levels)
		for (size_t i = 0; i < levels.size(); i++) {
			out.push_back({c, levels[i]});
			for (size_t j = i; j < levels.size(); j++) {
				out.push_back({c, levels[i], levels[j]});
				for (size_t k = j; k < levels.size(); k++)
					if (weighted_case_proved(c, {levels[i], levels[j], levels[k]}))
						out.push_back({c, levels[i], levels[j], levels[k]});
			}
		}
	return out;
}

void build_lag_weighted(Query& q, unsigned m, size_t combo)
{
	expr any_bad = q.c.bool_val(false);
	{
		const std::vector<int> nices = lag_weighted_nices().at(combo);
		const int n = static_cast<int>(nices.size());
		std::string tag = "nice";
		for (int x : nices)
			tag += "_" + std::to_string(x);
		tag += ":";
		auto iv = [&](const std::string& x) { return q.show(tag + x, q.ivar(tag + x)); };
		std::vector<expr> v, d, w, vs, A;
		expr base = q.c.bool_val(true);
		for (int i = 0; i < n; i++) {
			const std::string k = std::to_string(i);
			v.push_back(iv("v" + k));
			d.push_back(iv("d" + k));
			w.push_back(q.ival(static_cast<s64>(nice_to_weight(nices[static_cast<size_t>(i)]))));
			vs.push_back(iv("vslice" + k));
			A.push_back(iv("vstep" + k));
			base = base && vs.back() >= 1 && A.back() >= 1;
		}
		auto U = [&](size_t i) { return vs[i] + A[i] - 1; };
		s64 Wc = 0;  // a numeral, so that W * x stays linear in the exported SMT-LIB2
		for (int x : nices)
			Wc += static_cast<s64>(nice_to_weight(x));
		const expr W = q.ival(Wc);
		auto S = [&](const std::vector<expr>& vv) {
			expr s = q.ival(0);
			for (size_t j = 0; j < vv.size(); j++)
				s = s + w[j] * vv[j];
			return s;
		};
		// the ghost p was eligible at curr's pick: W p <= S (vruntime_eligible of p)
		auto inv = [&](const std::vector<expr>& vv, const std::vector<expr>& dd, const expr& p, size_t c) {
			expr x = rules::eligible_key(rules::Queue{vv, dd, w}, p) && p <= vv[c] && dd[c] - p <= vs[c];
			for (size_t i = 0; i < vv.size(); i++) {
				x = x && vv[i] < dd[i] && dd[i] - vv[i] <= vs[i];
				if (i != c)
					x = x && W * vv[i] - S(vv) <= W * U(i);
			}
			return x;
		};
		const expr p = iv("p_curr");
		// initial: forked together at one V (PLACE_LAG with zero lag), 0 < d_i - v_i <= vs_i
		// (PLACE_DEADLINE_INITIAL gives half a request), entity 0 picked first
		expr init = base && p == v[0];
		for (int i = 0; i < n; i++)
			init = init && v[static_cast<size_t>(i)] == v[0] && d[static_cast<size_t>(i)] > v[0] &&
			       d[static_cast<size_t>(i)] - v[0] <= vs[static_cast<size_t>(i)];
		any_bad = any_bad || (init && !inv(v, d, p, 0));
		// a step: curr (entity 0, by symmetry) advances by a in [0, A_0];
		// uniform slices: vprot = d, so the resched comes with the renewal
		const expr a = iv("advance");
		const rules::Step st = rules::update_curr_step(v[0], d[0], a, vs[0], d[0]);
		std::vector<expr> v2 = v, d2 = d;
		v2[0] = st.v;
		d2[0] = st.d;
		const rules::Queue Q2{v2, d2, w};
		const expr pre = base && inv(v, d, p, 0) && a >= 0 && a <= A[0];
		// no resched: curr runs on
		expr post = z3::implies(!st.resched, inv(v2, d2, p, 0));
		if (m & MUT_NO_RESCHED_RENEWAL)  // a renewal that does not resched: curr runs on with its old ghost
			post = post && z3::implies(st.resched, inv(v2, d2, p, 0));
		// resched: the pick is any eligible entity (pick_spec), its v the new ghost
		for (int x = 0; x < n; x++) {
			const size_t xi = static_cast<size_t>(x);
			if (!(m & MUT_NO_RESCHED_RENEWAL))
				post = post && z3::implies(st.resched && rules::eligible(Q2, xi), inv(v2, d2, v2[xi], xi));
		}
		any_bad = any_bad || (pre && !post);
		// the bound: -U_i <= V - v_i and w_i (V - v_i) <= sum_{j != i} w_j U_j, all times W
		expr lag_ok = q.c.bool_val(true);
		for (int i = 0; i < n; i++) {
			const size_t ii = static_cast<size_t>(i);
			expr others = q.ival(0);
			for (int j = 0; j < n; j++)
				if (j != i)
					others = others + w[static_cast<size_t>(j)] * U(static_cast<size_t>(j));
			lag_ok = lag_ok && W * v[ii] - S(v) <= W * U(ii) && w[ii] * (S(v) - W * v[ii]) <= W * others;
		}
		any_bad = any_bad || (base && inv(v, d, p, 0) && !lag_ok);
	}
	q.s.add(any_bad);
}

// O1 for unequal weights: how far one run (switch to switch) can carry
// curr c, re-picks included, in c's virtual time. While c runs the others
// do not move, so c is eligible iff v_c <= V_o = S_o / W_o (the others'
// weighted mean) and every re-pick happens there; after the last one the
// request adds at most U_c. At the run's first pick (at s), lag_weighted
// gives w_c (V - s) <= sum_{j != c} w_j U_j, and V - s = W_o (V_o - s) / W.
// So: v_end - s <= U_c + W sum_{j != c} w_j U_j / (W_o w_c).
// RunInv (ghosts s = v at the run's start, p = v at the last pick):
//   w_c (S_o - W_o s) <= W sum_{j != c} w_j U_j;  W_o p <= S_o;
//   s <= p <= v_c < d_c;  d_c - p <= vs_c.
void build_run_weighted(Query& q, unsigned m, size_t combo)
{
	const std::vector<int> nices = lag_weighted_nices().at(combo);
	const size_t n = nices.size();
	std::string tag = "nice";
	for (int x : nices)
		tag += "_" + std::to_string(x);
	tag += ":";
	auto iv = [&](const std::string& x) { return q.show(tag + x, q.ivar(tag + x)); };
	std::vector<s64> w;
	s64 W = 0;
	for (int x : nices) {
		w.push_back(static_cast<s64>(nice_to_weight(x)));
		W += w.back();
	}
	const s64 Wo = W - w[0], wc = w[0];  // curr is entity 0
	std::vector<expr> v, vs, A;
	expr base = q.c.bool_val(true);
	for (size_t i = 0; i < n; i++) {
		const std::string k = std::to_string(i);
		v.push_back(iv("v" + k));
		vs.push_back(iv("vslice" + k));
		A.push_back(iv("vstep" + k));
		base = base && vs.back() >= 1 && A.back() >= 1;
	}
	auto U = [&](size_t i) { return vs[i] + A[i] - 1; };
	expr So = q.ival(0), others = q.ival(0);
	for (size_t j = 1; j < n; j++) {
		So = So + q.ival(w[j]) * v[j];
		others = others + q.ival(w[j]) * U(j);
	}
	const expr d = iv("d_curr"), p = iv("p_curr"), st = iv("run_start");
	auto run_inv = [&](const expr& vc, const expr& dc, const expr& pc) {
		return q.ival(wc) * (So - q.ival(Wo) * st) <= q.ival(W) * others && q.ival(Wo) * pc <= So && st <= pc &&
		       pc <= vc && vc < dc && dc - pc <= vs[0];
	};
	std::vector<expr> wv, dv(n, d);
	for (s64 x : w)
		wv.push_back(q.ival(x));
	// the run's first pick: c eligible at s, d - s <= vs_c, and lag_weighted's bound for c
	const expr S = So + q.ival(wc) * v[0];
	const expr init = base && st == v[0] && p == v[0] && rules::eligible(rules::Queue{v, dv, wv}, 0) && v[0] < d &&
			  d - v[0] <= vs[0] && q.ival(wc) * (S - q.ival(W) * v[0]) <= q.ival(W) * others;
	expr bad = init && !run_inv(v[0], d, p);
	const expr a = iv("advance");
	const rules::Step step = rules::update_curr_step(v[0], d, a, vs[0], d);  // uniform slices: vprot = d
	const expr& v2 = step.v;
	const expr pre = base && run_inv(v[0], d, p) && a >= 0 && a <= A[0];
	// no resched: curr runs on
	bad = bad || (pre && !step.resched && !run_inv(v2, d, p));
	// resched: re-picked only if eligible (the others have not moved), else the run ends
	std::vector<expr> v_after = v;
	v_after[0] = v2;
	const expr eligible = rules::eligible(rules::Queue{v_after, dv, wv}, 0);
	if (m & MUT_NO_RESCHED_RENEWAL)  // no resched: curr runs on with its old ghost
		bad = bad || (pre && step.resched && !run_inv(v2, step.d, p));
	else
		bad = bad || (pre && step.resched && eligible && !run_inv(v2, step.d, v2));
	// the end of the run (or any point of it): W_o w_c (v - s) <= W_o w_c U_c + W sum_{j != c} w_j U_j
	bad = bad || (pre && q.ival(Wo * wc) * (v2 - st) > q.ival(Wo * wc) * U(0) + q.ival(W) * others);
	q.s.add(bad);
}

// The re-pick lemma over the integers. Curr has just renewed its deadline at
// a tick (v_c >= d_old, d = v_c + vs_c); the others wait with
// 0 < d_j - v_j <= vs_j; some other entity has v_j <= v_c. The pick with
// protect: curr is no longer protected (vprot <= d_old <= v_c), so it is
// curr iff curr is eligible and its deadline is strictly before every
// eligible waiting entity's (the tree wins ties), or nothing else is
// eligible. Case k: equal weights, n = k + 2 entities (any common vslice);
// unequal: curr at nice k - 20 against two nice-0 entities, vs_c =
// r * 1024 / w_c (rounded down) for the common slice r.
int repick_case_nice(size_t k) { return static_cast<int>(k) + MIN_NICE; }

void build_repick_int(Query& q, unsigned m, size_t k, bool equal)
{
	const int n = equal ? static_cast<int>(k) + 2 : 3;
	const int nice_c = equal ? 0 : repick_case_nice(k);
	const std::string tag = equal ? "n" + std::to_string(n) + ":" : "nice" + std::to_string(nice_c) + ":";
	auto iv = [&](const std::string& x) { return q.show(tag + x, q.ivar(tag + x)); };
	q.show("nice_curr", q.ival(nice_c));
	std::vector<s64> w(static_cast<size_t>(n), 1024);
	w[0] = static_cast<s64>(nice_to_weight(nice_c));
	const expr r = iv("slice");
	std::vector<expr> v, d, vs;
	expr pre = r >= 1;
	for (int i = 0; i < n; i++) {
		const std::string x = std::to_string(i);
		v.push_back(iv("v" + x));
		d.push_back(iv("d" + x));
		vs.push_back(i == 0 && !equal ? iv("vslice_curr") : r);
	}
	if (!equal)  // calc_delta_fair(r) for curr's weight, up to the kernel's rounding of inv_weight
		pre = pre && vs[0] * q.ival(w[0]) <= r * 1024 && r * 1024 < (vs[0] + 1) * q.ival(w[0]);
	// curr's update_curr (an advance already in v_c) renewed its deadline
	const expr d_old = iv("d_curr_old");
	const rules::Step renewal = rules::update_curr_step(v[0], d_old, q.ival(0), vs[0], d_old);
	pre = pre && renewal.renew;
	d[0] = (m & MUT_DEADLINE_FROM_OLD) ? d_old + vs[0] : renewal.d;
	expr some_behind = q.c.bool_val(false);
	for (int j = 1; j < n; j++) {
		pre = pre && d[static_cast<size_t>(j)] - v[static_cast<size_t>(j)] > 0 &&
		      d[static_cast<size_t>(j)] - v[static_cast<size_t>(j)] <= vs[static_cast<size_t>(j)];
		some_behind = some_behind || v[static_cast<size_t>(j)] <= v[0];
	}
	std::vector<expr> wv;
	for (s64 x : w)
		wv.push_back(q.ival(x));
	const expr curr_wins = rules::curr_kept(rules::Queue{v, d, wv}, 0);
	q.s.add(pre && some_behind && curr_wins);
}

// O2 for runs, not only requests (seed 001: "runs are the slice rounded up
// to whole ticks"). n nice-0 hogs forked together at t = 0, ticks exactly on
// the grid (J = 0, phase 0), 6.18 defaults. Every v is V0 + a_i T; an entity
// that never ran has a = 0 and the initial deadline V0 + h, h = r / 2
// (PLACE_DEADLINE_INITIAL); every other waiting entity has d = v + r.
// Inv: a_i >= 0; never ran => a_i = 0; max a - min a <= k = ceil(r / T);
// while some entity never ran, every a_j <= k0 = ceil(h / T).
// A macro step: curr 0, picked as pick_spec allows, runs m ticks to its
// renewal (n = 2..8). Claims: m = k0 for a first run and m = k otherwise (so every run
// is a whole number of ticks, at most r + T - 1 ns); the following pick is
// not curr (the tree wins ties); Inv holds again. Case: (HZ, n).
std::vector<std::pair<u32, int>> whole_tick_cases()
{
	std::vector<std::pair<u32, int>> v;
	for (u32 hz : {100u, 250u, 300u, 1000u})
		for (int n = 2; n <= 8; n++)
			v.emplace_back(hz, n);
	return v;
}

void build_whole_ticks(Query& q, unsigned m, size_t k_case)
{
	const auto [hz, n] = whole_tick_cases().at(k_case);
	const expr T = q.ival(static_cast<s64>(tick_nsec(hz)));
	const std::string tag = "hz" + std::to_string(hz) + "_n" + std::to_string(n) + ":";
	auto iv = [&](const std::string& x) { return q.show(tag + x, q.ivar(tag + x)); };
	const expr r = iv("slice"), h = iv("h"), k = iv("k"), k0 = iv("k0"), mt = iv("ticks");
	// r in [0.1 ms, 100 ms]; h = r / 2 (udiv); k = ceil(r / T), k0 = ceil(h / T)
	expr base = r >= 100000 && r <= 100000000 && 2 * h <= r && r < 2 * h + 2 && (k - 1) * T < r && r <= k * T &&
		    (k0 - 1) * T < h && h <= k0 * T;
	std::vector<expr> a;
	std::vector<expr> ran;
	for (int i = 0; i < n; i++) {
		a.push_back(iv("a" + std::to_string(i)));
		ran.push_back(q.c.bool_const((tag + "ran" + std::to_string(i)).c_str()));
	}
	auto dl = [&](const std::vector<expr>& aa, const std::vector<expr>& rr, int i) {  // d - V0
		return z3::ite(rr[static_cast<size_t>(i)], aa[static_cast<size_t>(i)] * T + r, h);
	};
	// the queue in the frame of V0: keys a_i T, deadlines dl, equal weights
	const std::vector<expr> ones(static_cast<size_t>(n), q.ival(1));
	auto queue = [&](const std::vector<expr>& aa, const std::vector<expr>& rr) {
		rules::Queue Q{{}, {}, ones};
		for (int i = 0; i < n; i++) {
			Q.k.push_back(aa[static_cast<size_t>(i)] * T);
			Q.d.push_back(dl(aa, rr, i));
		}
		return Q;
	};
	auto inv = [&](const std::vector<expr>& aa, const std::vector<expr>& rr) {
		expr x = q.c.bool_val(true), some_new = q.c.bool_val(false), all_le_k0 = q.c.bool_val(true);
		for (int i = 0; i < n; i++) {
			const size_t ii = static_cast<size_t>(i);
			x = x && aa[ii] >= 0 && z3::implies(!rr[ii], aa[ii] == 0);
			for (int j = 0; j < n; j++)
				x = x && aa[ii] - aa[static_cast<size_t>(j)] <= k;
			some_new = some_new || !rr[ii];
			all_le_k0 = all_le_k0 && aa[ii] <= k0;
		}
		return x && z3::implies(some_new, all_le_k0);
	};
	auto spec = [&](const std::vector<expr>& aa, const std::vector<expr>& rr, int x) {
		return rules::spec_pick(queue(aa, rr), static_cast<size_t>(x));
	};
	// initial: all forked at V0, none ran; entity 0 is picked (FIFO among equal deadlines)
	std::vector<expr> a0(static_cast<size_t>(n), q.ival(0));
	std::vector<expr> r0(static_cast<size_t>(n), q.c.bool_val(false));
	expr bad = base && !(inv(a0, r0) && spec(a0, r0, 0));
	// the macro step from a pick of entity 0
	const expr pre = base && inv(a, ran) && spec(a, ran, 0) && mt >= 1;
	// the renewal is at the first tick whose update_curr renews (MUT_RENEW_STRICT: v > d)
	auto renews_by = [&](const expr& ticks) {
		return rules::update_curr_step(a[0] * T, dl(a, ran, 0), ticks * T, r, dl(a, ran, 0), (m & MUT_RENEW_STRICT) != 0).renew;
	};
	const expr renew_at = !renews_by(mt - 1) && renews_by(mt);
	std::vector<expr> a2 = a, ran2 = ran;
	a2[0] = a[0] + mt;
	ran2[0] = q.c.bool_val(true);
	// curr keeps the CPU only with a deadline strictly before every eligible waiting entity's
	const expr curr_wins = rules::curr_kept(queue(a2, ran2), 0);
	const expr exact = z3::ite(ran[0], mt == k, mt == k0);
	bad = bad || (pre && renew_at && !(exact && !curr_wins && inv(a2, ran2)));
	q.s.add(bad);
}

// Executable cross-check of hog_runs_whole_ticks: exact ticks, n hogs forked
// at t = 0; every run but the first of each task is ceil(r / T) ticks, the
// first ceil((r / 2) / T) (runs cut by the end of the simulation excluded).
bool crosscheck_whole_ticks(std::string& msg)
{
	struct Runs : Observer {
		std::vector<std::vector<u64>> runs;
		int cur = -1;
		u64 since = 0;
		void on_switch(const Simulation& s, u64 t, int prev, int next, bool, u64) override
		{
			runs.resize(s.tasks().size());
			if (prev >= 0)
				runs[static_cast<size_t>(prev)].push_back(t - since);
			cur = next;
			since = t;
		}
	};
	u64 sims = 0, checked = 0, bad = 0;
	for (u32 hz : {100u, 250u, 300u, 1000u})
		for (int n = 2; n <= 8; n++)
			for (u64 r : {100000ULL, 750000ULL, 1000000ULL, 2500000ULL, 3000000ULL, 4000000ULL, 10000000ULL, 33333333ULL, 100000000ULL}) {
				const Config cfg = config_for(hz, r);
				const u64 T = cfg.tick_ns;
				const u64 k = hog_run_ticks(r, T, false), k0 = hog_run_ticks(r, T, true);
				Simulation sim(cfg, hogs_workload(n, 3 * NSEC_PER_SEC));
				Runs o;
				sim.add_observer(&o);
				sim.run();
				sims++;
				for (const auto& rs : o.runs)
					for (size_t i = 0; i < rs.size(); i++) {
						checked++;
						bad += rs[i] != (i == 0 ? k0 : k) * T;
					}
			}
	msg = std::to_string(sims) + " simulations (HZ 100/250/300/1000, 2-8 hogs, r 0.1-100 ms, exact ticks): " +
	      std::to_string(checked) + " runs, " + std::to_string(bad) + " not ceil(r/T) ticks (first run: ceil(r/2/T))";
	return bad == 0 && checked > 0;
}

// The executable cross-checks of lag_weighted and run_weighted: hogs at
// mixed nice levels under WeightedWatch (model/proved_bounds.hpp), which
// holds every state to U_i and w_i (V - v_i) <= sum_{j != i} w_j U_j
// (V = avg_vruntime(), the kernel's floor) and every run to L_c, and
// records how close they came.
struct WeightedSims {
	u64 sims = 0, states = 0, runs = 0, longest_ns = 0;
	int longest_nice = 0;
	double ahead = 0, behind = 0, run = 0;
	std::string bad;
	std::string what() const
	{
		return std::to_string(sims) + " simulations (nice mixes of 2-4 hogs, HZ 1000/250, r 0.75/3 ms, jitter 0/30%)";
	}
};

WeightedSims weighted_sims()
{
	struct Longest : Observer {
		u64 since = 0, ns = 0;
		int task = -1;
		void on_switch(const Simulation&, u64 t, int prev, int, bool, u64) override
		{
			if (prev >= 0 && t - since > ns)
				ns = t - since, task = prev;
			since = t;
		}
	};
	WeightedSims r;
	const std::vector<std::vector<int>> mixes = {{0, -10}, {0, -10, 10}, {-20, 0, 19}, {-5, 0, 0, 5}, {-20, -20, 19, 19}, {0, 19}};
	for (const auto& mix : mixes)
		for (u32 hz : {1000u, 250u})
			for (u64 slice : {750000ULL, 3000000ULL})
				for (u64 jit_pct : {0ULL, 30ULL}) {
					Config cfg = config_for(hz, slice);
					cfg.knobs.tick_jitter = cfg.tick_ns * jit_pct / 100;
					Workload wl = hogs_workload(static_cast<int>(mix.size()), 2 * NSEC_PER_SEC);
					for (size_t i = 0; i < mix.size(); i++)
						wl.tasks[i].nice = mix[i];
					WeightedWatch o(cfg, mix);
					Longest l;
					Simulation sim(cfg, wl);
					sim.add_observer(&o);
					sim.add_observer(&l);
					sim.run();
					r.sims++;
					r.states += o.states;
					r.runs += o.runs;
					r.ahead = std::max(r.ahead, o.ahead);
					r.behind = std::max(r.behind, o.behind);
					r.run = std::max(r.run, o.run);
					if (r.bad.empty())
						r.bad = o.bad;
					if (l.ns > r.longest_ns)
						r.longest_ns = l.ns, r.longest_nice = mix[static_cast<size_t>(l.task)];
				}
	return r;
}

bool crosscheck_lag_weighted(std::string& msg)
{
	const WeightedSims r = weighted_sims();
	char buf[160];
	std::snprintf(buf, sizeof buf, ", %llu states: largest v - V = %.2f U_i, largest w_i (V - v_i) = %.2f of its bound",
		      static_cast<unsigned long long>(r.states), r.ahead, r.behind);
	msg = r.what() + buf + (r.bad.empty() ? "" : "; " + r.bad);
	return r.bad.empty();
}

bool crosscheck_run_weighted(std::string& msg)
{
	const WeightedSims r = weighted_sims();
	char buf[160];
	std::snprintf(buf, sizeof buf, ", %llu runs: largest = %.2f of its bound; longest run %.3f ms (nice %d)",
		      static_cast<unsigned long long>(r.runs), r.run, static_cast<double>(r.longest_ns) / 1e6, r.longest_nice);
	msg = r.what() + buf + (r.bad.empty() ? "" : "; " + r.bad);
	return r.bad.empty();
}

}  // namespace eevdf::proofs
