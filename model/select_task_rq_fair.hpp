// SPDX-License-Identifier: GPL-2.0-only
// select_task_rq_fair() and its helpers (kernel/sched/fair.c, v6.18.44):
// where a woken or forked task runs. See model/select_task_rq_fair.cpp.
#pragma once

#include "model/cpumask.hpp"
#include "model/sg_lb_stats.hpp"
#include "model/topology.hpp"
#include "model/types.hpp"

namespace eevdf {

class Machine;
struct Task;

// select_task_rq_fair(p, prev_cpu, wake_flags) run on `this_cpu` (the
// waker's CPU, the CPU whose timer fired, or for a fork the parent's).
// Only called for tasks allowed on more than one CPU; wake_flags is not
// changed (the core adds WF_RQ_SELECTED-like flags itself).
u32 select_task_rq_fair(Machine& sim, Task& p, u32 prev_cpu, unsigned& wake_flags, u32 this_cpu);

// The steps of select_task_rq_fair(), named as in fair.c and exposed for the
// unit tests. `this_cpu` is smp_processor_id(); `current` is
// sim.curr_task(this_cpu) (nullptr: the idle task).
namespace selection {

// nr_cpumask_bits: "no CPU" from wake_affine_*() and the idle scans.
inline constexpr u32 NO_TARGET = MAX_CPUS;

// available_idle_cpu(): idle_cpu() (no vCPU is ever preempted here).
bool available_idle_cpu(const Machine& sim, u32 cpu);
// sched_idle_cpu(): tasks are queued and every one is SCHED_IDLE.
bool sched_idle_cpu(const Machine& sim, u32 cpu);
// Whether CPU selection for p takes such a CPU as idle: always up to 6.18;
// 7.1's choose_sched_idle_rq() not for a SCHED_IDLE p.
bool choose_sched_idle_rq(const Machine& sim, u32 cpu, const Task& p);

// record_wakee() on current of this_cpu; nothing for the idle task.
void record_wakee(Machine& sim, Task& p, u32 this_cpu);
// wake_wide(): the waker/wakee flip counts say "many partners".
bool wake_wide(Machine& sim, const Task& p, u32 this_cpu);

u32 wake_affine_idle(const Machine& sim, u32 this_cpu, u32 prev_cpu, bool sync);
u32 wake_affine_weight(Machine& sim, const SchedDomain& sd, const Task& p, u32 this_cpu, u32 prev_cpu,
		       bool sync);
// wake_affine(): this_cpu if one of the two tests chose it, else prev_cpu.
u32 wake_affine(Machine& sim, const SchedDomain& sd, Task& p, u32 this_cpu, u32 prev_cpu, bool sync);

// select_idle_core(p, core, cpus, &idle_cpu): core if all its siblings are
// idle; else removes them from cpus and may set idle_cpu (NO_TARGET: none yet).
u32 select_idle_core(const Machine& sim, const Task& p, u32 core, CpuMask& cpus, u32& idle_cpu);
// select_idle_smt(p, sd, target): an idle sibling of target within sd.
u32 select_idle_smt(const Machine& sim, const Task& p, const SchedDomain& sd, u32 target);
// select_idle_cpu(p, sd, has_idle_core, target); with has_idle_core, a scan
// that finds no idle core clears the LLC's hint.
u32 select_idle_cpu(Machine& sim, const Task& p, const SchedDomain& sd, bool has_idle_core, u32 target);
// select_idle_sibling(p, prev, target). Updates p.recent_used_cpu.
u32 select_idle_sibling(Machine& sim, Task& p, u32 prev, u32 target);

// ---- the fork/exec slow path

// The struct sg_lb_stats that update_sg_wakeup_stats() fills (the
// balancer's type: model/sg_lb_stats.hpp).
using SgWakeupStats = SgLbStats;

// p's contribution taken out of a CPU's signals (task_cpu(p) == cpu and p
// attached), as the kernel computes them.
u64 cpu_load_without(Machine& sim, u32 cpu, const Task& p);
u64 cpu_util_without(const Machine& sim, u32 cpu, const Task& p);
u64 cpu_runnable_without(const Machine& sim, u32 cpu, const Task& p);
u32 task_running_on_cpu(u32 cpu, const Task& p);
bool idle_cpu_without(const Machine& sim, u32 cpu, const Task& p);

// group_classify() of the wake-up path: sgc->imbalance from the group.
GroupType group_classify(u32 imbalance_pct, const SchedGroup& group, const SgWakeupStats& sgs);

// update_sg_wakeup_stats(). allowed_only: 6.18.39+ sums only the CPUs in
// p->cpus_ptr; before, every CPU of the group.
SgWakeupStats update_sg_wakeup_stats(Machine& sim, const SchedDomain& sd, const SchedGroup& group,
				     const Task& p, bool allowed_only = true);
// update_pick_idlest(): is `sgs` idler than the idlest so far?
bool update_pick_idlest(const SgWakeupStats& idlest, const SgWakeupStats& sgs);
// sched_balance_find_dst_group(): the group to push p to, or nullptr (stay).
const SchedGroup* sched_balance_find_dst_group(Machine& sim, const SchedDomain& sd, const Task& p,
					       u32 this_cpu);
u32 sched_balance_find_dst_group_cpu(const Machine& sim, const SchedGroup& group, const Task& p,
				     u32 this_cpu);
u32 sched_balance_find_dst_cpu(Machine& sim, SchedDomain* sd, Task& p, u32 cpu, u32 prev_cpu,
			       unsigned sd_flag);

}  // namespace selection
}  // namespace eevdf
