// SPDX-License-Identifier: GPL-2.0-only
// The workload DSL of the unit and property tests: rt-app programs written
// in C++ (model/workload.hpp), every duration with its unit at the call
// (run(3 * MS), sleep(700 * US)). One builder per event kind and one
// modifier per task field, so that no test spells an Event or a TaskSpec
// field by field. It lives in props/, the lower of its two users, so that
// tests/ and props/ (and fuzz/ through props/) include it downward.
#pragma once

#include <string>
#include <vector>

#include "model/workload.hpp"

namespace eevdf::test {

inline constexpr u64 MS = NSEC_PER_MSEC;
inline constexpr u64 US = NSEC_PER_USEC;

// ---- events, as rt-app names them

inline Event run(u64 ns) { return Event{Event::Kind::Run, ns}; }
inline Event runtime(u64 ns) { return Event{Event::Kind::Runtime, ns}; }
inline Event sleep(u64 ns) { return Event{Event::Kind::Sleep, ns}; }
// Blocks until the next boundary of timer `ref`'s period.
inline Event timer(int ref, u64 period) { return Event{Event::Kind::Timer, period, ref}; }
inline Event suspend(int ref) { return Event{Event::Kind::Suspend, 0, ref}; }
inline Event resume(int ref) { return Event{Event::Kind::Resume, 0, ref}; }
inline Event yield() { return Event{Event::Kind::Yield}; }
inline Event set_nice(int nice) { return Event{Event::Kind::SetNice, 0, -1, nice}; }
// sched_setattr(sched_runtime = ns); 0 clears the custom slice.
inline Event set_slice(u64 ns) { return Event{Event::Kind::SetSlice, ns}; }
// sched_setaffinity(Workload::cpu_sets[set]).
inline Event set_affinity(int set) { return Event{Event::Kind::SetAffinity, 0, set}; }
// pthread mutex `ref` and condition `ref` (rt-app lock, unlock, wait, signal).
inline Event mutex_lock(int ref) { return Event{Event::Kind::MutexLock, 0, ref}; }
inline Event mutex_unlock(int ref) { return Event{Event::Kind::MutexUnlock, 0, ref}; }
inline Event cond_wait(int ref, int mutex) { return Event{Event::Kind::CondWait, 0, ref, mutex}; }
inline Event cond_signal(int ref) { return Event{Event::Kind::CondSignal, 0, ref}; }
// schbench's futex word `ref`: fpost() and fwait().
inline Event futex_post(int ref) { return Event{Event::Kind::FutexPost, 0, ref}; }
inline Event futex_wait(int ref) { return Event{Event::Kind::FutexWait, 0, ref}; }

// ---- tasks

// A CPU hog: one run that never ends (a phase "hog", passed once).
inline TaskSpec hog(std::string name, int nice = 0)
{
	TaskSpec t;
	t.name = std::move(name);
	t.nice = nice;
	t.phases.push_back(Phase{"hog", 1, {run(RUN_FOREVER)}});
	return t;
}

// A task that passes `loop` times over `events` (one phase named "main").
inline TaskSpec task(std::string name, std::vector<Event> events, s64 loop = LOOP_FOREVER)
{
	TaskSpec t = looping_task(std::move(name), std::move(events));
	t.loop = loop;
	return t;
}

// A task of several phases, passed `loop` times.
inline TaskSpec phased(std::string name, std::vector<Phase> phases, s64 loop = LOOP_FOREVER)
{
	TaskSpec t;
	t.name = std::move(name);
	t.loop = loop;
	t.phases = std::move(phases);
	return t;
}

// ---- one task field each

// A task with an affinity mask (sched_setaffinity() before it forks).
inline TaskSpec pinned(TaskSpec t, std::vector<u32> cpus)
{
	t.cpus = std::move(cpus);
	return t;
}

// A task created at `delay` instead of 0.
inline TaskSpec delayed(TaskSpec t, u64 delay)
{
	t.delay = delay;
	return t;
}

inline TaskSpec niced(TaskSpec t, int nice)
{
	t.nice = nice;
	return t;
}

// A custom slice (rt-app "dl-runtime"); 0 is the base slice.
inline TaskSpec with_slice(TaskSpec t, u64 slice)
{
	t.custom_slice = slice;
	return t;
}

inline TaskSpec with_policy(TaskSpec t, Policy p)
{
	t.policy = p;
	return t;
}

// ---- workloads

inline Workload workload(std::vector<TaskSpec> tasks, u64 duration = 0)
{
	Workload w;
	w.tasks = std::move(tasks);
	w.duration = duration;
	return w;
}

}  // namespace eevdf::test
