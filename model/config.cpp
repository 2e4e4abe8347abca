// SPDX-License-Identifier: GPL-2.0-only
#include "model/config.hpp"

#include <bit>

namespace eevdf {
namespace {

using P = KernelPaths;

constexpr Features features_of(std::initializer_list<Feature> on)
{
	Features f;
	for (Feature x : on)
		f.set(x, true);
	return f;
}

constexpr auto F66 = {Feature::PLACE_LAG, Feature::PLACE_DEADLINE_INITIAL, Feature::RUN_TO_PARITY,
		      Feature::WAKEUP_PREEMPTION};
constexpr auto F612 = {Feature::PLACE_LAG, Feature::PLACE_DEADLINE_INITIAL, Feature::PLACE_REL_DEADLINE,
		       Feature::RUN_TO_PARITY, Feature::PREEMPT_SHORT, Feature::DELAY_DEQUEUE,
		       Feature::DELAY_ZERO, Feature::WAKEUP_PREEMPTION};

}  // namespace

const std::vector<KernelPreset>& kernel_presets()
{
	static const std::vector<KernelPreset> presets = {
		{"6.6", "v6.6: first EEVDF; vlag==deadline slice protection; 0.75 ms base slice",
		 P{P::RefPoint::MinVruntime, P::Protect::VlagStash, false, false, P::LagClamp::TwiceSlice,
		   false, false, false, 750000},
		 features_of(F66)},
		{"6.12", "v6.12.0: delayed dequeue, PREEMPT_SHORT, custom slices; 0.75 ms base slice",
		 P{P::RefPoint::MinVruntime, P::Protect::VlagStash, false, true, P::LagClamp::TwiceSlice,
		   true, false, false, 750000},
		 features_of(F612)},
		{"6.15", "v6.15: 0.70 ms base slice (2ae891b82695)",
		 P{P::RefPoint::MinVruntime, P::Protect::VlagStash, false, true, P::LagClamp::TwiceSlice,
		   true, false, false, 700000},
		 features_of(F612)},
		{"6.18", "v6.18.0: vprot slice protection limited to the min slice, resched at its end, yield forfeits vruntime",
		 P{P::RefPoint::MinVruntime, P::Protect::Vprot, true, false, P::LagClamp::TwiceSlice,
		   true, false, true, 700000},
		 features_of(F612)},
		{"6.18.y", "v6.18 with the 2026 stable fixes: zero_vruntime, lag clamp max_slice+tick, vlag/vprot split, protection only at pick",
		 P{P::RefPoint::ZeroVruntime, P::Protect::Vprot, false, false, P::LagClamp::MaxSlicePlusTick,
		   true, true, true, 700000},
		 features_of(F612)},
	};
	return presets;
}

const KernelPreset* find_preset(std::string_view name)
{
	for (const KernelPreset& p : kernel_presets())
		if (p.name == name)
			return &p;
	return nullptr;
}

// update_sysctl() with SCHED_TUNABLESCALING_LOG: factor = 1 + ilog2(min(cpus, 8)).
u64 default_base_slice(const KernelPreset& preset, u32 cpus)
{
	const u32 c = cpus < 1 ? 1 : (cpus > 8 ? 8 : cpus);
	const u32 factor = 1 + (31 - std::countl_zero(c));
	return preset.paths.normalized_base_slice * factor;
}

Config make_config(const KernelPreset& preset, u32 hz, u32 cpus, Bugs bugs)
{
	Config cfg;
	cfg.preset = &preset;
	cfg.features = preset.features;
	cfg.hz = hz;
	cfg.tick_ns = tick_nsec(hz);
	cfg.cpus = cpus;
	cfg.base_slice_ns = default_base_slice(preset, cpus);
	cfg.bugs = bugs;
	if (bugs[Bug::EXTRA_TICK_SLICE])
		cfg.base_slice_ns = cfg.base_slice_ns / preset.paths.normalized_base_slice * 750000;
	return cfg;
}

std::string features_string(const Features& f)
{
	std::string s;
	for (unsigned i = 0; i < feature_names.size(); i++) {
		if (!s.empty())
			s += ',';
		s += f[static_cast<Feature>(i)] ? '+' : '-';
		s += feature_names[i];
	}
	return s;
}

std::string command_line_flags(const Config& cfg)
{
	std::string s = "--kernel " + std::string(cfg.preset->name) + " --hz " + std::to_string(cfg.hz) +
			" --cpus " + std::to_string(cfg.cpus) + " --slice " + std::to_string(cfg.base_slice_ns) + "ns";
	std::string feats;
	for (unsigned i = 0; i < feature_names.size(); i++) {
		const Feature f = static_cast<Feature>(i);
		if (cfg.features[f] != cfg.preset->features[f])
			feats += (feats.empty() ? "" : ",") + std::string(cfg.features[f] ? "+" : "-") +
				 std::string(feature_names[i]);
	}
	if (!feats.empty())
		s += " --features " + feats;
	if (cfg.knobs.tick_phase)
		s += " --tick-phase " + std::to_string(cfg.knobs.tick_phase) + "ns";
	if (cfg.knobs.tick_jitter)
		s += " --tick-jitter " + std::to_string(cfg.knobs.tick_jitter) + "ns";
	if (cfg.knobs.switch_cost)
		s += " --switch-cost " + std::to_string(cfg.knobs.switch_cost) + "ns";
	if (cfg.seed)
		s += " --seed " + std::to_string(cfg.seed);
	for (unsigned i = 0; i < bug_info.size(); i++)
		if (cfg.bugs[static_cast<Bug>(i)])
			s += " --bug " + std::string(bug_info[i].name);
	return s;
}

std::string describe(const Config& cfg)
{
	return "kernel " + std::string(cfg.preset->name) + ", HZ=" + std::to_string(cfg.hz) +
	       " (TICK_NSEC=" + std::to_string(cfg.tick_ns) + "), base_slice=" +
	       std::to_string(cfg.base_slice_ns) + " ns, cpus=" + std::to_string(cfg.cpus) +
	       ", features " + features_string(cfg.features) + ", tick_phase=" +
	       std::to_string(cfg.knobs.tick_phase) + " ns, tick_jitter=" +
	       std::to_string(cfg.knobs.tick_jitter) + " ns, switch_cost=" +
	       std::to_string(cfg.knobs.switch_cost) + " ns, seed=" + std::to_string(cfg.seed);
}

}  // namespace eevdf
