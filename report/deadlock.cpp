// SPDX-License-Identifier: GPL-2.0-only
#include "report/deadlock.hpp"

#include <cstdio>

#include "model/simulation.hpp"

namespace eevdf::cli {

std::optional<Deadlock> DeadlockWatch::find(const Simulation& sim, const std::vector<int>& pids) const
{
	// Only Suspended tasks left alive: a Suspended task wakes only when a
	// running task posts, unlocks, signals or resumes, and none will run.
	Deadlock d;
	const std::vector<Task>& tasks = sim.tasks();
	const std::vector<std::string>& refs = sim.workload().refs;
	for (size_t i = 0; i < tasks.size(); i++) {
		const Task& t = tasks[i];
		if (t.state == TaskState::Exited)
			continue;
		if (t.state != TaskState::Suspended)
			return std::nullopt;
		const bool named = t.suspended_on >= 0 && static_cast<size_t>(t.suspended_on) < refs.size();
		d.waiting.push_back(Deadlock::Waiter{t.spec->name, i < pids.size() ? pids[i] : 0,
						     named ? refs[static_cast<size_t>(t.suspended_on)] : "(unnamed)"});
	}
	if (d.waiting.empty())
		return std::nullopt;
	d.since_ns = last_block_ns_;
	return d;
}

std::string describe(const Deadlock& d)
{
	char at[48];
	std::snprintf(at, sizeof at, "%.3f ms", static_cast<double>(d.since_ns) / 1e6);
	std::string s = "deadlock from " + std::string(at) + ": no task can run again; waiting: ";
	for (size_t i = 0; i < d.waiting.size(); i++)
		s += (i ? ", '" : "'") + d.waiting[i].task + "' (pid " + std::to_string(d.waiting[i].pid) + ") on " +
		     d.waiting[i].on;
	return s;
}

}  // namespace eevdf::cli
