// SPDX-License-Identifier: GPL-2.0-only
#include "props/gen.hpp"

#include "io/rtapp.hpp"
#include "model/task_group.hpp"
#include "props/workload_dsl.hpp"

namespace eevdf::props {
namespace {

using namespace eevdf::test;

u64 us_in(u64 lo, u64 hi) { return *rc::gen::inRange<u64>(lo, hi + 1) * US; }

}  // namespace

// Everything of gen_config() but the preset.
Config config_for(const KernelPreset& preset)
{
		const u32 hz = *rc::gen::oneOf(rc::gen::element<u32>(100, 250, 300, 1000), rc::gen::inRange<u32>(100, 1501));
		const u32 cpus = *rc::gen::element<u32>(1, 2, 4, 8);
		Config cfg = make_config_one_of(preset, hz, cpus);  // one CPU; the slice scaled for `cpus` online
		const Features have = available_features(preset);
		for (unsigned i = 0; i < static_cast<unsigned>(Feature::COUNT); i++) {
			const Feature f = static_cast<Feature>(i);
			if (have[f] && *rc::gen::inRange(0, 5) == 0)
				cfg.features.set(f, !cfg.features[f]);
		}
		if (*rc::gen::arbitrary<bool>())
			cfg.knobs.tick_phase = *rc::gen::inRange<u64>(0, cfg.tick_ns);
		if (*rc::gen::arbitrary<bool>())
			cfg.knobs.tick_jitter = *rc::gen::inRange<u64>(0, cfg.tick_ns / 4);
		if (*rc::gen::arbitrary<bool>())
			cfg.knobs.switch_cost = *rc::gen::inRange<u64>(0, 50 * US);
		cfg.seed = *rc::gen::arbitrary<u64>();
		return cfg;
}

rc::Gen<Config> gen_config()
{
	return rc::gen::exec([] {
		const auto& presets = kernel_presets();
		return config_for(presets[*rc::gen::inRange<size_t>(0, presets.size())]);
	});
}

rc::Gen<Config> gen_group_config()
{
	return rc::gen::exec([] {
		const auto& presets = kernel_presets();
		Config cfg = config_for(presets[*rc::gen::inRange<size_t>(0, presets.size())]);
		// Half the runs with exact augmented slices, where the checker can
		// hold each group's slice to the smallest queued below it.
		cfg.exact_tree_augments = *rc::gen::arbitrary<bool>();
		return cfg;
	});
}

rc::Gen<Workload> gen_workload()
{
	return rc::gen::exec([] {
		Workload w;
		w.duration = us_in(100'000, 2'000'000);
		const int n = *rc::gen::inRange(1, 11);
		for (int i = 0; i < n; i++) {
			const std::string name = "t" + std::to_string(i);
			const int kind = *rc::gen::inRange(0, 7);
			std::vector<TaskSpec> made;
			switch (kind) {
			case 0:
				made.push_back(task(name, {run(RUN_FOREVER)}));
				break;
			case 1:
				made.push_back(task(name, {run(us_in(10, 5000)), sleep(us_in(10, 10000))}));
				break;
			case 2:
				made.push_back(task(name, {run(us_in(10, 5000)),
							   timer(w.ref("timer" + name), us_in(1000, 20000))}));
				break;
			case 3:
				made.push_back(task(name, {run(us_in(10, 5000)), set_nice(*rc::gen::inRange(-20, 20)),
							   run(us_in(10, 5000)), set_nice(*rc::gen::inRange(-20, 20)),
							   sleep(us_in(10, 5000))}));
				break;
			case 4:
				made.push_back(task(name, {run(us_in(10, 3000)), yield(), run(us_in(10, 3000)),
							   sleep(us_in(10, 5000))}));
				break;
			case 5: {
				const int ref = w.ref("wake" + name);
				made.push_back(
					task(name, {run(us_in(10, 3000)), resume(ref), sleep(us_in(100, 8000))}));
				made.push_back(task(name + "s", {suspend(ref), run(us_in(10, 2000))}));
				break;
			}
			default:
				made.push_back(
					task(name, {set_slice(us_in(100, 20000)), run(us_in(10, 5000)),
						    set_slice(*rc::gen::arbitrary<bool>() ? us_in(100, 20000) : 0),
						    sleep(us_in(10, 5000))}));
				break;
			}
			for (TaskSpec& t : made) {
				if (*rc::gen::inRange(0, 3) == 0)
					t.nice = *rc::gen::inRange(-20, 20);
				if (*rc::gen::inRange(0, 3) == 0)
					t.custom_slice = us_in(100, 20000);
				if (*rc::gen::arbitrary<bool>())
					t.delay = us_in(0, 20000);
				if (const int p = *rc::gen::inRange(0, 8); p < 2)
					t.policy = p == 0 ? Policy::Batch : Policy::Idle;
				w.tasks.push_back(std::move(t));
			}
		}
		return w;
	});
}

rc::Gen<Config> gen_smp_config()
{
	return rc::gen::exec([] {
		const auto& presets = kernel_presets();
		const KernelPreset& preset = presets[*rc::gen::inRange<size_t>(0, presets.size())];
		const u32 hz = *rc::gen::element<u32>(100, 250, 300, 1000);
		const u32 cpus = *rc::gen::inRange<u32>(2, 9);
		Config cfg = make_config(preset, hz, cpus);
		std::vector<u32> llcs;
		for (u32 d = 1; d <= cpus; d++)
			if (cpus % d == 0)
				llcs.push_back(d);
		cfg.llc_size = *rc::gen::elementOf(llcs);
		if (cfg.llc_size == cpus)
			cfg.llc_size = 0;
		cfg.skew_tick = *rc::gen::inRange(0, 4) == 0;
		const Features have = available_features(preset);
		for (unsigned i = 0; i < static_cast<unsigned>(Feature::COUNT); i++) {
			const Feature f = static_cast<Feature>(i);
			if (have[f] && *rc::gen::inRange(0, 5) == 0)
				cfg.features.set(f, !cfg.features[f]);
		}
		if (*rc::gen::arbitrary<bool>())
			cfg.knobs.tick_phase = *rc::gen::inRange<u64>(0, cfg.tick_ns);
		if (*rc::gen::inRange(0, 3) == 0)
			cfg.knobs.tick_jitter = *rc::gen::inRange<u64>(0, cfg.tick_ns / 4);
		if (*rc::gen::inRange(0, 3) == 0)
			cfg.knobs.switch_cost = *rc::gen::inRange<u64>(0, 50 * US);
		if (*rc::gen::inRange(0, 3) == 0)
			cfg.knobs.ipi_latency = *rc::gen::inRange<u64>(0, 50 * US);
		if (*rc::gen::inRange(0, 3) == 0)
			cfg.knobs.idle_exit_latency = *rc::gen::inRange<u64>(0, 100 * US);
		if (*rc::gen::inRange(0, 3) == 0)
			cfg.knobs.wakeup_irq_cost = *rc::gen::inRange<u64>(0, 20 * US);
		if (*rc::gen::inRange(0, 3) == 0)
			cfg.knobs.balance_cost = *rc::gen::inRange<u64>(0, 200 * US);
		cfg.seed = *rc::gen::arbitrary<u64>();
		// SMT cores inside the LLC (drawn last: the draws above are as
		// before); half the machines have none.
		std::vector<u32> smts;
		for (u32 d = 1; d <= llc_size_of(cfg); d++)
			if (llc_size_of(cfg) % d == 0)
				smts.push_back(d);
		if (*rc::gen::arbitrary<bool>())
			cfg.smt = *rc::gen::elementOf(smts);
		// Clusters of whole cores inside the LLC, on a third of the machines.
		std::vector<u32> clusters;
		for (u32 d = 2 * cfg.smt; d <= llc_size_of(cfg); d += cfg.smt)
			if (llc_size_of(cfg) % d == 0)
				clusters.push_back(d);
		if (!clusters.empty() && *rc::gen::inRange(0, 3) == 0)
			cfg.cluster = *rc::gen::elementOf(clusters);
		// NUMA nodes of whole LLCs (or, with one LLC, nodes that become
		// the LLCs) on a third of the machines, near, far or beyond
		// node_reclaim_distance (31 > 30: no fork, exec or wake-up across).
		const u32 unit = cfg.llc_size ? cfg.llc_size : (cfg.cluster ? cfg.cluster : cfg.smt);
		std::vector<u32> nodes;
		for (u32 d = unit; d < cfg.cpus; d += unit)
			if (cfg.cpus % d == 0)
				nodes.push_back(d);
		if (!nodes.empty() && *rc::gen::inRange(0, 3) == 0) {
			cfg.node = *rc::gen::elementOf(nodes);
			if (!cfg.llc_size)
				cfg.llc_size = cfg.node;
			cfg.numa_distance = *rc::gen::elementOf(std::vector<u32>{12, 21, 31});
		}
		return cfg;
	});
}

rc::Gen<Workload> gen_smp_workload(u32 cpus)
{
	return rc::gen::exec([cpus] {
		Workload w = *gen_workload();
		for (TaskSpec& t : w.tasks) {
			if (*rc::gen::inRange(0, 3) != 0)
				continue;
			const u32 mask = *rc::gen::inRange<u32>(1, 1u << cpus);
			for (u32 c = 0; c < cpus; c++)
				if (mask & (1u << c))
					t.cpus.push_back(c);
		}
		return w;
	});
}

// The group part of gen_group_workload(), drawn after the workload.
void add_random_groups(Workload& w)
{
	// 1-6 groups, each a child of the root or of a group made before it
	// (so at most 6 levels deep), of any cpu.weight, some idle.
	const int n = *rc::gen::inRange(1, 7);
	for (int i = 0; i < n; i++) {
		const int parent = *rc::gen::inRange(-1, i);
		const std::string path = (parent < 0 ? "" : w.groups[static_cast<size_t>(parent)].path) + "/g" + std::to_string(i);
		const u64 weight = *rc::gen::element<u64>(1, 10, 50, 100, 100, 200, 1000, 10000);
		w.groups.push_back(GroupSpec{path, scale_load(sched_weight_from_cgroup(weight))});
		// One group in eight idle (cpu.idle): its weight then fixed at 3.
		w.groups.back().idle = *rc::gen::inRange(0, 8) == 0;
	}
	// Each task in the root (a third of them) or in any group.
	for (TaskSpec& t : w.tasks) {
		const int g = *rc::gen::inRange(-n / 2 - 1, n);
		if (g >= 0)
			t.taskgroup = w.groups[static_cast<size_t>(g)].path;
	}
	// A third of the tasks write a group's cpu.weight somewhere in their
	// program: half of those their own group's (so its entity is running
	// at the write, reweight_entity() of curr), the rest any group's.
	for (TaskSpec& t : w.tasks) {
		if (t.phases.empty() || *rc::gen::inRange(0, 3) != 0)
			continue;
		int g = *rc::gen::inRange(0, n);
		if (!t.taskgroup.empty() && *rc::gen::inRange(0, 2) == 0)
			for (int i = 0; i < n; i++)
				if (w.groups[static_cast<size_t>(i)].path == t.taskgroup)
					g = i;
		const u64 weight = *rc::gen::element<u64>(1, 10, 50, 100, 200, 1000, 10000);
		Phase& ph = t.phases[*rc::gen::inRange<size_t>(0, t.phases.size())];
		const size_t at = *rc::gen::inRange<size_t>(0, ph.events.size() + 1);
		Event e{Event::Kind::SetShares, scale_load(sched_weight_from_cgroup(weight))};
		e.ref = g;
		ph.events.insert(ph.events.begin() + static_cast<std::ptrdiff_t>(at), e);
	}
	// One task in six writes a group's cpu.idle somewhere in its program
	// (sched_group_set_idle(): the group turns idle, or back).
	for (TaskSpec& t : w.tasks) {
		if (t.phases.empty() || *rc::gen::inRange(0, 6) != 0)
			continue;
		Phase& ph = t.phases[*rc::gen::inRange<size_t>(0, t.phases.size())];
		const size_t at = *rc::gen::inRange<size_t>(0, ph.events.size() + 1);
		ph.events.insert(ph.events.begin() + static_cast<std::ptrdiff_t>(at),
				 Event{Event::Kind::SetIdle, 0, *rc::gen::inRange(0, n), *rc::gen::inRange(0, 2)});
	}
	// A quarter of the tasks move themselves to another group (or the root)
	// when one of their phases starts, as rt-app's phase-level "taskgroup"
	// does (after the phase's nice, slice and affinity changes).
	for (TaskSpec& t : w.tasks) {
		if (t.phases.empty() || *rc::gen::inRange(0, 4) != 0)
			continue;
		Phase& ph = t.phases[*rc::gen::inRange<size_t>(0, t.phases.size())];
		auto at = ph.events.begin();
		while (at != ph.events.end() && (at->kind == Event::Kind::SetNice || at->kind == Event::Kind::SetSlice ||
						 at->kind == Event::Kind::SetAffinity))
			++at;
		ph.events.insert(at, Event{Event::Kind::MoveGroup, 0, *rc::gen::inRange(-1, n), 0});
	}
}

rc::Gen<Workload> gen_group_workload()
{
	return rc::gen::exec([] {
		Workload w = *gen_workload();
		add_random_groups(w);
		return w;
	});
}

rc::Gen<Workload> gen_smp_group_workload(u32 cpus)
{
	return rc::gen::exec([cpus] {
		Workload w = *gen_smp_workload(cpus);
		add_random_groups(w);
		return w;
	});
}

rc::Gen<Workload> gen_autogroup_workload()
{
	return rc::gen::exec([] {
		Workload w = *rc::gen::arbitrary<bool>() ? *gen_group_workload() : *gen_workload();
		for (TaskSpec& t : w.tasks) {
			if (*rc::gen::inRange(0, 3) != 0)
				continue;
			t.setsid = true;
			if (*rc::gen::arbitrary<bool>())
				t.autogroup_nice = *rc::gen::inRange(MIN_NICE, MAX_NICE + 1);
		}
		// A quarter of the tasks call setsid() when one of their phases
		// starts (a session leader's call fails and changes nothing).
		for (TaskSpec& t : w.tasks) {
			if (t.phases.empty() || *rc::gen::inRange(0, 4) != 0)
				continue;
			Phase& ph = t.phases[*rc::gen::inRange<size_t>(0, t.phases.size())];
			ph.events.insert(ph.events.begin(), Event{Event::Kind::Setsid, 0, -1, 0});
		}
		return w;
	});
}

Workload equal_hogs(int n, int nice, u64 duration)
{
	Workload w = hogs_workload(n, duration);
	for (TaskSpec& t : w.tasks)
		t.nice = nice;
	return w;
}

}  // namespace eevdf::props

namespace eevdf {

void showValue(const Workload& w, std::ostream& os)
{
	try {
		os << to_rtapp_json(w);
	} catch (const std::exception& e) {
		os << "(workload not expressible as rt-app: " << e.what() << ")";
	}
}

void showValue(const Config& c, std::ostream& os) { os << "eevdf sim " << command_line_flags(c); }

}  // namespace eevdf
