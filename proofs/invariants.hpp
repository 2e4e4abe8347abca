// SPDX-License-Identifier: GPL-2.0-only
// The integer-level obligations: each builder adds Pre ∧ ¬Claim to q.s
// (docs/proofs.md states the theorems). Builders with a case index are split
// into one query per case; the cross-checks run the same scenarios in the
// simulator and say what they saw.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "proofs/query.hpp"

namespace eevdf::proofs {

// O7: a waker eligible with the earliest deadline is the next resched's pick.
void build_waker_picked_int(Query& q, unsigned mutation);

// O6: some entity is eligible; the floored V keeps sum w (V - v) in (-W, 0].
void build_eligible_int(Query& q, unsigned mutation);
void build_lag_sum_int(Query& q, unsigned mutation);

// O5: |V - v| <= r + T + J - 1 for 3-4 nice-0 hogs.
void build_lag_invariant(Query& q, unsigned mutation);

// O5 and O1 for unequal weights; case k is lag_weighted_nices()[k] (curr first).
std::vector<std::vector<int>> lag_weighted_nices();
void build_lag_weighted(Query& q, unsigned mutation, size_t k);
void build_run_weighted(Query& q, unsigned mutation, size_t k);
bool crosscheck_lag_weighted(std::string& msg);
bool crosscheck_run_weighted(std::string& msg);

// O1: after a renewal, curr is not re-picked while another entity is not
// ahead (equal weights: case k is n = k + 2; unequal: curr at nice k - 20).
void build_repick_int(Query& q, unsigned mutation, size_t k, bool equal);

// O1 for whole runs of equal-weight hogs, re-picks included (whole_runs.cpp);
// case k is n = k + 2.
size_t run_whole_cases();
void build_run_whole(Query& q, unsigned mutation, size_t k);
bool crosscheck_run_whole(std::string& msg);

// O2 for whole runs with exact ticks; case k is whole_tick_cases()[k] = (HZ, n).
std::vector<std::pair<u32, int>> whole_tick_cases();
void build_whole_ticks(Query& q, unsigned mutation, size_t k);
bool crosscheck_whole_ticks(std::string& msg);

}  // namespace eevdf::proofs
