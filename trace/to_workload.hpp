// SPDX-License-Identifier: GPL-2.0-only
// A trace's tasks as a workload the model (and rt-app) can run: each task's
// CPU bursts and sleeps in the order the trace shows them.
//
//   burst  the CPU time from a wake-up (or the trace's start) to the next
//          switch out with a sleeping prev_state; preemptions (prev_state R)
//          do not end it: a "run" of that much CPU time.
//   sleep  from that switch out to the wake-up (sched_waking, or
//          sched_wakeup when waking was not traced): a timed "sleep" of the
//          observed length. With `resume`, a sleep ended by another
//          selected task in task context (the wake-up line's TASK-PID, not
//          in an interrupt) becomes "suspend" here and "resume" at that
//          point of the waker's bursts instead.
//   start  a task forked in the trace starts at its sched_wakeup_new (rt-app
//          "delay"); one seen first running or sleeping existed from the start.
//   nice   from its prio (120 + nice); an RT task (prio < 100) is left out.
//   name   COMM-PID, bytes outside printable ASCII as '_'.
//   cpus   the CPUs it ran on since its comm last changed (an exec:
//          taskset pins itself, then execs the program), when that is some
//          but not all of the trace's: what it did, not its mask.
//
// Timed sleeps are the default because the model's resume, as rt-app's
// (pthread_cond_broadcast without a predicate), wakes only a task already
// suspended: a replay in which the waker gets there first loses the wake-up
// and leaves the wakee suspended for good. Wake-ups through a pipe or a
// futex are not lost that way in the kernel, and a replayed ping-pong
// stalls after a few rounds (docs/trace.md). Times are rounded to whole
// microseconds, rt-app's unit.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "model/workload.hpp"
#include "trace/reader.hpp"

namespace eevdf::trace {

// The sched events read to make one workload: their bursts and sleeps are
// held until the end (an rt-app file holds at most RTAPP_MAX_EVENTS).
inline constexpr u64 MAX_TRACE_EVENTS_TO_WORKLOAD = u64{1} << 22;

struct ToWorkloadOptions {
	bool resume = false;       // wake-ups by selected tasks as suspend/resume
	bool affinity = true;      // "cpus" from the CPUs observed
	std::function<bool(const std::string& comm, int pid)> select;  // null: every task
};

struct ToWorkloadResult {
	Workload workload;
	std::vector<int> pids;              // the trace pid of each workload task
	std::vector<std::string> left_out;  // "comm-pid: why"
	u64 suspends = 0, timed_sleeps = 0;
};

// Throws InputError for a trace beyond MAX_TRACE_EVENTS_TO_WORKLOAD or
// MAX_TRACE_TASKS, or whose selected tasks are more than an rt-app file
// holds (RTAPP_MAX_THREADS threads, RTAPP_MAX_EVENTS events).
ToWorkloadResult to_workload(Reader& r, const ToWorkloadOptions& o);

}  // namespace eevdf::trace
