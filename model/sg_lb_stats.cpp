// SPDX-License-Identifier: GPL-2.0-only
#include "model/sg_lb_stats.hpp"

#include "model/pelt.hpp"

namespace eevdf {

bool group_has_capacity(u32 imbalance_pct, const SgLbStats& sgs)
{
	if (sgs.sum_nr_running < sgs.group_weight)
		return true;
	if (sgs.group_capacity * imbalance_pct < sgs.group_runnable * 100)
		return false;
	return sgs.group_capacity * 100 > sgs.group_util * imbalance_pct;
}

bool group_is_overloaded(u32 imbalance_pct, const SgLbStats& sgs)
{
	if (sgs.sum_nr_running <= sgs.group_weight)
		return false;
	if (sgs.group_capacity * 100 < sgs.group_util * imbalance_pct)
		return true;
	return sgs.group_capacity * imbalance_pct < sgs.group_runnable * 100;
}

GroupType group_classify(u32 imbalance_pct, bool sg_imbalanced, const SgLbStats& sgs)
{
	if (group_is_overloaded(imbalance_pct, sgs))
		return GroupType::overloaded;
	if (sg_imbalanced)
		return GroupType::imbalanced;
	if (sgs.group_asym_packing)
		return GroupType::asym_packing;
	if (sgs.group_smt_balance)
		return GroupType::smt_balance;
	if (sgs.group_misfit_task_load)
		return GroupType::misfit_task;
	if (!group_has_capacity(imbalance_pct, sgs))
		return GroupType::fully_busy;
	return GroupType::has_spare;
}

s64 adjust_numa_imbalance(s64 imbalance, u32 dst_running, u32 imb_numa_nr)
{
	if (dst_running > imb_numa_nr)
		return imbalance;
	return imbalance <= NUMA_IMBALANCE_MIN ? 0 : imbalance;
}

SgLbStats converged_hog_group(u32 n, u32 imbalance_pct)
{
	SgLbStats g;
	g.sum_nr_running = g.sum_h_nr_running = n;
	g.group_load = g.group_runnable = 1024ull * n;
	g.group_util = 1024;
	g.group_capacity = SCHED_CAPACITY_SCALE;
	g.group_weight = 1;
	g.group_type = group_classify(imbalance_pct, false, g);
	if (g.group_type == GroupType::overloaded)
		g.avg_load = g.group_load * SCHED_CAPACITY_SCALE / g.group_capacity;
	return g;
}

}  // namespace eevdf
