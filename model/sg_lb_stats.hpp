// SPDX-License-Identifier: GPL-2.0-only
// struct sg_lb_stats and the group classification fair.c shares between the
// load balancer (update_sg_lb_stats()) and the fork/exec slow path
// (update_sg_wakeup_stats()): one type and one group_classify(), as in the
// kernel. The wake-up path leaves the asym/SMT/misfit fields at their zero.
#pragma once

#include "model/types.hpp"

namespace eevdf {

// enum group_type, in the kernel's order (lower is less busy).
enum class GroupType : unsigned {
	has_spare = 0,
	fully_busy,
	misfit_task,
	smt_balance,
	asym_packing,
	imbalanced,
	overloaded,
};

// struct sg_lb_stats.
struct SgLbStats {
	u64 avg_load = 0;
	u64 group_load = 0;
	u64 group_capacity = 0;
	u64 group_util = 0;
	u64 group_runnable = 0;
	u32 sum_nr_running = 0;
	u32 sum_h_nr_running = 0;
	u32 idle_cpus = 0;
	u32 group_weight = 0;
	GroupType group_type = GroupType::has_spare;
	bool group_asym_packing = false;
	bool group_smt_balance = false;
	u64 group_misfit_task_load = 0;
};

// group_has_capacity(): fewer tasks than CPUs, or utilisation and runnable
// pressure both below capacity by the imbalance_pct margin.
bool group_has_capacity(u32 imbalance_pct, const SgLbStats& sgs);
// group_is_overloaded(): more tasks than CPUs and one of the two pressures
// above capacity by the margin (not the negation of has_capacity: exactly
// one task per CPU is neither).
bool group_is_overloaded(u32 imbalance_pct, const SgLbStats& sgs);
// group_classify(); sg_imbalanced: sgc->imbalance of the group.
GroupType group_classify(u32 imbalance_pct, bool sg_imbalanced, const SgLbStats& sgs);
// adjust_numa_imbalance(): between NUMA nodes, a destination that would run
// at most imb_numa_nr tasks (dst_running counts the one being placed)
// tolerates an imbalance of NUMA_IMBALANCE_MIN (2) tasks or idle CPUs, so
// that a pair of communicating tasks stays on one node; 0 means "leave it".
inline constexpr s64 NUMA_IMBALANCE_MIN = 2;
s64 adjust_numa_imbalance(s64 imbalance, u32 dst_running, u32 imb_numa_nr);
// The stats update_sg_lb_stats() gathers for one CPU's group running n
// nice-0 hogs with converged PELT (load and runnable 1024 per hog, util
// 1024): the input of the balance proofs and their properties.
SgLbStats converged_hog_group(u32 n, u32 imbalance_pct);

}  // namespace eevdf
