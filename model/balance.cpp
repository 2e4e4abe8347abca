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
// The machine (model/topology.hpp): MC domains over each LLC with
// SD_SHARE_LLC and one group per CPU, PKG over all CPUs with one group per
// LLC (its groups carry MC's flags, so prefer_sibling holds there). Every
// CPU has capacity 1024: no RT/DL/IRQ pressure, no SMT, no asymmetric
// capacity or packing, no NUMA, no EAS, no cgroups, no SCHED_IDLE tasks. The
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
// - 6.6 and 6.12 serialise SD_SERIALIZE (NUMA) domains differently: no such
//   domain here.
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
//   the nohz_csd_func() cross-call is the IPI of Simulation::send_nohz_kick().
// - Active balance: stop_one_cpu_nowait() is an IPI to the busiest CPU
//   (ACTIVE_STOP_KICK), whose stopper runs active_load_balance_cpu_stop() on
//   arrival. When the stopper takes the task that was running there, it
//   first preempts it (Simulation::stopper_preempt(): a switch to the idle
//   task, since the model has no stop class), then detaches it as a queued
//   task and attaches it to push_cpu at once, as attach_one_task() does
//   under the target's lock; the busiest CPU picks again at the end of the
//   IPI. When the stopper takes a queued task instead, the running one is
//   not preempted (the kernel's stopper would have switched it out and let
//   a fresh pick choose again).
// - update_group_capacity() is left out: capacities never change.
// - jiffies start at 0, not INITIAL_JIFFIES; task_h_load()'s per-jiffy cache
//   (pelt.hpp) therefore reads 0 during jiffy 0.
// - A CPU that is idle from boot never ran the idle loop that would have
//   stopped its tick; the first call into the balancer enters every such
//   CPU into nohz (nohz_boot()).
//
#include "model/balance.hpp"

#include <algorithm>
#include <climits>

#include "model/simulation.hpp"

