// SPDX-License-Identifier: GPL-2.0-only
// The idle-core hint of an SMT machine (kernel/sched/fair.c, v6.18.44):
// sched_domain_shared::has_idle_cores of each LLC, set when a CPU goes idle
// and finds every sibling idle, cleared only by a wake-up scan that looked
// for an idle core and found none. See model/idle_cores.cpp.
#pragma once

#include "model/types.hpp"

namespace eevdf {

class Machine;

// is_core_idle(): every sibling of `cpu` but itself is idle_cpu().
bool is_core_idle(const Machine& sim, u32 cpu);
// test_idle_cores() / set_idle_cores(): the hint of cpu's LLC (false, and
// nothing to set, without SMT or an LLC domain).
bool test_idle_cores(const Machine& sim, u32 cpu);
void set_idle_cores(Machine& sim, u32 cpu, bool val);
// update_idle_core(): set_next_task_idle() on `cpu`.
void update_idle_core(Machine& sim, u32 cpu);

}  // namespace eevdf
