// SPDX-License-Identifier: GPL-2.0-only
// The property suite: EEVDF's guarantees over generated workloads. Each
// property's preconditions are in its name; props/properties.hpp states them
// exactly and docs/findings.md records where the kernel departs from them.
#include <rapidcheck/catch.h>

#include "props/properties.hpp"

using namespace eevdf::props;

TEST_CASE("the invariant checker holds on every event: any workload, preset, flags and knobs", "[props]")
{
	rc::prop("checker holds", checker_holds());
}

TEST_CASE("the invariant checker holds on every event with task groups nested up to 6 deep", "[props][groups]")
{
	rc::prop("groups checker holds", groups_checker_holds());
}

TEST_CASE("the invariant checker holds on every event with autogroup and random sessions", "[props][groups]")
{
	rc::prop("autogroup checker holds", autogroup_checker_holds());
}

TEST_CASE("one session's autogroup schedules as the flat workload without nice changes", "[props][groups]")
{
	rc::prop("single-session autogroup is flat", single_session_autogroup_is_flat());
}

TEST_CASE("nice-0 hogs with exact ticks run at most slice + TICK_NSEC - 1 ns", "[props]")
{
	rc::prop("run length <= slice + tick - 1", run_length_bound());
}

TEST_CASE("nice-0 hogs with exact ticks run at most max(slice, TICK_NSEC) + TICK_NSEC - 1 ns", "[props]")
{
	rc::prop("run length <= max(slice, tick) + tick - 1", run_length_max_form());
}

TEST_CASE("equal-weight hogs with tick jitter run at most one re-pick longer", "[props]")
{
	rc::prop("run length with jitter", run_length_with_jitter());
}

TEST_CASE("hogs with a slice at most TICK_NSEC - jitter have the same schedule for every slice (seed 001)", "[props]")
{
	rc::prop("slice below the tick is irrelevant", slice_below_tick_is_irrelevant());
}

TEST_CASE("nice-0 hogs keep |lag| below slice + TICK_NSEC + jitter", "[props]")
{
	rc::prop("lag bound", lag_bound_hogs());
}

TEST_CASE("nice-0 hogs get their share within 2 (slice + TICK_NSEC + jitter) over any window", "[props]")
{
	rc::prop("fairness over windows", fairness_window());
}

TEST_CASE("hogs at any nice levels stay within the proved weighted lag and run bounds", "[props]")
{
	rc::prop("weighted lag and run bounds", weighted_hog_bounds());
}

TEST_CASE("the same workload and seed give a byte-identical trace", "[props]")
{
	rc::prop("determinism", deterministic());
}

TEST_CASE("relabelling hogs with distinct arrival times relabels the schedule", "[props]")
{
	rc::prop("relabelling", relabel_tasks());
}

TEST_CASE("shifting every vruntime by a constant, across 2^64, leaves the schedule unchanged", "[props]")
{
	rc::prop("vruntime shift", vruntime_shift());
}

TEST_CASE("scaling all times with TICK_NSEC scales the schedule of nice-0 hogs", "[props]")
{
	rc::prop("time scaling", time_scaling());
}

TEST_CASE("the tree pick equals the brute-force pick over random cfs_rq operation sequences", "[props]")
{
	rc::prop("fast pick == brute-force pick", pick_matches_oracle());
}

TEST_CASE("the invariant checker holds on every event on 2-8 CPUs with random affinity", "[props][smp]")
{
	rc::prop("SMP checker holds", smp_checker_holds());
}

TEST_CASE("the invariant checker holds on every event with task groups on several CPUs", "[props][groups][smp]")
{
	rc::prop("SMP groups checker holds", smp_groups_checker_holds());
}

TEST_CASE("tasks pinned to CPU 0 of N CPUs are scheduled exactly as on one CPU", "[props][smp]")
{
	rc::prop("pinned on N CPUs == one CPU", pinned_matches_one_cpu());
}

TEST_CASE("on several CPUs a hog that shares its CPU runs at most the one-CPU bound", "[props][smp]")
{
	rc::prop("per-CPU run length", smp_hog_run_bound());
}

TEST_CASE("a task woken with an idle allowed CPU to go to is placed there and runs within the IPI latency", "[props][smp]")
{
	rc::prop("wake-up placement", smp_wakeup_placement());
}

TEST_CASE("on two CPUs a CPU does not go idle while a cold task waits on the other", "[props][smp]")
{
	rc::prop("newidle pulls", smp_newidle_pulls());
}

TEST_CASE("each CPU starting at its own vruntime origin leaves every CPU's schedule unchanged", "[props][smp]")
{
	rc::prop("vruntime per CPU", smp_vruntime_per_cpu());
}

TEST_CASE("relabelling the CPUs of pinned tasks relabels every CPU's schedule", "[props][smp]")
{
	rc::prop("relabel pinned CPUs", smp_relabel_pinned());
}

TEST_CASE("on 2 to 8 CPUs of one LLC an idle CPU pulls waiting work within the nohz kick and three idle passes", "[props][smp]")
{
	rc::prop("idle while work waits", smp_idle_while_work());
}
