// SPDX-License-Identifier: GPL-2.0-only
// What the unit tests share beyond the workload DSL (props/workload_dsl.hpp):
// configurations by preset name, a recorder of switches and wake-ups, and a
// workload with every kind of pick.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "model/check.hpp"
#include "model/config.hpp"
#include "model/observer.hpp"
#include "model/simulation.hpp"
#include "model/workload.hpp"
#include "props/workload_dsl.hpp"

namespace eevdf::test {

inline Config config(std::string_view preset, u32 hz, u64 base_slice = 0)
{
	Config c = make_config(*find_preset(preset), hz);
	if (base_slice)
		c.base_slice_ns = base_slice;
	return c;
}

struct Switch {
	u64 t;
	int prev, next;
	bool operator==(const Switch&) const = default;
};
// Catch prints a failed switch list as {t us: prev -> next} (-1: idle).
inline std::ostream& operator<<(std::ostream& os, const Switch& s)
{
	return os << s.t / 1000 << " us: " << s.prev << " -> " << s.next;
}

// Records every context switch; optionally calls a hook after each event.
struct Recorder : Observer {
	std::vector<Switch> switches;
	std::vector<std::pair<u64, int>> wakeups;
	std::vector<std::pair<u64, int>> delayed_blocks;
	std::function<void(const Simulation&, u64)> each_event;

	void on_switch(const Simulation&, u64 t, int prev, int next, bool, u64) override
	{
		switches.push_back({t, prev, next});
	}
	void on_wakeup(const Simulation&, u64 t, int task, int, bool) override { wakeups.emplace_back(t, task); }
	void on_block(const Simulation&, u64 t, int task, bool delayed, bool) override
	{
		if (delayed)
			delayed_blocks.emplace_back(t, task);
	}
	void on_event(const Simulation& s, u64 t) override
	{
		if (each_event)
			each_event(s, t);
	}

	// Times at which `task` was switched in.
	std::vector<u64> switch_ins(int task) const
	{
		std::vector<u64> v;
		for (const Switch& s : switches)
			if (s.next == task)
				v.push_back(s.t);
		return v;
	}
	// Times at which `task` was switched out.
	std::vector<u64> switch_outs(int task) const
	{
		std::vector<u64> v;
		for (const Switch& s : switches)
			if (s.prev == task)
				v.push_back(s.t);
		return v;
	}
	// Lengths of the completed runs of every task after the first `skip` switches.
	std::vector<u64> run_lengths(size_t skip = 0) const
	{
		std::vector<u64> v;
		for (size_t i = skip + 1; i < switches.size(); i++)
			v.push_back(switches[i].t - switches[i - 1].t);
		return v;
	}
};

inline Recorder simulate(const Config& cfg, Workload wl, u64 duration)
{
	wl.duration = duration;
	Simulation sim(cfg, wl);
	Recorder r;
	sim.add_observer(&r);
	sim.run();
	return r;
}

// The same run with the one invariant checker watching every event.
inline Recorder simulate_checked(const Config& cfg, Workload wl, u64 duration)
{
	wl.duration = duration;
	Simulation sim(cfg, wl);
	Recorder r;
	InvariantChecker checker;
	sim.add_observer(&r);
	sim.add_observer(&checker);
	sim.run();
	return r;
}

// Every kind of pick in one workload (for the pick oracles' lockstep tests):
// hogs at three nice levels, a sleeper, a periodic task with a custom slice,
// one that changes its nice and yields, a long runner.
inline Workload mixed_pick_workload()
{
	TaskSpec s = task("s", {run(700 * US), sleep(2300 * US)});
	TaskSpec p = with_slice(task("p", {run(300 * US), timer(0, 5 * MS)}), 400 * US);
	TaskSpec n = task("n", {run(5 * MS), set_nice(3), run(2 * MS), set_nice(-7), sleep(1 * MS), yield()});
	Workload wl = workload({hog("a"), hog("b", 4), s, p, n, hog("c", -3), task("d", {run(13 * MS), sleep(7 * MS)})});
	wl.refs = {"t"};
	return wl;
}

}  // namespace eevdf::test
