// SPDX-License-Identifier: GPL-2.0-only
// The load balancer of kernel/sched/fair.c, v6.18.44 (with the tick and
// idle hooks of core.c and the nohz cross-call nohz_csd_func()):
//
//   sched_balance_newidle()      a CPU about to go idle pulls (CPU_NEWLY_IDLE)
//   sched_balance_trigger()      from every busy tick: nohz_balancer_kick() and,
//     sched_balance_softirq()    when rq->next_balance is due, the periodic
//     sched_balance_domains()    balance of each due domain
//   _nohz_idle_balance()         an idle CPU kicked by a busy tick balances
//                                every tickless idle CPU (CPU_IDLE) and
//                                refreshes their blocked load
//   sched_balance_rq()           one domain: find_src_group -> find_src_rq ->
//                                detach_tasks -> attach_tasks, or an active
//                                balance by the busiest CPU's stopper
//
// One file per part; model/balance_internal.hpp holds what they share:
//   balance.cpp           this overview, and the periodic driver:
//                         sched_balance_softirq(), sched_balance_domains(),
//                         the balance intervals
//   balance_rq.cpp        sched_balance_rq() and active balancing
//   balance_find_src.cpp  the imbalance decision: sched_balance_find_src_group()
//                         and _rq(), calculate_imbalance(), sibling_imbalance()
//   balance_stats.cpp     update_sg_lb_stats(), update_sd_lb_stats(),
//                         update_idle_cpu_scan()
//   balance_tasks.cpp     the tasks an lb_env moves: can_migrate_task(),
//                         detach_tasks(), attach_tasks(), detach_one_task()
//   balance_newidle.cpp   sched_balance_newidle(), its cost and success ratio
//   balance_nohz.cpp      nohz: the kick, the idle CPUs' balance, idle entry
//                         and exit; the tick's sched_balance_trigger()
//
// The machine (model/topology.hpp): with SMT, SMT domains over each core
// (one group per thread); MC domains over each LLC with SD_SHARE_LLC and
// one group per core (carrying SMT's flags: SD_SHARE_CPUCAPACITY makes
// smt_balance() and the SMT tie rules apply) or per CPU; PKG over each node
// with one group per LLC (its groups carry MC's flags, so prefer_sibling
// holds there); with several nodes a NUMA domain over all, one group per
// node (SD_SERIALIZE, cache_nice_tries 2, calculate_imbalance()'s
// adjust_numa_imbalance(); numa_balancing never on, so fbq filtering and
// migrate_degrades_locality() decide nothing). Every CPU has capacity 1024:
// no RT/DL/IRQ pressure, no asymmetric capacity or packing, no EAS. The
// code for those cases is left out where it cannot be reached; each place
// says so.
//
// Versions. KernelPaths decides what changed: lb_skips_delayed (6.14+:
// runnable counts exclude delayed tasks, which only migrate_load may move;
// before that h_nr_running and no such refusal), lb_prefers_eligible (6.15+:
// an ineligible task is not pulled to a non-empty dst while the domain has
// no failures), newidle_bump_on_failure (6.17 .. 6.18.2: a failed newidle
// pass records 3/2 of the domain's max cost, the max capped at
// migration_cost + 200 ns). NI_RANDOM is a Feature (6.18.5+). Differences of
// 6.6.0 and 6.12.0 that cannot change a decision here:
// - 6.6.0 newidle_balance() resets continue_balancing per domain and stops
//   the domain walk when nr_running > 0 or ttwu_pending instead; in the
//   model nothing can be enqueued on the CPU during its own pass (a pass
//   takes no simulated time and NEWLY_IDLE computes no new_dst_cpu), so both
//   stop exactly when a pass pulled or should_we_balance() refused.
// - 6.12.0 aborts _nohz_idle_balance() on need_resched() alone, 6.18 on
//   need_resched() of a non-idle ILB; in the model the ILB's flag is only
//   set by a task attached to it, which makes it non-idle.
// - 6.6/6.12 set sg_overloaded at every level, 6.18 only at the root: only
//   the root's value is stored, in all three.
// - 6.6 and 6.12 serialise SD_SERIALIZE (NUMA) domains in the periodic
//   domain loop (a lost race skips the level), 6.18.44 and 7.1 inside
//   sched_balance_rq() for every idle type (a lost race is "balanced"): a
//   pass here takes no simulated time, so the lock is never contended.
// Differences that would change decisions and have no KernelPaths field
// (not implemented; the 6.6 preset balances like 6.12 here):
// - 6.6.0 detach_tasks() keeps looping past loop_max while LBF_ALL_PINNED is
//   set (up to loop_break), rotating more pinned tasks to the head of
//   cfs_tasks, and load_balance() retries a NEED_BREAK only while
//   loop < nr_running.
// - 6.6.0 migrate_util compares util with the imbalance without the
//   nr_balance_failed shift (only on PKG, between LLCs).
//
// CONFIG_PREEMPTION=y (PREEMPT_DYNAMIC distro kernels, the live one among
// them): a NEWLY_IDLE detach_tasks() stops after its first task.
//
// Simplifications (each also where it applies):
// - Time does not pass inside the balancer. A sched_balance_rq() pass costs
//   Knobs::balance_cost ns of sched_clock only for the newidle cost
//   accounting (see sched_balance_newidle()).
// - The SCHED_SOFTIRQ runs at once at the end of the tick that raised it;
//   the nohz_csd_func() cross-call is the IPI of Machine::send_nohz_kick().
// - Active balance: stop_one_cpu_nowait() is an IPI to the busiest CPU
//   (ACTIVE_STOP_KICK), whose stopper runs active_load_balance_cpu_stop() on
//   arrival. The stopper first preempts the running task
//   (Machine::stopper_preempt(): a switch to the idle task, since the model
//   has no stop class), then detaches one queued task (the preempted one
//   among them) and attaches it to push_cpu at once, as attach_one_task()
//   does under the target's lock; the busiest CPU picks afresh at the end
//   of the IPI, whichever task moved.
// - update_group_capacity() is left out: capacities never change.
// - jiffies start at 0, not INITIAL_JIFFIES; task_h_load()'s per-jiffy cache
//   (pelt.hpp) therefore reads 0 during jiffy 0.
// - A CPU that is idle from boot never ran the idle loop that would have
//   stopped its tick; the first call into the balancer enters every such
//   CPU into nohz (nohz_boot()).
//
#include "model/balance.hpp"

