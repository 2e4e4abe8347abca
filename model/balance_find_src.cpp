// SPDX-License-Identifier: GPL-2.0-only
// The imbalance decision of sched_balance_rq() (kernel/sched/fair.c,
// v6.18.44): sched_balance_find_src_group() (the statistics, then whether
// and what to move: find_src_group_decide(), calculate_imbalance(),
// sibling_imbalance()) and sched_balance_find_src_rq().
// See model/balance.cpp for the balancer as a whole: what it follows, the
// other releases and the simplifications.
#include <algorithm>
#include <climits>

#include "model/balance_internal.hpp"

namespace eevdf {
namespace balance_internal {

// capacity_of() is 1024 on every CPU, so check_cpu_capacity() (capacity
// reduced by more than imbalance_pct) never holds.
static constexpr bool check_cpu_capacity() { return false; }

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
	lb::ImbalanceEnv ie{env.idle, env.sd->flags, env.sd->imbalance_pct, MigrationType::load, 0,
			    env.sd->imb_numa_nr};
	const bool found = lb::find_src_group_decide(ie, sds);
	env.migration_type = ie.migration_type;
	env.imbalance = found ? ie.imbalance : 0;
	return found ? sds.busiest : -1;
}

// sched_balance_find_src_rq(): the CPU of `group` to pull from, or -1.
int sched_balance_find_src_rq(LbEnv& env, const SchedGroup& group)
{
	Machine& sim = *env.sim;
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

}  // namespace balance_internal

using balance_internal::smt_vs_nonsmt_groups;

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
		// Between nodes, a local node that would run at most imb_numa_nr
		// tasks leaves a difference of up to two where it is (not on the
		// migrate_util path above).
		if (env.sd_flags & SD_NUMA)
			env.imbalance = adjust_numa_imbalance(env.imbalance, local.sum_nr_running + 1, env.imb_numa_nr);
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

}  // namespace lb
}  // namespace eevdf
