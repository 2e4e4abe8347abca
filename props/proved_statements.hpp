// SPDX-License-Identifier: GPL-2.0-only
// The proved statements (docs/proofs.md) fed to the model itself, as
// testables parameterised by the bugs switched into the model: the property
// suite runs each with none (test_proved_statements.cpp), test_mutations.cpp
// shows each failing on a broken model, and the bug zoo's proofs column
// runs each with every bug (fuzz/bugzoo.cpp). Each draws states or
// workloads that meet the statement's premises, and tags those that do not
// (they are generated to show where a premise matters, and pass).
//
// The decision statements build the queue directly as a CfsRq
// (model/cfs_rq_state.hpp), with keys far outside what a schedule reaches;
// the request statements simulate, under the invariant checker, so a bug
// can also fail them through an invariant.
#pragma once

#include <vector>

#include "model/bugs.hpp"
#include "model/cfs_rq_state.hpp"
#include "props/properties.hpp"

namespace eevdf::props::proved {

// pick_spec (and eligible_exists_int): without key * weight overflow the
// pick is an eligible entity with the earliest eligible deadline, for both
// protect values; 1-8 entities at any nice level on the deadline-keyed
// presets (proved for 2-3 at nice 0).
Testable pick_spec(Bugs bugs = {});
// eligible_exists_int and lag_sum_rounding_int: some queued entity is
// eligible, and Σ w_i (V - v_i) with V floored lies in (-W, 0].
Testable eligible_exists_and_lag_sum(Bugs bugs = {});
// wakeup_short_preempts (6.18 defaults): a waker with a shorter slice that
// meets Cond preempts and is the next pick, and only such a waker is picked.
Testable wakeup_short_preempts(Bugs bugs = {});
// repick_equal_weights_int: a curr just renewed at a tick, among equal
// weights with another entity not ahead of it, is not re-picked.
Testable repick_equal_weights(Bugs bugs = {});
// wakeup_waker_picked: an eligible waker with the earliest deadline is the
// pick of the next resched, by the wake-up or a later tick.
Testable wakeup_waker_picked(Bugs bugs = {});
// run_length, wakeup_wait_bound, nohz_enqueue_bound and no_extra_tick_2p8ms
// on simulated requests of one CPU: every request ends within
// r + TICK_NSEC + J - 1, and at HZ=1000 with r <= 2.8 ms one picked on a
// tick ends by its 3rd tick.
Testable request_bounds(Bugs bugs = {});
// hog_runs_whole_ticks: nice-0 hogs forked together on exact ticks run
// exactly ceil(r / TICK) ticks, the first ceil((r / 2) / TICK).
Testable hog_runs_whole_ticks(Bugs bugs = {});
// run_length on the CPU that IPIs land on (several CPUs, issue 14): remote
// wake-ups do not lengthen its requests.
Testable smp_request_bounds(Bugs bugs = {});

// How a request statement's failure reads when the invariant checker, not
// the statement's conclusion, caught the run.
inline constexpr const char* INVARIANT_FAILURE = "invariant check: ";

// The decision statements' no-overflow precondition: every |k_i| * W <
// 2^63, so Σ k_i w_i cannot wrap and eligibility is the exact test.
bool no_overflow(const CfsRq& rq, const std::vector<const SchedEntity*>& q);
// The entities queued on a built cfs_rq: the tree's, and curr if on_rq.
std::vector<const SchedEntity*> queued(const CfsRqState& st);

}  // namespace eevdf::props::proved
