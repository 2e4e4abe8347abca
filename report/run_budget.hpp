// SPDX-License-Identifier: GPL-2.0-only
// The events one run may take. The ticks limit (validate_workload.cpp)
// bounds a run of hogs, about one event a tick, but not one whose tasks
// wake often: schbench's 4032 threads on 256 CPUs make tens of millions of
// events a simulated second (minutes of computing each), so a run within
// every other limit could compute for weeks. Every command runs the model
// through run_bounded(), which stops a run at this many events and says
// so (exit 2): 5-30 minutes at the 5-30 million events a second of a few
// tasks, about 45 at the 3.3 million of 4000 waking tasks on 256 CPUs.
#pragma once

#include "model/simulation.hpp"

namespace eevdf {

inline constexpr u64 MAX_RUN_EVENTS = u64{1} << 33;

// sim.run() up to `max_events` of the run's events; a run that has not
// ended by then is a WorkloadError naming how far it got and what to lower.
void run_bounded(Simulation& sim, u64 max_events = MAX_RUN_EVENTS);

// sim.run_until(t) under the same bound (a warm-up before run_bounded()).
void run_bounded_until(Simulation& sim, u64 t, u64 max_events = MAX_RUN_EVENTS);

}  // namespace eevdf
