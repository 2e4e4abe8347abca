// SPDX-License-Identifier: GPL-2.0-only
// The project's proved run bounds applied to a kernel trace's runs.
//
// A run is a task's time on a CPU, sched_switch in to sched_switch out. The
// proofs (docs/proofs.md) bound it under preconditions a trace can show in
// part:
//
//   equal    run_whole_equal: a nice-0 task (prio 120) picked while the same
//            1..9 other fair tasks wait on its CPU from its pick to its end
//            (none joins or leaves), all at nice 0 with its slice r: the run,
//            re-picks included, lasts at most r + 2T + 2J - 1 ns. Its first
//            request ends within r + T + J - 1 of the pick (run_length), so
//            a longer run contains a re-pick (docs/findings.md F1), which a
//            trace does not show (no sched_switch when prev == next).
//   weighted run_weighted: curr and the same 2..4 waiting tasks for the
//            whole run (none joins or leaves), nice levels the proof covers
//            (-20, -10, 0, 10, 19; n = 4 without -10): curr's vruntime
//            advances by at most L_c = U_c + W sum_{j!=c} w_j U_j / (W_o w_c),
//            U_i = cdf_i(r) + cdf_i(T + J) - 1. In real time that is
//            L_c w_c / 1024 up to calc_delta_fair's truncation, which the
//            bound adds (one ns per accounting and the inverse weight's
//            relative 2^-15): the proof bounds virtual time; this reading of
//            it in real time is exact only up to that rounding.
//
// (model/proved_bounds.hpp computes them: whole_run_bound, request_bound,
// weighted_bounds) and under preconditions it cannot show, which the user
// vouches for: both theorems are inductive from the tasks' common start on
// the CPU (hogs forked together there: lag_invariant's and lag_weighted's
// invariants), so a task that slept, migrated (docs/findings.md F11) or
// shared the CPU with other tasks before the run is outside them; one
// cfs_rq for the tasks (no cpu-controller cgroups between them), no custom
// slices (sched_setattr) unless --slice says the common one, no SCHED_IDLE
// task (its prio prints 120 too), HRTICK off, the tick running (not
// NO_HZ_FULL) while two tasks share the CPU, no steal time.
//
// Each bound is widened by the trace's timestamp resolution less 1 ns (a
// run measured from truncated timestamps is up to that much longer) and
// by the user's tolerance (the time from the resched to the switch: irq
// exit, a non-preemptible section).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "trace/reader.hpp"

namespace eevdf::trace {

struct RunBoundParams {
	u64 slice_ns = 0;      // r, the base slice
	u64 tick_ns = 0;       // T = TICK_NSEC
	u64 jitter_ns = 0;     // J: how early a tick may come
	u64 tolerance_ns = 0;  // added to every bound
};

enum class BoundKind : unsigned char { Equal, Weighted };

struct RunViolation {
	BoundKind kind;
	std::string comm;
	int pid = 0;
	u32 cpu = 0;
	u64 start = 0, end = 0;  // trace timestamps of the switch in and out
	u64 bound = 0;
	std::vector<int> waiting_prios;  // the other tasks waiting at the pick
	std::vector<int> waiting_pids;
	u64 length() const { return end - start; }
};

struct RunCheck {
	u64 runs = 0;                       // completed runs in the window
	u64 checked_equal = 0, checked_weighted = 0;
	std::map<std::string, u64> skipped; // why a run met no bound's preconditions
	std::vector<RunViolation> violations;
	// the checked run closest to its bound
	u64 closest_length = 0, closest_bound = 0;
	BoundKind closest_kind = BoundKind::Equal;
	u64 equal_bound = 0;                // r + 2T + 2J - 1 + resolution - 1 + tolerance
	u64 request_bound = 0;              // r + T + J - 1 + resolution - 1 + tolerance: one request
	u64 longer_than_request = 0;        // checked equal runs past request_bound: each had a re-pick
	u64 missed_switches = 0;            // lines whose context is not what their CPU last switched to
};

// The weighted bound in real time for curr at nice_c among `others`, or 0
// when the proof does not cover that set.
u64 weighted_run_bound(int nice_c, const std::vector<int>& others, const RunBoundParams& p, u64 resolution_ns);

class RunChecker {
public:
	RunChecker(RunBoundParams p, u64 from = 0, u64 to = ~0ULL) : p_(p), from_(from), to_(to) {}
	// Each task's slice when not the base slice (sched_setattr's custom
	// slices, which a trace does not show): 0 for the base slice.
	void slices(std::function<u64(const std::string& comm, int pid)> f) { slice_of_ = std::move(f); }
	// Only runs of the tasks `f` accepts are counted and checked.
	void select(std::function<bool(const std::string& comm, int pid)> f) { select_ = std::move(f); }
	void add(const Event& e, const ReadStats& rs);
	RunCheck finish(const ReadStats& rs);

private:
	enum class State : unsigned char { Unknown, Sleeping, Waiting, Running };
	struct Task {
		std::string comm;
		int prio = 120;
		State state = State::Unknown;
		int cpu = -1;
	};
	struct Cpu {
		int curr = -1;
		u64 since = 0;
		bool run_known = false;      // curr was switched in inside the trace
		std::vector<int> waiting;    // fair tasks runnable here, not running
		// over the current run:
		bool always_waiting = false; // some task waited throughout
		bool all_nice0 = false;      // every task that waited was nice 0
		bool set_changed = false;    // a task joined or left the waiting set
		u64 run_slice = 0;           // curr's slice
		bool same_slice = true;      // every task that waited had curr's slice
		bool lost = false;           // events of this CPU were lost meanwhile
		std::vector<int> waiting_at_pick;
	};
	Task& task(int pid);
	Cpu& cpu(u32 c);
	void join(u32 c, int pid);
	void leave(u32 c, int pid);
	void waiting_changed(Cpu& c);
	void end_run(u32 c, u64 ts);
	void missed_switch(u32 c, int pid);

	RunBoundParams p_;
	u64 from_, to_;
	bool started_ = false;
	u64 resolution_ = 1;
	std::map<int, Task> tasks_;
	std::vector<Cpu> cpus_;
	RunCheck out_;
	std::function<bool(const std::string&, int)> select_;
	std::function<u64(const std::string&, int)> slice_of_;
	u64 slice(int pid);
};

}  // namespace eevdf::trace
