// SPDX-License-Identifier: GPL-2.0-only
// The schedule as records: every run (one stay on a CPU, sched_switch in
// to sched_switch out) with the wait and scheduling delay before it, every
// wakeup, and optionally every switch and per-task samples of lag, vruntime
// and deadline and of V. The timehist, latency, CSV, map, Chrome JSON and
// SVG outputs read these.
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
	u32 cpu = 0;   // the CPU it ran on (Simulation::event_cpu() of both switches)
};

// One sched_switch as the trace has it: at t on cpu, prev off and next on.
struct SwitchRecord {
	u64 t;
	u32 cpu;
	int prev, next;
};

struct VSample {
	u64 t;
	u64 v;  // avg_vruntime()
};

struct Sample {
	u64 t;
	s64 lag_ns;    // Simulation::lag_ns(): w (V - v) / NICE_0_LOAD on the task's CPU
	u64 vruntime;
	u64 deadline;
	s64 v_minus_V;  // vruntime - avg_vruntime() of the task's CPU (virtual ns)
};

class Recorder : public eevdf::Observer {
public:
	explicit Recorder(bool samples = false, bool switches = false)
		: want_samples_(samples), want_switches_(switches) {}

	void on_switch(const Simulation&, u64 t, int prev, int next, bool prev_runnable, u64 run_start) override;
	void on_wakeup(const Simulation&, u64 t, int task, int waker, bool new_task) override;
	void on_migrate(const Simulation&, u64 t, int task, u32 from, u32 to) override;
	void on_block(const Simulation&, u64 t, int task, bool delayed, bool exited) override;
	void on_tick(const Simulation&, u64 t, bool hrtick) override;

	// Names, pids, the end time and the runs still under way, once the simulation has run.
	void finish(const Simulation& sim);

	std::vector<RunRecord> runs;  // completed runs of every CPU in the order they ended, idle included
	std::vector<RunRecord> open_runs;  // per CPU: the run under way at the end (end = end_ns); not a run
	std::vector<SwitchRecord> switches;  // every sched_switch in order, when asked for
	std::vector<std::string> names;
	std::vector<int> pids;
	std::vector<u64> migrations;  // per task: set_task_cpu() moves (sched_migrate_task)
	std::vector<std::vector<Sample>> samples;    // per task, while queued
	std::vector<VSample> v_samples;                 // V = avg_vruntime of CPU 0, one per time
	std::vector<std::vector<VSample>> cpu_v_samples;  // per CPU, only with several CPUs
	u32 nr_cpus = 1;
	u64 end_ns = 0;

	std::string name(int task) const { return task < 0 ? "<idle>" : names[static_cast<size_t>(task)]; }
	// The task's comm as the kernel keeps it: TASK_COMM_LEN is 16 with the
	// NUL, so a longer name is cut to 15 bytes (what perf and ftrace show).
	std::string comm(int task) const { return name(task).substr(0, 15); }
	int pid(int task) const { return task < 0 ? 0 : pids[static_cast<size_t>(task)]; }

private:
	struct State {
		u64 on_since = NO_TIME;   // switch in of the current run
		u64 last_out = NO_TIME;   // last switch out
		u64 ready = NO_TIME;      // became runnable, not yet run
		bool exited = false;
	};
	// Each CPU has its own idle task (swapper/N) and its run under way; a
	// task's state follows it from CPU to CPU.
	struct Cpu {
		State idle{0, 0, NO_TIME, false};
		RunRecord current{IDLE, 0, NO_TIME, 0, 0, 'R', 0};
	};
	State& st(int task, u32 cpu) { return task < 0 ? cpus_[cpu].idle : states_[static_cast<size_t>(task)]; }
	void ensure(const Simulation& sim);
	void sample(const Simulation& sim, u64 t);

	bool want_samples_, want_switches_;
	std::vector<State> states_;
	std::vector<Cpu> cpus_;
};

}  // namespace eevdf::cli
