// SPDX-License-Identifier: GPL-2.0-only
// The statistics of a domain's groups (kernel/sched/fair.c, v6.18.44):
// update_sg_lb_stats() of each group, update_sd_pick_busiest() among them,
// update_sd_lb_stats() over the domain, and the SIS_UTIL hint
// update_idle_cpu_scan() derives from them.
// See model/balance.cpp for the balancer as a whole: what it follows, the
// other releases and the simplifications.
#include <algorithm>

#include "model/balance_internal.hpp"

namespace eevdf {
namespace balance_internal {

static u64 cpu_util_cfs_of(const Machine& sim, const Rq& rq) { return cpu_util_cfs(rq.cfs.avg, pelt_features(sim)); }

// ---------------------------------------------------------------- statistics

// smt_balance(): an idle CPU balancing finds a whole SMT core (a group of
// the level above SMT) running two or more fair tasks: one of them should
// get a core of its own. Never the local group (the caller checks).
static bool smt_balance(const LbEnv& env, const SgLbStats& sgs, const SchedGroup& group)
{
	if (env.idle == CPU_NOT_IDLE)
		return false;
	return (group.flags & SD_SHARE_CPUCAPACITY) && sgs.sum_h_nr_running > 1;
}

static SgLbStats update_sg_lb_stats(LbEnv& env, const SchedGroup& group, bool local_group, bool& sg_overloaded)
{
	Machine& sim = *env.sim;
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
		// misfit (ASYM_CPUCAPACITY or reduced capacity) cannot occur
	});
	sgs.group_capacity = group.sgc->capacity;
	sgs.group_weight = group.weight;
	// No SD_ASYM_PACKING: group_asym_packing stays 0.
	if (!local_group && smt_balance(env, sgs, group))
		sgs.group_smt_balance = true;
	sgs.group_type = lb::group_classify(env.sd->imbalance_pct, group.sgc->imbalance != 0, sgs);
	if (sgs.group_type == GroupType::overloaded)
		sgs.avg_load = sgs.group_load * SCHED_CAPACITY_SCALE / sgs.group_capacity;
	return sgs;
}

static bool update_sd_pick_busiest(const SdLbStats& sds, const SchedGroup& sg, const SgLbStats& sgs)
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
static void update_idle_cpu_scan(LbEnv& env, u64 sum_util)
{
	Machine& sim = *env.sim;
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
	Machine& sim = *env.sim;
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
			sds.local_cores = sg.cores;
			sds.local_flags = sg.flags;
		} else if (update_sd_pick_busiest(sds, sg, sgs)) {
			sds.busiest = static_cast<int>(gi);
			sds.busiest_stat = sgs;
			sds.busiest_cores = sg.cores;
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

}  // namespace balance_internal

namespace lb {

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

}  // namespace lb
}  // namespace eevdf