namespace eevdf {

using lb::GroupType;
using lb::MigrationType;
using lb::SdLbStats;
using lb::SgLbStats;

namespace {

constexpr u32 SCHED_NR_MIGRATE_BREAK = 32;
constexpr u32 SYSCTL_SCHED_NR_MIGRATE = 32;
constexpr u32 MAX_PINNED_INTERVAL = 512;

enum : unsigned {
	LBF_ALL_PINNED = 0x01,
	LBF_NEED_BREAK = 0x02,
	LBF_DST_PINNED = 0x04,
	LBF_SOME_PINNED = 0x08,
	LBF_ACTIVE_LB = 0x10,
};

// include/linux/jiffies.h, on the model's u64 jiffies.
bool time_after(u64 a, u64 b) { return static_cast<s64>(b - a) < 0; }
bool time_after_eq(u64 a, u64 b) { return static_cast<s64>(a - b) >= 0; }
bool time_before(u64 a, u64 b) { return time_after(b, a); }

u64 shr_bound(u64 val, u32 shift) { return val >> std::min<u32>(shift, 63); }

struct LbEnv {
	Simulation* sim = nullptr;
	SchedDomain* sd = nullptr;
	u32 src_cpu = 0;
	u32 dst_cpu = 0;
	CpuMask dst_grpmask;
	u32 new_dst_cpu = 0;
	CpuIdleType idle = CPU_NOT_IDLE;
	s64 imbalance = 0;
	CpuMask cpus;
	unsigned flags = 0;
	u32 loop = 0, loop_break = SCHED_NR_MIGRATE_BREAK, loop_max = 0;
	MigrationType migration_type = MigrationType::load;
	// env->tasks: detached, not yet attached (at most loop_max <= 32).
	std::array<Task*, SYSCTL_SCHED_NR_MIGRATE> tasks{};
	u32 nr_tasks = 0;
	// The CPU running this code (smp_processor_id()): the ILB for a nohz
	// balance, the busiest CPU for its stopper. Decides what is an IPI.
	u32 this_cpu = 0;
	// active_load_balance_cpu_stop(): the stopper has preempted src's
	// running task, so no task of src counts as running.
	bool stopper = false;
};

const KernelPaths& paths(const Simulation& sim) { return sim.config().preset->paths; }
bool feat(const Simulation& sim, Feature f) { return sim.config().features[f]; }
PeltFeatures pelt_features(const Simulation& sim) { return PeltFeatures{feat(sim, Feature::UTIL_EST), true}; }
BalanceCpu& bcpu(Simulation& sim, u32 cpu) { return sim.balance_state().cpu[cpu]; }

// cfs.h_nr_runnable (6.14+) or cfs.h_nr_running (before: delayed tasks too).
u32 lb_h_nr_running(const Simulation& sim, const Rq& rq)
{
	return paths(sim).lb_skips_delayed ? rq.h_nr_runnable() : rq.nr_running();
}

u64 cpu_util_cfs_of(const Simulation& sim, const Rq& rq) { return cpu_util_cfs(rq.cfs.avg, pelt_features(sim)); }

// capacity_of() is 1024 on every CPU, so check_cpu_capacity() (capacity
// reduced by more than imbalance_pct) never holds.
constexpr bool check_cpu_capacity() { return false; }

// sched_rng(): the kernel's is a per-CPU prandom_u32_state() seeded at boot;
// the model draws from splitmix64 on Rq::rng_state (seeded per CPU).
u32 sched_rng(Rq& rq)
{
	u64 z = (rq.rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return static_cast<u32>((z ^ (z >> 31)) >> 32);
}

// list_move(&p->se.group_node, &rq->cfs_tasks): to the head (MRU end).
void cfs_tasks_move_head(CfsRq& cfs, SchedEntity* se)
{
	if (cfs.tasks_head == se)
		return;
	(se->group_prev ? se->group_prev->group_next : cfs.tasks_head) = se->group_next;
	(se->group_next ? se->group_next->group_prev : cfs.tasks_tail) = se->group_prev;
	se->group_prev = nullptr;
	se->group_next = cfs.tasks_head;
	if (cfs.tasks_head)
		cfs.tasks_head->group_prev = se;
	else
		cfs.tasks_tail = se;
	cfs.tasks_head = se;
}

// ---------------------------------------------------------------- detach / attach

// detach_task(): deactivate_task() + set_task_cpu() on the source, run on
// this_cpu (a resched the dequeue's update_curr() leaves on a remote
// source goes by IPI, in Simulation::detach_task()).
void detach_task(Simulation& sim, Task& p, u32 dst_cpu, u32 this_cpu) { sim.detach_task(p, dst_cpu, this_cpu); }

// attach_task(): activate_task() on p's new rq and wakeup_preempt() there,
// run on this_cpu. A delayed task arrives still delayed (the move's dequeue
// had no DEQUEUE_SLEEP).
void attach_task(Simulation& sim, Task& p, u32 this_cpu) { sim.attach_task(p, this_cpu); }

// ---------------------------------------------------------------- can_migrate_task

// task_hot(): fair tasks only (all are); a SCHED_IDLE task is never hot;
// SMT siblings share the cache (no SMT here); CACHE_HOT_BUDDY needs
// cfs_rq->next, which only NEXT_BUDDY sets (off);
// sysctl_sched_migration_cost is its default, so: hot iff p ran on the
// source less than 500 us ago. exec_start is 0 for a task that has
// not run since it was forked or migrated: cold. (The kernel gets that from
// rq_clock_task(), which has counted since boot; the model's clock starts
// at 0, so it tests exec_start == 0 itself: else a task forked at 0 would
// be hot for the first 500 us.)
bool task_hot(const LbEnv& env, const Task& p)
{
	if (p.se.idle_policy)
		return false;
	if (env.sd->flags & SD_SHARE_CPUCAPACITY)
		return false;
	if (p.se.exec_start == 0)
		return false;
	const s64 delta = static_cast<s64>(env.sim->now() - p.se.exec_start);
	return delta < static_cast<s64>(SYSCTL_SCHED_MIGRATION_COST);
}

// task_is_ineligible_on_dst_cpu() (6.15+).
bool task_is_ineligible_on_dst_cpu(const LbEnv& env, const Task& p)
{
	const Simulation& sim = *env.sim;
	return feat(sim, Feature::PLACE_LAG) && sim.rq(env.dst_cpu).cfs.nr_queued &&
	       !sim.rq(p.cpu).cfs.entity_eligible(&p.se);
}

// can_migrate_task(). `hot_gained`: the task was hot and moved anyway.
bool can_migrate_task(LbEnv& env, Task& p, bool& hot_gained)
{
	Simulation& sim = *env.sim;
	const KernelPaths& kp = paths(sim);
	hot_gained = false;
	if (kp.lb_skips_delayed && p.se.sched_delayed && env.migration_type != MigrationType::load &&
	    !sim.config().bugs[Bug::MIGRATE_DELAYED])
		return false;
	// No throttled hierarchies, per-CPU kthreads or proxy-blocked tasks.
	if (kp.lb_prefers_eligible && !env.sd->nr_balance_failed && task_is_ineligible_on_dst_cpu(env, p))
		return false;
	if (!p.cpus_ptr.test(env.dst_cpu)) {
		env.flags |= LBF_SOME_PINNED;
		if (env.idle == CPU_NEWLY_IDLE || (env.flags & (LBF_DST_PINNED | LBF_ACTIVE_LB)))
			return false;
		const u32 cpu = (env.dst_grpmask & env.cpus & p.cpus_ptr).first();
		if (cpu < MAX_CPUS) {
			env.flags |= LBF_DST_PINNED;
			env.new_dst_cpu = cpu;
		}
		return false;
	}
	env.flags &= ~LBF_ALL_PINNED;
	if (!env.stopper && sim.rq(env.src_cpu).cfs.curr == &p.se)
		return false;  // task_on_cpu()
	if (env.flags & LBF_ACTIVE_LB)
		return true;
	// No NUMA balancing: migrate_degrades_locality() is 0.
	const bool hot = task_hot(env, p);
	if (!hot || env.sd->nr_balance_failed > env.sd->cache_nice_tries) {
		hot_gained = hot;
		return true;
	}
	return false;
}

// detach_tasks(): from the tail (least recently picked) of the source's
// cfs_tasks, rotating every refused task to the head.
u32 detach_tasks(LbEnv& env)
{
	Simulation& sim = *env.sim;
	Rq& src = sim.rq_mut(env.src_cpu);
	BalanceCpu& stats = bcpu(sim, env.dst_cpu);
	if (src.nr_running() <= 1) {
		env.flags &= ~LBF_ALL_PINNED;
		return 0;
	}
	if (env.imbalance <= 0)
		return 0;
	u32 detached = 0;
	while (src.cfs.tasks_tail) {
		// An idle dst never takes the source's last task.
		if (env.idle != CPU_NOT_IDLE && src.nr_running() <= 1)
			break;
		env.loop++;
		if (env.loop > env.loop_max)
			break;
		if (env.loop > env.loop_break) {
			env.loop_break += SCHED_NR_MIGRATE_BREAK;
			env.flags |= LBF_NEED_BREAK;
			break;
		}
		SchedEntity* se = src.cfs.tasks_tail;
		Task& p = sim.task_mut(se->id);
		bool hot_gained = false;
		bool take = can_migrate_task(env, p, hot_gained);
		if (take) {
			switch (env.migration_type) {
			case MigrationType::load: {
				// LB_MIN is off.
				const u64 load = std::max<u64>(task_h_load(src.cfs.avg, p.se.avg, sim.jiffies()), 1);
				if (shr_bound(load, env.sd->nr_balance_failed) > static_cast<u64>(env.imbalance))
					take = false;
				else
					env.imbalance -= static_cast<s64>(load);
				break;
			}
			case MigrationType::util: {
				const u64 util = task_util_est(p.se.avg);
				if (shr_bound(util, env.sd->nr_balance_failed) > static_cast<u64>(env.imbalance))
					take = false;
				else
					env.imbalance -= static_cast<s64>(util);
				break;
			}
			case MigrationType::task:
				env.imbalance--;
				break;
			case MigrationType::misfit:
				take = false;  // task_fits_cpu(): every task fits a full-capacity CPU
				break;
			}
		}
		if (!take) {
			cfs_tasks_move_head(src.cfs, se);
			continue;
		}
		if (hot_gained)
			stats.lb_hot_gained[env.idle]++;
		detach_task(sim, p, env.dst_cpu, env.this_cpu);
		env.tasks[env.nr_tasks++] = &p;
		detached++;
		if (env.idle == CPU_NEWLY_IDLE)
			break;  // CONFIG_PREEMPTION
		if (env.imbalance <= 0)
			break;
	}
	stats.lb_gained[env.idle] += detached;
	return detached;
}

// attach_tasks(): env->tasks is a stack (list_add), attached from its top.
void attach_tasks(LbEnv& env)
{
	while (env.nr_tasks)
		attach_task(*env.sim, *env.tasks[--env.nr_tasks], env.this_cpu);
}

// ---------------------------------------------------------------- statistics

SgLbStats update_sg_lb_stats(LbEnv& env, const SchedGroup& group, bool local_group, bool& sg_overloaded)
{
	Simulation& sim = *env.sim;
	SgLbStats sgs;
	const bool balancing_at_rd = !env.sd->parent;
	(group.span & env.cpus).for_each([&](u32 i) {
		const Rq& rq = sim.rq(i);
		sgs.group_load += cpu_load(rq.cfs.avg);
		sgs.group_util += cpu_util_cfs_of(sim, rq);
		sgs.group_runnable += cpu_runnable(rq.cfs.avg);
		sgs.sum_h_nr_running += lb_h_nr_running(sim, rq);
		const u32 nr_running = rq.nr_running();
		sgs.sum_nr_running += nr_running;
		// cpu_overutilized() matters only with EAS.
		if (!nr_running && rq.idle_cpu()) {
			sgs.idle_cpus++;
			return;
		}
		if (balancing_at_rd && nr_running > 1)
			sg_overloaded = true;
		(void)local_group;  // misfit (ASYM_CPUCAPACITY or reduced capacity) cannot occur
	});
	sgs.group_capacity = group.capacity;
	sgs.group_weight = group.weight;
	// No SD_ASYM_PACKING, no SMT: group_asym_packing and group_smt_balance stay 0.
	sgs.group_type = lb::group_classify(env.sd->imbalance_pct, group.imbalance != 0, sgs);
	if (sgs.group_type == GroupType::overloaded)
		sgs.avg_load = sgs.group_load * SCHED_CAPACITY_SCALE / sgs.group_capacity;
	return sgs;
}

bool smt_vs_nonsmt_groups(unsigned flags1, unsigned flags2)
{
	return (flags1 & SD_SHARE_CPUCAPACITY) != (flags2 & SD_SHARE_CPUCAPACITY);
}

bool update_sd_pick_busiest(const SdLbStats& sds, const SchedGroup& sg, const SgLbStats& sgs)
{
	const SgLbStats& busiest = sds.busiest_stat;
	if (!sgs.sum_h_nr_running)
		return false;
	if (sgs.group_type > busiest.group_type)
		return true;
	if (sgs.group_type < busiest.group_type)
		return false;
	bool has_spare = false;
	switch (sgs.group_type) {
	case GroupType::overloaded:
		return sgs.avg_load > busiest.avg_load;
	case GroupType::imbalanced:
		return false;  // the first imbalanced group
	case GroupType::asym_packing:
		return false;  // unreachable: no SD_ASYM_PACKING
	case GroupType::misfit_task:
		return sgs.group_misfit_task_load > busiest.group_misfit_task_load;
	case GroupType::smt_balance:
		if (sgs.idle_cpus != 0 || busiest.idle_cpus != 0) {
			has_spare = true;
			break;
		}
		[[fallthrough]];
	case GroupType::fully_busy:
		// avg_load is 0 for both (computed for overloaded groups only), so
		// a later fully busy group replaces an earlier one unless that is SMT.
		if (sgs.avg_load < busiest.avg_load)
			return false;
		if (sgs.avg_load == busiest.avg_load && (sds.busiest_flags & SD_SHARE_CPUCAPACITY))
			return false;
		break;
	case GroupType::has_spare:
		if (sds.busiest >= 0 && smt_vs_nonsmt_groups(sds.busiest_flags, sg.flags))
			return !((sg.flags & SD_SHARE_CPUCAPACITY) && sgs.sum_h_nr_running <= 1);
		has_spare = true;
		break;
	}
	if (has_spare) {
		if (sgs.idle_cpus > busiest.idle_cpus)
			return false;
		if (sgs.idle_cpus == busiest.idle_cpus && sgs.sum_nr_running <= busiest.sum_nr_running)
			return false;
	}
	return true;  // no SD_ASYM_CPUCAPACITY
}

// update_idle_cpu_scan(): the SIS_UTIL hint, written by the balance of the
// LLC domain (not by newidle balancing).
void update_idle_cpu_scan(LbEnv& env, u64 sum_util)
{
	Simulation& sim = *env.sim;
	if (!feat(sim, Feature::SIS_UTIL) || env.idle == CPU_NEWLY_IDLE)
		return;
	Topology& topo = sim.topology_mut();
	const u32 llc_weight = topo.sd_llc_size(env.dst_cpu);
	if (env.sd->span_weight != llc_weight)
		return;
	SchedDomainShared* sd_share = topo.sd_llc_shared(env.dst_cpu);
	if (!sd_share)
		return;
	sd_share->nr_idle_scan = lb::idle_cpu_scan(sum_util, llc_weight, env.sd->imbalance_pct);
}

void update_sd_lb_stats(LbEnv& env, SdLbStats& sds)
{
	Simulation& sim = *env.sim;
	Topology& topo = sim.topology_mut();
	u64 sum_util = 0;
	bool sg_overloaded = false;
	for (u32 gi : env.sd->groups) {
		const SchedGroup& sg = topo.group(gi);
		const bool local_group = sg.span.test(env.dst_cpu);
		const SgLbStats sgs = update_sg_lb_stats(env, sg, local_group, sg_overloaded);
		if (local_group) {
			sds.local = static_cast<int>(gi);
			sds.local_stat = sgs;
			sds.local_cores = sg.weight;  // sg->cores: no SMT
			sds.local_flags = sg.flags;
		} else if (update_sd_pick_busiest(sds, sg, sgs)) {
			sds.busiest = static_cast<int>(gi);
			sds.busiest_stat = sgs;
			sds.busiest_cores = sg.weight;
			sds.busiest_flags = sg.flags;
		}
		sds.total_load += sgs.group_load;
		sds.total_capacity += sgs.group_capacity;
		sum_util += sgs.group_util;
	}
	// A group's flags are its child domain's.
	if (sds.busiest >= 0)
		sds.prefer_sibling = (sds.busiest_flags & SD_PREFER_SIBLING) != 0;
	if (!env.sd->parent)
		sim.balance_state().rd_overloaded = sg_overloaded;
	update_idle_cpu_scan(env, sum_util);
}

// sched_balance_find_src_group(): the busiest group's index, or -1.
int sched_balance_find_src_group(LbEnv& env)
{
	SdLbStats sds;
	sds.busiest_stat.idle_cpus = UINT_MAX;
	update_sd_lb_stats(env, sds);
	if (sds.busiest < 0) {
		env.imbalance = 0;
		return -1;
	}
	lb::ImbalanceEnv ie{env.idle, env.sd->flags, env.sd->imbalance_pct, MigrationType::load, 0};
	const bool found = lb::find_src_group_decide(ie, sds);
	env.migration_type = ie.migration_type;
	env.imbalance = found ? ie.imbalance : 0;
	return found ? sds.busiest : -1;
}

// sched_balance_find_src_rq(): the CPU of `group` to pull from, or -1.
int sched_balance_find_src_rq(LbEnv& env, const SchedGroup& group)
{
	Simulation& sim = *env.sim;
	int busiest = -1;
	u64 busiest_util = 0, busiest_load = 0, busiest_capacity = 1;
	u32 busiest_nr = 0;
	(group.span & env.cpus).for_each([&](u32 i) {
		const Rq& rq = sim.rq(i);
		const u32 nr_running = lb_h_nr_running(sim, rq);
		if (!nr_running)
			return;
		const u64 capacity = SCHED_CAPACITY_SCALE_CPU;
		switch (env.migration_type) {
		case MigrationType::load: {
			const u64 load = cpu_load(rq.cfs.avg);
			if (nr_running == 1 && load > static_cast<u64>(env.imbalance) && !check_cpu_capacity())
				break;
			if (load * busiest_capacity > busiest_load * capacity) {
				busiest_load = load;
				busiest_capacity = capacity;
				busiest = static_cast<int>(i);
			}
			break;
		}
		case MigrationType::util: {
			const u64 util = cpu_util_cfs_boost(rq.cfs.avg, true, pelt_features(sim));
			if (nr_running <= 1)
				return;
			if (busiest_util < util) {
				busiest_util = util;
				busiest = static_cast<int>(i);
			}
			break;
		}
		case MigrationType::task:
			if (busiest_nr < nr_running) {
				busiest_nr = nr_running;
				busiest = static_cast<int>(i);
			}
			break;
		case MigrationType::misfit:
			break;  // no rq has a misfit task
		}
	});
	return busiest;
}

// need_active_balance(): no asym packing, no reduced capacity, no misfit
// tasks here, so only repeated migrate_task failures ask for one.
bool need_active_balance(const LbEnv& env)
{
	const SchedDomain& sd = *env.sd;
	if (env.migration_type == MigrationType::task && sd.nr_balance_failed > sd.cache_nice_tries + 2)
		return true;
	return env.migration_type == MigrationType::misfit;
}

// should_we_balance(): newidle if nothing arrived meanwhile; otherwise only
// the first idle CPU of the local group, or its first CPU if none is idle
// (no SMT: every idle CPU is an idle core).
bool should_we_balance(const LbEnv& env)
{
	const Simulation& sim = *env.sim;
	if (!env.cpus.test(env.dst_cpu))
		return false;
	if (env.idle == CPU_NEWLY_IDLE) {
		const Rq& dst = sim.rq(env.dst_cpu);
		return !(dst.nr_running() > 0 || dst.ttwu_pending);
	}
	const SchedGroup& sg = sim.topology().group(env.sd->groups.front());
	const CpuMask swb = sg.span & env.cpus;
	for (u32 cpu = swb.first(); cpu < MAX_CPUS; cpu = swb.next(cpu + 1))
		if (sim.rq(cpu).idle_cpu())
			return cpu == env.dst_cpu;
	return sg.span.first() == env.dst_cpu;  // group_balance_cpu()
}

// ---------------------------------------------------------------- sched_balance_rq

int sched_balance_rq(Simulation& sim, u32 this_cpu, SchedDomain& sd, CpuIdleType idle, bool& continue_balancing,
		     u32 exec_cpu)
{
	Topology& topo = sim.topology_mut();
	BalanceCpu& stats = bcpu(sim, this_cpu);
	SchedDomain* sd_parent = sd.parent;
	LbEnv env;
	env.sim = &sim;
	env.sd = &sd;
	env.dst_cpu = this_cpu;
	env.dst_grpmask = topo.group(sd.groups.front()).span;  // group_balance_mask(sd->groups)
	env.idle = idle;
	env.cpus = sd.span;  // ∩ cpu_active_mask: all active
	env.this_cpu = exec_cpu;
	int ld_moved = 0;
	bool active_balance = false;
	int busiest_cpu = -1;

	sim.rq_mut(this_cpu).balance_attempts++;
	stats.lb_count[idle]++;

redo:
	if (!should_we_balance(env)) {
		continue_balancing = false;
		goto out_balanced;
	}
	{
		const int group = sched_balance_find_src_group(env);
		if (group < 0)
			goto out_balanced;
		busiest_cpu = sched_balance_find_src_rq(env, topo.group(static_cast<u32>(group)));
		if (busiest_cpu < 0)
			goto out_balanced;
	}
	env.src_cpu = static_cast<u32>(busiest_cpu);
	env.flags |= LBF_ALL_PINNED;
	if (sim.rq(env.src_cpu).nr_running() > 1) {
		// An imbalance with a single task on busiest stays one: ld_moved
		// stays 0 and it counts as a failure.
		env.loop_max = std::min(SYSCTL_SCHED_NR_MIGRATE, sim.rq(env.src_cpu).nr_running());
	more_balance:
		{
			const u32 cur_ld_moved = detach_tasks(env);
			if (cur_ld_moved) {
				attach_tasks(env);
				ld_moved += static_cast<int>(cur_ld_moved);
			}
		}
		if (env.flags & LBF_NEED_BREAK) {
			env.flags &= ~LBF_NEED_BREAK;
			goto more_balance;
		}
		// Tasks that may not run on dst but on another CPU of its group.
		if ((env.flags & LBF_DST_PINNED) && env.imbalance > 0) {
			env.cpus.clear(env.dst_cpu);
			env.dst_cpu = env.new_dst_cpu;
			env.flags &= ~LBF_DST_PINNED;
			env.loop = 0;
			env.loop_break = SCHED_NR_MIGRATE_BREAK;
			goto more_balance;
		}
		// Affinity defeated this level: the parent sees this group imbalanced.
		if (sd_parent && (env.flags & LBF_SOME_PINNED) && env.imbalance > 0)
			topo.group(sd_parent->groups.front()).imbalance = 1;
		if (env.flags & LBF_ALL_PINNED) {
			env.cpus.clear(env.src_cpu);
			if (!env.cpus.subset_of(env.dst_grpmask)) {
				env.loop = 0;
				env.loop_break = SCHED_NR_MIGRATE_BREAK;
				goto redo;
			}
			goto out_all_pinned;
		}
	}

	if (!ld_moved) {
		stats.lb_failed[idle]++;
		// Newidle balancing is too frequent to count failures.
		if (idle != CPU_NEWLY_IDLE && env.migration_type != MigrationType::misfit)
			sd.nr_balance_failed++;
		if (need_active_balance(env)) {
			// The running task of busiest must be allowed here (the idle
			// task is not).
			const Task* curr = sim.curr_task(env.src_cpu);
			if (!curr || !curr->cpus_ptr.test(this_cpu))
				goto out_one_pinned;
			env.flags &= ~LBF_ALL_PINNED;
			BalanceCpu& b = bcpu(sim, env.src_cpu);
			if (!b.active_balance) {
				b.active_balance = true;
				b.push_cpu = this_cpu;
				active_balance = true;
			}
			if (active_balance)
				sim.send_nohz_kick(env.src_cpu, ACTIVE_STOP_KICK);  // stop_one_cpu_nowait()
		}
	} else {
		sd.nr_balance_failed = 0;
	}
	if (!active_balance || need_active_balance(env))
		sd.balance_interval = sd.min_interval;  // unbalanced: back to the shortest interval
	return ld_moved;

out_balanced:
	// Balanced despite some affinity: the parent's flag is cleared once
	// other tasks had their chance.
	if (sd_parent && !(env.flags & LBF_ALL_PINNED))
		topo.group(sd_parent->groups.front()).imbalance = 0;
out_all_pinned:
	stats.lb_balanced[idle]++;
	sd.nr_balance_failed = 0;
out_one_pinned:
	// Newidle ignores intervals, so it must not lengthen them.
	if (env.idle == CPU_NEWLY_IDLE || env.migration_type == MigrationType::misfit)
		return 0;
	if (((env.flags & LBF_ALL_PINNED) && sd.balance_interval < MAX_PINNED_INTERVAL) ||
	    sd.balance_interval < sd.max_interval)
		sd.balance_interval *= 2;
	return 0;
}

// ---------------------------------------------------------------- newidle cost

}  // namespace

namespace lb {

// 7.x NI_RATE: the ratio also counts the time since the last refresh, one
// unit per 2^22 ns (~4.2 ms), so a domain whose 1024 calls took longer than
// ~4.3 s gets ratio 1024 and is always balanced. sched_clock() is the
// event's time (the model's balance costs do not move the clock).
void update_newidle_stats(const Simulation& sim, SchedDomain& sd, u32 success)
{
	sd.newidle_call++;
	sd.newidle_success += success;
	if (sd.newidle_call >= 1024) {
		if (paths(sim).newidle_rate) {
			const u64 now = sim.now();
			const s64 delta = std::max<s64>(0, static_cast<s64>(now - sd.newidle_stamp));
			sd.newidle_stamp = now;
			const u64 ratio = static_cast<u64>(delta >> 22) + sd.newidle_success;
			sd.newidle_ratio = static_cast<u32>(std::min<u64>(1024, ratio));
		} else {
			sd.newidle_ratio = sd.newidle_success;
		}
		sd.newidle_call /= 2;
		sd.newidle_success /= 2;
	}
}

}  // namespace lb

namespace {

using lb::update_newidle_stats;

// 155213a2aed4's bump: the 6.17 .. 6.18.2 presets, or Bug::NEWIDLE_BUMP on
// any other.
bool newidle_bump(const Simulation& sim)
{
	return paths(sim).newidle_bump_on_failure || sim.config().bugs[Bug::NEWIDLE_BUMP];
}

// update_newidle_cost(): the domain's max newidle cost, decayed by 253/256
// at most once a second. With the 6.17 bump it is capped at
// migration_cost + 200 ns. The success statistics are 6.18.5+'s (they
// change nothing without NI_RANDOM).
bool update_newidle_cost(const Simulation& sim, SchedDomain& sd, u64 cost, u32 success)
{
	const u64 next_decay = sd.last_decay_max_lb_cost + sim.config().hz;
	const u64 now = sim.jiffies();
	if (cost)
		update_newidle_stats(sim, sd, success);
	if (cost > sd.max_newidle_lb_cost) {
		sd.max_newidle_lb_cost =
			newidle_bump(sim) ? std::min(cost, SYSCTL_SCHED_MIGRATION_COST + 200) : cost;
		sd.last_decay_max_lb_cost = now;
	} else if (time_after(now, next_decay)) {
		sd.max_newidle_lb_cost = sd.max_newidle_lb_cost * 253 / 256;
		sd.last_decay_max_lb_cost = now;
		return true;
	}
	return false;
}

void update_next_balance(const Simulation& sim, const SchedDomain& sd, u64& next_balance)
{
	const u64 next = sd.last_balance + lb::get_sd_balance_interval(sd, false, sim.config().hz, sim.config().online_cpus);
	if (time_after(next_balance, next))
		next_balance = next;
}

// ---------------------------------------------------------------- blocked load, periodic balance

// sched_balance_update_blocked_averages(): age the root cfs_rq's averages
// to now (folding in what left it); has_blocked_load clears once they are 0.
void sched_balance_update_blocked_averages(Simulation& sim, u32 cpu)
{
	Rq& rq = sim.rq_mut(cpu);
	BalanceCpu& b = bcpu(sim, cpu);
	b.last_blocked_load_update_tick = sim.jiffies();
	rq.cfs.clock_task = sim.now();
	const CfsRqLoad load{rq.cfs.load, static_cast<u32>(rq.cfs.nr_queued - rq.cfs.nr_delayed), rq.cfs.curr != nullptr};
	update_cfs_rq_load_avg(rq.cfs.pelt_now(), rq.cfs.avg, load);  // cfs_rq_clock_pelt()
	const bool done = !(rq.cfs.avg.avg.load_avg || rq.cfs.avg.avg.util_avg);
	if (done)
		b.has_blocked_load = false;
}

void sched_balance_domains(Simulation& sim, u32 cpu, CpuIdleType idle, u32 exec_cpu)
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

// ---------------------------------------------------------------- nohz

void set_cpu_sd_state_idle(Simulation& sim, u32 cpu)
{
	SchedDomain* sd = sim.topology_mut().sd_llc(cpu);
	BalanceCpu& b = bcpu(sim, cpu);
	if (!sd || b.sd_llc_nohz_idle)
		return;
	b.sd_llc_nohz_idle = true;
	sd->shared->nr_busy_cpus--;
}

void set_cpu_sd_state_busy(Simulation& sim, u32 cpu)
{
	SchedDomain* sd = sim.topology_mut().sd_llc(cpu);
	BalanceCpu& b = bcpu(sim, cpu);
	if (!sd || !b.sd_llc_nohz_idle)
		return;
	b.sd_llc_nohz_idle = false;
	sd->shared->nr_busy_cpus++;
}

// The body of the kernel's nohz_balance_enter_idle().
void nohz_enter(Simulation& sim, u32 cpu)
{
	Rq& rq = sim.rq_mut(cpu);
	BalanceState& bs = sim.balance_state();
	bcpu(sim, cpu).has_blocked_load = true;
	if (!rq.nohz_idle) {
		if (!sim.topology().sd(cpu))
			return;  // on_null_domain()
		rq.nohz_idle = true;
		bs.nohz_idle_cpus.set(cpu);
		bs.nohz_nr_cpus++;
		set_cpu_sd_state_idle(sim, cpu);
		bs.nohz_needs_update = true;
	}
	// Each idle entry may leave blocked load to decay.
	bs.nohz_has_blocked = true;
}

void nohz_balance_exit_idle(Simulation& sim, u32 cpu)
{
	Rq& rq = sim.rq_mut(cpu);
	BalanceState& bs = sim.balance_state();
	if (!rq.nohz_idle)
		return;
	rq.nohz_idle = false;
	bs.nohz_idle_cpus.clear(cpu);
	bs.nohz_nr_cpus--;
	set_cpu_sd_state_busy(sim, cpu);
}

// The CPUs idle since the start of the run: their idle loop would have
// stopped the tick and entered them into nohz long before any workload.
void nohz_boot(Simulation& sim, u32 self)
{
	BalanceState& bs = sim.balance_state();
	if (bs.booted)
		return;
	bs.booted = true;
	for (u32 c = 0; c < sim.nr_cpus(); c++)
		if (c != self && sim.rq(c).idle_cpu())
			nohz_enter(sim, c);
}

int find_new_ilb(const Simulation& sim, u32 this_cpu)
{
	const CpuMask& m = sim.balance_state().nohz_idle_cpus;
	for (u32 c = m.first(); c < MAX_CPUS; c = m.next(c + 1)) {
		if (c == this_cpu)
			continue;
		if (sim.rq(c).idle_cpu())
			return static_cast<int>(c);
	}
	return -1;
}

// kick_ilb(): the first idle CPU of the nohz mask gets the IPI, unless
// those kicks are pending there already.
void kick_ilb(Simulation& sim, unsigned flags, u32 this_cpu)
{
	BalanceState& bs = sim.balance_state();
	if (flags & NOHZ_BALANCE_KICK)
		bs.nohz_next_balance = sim.jiffies() + 1;
	const int ilb = find_new_ilb(sim, this_cpu);
	if (ilb < 0)
		return;
	BalanceCpu& b = bcpu(sim, static_cast<u32>(ilb));
	if ((b.nohz_flags & flags) == flags)
		return;
	const unsigned old = b.nohz_flags;
	b.nohz_flags |= flags;
	if (old & NOHZ_KICK_MASK)
		return;  // the owner of the pending kick sends the IPI
	bcpu(sim, this_cpu).nohz_kicks++;
	sim.send_nohz_kick(static_cast<u32>(ilb), flags);
}

// nohz_balancer_kick(), from a busy tick. Kicks balance when more than one
// task waits here or more than one CPU of the LLC is busy; reduced
// capacity, asym packing and misfit tasks do not occur.
void nohz_balancer_kick(Simulation& sim, u32 cpu)
{
	const Rq& rq = sim.rq(cpu);
	BalanceState& bs = sim.balance_state();
	const u64 now = sim.jiffies();
	unsigned flags = 0;
	if (rq.idle_balance)
		return;
	nohz_balance_exit_idle(sim, cpu);
	if (!bs.nohz_nr_cpus)
		return;
	if (bs.nohz_has_blocked && time_after(now, bs.nohz_next_blocked))
		flags = NOHZ_STATS_KICK;
	if (!time_before(now, bs.nohz_next_balance) && !sim.config().bugs[Bug::NOHZ_KICK_STATS_ONLY]) {
		if (rq.nr_running() >= 2) {
			flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
		} else if (const SchedDomainShared* sds = sim.topology().sd_llc_shared(cpu)) {
			if (sds->nr_busy_cpus > 1)
				flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
		}
	}
	if (bs.nohz_needs_update)
		flags |= NOHZ_NEXT_KICK;
	if (flags)
		kick_ilb(sim, flags, cpu);
}

bool update_nohz_stats(Simulation& sim, u32 cpu)
{
	BalanceCpu& b = bcpu(sim, cpu);
	if (!b.has_blocked_load)
		return false;
	if (!sim.balance_state().nohz_idle_cpus.test(cpu))
		return false;
	if (!time_after(sim.jiffies(), b.last_blocked_load_update_tick))
		return true;
	sched_balance_update_blocked_averages(sim, cpu);
	return b.has_blocked_load;
}

// _nohz_idle_balance() on this_cpu: every tickless idle CPU, starting after
// this one and ending with it, gets its blocked load refreshed (STATS) and,
// when due, a CPU_IDLE balance of its own domains (BALANCE).
void nohz_idle_balance_all(Simulation& sim, u32 this_cpu, unsigned flags)
{
	BalanceState& bs = sim.balance_state();
	const u64 now = sim.jiffies();
	u64 next_balance = now + 60 * static_cast<u64>(sim.config().hz);
	bool has_blocked_load = false, update_next = false, aborted = false;
	if (flags & NOHZ_STATS_KICK)
		bs.nohz_has_blocked = false;
	if (flags & NOHZ_NEXT_KICK)
		bs.nohz_needs_update = false;
	const CpuMask mask = bs.nohz_idle_cpus;  // nothing enters or leaves it during the walk
	mask.for_each_wrap(this_cpu + 1, [&](u32 balance_cpu) {
		if (aborted || !sim.rq(balance_cpu).idle_cpu())
			return;
		// Work arrived here: leave the rest to the next owner.
		if (!sim.rq(this_cpu).idle_cpu() && sim.rq(this_cpu).cfs.need_resched) {
			if (flags & NOHZ_STATS_KICK)
				has_blocked_load = true;
			if (flags & NOHZ_NEXT_KICK)
				bs.nohz_needs_update = true;
			aborted = true;
			return;
		}
		if (flags & NOHZ_STATS_KICK)
			has_blocked_load |= update_nohz_stats(sim, balance_cpu);
		Rq& rq = sim.rq_mut(balance_cpu);
		if (time_after_eq(sim.jiffies(), rq.next_balance)) {
			rq.cfs.clock_task = sim.now();
			if (flags & NOHZ_BALANCE_KICK)
				sched_balance_domains(sim, balance_cpu, CPU_IDLE, this_cpu);
		}
		if (time_after(next_balance, rq.next_balance)) {
			next_balance = rq.next_balance;
			update_next = true;
		}
	});
	if (!aborted) {
		if (update_next)
			bs.nohz_next_balance = next_balance;
		if (flags & NOHZ_STATS_KICK)
			bs.nohz_next_blocked = now + lb::msecs_to_jiffies(LOAD_AVG_PERIOD, sim.config().hz);
	}
	if (has_blocked_load)
		bs.nohz_has_blocked = true;
}

// nohz_idle_balance() from the softirq: the kick this CPU received.
bool nohz_idle_balance(Simulation& sim, u32 cpu, CpuIdleType idle)
{
	BalanceCpu& b = bcpu(sim, cpu);
	const unsigned flags = b.nohz_idle_balance;
	if (!flags)
		return false;
	b.nohz_idle_balance = 0;
	if (idle != CPU_IDLE)
		return false;
	nohz_idle_balance_all(sim, cpu, flags);
	return true;
}

// nohz_newidle_balance(): a CPU going idle for a while refreshes the idle
// CPUs' blocked load itself, from do_idle(), when it is due.
void nohz_newidle_balance(Simulation& sim, u32 cpu)
{
	const BalanceState& bs = sim.balance_state();
	if (sim.rq(cpu).avg_idle < SYSCTL_SCHED_MIGRATION_COST)
		return;
	if (!bs.nohz_has_blocked || time_before(sim.jiffies(), bs.nohz_next_blocked))
		return;
	bcpu(sim, cpu).nohz_flags |= NOHZ_NEWILB_KICK;
}

// nohz_run_idle_balance(), at the top of do_idle(): only if no other kick
// is pending (its softirq would do the same) and nothing is to run.
void nohz_run_idle_balance(Simulation& sim, u32 cpu)
{
	BalanceCpu& b = bcpu(sim, cpu);
	const unsigned flags = b.nohz_flags;
	b.nohz_flags &= ~NOHZ_NEWILB_KICK;
	if (flags == NOHZ_NEWILB_KICK && !sim.rq(cpu).cfs.need_resched)
		nohz_idle_balance_all(sim, cpu, NOHZ_STATS_KICK);
}

// sched_balance_softirq() on `cpu`.
void sched_balance_softirq(Simulation& sim, u32 cpu)
{
	const CpuIdleType idle = sim.rq(cpu).idle_balance ? CPU_IDLE : CPU_NOT_IDLE;
	// A kicked idle CPU balances for all tickless CPUs (itself last) and
	// not for itself alone.
	if (nohz_idle_balance(sim, cpu, idle))
		return;
	sched_balance_update_blocked_averages(sim, cpu);
	sched_balance_domains(sim, cpu, idle, cpu);
}

// ---------------------------------------------------------------- active balance

// detach_one_task(): the first movable task from the tail, no rotation.
Task* detach_one_task(LbEnv& env)
{
	Simulation& sim = *env.sim;
	Rq& src = sim.rq_mut(env.src_cpu);
	for (SchedEntity* se = src.cfs.tasks_tail; se; se = se->group_prev) {
		Task& p = sim.task_mut(se->id);
		bool hot_gained = false;
		if (!can_migrate_task(env, p, hot_gained))
			continue;
		if (src.cfs.curr == &p.se) {
			// The stopper preempted p: a queued task now, moved like any other;
			// this CPU picks again when the stopper is done.
			sim.stopper_preempt(env.src_cpu);
			src.cfs.need_resched = true;
		}
		detach_task(sim, p, env.dst_cpu, env.src_cpu);
		attach_task(sim, p, env.src_cpu);  // attach_one_task()
		return &p;
	}
	return nullptr;
}

// active_load_balance_cpu_stop() on the busiest CPU: push one task to
// push_cpu, through the lowest domain of push_cpu that spans both.
void active_load_balance_cpu_stop(Simulation& sim, u32 busiest_cpu)
{
	BalanceCpu& b = bcpu(sim, busiest_cpu);
	const u32 target_cpu = b.push_cpu;
	if (b.active_balance && sim.rq(busiest_cpu).nr_running() > 0 && target_cpu != busiest_cpu) {
		// nr_running counts the stopper itself: one fair task is enough.
		SchedDomain* sd = sim.topology_mut().sd(target_cpu);
		while (sd && !sd->span.test(busiest_cpu))
			sd = sd->parent;
		if (sd) {
			LbEnv env;
			env.sim = &sim;
			env.sd = sd;
			env.dst_cpu = target_cpu;
			env.src_cpu = busiest_cpu;
			env.idle = CPU_IDLE;
			env.flags = LBF_ACTIVE_LB;
			env.migration_type = MigrationType::load;  // zero-initialised in the kernel's env
			env.this_cpu = busiest_cpu;
			env.stopper = true;
			BalanceCpu& t = bcpu(sim, target_cpu);
			t.alb_count++;
			if (detach_one_task(env)) {
				t.alb_pushed++;
				sd->nr_balance_failed = 0;
			} else {
				t.alb_failed++;
			}
		}
	}
	b.active_balance = false;
}

}  // namespace

// ---------------------------------------------------------------- entry points

void sched_balance_trigger(Simulation& sim, u32 cpu)
{
	nohz_boot(sim, cpu);
	Rq& rq = sim.rq_mut(cpu);
	rq.idle_balance = rq.idle_cpu();
	if (!sim.topology().sd(cpu))
		return;  // on_null_domain()
	// The softirq is raised now and runs after the tick's kick.
	const bool due = time_after_eq(sim.jiffies(), rq.next_balance);
	nohz_balancer_kick(sim, cpu);
	if (due)
		sched_balance_softirq(sim, cpu);
}

// sched_balance_newidle(). The gate: a root domain with some CPU running
// two or more tasks, and an expected idle time (avg_idle) above what
// balancing has cost. Then the domains bottom up while avg_idle still
// covers the cost so far plus the domain's max; NI_RANDOM runs a domain's
// pass with probability (1 + newidle_ratio) / 1024 (ratio = successes per
// 1024 calls) and weights a success by the inverse of that.
//
// Cost: every pass takes Knobs::balance_cost of sched_clock. With 0 (the
// default) no pass has a cost: max_newidle_lb_cost stays 0, so the avg_idle
// gates never close, max_idle_balance_cost stays 500 us, the 6.17 bump
// (3/2 of 0) bumps nothing, and update_newidle_cost() records no success
// (it updates the statistics only for a nonzero cost) while NI_RANDOM's
// skips still count as calls: newidle_ratio then falls by half every 512
// skips, towards 0, where a pass runs with probability 2/1024. A positive
// cost c makes the gate the kernel's: a domain is skipped once avg_idle <
// (cost so far) + c, and with the bump its max grows by 3/2 per failed pass
// up to 500.2 us, so newidle balancing then needs avg_idle of about 0.5 ms.
int sched_balance_newidle(Simulation& sim, u32 cpu)
{
	nohz_boot(sim, cpu);
	Rq& rq = sim.rq_mut(cpu);
	BalanceState& bs = sim.balance_state();
	BalanceCpu& b = bcpu(sim, cpu);
	const Config& cfg = sim.config();
	u64 next_balance = sim.jiffies() + cfg.hz;
	int pulled_task = 0;
	// No misfit status to update.
	if (rq.ttwu_pending)
		return 0;  // a task is on its way
	rq.idle_stamp = sim.now();  // the balance counts as idle time
	b.newidle_calls++;
	SchedDomain* sd = sim.topology_mut().sd(cpu);
	if (sd) {
		if (!bs.rd_overloaded || rq.avg_idle < sd->max_newidle_lb_cost) {
			b.newidle_gated++;
			update_next_balance(sim, *sd, next_balance);
		} else {
			u64 clock = sim.now();  // sched_clock_cpu()
			u64 t0 = clock, curr_cost = 0;
			bool continue_balancing = true;
			sched_balance_update_blocked_averages(sim, cpu);
			for (; sd; sd = sd->parent) {
				update_next_balance(sim, *sd, next_balance);
				if (rq.avg_idle < curr_cost + sd->max_newidle_lb_cost)
					break;
				if (sd->flags & SD_BALANCE_NEWIDLE) {
					u32 weight = 1;
					if (feat(sim, Feature::NI_RANDOM) &&
					    (!paths(sim).newidle_rate || sd->newidle_ratio < 1024)) {
						const u32 d1k = sched_rng(rq) % 1024;
						weight = 1 + sd->newidle_ratio;
						if (d1k > weight) {
							b.newidle_skipped++;
							update_newidle_stats(sim, *sd, 0);
							continue;
						}
						weight = (1024 + weight / 2) / weight;
					}
					pulled_task = sched_balance_rq(sim, cpu, *sd, CPU_NEWLY_IDLE, continue_balancing, cpu);
					clock += cfg.knobs.balance_cost;
					u64 domain_cost = clock - t0;
					curr_cost += domain_cost;
					t0 = clock;
					// 6.17 .. 6.18.2: a failure is recorded as 3/2 of the max.
					if (newidle_bump(sim) && !pulled_task)
						domain_cost = 3 * sd->max_newidle_lb_cost / 2;
					update_newidle_cost(sim, *sd, domain_cost, weight * (pulled_task ? 1u : 0u));
				}
				if (pulled_task || !continue_balancing)
					break;
			}
			if (curr_cost > rq.max_idle_balance_cost)
				rq.max_idle_balance_cost = curr_cost;
			if (rq.cfs.nr_queued && !pulled_task)
				pulled_task = 1;
			// Only the fair class exists: nr_running == cfs.h_nr_queued.
		}
	}
	if (time_after(rq.next_balance, next_balance))
		rq.next_balance = next_balance;
	if (pulled_task)
		rq.idle_stamp = 0;
	else
		nohz_newidle_balance(sim, cpu);
	return pulled_task;
}

void nohz_balance_enter_idle(Simulation& sim, u32 cpu)
{
	nohz_boot(sim, cpu);
	nohz_run_idle_balance(sim, cpu);  // do_idle() runs it before stopping the tick
	nohz_enter(sim, cpu);
}

// nohz_csd_func(): the kick is taken; an idle CPU runs its softirq at once.
// The model's stopper bit rides on the same IPI: the softirq first, then the
// stopper (a thread, after the IRQ exit).
void nohz_csd_func(Simulation& sim, u32 cpu, unsigned flags)
{
	nohz_boot(sim, MAX_CPUS);
	BalanceCpu& b = bcpu(sim, cpu);
	const unsigned kick = b.nohz_flags & (NOHZ_KICK_MASK | NOHZ_NEWILB_KICK);
	b.nohz_flags &= ~(NOHZ_KICK_MASK | NOHZ_NEWILB_KICK);
	if (kick & NOHZ_KICK_MASK) {
		Rq& rq = sim.rq_mut(cpu);
		rq.idle_balance = rq.idle_cpu();
		if (rq.idle_balance) {
			b.nohz_idle_balance = kick;
			sched_balance_softirq(sim, cpu);
		}
	}
	if (flags & ACTIVE_STOP_KICK)
		active_load_balance_cpu_stop(sim, cpu);
}

// ---------------------------------------------------------------- the pure steps

namespace lb {

// sibling_imbalance(): the difference in tasks, normalised by cores when
// the groups differ in size; an empty local group takes at least two.
s64 sibling_imbalance(const ImbalanceEnv& env, const SdLbStats& sds, const SgLbStats& busiest,
		      const SgLbStats& local)
{
	if (!env.idle || !busiest.sum_nr_running)
		return 0;
	const s64 ncores_busiest = sds.busiest_cores, ncores_local = sds.local_cores;
	s64 imbalance;
	if (ncores_busiest == ncores_local) {
		imbalance = busiest.sum_nr_running;
		imbalance = std::max<s64>(imbalance - local.sum_nr_running, 0);  // lsub_positive()
		return imbalance;
	}
	imbalance = ncores_local * busiest.sum_nr_running;
	imbalance = std::max<s64>(imbalance - ncores_busiest * local.sum_nr_running, 0);
	imbalance = 2 * imbalance + ncores_local + ncores_busiest;
	imbalance /= ncores_local + ncores_busiest;
	if (imbalance <= 1 && local.sum_nr_running == 0 && busiest.sum_nr_running > 1)
		imbalance = 2;
	return imbalance;
}

void calculate_imbalance(ImbalanceEnv& env, SdLbStats& sds)
{
	SgLbStats& local = sds.local_stat;
	const SgLbStats& busiest = sds.busiest_stat;
	if (busiest.group_type == GroupType::misfit_task) {
		if (env.sd_flags & SD_ASYM_CPUCAPACITY) {
			env.migration_type = MigrationType::misfit;
			env.imbalance = 1;
		} else {
			env.migration_type = MigrationType::load;
			env.imbalance = static_cast<s64>(busiest.group_misfit_task_load);
		}
		return;
	}
	if (busiest.group_type == GroupType::asym_packing) {
		env.migration_type = MigrationType::task;
		env.imbalance = busiest.sum_h_nr_running;
		return;
	}
	if (busiest.group_type == GroupType::smt_balance || busiest.group_type == GroupType::imbalanced) {
		// Move any one task; the next balance evens out the rest.
		env.migration_type = MigrationType::task;
		env.imbalance = 1;
		return;
	}
	if (local.group_type == GroupType::has_spare) {
		if (busiest.group_type > GroupType::fully_busy && !(env.sd_flags & SD_SHARE_LLC)) {
			// Fill the local spare capacity from an overloaded group.
			env.migration_type = MigrationType::util;
			env.imbalance = static_cast<s64>(std::max(local.group_capacity, local.group_util) - local.group_util);
			if (env.idle && env.imbalance == 0) {
				env.migration_type = MigrationType::task;
				env.imbalance = 1;
			}
			return;
		}
		if (busiest.group_weight == 1 || sds.prefer_sibling) {
			env.migration_type = MigrationType::task;
			env.imbalance = sibling_imbalance(env, sds, busiest, local);
		} else {
			// Even out idle CPUs; the unsigned difference wraps when local
			// has fewer (max_t(long, 0, u32) keeps it).
			env.migration_type = MigrationType::task;
			env.imbalance = static_cast<s64>(static_cast<u32>(local.idle_cpus - busiest.idle_cpus));
		}
		env.imbalance >>= 1;  // half the difference moves
		return;
	}
	if (local.group_type < GroupType::overloaded) {
		// Local fully busy will become overloaded: now avg_load counts.
		local.avg_load = local.group_load * SCHED_CAPACITY_SCALE / local.group_capacity;
		if (local.avg_load >= busiest.avg_load) {
			env.imbalance = 0;
			return;
		}
		sds.avg_load = sds.total_load * SCHED_CAPACITY_SCALE / sds.total_capacity;
		if (local.avg_load >= sds.avg_load) {
			env.imbalance = 0;
			return;
		}
	}
	// Both at or towards the domain average, neither crossing it.
	env.migration_type = MigrationType::load;
	env.imbalance = static_cast<s64>(std::min((busiest.avg_load - sds.avg_load) * busiest.group_capacity,
						  (sds.avg_load - local.avg_load) * local.group_capacity) /
					 SCHED_CAPACITY_SCALE);
}

SdLbStats two_cpu_lb_stats(const SgLbStats& local, const SgLbStats& busiest)
{
	SdLbStats sds;
	sds.local_stat = local;
	sds.busiest_stat = busiest;
	sds.local = 0;
	sds.busiest = 1;
	sds.total_load = local.group_load + busiest.group_load;
	sds.total_capacity = local.group_capacity + busiest.group_capacity;
	sds.local_cores = sds.busiest_cores = 1;
	return sds;
}

bool find_src_group_decide(ImbalanceEnv& env, SdLbStats& sds)
{
	const SgLbStats& busiest = sds.busiest_stat;
	const SgLbStats& local = sds.local_stat;
	bool force = busiest.group_type == GroupType::misfit_task || busiest.group_type == GroupType::asym_packing ||
		     busiest.group_type == GroupType::imbalanced;
	// (No perf domains: the EAS "not overutilized" exit does not apply.)
	if (!force) {
		if (local.group_type > busiest.group_type)
			goto balanced;
		if (local.group_type == GroupType::overloaded) {
			if (local.avg_load >= busiest.avg_load)
				goto balanced;
			sds.avg_load = sds.total_load * SCHED_CAPACITY_SCALE / sds.total_capacity;
			if (local.avg_load >= sds.avg_load)
				goto balanced;
			if (100 * busiest.avg_load <= env.imbalance_pct * local.avg_load)
				goto balanced;  // within imbalance_pct: leave it
		}
		if (sds.prefer_sibling && local.group_type == GroupType::has_spare &&
		    sibling_imbalance(env, sds, busiest, local) > 1) {
			force = true;
		} else if (busiest.group_type != GroupType::overloaded) {
			// A busy CPU never pulls from a group that is not overloaded.
			if (!env.idle)
				goto balanced;
			if (busiest.group_type == GroupType::smt_balance &&
			    smt_vs_nonsmt_groups(sds.local_flags, sds.busiest_flags)) {
				force = true;
			} else {
				if (busiest.group_weight > 1 && local.idle_cpus <= busiest.idle_cpus + 1)
					goto balanced;
				if (busiest.sum_h_nr_running == 1)
					goto balanced;  // nothing waits there
			}
		}
	}
	calculate_imbalance(env, sds);
	return env.imbalance != 0;
balanced:
	env.imbalance = 0;
	return false;
}

// update_idle_cpu_scan(): y = 1024 - (x * pct)^2 / (10^4 * 1024) with x
// the average utilisation of the LLC's CPUs, so the scan reaches 0 where
// the LLC would count as overloaded (x = 1024 * 100 / pct).
u32 idle_cpu_scan(u64 sum_util, u32 llc_weight, u32 imbalance_pct)
{
	const u64 x = sum_util / llc_weight;
	const u64 pct = imbalance_pct;
	u64 tmp = x * x * pct * pct / (10000 * SCHED_CAPACITY_SCALE);
	tmp = static_cast<u64>(std::min<s64>(static_cast<s64>(tmp), static_cast<s64>(SCHED_CAPACITY_SCALE)));
	u64 y = SCHED_CAPACITY_SCALE - tmp;
	y *= llc_weight;
	y /= SCHED_CAPACITY_SCALE;
	return static_cast<u32>(y);
}

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
