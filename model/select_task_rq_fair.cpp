// SPDX-License-Identifier: GPL-2.0-only
// CPU selection at wake-up and fork: select_task_rq_fair() and the helpers
// it calls in kernel/sched/fair.c, after v6.18.44.
//
// What the model's machine lets the kernel's code do, and so what is left
// out (each exact, not an approximation, for this topology and these tasks):
// - No energy model: is_rd_overutilized() is true when sched_energy_enabled()
//   is false, so find_energy_efficient_cpu() is never tried.
// - WF_CURRENT_CPU: nothing in the model wakes with it (its users are
//   complete_on_current_cpu() and seccomp's user notification).
// - All CPUs have capacity 1024 and no SD_ASYM_CPUCAPACITY domain exists, so
//   sched_asym_cpucap_active() is false: asym_fits_cpu() is always true,
//   select_idle_capacity() is not reached and update_sg_wakeup_stats() never
//   sets group_misfit_task_load.
// - SMT (a Config with smt > 1): sched_smt_active() holds, so the idle-core
//   hint (model/idle_cores.cpp) steers select_idle_sibling() to
//   select_idle_smt() or select_idle_cpu()'s core scan. Without siblings
//   has_idle_core stays false and neither is reached.
// - Clusters (SD_CLUSTER, a level between core and LLC): when one survives
//   sched_cluster_active holds; select_idle_sibling() then returns an idle
//   prev or recent CPU at once only within target's cluster (else keeps it
//   as a late fallback: prev_aff, recent_used_cpu), and select_idle_cpu()
//   scans target's cluster before the rest of the LLC.
// - No per-CPU kthreads: the rule letting a kworker's wakee stack on the
//   kworker's CPU never applies.
// - No core scheduling: every cookie matches.
// - NUMA (numa_balancing never on): no task has a preferred node; the NUMA
//   domain's SD_WAKE_AFFINE/BALANCE_FORK/EXEC go beyond
//   node_reclaim_distance; sched_balance_find_dst_group() keeps its NUMA
//   rules (see there).
// - SCHED_IDLE: a CPU whose queued tasks are all SCHED_IDLE (sched_idle_cpu())
//   is taken as if idle by select_idle_sibling(), select_idle_cpu() and,
//   ahead of any idle CPU, sched_balance_find_dst_group_cpu(); 7.1
//   (choose_idle_cpu(), "Skip SCHED_IDLE rq for SCHED_IDLE task") does so
//   only for a wakee that is not SCHED_IDLE itself
//   (KernelPaths::sched_idle_skips_idle_wakee). wake_affine_idle() and the
//   group statistics count only truly idle CPUs.
// - No vCPU is preempted: available_idle_cpu() is idle_cpu().
//
// Earlier kernels, where they differ in these functions:
// - 6.6 calls find_energy_efficient_cpu() under sched_energy_enabled()
//   instead of !is_rd_overutilized(); without an energy model both skip it.
// - 6.6 select_idle_cpu() has the SIS_PROP block (a feature off by default,
//   absent from the model) and stops on !--nr rather than --nr <= 0; nr
//   starts at nr_idle_scan + 1 >= 2 or at INT_MAX, so both stop at the same
//   CPU. 6.6 has no cluster scan (inactive here anyway).
// - 6.6 .. 6.15: wake_affine_idle()'s sync test is nr_running == 1; 6.16+
//   leaves delayed tasks out (KernelPaths::wa_idle_sync_minus_delayed).
// - 6.6 .. 6.13 sum h_nr_running (delayed tasks included) where 6.14+ sums
//   h_nr_runnable into sum_h_nr_running; the wake-up path never reads it.
// - 6.6 .. 6.18.38: update_sg_wakeup_stats() sums every CPU of the group,
//   allowed or not; 6.18.39 (stable, cb475e590 in the 6.18.y mirror) only
//   those in p->cpus_ptr. See wakeup_stats_allowed_only().
#include "model/select_task_rq_fair.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <utility>

#include "model/idle_cores.hpp"
#include "model/jiffies.hpp"
#include "model/machine.hpp"

