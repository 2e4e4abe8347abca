// SPDX-License-Identifier: GPL-2.0-only
// Scheduling domains and groups (kernel/sched/topology.c, v6.18) for a
// regular machine (MachineShape): SMT siblings, clusters, last-level caches
// and NUMA nodes, each a block of consecutive CPUs, equal capacities. The
// levels are the kernel's default topology table, SMT, CLS, MC, PKG, then
// NODE and one NUMA level when there are several nodes (sched_init_numa()
// with a single remote distance); building stops at the first level that
// spans every CPU, as build_sched_domains() does. sd_init() sets each
// domain's intervals and flags; groups are the child level's spans
// (build_sched_groups()); cpu_attach_domain() then removes degenerate
// levels: one that spans one CPU, or the same CPUs as its child with
// nothing more to balance. An LLC-only machine (smt 1, no cluster, one
// node) keeps MC over each LLC and PKG over all, as before.
//
// The simulator runs every such machine, NUMA nodes included, with the
// NUMA rules of a machine whose numa_balancing has never been on
// (docs/model.md, "Topology").
//
// The domains hold their balancing state (intervals, failure counts,
// newidle cost and statistics) per CPU, like the kernel's per-CPU
// sched_domain copies; groups and each level's sched_domain_shared are
// shared.
#pragma once

#include <string>
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

// A regular machine. CPUs are numbered thread by thread within a core,
// core by core within a cluster, and so on up; each size counts CPUs and
// divides the next, and 0 stands for the size of the level above.
struct MachineShape {
	u32 cpus = 1;
	u32 smt = 1;       // CPUs per core: SMT siblings (the SMT level)
	u32 cluster = 0;   // CPUs per cluster (CLS, SD_CLUSTER); 0: one core
	u32 llc = 0;       // CPUs per last-level cache (MC); 0: one node
	u32 node = 0;      // CPUs per NUMA node (PKG); 0: every CPU, one node
	u32 numa_distance = 20;  // node_distance() between two nodes (10 within one)
	// node_reclaim_distance: RECLAIM_DISTANCE (30), or 32 on AMD Zen
	// (init_amd_zen_common()). A NUMA level farther than this does not
	// balance at fork, exec or wake-up.
	u32 reclaim_distance = 30;

	u32 cluster_size() const { return cluster ? cluster : smt; }
	u32 node_size() const { return node ? node : cpus; }
	u32 llc_size() const { return llc ? llc : node_size(); }
	u32 nr_nodes() const { return cpus / node_size(); }
	bool operator==(const MachineShape&) const = default;
};

// Why `shape` is not a machine ("" when it is): a size that does not divide
// the next, or a count out of range.
std::string shape_error(const MachineShape& shape);

// struct sched_group_capacity: what every copy of a group shares.
struct SchedGroupCapacity {
	u64 capacity = 0;   // 1024 per CPU
	int imbalance = 0;  // set when affinity defeated a balance one level down
};

// struct sched_group. A level's groups are shared by the CPUs of its
// domains (get_group()), except at an SD_NUMA level, whose groups each CPU
// builds for itself (build_overlap_sched_groups()): there only the
// capacity, of the group's balance CPU, is shared, and a CPU's first group
// can take a removed child's flags without the other CPUs seeing it.
struct SchedGroup {
	CpuMask span;
	u32 weight = 0;        // group_weight: CPUs in the group
	u32 cores = 0;         // sg->cores: SMT cores in the group (init_sched_groups_capacity())
	unsigned flags = 0;    // the child domain's flags (0 for a base domain's groups)
	SchedGroupCapacity* sgc = nullptr;
};

// The LLC's sched_domain_shared.
struct SchedDomainShared {
	u32 nr_busy_cpus = 0;
	bool has_idle_cores = false;
	u32 nr_idle_scan = 0;  // kzalloc'ed: no idle scan until a periodic balance writes it
};

struct SchedDomain {
	std::string_view name;  // "SMT", "CLS", "MC", "PKG", "NODE" or "NUMA"
	u32 level = 0;          // sd->level: its index in the table before degenerate levels go
	CpuMask span;
	u32 span_weight = 0;
	unsigned flags = 0;
	u32 min_interval = 0, max_interval = 0, busy_factor = 16, imbalance_pct = 117, cache_nice_tries = 0;
	// The imbalance between NUMA nodes tolerated while few tasks run
	// (build_sched_domains(), see Topology's constructor); read at SD_NUMA
	// levels only.
	u32 imb_numa_nr = 0;

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
	// nr_cpus in 1..MAX_CPUS, llc_size dividing it: an LLC-only machine.
	Topology(u32 nr_cpus, u32 llc_size, u64 jiffies_at_boot = 0);
	// Any valid shape (shape_error() empty; std::invalid_argument if not).
	explicit Topology(const MachineShape& shape, u64 jiffies_at_boot = 0);
	Topology(const Topology&) = delete;
	Topology& operator=(const Topology&) = delete;

	u32 nr_cpus() const { return nr_cpus_; }
	u32 llc_size() const { return shape_.llc_size(); }
	const MachineShape& shape() const { return shape_; }

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
	// sd_share_id (update_top_cache_domain()): the first CPU of the lowest
	// SD_CLUSTER domain, else sd_llc_id; cpus_share_resources() compares it.
	u32 sd_share_id(u32 cpu) const { return cluster_[cpu] ? cluster_[cpu]->span.first() : sd_llc_id(cpu); }
	bool cpus_share_resources(u32 a, u32 b) const { return a == b || sd_share_id(a) == sd_share_id(b); }
	// sched_cluster_active: some CPU kept an SD_CLUSTER domain when attached.
	bool sched_cluster_active() const { return cluster_active_; }
	// cpu_smt_mask(): the SMT siblings of `cpu`, itself included.
	CpuMask cpu_smt_mask(u32 cpu) const;
	// sched_smt_active(): the sched_smt_present key, which counts the cores
	// that have two or more threads online (sched_smt_present_inc()).
	bool sched_smt_active() const { return shape_.smt > 1; }

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
	MachineShape shape_;
	u32 nr_cpus_;
	u32 nr_levels_ = 0;
	std::vector<SchedDomain> domains_;         // [cpu * nr_levels_ + level]
	// [level * nr_cpus_ + first CPU of the group], then an SD_NUMA level's
	// per-CPU copies at [nr_levels_ * nr_cpus_ + cpu * nr_nodes + k].
	std::vector<SchedGroup> groups_;
	std::vector<SchedGroupCapacity> sgc_;      // [level * nr_cpus_ + first CPU of the group]
	std::vector<SchedDomainShared> shared_;    // [level * nr_cpus_ + first CPU of the span]
	std::vector<SchedDomain*> base_, llc_, cluster_;  // per CPU
	bool cluster_active_ = false;
};

// The domains of every CPU as the kernel's debugfs shows them
// (`grep . /sys/kernel/debug/sched/domains/cpu*/domain*/*`, one
// "cpuN/domainM/FILE:VALUE" line each, FILE in ls order), then each CPU's
// domains and groups in sched_domain_debug()'s layout (boot option
// sched_verbose).
std::string print_domains(const Topology& topo);

}  // namespace eevdf
