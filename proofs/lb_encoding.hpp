// SPDX-License-Identifier: GPL-2.0-only
// A symbolic encoding of the load balancer's decision for a flat LLC: the
// MC domain of a one-LLC machine, whose groups are single CPUs (weight 1,
// one core, capacity 1024), SD_SHARE_LLC set, no child domain (so no
// SD_PREFER_SIBLING), no SMT, asym packing, misfit or imbalanced group
// (model/balance.cpp: lb::find_src_group_decide(), calculate_imbalance(),
// sibling_imbalance(); model/sg_lb_stats.cpp: group_classify()).
//
// Between two such groups, local (the balancing CPU) and busiest (the
// other, chosen by update_sd_pick_busiest() whenever it has a runnable
// task), the kernel's decision reads only the fields below. Each function
// mirrors the model's branch for branch over 64-bit bit-vectors, u64 wrap
// included; `check_lb_encoding` compares it with the model's functions on
// random concrete inputs.
#pragma once

#include <ostream>

#include <z3++.h>

#include "model/types.hpp"

namespace eevdf::proofs {

// Deliberately broken variants (bits above the fair-class mutations).
enum LbMutation : unsigned {
	MUT_LB_IDLE_NEEDS_OVERLOADED = 1u << 16,  // an idle CPU pulls only from an overloaded group, as a busy one
	MUT_LB_PCT_STRICT = 1u << 17,             // "within imbalance_pct" tested with < instead of <=
};

// One group's sg_lb_stats inputs (the sums over its single CPU).
struct SymLbGroup {
	z3::expr load, util, runnable;  // cpu_load(), cpu_util_cfs(), cpu_runnable()
	z3::expr nr, h_nr;              // sum_nr_running (delayed tasks included), sum_h_nr_running
};

// GroupType values, as model/sg_lb_stats.hpp numbers them.
inline constexpr u64 LB_HAS_SPARE = 0, LB_FULLY_BUSY = 1, LB_OVERLOADED = 6;
// MigrationType values (model/balance.hpp).
inline constexpr u64 LB_MIGRATE_LOAD = 0, LB_MIGRATE_TASK = 2;

struct SymLbDecision {
	z3::expr found;           // find_src_group_decide() returned true
	z3::expr migration_type;  // LB_MIGRATE_*
	z3::expr imbalance;       // env.imbalance (s64 as bv64)
	z3::expr local_type, busiest_type;
};

// `idle`: env->idle != CPU_NOT_IDLE (a newly idle or idle balance).
SymLbDecision lb_decide_flat(z3::context& c, const SymLbGroup& local, const SymLbGroup& busiest, const z3::expr& idle,
			     unsigned mutation);

// The encoding against lb::find_src_group_decide() on `cases` random flat
// inputs; returns the mismatches (0 when the encoding is the model's).
u64 check_lb_encoding(u64 cases, u64 seed, std::ostream& out, unsigned mutation = 0);

}  // namespace eevdf::proofs
