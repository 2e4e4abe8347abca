// SPDX-License-Identifier: GPL-2.0-only
// What the load balancer's files (model/balance*.cpp; kernel/sched/fair.c,
// v6.18.44) share: struct lb_env and its LBF_* flags, the helpers several
// parts use, and the functions one part calls in another, listed by the
// file that defines them (and comments them). The Config's switches
// (paths(), feat(), pelt_features()) are machine.hpp's, time_after() and
// the like jiffies.hpp's. Only those files include it: model/balance.hpp
// is the balancer's API.
#pragma once

#include <array>

#include "model/balance.hpp"
#include "model/jiffies.hpp"
#include "model/machine.hpp"

namespace eevdf {
namespace balance_internal {

using lb::GroupType;
using lb::MigrationType;
using lb::SdLbStats;
using lb::SgLbStats;

inline constexpr u32 SCHED_NR_MIGRATE_BREAK = 32;
inline constexpr u32 SYSCTL_SCHED_NR_MIGRATE = 32;
inline constexpr u32 MAX_PINNED_INTERVAL = 512;

enum : unsigned {
	LBF_ALL_PINNED = 0x01,
	LBF_NEED_BREAK = 0x02,
	LBF_DST_PINNED = 0x04,
	LBF_SOME_PINNED = 0x08,
	LBF_ACTIVE_LB = 0x10,
};

struct LbEnv {
	Machine* sim = nullptr;
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

inline BalanceCpu& bcpu(Machine& sim, u32 cpu) { return sim.balance_state().cpu[cpu]; }

// cfs.h_nr_runnable (6.14+) or cfs.h_nr_running (before: delayed tasks too).
inline u32 lb_h_nr_running(const Machine& sim, const Rq& rq)
{
	return paths(sim).lb_skips_delayed ? rq.h_nr_runnable() : rq.nr_running();
}

inline bool smt_vs_nonsmt_groups(unsigned flags1, unsigned flags2)
{
	return (flags1 & SD_SHARE_CPUCAPACITY) != (flags2 & SD_SHARE_CPUCAPACITY);
}

// ---- balance_tasks.cpp
u32 detach_tasks(LbEnv& env);
void attach_tasks(LbEnv& env);
Task* detach_one_task(LbEnv& env);

// ---- balance_stats.cpp
void update_sd_lb_stats(LbEnv& env, SdLbStats& sds);

// ---- balance_find_src.cpp
int sched_balance_find_src_group(LbEnv& env);
int sched_balance_find_src_rq(LbEnv& env, const SchedGroup& group);

// ---- balance_rq.cpp
int sched_balance_rq(Machine& sim, u32 this_cpu, SchedDomain& sd, CpuIdleType idle, bool& continue_balancing,
		     u32 exec_cpu);
void active_load_balance_cpu_stop(Machine& sim, u32 busiest_cpu);

// ---- balance_newidle.cpp
bool update_newidle_cost(const Machine& sim, SchedDomain& sd, u64 cost, u32 success);

// ---- balance.cpp
void sched_balance_update_blocked_averages(Machine& sim, u32 cpu);
void sched_balance_domains(Machine& sim, u32 cpu, CpuIdleType idle, u32 exec_cpu);
void sched_balance_softirq(Machine& sim, u32 cpu);

// ---- balance_nohz.cpp
void nohz_boot(Machine& sim, u32 self);
bool nohz_idle_balance(Machine& sim, u32 cpu, CpuIdleType idle);
void nohz_newidle_balance(Machine& sim, u32 cpu);

}  // namespace balance_internal
}  // namespace eevdf
