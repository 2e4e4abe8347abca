// SPDX-License-Identifier: GPL-2.0-only
// Running the model inside a property, and keeping counterexamples.
#pragma once

#include <string>
#include <tuple>
#include <vector>

#include "model/check.hpp"
#include "model/simulation.hpp"

namespace eevdf::props {

// Writes the workload as an rt-app file and the flags that replay it, under
// $EEVDF_PROPS_OUT (default ./props-counterexamples), as PROPERTY.json and
// PROPERTY.txt. Every failing run overwrites them, so after RapidCheck has
// shrunk a failure they hold the minimal case.
std::string save_counterexample(const std::string& property, const Config& cfg, const Workload& wl,
				const std::string& why);
// The same in a given directory (the fuzzers' output).
std::string save_counterexample_in(const std::string& dir, const std::string& name, const Config& cfg,
				   const Workload& wl, const std::string& why);

// Runs the workload under the invariant checker (and `extra` observers);
// returns the violation message, or "" when every invariant held.
std::string run_checked(const Config& cfg, const Workload& wl, std::vector<Observer*> extra = {});

// The same within a budget of events (the workload fuzzer's): the run stops
// at its duration or at the instant of its max_events-th event, whichever
// comes first, every event checked.
struct CheckedRun {
	std::string violation;  // "" when every invariant held
	u64 end = 0;            // where the run stopped
	bool budget_spent = false;
};
CheckedRun run_checked_within(const Config& cfg, const Workload& wl, std::vector<Observer*> extra, u64 max_events);

// One operation on a cfs_rq driven directly (property 7 and fuzz_differential):
// entities are woken or forked with a given saved lag, sleep, run, are
// picked at a scheduling point as __schedule() does it, or are woken while
// delayed. An operation that does not apply to the entity's state is a no-op.
struct CfsOp {
	enum Kind { Enqueue, Dequeue, Run, Schedule, Requeue } kind = Enqueue;
	size_t entity = 0;
	s64 vlag = 0;         // Enqueue: the saved lag, within cfs_op_lag_limit()
	bool wakeup = true;   // Enqueue: ENQUEUE_WAKEUP, else ENQUEUE_INITIAL
	u64 run_ns = 0;       // Run: how far the clock advances
};
// Any lag the kernel could have saved: the <= 6.18.0 clamp of the entity.
s64 cfs_op_lag_limit(const Config& cfg, const SchedEntity& se);
void apply_cfs_op(CfsRq& cfs, std::vector<SchedEntity>& es, const CfsOp& op);

// Context switches as (time, next task) pairs.
struct SwitchLog : Observer {
	std::vector<std::pair<u64, int>> switches;
	void on_switch(const Simulation&, u64 t, int, int next, bool, u64) override { switches.emplace_back(t, next); }
};

// Context switches on several CPUs as (time, CPU, next task).
struct CpuSwitchLog : Observer {
	std::vector<std::tuple<u64, u32, int>> switches;
	void on_switch(const Simulation& sim, u64 t, int, int next, bool, u64) override
	{
		switches.emplace_back(t, sim.event_cpu(), next);
	}
};

// Saved lags of tasks as they leave the queue, against the <= 6.18.0 clamp
// +-calc_delta_fair(max(2 slice, TICK_NSEC)): records the first that sits
// exactly on it, i.e. where the clamp bound.
struct ClampWatch : Observer {
	std::vector<bool> queued;
	std::string bound_hit;
	void on_event(const Simulation& sim, u64 t) override;
};

}  // namespace eevdf::props
