// SPDX-License-Identifier: GPL-2.0-only
// How a property reports a counterexample.
#pragma once

#include <string>
#include <vector>

#include "model/bugs.hpp"
#include "model/config.hpp"
#include "model/observer.hpp"
#include "model/workload.hpp"

namespace eevdf::props {

// Saves the counterexample (named for the property and the bugs switched
// in, props/harness.hpp) and fails the RapidCheck case with the line that
// replays it.
[[noreturn]] void fail(const std::string& property, Bugs bugs, const Config& cfg, const Workload& wl,
		       const std::string& why);

// Runs the workload under the invariant checker (and `extra` observers),
// failing the property as fail() does on the first violation.
void run_or_fail(const std::string& property, Bugs bugs, const Config& cfg, const Workload& wl,
		 std::vector<Observer*> extra = {});

}  // namespace eevdf::props
