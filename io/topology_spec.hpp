// SPDX-License-Identifier: GPL-2.0-only
// A machine's shape (model/topology.hpp MachineShape) as the command line
// gives it: a named preset, "key=value,..." with the keys cpus, smt,
// cluster, llc, node, distance and reclaim (counts of CPUs, and SLIT
// distances), or "sysfs" / "sysfs:DIR" for the machine in front of the
// user (io/topology_sysfs.hpp; DIR a copy of /sys/devices/system).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/topology.hpp"

namespace eevdf::cli {

struct TopologyPreset {
	std::string_view name;
	std::string_view spec;  // in the "key=value,..." form
	std::string_view what;  // the machine it stands for
};

const std::vector<TopologyPreset>& topology_presets();

inline constexpr const char* SYSFS_ROOT = "/sys/devices/system";

// The directory "sysfs" (SYSFS_ROOT) or "sysfs:DIR" names; "" for any other
// spec.
std::string sysfs_root(std::string_view spec);

// A topology file is at most this long (it has a few members).
inline constexpr std::size_t MAX_TOPOLOGY_BYTES = 1u << 20;

// Whether `spec` names a topology file: a path with a '/' or ending in
// ".json" (read_topology_file(): a JSON object of the spec's keys).
bool is_topology_file(std::string_view spec);

// `spec` for `flag` (--topology): a preset name, key=value pairs, sysfs[:DIR]
// or a topology file (throws InputError naming the file, line, key and
// value for a bad one). cpus
// defaults to `cpus` (--cpus), and a cpus= that differs from a --cpus other
// than 1 is refused. Throws UsageError naming the flag, the key and the value.
MachineShape parse_topology(std::string_view spec, u32 cpus, std::string_view flag);

// The shape in the "key=value,..." form, every key written.
std::string topology_spec(const MachineShape& m);

}  // namespace eevdf::cli
