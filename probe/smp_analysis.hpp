// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: the analysis of a multi-CPU scenario from its trace of every
// CPU. Per task: CPU share (over the window and over share windows), runs
// (sched_switch in to out on one CPU), migrations (sched_migrate_task, by
// cause), wake-ups (sched_waking -> sched_wakeup -> sched_switch in, and on
// which CPU relative to the previous one and the waker's); per CPU: busy time
// by whom.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "stats.hpp"
#include "tracefs.hpp"
#include "util.hpp"

namespace probe {

struct SmpWake {
	i64 waking = 0, wakeup = -1, in = -1;  // timestamps; -1: not seen (in: the switch in was not traced)
	int waker_cpu = -1;    // the CPU that ran try_to_wake_up()
	int prev_cpu = -1;     // task_cpu() at sched_waking: where it last ran
	int target_cpu = -1;   // sched_wakeup: where it was enqueued
	int run_cpu = -1;      // where it was switched in
	bool target_idle = false;  // the idle task ran on target_cpu at sched_waking
	bool prev_idle = false;    // ... on prev_cpu
};

struct SmpMigration {
	i64 ts = 0;
	int from = -1, to = -1;
	enum Cause { Wakeup, Balance, Active } cause = Balance;
	bool by_idle_cpu = false;  // recorded on `to` while it ran the idle task (a newidle or nohz pull)
};

struct SmpTaskStats {
	i64 cpu_ns = 0;
	std::vector<i64> cpu_ns_per_cpu;
	std::vector<i64> runs;        // complete runs in the window
	std::vector<i64> runs_merged; // consecutive runs on one CPU with only foreign tasks between
	size_t preempted = 0, blocked = 0;  // switch-outs in the window by prev_state
	std::vector<SmpMigration> migrations;  // in the window
	std::vector<i64> residence;   // time between consecutive migrations in the window
	std::vector<double> shares;   // CPU share in each whole share window
	std::vector<SmpWake> wakes;   // wake-ups with sched_waking in the window
	size_t wakes_while_runnable = 0;  // ttwu of a task still queued (ttwu_runnable)
	// Time it was runnable and queued on a CPU that ran a task from outside
	// the scenario (another autogroup's, a kworker, the probe's main thread):
	// what the model, which runs the scenario alone, does not have.
	i64 other_wait_ns = 0;
};

struct SmpCpuStats {
	i64 busy_ns = 0, idle_ns = 0, unknown_ns = 0;
	i64 scenario_ns = 0, probe_ns = 0, foreign_ns = 0;
	size_t switches = 0, timer_irqs = 0;
	// Time it ran an outside task while a scenario task was queued on it:
	// without outside tasks it would have run the scenario then.
	i64 other_wait_ns = 0;
};

struct SmpAnalysis {
	int ncpus = 0;
	std::vector<SmpTaskStats> tasks;
	std::vector<SmpCpuStats> cpus;
	std::vector<i64> migration_gaps;  // between consecutive migrations of any scenario task
	size_t foreign_runs = 0;
	i64 foreign_ns = 0;
	std::vector<std::pair<std::string, std::pair<i64, size_t>>> foreign_top;
	i64 trace_entries = -1, trace_written = -1;
	size_t unparsed = 0;
	// Events recorded in the context of another task than the last
	// sched_switch put on that CPU: a switch the trace does not show (seen on
	// this vendor kernel after switches to some tasks). The task of the line
	// is taken to run from the CPU's previous event.
	size_t untraced_switches = 0;
};

// `tids[i]` is scenario task i; `probe_pids` the probe's own other threads
// and processes (main thread, the --isolate parent). The window is [t0, t1).
// `more_pids`: (pid, i) pairs of further pids that are scenario task i too
// (the forks scenario's child processes, one after the other).
SmpAnalysis analyse_smp(const TraceData &td, const std::vector<int> &tids, const std::vector<int> &probe_pids,
			int ncpus, i64 t0, i64 t1, i64 share_window,
			const std::vector<std::pair<int, int>> &more_pids = {});

}  // namespace probe
