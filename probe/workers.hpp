// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: the measuring threads: those of the pinned runs (CPU hogs that
// record their spin gaps, the periodic waker) and those of the multi-CPU
// scenarios (hogs, periodic sleepers, a futex ping-pong pair; scenario.hpp),
// the gate that starts them together, and the window plan they follow.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

#include "options.hpp"
#include "scenario.hpp"
#include "sysinfo.hpp"
#include "util.hpp"

namespace probe {

struct Gap {
	i64 a;  // last timestamp before the gap
	i64 b;  // first timestamp after it
};

template <typename T>
struct Buf {
	std::vector<T> v;
	size_t n = 0;
	bool full = false;
	void init(size_t cap) { v.assign(cap, T{}); n = 0; full = false; }
	bool push(const T &x)
	{
		if (n < v.size()) {
			v[n++] = x;
			return true;
		}
		full = true;
		return false;
	}
	const T *begin() const { return v.data(); }
	const T *end() const { return v.data() + n; }
	size_t size() const { return n; }
};

struct Task {
	int idx = 0;
	bool is_waker = false;
	std::string name;
	std::optional<i64> slice_ns;   // requested; nullopt = kernel default
	int nice = 0;
	std::atomic<pid_t> tid{0};
	int err = 0;
	std::string err_what;

	Buf<Gap> gaps;       // gaps > gap threshold inside the window
	Buf<i64> irqs;       // start of gaps in (irq threshold, gap threshold]
	Buf<i64> lat;        // waker: wakeup latency of wakes expected in window
	Buf<Gap> acts;       // waker: [first ts after wake, last ts of the spin]
	i64 missed = 0;      // waker: periods skipped because of overrun
	i64 end_ts = 0;
	i64 rec_end = 0;     // gap buffer overflowed here: intervals end there
	bool interrupted = false;

	ProcSched setup, st0, st1;
};

struct Plan {
	i64 t0 = 0, t1 = 0, tend = 0;
};

extern Options g_opt;
extern Plan g_plan;
extern std::atomic<bool> g_stop;       // SIGINT/SIGTERM: leave now
extern std::atomic<bool> g_tail_done;  // main has read the end statistics
extern std::atomic<bool> g_abort;      // setup failed: do not run

struct Gate {
	std::mutex m;
	std::condition_variable cv;
	int ready = 0;
	bool open = false;
};
extern Gate g_gate;

// Sets CPU affinity, nice and slice, waits at the gate, then runs the hog
// or the waker.
void task_main(Task *tp);

// A thread of a multi-CPU scenario. User-space timestamps are
// CLOCK_MONOTONIC, the trace's clock (trace_clock=mono).
struct SmpTask {
	int idx = 0;
	ScenarioTask spec;
	std::optional<i64> slice_ns;   // requested; nullopt = kernel default
	std::atomic<pid_t> tid{0};
	int err = 0;
	std::string err_what;
	SmpTask *partner = nullptr;    // ping / pong

	// sleeper: expected wake -> first timestamp after clock_nanosleep;
	// ping / pong: the partner's timestamp just before FUTEX_WAKE -> first
	// timestamp after FUTEX_WAIT returns. Wakes expected (sent) in [T0, T1).
	Buf<i64> lat;
	Buf<Gap> acts;                 // [woke, done] of each activation in the window
	i64 missed = 0;                // sleeper: periods skipped because of overrun
	std::atomic<int> word{0};      // ping / pong: the futex word it waits on
	std::atomic<i64> sent_at{0};   // ping / pong: when the partner last woke it
	int pipe_r = -1, pipe_w = -1;  // pipe-ping / pipe-pong: the pipe it reads (the partner writes)
	Buf<int> children;             // forker: the pid of every child, for the trace analysis
	bool interrupted = false;

	ProcSched setup, st0, st1;
};

// Sets the policy, nice and slice (the task's or --slice) and the sleeper's
// timer slack, names the thread,
// waits at the gate, then runs its role until the plan's end.
void smp_task_main(SmpTask *tp);

}  // namespace probe
