// SPDX-License-Identifier: GPL-2.0-only
#include "model/config.hpp"

#include <bit>

#include "model/topology.hpp"

namespace eevdf {
namespace {

constexpr Feature FSMP_LIST[] = {Feature::TTWU_QUEUE, Feature::SIS_UTIL, Feature::WA_IDLE, Feature::WA_WEIGHT,
				 Feature::WA_BIAS, Feature::UTIL_EST};

constexpr Features features_of(std::initializer_list<Feature> on, bool ni_random = false)
{
	Features f;
	for (Feature x : on)
		f.set(x, true);
	for (Feature x : FSMP_LIST)
		f.set(x, true);
	f.set(Feature::NI_RANDOM, ni_random);  // 33cf66d88306, 6.18.5+
	return f;
}

constexpr auto F66 = {Feature::PLACE_LAG, Feature::PLACE_DEADLINE_INITIAL, Feature::RUN_TO_PARITY,
		      Feature::WAKEUP_PREEMPTION};
constexpr auto F612 = {Feature::PLACE_LAG, Feature::PLACE_DEADLINE_INITIAL, Feature::PLACE_REL_DEADLINE,
		       Feature::RUN_TO_PARITY, Feature::PREEMPT_SHORT, Feature::DELAY_DEQUEUE,
		       Feature::DELAY_ZERO, Feature::WAKEUP_PREEMPTION};


}  // namespace

// Each preset is checked against the stored source of the release it names
// (docs/model.md, "Presets"); 6.15 has no stored copy and follows 6.12.0 plus
// the two later commits it lists.
//
// v6.6 names every field; each later preset is the one before it with the
// fields its release changed, each beside the commit that changed it, so a
// row reads as the release's changelog (the order `eevdf presets` prints).
// A field added to KernelPaths must be set in v6_6_paths() (designated
// initialisers must follow the declaration order, so the compiler checks
// the order; the size assertion below makes an unset new field a build
// break rather than a silent false).
namespace {

constexpr KernelPaths v6_6_paths()
{
	using P = KernelPaths;
	return KernelPaths{
		.tree = P::Tree::VruntimeKeyed,
		.ref_point = P::RefPoint::MinVruntime,
		.protect = P::Protect::VlagStash,
		.vprot_is_vlag = false,
		.did_preempt_short = false,
		.lag_clamp = P::LagClamp::TwiceSlice,
		.custom_slices = false,
		.protect_only_at_pick = false,
		.yield = P::Yield::PushDeadline,
		.fork_enqueue_initial = false,
		.reweight_rescales_rel_deadline = false,
		.wakeup_preempt = P::WakeupPreempt::Pick,
		.hrtick_rearm_on_repick = true,
		.normalized_base_slice = 750000,
		.newidle_bump_on_failure = false,
		.lb_skips_delayed = false,
		.lb_prefers_eligible = false,
		.wa_idle_sync_minus_delayed = false,
		.wakeup_stats_allowed_only = false,
		.calc_delta_divides = false,
		.avg_full_weight = false,
		.delayed_lag_floor = false,
		.hrtick_rework = false,
		.newidle_rate = false,
		.has_preempt_lazy = false,
		.preempt_lazy_default = false,
		.avg_idle_at_idle_exit = false,
		.util_est_after_ageing = false,
		.idle_policy_reweights = false,
		.idle_preempt_first = true,
		.idle_preempt_cancels_protect = false,
		.sched_idle_skips_idle_wakee = false,
		.delayed_break_keeps_slice = false,  // 6.6.0: no delayed entities
		.group_slice_tree_stale = false,     // 6.6.0: no min_slice augment, every slice the base slice
		.pelt_runnable_skips_delayed = false,  // 6.6.0: no delayed tasks
		.pick_buddy = P::PickBuddy::None,
		.short_preempt_clears_buddy = false,
		.queued_reweight = P::QueuedReweight::KeepVruntime,
		.update_cfs_group_always = true,
		.empty_group_keeps_weight = false,
		.tg_load_ratelimit = false,
	};
}
// A structured binding must name every field, so a field added to
// KernelPaths breaks the build here until it is set in v6_6_paths() (and in
// the preset whose release introduced it) and counted below.
constexpr bool kernel_paths_fields_named()
{
	[[maybe_unused]] auto [f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20,
			       f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31, f32, f33, f34, f35, f36, f37, f38, f39, f40, f41] = v6_6_paths();
	return true;
}
static_assert(kernel_paths_fields_named());

}  // namespace

const std::vector<KernelPreset>& kernel_presets()
{
	using P = KernelPaths;
	static const std::vector<KernelPreset> presets = [] {
		std::vector<KernelPreset> v;
		KernelPaths p = v6_6_paths();
		v.push_back({"6.6", "v6.6.0: first EEVDF; vruntime-keyed tree, curr keeps deadline ties; vlag==deadline protection; "
			     "a forked task's first request is a full slice; 0.75 ms base slice",
			     "147f3efaa241 (EEVDF), b01db23d5923, 8dafa9d0eb1a", p, features_of(F66)});

		p.tree = P::Tree::DeadlineKeyed;  // 2227a957e1d5 (6.8)
		p.fork_enqueue_initial = true;    // 6.8: wake_up_new_task() activates with ENQUEUE_INITIAL
		p.hrtick_rearm_on_repick = false; // a re-pick leaves the hrtick cleared by __schedule()
		p.idle_policy_reweights = true;   // 6.11: set_load_weight() reweights a SCHED_IDLE task
		p.idle_preempt_first = false;     // the idle-curr preemption after the WAKEUP_PREEMPTION test
		p.custom_slices = true;           // 857b158dc5e8
		p.did_preempt_short = true;       // 85e511df3cec (PREEMPT_SHORT)
		p.delayed_break_keeps_slice = true;  // 152e11f6df29 / aef6987d8954 (6.12): dequeue_entities()
		p.group_slice_tree_stale = true;     // aef6987d8954 (6.12): se->slice = slice, no propagation
		p.queued_reweight = P::QueuedReweight::ReweightEevdf;  // eab03c23c2a1 (6.7): reweight_eevdf()
		p.update_cfs_group_always = false;                   // eab03c23c2a1 (6.7)
		p.tg_load_ratelimit = true;                          // 1528c661c24b (6.7)
		v.push_back({"6.12", "v6.12.0: deadline-keyed tree, delayed dequeue, PREEMPT_SHORT, custom slices; "
			     "an off-queue reweight keeps the relative deadline unscaled; 0.75 ms base slice",
			     "2227a957e1d5 (tree by deadline), 152e11f6df29 (DELAY_DEQUEUE), 857b158dc5e8 (custom slices), "
			     "85e511df3cec (PREEMPT_SHORT)",
			     p, features_of(F612)});

		p.reweight_rescales_rel_deadline = true;  // 6d71a9c61604 (6.13)
		p.has_preempt_lazy = true;                // 6.13: CONFIG_PREEMPT_LAZY
		p.lb_skips_delayed = true;                // c2a295bffeaf, 61b82dfb6b7e (6.14)
		p.normalized_base_slice = 700000;         // 2ae891b82695 (6.15)
		p.lb_prefers_eligible = true;             // 873199d27bb2 (6.15)
		p.idle_preempt_cancels_protect = true;    // f553741ac8c0 (6.15, stable 6.14.2)
		// 6.15's group walks are 6.18's: the group fixes between 6.12.0 and
		// 6.18.0 (66951e4860d3, 6d71a9c61604, 2a77e4be12cb, 563bc2161b94,
		// bbce3de72be5) are all in 6.15.0; c70fc32f4443 (6.16) decides
		// nothing (docs/model.md "Task groups"). Flat workloads never set a
		// buddy nor reweight a queued entity, so these change nothing flat.
		p.pelt_runnable_skips_delayed = true;  // 76f2f783294d (6.13): h_nr_delayed
		p.delayed_break_keeps_slice = false;  // bbce3de72be5 (6.15)
		p.group_slice_tree_stale = false;     // 563bc2161b94 (6.15)
		p.pick_buddy = P::PickBuddy::InPickNextEntity;       // 2a77e4be12cb (6.14)
		p.queued_reweight = P::QueuedReweight::PlaceEntity;  // 6d71a9c61604 (6.13)
		p.empty_group_keeps_weight = true;                   // 66951e4860d3 (6.13)
		v.push_back({"6.15", "v6.15 (no stored source: 6.12.0 with the three commits listed): reweight rescales the "
			     "relative deadline; 0.70 ms base slice; a SCHED_IDLE curr preempted by a waker loses its "
			     "protection",
			     "6d71a9c61604 (reweight rescale, 6.13), 2ae891b82695 (0.70 ms, 6.15), f553741ac8c0 (idle entity "
			     "protection cancelled, 6.15)",
			     p, features_of(F612)});

		p.wa_idle_sync_minus_delayed = true;   // aa3ee4f0b754 (6.16)
		p.protect = P::Protect::Vprot;         // 0b9ca2dcabc3, 052c3d87c82e, 74eec63661d4 (6.17)
		p.vprot_is_vlag = true;                // 6.17: vprot in a union with vlag
		p.did_preempt_short = false;           // 9de74a9850b9
		p.wakeup_preempt = P::WakeupPreempt::ProtectParam;  // 6.17
		p.newidle_bump_on_failure = true;      // 155213a2aed4 (6.17)
		v.push_back({"6.18", "v6.18.0 (= 6.18-rc5 fair.c): vprot protection limited to the min slice, resched at its "
			     "end; yield pushes the deadline",
			     "0b9ca2dcabc3, 052c3d87c82e, 74eec63661d4 (vprot, 6.17), 9de74a9850b9 (no did_preempt_short)",
			     p, features_of(F612)});

		p.yield = P::Yield::ForfeitVruntime;  // 79104becf42b (stable 6.18.2)
		v.push_back({"6.18.2", "6.18.2: yield forfeits the rest of the request (if eligible); one-CPU decisions also "
			     "of 6.18.3 and 6.18.4 (6.18.3 drops the newidle cost bump)",
			     "79104becf42b (stable backport)", p, features_of(F612)});

		p.newidle_bump_on_failure = false;            // 6.18.3: 155213a2aed4 reverted
		p.ref_point = P::RefPoint::ZeroVruntimeAtQueue;  // 79f3f9bedd14 (6.18.4)
		v.push_back({"6.18.5", "6.18.5 .. 6.18.16: zero_vruntime re-centred at every tree insert/erase (6.18.4); "
			     "one-CPU decisions as 6.18.2",
			     "79f3f9bedd14 (zero_vruntime, 6.18.4), 33cf66d88306 (NI_RANDOM newidle, 6.18.5)",
			     p, features_of(F612, true)});

		p.lag_clamp = P::LagClamp::MaxSlicePlusTick;   // 6e3c0a4e1ad1
		p.protect_only_at_pick = true;                 // bcd74b2ffdd0
		p.ref_point = P::RefPoint::ZeroVruntimeAtAvg;  // b3d99f43c72b
		p.queued_reweight = P::QueuedReweight::PlaceEntityRelVprot;  // ff38424030f9
		v.push_back({"6.18.17", "6.18.17 .. 6.18.32: lag clamp max_slice + TICK_NSEC, protection set only at pick, "
			     "zero_vruntime pulled by avg_vruntime(); vlag and vprot still share storage",
			     "6e3c0a4e1ad1 (lag clamp), bcd74b2ffdd0 (protection at pick), b3d99f43c72b (zero_vruntime "
			     "tracking)",
			     p, features_of(F612, true)});

		p.wakeup_preempt = P::WakeupPreempt::Actions;  // e837456fdca8 (stable 6.18.33)
		p.pick_buddy = P::PickBuddy::InPickEevdf;      // e837456fdca8: the buddy test moved into __pick_eevdf()
		v.push_back({"6.18.33", "6.18.33 .. 6.18.38: reworked wakeup preemption (fork and delayed wakers do not "
			     "preempt unless shorter; a delayed pick is dequeued and the pick retried; protection shrinks "
			     "after every wakeup that does not preempt)",
			     "e837456fdca8 (\"Reimplement NEXT_BUDDY to align with EEVDF goals\": preempt_wakeup_action; "
			     "stable backport)",
			     p, features_of(F612, true)});

		p.wakeup_stats_allowed_only = true;  // 6.18.39 stable: update_sg_wakeup_stats() & p->cpus_ptr
		v.push_back({"6.18.39", "6.18.39 .. 6.18.44 (the running kernel here): fork placement sums only the allowed "
			     "CPUs of a group (update_sg_wakeup_stats)",
			     "(6.18.39 stable: update_sg_wakeup_stats() iterates sched_group_span & p->cpus_ptr)", p,
			     features_of(F612, true)});

		// Mainline 7.0 / 7.1 (each read in v7.1.5's source).
		p.vprot_is_vlag = false;          // 80390ead2080: vlag and vprot split
		p.queued_reweight = P::QueuedReweight::PreserveV;  // 101f3498b4bd
		p.pick_buddy = P::PickBuddy::InPickEevdfProtect;  // 7.x __pick_eevdf(): "PICK_BUDDY && protect"
		p.short_preempt_clears_buddy = true;              // 7.x wakeup_preempt_fair(): clear_buddies() on SHORT
		p.calc_delta_divides = true;      // 64-bit __calc_delta()
		p.avg_full_weight = true;         // avg_vruntime_weight(), vruntime_eligible() in __int128
		p.delayed_lag_floor = true;       // update_entity_lag() of sched_delayed, requeue_delayed_entity()
		p.hrtick_rework = true;           // hrtick_start(), hrtick_schedule_exit(), hrtick_start_fair() by vdelta
		p.newidle_rate = true;            // update_newidle_stats() NI_RATE
		p.preempt_lazy_default = true;    // Kconfig.preempt: PREEMPT_LAZY default with ARCH_HAS_PREEMPT_LAZY
		p.avg_idle_at_idle_exit = true;   // update_rq_avg_idle() in put_prev_task_idle()
		p.util_est_after_ageing = true;   // util_est_update() under UPDATE_UTIL_EST
		p.sched_idle_skips_idle_wakee = true;  // choose_idle_cpu()
		v.push_back({"7.1.5", "v7.1.5 (mainline 7.1): vlag and vprot split; __calc_delta divides in 64 bits; the "
			     "avg_vruntime sums at full weight, eligibility in 128 bits; a delayed task's lag kept at least its "
			     "lag at the delay (DELAY_ZERO caps it at 0) and re-placed on requeue when that changed it; "
			     "util_est sampled after the dequeue's ageing; avg_idle sampled at every idle exit; NI_RATE; "
			     "PREEMPT_LAZY by default (x86); the reworked hrtick, on by default (x86)",
			     "101f3498b4bd (reweight without place_entity: flat tasks reweight off the queue, no change here); "
			     "7.0/7.1 fair.c: avg_vruntime_weight(), vruntime_eligible() __int128, update_entity_lag() for "
			     "sched_delayed, requeue_delayed_entity(), util_est_update() under UPDATE_UTIL_EST, 64-bit "
			     "__calc_delta(), update_newidle_stats() NI_RATE, update_rq_avg_idle() in put_prev_task_idle(); "
			     "Kconfig.preempt (PREEMPT_LAZY default with ARCH_HAS_PREEMPT_LAZY); core.c hrtick_start(), "
			     "hrtick_schedule_exit() and fair.c hrtick_start_fair() by vdelta, HRTICK default on under "
			     "CONFIG_HRTIMER_REARM_DEFERRED",
			     p, features_of(F612, true).set(Feature::HRTICK, true)});
		return v;
	}();
	return presets;
}

Features available_features(const KernelPreset& p)
{
	Features f;
	for (Feature x : {Feature::PLACE_LAG, Feature::PLACE_DEADLINE_INITIAL, Feature::RUN_TO_PARITY,
			  Feature::WAKEUP_PREEMPTION, Feature::HRTICK, Feature::NO_HZ_FULL})
		f.set(x, true);
	for (Feature x : FSMP_LIST)
		f.set(x, true);
	if (p.paths.custom_slices)  // the 6.12 "Complete EEVDF" series
		for (Feature x : {Feature::PLACE_REL_DEADLINE, Feature::PREEMPT_SHORT, Feature::DELAY_DEQUEUE,
				  Feature::DELAY_ZERO})
			f.set(x, true);
	f.set(Feature::NI_RANDOM, p.features[Feature::NI_RANDOM]);
	f.set(Feature::TTWU_QUEUE_DELAYED, p.paths.protect == KernelPaths::Protect::Vprot);
	return f;
}

const KernelPreset* find_preset(std::string_view name)
{
	if (name == "6.18.0")
		name = "6.18";
	for (const KernelPreset& p : kernel_presets())
		if (p.name == name)
			return &p;
	return nullptr;
}

const char* retired_preset(std::string_view name)
{
	if (name == "6.18.y")
		return "\"6.18.y\" mixed fixes from several stable releases and from mainline; it is gone: use "
		       "6.18.2, 6.18.5, 6.18.17, 6.18.33 or 6.18.39 (the running 6.18.44's)";
	return nullptr;
}

const KernelPreset* preset_for_release(std::string_view release)
{
	// "6.18.44-1-amd64" -> (6, 18, 44); missing parts are 0.
	unsigned v[3] = {0, 0, 0};
	size_t i = 0;
	for (unsigned k = 0; k < 3; k++) {
		if (i >= release.size() || release[i] < '0' || release[i] > '9')
			break;
		while (i < release.size() && release[i] >= '0' && release[i] <= '9')
			v[k] = v[k] * 10 + static_cast<unsigned>(release[i++] - '0');
		if (i < release.size() && release[i] == '.')
			i++;
		else
			break;
	}
	auto key = [](unsigned a, unsigned b, unsigned c) { return (a * 1000 + b) * 1000 + c; };
	const unsigned want = key(v[0], v[1], v[2]);
	const KernelPreset* best = nullptr;
	unsigned best_key = 0;
	for (const KernelPreset& p : kernel_presets()) {
		unsigned pv[3] = {0, 0, 0};
		size_t j = 0;
		for (unsigned k = 0; k < 3 && j < p.name.size(); k++) {
			while (j < p.name.size() && p.name[j] != '.')
				pv[k] = pv[k] * 10 + static_cast<unsigned>(p.name[j++] - '0');
			j++;
		}
		const unsigned pk = key(pv[0], pv[1], pv[2]);
		if (pk <= want && (!best || pk > best_key)) {
			best = &p;
			best_key = pk;
		}
	}
	return best;
}

// update_sysctl() with SCHED_TUNABLESCALING_LOG: factor = 1 + ilog2(min(cpus, 8)).
u64 default_base_slice(const KernelPreset& preset, u32 cpus)
{
	const u32 c = cpus < 1 ? 1 : (cpus > 8 ? 8 : cpus);
	const u32 factor = 1 + (31 - std::countl_zero(c));
	return preset.paths.normalized_base_slice * factor;
}

std::string_view preempt_name(Preempt p)
{
	switch (p) {
	case Preempt::None: return "none";
	case Preempt::Voluntary: return "voluntary";
	case Preempt::Full: return "full";
	case Preempt::Lazy: return "lazy";
	}
	return "none";
}

std::optional<Preempt> preempt_by_name(std::string_view name)
{
	for (Preempt p : {Preempt::None, Preempt::Voluntary, Preempt::Full, Preempt::Lazy})
		if (preempt_name(p) == name)
			return p;
	return std::nullopt;
}

Config make_config(const KernelPreset& preset, u32 hz, u32 cpus, Bugs bugs)
{
	Config cfg;
	cfg.preset = &preset;
	cfg.preempt = preset.paths.preempt_lazy_default ? Preempt::Lazy : Preempt::None;
	cfg.features = preset.features;
	cfg.hz = hz;
	cfg.tick_ns = tick_nsec(hz);
	cfg.cpus = cpus;
	cfg.online_cpus = cpus;
	cfg.base_slice_ns = default_base_slice(preset, cpus);
	if (bugs[Bug::SLICE_SCALE_UNCAPPED] && cpus > 8)
		cfg.base_slice_ns = preset.paths.normalized_base_slice * (1 + (31 - std::countl_zero(cpus)));
	cfg.bugs = bugs;
	if (bugs[Bug::EXTRA_TICK_SLICE])
		cfg.base_slice_ns = cfg.base_slice_ns / preset.paths.normalized_base_slice * 750000;
	return cfg;
}

Config make_config_one_of(const KernelPreset& preset, u32 hz, u32 online_cpus, Bugs bugs)
{
	Config cfg = make_config(preset, hz, online_cpus, bugs);
	cfg.cpus = 1;
	return cfg;
}

std::string features_string(const Features& f, bool smp)
{
	std::string s;
	const unsigned n = smp ? static_cast<unsigned>(feature_names.size()) : FIRST_SMP_FEATURE;
	for (unsigned i = 0; i < n; i++) {
		if (!s.empty())
			s += ',';
		s += f[static_cast<Feature>(i)] ? '+' : '-';
		s += feature_names[i];
	}
	return s;
}

MachineShape machine_shape_of(const Config& cfg)
{
	MachineShape m;
	m.cpus = cfg.cpus;
	m.smt = cfg.smt;
	m.cluster = cfg.cluster;
	m.llc = cfg.llc_size;
	m.node = cfg.node;
	m.numa_distance = cfg.numa_distance;
	m.reclaim_distance = cfg.reclaim_distance;
	return m;
}

std::string command_line_flags(const Config& cfg)
{
	std::string s = "--kernel " + std::string(cfg.preset->name) + " --hz " + std::to_string(cfg.hz) +
			" --cpus " + std::to_string(cfg.cpus);
	if (cfg.online_cpus != cfg.cpus)
		s += " --online-cpus " + std::to_string(cfg.online_cpus);
	if (cfg.smt > 1 || cfg.cluster || several_nodes(cfg))
		s += " --topology smt=" + std::to_string(cfg.smt) +
		     (cfg.cluster ? ",cluster=" + std::to_string(cfg.cluster) : "") +
		     (cfg.llc_size && cfg.llc_size != cfg.cpus ? ",llc=" + std::to_string(cfg.llc_size) : "") +
		     (several_nodes(cfg) ? ",node=" + std::to_string(cfg.node) +
						   ",distance=" + std::to_string(cfg.numa_distance) +
						   ",reclaim=" + std::to_string(cfg.reclaim_distance)
					 : "");
	else if (cfg.llc_size && cfg.llc_size != cfg.cpus)
		s += " --llc " + std::to_string(cfg.llc_size);
	if (cfg.skew_tick)
		s += " --skew-tick";
	if (cfg.autogroup)
		s += " --autogroup on";
	if (cfg.preempt != Preempt::None)
		s += " --preempt " + std::string(preempt_name(cfg.preempt));
	s += " --slice " + std::to_string(cfg.base_slice_ns) + "ns";
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
	if (cfg.knobs.ipi_latency)
		s += " --ipi-latency " + std::to_string(cfg.knobs.ipi_latency) + "ns";
	if (cfg.knobs.idle_exit_latency)
		s += " --idle-exit-latency " + std::to_string(cfg.knobs.idle_exit_latency) + "ns";
	if (cfg.knobs.wakeup_irq_cost)
		s += " --wakeup-irq-cost " + std::to_string(cfg.knobs.wakeup_irq_cost) + "ns";
	if (cfg.knobs.balance_cost != default_balance_cost(cfg.profile))
		s += " --balance-cost " + std::to_string(cfg.knobs.balance_cost) + "ns";
	if (cfg.seed)
		s += " --seed " + std::to_string(cfg.seed);
	for (unsigned i = 0; i < bug_info.size(); i++)
		if (cfg.bugs[static_cast<Bug>(i)])
			s += " --bug " + std::string(bug_info[i].name);
	return s;
}

std::string describe(const Config& cfg)
{
	// One CPU keeps the one-CPU model's wording; several name the topology
	// and the SMP features and knobs.
	const bool smp = cfg.cpus > 1;
	std::string cpus = std::to_string(cfg.cpus);
	if (cfg.online_cpus != cfg.cpus)
		cpus += " (of " + std::to_string(cfg.online_cpus) + " online)";
	if (smp)
		cpus += (cfg.smt > 1 ? ", smt=" + std::to_string(cfg.smt) : "") +
			(cfg.cluster ? ", cluster=" + std::to_string(cfg.cluster) : "") + ", llc=" +
			std::to_string(llc_size_of(cfg)) +
			(several_nodes(cfg) ? ", node=" + std::to_string(cfg.node) + ", distance=" +
						      std::to_string(cfg.numa_distance) + ", reclaim=" +
						      std::to_string(cfg.reclaim_distance)
					    : "") +
			(cfg.skew_tick ? ", skew_tick" : "");
	if (cfg.preempt != Preempt::None)
		cpus += ", preempt=" + std::string(preempt_name(cfg.preempt));
	if (cfg.autogroup)
		cpus += ", autogroup";
	std::string smp_knobs;
	if (smp)
		smp_knobs = ", ipi_latency=" + std::to_string(cfg.knobs.ipi_latency) + " ns, idle_exit_latency=" +
			    std::to_string(cfg.knobs.idle_exit_latency) + " ns, wakeup_irq_cost=" +
			    std::to_string(cfg.knobs.wakeup_irq_cost) + " ns, balance_cost=" +
			    std::to_string(cfg.knobs.balance_cost) + " ns";
	// Patch 11 of the unmerged series changes a delayed task's wake-up on
	// one CPU too, so the flag is named whenever it is on.
	std::string features = features_string(cfg.features, smp);
	if (cfg.features[Feature::TTWU_QUEUE_DELAYED])
		features += std::string(smp ? "" : ",+TTWU_QUEUE_DELAYED") +
			    " (TTWU_QUEUE_DELAYED: experimental, the unmerged mid-2025 series, not mainline)";
	// A run with a historical bug (or a mutation) switched in must not read
	// as a clean one (issue 18); a clean run's line is unchanged.
	std::string bugs;
	for (unsigned i = 0; i < bug_info.size(); i++)
		if (cfg.bugs[static_cast<Bug>(i)])
			bugs += (bugs.empty() ? "" : ",") + std::string(bug_info[i].name);
	if (!bugs.empty())
		bugs = ", BUGS SWITCHED IN: " + bugs + " (not the kernel's behaviour)";
	return "kernel " + std::string(cfg.preset->name) + ", HZ=" + std::to_string(cfg.hz) +
	       " (TICK_NSEC=" + std::to_string(cfg.tick_ns) + "), base_slice=" +
	       std::to_string(cfg.base_slice_ns) + " ns, cpus=" + cpus +
	       ", features " + features + smp_knobs + ", tick_phase=" +
	       std::to_string(cfg.knobs.tick_phase) + " ns, tick_jitter=" +
	       std::to_string(cfg.knobs.tick_jitter) + " ns, switch_cost=" +
	       std::to_string(cfg.knobs.switch_cost) + " ns, seed=" + std::to_string(cfg.seed) + bugs;
}

}  // namespace eevdf
