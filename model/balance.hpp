// SPDX-License-Identifier: GPL-2.0-only
// Load balancing (kernel/sched/fair.c, v6.18.44): newidle, periodic and nohz
// idle balancing, sched_balance_rq() and active balancing. See
// model/balance.cpp for what each part follows and what is simplified.
#pragma once

#include <array>

#include "model/cpumask.hpp"
#include "model/types.hpp"

#include "model/sg_lb_stats.hpp"

namespace eevdf {

class Machine;
struct SchedDomain;

// kernel/sched/sched.h: the nohz_flags() bits a kick carries.
enum : unsigned {
	NOHZ_BALANCE_KICK = 1u << 0,
	NOHZ_STATS_KICK = 1u << 1,
	NOHZ_NEWILB_KICK = 1u << 2,
	NOHZ_NEXT_KICK = 1u << 3,
	NOHZ_KICK_MASK = NOHZ_BALANCE_KICK | NOHZ_STATS_KICK | NOHZ_NEXT_KICK,
	// The model's own bits on the same IPI (Machine::send_nohz_kick()),
	// never set by the kernel's code: the CPU stopper's wake-up on the
	// busiest CPU (active balance).
	ACTIVE_STOP_KICK = 1u << 30,
};

// enum cpu_idle_type (include/linux/sched/idle.h).
enum CpuIdleType : unsigned { CPU_NOT_IDLE = 0, CPU_IDLE = 1, CPU_NEWLY_IDLE = 2, CPU_MAX_IDLE_TYPES = 3 };

// Per-CPU balancer state that the kernel keeps in struct rq (and the
// per-CPU sd_llc's nohz_idle), plus schedstat-like counters.
struct BalanceCpu {
	unsigned nohz_flags = 0;         // nohz_flags(cpu): kicks pending on this CPU
	unsigned nohz_idle_balance = 0;  // rq->nohz_idle_balance: the kick the softirq is to run
	bool has_blocked_load = false;   // rq->has_blocked_load
	u64 last_blocked_load_update_tick = 0;  // jiffies
	bool sd_llc_nohz_idle = false;   // sd_llc->nohz_idle of this CPU
	// rq->active_balance / push_cpu.
	bool active_balance = false;
	u32 push_cpu = 0;
	// schedstats (kernel/sched/stats.c names), indexed by CpuIdleType.
	std::array<u64, CPU_MAX_IDLE_TYPES> lb_count{}, lb_balanced{}, lb_failed{}, lb_gained{}, lb_hot_gained{};
	u64 alb_count = 0, alb_pushed = 0, alb_failed = 0;
	u64 newidle_calls = 0;    // sched_balance_newidle() entries that got past ttwu_pending
	u64 newidle_gated = 0;    // stopped by !overloaded or avg_idle < max_newidle_lb_cost
	u64 newidle_skipped = 0;  // domain passes NI_RANDOM skipped
	u64 nohz_kicks = 0;       // kick_ilb() IPIs sent from this CPU
};

// State of the balancer that is not per rq or per domain: the root
// domain's overload flag, the nohz idle-balance bookkeeping (the kernel's
// `nohz` struct) and the per-CPU fields above. Held by the Machine.
struct BalanceState {
	bool rd_overloaded = false;  // rd->overloaded (also set by add_nr_running(), Simulation::enqueue_task)
	CpuMask nohz_idle_cpus;      // nohz.idle_cpus_mask
	u32 nohz_nr_cpus = 0;
	u64 nohz_next_balance = 0;   // jiffies
	u64 nohz_next_blocked = 0;   // jiffies
	bool nohz_needs_update = false, nohz_has_blocked = false;
	// The model starts with every CPU idle but never ran their idle loops;
	// the first balancer call enters the idle ones into nohz (balance.cpp).
	bool booted = false;
	std::array<BalanceCpu, MAX_CPUS> cpu{};
};

// sched_balance_trigger() from sched_tick() on `cpu`: the nohz idle-balance
// kick and a due periodic balance (the SCHED_SOFTIRQ, run at once).
void sched_balance_trigger(Machine& sim, u32 cpu);
// sched_balance_newidle(): the fair class found nothing to run on `cpu`.
// > 0: tasks were pulled (pick again); 0: go idle.
int sched_balance_newidle(Machine& sim, u32 cpu);
// nohz_balance_enter_idle(): `cpu` goes idle with its tick stopped (and
// do_idle()'s nohz_run_idle_balance() before it).
void nohz_balance_enter_idle(Machine& sim, u32 cpu);
// nohz_csd_func(): the kick IPI arrived on `cpu`; runs the idle balance
// there (and the model's active-balance steps, ACTIVE_*_KICK).
void nohz_csd_func(Machine& sim, u32 cpu, unsigned flags);

// The decision steps of sched_balance_rq(), named as in fair.c and exposed
// for the unit tests.
namespace lb {

using eevdf::GroupType;

enum class MigrationType : unsigned { load = 0, util, task, misfit };

using eevdf::SgLbStats;

// struct sd_lb_stats, with the sched_group fields sibling_imbalance() and
// update_sd_pick_busiest() read (cores, flags) copied in.
struct SdLbStats {
	int busiest = -1;  // Topology group index, -1 = none
	int local = -1;
	u64 total_load = 0;
	u64 total_capacity = 0;
	u64 avg_load = 0;
	bool prefer_sibling = false;
	u32 busiest_cores = 0, local_cores = 0;
	unsigned busiest_flags = 0, local_flags = 0;
	SgLbStats busiest_stat, local_stat;
};

// What calculate_imbalance() and the decision in
// sched_balance_find_src_group() read from struct lb_env and the domain.
struct ImbalanceEnv {
	CpuIdleType idle = CPU_NOT_IDLE;
	unsigned sd_flags = 0;
	u32 imbalance_pct = 117;
	MigrationType migration_type = MigrationType::load;
	s64 imbalance = 0;
	u32 imb_numa_nr = 0;  // sd->imb_numa_nr, read when sd_flags has SD_NUMA
};

using eevdf::group_classify;
using eevdf::group_has_capacity;
using eevdf::group_is_overloaded;
s64 sibling_imbalance(const ImbalanceEnv& env, const SdLbStats& sds, const SgLbStats& busiest,
		      const SgLbStats& local);
void calculate_imbalance(ImbalanceEnv& env, SdLbStats& sds);
// The part of sched_balance_find_src_group() after update_sd_lb_stats():
// true with env.imbalance/migration_type set when there is something to
// move (the kernel returns sds.busiest), false when balanced.
bool find_src_group_decide(ImbalanceEnv& env, SdLbStats& sds);
// The sd_lb_stats update_sd_lb_stats() leaves for the MC domain of two
// CPUs of one core each: group 0 local, group 1 busiest.
SdLbStats two_cpu_lb_stats(const SgLbStats& local, const SgLbStats& busiest);
// update_idle_cpu_scan()'s value: how many CPUs of an LLC of llc_weight
// select_idle_cpu() may scan at this sum of utilisation.
u32 idle_cpu_scan(u64 sum_util, u32 llc_weight, u32 imbalance_pct);
// should_we_balance(): does dst_cpu balance `sd` for its local group now
// (cpus: the CPUs the pass may use)?
bool should_we_balance(const Machine& sim, const SchedDomain& sd, const CpuMask& cpus, u32 dst_cpu,
		       CpuIdleType idle);
// get_sd_balance_interval() in jiffies.
u64 get_sd_balance_interval(const SchedDomain& sd, bool cpu_busy, u32 hz, u32 online_cpus);
// msecs_to_jiffies() (rounding up, as the kernel's does for every HZ).
u64 msecs_to_jiffies(u64 ms, u32 hz);
// update_newidle_stats(): the domain's newidle success ratio, refreshed
// every 1024 calls (7.x NI_RATE also counts the time since the last refresh).
void update_newidle_stats(const Machine& sim, SchedDomain& sd, u32 success);

}  // namespace lb
}  // namespace eevdf
