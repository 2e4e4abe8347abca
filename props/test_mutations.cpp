// SPDX-License-Identifier: GPL-2.0-only
// Each property must catch a deliberately broken model: the properties are
// run with a historical bug or a mutation switched in (model/bugs.hpp) and
// must fail. docs/findings.md lists which mutation each property catches.
// The determinism property has no mutation: the model has no source of
// nondeterminism to switch in.
#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include "props/properties.hpp"

using namespace eevdf;
using namespace eevdf::props;

namespace {

// True when RapidCheck finds a counterexample to `t` (output suppressed).
bool catches(const Testable& t)
{
	const auto result = rc::detail::checkTestable(t);
	return !result.template is<rc::detail::SuccessResult>();
}

Bugs bug(Bug b) { return Bugs{}.set(b); }

}  // namespace

TEST_CASE("the checker property catches a truncating avg_vruntime", "[mutations]") { CHECK(catches(checker_holds(bug(Bug::AVG_VRUNTIME_TRUNC)))); }
TEST_CASE("the checker property catches a pick that takes the first eligible entity", "[mutations]") { CHECK(catches(checker_holds(bug(Bug::PICK_FIRST_ELIGIBLE)))); }
TEST_CASE("the checker property catches a stale augmented tree", "[mutations]") { CHECK(catches(checker_holds(bug(Bug::STALE_AUGMENT)))); }
TEST_CASE("the checker property catches placement without lag inflation", "[mutations]") { CHECK(catches(checker_holds(bug(Bug::NO_LAG_INFLATION)))); }
TEST_CASE("the checker property catches a missing lag clamp", "[mutations]") { CHECK(catches(checker_holds(bug(Bug::NO_LAG_CLAMP)))); }
TEST_CASE("the checker property catches DELAY_ZERO keeping positive lag", "[mutations]") { CHECK(catches(checker_holds(bug(Bug::DELAY_ZERO_KEEPS_LAG)))); }
TEST_CASE("the checker property catches a nice change that does not rescale the lag", "[mutations]") { CHECK(catches(checker_holds(bug(Bug::REWEIGHT_NO_RESCALE)))); }
TEST_CASE("the checker property catches eligibility off by one", "[mutations]") { CHECK(catches(checker_holds(bug(Bug::ELIGIBLE_STRICT)))); }
TEST_CASE("the checker property catches a deadline renewed from the old deadline", "[mutations]") { CHECK(catches(checker_holds(bug(Bug::DEADLINE_FROM_OLD)))); }
TEST_CASE("the run-length property catches a renewal that does not reschedule", "[mutations]") { CHECK(catches(run_length_bound(bug(Bug::NO_RESCHED_ON_RENEWAL)))); }
TEST_CASE("the max-form run-length property catches a renewal that does not reschedule", "[mutations]") { CHECK(catches(run_length_max_form(bug(Bug::NO_RESCHED_ON_RENEWAL)))); }
TEST_CASE("the jitter run-length property catches a renewal that does not reschedule", "[mutations]") { CHECK(catches(run_length_with_jitter(bug(Bug::NO_RESCHED_ON_RENEWAL)))); }
TEST_CASE("the slice-below-tick property catches a deadline renewed from the old deadline", "[mutations]") { CHECK(catches(slice_below_tick_is_irrelevant(bug(Bug::DEADLINE_FROM_OLD)))); }
TEST_CASE("the lag-bound property catches a renewal that does not reschedule", "[mutations]") { CHECK(catches(lag_bound_hogs(bug(Bug::NO_RESCHED_ON_RENEWAL)))); }
TEST_CASE("the fairness property catches a renewal that does not reschedule", "[mutations]") { CHECK(catches(fairness_window(bug(Bug::NO_RESCHED_ON_RENEWAL)))); }
TEST_CASE("the weighted-bounds property catches a renewal that does not reschedule", "[mutations]") { CHECK(catches(weighted_hog_bounds(bug(Bug::NO_RESCHED_ON_RENEWAL)))); }
TEST_CASE("the relabelling property catches eligibility off by one (through its invariant check)", "[mutations]") { CHECK(catches(relabel_tasks(bug(Bug::ELIGIBLE_STRICT)))); }
TEST_CASE("the vruntime-shift property catches a truncating avg_vruntime (through its invariant check)", "[mutations]") { CHECK(catches(vruntime_shift(bug(Bug::AVG_VRUNTIME_TRUNC)))); }
TEST_CASE("the time-scaling property catches a deadline renewed from the old deadline", "[mutations]") { CHECK(catches(time_scaling(bug(Bug::DEADLINE_FROM_OLD)))); }
TEST_CASE("the pick property catches a pick that takes the first eligible entity", "[mutations]") { CHECK(catches(pick_matches_oracle(bug(Bug::PICK_FIRST_ELIGIBLE)))); }
TEST_CASE("the pick property catches a stale augmented tree", "[mutations]") { CHECK(catches(pick_matches_oracle(bug(Bug::STALE_AUGMENT)))); }
