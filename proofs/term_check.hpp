// SPDX-License-Identifier: GPL-2.0-only
// The integer obligations' own Z3 terms (proofs/int_rules.hpp) held to the
// model: each rule is built on numerals taken from a CfsRq, simplified by
// Z3 and compared with what the CfsRq decides on the same state.
//
//   compare_queue_rules   on any queue: every entity's eligibility, the
//                         pick with and without protection, and which
//                         re-pick keeps curr;
//   compare_step_rule     across one update_curr of curr: the advance, the
//                         renewal and the resched request;
//   check_terms           random workloads run through eevdf::Simulation,
//                         every state and every tick compared.
//
// A state whose key * weight products overflow s64 is outside the rules'
// precondition (the kernel's s64 test then differs from the integer one): it
// is counted and skipped, never compared.
#pragma once

#include <ostream>
#include <string>

#include <z3++.h>

#include "model/fair.hpp"

namespace eevdf::proofs {

struct RuleTally {
	u64 states = 0, comparisons = 0, mismatches = 0, overflow = 0;
	unsigned max_report = 5;
	std::ostream* out = nullptr;
	// One comparison; a mismatch is reported (up to max_report) with `state`.
	void expect(bool ok, const char* rule, const std::string& detail, const std::string& state);
};

// unsigned mutation: a proofs::Mutation applied to the rules (eligible-strict,
// avg-trunc, renew-protect): the check must then find mismatches.
void compare_queue_rules(z3::context& c, const CfsRq& rq, unsigned mutation, RuleTally& t);

// curr as it was before an update_curr (in the frame of v0 = `ref`).
struct CurrBefore {
	const SchedEntity* se = nullptr;
	u64 ref = 0, v = 0, d = 0, vprot = 0, sum_exec = 0;
	u64 nr_queued = 0;
	bool need_resched = false;
	static CurrBefore of(const CfsRq& rq);
};
void compare_step_rule(z3::context& c, const CurrBefore& before, const CfsRq& after, unsigned mutation, RuleTally& t);

struct TermCheckStats {
	u64 sims = 0, states = 0, steps = 0, comparisons = 0, mismatches = 0, overflow = 0;
	double seconds = 0;
};
TermCheckStats check_terms(u64 sims, u64 seed, std::ostream& out, unsigned max_report = 5, unsigned mutation = 0);

}  // namespace eevdf::proofs
