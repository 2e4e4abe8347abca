// SPDX-License-Identifier: GPL-2.0-only
// The properties, as testables parameterised by the bugs switched into the
// model: the suite runs each with none, and shows each catching a broken
// model (test_mutations.cpp).
#pragma once

#include <functional>
#include <string>

#include "model/bugs.hpp"

namespace eevdf::props {

using Testable = std::function<void()>;

// 1. The invariant checker holds on every event of every generated workload,
//    for every preset, HZ, flag set and realism knob.
Testable checker_holds(Bugs bugs = {});
// The checker holds with task groups (issue 36): the presets that model
// them, one CPU, any workload in 1-6 groups of any weight.
Testable groups_checker_holds(Bugs bugs = {});
// The checker holds with --autogroup on: any workload, cgroups or not, with
// random sessions (setsid) of any autogroup nice.
Testable autogroup_checker_holds(Bugs bugs = {});
// One session under autogroup schedules as the flat workload, switch for
// switch (tests/test_autogroup.cpp says why), on the presets that model
// groups, with any flags and knobs, for workloads without a nice change
// while queued (prio_changed_fair() counts the root's entities: the one
// difference, kept as a test).
Testable single_session_autogroup_is_flat(Bugs bugs = {});

// 2. Run length of equal-weight hogs forked together (no wakeups, HRTICK
//    off). With exact ticks, the hogs starting on a tick and nice 0 (exact
//    virtual time): every run lasts
//    at most slice + TICK_NSEC - 1 ns, the slice rounded up to the next tick.
//    6.8+ only: v6.6 keeps curr on a deadline tie, so a hog that renews
//    level with another runs a second request (F8); 2c's bound covers it.
Testable run_length_bound(Bugs bugs = {});

// 2b. The same in the form max(slice, TICK_NSEC) + eps, eps = TICK_NSEC - 1;
//     tests/test_findings.cpp shows eps - 1 fails.
Testable run_length_max_form(Bugs bugs = {});

// 2c. With tick jitter J, a start between ticks, or nice != 0, accounting
//     differences of a few ns
//     let the task that just renewed its deadline be re-picked
//     (docs/findings.md, F1). What holds: 6.17+ runs <= slice + 2 TICK_NSEC +
//     2 J - 1; 6.6-6.16 (resched only at renewal) runs <= 2 (slice +
//     TICK_NSEC + J - 1).
Testable run_length_with_jitter(Bugs bugs = {});

// 3. Seed 001's documentation claim: with CPU hogs and a base slice at most
//    TICK_NSEC - jitter, the schedule does not depend on the slice.
Testable slice_below_tick_is_irrelevant(Bugs bugs = {});

// 4. Lag of nice-0 hogs stays within +-(slice + TICK_NSEC + jitter): the
//    paper's -r < lag < max(r, q) with the request rounded up to ticks. (That
//    the kernel's clamp never binds on steady workloads is vacuous for hogs,
//    which never dequeue, and false for sleepers: docs/findings.md F3.)
Testable lag_bound_hogs(Bugs bugs = {});

// 5. Fairness: over any window in which n nice-0 hogs all stay runnable,
//    each one's CPU time differs from its share t/n by at most
//    2 (slice + TICK_NSEC + jitter): the service error over [t1, t2] is
//    lag(t1) - lag(t2), and property 4 bounds each lag.
Testable fairness_window(Bugs bugs = {});

// 6. Determinism and metamorphic relations. vruntime_shift holds on every
//    preset but those that share vlag and vprot and protect only at a pick
//    (6.18.17 .. 6.18.44), where it is false (docs/findings.md F7).
Testable deterministic(Bugs bugs = {});
Testable relabel_tasks(Bugs bugs = {});
Testable vruntime_shift(Bugs bugs = {});
Testable time_scaling(Bugs bugs = {});

// 8. Hogs at any nice levels (2 to 4, each of the 40): every task's v stays
//    within the bounds lag_weighted proves, and every run within
//    run_weighted's (docs/proofs.md; the proofs cover five nice levels, this
//    samples all of them, every preset, flag and knob).
Testable weighted_hog_bounds(Bugs bugs = {});

// 7. The tree pick equals the brute-force pick over random operation
//    sequences applied to a cfs_rq directly (adversarial lags and weights).
Testable pick_matches_oracle(Bugs bugs = {});

// 9. The decision oracle (oracle/decision_oracle.hpp), run in lockstep,
//    agrees with the model on every pick, placement, deadline and preemption
//    of every generated workload (TTWU_QUEUE_DELAYED off: the oracle writes
//    mainline's wake-up of a delayed task).
Testable decision_oracle_agrees(Bugs bugs = {});
// ... and with task groups: the presets that model them, one CPU, any
// workload in 1-6 groups up to 6 deep (the oracle walks the hierarchy,
// picks level by level and matches curr and the wakee up the tree).
Testable decision_oracle_agrees_with_groups(Bugs bugs = {});

// ---- several CPUs (issue 14)

// 10. The invariant checker, SMP rules included (model/check.hpp: a task
//     on one rq or wakelist, affinity, lag and relative deadline kept on
//     migration, IPIs on their way, every CPU's kept next event), holds on
//     every event of every generated workload with random affinity on 2-8
//     CPUs, any preset, LLC grouping, flag and knob.
Testable smp_checker_holds(Bugs bugs = {});
Testable smp_groups_checker_holds(Bugs bugs = {});

// 11. Tasks all pinned to CPU 0 of N CPUs are scheduled exactly as on one
//     CPU with the same base slice: every switch at the same instant to the
//     same task, whatever the idle CPUs do (newidle and nohz balancing find
//     nothing they may move, and no wake-up may leave CPU 0).
Testable pinned_matches_one_cpu(Bugs bugs = {});

// 12. Per-CPU run length: 2-12 equal nice-0 hogs forked together on 2-4
//     CPUs (no HRTICK; any preset, HZ, knobs, skew_tick). On a CPU no
//     migration has touched yet, a run during which it never had fewer than
//     two tasks queued is at most the one-CPU bound with one re-pick
//     (property 2c's hog_run_bound), whatever the other CPUs do (their
//     ticks, IPIs, balance attempts). After a migration it is not: lag
//     travels, and a hog that arrives owed time runs longer (F11,
//     docs/findings.md). A run while alone on the CPU is not bounded; a
//     run cut by the end of the simulation counts once already too long.
//     IPIs add nothing: a handler's time is charged to the task it
//     interrupts, and a resched IPI only ends a request (the request
//     property under remote wake-ups, test_proved_statements.cpp).
Testable smp_hog_run_bound(Bugs bugs = {});

// 13. Wake-up placement (issue 14, item 7), generated workloads as in 10.
//     At the wake-up of a sleeping task p (not delayed, not a fork):
//     (A) if its prev CPU is idle, allowed, and shares the LLC with the
//         waker's CPU or WA_IDLE is on, p is placed on prev (or, WA_IDLE
//         off, on the waker's CPU when that is idle: a timer's);
//     (B) if all CPUs form one LLC, SIS_UTIL is off and an allowed CPU is
//         idle, p is placed on an idle CPU.
//     Either way p runs within ipi_latency + idle_exit_latency (at once when
//     the idle CPU is the waker's own: a timer), unless another task joins
//     that CPU first. With SIS_UTIL on and prev busy the kernel does not
//     promise to find an idle CPU (nr_idle_scan may be 0).
Testable smp_wakeup_placement(Bugs bugs = {});

// 14. Work conservation at the newidle balance (issue 14, item 4). Two CPUs
//     of one LLC, any preset with 6.14's can_migrate_task() (delayed tasks
//     stay), NI_RANDOM off, balance passes free: a CPU whose pick finds
//     nothing does not go idle while the other CPU has h_nr_runnable >= 2,
//     at most 32 queued, and a task waiting there that is allowed on it,
//     not delayed and not cache hot (last ran >= 500 us ago). The kernel's
//     conditions, derived in smp_properties.cpp; the decision itself is
//     proofs' lb_idle_pulls.
Testable smp_newidle_pulls(Bugs bugs = {});

// 15. vruntime is per CPU (issue 14, item 6): each CPU's cfs_rq started at
//     its own origin (any u64, across the wrap) gives the same switches on
//     every CPU; generated SMP workloads, presets without F7's absolute
//     protection (6.18.17 .. 6.18.44 excluded).
Testable smp_vruntime_per_cpu(Bugs bugs = {});
// 16. Relabelling CPUs (issue 14, item 8): false in general, the kernel
//     breaks ties by CPU number (F16). With every task pinned to one CPU, one
//     LLC, no skew_tick, no tick jitter and instant IPIs and idle exits,
//     permuting the CPU ids permutes every CPU's schedule exactly.
Testable smp_relabel_pinned(Bugs bugs = {});
// 17. Work conservation beyond the newidle balance (issue 14, item 4): on
//     two CPUs of one LLC, no affinity, NO_HZ_FULL and HRTICK off, no
//     jitter, newidle on or gated off by its cost, a CPU stays idle while
//     the other has h_nr_runnable >= 2 and a movable waiting task for at
//     most (3 + 3 ij) TICK + IPI latency + idle exit, ij =
//     msecs_to_jiffies(4 ms): the nohz kick, the idle pass and two
//     cache-hot failures (derived in smp_properties.cpp). Not stated for N > 2.
Testable smp_idle_while_work(Bugs bugs = {});

}  // namespace eevdf::props
