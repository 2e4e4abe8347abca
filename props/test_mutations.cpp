// SPDX-License-Identifier: GPL-2.0-only
// Each property must catch a deliberately broken model: the properties are
// run with a historical bug or a mutation switched in (model/bugs.hpp) and
// must fail. docs/findings.md lists which mutation each property catches.
// The determinism property has no mutation: the model has no source of
// nondeterminism to switch in.
#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include "oracle/decision_oracle.hpp"
#include "props/gen.hpp"
#include "props/goldens.hpp"
#include "props/harness.hpp"
#include "props/properties.hpp"
#include "props/proved_statements.hpp"

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

// ---------------------------------------------------------------- the decision-rule blind spots (issue 12)

TEST_CASE("the protection golden schedule catches protection to the deadline with mixed slices", "[mutations]")
{
	REQUIRE(protection_golden_holds(Bugs{}));
	CHECK_FALSE(protection_golden_holds(bug(Bug::PROTECT_FULL_SLICE)));
}
TEST_CASE("the decision oracle catches an ineligible waker cancelling protection", "[mutations]") { CHECK(catches(decision_oracle_agrees(bug(Bug::PREEMPT_INELIGIBLE)))); }
TEST_CASE("the decision oracle catches DELAY_ZERO keeping a requeued task's vruntime and deadline", "[mutations]") { CHECK(catches(decision_oracle_agrees(bug(Bug::DELAY_ZERO_REQUEUE_KEEPS)))); }
TEST_CASE("the decision oracle catches a forfeiting yield that keeps its deadline", "[mutations]") { CHECK(catches(decision_oracle_agrees(bug(Bug::YIELD_KEEPS_DEADLINE)))); }
TEST_CASE("the decision oracle catches an hrtick armed a whole slice after a wake-up", "[mutations]") { CHECK(catches(decision_oracle_agrees(bug(Bug::HRTICK_FROM_PICK_TIME)))); }
TEST_CASE("the slice-cap golden schedule catches a base slice scaled beyond 8 CPUs", "[mutations]")
{
	REQUIRE(slice_cap_golden_holds(Bugs{}));
	CHECK_FALSE(slice_cap_golden_holds(bug(Bug::SLICE_SCALE_UNCAPPED)));
}

TEST_CASE("the SMP checker property catches a migration that drops the saved lag", "[mutations][smp]")
{
	CHECK(catches(smp_checker_holds(bug(Bug::MIGRATE_DROPS_LAG))));
}

TEST_CASE("the per-CPU run-length property catches a renewal that does not reschedule", "[mutations][smp]")
{
	CHECK(catches(smp_hog_run_bound(bug(Bug::NO_RESCHED_ON_RENEWAL))));
}

TEST_CASE("the wake-up placement property catches a wake_affine_idle() that skips an idle prev", "[mutations][smp]")
{
	CHECK(catches(smp_wakeup_placement(bug(Bug::WA_IDLE_SKIPS_PREV))));
}

TEST_CASE("the newidle property catches a balancer that moves delayed tasks (61b82dfb6b7e undone)", "[mutations][smp]")
{
	CHECK(catches(smp_newidle_pulls(bug(Bug::MIGRATE_DELAYED))));
}

TEST_CASE("the per-CPU vruntime property catches a migration that keeps absolute vruntime", "[mutations][smp]")
{
	CHECK(catches(smp_vruntime_per_cpu(bug(Bug::MIGRATE_KEEPS_VRUNTIME))));
}

TEST_CASE("the CPU-relabelling property catches eligibility off by one (through its invariant check)", "[mutations][smp]")
{
	CHECK(catches(smp_relabel_pinned(bug(Bug::ELIGIBLE_STRICT))));
}

TEST_CASE("the idle-while-work property catches eligibility off by one (through its invariant check)", "[mutations][smp]")
{
	CHECK(catches(smp_idle_while_work(bug(Bug::ELIGIBLE_STRICT))));
}

TEST_CASE("the idle-while-work property catches a nohz kick that never asks for a balance", "[mutations][smp]")
{
	CHECK(catches(smp_idle_while_work(bug(Bug::NOHZ_KICK_STATS_ONLY))));
}

TEST_CASE("the newidle cost golden catches the 6.17 bump of a failed pass's cost (d206fbad9328 undone)", "[mutations][smp]")
{
	REQUIRE(newidle_cost_golden_holds(Bugs{}));
	CHECK_FALSE(newidle_cost_golden_holds(bug(Bug::NEWIDLE_BUMP)));
}

// The proved statements fed to the model (props/proved_statements.hpp). The
// decision statements catch bugs on their own conclusions; the request
// statements' simulations are stopped by the invariant checker first (the
// bug zoo's proofs column says which). The two wake-up statements are
// broken by a waker that preempts without cancelling curr's protection;
// repick_equal_weights by no bug of the zoo (3,000 cases against eleven).
TEST_CASE("the proved pick_spec catches a pick that takes the first eligible entity", "[mutations]")
{
	CHECK(catches(proved::pick_spec(bug(Bug::PICK_FIRST_ELIGIBLE))));
}

TEST_CASE("the proved eligible_exists and lag_sum statements catch a truncating avg_vruntime", "[mutations]")
{
	CHECK(catches(proved::eligible_exists_and_lag_sum(bug(Bug::AVG_VRUNTIME_TRUNC))));
}

TEST_CASE("the proved request bounds catch a deadline renewed from the old deadline (through the invariant check)", "[mutations]")
{
	CHECK(catches(proved::request_bounds(bug(Bug::DEADLINE_FROM_OLD))));
}

TEST_CASE("the proved whole-tick runs catch a stale augmented tree (through the invariant check)", "[mutations]")
{
	CHECK(catches(proved::hog_runs_whole_ticks(bug(Bug::STALE_AUGMENT))));
}

TEST_CASE("the proved request bounds on several CPUs catch placement without lag inflation (through the invariant check)", "[mutations][smp]")
{
	CHECK(catches(proved::smp_request_bounds(bug(Bug::NO_LAG_INFLATION))));
}

TEST_CASE("the proved wakeup_short_preempts catches a preemption that keeps curr's protection", "[mutations]")
{
	CHECK(catches(proved::wakeup_short_preempts(bug(Bug::PREEMPT_SHORT_KEEPS_PROTECTION))));
}

TEST_CASE("the proved wakeup_waker_picked catches a preemption that keeps curr's protection", "[mutations]")
{
	CHECK(catches(proved::wakeup_waker_picked(bug(Bug::PREEMPT_SHORT_KEEPS_PROTECTION))));
}
