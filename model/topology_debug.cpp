// SPDX-License-Identifier: GPL-2.0-only
// The domains as the kernel shows them: debugfs's sched/domains/cpuN/domainM
// files (kernel/sched/debug.c register_sd(), v6.18) and the boot log of
// sched_verbose (sched_domain_debug() in kernel/sched/topology.c).
#include <string>

#include "model/topology.hpp"

namespace eevdf {
namespace {

// sd_flag_debug[] names, in bit order (include/linux/sched/sd_flags.h).
constexpr const char* SD_FLAG_NAMES[] = {
	"SD_BALANCE_NEWIDLE",  "SD_BALANCE_EXEC",    "SD_BALANCE_FORK",  "SD_BALANCE_WAKE",
	"SD_WAKE_AFFINE",      "SD_ASYM_CPUCAPACITY", "SD_ASYM_CPUCAPACITY_FULL", "SD_SHARE_CPUCAPACITY",
	"SD_CLUSTER",          "SD_SHARE_LLC",       "SD_SERIALIZE",     "SD_ASYM_PACKING",
	"SD_PREFER_SIBLING",   "SD_NUMA",
};

// sd_flags_show(): each set flag's name and a space.
std::string flag_names(unsigned flags)
{
	std::string s;
	for (unsigned i = 0; i < sizeof SD_FLAG_NAMES / sizeof SD_FLAG_NAMES[0]; i++)
		if (flags & (1u << i))
			s += std::string(SD_FLAG_NAMES[i]) + " ";
	return s;
}

// %*pbl: a CPU list of ranges, "0-3,8-11".
std::string cpu_list(const CpuMask& m)
{
	std::string s;
	for (u32 c = m.first(); c < MAX_CPUS;) {
		u32 e = c;
		while (e + 1 < MAX_CPUS && m.test(e + 1))
			e++;
		s += (s.empty() ? "" : ",") + std::to_string(c) + (e > c ? "-" + std::to_string(e) : "");
		c = m.next(e + 1);
	}
	return s;
}

}  // namespace

std::string print_domains(const Topology& topo)
{
	std::string out;
	// `grep . cpu*/domain*/*`: files in ls order; an empty file (a group
	// without flags) prints nothing. max_newidle_lb_cost is the boot value.
	for (u32 cpu = 0; cpu < topo.nr_cpus(); cpu++) {
		u32 m = 0;
		for (const SchedDomain* sd = topo.sd(cpu); sd; sd = sd->parent, m++) {
			const std::string p = "cpu" + std::to_string(cpu) + "/domain" + std::to_string(m) + "/";
			auto line = [&](const char* file, const std::string& v) {
				if (!v.empty())
					out += p + file + ":" + v + "\n";
			};
			line("busy_factor", std::to_string(sd->busy_factor));
			line("cache_nice_tries", std::to_string(sd->cache_nice_tries));
			line("flags", flag_names(sd->flags));
			line("groups_flags", flag_names(topo.group(sd->groups.front()).flags));
			line("imbalance_pct", std::to_string(sd->imbalance_pct));
			line("level", std::to_string(sd->level));
			line("max_interval", std::to_string(sd->max_interval));
			line("max_newidle_lb_cost", std::to_string(sd->max_newidle_lb_cost));
			line("min_interval", std::to_string(sd->min_interval));
			line("name", std::string(sd->name));
		}
	}
	// sched_domain_debug(): per CPU, each domain's span and level name,
	// then its groups from the local one, "ID:{ span=LIST [cap=N] }".
	for (u32 cpu = 0; cpu < topo.nr_cpus(); cpu++) {
		const SchedDomain* sd = topo.sd(cpu);
		if (!sd) {
			out += "CPU" + std::to_string(cpu) + " attaching NULL sched-domain.\n";
			continue;
		}
		out += "CPU" + std::to_string(cpu) + " attaching sched-domain(s):\n";
		for (u32 level = 0; sd; sd = sd->parent, level++) {
			out += std::string(level, ' ') + " domain-" + std::to_string(level) + ": span=" + cpu_list(sd->span) +
			       " level=" + std::string(sd->name) + "\n";
			out += std::string(level + 1, ' ') + " groups:";
			for (size_t i = 0; i < sd->groups.size(); i++) {
				const SchedGroup& g = topo.group(sd->groups[i]);
				out += " " + std::to_string(g.span.first()) + ":{ span=" + cpu_list(g.span);
				if (g.sgc->capacity != SCHED_CAPACITY_SCALE_CPU)
					out += " cap=" + std::to_string(g.sgc->capacity);
				out += std::string(" }") + (i + 1 < sd->groups.size() ? "," : "");
			}
			out += "\n";
		}
	}
	return out;
}

}  // namespace eevdf
