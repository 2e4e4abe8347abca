// SPDX-License-Identifier: GPL-2.0-only
// The fair class's decisions over exact integers, as Z3 terms: the rules
// every integer-level obligation (proofs/invariants.cpp) is built from, and
// the very terms proofs/term_check.cpp evaluates on states of the model's
// simulations. One definition, so a proof cannot assume a rule the model
// does not follow without the term check failing.
//
// A queue is n entities with keys k_i = v_i - v0 for any common origin v0,
// deadlines d_i in the same frame, and weights w_i >= 1: the weights of the
// avg_vruntime sums (scale_load_down(w) up to 6.18, the full weight on 7.x).
// Over the integers, with A = sum_i k_i w_i and W = sum_i w_i:
//
//   vruntime_eligible(v_x):  A >= k_x W
//
// which is the kernel's test exactly as long as nothing overflows s64
// (|k_i| W < 2^63 for every i, and A as well: O6 in docs/proofs.md); it is
// invariant under a shift of the origin, so the rules may use any frame.
#pragma once

#include <vector>

#include <z3++.h>

namespace eevdf::proofs::rules {

using z3::expr;

struct Queue {
	std::vector<expr> k, d, w;  // entity i: key, deadline, weight
	size_t size() const { return k.size(); }
};

// avg_vruntime()'s sum and load: A = sum_i k_i w_i, W = sum_i w_i.
expr key_sum(const Queue& q);
expr weight_sum(const Queue& q);

// vruntime_eligible() for a key kx: A >= kx W (`strict`: the mutation A > kx W,
// MUT_ELIGIBLE_STRICT).
expr eligible_key(const Queue& q, const expr& kx, bool strict = false);
inline expr eligible(const Queue& q, size_t x, bool strict = false) { return eligible_key(q, q.k[x], strict); }

// __pick_eevdf() as pick_spec states it: x is eligible and its deadline is
// <= every eligible entity's.
expr spec_pick(const Queue& q, size_t x);

// The pick with curr c in the queue and protection over (a re-pick at a
// renewal): curr is kept only if it is eligible and its deadline is strictly
// before every other eligible entity's (the tree wins ties: __pick_eevdf
// returns the tree's best unless entity_before(curr, best)).
expr curr_kept(const Queue& q, size_t c);

// protect_slice() for an eligible curr (6.17+): v_c < vprot, in key terms.
expr protected_curr(const Queue& q, size_t c, const expr& vprot_key);

// update_curr() of curr (v, d) over an advance a = calc_delta_fair(delta)
// >= 0, with nr_queued >= 2: v' = v + a; update_deadline() renews iff
// v' >= d, to d' = v' + vslice; the resched is requested on a renewal or
// when protection is over, v' >= vprot (the 6.17+ rule). `strict`: the
// mutation that renews only at v' > d (MUT_RENEW_STRICT).
struct Step {
	expr v, d, renew, resched;
};
Step update_curr_step(const expr& v, const expr& d, const expr& a, const expr& vslice, const expr& vprot,
		      bool strict = false);

// avg_vruntime()'s floor: V - v0 = q with (A < 0 ? A - (W - 1) : A) = q W + rem
// under C's truncating division (rem has the sign of the dividend). The
// term constrains q and rem; `truncating` is the mutation that drops the
// adjustment (MUT_AVG_TRUNC).
expr avg_floor(const expr& A, const expr& W, const expr& q, const expr& rem, bool truncating = false);

}  // namespace eevdf::proofs::rules
