// SPDX-License-Identifier: GPL-2.0-only
#include "model/topology.hpp"

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

// sd_init(): intervals in ms from the span weight, and the default flags.
void sd_init(SchedDomain& sd, std::string_view name, const CpuMask& span, unsigned tl_flags, u64 jiffies)
{
	sd.name = name;
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
	// An LLC level has cache_nice_tries 1; so does any other non-SMT,
	// non-NUMA level.
	sd.cache_nice_tries = 1;
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

}  // namespace

Topology::Topology(u32 nr_cpus, u32 llc_size, u64 jiffies_at_boot)
	: nr_cpus_(nr_cpus), llc_size_(llc_size)
{
	if (nr_cpus < 1 || nr_cpus > MAX_CPUS)
		throw std::invalid_argument("topology: " + std::to_string(nr_cpus) + " CPUs (1.." +
					    std::to_string(MAX_CPUS) + ")");
	if (llc_size < 1 || nr_cpus % llc_size)
		throw std::invalid_argument("topology: an LLC of " + std::to_string(llc_size) +
					    " CPUs does not divide " + std::to_string(nr_cpus) + " CPUs");
	const u32 nr_llcs = nr_cpus / llc_size;
	domains_.resize(2 * nr_cpus);
	shared_.resize(nr_llcs);
	base_.assign(nr_cpus, nullptr);
	llc_.assign(nr_cpus, nullptr);
	// groups_: the MC level's one-CPU groups, then the PKG level's groups,
	// each named by its first CPU (get_group()).
	groups_.resize(2 * nr_cpus);
	for (u32 c = 0; c < nr_cpus; c++) {
		SchedGroup& g = groups_[c];
		g.span = CpuMask::of(c);
		g.weight = 1;
		g.capacity = SCHED_CAPACITY_SCALE_CPU;
	}
	const CpuMask all = CpuMask::first_n(nr_cpus);
	auto llc_span = [&](u32 c) {
		CpuMask m;
		const u32 first = c / llc_size * llc_size;
		for (u32 i = first; i < first + llc_size; i++)
			m.set(i);
		return m;
	};

	for (u32 cpu = 0; cpu < nr_cpus; cpu++) {
		SchedDomain& mc = domains_[2 * cpu];
		SchedDomain& pkg = domains_[2 * cpu + 1];
		sd_init(mc, "MC", llc_span(cpu), SD_SHARE_LLC, jiffies_at_boot);
		mc.shared = &shared_[cpu / llc_size];
		sd_init(pkg, "PKG", all, 0, jiffies_at_boot);
		mc.parent = &pkg;
		pkg.child = &mc;

		// build_sched_groups(): the groups met walking the span from
		// this CPU; a PKG group is its child's span, named by the
		// child span's first CPU.
		mc.span.for_each_wrap(cpu, [&](u32 i) { mc.groups.push_back(i); });
		CpuMask covered;
		pkg.span.for_each_wrap(cpu, [&](u32 i) {
			if (covered.test(i))
				return;
			const CpuMask child = llc_span(i);
			const u32 id = nr_cpus + child.first();
			SchedGroup& g = groups_[id];
			g.span = child;
			g.weight = child.weight();
			g.flags = mc.flags;
			g.capacity = SCHED_CAPACITY_SCALE_CPU * g.weight;
			covered = covered | child;
			pkg.groups.push_back(id);
		});

		// cpu_attach_domain(): drop degenerate levels.
		SchedDomain* top = &mc;
		if (sd_parent_degenerate(mc, pkg))
			mc.parent = nullptr;
		if (sd_degenerate(mc)) {
			top = mc.parent;
			if (top) {
				top->child = nullptr;
				for (u32 g : top->groups)
					groups_[g].flags = 0;  // groups of a base domain inherit no flags
			}
		}
		base_[cpu] = top;
		// update_top_cache_domain(): the highest SD_SHARE_LLC level.
		for (SchedDomain* sd = top; sd; sd = sd->parent)
			if (sd->flags & SD_SHARE_LLC)
				llc_[cpu] = sd;
	}
	// sd_init(): an LLC starts with every CPU counted busy.
	for (u32 l = 0; l < nr_llcs; l++)
		shared_[l].nr_busy_cpus = llc_size;
}

}  // namespace eevdf
