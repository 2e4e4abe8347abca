// SPDX-License-Identifier: GPL-2.0-only
// The idle-core hint (kernel/sched/fair.c, v6.18.44: is_core_idle(),
// set_idle_cores(), test_idle_cores(), __update_idle_core(); the caller is
// set_next_task_idle() in idle.c).
//
// The hint is one bit per LLC, read by every wake-up in it, so it is kept
// cheap and only roughly right:
// - It becomes true when a CPU switches to its idle task and each of its
//   siblings is available_idle_cpu() (the CPU itself is not tested: it is
//   the one going idle). An idle core that forms because a sibling's wake-up
//   was pending and then went elsewhere does not set it.
// - It becomes false only when select_idle_cpu() scanned the LLC for an
//   idle core and found none; a core that stops being idle leaves it true.
// - With it true, select_idle_sibling() looks for a whole idle core first
//   (select_idle_core(), unlimited by SIS_UTIL's nr_idle_scan); with it
//   false, for an idle sibling of prev, then any idle CPU.
//
// sched_smt_active() is false on a machine without two-thread cores:
// update_idle_core() is then a static-branch no-op and test_idle_cores()
// is never reached (the !CONFIG_SCHED_SMT stubs say false).
#include "model/idle_cores.hpp"

#include "model/machine.hpp"

namespace eevdf {

bool is_core_idle(const Machine& sim, u32 cpu)
{
	const CpuMask smt = sim.topology().cpu_smt_mask(cpu);
	for (u32 s = smt.first(); s < MAX_CPUS; s = smt.next(s + 1))
		if (s != cpu && !sim.rq(s).idle_cpu())
			return false;
	return true;
}

bool test_idle_cores(const Machine& sim, u32 cpu)
{
	const SchedDomainShared* sds = sim.topology().sd_llc_shared(cpu);
	return sds && sds->has_idle_cores;
}

void set_idle_cores(Machine& sim, u32 cpu, bool val)
{
	if (SchedDomainShared* sds = sim.topology_mut().sd_llc_shared(cpu))
		sds->has_idle_cores = val;
}

// __update_idle_core(): available_idle_cpu() of each sibling; no vCPU is
// ever preempted in the model, so that is idle_cpu().
void update_idle_core(Machine& sim, u32 cpu)
{
	if (!sim.topology().sched_smt_active() || test_idle_cores(sim, cpu))
		return;
	if (!is_core_idle(sim, cpu))
		return;
	set_idle_cores(sim, cpu, true);
}

}  // namespace eevdf