namespace eevdf {
namespace selection {
namespace {

// for_each_cpu_wrap(cpu, m, start) that stops when f returns true; returns
// the CPU it stopped at, or NO_TARGET.
template <class F>
u32 for_each_cpu_wrap_until(const CpuMask& m, u32 start, F&& f)
{
	for (u32 c = m.next(start); c < MAX_CPUS; c = m.next(c + 1))
		if (f(c))
			return c;
	for (u32 c = m.first(); c < start && c < MAX_CPUS; c = m.next(c + 1))
		if (f(c))
			return c;
	return NO_TARGET;
}

// __select_idle_cpu() and the tests of select_idle_sibling(): idle, or
// running only SCHED_IDLE tasks (7.1: choose_idle_cpu()).
bool idle_or_sched_idle(const Machine& sim, u32 cpu, const Task& p)
{
	return available_idle_cpu(sim, cpu) || choose_sched_idle_rq(sim, cpu, p);
}

// The 6.18.39 form of update_sg_wakeup_stats() (CPUs of the group that p
// may use; KernelPaths::wakeup_stats_allowed_only). It matters only where a
// group has CPUs outside p's mask, i.e. a PKG-level group (an LLC) that p is
// partly allowed on.
bool wakeup_stats_allowed_only(const Machine& sim) { return sim.config().preset->paths.wakeup_stats_allowed_only; }

// The idle state every idle CPU is in. haltpoll with guest_halt_poll_ns=0
// never grows its poll limit, so the governor always picks the halt state:
// one exit latency for all CPUs (only equality matters below).
constexpr u32 IDLE_STATE_EXIT_LATENCY = 1;

}  // namespace

bool available_idle_cpu(const Machine& sim, u32 cpu) { return sim.rq(cpu).idle_cpu(); }

bool sched_idle_cpu(const Machine& sim, u32 cpu) { return sim.rq(cpu).sched_idle_rq(); }

bool choose_sched_idle_rq(const Machine& sim, u32 cpu, const Task& p)
{
	if (sim.config().preset->paths.sched_idle_skips_idle_wakee && p.se.idle_policy)
		return false;
	return sched_idle_cpu(sim, cpu);
}

// The waker's flip count grows each time it wakes a different task than the
// last, and halves once when a wake-up comes more than HZ jiffies after the
// last decay. In hard-IRQ context (a timer) current is the interrupted task.
// The kernel's idle task has these fields too and counts flips when a timer
// on an idle CPU wakes a task; the model has no task struct for it, so an
// idle waker records nothing and reads as zero flips in wake_wide().
void record_wakee(Machine& sim, Task& p, u32 this_cpu)
{
	Task* cur = sim.curr_task(this_cpu);
	if (!cur)
		return;
	const u64 j = sim.jiffies();
	if (time_after(j, cur->wakee_flip_decay_ts + sim.config().hz)) {
		cur->wakee_flips >>= 1;
		cur->wakee_flip_decay_ts = j;
	}
	if (cur->last_wakee != p.se.id) {
		cur->last_wakee = p.se.id;
		cur->wakee_flips++;
	}
}

// Wide when the less-flipping partner flips at least llc_size times and the
// other at least llc_size times as often: more partners than an LLC holds.
bool wake_wide(Machine& sim, const Task& p, u32 this_cpu)
{
	const Task* cur = sim.curr_task(this_cpu);
	u32 master = cur ? cur->wakee_flips : 0;
	u32 slave = p.wakee_flips;
	const u32 factor = sim.topology().sd_llc_size(this_cpu);
	if (master < slave) {
		const u32 t = master;
		master = slave;
		slave = t;
	}
	return !(slave < factor || master < slave * factor);
}

// An idle this_cpu means an interrupt woke p: move it only within the LLC,
// and not when prev is idle too. A sync waker alone on its CPU is about to
// sleep, so this_cpu will be free. Otherwise an idle prev keeps p.
u32 wake_affine_idle(const Machine& sim, u32 this_cpu, u32 prev_cpu, bool sync)
{
	if (available_idle_cpu(sim, this_cpu) && sim.topology().cpus_share_cache(this_cpu, prev_cpu))
		return available_idle_cpu(sim, prev_cpu) ? prev_cpu : this_cpu;
	if (sync) {
		const Rq& rq = sim.rq(this_cpu);
		u32 nr = rq.nr_running();
		if (sim.config().preset->paths.wa_idle_sync_minus_delayed)
			nr -= static_cast<u32>(rq.cfs.nr_delayed);  // cfs_h_nr_delayed(): h_nr_queued - h_nr_runnable
		if (nr == 1)
			return this_cpu;
	}
	if (available_idle_cpu(sim, prev_cpu) && !sim.config().bugs[Bug::WA_IDLE_SKIPS_PREV])
		return prev_cpu;
	return NO_TARGET;
}

// this_cpu wins when its load with p is below prev's load without p, prev's
// side weighted up by half the domain's imbalance_pct (WA_BIAS: 108 for
// 117), each side scaled by the other CPU's capacity. The products are s64
// in the kernel, formed partly in unsigned long: prev's side goes negative
// when p's load exceeds what prev still holds, and wraps like the kernel's.
u32 wake_affine_weight(Machine& sim, const SchedDomain& sd, const Task& p, u32 this_cpu, u32 prev_cpu,
		       bool sync)
{
	const bool bias = sim.config().features[Feature::WA_BIAS];
	const u64 cap_this = SCHED_CAPACITY_SCALE_CPU, cap_prev = SCHED_CAPACITY_SCALE_CPU;  // capacity_of()
	u64 this_eff = cpu_load(sim.rq(this_cpu).cfs.avg);
	if (sync) {
		// The idle task's load_avg is 0.
		Task* cur = sim.curr_task(this_cpu);
		const u64 current_load = cur ? task_h_load(sim, *cur) : 0;
		if (current_load > this_eff)
			return this_cpu;
		this_eff -= current_load;
	}
	// task_h_load() on task_cfs_rq(p): p's own (prev) CPU.
	const u64 task_load = task_h_load(sim, p);
	this_eff += task_load;
	if (bias)
		this_eff *= 100;
	this_eff *= cap_prev;

	u64 prev_eff = cpu_load(sim.rq(prev_cpu).cfs.avg);
	prev_eff -= task_load;
	if (bias)
		prev_eff *= 100 + (sd.imbalance_pct - 100) / 2;
	prev_eff *= cap_this;
	if (sync)
		prev_eff += 1;  // on a tie let select_idle_sibling() consider stacking on the waker
	return static_cast<s64>(this_eff) < static_cast<s64>(prev_eff) ? this_cpu : NO_TARGET;
}

u32 wake_affine(Machine& sim, const SchedDomain& sd, Task& p, u32 this_cpu, u32 prev_cpu, bool sync)
{
	const Features& f = sim.config().features;
	u32 target = NO_TARGET;
	if (f[Feature::WA_IDLE])
		target = wake_affine_idle(sim, this_cpu, prev_cpu, sync);
	if (f[Feature::WA_WEIGHT] && target == NO_TARGET)
		target = wake_affine_weight(sim, sd, p, this_cpu, prev_cpu, sync);
	if (target != this_cpu)
		return prev_cpu;
	p.wakeups_affine++;  // schedstat nr_wakeups_affine
	return target;
}

// select_idle_core(): is core's every sibling idle? While looking, the
// first idle (or SCHED_IDLE-only) sibling p may use is kept in *idle_cpu as
// the fallback, and a busy core's siblings leave `cpus`, so that the scan
// does not visit them again. Siblings outside `cpus` are still tested for
// idleness: a core is idle only as a whole.
u32 select_idle_core(const Machine& sim, const Task& p, u32 core, CpuMask& cpus, u32& idle_cpu)
{
	bool idle = true;
	const CpuMask smt = sim.topology().cpu_smt_mask(core);
	for (u32 cpu = smt.first(); cpu < MAX_CPUS; cpu = smt.next(cpu + 1)) {
		if (!available_idle_cpu(sim, cpu)) {
			idle = false;
			if (idle_cpu == NO_TARGET) {
				if (choose_sched_idle_rq(sim, cpu, p) && cpus.test(cpu)) {
					idle_cpu = cpu;
					break;
				}
				continue;
			}
			break;
		}
		if (idle_cpu == NO_TARGET && cpus.test(cpu))
			idle_cpu = cpu;
	}
	if (idle)
		return core;
	cpus = cpus.andnot(smt);
	return NO_TARGET;
}

// select_idle_smt(): the first idle sibling of `target` (not itself) that p
// may use and that lies in the LLC domain `sd` (isolcpus can cut a core).
u32 select_idle_smt(const Machine& sim, const Task& p, const SchedDomain& sd, u32 target)
{
	const CpuMask smt = sim.topology().cpu_smt_mask(target) & p.cpus_ptr;
	for (u32 cpu = smt.first(); cpu < MAX_CPUS; cpu = smt.next(cpu + 1)) {
		if (cpu == target || !sd.span.test(cpu))
			continue;
		if (idle_or_sched_idle(sim, cpu, p))
			return cpu;
	}
	return NO_TARGET;
}

// The scan of the LLC for an idle CPU, from target + 1 round to target.
// SIS_UTIL limits it to nr_idle_scan CPUs, which only a periodic or nohz
// idle balance at the LLC level writes (update_idle_cpu_scan(), from the
// LLC's summed utilisation); sched_domain_shared is zeroed at allocation, so
// before that first balance, and whenever the LLC is nearly saturated, the
// limit is 0 and nothing is scanned.
//
// With has_idle_core the scan looks at cores, not CPUs: the first wholly
// idle core wins, with no limit but the LLC (nr is not decremented, though a
// zero nr_idle_scan still stops it before it starts); finding none clears the
// LLC's hint and returns the first idle CPU met on a busy core.
u32 select_idle_cpu(Machine& sim, const Task& p, const SchedDomain& sd, bool has_idle_core, u32 target)
{
	CpuMask cpus = sd.span & p.cpus_ptr;
	u32 idle_cpu = NO_TARGET;
	s64 nr = INT_MAX;
	if (sim.config().features[Feature::SIS_UTIL]) {
		if (const SchedDomainShared* sds = sim.topology().sd_llc_shared(target)) {
			nr = static_cast<s64>(sds->nr_idle_scan) + 1;
			if (nr == 1)
				return NO_TARGET;
		}
	}
	// The cluster pre-scan: target's own cluster (the LLC domain's first
	// group, when its child is a cluster) first, from target + 1 round; it
	// returns what it finds, and its CPUs leave the main scan. The wrap
	// walks read `cpus` as select_idle_core() leaves it.
	u32 found = NO_TARGET;
	bool stop = false;
	auto visit = [&](u32 cpu) {
		if (!cpus.test(cpu))
			return false;
		if (has_idle_core) {
			found = select_idle_core(sim, p, cpu, cpus, idle_cpu);
			return found < NO_TARGET;
		}
		if (--nr <= 0)
			return stop = true;
		found = idle_or_sched_idle(sim, cpu, p) ? cpu : NO_TARGET;
		return found < NO_TARGET;
	};
	if (sim.topology().sched_cluster_active()) {
		const SchedGroup& sg = sim.topology().group(sd.groups.front());
		if (sg.flags & SD_CLUSTER) {
			for_each_cpu_wrap_until(sg.span, target + 1, visit);
			if (stop)
				return NO_TARGET;
			if (found < NO_TARGET)
				return found;
			cpus = cpus.andnot(sg.span);
		}
	}
	for_each_cpu_wrap_until(cpus, target + 1, visit);
	if (stop)
		return NO_TARGET;
	if (found < NO_TARGET)
		return found;
	if (has_idle_core)
		set_idle_cores(sim, target, false);
	return idle_cpu;
}

// The fast path: target (the affine choice or prev) if idle, else an idle
// prev in the same LLC, else the CPU p used before prev if idle, in the LLC
// and allowed, else -- on an SMT machine -- an idle sibling of prev when the
// LLC has no idle core, else the first idle core or CPU of the scan, else
// target. The recent_used_cpu slot takes prev on every call that gets that
// far.
u32 select_idle_sibling(Machine& sim, Task& p, u32 prev, u32 target)
{
	const Topology& topo = sim.topology();
	const bool clusters = topo.sched_cluster_active();
	if (idle_or_sched_idle(sim, target, p))
		return target;
	// An idle prev in target's LLC: at once if it is in target's cluster
	// (or there are none), else kept for the end (prev_aff).
	u32 prev_aff = NO_TARGET;
	if (prev != target && topo.cpus_share_cache(prev, target) && idle_or_sched_idle(sim, prev, p)) {
		if (!clusters || topo.cpus_share_resources(prev, target))
			return prev;
		prev_aff = prev;
	}

	const int recent = p.recent_used_cpu;
	p.recent_used_cpu = static_cast<int>(prev);
	u32 recent_used_cpu = NO_TARGET;
	if (recent >= 0) {
		const u32 r = static_cast<u32>(recent);
		if (r != prev && r != target && topo.cpus_share_cache(r, target) && idle_or_sched_idle(sim, r, p) &&
		    p.cpus_ptr.test(r)) {
			if (!clusters || topo.cpus_share_resources(r, target))
				return r;
			recent_used_cpu = r;  // in another cluster: the last fallback but one
		}
	}

	const SchedDomain* sd = topo.sd_llc(target);
	if (!sd)
		return target;
	bool has_idle_core = false;
	if (topo.sched_smt_active()) {
		has_idle_core = test_idle_cores(sim, target);
		if (!has_idle_core && topo.cpus_share_cache(prev, target)) {
			const u32 i = select_idle_smt(sim, p, *sd, prev);
			if (i < NO_TARGET)
				return i;
		}
	}
	const u32 i = select_idle_cpu(sim, p, *sd, has_idle_core, target);
	if (i < NO_TARGET)
		return i;
	if (prev_aff < NO_TARGET)
		return prev_aff;
	if (recent_used_cpu < NO_TARGET)
		return recent_used_cpu;
	return target;
}

// ---------------------------------------------------------------- slow path

// p's signals leave a CPU's only when p is accounted there: task_cpu(p) is
// that CPU and p is attached (last_update_time != 0; a new task is not).
u64 cpu_load_without(Machine& sim, u32 cpu, const Task& p)
{
	const CfsRqAvg& cfs = sim.rq(cpu).cfs.avg;
	if (p.cpu != cpu || !p.se.avg.last_update_time)
		return cpu_load(cfs);
	return cpu_load_less(cfs, task_h_load(sim, p));
}

u64 cpu_util_without(const Machine& sim, u32 cpu, const Task& p)
{
	const Rq& rq = sim.rq(cpu);
	const bool queued_or_current = p.se.on_rq || sim.rq(p.cpu).cfs.curr_task() == &p.se;
	return eevdf::cpu_util_without(rq.cfs.avg, p.se.avg, p.cpu == cpu, queued_or_current, pelt_features(sim));
}

u64 cpu_runnable_without(const Machine& sim, u32 cpu, const Task& p)
{
	return eevdf::cpu_runnable_without(sim.rq(cpu).cfs.avg, p.se.avg, p.cpu == cpu);
}

u32 task_running_on_cpu(u32 cpu, const Task& p)
{
	if (cpu != p.cpu || !p.se.avg.last_update_time)
		return 0;
	return p.se.on_rq ? 1 : 0;
}

// The caller has already checked nr_running without p is 0.
bool idle_cpu_without(const Machine& sim, u32 cpu, const Task& p)
{
	const Rq& rq = sim.rq(cpu);
	if (rq.cfs.curr_task() && rq.cfs.curr_task() != &p.se)
		return false;
	return !rq.ttwu_pending;
}

// group_asym_packing and group_smt_balance come from flags only
// update_sg_lb_stats() sets, misfit from SD_ASYM_CPUCAPACITY (absent), so the
// wake-up path can see overloaded, imbalanced (sgc->imbalance, left by a
// balance that affinity defeated one level down), fully_busy and has_spare.
GroupType group_classify(u32 imbalance_pct, const SchedGroup& group, const SgWakeupStats& sgs)
{
	return group_classify(imbalance_pct, group.sgc->imbalance != 0, sgs);
}

// The group's load, utilisation and task counts as if p had left it; a CPU
// counts as idle when nothing but p would be there and no wake-up is on its
// way to it.
SgWakeupStats update_sg_wakeup_stats(Machine& sim, const SchedDomain& sd, const SchedGroup& group,
				     const Task& p, bool allowed_only)
{
	SgWakeupStats sgs;
	const bool runnable_only = sim.config().preset->paths.lb_skips_delayed;
	const CpuMask cpus = allowed_only ? group.span & p.cpus_ptr : group.span;
	cpus.for_each([&](u32 i) {
		const Rq& rq = sim.rq(i);
		sgs.group_load += cpu_load_without(sim, i, p);
		sgs.group_util += cpu_util_without(sim, i, p);
		sgs.group_runnable += cpu_runnable_without(sim, i, p);
		const u32 local = task_running_on_cpu(i, p);
		sgs.sum_h_nr_running += (runnable_only ? rq.h_nr_runnable() : rq.nr_running()) - local;
		const u32 nr_running = rq.nr_running() - local;
		sgs.sum_nr_running += nr_running;
		if (!nr_running && idle_cpu_without(sim, i, p))
			sgs.idle_cpus++;
	});
	sgs.group_capacity = group.sgc->capacity;
	sgs.group_weight = group.weight;
	sgs.group_type = group_classify(sd.imbalance_pct, group, sgs);
	// avg_load only means something once the group has no spare capacity.
	if (sgs.group_type == GroupType::fully_busy || sgs.group_type == GroupType::overloaded)
		sgs.avg_load = sgs.group_load * SCHED_CAPACITY_SCALE / sgs.group_capacity;
	return sgs;
}

// Less busy type first; among busy groups the lower avg_load; among groups
// with spare capacity more idle CPUs, then lower utilisation. Ties keep the
// earlier group. misfit would compare max capacities, all equal here: keep.
bool update_pick_idlest(const SgWakeupStats& idlest, const SgWakeupStats& sgs)
{
	if (sgs.group_type < idlest.group_type)
		return true;
	if (sgs.group_type > idlest.group_type)
		return false;
	switch (sgs.group_type) {
	case GroupType::overloaded:
	case GroupType::fully_busy:
		if (idlest.avg_load <= sgs.avg_load)
			return false;
		break;
	case GroupType::imbalanced:
	case GroupType::asym_packing:
	case GroupType::smt_balance:
	case GroupType::misfit_task:
		return false;
	case GroupType::has_spare:
		if (idlest.idle_cpus > sgs.idle_cpus)
			return false;
		if (idlest.idle_cpus == sgs.idle_cpus && idlest.group_util <= sgs.group_util)
			return false;
		break;
	}
	return true;
}

// The idlest group other than the local one, unless the local group is no
// busier: of a lower type, or of the same type and, for busy groups, within
// imbalance_pct (and 17% of a nice-0 load) of it, or for groups with spare
// capacity at least as many idle CPUs. Between NUMA nodes the local node
// is also kept while the remote one, given the same 17% allowance, is not
// lighter, and while the difference in idle CPUs is at most two and the
// local node would run no more than imb_numa_nr tasks (capped by the CPUs
// p may use there). The preferred-node tests of NUMA balancing compare
// with NUMA_NO_NODE while numa_balancing has never been on: never true.
const SchedGroup* sched_balance_find_dst_group(Machine& sim, const SchedDomain& sd, const Task& p,
					       u32 this_cpu)
{
	const Topology& topo = sim.topology();
	const bool allowed_only = wakeup_stats_allowed_only(sim);
	const SchedGroup* idlest = nullptr;
	const SchedGroup* local = nullptr;
	SgWakeupStats local_sgs;
	SgWakeupStats idlest_sgs;
	idlest_sgs.avg_load = UINT_MAX;
	idlest_sgs.group_type = GroupType::overloaded;

	for (u32 gi : sd.groups) {
		const SchedGroup& group = topo.group(gi);
		if (!group.span.intersects(p.cpus_ptr))
			continue;
		const bool local_group = group.span.test(this_cpu);
		const SgWakeupStats sgs = update_sg_wakeup_stats(sim, sd, group, p, allowed_only);
		if (local_group) {
			local = &group;
			local_sgs = sgs;
		} else if (update_pick_idlest(idlest_sgs, sgs)) {
			idlest = &group;
			idlest_sgs = sgs;
		}
	}

	if (!idlest)
		return nullptr;
	if (!local)
		return idlest;
	if (local_sgs.group_type < idlest_sgs.group_type)
		return nullptr;
	if (local_sgs.group_type > idlest_sgs.group_type)
		return idlest;

	switch (local_sgs.group_type) {
	case GroupType::overloaded:
	case GroupType::fully_busy: {
		const u64 imbalance = scale_load_down(NICE_0_LOAD) * (sd.imbalance_pct - 100) / 100;
		if ((sd.flags & SD_NUMA) && idlest_sgs.avg_load + imbalance >= local_sgs.avg_load)
			return nullptr;
		if (idlest_sgs.avg_load >= local_sgs.avg_load + imbalance)
			return nullptr;
		if (100 * local_sgs.avg_load <= sd.imbalance_pct * idlest_sgs.avg_load)
			return nullptr;
		break;
	}
	case GroupType::imbalanced:
	case GroupType::asym_packing:
	case GroupType::smt_balance:
	case GroupType::misfit_task:  // equal max capacities: stay
		return nullptr;
	case GroupType::has_spare:
		if (sd.flags & SD_NUMA) {
			// p->nr_cpus_allowed != NR_CPUS on any machine with fewer
			// possible CPUs than the build allows: always capped.
			const u32 imb_numa_nr = std::min((local->span & p.cpus_ptr).weight(), sd.imb_numa_nr);
			const s64 imbalance = std::abs(static_cast<s64>(local_sgs.idle_cpus) -
						       static_cast<s64>(idlest_sgs.idle_cpus));
			if (!adjust_numa_imbalance(imbalance, local_sgs.sum_nr_running + 1, imb_numa_nr))
				return nullptr;
		}
		if (local_sgs.idle_cpus >= idlest_sgs.idle_cpus)
			return nullptr;
		break;
	}
	return idlest;
}

// In a group of several CPUs: an idle CPU, preferring the shallowest idle
// state and, at equal depth, the one that went idle last (warmest cache);
// failing that the least loaded CPU met before any idle one. All idle CPUs
// are in the same state here, so the first idle CPU in span order is taken
// and a later one replaces it only with a strictly later idle_stamp.
u32 sched_balance_find_dst_group_cpu(const Machine& sim, const SchedGroup& group, const Task& p,
				     u32 this_cpu)
{
	if (group.weight == 1)
		return group.span.first();
	u64 min_load = ~0ULL;
	u32 min_exit_latency = UINT_MAX;
	u64 latest_idle_timestamp = 0;
	u32 least_loaded_cpu = this_cpu;
	u32 shallowest_idle_cpu = NO_TARGET;
	const CpuMask cpus = group.span & p.cpus_ptr;
	for (u32 i = cpus.first(); i < MAX_CPUS; i = cpus.next(i + 1)) {
		const Rq& rq = sim.rq(i);
		if (choose_sched_idle_rq(sim, i, p))
			return i;
		if (available_idle_cpu(sim, i)) {
			const u32 exit_latency = IDLE_STATE_EXIT_LATENCY;
			if (exit_latency < min_exit_latency) {
				min_exit_latency = exit_latency;
				latest_idle_timestamp = rq.idle_stamp;
				shallowest_idle_cpu = i;
			} else if (exit_latency == min_exit_latency && rq.idle_stamp > latest_idle_timestamp) {
				latest_idle_timestamp = rq.idle_stamp;
				shallowest_idle_cpu = i;
			}
		} else if (shallowest_idle_cpu == NO_TARGET) {
			const u64 load = cpu_load(rq.cfs.avg);
			if (load < min_load) {
				min_load = load;
				least_loaded_cpu = i;
			}
		}
	}
	return shallowest_idle_cpu != NO_TARGET ? shallowest_idle_cpu : least_loaded_cpu;
}

// From the highest domain with the flag downwards: pick the idlest group and
// CPU at each level; after a move, go on in the new CPU's domains below the
// level just used.
u32 sched_balance_find_dst_cpu(Machine& sim, SchedDomain* sd, Task& p, u32 cpu, u32 prev_cpu,
			       unsigned sd_flag)
{
	u32 new_cpu = cpu;
	if (!sd->span.intersects(p.cpus_ptr))
		return prev_cpu;
	// exec: bring p's averages up to its cfs_rq's last update for the
	// _without() sums. A new task has nothing to decay.
	if (!(sd_flag & SD_BALANCE_FORK))
		sync_entity_load_avg(task_cfs_rq(sim, p).avg, p.se.avg, se_weight_of(p.se.load));

	while (sd) {
		if (!(sd->flags & sd_flag)) {
			sd = sd->child;
			continue;
		}
		const SchedGroup* group = sched_balance_find_dst_group(sim, *sd, p, cpu);
		if (!group) {
			sd = sd->child;
			continue;
		}
		new_cpu = sched_balance_find_dst_group_cpu(sim, *group, p, cpu);
		if (new_cpu == cpu) {
			sd = sd->child;
			continue;
		}
		cpu = new_cpu;
		const u32 weight = sd->span_weight;
		sd = nullptr;
		for (SchedDomain* tmp = sim.topology_mut().sd(cpu); tmp; tmp = tmp->parent) {
			if (weight <= tmp->span_weight)
				break;
			if (tmp->flags & sd_flag)
				sd = tmp;
		}
	}
	return new_cpu;
}

}  // namespace selection

// A wake-up first records the waker/wakee pair, then decides whether the
// waker's CPU may be considered (not for "wide" wake-ups, not outside p's
// mask). Walking up from this CPU, the first SD_WAKE_AFFINE domain that also
// spans prev settles the affine choice and ends the walk; otherwise the
// highest domain carrying the SD_BALANCE_* flag of this wake-up (the low
// nibble of wake_flags) is remembered. A remembered domain sends p down the
// slow path (fork and exec, since no domain has SD_BALANCE_WAKE); a wake-up
// takes the fast path from the affine choice or prev.
u32 select_task_rq_fair(Machine& sim, Task& p, u32 prev_cpu, unsigned& wake_flags, u32 this_cpu)
{
	using namespace selection;
	const Task* cur = sim.curr_task(this_cpu);
	const bool sync = (wake_flags & WF_SYNC) && !(cur && cur->state == TaskState::Exited);
	u32 cpu = this_cpu;
	u32 new_cpu = prev_cpu;
	bool want_affine = false;
	const unsigned sd_flag = wake_flags & 0xF;
	// TTWU_QUEUE_DELAYED (experimental, the unmerged patch 12): run from the
	// delayed task's CPU with prev_cpu = the waker's; flipped so that the
	// waker's CPU is "this" and the task's the first target.
	if (wake_flags & WF_DELAYED)
		std::swap(cpu, new_cpu);

	if (wake_flags & WF_TTWU) {
		record_wakee(sim, p, this_cpu);
		want_affine = !wake_wide(sim, p, this_cpu) && p.cpus_ptr.test(cpu);
	}

	SchedDomain* sd = nullptr;
	for (SchedDomain* tmp = sim.topology_mut().sd(cpu); tmp; tmp = tmp->parent) {
		if (want_affine && (tmp->flags & SD_WAKE_AFFINE) && tmp->span.test(prev_cpu)) {
			if (cpu != prev_cpu)
				new_cpu = wake_affine(sim, *tmp, p, cpu, prev_cpu, sync);
			sd = nullptr;
			break;
		}
		if (tmp->flags & sd_flag)
			sd = tmp;
		else if (!want_affine)
			break;
	}

	if (sd)
		new_cpu = sched_balance_find_dst_cpu(sim, sd, p, cpu, prev_cpu, sd_flag);
	else if (wake_flags & WF_TTWU)
		new_cpu = select_idle_sibling(sim, p, prev_cpu, new_cpu);
	return new_cpu;
}

}  // namespace eevdf
