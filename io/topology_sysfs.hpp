// SPDX-License-Identifier: GPL-2.0-only
// A machine's shape read from sysfs (/sys/devices/system, or a copy of it):
// the online CPUs, each one's SMT siblings (topology/thread_siblings_list),
// cluster (topology/cluster_cpus_list), last-level cache (the highest
// cache/indexN's shared_cpu_list; without cache/ the die or package) and
// NUMA node (node/nodeN/cpulist, node/nodeN/distance). The model numbers
// its CPUs core by core (model/topology.hpp), so a machine that numbers
// SMT siblings apart (x86: CPU k and k + cores) is renumbered; the mapping
// is returned.
#pragma once

#include <string>
#include <vector>

#include "model/topology.hpp"

namespace eevdf::cli {

struct SysfsTopology {
	MachineShape shape;
	std::vector<u32> machine_cpu;  // [model CPU] = the machine's CPU number
};

// Throws UsageError naming `flag`, the file and what is wrong: a file that
// is missing or unreadable, a CPU list that does not parse, more than 256
// CPUs, or a machine that is not regular (levels of unequal sizes, levels
// that do not nest, several remote NUMA distances).
SysfsTopology read_sysfs_topology(const std::string& root, const std::string& flag);

}  // namespace eevdf::cli
