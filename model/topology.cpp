// SPDX-License-Identifier: GPL-2.0-only
#include "model/topology.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace eevdf {
namespace {

// Flags whose domain needs at least two groups to do anything
// (SDF_NEEDS_GROUPS in sd_flags.h).
constexpr unsigned NEEDS_GROUPS = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_BALANCE_WAKE |
				  SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL | SD_SHARE_CPUCAPACITY |
				  SD_CLUSTER | SD_SHARE_LLC | SD_SERIALIZE | SD_ASYM_PACKING | SD_PREFER_SIBLING |
				  SD_NUMA;

// sd_init(): intervals in ms from the span weight, the default flags and
// the table level's, then what the level's kind changes: an SMT level
// balances at imbalance_pct 110, an LLC level (and any other below NUMA)
// retries cache-hot tasks once, a NUMA level twice, serialised, without
// prefer_sibling, and beyond node_reclaim_distance not at fork, exec or
// wake-up.
void sd_init(SchedDomain& sd, std::string_view name, u32 level, const CpuMask& span, unsigned tl_flags,
	     u32 numa_distance, u32 reclaim_distance, u64 jiffies)
{
	sd.name = name;
	sd.level = level;
	sd.span = span;
	sd.span_weight = span.weight();
	sd.min_interval = sd.span_weight;
	sd.max_interval = 2 * sd.span_weight;
	sd.busy_factor = 16;
	sd.imbalance_pct = 117;
	sd.cache_nice_tries = 0;
	sd.flags = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE | SD_PREFER_SIBLING |
		   tl_flags;
	sd.last_balance = jiffies;
	sd.balance_interval = sd.span_weight;
	sd.last_decay_max_lb_cost = jiffies;
	if (sd.flags & SD_SHARE_CPUCAPACITY) {
		sd.imbalance_pct = 110;
	} else if (sd.flags & SD_SHARE_LLC) {
		sd.imbalance_pct = 117;
		sd.cache_nice_tries = 1;
	} else if (sd.flags & SD_NUMA) {
		sd.cache_nice_tries = 2;
		sd.flags &= ~SD_PREFER_SIBLING;
		sd.flags |= SD_SERIALIZE;
		if (numa_distance > reclaim_distance)
			sd.flags &= ~(SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE);
	} else {
		sd.cache_nice_tries = 1;
	}
}

bool sd_degenerate(const SchedDomain& sd)
{
	if (sd.span_weight == 1)
		return true;
	if ((sd.flags & NEEDS_GROUPS) && sd.groups.size() > 1)
		return false;
	if (sd.flags & SD_WAKE_AFFINE)
		return false;
	return true;
}

bool sd_parent_degenerate(const SchedDomain& sd, const SchedDomain& parent)
{
	if (sd_degenerate(parent))
		return true;
	if (!(sd.span == parent.span))
		return false;
	unsigned pflags = parent.flags;
	if (parent.groups.size() == 1)
		pflags &= ~NEEDS_GROUPS;
	return (~sd.flags & pflags) == 0;
}

// One row of the topology table: the level's name, the CPUs its span holds
// (an aligned block), its flags function's value, and its NUMA distance.
struct LevelDef {
	std::string_view name;
	u32 size;
	unsigned tl_flags;
	u32 distance;
};

// default_topology[] (SMT: cpu_smt_flags(), CLS: cpu_cluster_flags(), MC:
// cpu_core_flags(), PKG: none) and, with several nodes, sched_init_numa()'s
// NODE (the identity distance, no flags) and one NUMA level (cpu_numa_flags()).
std::vector<LevelDef> topology_table(const MachineShape& m)
{
	std::vector<LevelDef> t{{"SMT", m.smt, SD_SHARE_CPUCAPACITY | SD_SHARE_LLC, 0},
				{"CLS", m.cluster_size(), SD_CLUSTER | SD_SHARE_LLC, 0},
				{"MC", m.llc_size(), SD_SHARE_LLC, 0},
				{"PKG", m.node_size(), 0, 0}};
	if (m.nr_nodes() > 1) {
		t.push_back({"NODE", m.node_size(), 0, 0});
		t.push_back({"NUMA", m.cpus, SD_NUMA, m.numa_distance});
	}
	return t;
}

CpuMask block_of(u32 cpu, u32 size)
{
	CpuMask m;
	const u32 first = cpu / size * size;
	for (u32 i = first; i < first + size; i++)
		m.set(i);
	return m;
}

}  // namespace