#include <algorithm>

#include "model/balance_internal.hpp"

namespace eevdf {
namespace balance_internal {

// ---------------------------------------------------------------- blocked load, periodic balance

// sched_balance_update_blocked_averages(): age the cfs_rqs on the CPU's
// leaf list to now (folding in what left them), front to back: children
// before parents, so that each group's entity takes in its cfs_rq's
// changes before its parent is aged, and the root last
// (__update_blocked_fair()). A cfs_rq found fully decayed leaves the list
// until an enqueue brings it back. has_blocked_load clears once every
// listed cfs_rq's load and util are 0.
void sched_balance_update_blocked_averages(Machine& sim, u32 cpu)
{
	Rq& rq = sim.rq_mut(cpu);
	BalanceCpu& b = bcpu(sim, cpu);
	b.last_blocked_load_update_tick = sim.jiffies();
	rq.cfs.clock_task = sim.now();
	bool has_blocked = false;
	// for_each_leaf_cfs_rq_safe(): the next entry is read before a step
	// that may take this one off the list.
	for (CfsRq *q = rq.cfs.leaf_first, *next; q; q = next) {
		next = q->leaf_next;
		has_blocked |= q->update_blocked_averages();
		if (q->cfs_rq_is_decayed())
			q->list_del_leaf_cfs_rq();
	}
	if (!has_blocked)
		b.has_blocked_load = false;
}

void sched_balance_domains(Machine& sim, u32 cpu, CpuIdleType idle, u32 exec_cpu)
{
	Rq& rq = sim.rq_mut(cpu);
	const Config& cfg = sim.config();
	bool continue_balancing = true;
	bool busy = idle != CPU_IDLE && !rq.sched_idle_rq();
	const u64 jiffies = sim.jiffies();
	u64 next_balance = jiffies + 60 * static_cast<u64>(cfg.hz);
	bool update_next = false, need_decay = false;
	u64 max_cost = 0;
	for (SchedDomain* sd = sim.topology_mut().sd(cpu); sd; sd = sd->parent) {
		// The regular visit that decays the newidle costs.
		need_decay = update_newidle_cost(sim, *sd, 0, 0);
		max_cost += sd->max_newidle_lb_cost;
		if (!continue_balancing) {
			if (need_decay)
				continue;
			break;
		}
		u64 interval = lb::get_sd_balance_interval(*sd, busy, cfg.hz, cfg.online_cpus);
		if (time_after_eq(jiffies, sd->last_balance + interval)) {
			if (sched_balance_rq(sim, cpu, *sd, idle, continue_balancing, exec_cpu)) {
				// LBF_DST_PINNED may have moved the tasks elsewhere.
				idle = rq.idle_cpu() ? CPU_IDLE : CPU_NOT_IDLE;
				busy = idle != CPU_IDLE && !rq.sched_idle_rq();
			}
			sd->last_balance = jiffies;
			interval = lb::get_sd_balance_interval(*sd, busy, cfg.hz, cfg.online_cpus);
		}
		if (time_after(next_balance, sd->last_balance + interval)) {
			next_balance = sd->last_balance + interval;
			update_next = true;
		}
	}
	if (need_decay)
		rq.max_idle_balance_cost = std::max(SYSCTL_SCHED_MIGRATION_COST, max_cost);
	if (update_next)
		rq.next_balance = next_balance;
}

// sched_balance_softirq() on `cpu`.
void sched_balance_softirq(Machine& sim, u32 cpu)
{
	const CpuIdleType idle = sim.rq(cpu).idle_balance ? CPU_IDLE : CPU_NOT_IDLE;
	// A kicked idle CPU balances for all tickless CPUs (itself last) and
	// not for itself alone.
	if (nohz_idle_balance(sim, cpu, idle))
		return;
	sched_balance_update_blocked_averages(sim, cpu);
	sched_balance_domains(sim, cpu, idle, cpu);
}

}  // namespace balance_internal

namespace lb {

// get_sd_balance_interval(): balance_interval ms, times busy_factor on a
// busy CPU (less one jiffy, so that levels do not line up), within
// [1, max_load_balance_interval = HZ * online CPUs / 10] jiffies.
u64 get_sd_balance_interval(const SchedDomain& sd, bool cpu_busy, u32 hz, u32 online_cpus)
{
	u64 interval = sd.balance_interval;
	if (cpu_busy)
		interval *= sd.busy_factor;
	interval = msecs_to_jiffies(interval, hz);
	if (cpu_busy)
		interval -= 1;
	const u64 max_load_balance_interval = static_cast<u64>(hz) * online_cpus / 10;
	return std::clamp<u64>(interval, 1, std::max<u64>(max_load_balance_interval, 1));
}

u64 msecs_to_jiffies(u64 ms, u32 hz) { return (ms * hz + 999) / 1000; }

}  // namespace lb
}  // namespace eevdf
