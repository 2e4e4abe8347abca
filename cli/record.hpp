// SPDX-License-Identifier: GPL-2.0-only
// The schedule as records: every run (one stay on the CPU, sched_switch in
// to sched_switch out) with the wait and scheduling delay before it, every
// wakeup, and optionally per-task samples of lag, vruntime and deadline and
// of V. The timehist, latency, CSV, Chrome JSON and SVG outputs read these.
#pragma once

#include <string>
#include <vector>

#include "model/observer.hpp"
#include "model/types.hpp"

namespace eevdf::cli {

inline constexpr u64 NO_TIME = ~0ULL;

struct RunRecord {
	int task;      // IDLE for the idle task
	u64 start;     // the sched_switch that put it on the CPU
	u64 end;       // the sched_switch that took it off
	u64 wait;      // start - its previous switch out (or its creation)
	u64 delay;     // start - when it became runnable (wakeup, creation or preemption); 0 for idle
	char state;    // prev_state at the end: R preempted, S blocked, X exited
};

struct Sample {
	u64 t;
	s64 lag_ns;    // Simulation::lag_ns(): w (V - v) / NICE_0_LOAD
	u64 vruntime;
	u64 deadline;
};

class Recorder : public eevdf::Observer {
public:
	explicit Recorder(bool samples = false) : want_samples_(samples) {}

	void on_switch(const Simulation&, u64 t, int prev, int next, bool prev_runnable, u64 run_start) override;
	void on_wakeup(const Simulation&, u64 t, int task, int waker, bool new_task) override;
	void on_block(const Simulation&, u64 t, int task, bool delayed, bool exited) override;
	void on_tick(const Simulation&, u64 t, bool hrtick) override;

	// Names, pids and the end time, once the simulation has run.
	void finish(const Simulation& sim);

	std::vector<RunRecord> runs;  // completed runs in time order, idle included
	std::vector<std::string> names;
	std::vector<int> pids;
	std::vector<std::vector<Sample>> samples;    // per task, while queued
	std::vector<std::pair<u64, u64>> v_samples;  // (t, V = avg_vruntime)
	u64 end_ns = 0;

	std::string name(int task) const { return task < 0 ? "<idle>" : names[static_cast<size_t>(task)]; }
	int pid(int task) const { return task < 0 ? 0 : pids[static_cast<size_t>(task)]; }

private:
	struct State {
		u64 on_since = NO_TIME;   // switch in of the current run
		u64 last_out = NO_TIME;   // last switch out or creation
		u64 ready = NO_TIME;      // became runnable, not yet run
		bool exited = false;
	};
	State& st(int task) { return task < 0 ? idle_ : states_[static_cast<size_t>(task)]; }
	void ensure(const Simulation& sim);
	void sample(const Simulation& sim, u64 t);

	bool want_samples_;
	std::vector<State> states_;
	State idle_{0, 0, NO_TIME, false};
	RunRecord current_{IDLE, 0, NO_TIME, 0, 0, 'R'};  // the run under way
};

}  // namespace eevdf::cli
