// SPDX-License-Identifier: GPL-2.0-only
// What the task-group tests share (test_groups_up.cpp, test_autogroup.cpp,
// test_groups_reweight.cpp): a task put in a cgroup, and one run of a
// workload that records the switches and each task's sum_exec_runtime,
// optionally under the invariant checker.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/check.hpp"
#include "sim_helpers.hpp"

namespace eevdf::test {

// The golden schedules' setting: one CPU at `hz`, 3 ms slices, hrtick off
// (every decision at a tick or an event, none at an hrtick expiry).
inline Config golden_config(std::string_view preset, u32 hz)
{
	Config cfg = config(preset, hz, 3 * MS);
	cfg.features.set(Feature::HRTICK, false);
	return cfg;
}

// `n` nice-0 task entities with the config's base slice, ids 0 .. n-1, for
// tests that drive one cfs_rq by hand.
inline std::vector<SchedEntity> nice0_entities(size_t n, const Config& cfg)
{
	std::vector<SchedEntity> se(n);
	for (size_t i = 0; i < n; i++) {
		se[i].id = static_cast<int>(i);
		se[i].load = task_load_weight(0);
		se[i].slice = cfg.base_slice_ns;
	}
	return se;
}

inline TaskSpec in_group(TaskSpec t, std::string path)
{
	t.taskgroup = std::move(path);
	return t;
}

struct GroupRun {
	Recorder rec;
	std::vector<u64> runtime;  // sum_exec_runtime per task
	u64 warnings = 0;  // the root cfs_rq's WARN_ON_ONCE sites hit
	std::string violation;  // the invariant checker's first, if it ran
	bool checked_ok() const { return violation.empty(); }
};

// Runs `wl` for `duration`; with `check`, under the invariant checker, whose
// first violation ends the run (runtime and warnings are then left empty).
inline GroupRun run_groups(const Config& cfg, Workload wl, u64 duration, bool check = false)
{
	wl.duration = duration;
	Simulation sim(cfg, wl);
	GroupRun out;
	sim.add_observer(&out.rec);
	std::unique_ptr<InvariantChecker> checker;
	if (check) {
		checker = std::make_unique<InvariantChecker>();
		sim.add_observer(checker.get());
	}
	try {
		sim.run();
	} catch (const InvariantViolation& v) {
		out.violation = v.what();
		return out;
	}
	for (const Task& t : sim.tasks())
		out.runtime.push_back(t.se.sum_exec_runtime);
	out.warnings = sim.cfs_rq(0).warnings.count();
	return out;
}

}  // namespace eevdf::test
