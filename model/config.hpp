// SPDX-License-Identifier: GPL-2.0-only
// What a run of the model is configured with: the kernel version whose code
// paths it follows, HZ, the base slice, features and the realism knobs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/bugs.hpp"
#include "model/features.hpp"
#include "model/types.hpp"

namespace eevdf {

// Code paths that changed between kernel versions (kernel-eevdf.md §0.2, §16).
// A preset selects one of each; every other difference is a Feature.
struct KernelPaths {
	// The reference point v0 of the avg_vruntime sums.
	enum class RefPoint { MinVruntime /* 6.6 .. 6.18.0 */, ZeroVruntime /* 6.19, 6.18.y */ } ref_point;
	// How slice protection is stored and when update_curr() asks for a resched.
	enum class Protect {
		VlagStash,  // 6.6 .. 6.16: vlag == deadline marks protection; resched only on renewal
		Vprot,      // 6.17+: vprot, limited to the queue's min slice; resched at its end
	} protect;
	bool vprot_is_vlag;     // 6.17 / 6.18.0: vprot and vlag share storage (a union)
	bool did_preempt_short; // 6.12 .. 6.16: update_curr() also reschedules on did_preempt_short()
	enum class LagClamp { TwiceSlice /* <= 6.18.0 */, MaxSlicePlusTick /* 2026, 6.18.y */ } lag_clamp;
	bool custom_slices;            // 6.12+: sched_attr.sched_runtime sets the slice
	bool protect_only_at_pick;     // 2026 bcd74b2ffdd0: set_next_task(first=false) keeps vprot
	bool yield_forfeits_vruntime;  // 6.17+: yield sets vruntime = deadline (if eligible)
	u64 normalized_base_slice;     // 750000 before 6.15, 700000 from 6.15
};

struct KernelPreset {
	std::string_view name;
	std::string_view description;
	KernelPaths paths;
	Features features;  // the features.h defaults of that version
};

const std::vector<KernelPreset>& kernel_presets();
const KernelPreset* find_preset(std::string_view name);
inline constexpr std::string_view DEFAULT_PRESET = "6.18";

// Realism knobs: all zero by default, so the default model is exact.
struct Knobs {
	u64 tick_phase = 0;   // ticks fire at t > 0 with t = tick_phase (mod TICK_NSEC)
	u64 tick_jitter = 0;  // each tick arrives early by u, uniform in [0, tick_jitter] (seeded)
	u64 switch_cost = 0;  // from a pick until the next task runs its own code; charged to it
};

struct Config {
	const KernelPreset* preset = nullptr;
	Features features;      // preset defaults with the user's +A,-B applied
	u32 hz = 250;
	u64 tick_ns = 0;        // TICK_NSEC of hz
	u32 cpus = 1;           // scales the default base slice like update_sysctl()
	u64 base_slice_ns = 0;  // sysctl_sched_base_slice (debugfs base_slice_ns)
	Knobs knobs;
	u64 seed = 0;           // for the tick jitter
	// The reference point v0 at boot; the kernel uses -(1 << 20) so that
	// u64 wrap-around happens within the first millisecond.
	u64 vruntime_origin = static_cast<u64>(-(1LL << 20));
	Bugs bugs;  // historical bugs switched back in (none by default)
};

// The default base slice: normalized x (1 + ilog2(min(cpus, 8))).
u64 default_base_slice(const KernelPreset& preset, u32 cpus);

// A complete configuration for `preset` at `hz` with every default filled in
// (Bug::EXTRA_TICK_SLICE brings back the 0.75 ms normalized base slice).
Config make_config(const KernelPreset& preset, u32 hz, u32 cpus = 1, Bugs bugs = {});

// The `eevdf sim` flags that reproduce `cfg` (for replayable reports).
std::string command_line_flags(const Config& cfg);

// A one-line description of what is in force, e.g. for report headers.
std::string describe(const Config& cfg);
std::string features_string(const Features& f);

}  // namespace eevdf
