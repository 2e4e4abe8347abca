// SPDX-License-Identifier: GPL-2.0-only
// Per-task and total metrics, in the terms /proc/PID/sched, perf sched
// timehist and schbench use.
#pragma once

#include <string>
#include <vector>

#include "model/observer.hpp"
#include "model/sample_counts.hpp"
#include "model/types.hpp"

namespace eevdf {

struct Distribution {
	u64 count = 0, min = 0, max = 0, p50 = 0, p90 = 0, p99 = 0;
	u64 sum = 0;  // mean = sum / count, left to the reporter (no floating point in model/)
	// false: the percentiles are bucket lower bounds within a relative
	// 2^-precision_bits (SampleCounts past its limit); count, min, max and
	// sum stay exact.
	bool exact = true;
	unsigned precision_bits = 64;
};

// Nearest-rank percentiles (the smallest value with at least p% at or below it).
Distribution summarize(std::vector<u64> values);
Distribution summarize(const SampleCounts& samples);

struct TaskMetrics {
	std::string name;
	int pid = 0;
	u64 cpu_ns = 0;                    // wall time on the CPU (switch to switch)
	SampleCounts runs;                 // completed on-CPU intervals, sched_switch in to out
	u64 switches = 0;                  // nr_switches: times switched out
	u64 involuntary_switches = 0;      // switched out while runnable (prev_state=R)
	SampleCounts wakeup_latency;       // try_to_wake_up (or fork) -> running its own code
	s64 max_abs_lag_ns = 0;            // max |w (V - v)| / NICE_0 over the sample points
	// Several CPUs (schedstats' names): se.nr_migrations, the wake-ups
	// counted where the waker ran (local) or elsewhere (remote), those that
	// moved the task, and run delay (time runnable but not running).
	u64 migrations = 0;
	u64 wakeups = 0, wakeups_local = 0, wakeups_remote = 0, wakeups_migrate = 0;
	u64 run_delay_ns = 0;
	std::vector<u64> cpu_ns_per_cpu;   // wall time on each CPU; empty on one CPU (cpu_ns is its)
	// Moves to another group (a phase-level taskgroup): the cpu_ns the task
	// had used when it moved, and the group it moved to (its index in
	// Simulation::groups(), -1: the root). Empty without moves.
	struct GroupMove {
		u64 cpu_ns = 0;
		int group = -1;
	};
	std::vector<GroupMove> group_moves;
};

// Adds `x` into `total`: sums, merged distributions, the larger lag (the
// "summary" of a report, over tasks or over a trace's selected tasks).
void add_to_total(TaskMetrics& total, const TaskMetrics& x);

struct CpuMetrics {
	u64 busy_ns = 0, idle_ns = 0;
	u64 switches = 0;
	u64 ipis = 0;              // IPIs received
	u64 balance_attempts = 0;  // sched_balance_rq() with this CPU as dst
	u64 tasks_pulled = 0;      // tasks attached here by the balancer
	u64 ticks = 0;
};

// Collects metrics from a Simulation. Lag is sampled where it peaks: at a
// task's switch in (the longest it has waited) and out (the most it has
// run ahead), at wakeups and at every tick for curr.
class MetricsCollector : public Observer {
public:
	void on_switch(const Simulation&, u64 t, int prev, int next, bool prev_runnable, u64 run_start) override;
	void on_wakeup(const Simulation&, u64 t, int task, int waker, bool new_task) override;
	void on_tick(const Simulation&, u64 t, bool hrtick) override;

	// Adds the run still in progress to cpu_ns (not to runs: it did not end).
	void finish(const Simulation& sim);

	void on_ttwu(const Simulation&, u64 t, int task, int waker) override;
	void on_move_group(const Simulation&, u64 t, int task) override;

	std::vector<TaskMetrics> tasks;
	std::vector<CpuMetrics> cpus;  // filled by finish()
	u64 end_ns = 0;

private:
	void ensure(const Simulation& sim);
	void sample_lag(const Simulation& sim, int task);
	std::vector<int> running_;   // per CPU
	std::vector<u64> run_since_;
	std::vector<u64> woken_at_;  // pending wakeup time per task, ~0 if none
	std::vector<u64> runnable_since_;  // per task: when it last became runnable and waiting, ~0 if not
};

}  // namespace eevdf
