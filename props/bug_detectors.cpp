// SPDX-License-Identifier: GPL-2.0-only
#include "props/bug_detectors.hpp"

#include "props/goldens.hpp"
#include "props/proved_statements.hpp"
#include "props/workload_dsl.hpp"

namespace eevdf::props {
namespace {

using namespace eevdf::test;
using K = DetectorKind;

constexpr std::string_view BROKEN_MODEL[] = {
	"a truncating avg_vruntime",  // AVG_VRUNTIME_TRUNC
	"a pick that takes the first eligible entity",  // PICK_FIRST_ELIGIBLE
	"a stale augmented tree",  // STALE_AUGMENT
	"placement without lag inflation",  // NO_LAG_INFLATION
	"a missing lag clamp",  // NO_LAG_CLAMP
	"DELAY_ZERO keeping positive lag",  // DELAY_ZERO_KEEPS_LAG
	"a nice change that does not rescale the lag",  // REWEIGHT_NO_RESCALE
	"the 0.75 ms base slice that often needs a 4th tick",  // EXTRA_TICK_SLICE
	"eligibility off by one",  // ELIGIBLE_STRICT
	"a deadline renewed from the old deadline",  // DEADLINE_FROM_OLD
	"a renewal that does not reschedule",  // NO_RESCHED_ON_RENEWAL
	"protection to the deadline with mixed slices",  // PROTECT_FULL_SLICE
	"an ineligible waker cancelling protection",  // PREEMPT_INELIGIBLE
	"DELAY_ZERO keeping a requeued task's vruntime and deadline",  // DELAY_ZERO_REQUEUE_KEEPS
	"a forfeiting yield that keeps its deadline",  // YIELD_KEEPS_DEADLINE
	"an hrtick armed a whole slice after a wake-up",  // HRTICK_FROM_PICK_TIME
	"a base slice scaled beyond 8 CPUs",  // SLICE_SCALE_UNCAPPED
	"a migration that drops the saved lag",  // MIGRATE_DROPS_LAG
	"a balancer that moves delayed tasks (61b82dfb6b7e undone)",  // MIGRATE_DELAYED
	"a wake_affine_idle() that skips an idle prev",  // WA_IDLE_SKIPS_PREV
	"a migration that keeps absolute vruntime",  // MIGRATE_KEEPS_VRUNTIME
	"the 6.17 bump of a failed pass's cost (d206fbad9328 undone)",  // NEWIDLE_BUMP
	"a nohz kick that never asks for a balance",  // NOHZ_KICK_STATS_ONLY
	"a preemption that keeps curr's protection",  // PREEMPT_SHORT_KEEPS_PROTECTION
	"a 7.x group reweight that re-places the entity (101f3498b4bd undone)",  // REWEIGHT_PLACE_ENTITY
	"group entities that keep the base slice (aef6987d8954 undone)",  // GROUP_SLICE_BASE
	"a group slice not propagated up the tree (563bc2161b94 undone)",  // GROUP_SLICE_STALE_TREE
	"a U64_MAX group slice from an emptied cfs_rq (bbce3de72be5 undone)",  // GROUP_SLICE_U64_MAX
};
static_assert(std::size(BROKEN_MODEL) == static_cast<size_t>(Bug::COUNT), "one phrase per bug");

// ---- the decision oracle's workloads

Workload three_hogs() { return hogs_workload(3, 50 * MS); }

Workload hogs_and_sleepers()
{
	return workload({task("hog0", {run(RUN_FOREVER)}), niced(task("hog1", {run(RUN_FOREVER)}), 3),
			 delayed(niced(task("sleeper", {run(700 * US), sleep(2300 * US)}), -4), 1 * MS),
			 delayed(niced(task("short", {run(300 * US), sleep(900 * US)}), 7), 2500 * US),
			 delayed(task("niced", {run(1500 * US), set_nice(5), run(900 * US), set_nice(-3), run(200 * US),
						sleep(1700 * US)}),
				 4 * MS)},
			300 * MS);
}

// A hog and a task that runs 50 us every 300 us without wakeup preemption
// at HZ=100: it waits for the tick, gains lag and keeps it across its sleeps
// until the clamp binds (docs/findings.md F3).
Workload ratchet()
{
	return workload({task("hog", {run(RUN_FOREVER)}), task("short", {run(50 * US), sleep(300 * US)})}, 200 * MS);
}

// Caught by the invariant checker inside the detector (Expectation).
Expectation through_checker(Bug b) { return {b, true}; }

// The determinism property has no row: the model has no source of
// nondeterminism to switch in.
std::vector<Detector> make_table()
{
	using B = Bug;
	return {
		// ---- the properties (properties.hpp), with RapidCheck
		{.kind = K::Property,
		 .name = "checker_holds",
		 .subject = "the checker property catches",
		 .catches = {{B::AVG_VRUNTIME_TRUNC},
			     {B::PICK_FIRST_ELIGIBLE},
			     {B::STALE_AUGMENT},
			     {B::NO_LAG_INFLATION},
			     {B::NO_LAG_CLAMP},
			     {B::DELAY_ZERO_KEEPS_LAG},
			     {B::REWEIGHT_NO_RESCALE},
			     {B::ELIGIBLE_STRICT},
			     {B::DEADLINE_FROM_OLD}},
		 .testable = checker_holds},
		{.kind = K::Property,
		 .name = "groups_checker_holds",
		 .subject = "the group checker property catches",
		 .catches = {{B::REWEIGHT_PLACE_ENTITY}, {B::GROUP_SLICE_BASE}, {B::GROUP_SLICE_STALE_TREE},
			     {B::GROUP_SLICE_U64_MAX}},
		 .testable = groups_checker_holds},
		{.kind = K::Property,
		 .name = "run_length_bound",
		 .subject = "the run-length property catches",
		 .catches = {{B::NO_RESCHED_ON_RENEWAL}},
		 .testable = run_length_bound},
		{.kind = K::Property,
		 .name = "run_length_max_form",
		 .subject = "the max-form run-length property catches",
		 .catches = {{B::NO_RESCHED_ON_RENEWAL}},
		 .testable = run_length_max_form},
		{.kind = K::Property,
		 .name = "run_length_with_jitter",
		 .subject = "the jitter run-length property catches",
		 .catches = {{B::NO_RESCHED_ON_RENEWAL}},
		 .testable = run_length_with_jitter},
		{.kind = K::Property,
		 .name = "slice_below_tick",
		 .subject = "the slice-below-tick property catches",
		 .catches = {{B::DEADLINE_FROM_OLD}},
		 .testable = slice_below_tick_is_irrelevant},
		{.kind = K::Property,
		 .name = "lag_bound_hogs",
		 .subject = "the lag-bound property catches",
		 .catches = {{B::NO_RESCHED_ON_RENEWAL}},
		 .testable = lag_bound_hogs},
		{.kind = K::Property,
		 .name = "fairness_window",
		 .subject = "the fairness property catches",
		 .catches = {{B::NO_RESCHED_ON_RENEWAL}},
		 .testable = fairness_window},
		{.kind = K::Property,
		 .name = "weighted_hog_bounds",
		 .subject = "the weighted-bounds property catches",
		 .catches = {{B::NO_RESCHED_ON_RENEWAL}},
		 .testable = weighted_hog_bounds},
		{.kind = K::Property,
		 .name = "relabel_tasks",
		 .subject = "the relabelling property catches",
		 .catches = {through_checker(B::ELIGIBLE_STRICT)},
		 .testable = relabel_tasks},
		{.kind = K::Property,
		 .name = "vruntime_shift",
		 .subject = "the vruntime-shift property catches",
		 .catches = {through_checker(B::AVG_VRUNTIME_TRUNC)},
		 .testable = vruntime_shift},
		{.kind = K::Property,
		 .name = "time_scaling",
		 .subject = "the time-scaling property catches",
		 .catches = {{B::DEADLINE_FROM_OLD}},
		 .testable = time_scaling},
		{.kind = K::Property,
		 .name = "pick_matches_oracle",
		 .subject = "the pick property catches",
		 .catches = {{B::PICK_FIRST_ELIGIBLE}, {B::STALE_AUGMENT}},
		 .testable = pick_matches_oracle},
		// Issue 12's decision-rule blind spots: only the oracle (or a
		// golden schedule, below) sees these decisions go wrong.
		{.kind = K::Property,
		 .name = "decision_oracle",
		 .subject = "the decision oracle property catches",
		 .catches = {{B::PREEMPT_INELIGIBLE},
			     {B::DELAY_ZERO_REQUEUE_KEEPS},
			     {B::YIELD_KEEPS_DEADLINE},
			     {B::HRTICK_FROM_PICK_TIME}},
		 .testable = decision_oracle_agrees},
		{.kind = K::Property,
		 .name = "decision_oracle_groups",
		 .subject = "the decision oracle property with groups catches",
		 .catches = {{B::GROUP_SLICE_BASE}, {B::GROUP_SLICE_STALE_TREE}, {B::GROUP_SLICE_U64_MAX}},
		 .testable = decision_oracle_agrees_with_groups},
		{.kind = K::Property,
		 .name = "smp_checker_holds",
		 .subject = "the SMP checker property catches",
		 .catches = {{B::MIGRATE_DROPS_LAG}},
		 .testable = smp_checker_holds,
		 .zoo_cases = ZOO_SMP_CASES,
		 .smp = true},
		{.kind = K::Property,
		 .name = "smp_hog_run_bound",
		 .subject = "the per-CPU run-length property catches",
		 .catches = {{B::NO_RESCHED_ON_RENEWAL}},
		 .testable = smp_hog_run_bound,
		 .smp = true},
		{.kind = K::Property,
		 .name = "smp_wakeup_placement",
		 .subject = "the wake-up placement property catches",
		 .catches = {{B::WA_IDLE_SKIPS_PREV}},
		 .testable = smp_wakeup_placement,
		 .smp = true},
		{.kind = K::Property,
		 .name = "smp_newidle_pulls",
		 .subject = "the newidle property catches",
		 .catches = {{B::MIGRATE_DELAYED}},
		 .testable = smp_newidle_pulls,
		 .smp = true},
		{.kind = K::Property,
		 .name = "smp_vruntime_per_cpu",
		 .subject = "the per-CPU vruntime property catches",
		 .catches = {{B::MIGRATE_KEEPS_VRUNTIME}},
		 .testable = smp_vruntime_per_cpu,
		 .zoo_cases = ZOO_SMP_CASES,
		 .smp = true},
		{.kind = K::Property,
		 .name = "smp_relabel_pinned",
		 .subject = "the CPU-relabelling property catches",
		 .catches = {through_checker(B::ELIGIBLE_STRICT)},
		 .testable = smp_relabel_pinned,
		 .smp = true},
		{.kind = K::Property,
		 .name = "smp_idle_while_work",
		 .subject = "the idle-while-work property catches",
		 .catches = {through_checker(B::ELIGIBLE_STRICT), {B::NOHZ_KICK_STATS_ONLY}},
		 .testable = smp_idle_while_work,
		 .smp = true},

		// ---- the golden schedules (goldens.hpp): decisions a generated
		// workload rarely reaches
		{.kind = K::Golden,
		 .name = "protection_golden",
		 .subject = "the protection golden schedule catches",
		 .catches = {{B::PROTECT_FULL_SLICE}},
		 .holds = protection_golden_holds},
		{.kind = K::Golden,
		 .name = "slice_cap_golden",
		 .subject = "the slice-cap golden schedule catches",
		 .catches = {{B::SLICE_SCALE_UNCAPPED}},
		 .holds = slice_cap_golden_holds},
		{.kind = K::Golden,
		 .name = "newidle_cost_golden",
		 .subject = "the newidle cost golden catches",
		 .catches = {{B::NEWIDLE_BUMP}},
		 .holds = newidle_cost_golden_holds,
		 .smp = true},

		// ---- the proved statements fed to the model (proved_statements.hpp).
		// The decision statements catch bugs on their own conclusions; the
		// request statements' simulations are stopped by the invariant
		// checker first. The two wake-up statements are broken by a waker
		// that preempts without cancelling curr's protection;
		// repick_equal_weights by no bug of the zoo (3,000 cases against
		// eleven).
		{.kind = K::Proved,
		 .name = "pick_spec",
		 .subject = "the proved pick_spec catches",
		 .catches = {{B::PICK_FIRST_ELIGIBLE}},
		 .testable = proved::pick_spec},
		{.kind = K::Proved,
		 .name = "eligible_exists+lag_sum",
		 .subject = "the proved eligible_exists and lag_sum statements catch",
		 .catches = {{B::AVG_VRUNTIME_TRUNC}},
		 .testable = proved::eligible_exists_and_lag_sum},
		{.kind = K::Proved,
		 .name = "wakeup_short_preempts",
		 .subject = "the proved wakeup_short_preempts catches",
		 .catches = {{B::PREEMPT_SHORT_KEEPS_PROTECTION}},
		 .testable = proved::wakeup_short_preempts},
		{.kind = K::Proved,
		 .name = "repick_equal_weights",
		 .subject = "the proved repick_equal_weights catches",
		 .catches = {},
		 .testable = proved::repick_equal_weights},
		{.kind = K::Proved,
		 .name = "wakeup_waker_picked",
		 .subject = "the proved wakeup_waker_picked catches",
		 .catches = {{B::PREEMPT_SHORT_KEEPS_PROTECTION}},
		 .testable = proved::wakeup_waker_picked},
		{.kind = K::Proved,
		 .name = "request_bounds",
		 .subject = "the proved request bounds catch",
		 .catches = {through_checker(B::DEADLINE_FROM_OLD)},
		 .testable = proved::request_bounds},
		{.kind = K::Proved,
		 .name = "hog_runs_whole_ticks",
		 .subject = "the proved whole-tick runs catch",
		 .catches = {through_checker(B::STALE_AUGMENT)},
		 .testable = proved::hog_runs_whole_ticks},
		{.kind = K::Proved,
		 .name = "smp_request_bounds",
		 .subject = "the proved request bounds on several CPUs catch",
		 .catches = {through_checker(B::NO_LAG_INFLATION)},
		 .testable = proved::smp_request_bounds,
		 .smp = true},

		// ---- the decision oracle in lockstep on hand-made workloads
		{.kind = K::Oracle,
		 .name = "oracle_three_hogs",
		 .subject = "the decision oracle on three hogs catches",
		 .catches = {{B::ELIGIBLE_STRICT}},
		 .scenario = {three_hogs}},
		{.kind = K::Oracle,
		 .name = "oracle_hogs_and_sleepers",
		 .subject = "the decision oracle on hogs and sleepers catches",
		 .catches = {{B::DEADLINE_FROM_OLD},
			     {B::NO_RESCHED_ON_RENEWAL},
			     {B::NO_LAG_INFLATION},
			     {B::AVG_VRUNTIME_TRUNC},
			     {B::REWEIGHT_NO_RESCALE},
			     {B::DELAY_ZERO_KEEPS_LAG},
			     {B::PICK_FIRST_ELIGIBLE}},
		 .scenario = {hogs_and_sleepers}},
		{.kind = K::Oracle,
		 .name = "oracle_ratchet",
		 .subject = "the decision oracle on the lag ratchet catches",
		 .catches = {{B::NO_LAG_CLAMP}},
		 .scenario = {ratchet, 100, false}},
	};
}

}  // namespace

const std::vector<Detector>& bug_detectors()
{
	static const std::vector<Detector> table = make_table();
	return table;
}

std::string_view broken_model(Bug b) { return BROKEN_MODEL[static_cast<size_t>(b)]; }

std::string expectation_name(const Detector& d, const Expectation& e)
{
	return std::string(d.subject) + " " + std::string(broken_model(e.bug)) +
	       (e.through_invariant_check ? " (through the invariant check)" : "");
}

}  // namespace eevdf::props
