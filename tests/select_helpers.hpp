// SPDX-License-Identifier: GPL-2.0-only
// What the CPU-selection tests (tests/test_select_*.cpp) share: a machine
// of 2 or 4 CPUs, pinned hogs, a recorder of where each task was enqueued
// and moved, and two scenarios. Their cases are worked by hand from
// kernel/sched/fair.c (v6.18.44).
//
// Conventions of the comments: times in ms; HZ = 250, so ticks (and with
// them every periodic or nohz balance that could rewrite nr_idle_scan) fall
// on multiples of 4 ms, and wake-ups are put between ticks. "busy" and
// "idle" are idle_cpu(): the idle task running, nothing queued, no wake-up
// pending. The background tasks are pinned (TaskSpec::cpus) so that no load
// balance can move them, and a wakee always sleeps while alone on its CPU,
// so it is eligible then and fully dequeued (no DELAY_DEQUEUE), and its
// wake-up selects a CPU.
#pragma once

#include <optional>

#include "model/select_task_rq_fair.hpp"
#include "sim_helpers.hpp"

namespace eevdf::test::select_cases {

inline Config smp(u32 cpus, u32 llc_size = 0, std::string_view preset = "6.18.33")
{
	Config c = make_config(*find_preset(preset), 250, cpus);
	c.llc_size = llc_size;
	return c;
}

// A pinned CPU hog that starts at `delay` and runs `ns` (forever by default).
inline TaskSpec pinned_hog(std::string name, u32 cpu, u64 delay = 0, u64 ns = RUN_FOREVER)
{
	TaskSpec t = task(std::move(name), {run(ns)}, 1);
	t.cpus = {cpu};
	t.delay = delay;
	return t;
}

// Where each enqueue (fork or wake-up) of a task happened, and every move.
struct Placements : Observer {
	struct Enq {
		u64 t;
		int task;
		u32 cpu;
		bool new_task;
	};
	struct Move {
		u64 t;
		int task;
		u32 from, to;
	};
	std::vector<Enq> enqueues;
	std::vector<Move> moves;

	void on_wakeup(const Simulation& s, u64 t, int task, int, bool new_task) override
	{
		enqueues.push_back({t, task, s.event_cpu(), new_task});
	}
	void on_migrate(const Simulation&, u64 t, int task, u32 from, u32 to) override
	{
		moves.push_back({t, task, from, to});
	}
	// The CPU of `task`'s first enqueue at time t, if any.
	std::optional<u32> cpu_at(int task, u64 t) const
	{
		for (const Enq& e : enqueues)
			if (e.task == task && e.t == t)
				return e.cpu;
		return std::nullopt;
	}
	std::optional<u32> fork_cpu(int task) const
	{
		for (const Enq& e : enqueues)
			if (e.task == task && e.new_task)
				return e.cpu;
		return std::nullopt;
	}
	size_t moves_of(int task) const
	{
		size_t n = 0;
		for (const Move& m : moves)
			n += m.task == task;
		return n;
	}
};

struct Run {
	Simulation sim;
	Placements where;
	Recorder rec;
	Run(const Config& cfg, Workload wl, u64 duration) : sim(cfg, (wl.duration = duration, wl))
	{
		sim.add_observer(&where);
		sim.add_observer(&rec);
	}
	SchedDomainShared& llc_shared(u32 cpu) { return *sim.topology_mut().sd_llc_shared(cpu); }
};

// ---------------------------------------------------------------------------
// Scenario S (scan order and limit), 4 CPUs, one LLC:
//   task 0 W: forks at 1, runs 1, sleeps 9.5 (timer on its CPU), runs 1;
//   task 1 H0: hog pinned to 0;  task 2 H1: pinned to 1, runs 5 then exits;
//   task 3 H2: hog pinned to 2 from 3;  task 4 H3: hog pinned to 3 from 3.
// Fork of W at 1 from CPU 0: CPUs 0 and 1 are busy, 2 and 3 idle. Groups in
// ring order from 0: {0} (local, idle_cpus 0), {1} (idle 0), {2} (idle 1),
// {3} (idle 1). {1} beats the initial (overloaded) idlest, {2} beats {1} on
// idle CPUs or type, {3} ties {2} (same idle CPUs, util 0 <= 0): idlest {2};
// the local group has fewer idle CPUs (or a busier type): W forks onto 2.
// recent_used_cpu = 0 (task_cpu at fork).
// At 11.5 the timer fires on CPU 2, current = H2; this = prev = 2; target 2
// busy; recent_used_cpu 0 is busy (H0); the scan starts at CPU 3 and wraps:
// 3 busy, 0 busy, 1 idle (H1 exited at 5).
inline Workload scenario_s()
{
	return workload({delayed(task("w", {run(1 * MS), sleep(9500 * US), run(1 * MS)}, 1), 1 * MS),
			 pinned_hog("h0", 0), pinned_hog("h1", 1, 0, 5 * MS), pinned_hog("h2", 2, 3 * MS),
			 pinned_hog("h3", 3, 3 * MS)});
}

// A Simulation run to `until`, for reading and writing its state.
// two_hogs_and_sleeper(): C (task 0) pinned to 0 from 0; D (task 1) pinned
// to 1 from 2; W (task 2) forks at 0.2 while only C runs: CPU 0 is busy, so
// W forks onto CPU 1 (the first idle group; with two LLCs and W allowed
// everywhere the PKG level sends it to CPU 2 instead), runs 1 and sleeps
// from 1.2. So at 1.5 CPU 0 is busy and CPU 1 idle; from 2 both are busy
// and any others idle.
struct State {
	Simulation sim;
	explicit State(const Config& cfg, Workload wl, u64 until) : sim(cfg, (wl.duration = 1000 * MS, wl))
	{
		sim.run_until(until);
	}
};

inline Workload two_hogs_and_sleeper()
{
	return workload({pinned_hog("c", 0), pinned_hog("d", 1, 2 * MS),
			 delayed(pinned(task("w", {run(1 * MS), sleep(100 * MS)}, 1), {0, 1}), 200 * US)});
}

}  // namespace eevdf::test::select_cases
