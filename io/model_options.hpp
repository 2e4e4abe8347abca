// SPDX-License-Identifier: GPL-2.0-only
// The model options shared by the commands that run the model (sim,
// slice-table, check), and turning them into a Config.
// They are the command line's flags and a claim file's settings alike
// (claims/ reads them without the CLI), hence namespace cli.
#pragma once

#include <string>
#include <vector>

#include "model/config.hpp"
#include "model/topology.hpp"

namespace eevdf::cli {

// The most CPU hogs `--hogs` (and a claim's "hogs") may ask for: a million
// tasks fit in 1 GiB (docs/performance.md, "Scale").
inline constexpr int MAX_HOGS = 1000000;

struct ModelOptions {
	std::string kernel{DEFAULT_PRESET};
	u32 hz = 250;
	u32 cpus = 1;         // CPUs simulated
	u32 online_cpus = 0;  // for the default base slice; 0 = cpus
	u32 llc = 0;          // CPUs per LLC; 0 = all
	std::string topology;  // --topology: a preset or key=value,... (io/topology_spec.hpp); empty: --cpus/--llc
	bool skew_tick = false;
	std::string preempt;  // CONFIG_PREEMPT_*; empty = the preset's default
	std::string autogroup = "off";  // sysctl_sched_autogroup_enabled: on or off
	std::string slice;  // sysctl_sched_base_slice; empty = the preset's default for --online-cpus
	std::string ipi_latency = "0", idle_exit_latency = "0", wakeup_irq_cost = "0";
	std::string balance_cost;  // empty: default_balance_cost() of the profile
	std::string features;
	std::string tick_phase = "0", tick_jitter = "0", switch_cost = "0";
	u64 seed = 0;
	// The machine profile (io/profile.hpp): "exact", a built-in name or a file.
	std::string profile = "exact";
	std::vector<std::string> bugs;
};

Bugs parse_bugs(const std::vector<std::string>& names);

// Throws UsageError naming the flag and value.
Config build_config(const ModelOptions& o);

// The machine --topology (or --cpus and --llc) describes.
MachineShape machine_shape(const ModelOptions& o);

}  // namespace eevdf::cli
