// SPDX-License-Identifier: GPL-2.0-only
// Obligation 5 and the weighted run bound (docs/proofs.md: "Obligations 5-8:
// what exactly is proved", O5, O5 for unequal weights, O1 for unequal
// weights): the lag of equal-weight hogs (lag_invariant), of hogs at mixed
// nice levels (lag_weighted), and the bound on a whole run, re-picks
// included, that follows from the latter (run_weighted). Their queries and
// cross-checks are in invariants.cpp; model/proved_bounds.hpp holds the
// bounds they prove as the other layers compute them.
#include <vector>

#include "proofs/encoding.hpp"
#include "proofs/invariants.hpp"
#include "proofs/obligation.hpp"

namespace eevdf::proofs {

std::vector<Obligation> lag_obligations()
{
	std::vector<Obligation> v;

	// ---------------------------------------------------------------- 5
	v.push_back({"lag_invariant", "5",
		     "n = 3, 4 nice-0 hogs, r >= 1, TICK >= 1, 0 <= J < TICK: Inv = (d_i - v_i <= r; v_i < d_i; "
		     "v_i - v_j <= r + TICK + J - 1; d_curr <= min_{j != curr} v_j + r) holds initially, is preserved by an "
		     "accounting point <= TICK + J later and by any pick satisfying pick_spec, and implies "
		     "|V - v_i| <= r + TICK + J - 1 (QF_LIA)",
		     true, MUT_NO_RESCHED_RENEWAL, [](Query& q, unsigned m) { build_lag_invariant(q, m); }, nullptr});
	v.push_back({"lag_weighted", "5",
		     "n = 2..4 hogs, weights of nice -20/-10/0/10/19 in every assignment (n = 4 without -10), virtual request vs_i >= 1 and step A_i >= 1 (cdf_i(r), "
		     "cdf_i(TICK + J)): Inv (0 < d_i - v_i <= vs_i; v_i - V <= U_i = vs_i + A_i - 1 for waiting i; curr's v "
		     "at its pick <= V) holds initially, is preserved by a step and by any eligible pick after a renewal, "
		     "and implies -U_i <= V - v_i <= sum_{j != i} w_j U_j / w_i (QF_LIA)",
		     true, MUT_NO_RESCHED_RENEWAL, nullptr, nullptr});
	v.push_back({"run_weighted", "1",
		     "unequal weights, the same 2..4 hogs: one run (switch to switch, re-picks included) advances curr's "
		     "v by at most U_c + W sum_{j != c} w_j U_j / (W_o w_c), W_o = W - w_c (QF_LIA, from lag_weighted's "
		     "bound at the run's first pick; in real time that is roughly, not provably, (r + TICK + J)(1 + (n-1) "
		     "W / W_o))",
		     true, MUT_NO_RESCHED_RENEWAL, nullptr, nullptr});
	for (Obligation& o : v) {
		if (o.name == "lag_invariant")
			o.logic = "QF_LIA";
		if (o.name == "lag_weighted") {
			o.logic = "QF_LIA";
			o.cases = lag_weighted_nices().size();
			o.build_case = build_lag_weighted;
			o.crosscheck = crosscheck_lag_weighted;
		}
		if (o.name == "run_weighted") {
			o.logic = "QF_LIA";
			o.cases = lag_weighted_nices().size();
			o.build_case = build_run_weighted;
			o.crosscheck = crosscheck_run_weighted;
		}
	}
	return v;
}

}  // namespace eevdf::proofs
