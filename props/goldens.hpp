// SPDX-License-Identifier: GPL-2.0-only
// Golden schedules as predicates on a model with bugs switched in: each is
// a schedule computed by hand from the kernel's rules (the same as a
// tests/test_fidelity.cpp case), true when the model reproduces it exactly.
// The bug × detector table (bug_detectors.hpp) names the bug each catches,
// for the decisions that a generated workload rarely reaches.
#pragma once

#include "model/bugs.hpp"

namespace eevdf::props {

// "6.17+ protects a long-slice task only for the smallest queued slice":
// hogs with 1 ms and 10 ms custom slices at HZ=1000 switch at every tick on
// each 6.17+ preset (6.18, 6.18.17, 6.18.33), for 30 ms.
bool protection_golden_holds(Bugs bugs);

// "the default base slice stops growing at 8 CPUs": two hogs on one of 16
// online CPUs at HZ=1000 (6.18) switch at 2, 4 and then every 3 ms, since
// the slice is 0.7 ms * (1 + ilog2(8)) = 2.8 ms.
bool slice_cap_golden_holds(Bugs bugs);

// "a failed newidle pass costs what it cost" (d206fbad9328, the revert of
// 155213a2aed4): on 2 CPUs at HZ=1000, NO_NI_RANDOM, each pass costing
// 100 us, CPU 1's newidle passes all run and its MC domain's
// max_newidle_lb_cost stays 100 us on 6.18.39, while 6.18.2's bump raises
// it per failure to 150, 225, 337.5 and 500.2 us and gates the passes from
// the tenth on, once avg_idle falls below 500.2 us.
bool newidle_cost_golden_holds(Bugs bugs);

}  // namespace eevdf::props
