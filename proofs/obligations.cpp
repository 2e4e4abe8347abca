// SPDX-License-Identifier: GPL-2.0-only
// The proof obligations of issue 4: the list `eevdf-prove --list` prints and
// docs/proofs.md's statements table shows, in that order. Each family is in
// its own file (run_, pick_, walk_, wakeup_, nohz_, lag_ and lb_obligations.cpp);
// prove.cpp runs them.
//
// Each obligation asserts Pre ∧ ¬Claim over the symbolic encoding: unsat is
// PROVED, sat is REFUTED (the model is the counterexample), anything else
// UNKNOWN. Refutations come with a workload (rt-app JSON) and a Config that
// the simulator replays to show the violation.
#include <utility>
#include <vector>

#include "proofs/obligation.hpp"
#include "proofs/prove.hpp"

namespace eevdf::proofs {

std::vector<Obligation> make_obligations()
{
	std::vector<Obligation> v;
	for (auto* family : {run_obligations, pick_obligations_bv, wakeup_obligations, nohz_obligations,
			     pick_obligations, walk_obligations, lag_obligations})
		for (Obligation& o : family())
			v.push_back(std::move(o));
	// Measured on this 2-core machine (z3 4.8.12, cvc5 1.0.3), two solver
	// runs at a time; the files without a note re-check in both within 5 s.
	const std::pair<const char*, const char*> recheck_notes[] = {
		{"nohz_enqueue_bound", "cvc5 needs 26 s (unsat); z3 re-checks it in under 2 s"},
		{"nohz_enqueue_init_shrink", "cvc5 needs 11 s (unsat); z3 5 s"},
		{"eligible_exists_int", "cvc5 needs 9.7-10.5 s for the six nonlinear cases (unsat); z3 with the exported tactic 0.2 s"},
		{"pick_spec", "cvc5 needs 6.7-8.4 s (unsat), z3 5 s: at the limit on a loaded machine"},
		{"extra_tick_nice", "z3 needs 7.3-8.4 s (sat), cvc5 4.6 s: at the limit on a loaded machine"},
		{"wakeup_wait_bound", "cvc5 needs about 6 s (unsat), z3 under 2 s: near the limit on a loaded machine"},
		{"repick_equal_weights", "UNKNOWN in-process within 60 s (--rlimit 0 --timeout 60), PROVED in about 70 s with --timeout 300; "
					 "superseded by repick_equal_weights_int"},
		{"repick_unequal_weights", "UNKNOWN in-process within 60 s; refuted by repick_unequal_weights_int"},
		{"eligible_exists", "UNKNOWN in-process within 60 s over bit-vectors; superseded by eligible_exists_int"},
		{"lag_sum_rounding", "UNKNOWN in-process within 60 s over bit-vectors; superseded by lag_sum_rounding_int"},
		{"wakeup_waker_picked_bv", "about 6 s in-process, cvc5 about 45 s"},
	};
	for (Obligation& o : v)
		for (const auto& [name, note] : recheck_notes)
			if (o.name == name)
				o.recheck_note = note;
	// Products of symbolic keys defeat bit-blasting: these take 30 s to
	// minutes (repick_equal_weights: PROVED in ~36 s) or time out, so they
	// run only when named.
	for (Obligation& o : v)
		if (o.name == "repick_equal_weights" || o.name == "repick_unequal_weights" ||
		    o.name == "eligible_exists" || o.name == "lag_sum_rounding")
			o.experimental = true;
	for (Obligation& o : balance_obligations())
		v.push_back(std::move(o));
	return v;
}

std::vector<ObligationInfo> obligation_infos()
{
	std::vector<ObligationInfo> r;
	for (const Obligation& o : make_obligations())
		if (!o.experimental)
			r.push_back({o.name, o.expect_proved, o.breaker});
	return r;
}

}  // namespace eevdf::proofs
