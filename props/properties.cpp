// SPDX-License-Identifier: GPL-2.0-only
#include "props/properties.hpp"

#include <algorithm>
#include <tuple>
#include <rapidcheck.h>

#include "model/check.hpp"
#include "model/pick_by_definition.hpp"
#include "oracle/decision_oracle.hpp"
#include "props/bounds.hpp"
#include "props/fail.hpp"
#include "props/gen.hpp"
#include "props/harness.hpp"
#include "props/workload_dsl.hpp"
#include "report/ftrace.hpp"

namespace eevdf::props {
namespace {

using namespace eevdf::test;

// The configuration of the hog properties: any preset, HZ, knobs, flags,
// except HRTICK (which ends slices between ticks), and a base slice drawn
// from [0.1 ms, 100 ms] in whole microseconds.
Config hog_config(Bugs bugs)
{
	Config cfg = *gen_config();
	cfg.features.set(Feature::HRTICK, false);
	cfg.base_slice_ns = *rc::gen::inRange<u64>(100, 100'001) * US;
	cfg.bugs = bugs;
	return cfg;
}

// Long enough for every hog to run several times.
u64 hog_duration(const Config& cfg, int n)
{
	const u64 round = static_cast<u64>(n) * (cfg.base_slice_ns + cfg.tick_ns + cfg.knobs.tick_jitter);
	return std::min<u64>(std::max<u64>(6 * round, 50 * cfg.tick_ns), 8'000 * MS);
}

// n equal-nice hogs forked together, long enough for several runs each,
// run under the invariant checker with `watch`; a violation fails `name`.
Workload run_hogs(const std::string& name, Bugs bugs, const Config& cfg, int n, int nice, Observer& watch)
{
	Workload wl = equal_hogs(n, nice, 0);
	wl.duration = hog_duration(cfg, n);
	run_or_fail(name, bugs, cfg, wl, {&watch});
	return wl;
}

// Runs of equal-weight hogs forked together. `exact`: nice 0, no tick
// jitter and the first tick a whole TICK_NSEC after the start, where the bound is slice + TICK_NSEC - 1 (or in the max form
// max(slice, TICK_NSEC) + TICK_NSEC - 1). Otherwise (any equal nice, any
// jitter) the weaker bound that holds once a re-pick is possible.
Testable run_length_with(const std::string& name, Bugs bugs, bool max_form, bool exact)
{
	return [=] {
		Config cfg = hog_config(bugs);
		int nice = 0;
		if (exact) {
			cfg.knobs.tick_jitter = 0;
			cfg.knobs.tick_phase = 0;  // the hogs start on a tick
			// v6.6 keeps curr on a deadline tie, and exact ticks make ties:
			// there only 2c's bound holds (docs/findings.md F8).
			RC_PRE(cfg.preset->paths.tree == KernelPaths::Tree::DeadlineKeyed);
		} else if (cfg.preset->paths.protect == KernelPaths::Protect::Vprot) {
			nice = *rc::gen::inRange(-20, 20);
		}
		// (6.6-6.16 at nice != 0: 2c's bound is 1 ns short, F12.)
		SwitchLog log;
		const Workload wl = run_hogs(name, bugs, cfg, *rc::gen::inRange(2, 9), nice, log);
		const u64 bound = hog_run_bound(cfg, exact, max_form);
		const auto runs = runs_until(log, wl.duration);
		RC_PRE(!runs.empty());
		const u64 longest = *std::max_element(runs.begin(), runs.end());
		if (longest > bound)
			fail(name, bugs, cfg, wl,
			     "a run of " + std::to_string(longest) + " ns exceeds the bound " + std::to_string(bound) + " ns");
	};
}

// A configuration of a preset that models task groups (one CPU), drawn
// first, so that a property's draws keep their order: `bugs` switched in,
// autogroup as asked.
Config group_config(Bugs bugs, bool autogroup)
{
	Config cfg = *gen_group_config();
	cfg.bugs = bugs;
	cfg.autogroup = autogroup;
	return cfg;
}

// The invariant checker over a group configuration and a workload from `gen`.
Testable group_checker(const char* name, Bugs bugs, bool autogroup, rc::Gen<Workload> (*gen)())
{
	return [=] {
		const Config cfg = group_config(bugs, autogroup);
		run_or_fail(name, bugs, cfg, *gen());
	};
}

}  // namespace

Testable checker_holds(Bugs bugs)
{
	return [=] {
		Config cfg = *gen_config();
		cfg.bugs = bugs;
		const Workload wl = *gen_workload();
		run_or_fail("checker_holds", bugs, cfg, wl);
	};
}

// The same with task groups (the presets that model them, one CPU): every
// cfs_rq of the hierarchy keeps the tree, V, pick and count invariants.
Testable groups_checker_holds(Bugs bugs)
{
	return group_checker("groups_checker_holds", bugs, false, gen_group_workload);
}

Testable autogroup_checker_holds(Bugs bugs)
{
	return group_checker("autogroup_checker_holds", bugs, true, gen_autogroup_workload);
}

Testable single_session_autogroup_is_flat(Bugs bugs)
{
	return [=] {
		const Config cfg = group_config(bugs, false);
		Workload wl = *gen_workload();
		for (TaskSpec& t : wl.tasks)
			for (Phase& p : t.phases)
				std::erase_if(p.events, [](const Event& e) { return e.kind == Event::Kind::SetNice; });
		SwitchLog flat, grouped;
		run_or_fail("single_session_autogroup_is_flat", bugs, cfg, wl, {&flat});
		Config ag = cfg;
		ag.autogroup = true;
		run_or_fail("single_session_autogroup_is_flat", bugs, ag, wl, {&grouped});
		if (grouped.switches != flat.switches) {
			size_t i = 0;
			while (i < flat.switches.size() && i < grouped.switches.size() &&
			       flat.switches[i] == grouped.switches[i])
				i++;
			fail("single_session_autogroup_is_flat", bugs, ag, wl,
			     "switch " + std::to_string(i) + " differs from the flat run's (" +
				     std::to_string(flat.switches.size()) + " flat, " +
				     std::to_string(grouped.switches.size()) + " under autogroup)");
		}
	};
}

namespace {

Testable decision_oracle_with(Bugs bugs, rc::Gen<Config> (*configs)(), rc::Gen<Workload> (*workloads)())
{
	return [=] {
		Config cfg = *configs();
		cfg.features.set(Feature::TTWU_QUEUE_DELAYED, false);
		cfg.bugs = bugs;
		const Workload wl = *workloads();
		std::string why;
		try {
			oracle::DecisionOracle o(cfg);
			Simulation sim(cfg, wl);
			sim.add_observer(&o);
			sim.run();
			if (!o.agreed()) {
				why = o.report();
				for (const oracle::Disagreement& d : o.classes())
					why += "\n  " + d.describe();
			}
		} catch (const std::exception& e) {
			why = std::string("oracle run failed: ") + e.what();
		}
		if (!why.empty())
			fail("decision_oracle", bugs, cfg, wl, why);
	};
}

}  // namespace

Testable decision_oracle_agrees(Bugs bugs) { return decision_oracle_with(bugs, gen_config, gen_workload); }

Testable decision_oracle_agrees_with_groups(Bugs bugs)
{
	return decision_oracle_with(bugs, gen_group_config, gen_group_workload);
}

Testable run_length_bound(Bugs bugs) { return run_length_with("run_length_bound", bugs, false, true); }
Testable run_length_max_form(Bugs bugs) { return run_length_with("run_length_max_form", bugs, true, true); }
Testable run_length_with_jitter(Bugs bugs) { return run_length_with("run_length_with_jitter", bugs, false, false); }

Testable slice_below_tick_is_irrelevant(Bugs bugs)
{
	return [=] {
		Config a = hog_config(bugs);
		a.knobs.tick_phase = 0;  // the hogs start on a tick
		const u64 top = a.tick_ns - a.knobs.tick_jitter;
		a.base_slice_ns = *rc::gen::inRange<u64>(1, top / US + 1) * US;
		Config b = a;
		b.base_slice_ns = *rc::gen::inRange<u64>(1, top / US + 1) * US;
		RC_PRE(a.base_slice_ns <= top && b.base_slice_ns <= top);
		const int n = *rc::gen::inRange(1, 9);
		const Workload wl = equal_hogs(n, *rc::gen::inRange(-20, 20), 60 * a.tick_ns);
		SwitchLog la, lb;
		run_or_fail("slice_below_tick", bugs, a, wl, {&la});
		run_or_fail("slice_below_tick", bugs, b, wl, {&lb});
		if (la.switches != lb.switches)
			fail("slice_below_tick", bugs, a, wl,
			     "slices " + std::to_string(a.base_slice_ns) + " and " + std::to_string(b.base_slice_ns) +
				     " ns (both <= TICK_NSEC - jitter) give different schedules");
	};
}

Testable lag_bound_hogs(Bugs bugs)
{
	return [=] {
		Config cfg = hog_config(bugs);
		LagWatch lag;
		const Workload wl = run_hogs("lag_bound_hogs", bugs, cfg, *rc::gen::inRange(2, 9), 0, lag);
		const s64 bound = hog_lag_bound(cfg);
		if (lag.max_lag >= bound || lag.min_lag <= -bound)
			fail("lag_bound_hogs", bugs, cfg, wl,
			     "lag reached [" + std::to_string(lag.min_lag) + ", " + std::to_string(lag.max_lag) +
				     "] ns, outside +-" + std::to_string(bound));
	};
}

Testable weighted_hog_bounds(Bugs bugs)
{
	return [=] {
		Config cfg = hog_config(bugs);
		const int n = *rc::gen::inRange(2, 5);
		const auto nices = *rc::gen::container<std::vector<int>>(static_cast<size_t>(n), rc::gen::inRange(-20, 20));
		Workload wl = equal_hogs(n, 0, 0);
		for (size_t i = 0; i < nices.size(); i++)
			wl.tasks[i].nice = nices[i];
		wl.duration = hog_duration(cfg, n);
		WeightedWatch watch(cfg, nices);
		run_or_fail("weighted_hog_bounds", bugs, cfg, wl, {&watch});
		if (!watch.bad.empty())
			fail("weighted_hog_bounds", bugs, cfg, wl, watch.bad);
	};
}

Testable fairness_window(Bugs bugs)
{
	return [=] {
		Config cfg = hog_config(bugs);
		ShareWatch share;
		const Workload wl = run_hogs("fairness_window", bugs, cfg, *rc::gen::inRange(2, 9), 0, share);
		// e_i(t) = n cpu_i(t) - t; a window's service error is the change of
		// e_i / n, so the largest is (max e_i - min e_i) / n.
		const s64 bound = hog_window_bound(cfg);
		for (size_t i = 0; i < share.lo.size(); i++) {
			const s64 worst = share.worst_window(i);
			if (worst > bound)
				fail("fairness_window", bugs, cfg, wl,
				     "task " + std::to_string(i) + " was off its share by " + std::to_string(worst) +
					     " ns over a window, beyond " + std::to_string(bound));
		}
	};
}

Testable deterministic(Bugs bugs)
{
	return [=] {
		Config cfg = *gen_config();
		cfg.bugs = bugs;
		const Workload wl = *gen_workload();
		auto trace = [&] {
			Simulation sim(cfg, wl);
			cli::FtraceWriter w;
			sim.add_observer(&w);
			sim.run();
			return w.text() + std::to_string(sim.events()) + "/" + std::to_string(sim.busy_ns());
		};
		if (trace() != trace())
			fail("deterministic", bugs, cfg, wl, "two runs of the same workload and seed differ");
	};
}

Testable relabel_tasks(Bugs bugs)
{
	return [=] {
		Config cfg = *gen_config();
		cfg.bugs = bugs;
		const int n = *rc::gen::inRange(2, 8);
		// Distinct creation times, so no two timed events coincide and the
		// id order never breaks a tie.
		auto delays = *rc::gen::unique<std::vector<u64>>(static_cast<size_t>(n), rc::gen::inRange<u64>(0, 20'000));
		Workload wl = hogs_workload(n, 0);
		for (int i = 0; i < n; i++) {
			wl.tasks[static_cast<size_t>(i)].delay = delays[static_cast<size_t>(i)] * US;
			wl.tasks[static_cast<size_t>(i)].nice = *rc::gen::inRange(-20, 20);
		}
		wl.duration = 100 * MS;
		std::vector<size_t> perm(static_cast<size_t>(n));
		for (size_t i = 0; i < perm.size(); i++)
			perm[i] = i;
		std::rotate(perm.begin(), perm.begin() + *rc::gen::inRange<long>(0, n), perm.end());
		if (*rc::gen::arbitrary<bool>())
			std::reverse(perm.begin(), perm.end());
		Workload moved = wl;
		for (size_t i = 0; i < perm.size(); i++)
			moved.tasks[perm[i]] = wl.tasks[i];
		SwitchLog a, b;
		run_or_fail("relabel_tasks", bugs, cfg, wl, {&a});
		run_or_fail("relabel_tasks", bugs, cfg, moved, {&b});
		bool same = a.switches.size() == b.switches.size();
		for (size_t k = 0; same && k < a.switches.size(); k++) {
			const int next = a.switches[k].second;
			same = a.switches[k].first == b.switches[k].first &&
			       (next == IDLE ? b.switches[k].second == IDLE
					     : b.switches[k].second == static_cast<int>(perm[static_cast<size_t>(next)]));
		}
		if (!same)
			fail("relabel_tasks", bugs, cfg, wl, "relabelling the tasks changed the schedule");
	};
}

Testable vruntime_shift(Bugs bugs)
{
	return [=] {
		Config cfg = *gen_config();
		cfg.bugs = bugs;
		// 6.18.17 .. 6.18.44 read a saved lag as a protection end after a
		// sched_change (vlag/vprot union, protection only at pick): there
		// absolute vruntime matters (docs/findings.md F7).
		const KernelPaths& p = cfg.preset->paths;
		RC_PRE(!(p.vprot_is_vlag && p.protect_only_at_pick));
		const Workload wl = *gen_workload();
		Config shifted = cfg;
		shifted.vruntime_origin = *rc::gen::arbitrary<u64>();
		SwitchLog a, b;
		run_or_fail("vruntime_shift", bugs, cfg, wl, {&a});
		run_or_fail("vruntime_shift", bugs, shifted, wl, {&b});
		if (a.switches != b.switches)
			fail("vruntime_shift", bugs, cfg, wl,
			     "moving v0 from " + std::to_string(cfg.vruntime_origin) + " to " +
				     std::to_string(shifted.vruntime_origin) + " changed the schedule");
	};
}

Testable time_scaling(Bugs bugs)
{
	return [=] {
		// HZ=1000 against HZ=250 (x4) or HZ=100 (x10): TICK_NSEC scales
		// exactly. Nice-0 hogs forked together: the schedule then depends only
		// on exact comparisons of times, which scaling preserves.
		const u64 k = *rc::gen::element<u64>(4, 10);
		const auto& presets = kernel_presets();
		const KernelPreset& preset = presets[*rc::gen::inRange<size_t>(0, presets.size())];
		Config a = make_config(preset, 1000);
		a.bugs = bugs;
		a.features.set(Feature::RUN_TO_PARITY, true);  // NO_RUN_TO_PARITY's 0.7 ms quantum does not scale
		a.features.set(Feature::NO_HZ_FULL, *rc::gen::arbitrary<bool>());
		a.base_slice_ns = 2 * *rc::gen::inRange<u64>(50, 25'001) * US;
		a.knobs.tick_phase = *rc::gen::inRange<u64>(0, 1000) * US;
		a.knobs.switch_cost = *rc::gen::inRange<u64>(0, 20) * US;
		Config b = make_config(preset, k == 4 ? 250 : 100);
		b.bugs = bugs;
		b.features = a.features;
		b.base_slice_ns = k * a.base_slice_ns;
		b.knobs.tick_phase = k * a.knobs.tick_phase;
		b.knobs.switch_cost = k * a.knobs.switch_cost;
		const int n = *rc::gen::inRange(1, 9);
		const Workload wa = equal_hogs(n, 0, 200 * MS);
		const Workload wb = equal_hogs(n, 0, k * 200 * MS);
		SwitchLog la, lb;
		run_or_fail("time_scaling", bugs, a, wa, {&la});
		run_or_fail("time_scaling", bugs, b, wb, {&lb});
		bool same = la.switches.size() == lb.switches.size();
		for (size_t i = 0; same && i < la.switches.size(); i++)
			same = lb.switches[i].first == k * la.switches[i].first && lb.switches[i].second == la.switches[i].second;
		if (!same)
			fail("time_scaling", bugs, a, wa, "scaling every time by " + std::to_string(k) + " did not scale the schedule");
	};
}

Testable pick_matches_oracle(Bugs bugs)
{
	return [=] {
		Config cfg = *gen_config();
		cfg.bugs = bugs;
		CfsRq cfs(cfg);
		const size_t n = *rc::gen::inRange<size_t>(2, 40);
		std::vector<SchedEntity> es(n);
		for (size_t i = 0; i < n; i++) {
			es[i].id = static_cast<int>(i);
			es[i].load = task_load_weight(*rc::gen::inRange(-20, 20));
			es[i].custom_slice = *rc::gen::arbitrary<bool>();
			es[i].slice = es[i].custom_slice ? *rc::gen::inRange<u64>(100, 100'001) * US : cfg.base_slice_ns;
		}
		const int ops = *rc::gen::inRange(1, 300);
		for (int op = 0; op < ops; op++) {
			CfsOp o;
			o.entity = *rc::gen::inRange<size_t>(0, n);
			const SchedEntity& se = es[o.entity];
			o.kind = static_cast<CfsOp::Kind>(*rc::gen::inRange(0, 5));
			if (o.kind == CfsOp::Enqueue && !se.on_rq) {
				const s64 lim = cfs_op_lag_limit(cfg, se);
				o.vlag = *rc::gen::inRange<s64>(-lim, lim + 1);
				o.wakeup = *rc::gen::arbitrary<bool>();
			} else if (o.kind == CfsOp::Run)
				o.run_ns = *rc::gen::inRange<u64>(0, 20'000) * US;
			apply_cfs_op(cfs, es, o);
			if (const std::string pick = tree_pick_difference(cfs); !pick.empty())
				RC_FAIL(pick);
			RC_ASSERT(cfs.avg_vruntime() == exact_v(cfs).floor_v());
		}
	};
}

}  // namespace eevdf::props
