// SPDX-License-Identifier: GPL-2.0-only
#include "io/model_options.hpp"

#include "io/input_error.hpp"
#include "io/profile.hpp"
#include "io/topology_spec.hpp"
#include "io/values.hpp"
#include "model/cpumask.hpp"

namespace eevdf::cli {

Bugs parse_bugs(const std::vector<std::string>& names)
{
	Bugs bugs;
	for (const std::string& n : names) {
		const auto b = bug_by_name(n);
		if (!b) {
			std::string known;
			for (const BugInfo& i : bug_info)
				known += (known.empty() ? "" : ", ") + std::string(i.name);
			throw UsageError("--bug: unknown bug '" + n + "' (known: " + known + ")");
		}
		bugs.set(*b);
	}
	return bugs;
}

MachineShape machine_shape(const ModelOptions& o)
{
	if (o.cpus < 1 || o.cpus > MAX_CPUS)
		throw UsageError("--cpus: " + std::to_string(o.cpus) + " is outside 1.." + std::to_string(MAX_CPUS));
	if (!o.topology.empty()) {
		if (o.llc)
			throw UsageError("--llc: with --topology, give the LLC there (llc=" + std::to_string(o.llc) + ")");
		return parse_topology(o.topology, o.cpus, "--topology");
	}
	if (o.llc && (o.llc > o.cpus || o.cpus % o.llc))
		throw UsageError("--llc: " + std::to_string(o.llc) + " CPUs per LLC do not divide --cpus " +
				 std::to_string(o.cpus));
	MachineShape m;
	m.cpus = o.cpus;
	m.llc = o.llc;
	return m;
}

Config build_config(const ModelOptions& o)
{
	const KernelPreset* preset = find_preset(o.kernel);
	if (!preset && retired_preset(o.kernel))
		throw UsageError("--kernel: " + std::string(retired_preset(o.kernel)));
	if (!preset) {
		std::string known;
		for (const KernelPreset& p : kernel_presets())
			known += (known.empty() ? "" : ", ") + std::string(p.name);
		throw UsageError("--kernel: unknown preset '" + o.kernel + "' (known: " + known + ")");
	}
	if (o.hz < 1 || o.hz > 100000)
		throw UsageError("--hz: " + std::to_string(o.hz) + " is outside 1..100000");
	const MachineShape shape = machine_shape(o);
	const u32 online = o.online_cpus ? o.online_cpus : shape.cpus;
	if (online > MAX_CPUS)
		throw UsageError("--online-cpus: " + std::to_string(online) + " is outside 1.." +
				 std::to_string(MAX_CPUS));
	if (online < shape.cpus)
		throw UsageError("--online-cpus: " + std::to_string(online) + " is below --cpus " +
				 std::to_string(shape.cpus));
	Config cfg = make_config(*preset, o.hz, online, parse_bugs(o.bugs));
	cfg.cpus = shape.cpus;
	// the --llc flag's value as given (0 when the LLC is every CPU), so
	// that reports name the machine as before
	cfg.llc_size = shape.llc_size() == shape.cpus ? o.llc : shape.llc_size();
	cfg.smt = shape.smt;
	cfg.cluster = shape.cluster_size() == shape.smt ? 0 : shape.cluster_size();
	if (shape.nr_nodes() > 1) {
		cfg.node = shape.node;
		cfg.numa_distance = shape.numa_distance;
		cfg.reclaim_distance = shape.reclaim_distance;
	}
	cfg.skew_tick = o.skew_tick;
	if (o.autogroup != "on" && o.autogroup != "off")
		throw UsageError("--autogroup: '" + o.autogroup + "' is not on or off");
	cfg.autogroup = o.autogroup == "on";
	if (!o.preempt.empty()) {
		const std::optional<Preempt> p = preempt_by_name(o.preempt);
		if (!p)
			throw UsageError("--preempt: '" + o.preempt + "' is not none, voluntary, full or lazy");
		if (*p == Preempt::Lazy && !cfg.preset->paths.has_preempt_lazy)
			throw UsageError("--preempt: lazy does not exist in the kernel of preset " +
					 std::string(cfg.preset->name) + " (PREEMPT_LAZY came with 6.13)");
		if ((*p == Preempt::None || *p == Preempt::Voluntary) && cfg.preset->paths.preempt_lazy_default)
			throw UsageError("--preempt: " + o.preempt + " is not offered on x86 by preset " +
					 std::string(cfg.preset->name) + " (7.x: PREEMPT_NONE needs ARCH_NO_PREEMPT; "
					 "VOLUNTARY needs !ARCH_HAS_PREEMPT_LAZY); use full or lazy");
		cfg.preempt = *p;
	}
	if (!o.slice.empty()) {
		cfg.base_slice_ns = parse_duration(o.slice, "--slice");
		if (cfg.base_slice_ns == 0)
			throw UsageError("--slice: must be positive");
	}
	cfg.features = apply_feature_list(cfg.features, o.features, "--features");
	const Features have = available_features(*cfg.preset);
	for (unsigned i = 0; i < feature_names.size(); i++) {
		const Feature f = static_cast<Feature>(i);
		if (cfg.features[f] && !have[f])
			throw UsageError("--features: " + std::string(feature_names[i]) + " does not exist in the kernel of preset " +
					 std::string(cfg.preset->name) + " (" + std::string(cfg.preset->description.substr(0, 8)) +
					 "...); eevdf presets lists each preset's features");
	}
	cfg.knobs.tick_phase = parse_duration(o.tick_phase, "--tick-phase");
	cfg.knobs.tick_jitter = parse_duration(o.tick_jitter, "--tick-jitter");
	cfg.knobs.switch_cost = parse_duration(o.switch_cost, "--switch-cost");
	cfg.knobs.ipi_latency = parse_duration(o.ipi_latency, "--ipi-latency");
	cfg.knobs.idle_exit_latency = parse_duration(o.idle_exit_latency, "--idle-exit-latency");
	cfg.knobs.wakeup_irq_cost = parse_duration(o.wakeup_irq_cost, "--wakeup-irq-cost");
	if (!o.balance_cost.empty())
		cfg.knobs.balance_cost = parse_duration(o.balance_cost, "--balance-cost");
	if (cfg.knobs.tick_phase >= cfg.tick_ns)
		throw UsageError("--tick-phase: " + o.tick_phase + " must be below TICK_NSEC (" +
				 std::to_string(cfg.tick_ns) + " ns at HZ=" + std::to_string(cfg.hz) + ")");
	if (cfg.knobs.tick_jitter >= cfg.tick_ns)
		throw UsageError("--tick-jitter: " + o.tick_jitter + " must be below TICK_NSEC (" +
				 std::to_string(cfg.tick_ns) + " ns at HZ=" + std::to_string(cfg.hz) + ")");
	cfg.seed = o.seed;
	try {
		cfg.profile = find_profile(o.profile);
	} catch (const InputError& e) {
		throw UsageError(std::string(e.what()).rfind("--profile", 0) == 0 ? e.what()
										  : "--profile: " + std::string(e.what()));
	}
	if (o.balance_cost.empty())
		cfg.knobs.balance_cost = default_balance_cost(cfg.profile);
	if (tick_jitter_max(cfg) >= cfg.tick_ns)
		throw UsageError("--profile: " + cfg.profile.name + ": tick jitter up to " +
				 std::to_string(tick_jitter_max(cfg)) + " ns with --tick-jitter must be below TICK_NSEC (" +
				 std::to_string(cfg.tick_ns) + " ns at HZ=" + std::to_string(cfg.hz) + ")");
	return cfg;
}

}  // namespace eevdf::cli