// Bottom up, each unit must divide the next one given: a core (smt), a
// cluster, an LLC, a node, the machine. A size left 0 is the one above it,
// so the message names the sizes as given.
std::string shape_error(const MachineShape& m)
{
	auto n = [](u32 v) { return std::to_string(v); };
	if (m.cpus < 1 || m.cpus > MAX_CPUS)
		return n(m.cpus) + " CPUs (1.." + n(MAX_CPUS) + ")";
	if (m.smt < 1 || m.smt > m.cpus)
		return "smt " + n(m.smt) + " (1.." + n(m.cpus) + " CPUs per core)";
	struct Unit {
		u32 size;
		std::string name;
	};
	const Unit units[] = {{m.smt, "smt " + n(m.smt) + " CPUs per core"},
			      {m.cluster, "cluster " + n(m.cluster) + " CPUs"},
			      {m.llc, "llc " + n(m.llc) + " CPUs"},
			      {m.node, "node " + n(m.node) + " CPUs"},
			      {m.cpus, ""}};
	const char* what[] = {"", "a cluster of ", "an LLC of ", "a node of ", "the machine's "};
	const Unit* below = &units[0];
	for (size_t i = 1; i < 5; i++) {
		if (!units[i].size)
			continue;
		if (units[i].size < below->size || units[i].size % below->size)
			return below->name + " do not divide " + what[i] + n(units[i].size) + (i == 4 ? " CPUs" : "");
		below = &units[i];
	}
	if (m.nr_nodes() > 1 && (m.numa_distance <= 10 || m.numa_distance > 254))
		return "numa distance " + n(m.numa_distance) + " (11..254: node_distance() between two nodes)";
	return "";
}

CpuMask Topology::cpu_smt_mask(u32 cpu) const { return block_of(cpu, shape_.smt) & CpuMask::first_n(nr_cpus_); }

Topology::Topology(u32 nr_cpus, u32 llc_size, u64 jiffies_at_boot)
	: Topology(
		  [&] {
			  if (nr_cpus < 1 || nr_cpus > MAX_CPUS)
				  throw std::invalid_argument("topology: " + std::to_string(nr_cpus) + " CPUs (1.." +
							      std::to_string(MAX_CPUS) + ")");
			  if (llc_size < 1 || nr_cpus % llc_size)
				  throw std::invalid_argument("topology: an LLC of " + std::to_string(llc_size) +
							      " CPUs does not divide " + std::to_string(nr_cpus) +
							      " CPUs");
			  MachineShape m;
			  m.cpus = nr_cpus;
			  m.llc = llc_size;
			  return m;
		  }(),
		  jiffies_at_boot)
{
}

