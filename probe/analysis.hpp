// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: the analysis of a pinned run: on-CPU intervals from the spin
// gaps and from sched_switch, runs merged across foreign tasks, the tick
// grid, noise, the waker's latency.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "options.hpp"
#include "stats.hpp"
#include "sysinfo.hpp"
#include "workers.hpp"

namespace probe {

// Context-switch overhead seen by the spin method: the gap of a hog that is
// switched out for another hog is not covered by any hog for up to ~40 us in
// a VM (tick IRQ + schedule + return to user on both sides).  Uncovered
// stretches below this are not counted as foreign activity.
constexpr i64 kSwitchSlack = 100 * kUs;

// Tick grid: phase in [0, T) of the CLOCK_MONOTONIC times at which the tick
// fires, estimated as the densest 20 us bin of event times modulo T.
struct Phase {
	bool ok = false;
	i64 phase = 0;
	double frac = 0;   // share of events within [-50us, +200us) of the grid
	size_t n = 0;
};

struct TaskResult {
	Summary spin_runs, spin_merged, trace_runs, trace_merged;
	std::vector<i64> spin_lens, trace_lens;
	size_t gaps_known = 0, gaps_foreign = 0, gaps_mixed = 0;
	i64 unexplained_ns = 0;
	size_t trace_preempted = 0, trace_blocked = 0;
	size_t trace_by_known = 0, trace_by_foreign = 0, trace_to_idle = 0;
	size_t spin_gaps_no_switch = 0;       // gap while trace says it ran
	i64 spin_gaps_no_switch_ns = 0;
};

struct Report {
	std::string command;
	SysInfo si;
	Options opt;
	Plan plan;
	std::vector<Task> *tasks = nullptr;
	std::vector<TaskResult> res;
	// aggregates over hogs
	Summary spin_all, spin_merged_all, trace_all, trace_merged_all;
	std::map<i64, size_t> spin_hist, trace_hist, trace_merged_hist;
	std::map<i64, size_t> spin_tick_hist, trace_tick_hist;  // empty if HZ unknown
	size_t gaps_known = 0, gaps_foreign = 0, gaps_mixed = 0;
	i64 unexplained_ns = 0;
	size_t irq_events = 0;
	Phase spin_phase;
	size_t spin_ends = 0, spin_ends_at_tick = 0, irq_on_grid = 0;
	// trace
	bool traced = false;
	std::string trace_note;
	i64 trace_entries = -1, trace_written = -1;
	size_t trace_unparsed = 0;
	size_t timer_events = 0, tick_events = 0;
	Phase trace_phase;
	std::optional<i64> tick_period_obs;
	size_t trace_hog_ends = 0, trace_hog_ends_at_tick = 0;
	size_t trace_hog_starts = 0, trace_hog_starts_at_tick = 0;
	Summary end_after_timer;  // switch-out minus preceding local_timer_entry
	size_t foreign_runs = 0;
	i64 foreign_ns = 0, idle_ns = 0;
	std::optional<i64> steal_ns;  // /proc/stat steal of the CPU over [T0, T1]
	std::vector<std::pair<std::string, std::pair<i64, size_t>>> foreign_top;
	size_t spin_gaps_no_switch = 0;
	i64 spin_gaps_no_switch_ns = 0;
	// waker
	Summary waker_lat_spin, waker_lat_trace;
	i64 waker_missed = 0;
	size_t waker_acts = 0;
	size_t hog_runs_ended_by_waker = 0;
	std::optional<i64> tick_ns;
};

void analyse(Report &r, const std::string &trace_text);

}  // namespace probe
