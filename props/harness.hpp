// SPDX-License-Identifier: GPL-2.0-only
// Running the model inside a property, and keeping counterexamples.
#pragma once

#include <string>
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

// Runs the workload under the invariant checker (and `extra` observers);
// returns the violation message, or "" when every invariant held.
std::string run_checked(const Config& cfg, const Workload& wl, std::vector<Observer*> extra = {});

// Context switches as (time, next task) pairs.
struct SwitchLog : Observer {
	std::vector<std::pair<u64, int>> switches;
	void on_switch(const Simulation&, u64 t, int, int next, bool, u64) override { switches.emplace_back(t, next); }
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