Topology::Topology(const MachineShape& shape, u64 jiffies_at_boot) : shape_(shape), nr_cpus_(shape.cpus)
{
	if (const std::string e = shape_error(shape); !e.empty())
		throw std::invalid_argument("topology: " + e);
	const u32 n = nr_cpus_;
	const CpuMask all = CpuMask::first_n(n);
	const std::vector<LevelDef> table = topology_table(shape);
	// build_sched_domains() stops at the first level that spans every CPU.
	u32 levels = 0;
	while (levels < table.size() && table[levels].size < n)
		levels++;
	nr_levels_ = levels < table.size() ? levels + 1 : levels;
	if (n == 1)
		nr_levels_ = 0;  // a single CPU has no domains
	const u32 nodes = shape.nr_nodes();
	const bool numa = nr_levels_ && table[nr_levels_ - 1].tl_flags & SD_NUMA;
	domains_.resize(static_cast<size_t>(n) * nr_levels_);
	groups_.resize(static_cast<size_t>(n) * nr_levels_ + (numa ? static_cast<size_t>(n) * nodes : 0));
	sgc_.resize(static_cast<size_t>(n) * nr_levels_);
	shared_.resize(static_cast<size_t>(n) * nr_levels_);
	base_.assign(n, nullptr);
	llc_.assign(n, nullptr);
	cluster_.assign(n, nullptr);
	auto dom = [&](u32 cpu, u32 l) -> SchedDomain& { return domains_[static_cast<size_t>(cpu) * nr_levels_ + l]; };

	for (u32 cpu = 0; cpu < n; cpu++) {
		for (u32 l = 0; l < nr_levels_; l++) {
			SchedDomain& sd = dom(cpu, l);
			const LevelDef& d = table[l];
			sd_init(sd, d.name, l, block_of(cpu, d.size) & all, d.tl_flags, d.distance,
				shape.reclaim_distance, jiffies_at_boot);
			if (sd.flags & SD_SHARE_LLC)
				sd.shared = &shared_[static_cast<size_t>(l) * n + sd.span.first()];
			if (l > 0) {
				sd.child = &dom(cpu, l - 1);
				sd.child->parent = &sd;
			}
		}
	}
	for (u32 cpu = 0; cpu < n; cpu++) {
		// build_sched_groups(): the groups met walking the span from this
		// CPU; a group is its child domain's span (one CPU at the lowest
		// level), named by that span's first CPU, and carries the child's
		// flags; its capacity is 1024 per CPU. At the NUMA level,
		// build_overlap_sched_groups() makes the same groups in the same
		// order (one node's domain each: a single distance needs no
		// find_descended_sibling()) as this CPU's own copies, sharing the
		// capacity of the node's balance CPU, its first.
		for (u32 l = 0; l < nr_levels_; l++) {
			SchedDomain& sd = dom(cpu, l);
			const bool overlap = sd.flags & SD_NUMA;
			CpuMask covered;
			sd.span.for_each_wrap(cpu, [&](u32 i) {
				if (covered.test(i))
					return;
				const CpuMask span = l ? dom(i, l - 1).span : CpuMask::of(i);
				const u32 shared_id = l * n + span.first();
				const u32 id = overlap ? nr_levels_ * n + cpu * nodes + static_cast<u32>(sd.groups.size())
						       : shared_id;
				SchedGroup& g = groups_[id];
				g.span = span;
				g.weight = span.weight();
				g.flags = l ? dom(i, l - 1).flags : 0;
				g.cores = (g.weight + shape.smt - 1) / shape.smt;  // a one-CPU group is one core
				g.sgc = &sgc_[shared_id];
				g.sgc->capacity = SCHED_CAPACITY_SCALE_CPU * g.weight;
				covered = covered | span;
				sd.groups.push_back(id);
			});
		}
	}
	// build_sched_domains(): how far NUMA nodes may stay unbalanced while
	// few tasks run. The first level above the LLC (PKG here) gets imb: the number
	// of LLCs it holds, or an eighth of its CPUs when it holds one LLC, at
	// least 1. Each level above it gets imb times its multiple of the first
	// NUMA level's span (1 with a single distance). The walk runs on the
	// full chain, before degenerate levels go; levels below keep 0.
	for (u32 cpu = 0; cpu < n && nr_levels_; cpu++) {
		u32 imb = 0, imb_span = 1;
		for (SchedDomain* sd = &dom(cpu, 0); sd; sd = sd->parent) {
			if (!(sd->flags & SD_SHARE_LLC) && sd->child && (sd->child->flags & SD_SHARE_LLC)) {
				const u32 nr_llcs = sd->span_weight / sd->child->span_weight;
				imb = std::max(1u, nr_llcs == 1 ? sd->span_weight >> 3 : nr_llcs);
				sd->imb_numa_nr = imb;
				const SchedDomain* top = sd->parent;
				while (top && !(top->flags & SD_NUMA))
					top = top->parent;
				imb_span = top ? top->span_weight : sd->span_weight;
			} else {
				sd->imb_numa_nr = imb * std::max(1u, sd->span_weight / imb_span);
			}
		}
	}
	// sd_init(): an LLC-sharing level starts with every CPU counted busy.
	for (u32 cpu = 0; cpu < n; cpu++)
		for (u32 l = 0; l < nr_levels_; l++)
			if (SchedDomain& sd = dom(cpu, l); sd.shared)
				sd.shared->nr_busy_cpus = sd.span_weight;

	for (u32 cpu = 0; cpu < n && nr_levels_; cpu++) {
		// cpu_attach_domain(): drop each degenerate parent (the
		// grandparent's first group, the one holding this CPU, takes the
		// remaining child's flags, and prefer_sibling moves down), then a
		// degenerate base domain (the new base's first group loses its
		// flags: the kernel's loop never advances past sd->groups). Every
		// group of a regular machine is some CPU's first group, so once
		// every CPU is attached no group keeps a removed child's flags.
		SchedDomain* sd = &dom(cpu, 0);
		for (SchedDomain* tmp = sd; tmp;) {
			SchedDomain* parent = tmp->parent;
			if (!parent)
				break;
			if (sd_parent_degenerate(*tmp, *parent)) {
				tmp->parent = parent->parent;
				if (parent->parent) {
					parent->parent->child = tmp;
					groups_[parent->parent->groups.front()].flags = tmp->flags;
				}
				if (parent->flags & SD_PREFER_SIBLING)
					tmp->flags |= SD_PREFER_SIBLING;
			} else {
				tmp = parent;
			}
		}
		if (sd && sd_degenerate(*sd)) {
			sd = sd->parent;
			if (sd) {
				groups_[sd->groups.front()].flags = 0;
				sd->child = nullptr;
			}
		}
		base_[cpu] = sd;
		// update_top_cache_domain(): the highest SD_SHARE_LLC level, the
		// lowest SD_CLUSTER one (build_sched_domains() turns
		// sched_cluster_active on when any CPU has one).
		for (SchedDomain* d = sd; d; d = d->parent) {
			if (d->flags & SD_SHARE_LLC)
				llc_[cpu] = d;
			if ((d->flags & SD_CLUSTER) && !cluster_[cpu])
				cluster_[cpu] = d;
		}
		cluster_active_ = cluster_active_ || cluster_[cpu];
	}
}

}  // namespace eevdf
