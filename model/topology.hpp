// SPDX-License-Identifier: GPL-2.0-only
// Scheduling domains and groups (kernel/sched/topology.c, v6.18) for a
// machine of N CPUs grouped into LLCs of K CPUs, no SMT, no NUMA, equal
// capacities: the MC level spans an LLC (SD_SHARE_LLC, one group per CPU),
// the PKG level spans the machine (one group per LLC). sd_init() sets each
// domain's intervals and flags; a level that spans one CPU, or the same CPUs
// as its child with nothing more to balance, degenerates away as
// cpu_attach_domain() does, so K == N leaves only MC and K == 1 only PKG.
//
// The domains hold their balancing state (intervals, failure counts,
// newidle cost and statistics) per CPU, like the kernel's per-CPU
// sched_domain copies; groups and the LLC's sched_domain_shared are shared.
#pragma once

#include <string_view>
#include <vector>

#include "model/cpumask.hpp"

namespace eevdf {

// include/linux/sched/sd_flags.h, in the kernel's bit order (so that
// WF_EXEC/WF_FORK/WF_TTWU equal SD_BALANCE_EXEC/FORK/WAKE).
enum : unsigned {
	SD_BALANCE_NEWIDLE = 1u << 0,
	SD_BALANCE_EXEC = 1u << 1,
	SD_BALANCE_FORK = 1u << 2,
	SD_BALANCE_WAKE = 1u << 3,
	SD_WAKE_AFFINE = 1u << 4,
	SD_ASYM_CPUCAPACITY = 1u << 5,
	SD_ASYM_CPUCAPACITY_FULL = 1u << 6,
	SD_SHARE_CPUCAPACITY = 1u << 7,
	SD_CLUSTER = 1u << 8,
	SD_SHARE_LLC = 1u << 9,
	SD_SERIALIZE = 1u << 10,
	SD_ASYM_PACKING = 1u << 11,
	SD_PREFER_SIBLING = 1u << 12,
	SD_NUMA = 1u << 13,
};

inline constexpr u64 SCHED_CAPACITY_SCALE_CPU = 1024;  // capacity_of() of every CPU

struct SchedGroup {
	CpuMask span;
	u32 weight = 0;        // group_weight: CPUs in the group
	unsigned flags = 0;    // the child domain's flags (0 for a base domain's groups)
	u64 capacity = 0;      // sgc->capacity = 1024 per CPU
	int imbalance = 0;     // sgc->imbalance: set when affinity defeated a balance
};

// The LLC's sched_domain_shared.
struct SchedDomainShared {
	u32 nr_busy_cpus = 0;
	bool has_idle_cores = false;
	u32 nr_idle_scan = 0;  // kzalloc'ed: no idle scan until a periodic balance writes it
};

struct SchedDomain {
	std::string_view name;  // "MC" or "PKG"
	CpuMask span;
	u32 span_weight = 0;
	unsigned flags = 0;
	u32 min_interval = 0, max_interval = 0, busy_factor = 16, imbalance_pct = 117, cache_nice_tries = 0;

	// balancing state (per CPU)
	u32 balance_interval = 0;   // ms
	u32 nr_balance_failed = 0;
	u64 last_balance = 0;       // jiffies
	u64 max_newidle_lb_cost = 0;
	u64 last_decay_max_lb_cost = 0;  // jiffies
	u32 newidle_call = 512, newidle_success = 256, newidle_ratio = 512;  // "50% success rate"
	u64 newidle_stamp = 0;  // 7.x: sched_clock() at the last ratio refresh (sd_init: boot, 0)

	std::vector<u32> groups;  // indices into Topology::groups, in the domain's ring order from this CPU
	SchedDomain* parent = nullptr;
	SchedDomain* child = nullptr;
	SchedDomainShared* shared = nullptr;  // SD_SHARE_LLC only
};

class Topology {
public:
	// nr_cpus in 1..MAX_CPUS, llc_size dividing it.
	Topology(u32 nr_cpus, u32 llc_size, u64 jiffies_at_boot = 0);
	Topology(const Topology&) = delete;
	Topology& operator=(const Topology&) = delete;

	u32 nr_cpus() const { return nr_cpus_; }
	u32 llc_size() const { return llc_size_; }

	// rq->sd: the lowest domain of `cpu`, nullptr on a single CPU.
	SchedDomain* sd(u32 cpu) { return base_[cpu]; }
	const SchedDomain* sd(u32 cpu) const { return base_[cpu]; }
	// sd_llc / sd_llc_size / sd_llc_id / sd_llc_shared (update_top_cache_domain()).
	SchedDomain* sd_llc(u32 cpu) { return llc_[cpu]; }
	const SchedDomain* sd_llc(u32 cpu) const { return llc_[cpu]; }
	u32 sd_llc_size(u32 cpu) const { return llc_[cpu] ? llc_[cpu]->span_weight : 1; }
	u32 sd_llc_id(u32 cpu) const { return llc_[cpu] ? llc_[cpu]->span.first() : cpu; }
	SchedDomainShared* sd_llc_shared(u32 cpu) { return llc_[cpu] ? llc_[cpu]->shared : nullptr; }
	const SchedDomainShared* sd_llc_shared(u32 cpu) const { return llc_[cpu] ? llc_[cpu]->shared : nullptr; }
	bool cpus_share_cache(u32 a, u32 b) const { return a == b || sd_llc_id(a) == sd_llc_id(b); }

	const SchedGroup& group(u32 i) const { return groups_[i]; }
	SchedGroup& group(u32 i) { return groups_[i]; }

	// The domains of `cpu`, lowest first (for_each_domain()).
	template <class F>
	void for_each_domain(u32 cpu, F&& f)
	{
		for (SchedDomain* sd = base_[cpu]; sd; sd = sd->parent)
			f(*sd);
	}

private:
	u32 nr_cpus_, llc_size_;
	std::vector<SchedDomain> domains_;         // [cpu * 2 + level], MC = 0, PKG = 1
	std::vector<SchedGroup> groups_;
	std::vector<SchedDomainShared> shared_;    // one per LLC
	std::vector<SchedDomain*> base_, llc_;     // per CPU
};

}  // namespace eevdf
