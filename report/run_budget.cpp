// SPDX-License-Identifier: GPL-2.0-only
#include "report/run_budget.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace eevdf {
namespace {

std::string seconds(u64 ns)
{
	char b[48];
	std::snprintf(b, sizeof b, "%.3f s", static_cast<double>(ns) / 1e9);
	return b;
}

// The run was given one event more than the budget: it took more only
// when it had not ended with the budget's last.
void check(const Simulation& sim, u64 until, u64 max_events)
{
	if (sim.events() <= max_events && (sim.finished() || sim.now() >= until))
		return;
	throw WorkloadError("workload: the run reached the limit of " + std::to_string(max_events) +
			    " events (tens of minutes of computing) at " + seconds(sim.now()) + " of its " +
			    seconds(sim.end_time()) +
			    ": its tasks wake too often to simulate so long; a shorter --duration (schbench: -r), "
			    "fewer tasks or --cpus, or longer sleeps");
}

}  // namespace

void run_bounded(Simulation& sim, u64 max_events)
{
	sim.run_until(sim.end_time(), max_events + 1);
	check(sim, sim.end_time(), max_events);
}

void run_bounded_until(Simulation& sim, u64 t, u64 max_events)
{
	sim.run_until(t, max_events + 1);
	check(sim, std::min(t, sim.end_time()), max_events);
}

}  // namespace eevdf
