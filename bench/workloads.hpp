// SPDX-License-Identifier: GPL-2.0-only
// Workloads and configurations shared by the benchmarks, the callgrind
// driver and the allocation test. Everything is a pure function of its
// arguments, so every run measures the same schedule.
#pragma once

#include <string>
#include <vector>

#include "model/config.hpp"
#include "model/workload.hpp"

namespace eevdf::bench {

// Long enough that no benchmark reaches the end of the workload.
inline constexpr u64 FOREVER_NS = 1'000'000ULL * NSEC_PER_SEC;  // ~11.6 days simulated
// The same on `cpus` CPUs: a run may take at most MAX_TICKS ticks over all
// CPUs (validate_workload()), 2^32; 10^6 s / cpus at HZ=1000 is 10^9.
inline constexpr u64 forever_on(u32 cpus) { return FOREVER_NS / cpus; }

// The benchmark configuration: the default preset (6.18), HZ=1000 and the
// preset's default base slice (0.70 ms), so with n >= 2 hogs every tick
// ends a slice: each tick is a tick plus a context switch (the expensive
// kind of event).
inline Config bench_config(std::string_view preset = DEFAULT_PRESET, u32 hz = 1000)
{
	return make_config(*find_preset(preset), hz);
}

// A fixed per-task pseudo-random value (splitmix64 of the index).
inline u64 task_hash(u64 i)
{
	u64 z = i + 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

// n tasks that loop { run r_i; sleep s_i } forever, with r_i in
// [100 us, 2 ms), nice in -5..5 and s_i = r_i (n / 1.25 - 1) (at least
// 50 us), so the offered load is about 1.25 CPUs: the CPU never idles once
// all have forked, tasks queue behind each other, and every task keeps
// sleeping and waking. Events are ticks, run completions (each one a
// block: a dequeue, possibly delayed) and timed wakeups (enqueue +
// wakeup-preemption check). Forks are staggered over the first 10 ms.
inline Workload mixed_workload(int n, u64 duration)
{
	Workload w;
	w.duration = duration;
	w.tasks.reserve(static_cast<size_t>(n));
	for (int i = 0; i < n; i++) {
		const u64 h = task_hash(static_cast<u64>(i));
		const u64 run = 100 * NSEC_PER_USEC + h % (1900 * NSEC_PER_USEC);
		u64 sleep = run * 4 * static_cast<u64>(n) / 5;
		sleep = sleep > run ? sleep - run : 0;
		if (sleep < 50 * NSEC_PER_USEC)
			sleep = 50 * NSEC_PER_USEC;
		TaskSpec t;
		t.name = "mixed-" + std::to_string(i);
		t.nice = static_cast<int>((h >> 32) % 11) - 5;
		t.delay = (h >> 40) % (10 * NSEC_PER_MSEC);
		t.loop = LOOP_FOREVER;
		t.phases.push_back(Phase{"main", 1, {Event{Event::Kind::Run, run}, Event{Event::Kind::Sleep, sleep}}});
		w.tasks.push_back(std::move(t));
	}
	return w;
}

// The mixed workload (or its grouped form) on `cpus` CPUs: each task
// sleeps its whole period (run + sleep) divided by cpus, so the ~1.25 CPUs
// of load it offers on one CPU become about 1.25 per CPU, whatever n is.
inline void spread_over(Workload& w, u32 cpus)
{
	for (TaskSpec& t : w.tasks) {
		std::vector<Event>& ev = t.phases[0].events;
		ev[1].ns = (ev[0].ns + ev[1].ns) / cpus;
	}
}

// The group trees of the group benchmarks: fanout[l] children under each
// group of level l (level 0 below the root), tasks only in the leaves. The
// small trees have about one leaf per task of the benchmark's 64; the wide
// ones about a thousand groups, most of them empty.
struct GroupShape {
	const char* name;
	std::vector<int> fanout;
};
inline const std::vector<GroupShape>& group_shapes()
{
	static const std::vector<GroupShape> shapes = {
		{"flat", {}},
		{"64", {64}},           // depth 1, 64 groups
		{"1000", {1000}},       // depth 1, 1,000 groups
		{"8x8", {8, 8}},        // depth 2, 72 groups
		{"32x31", {32, 31}},    // depth 2, 1,024 groups
		{"4x4x4", {4, 4, 4}},   // depth 3, 84 groups
		{"10x10x9", {10, 10, 9}},  // depth 3, 1,010 groups (x 64 CPUs fits MAX_GROUP_ENTITIES)
	};
	return shapes;
}

inline size_t group_count(const GroupShape& shape)
{
	size_t total = 0, level = 1;
	for (int f : shape.fanout)
		total += level *= static_cast<size_t>(f);
	return total;
}

// mixed_workload(n) with its tasks spread over the leaves of `shape`: task
// i in leaf i x leaves / n, so with as many leaves as tasks each task has a
// group of its own, and with more the rest stay empty. Every group weighs
// NICE_0_LOAD. Groups are listed parents first, as a workload file must.
inline Workload grouped_workload(int n, const GroupShape& shape, u64 duration)
{
	Workload w = mixed_workload(n, duration);
	if (shape.fanout.empty())
		return w;
	std::vector<std::string> level{""};
	for (int f : shape.fanout) {
		std::vector<std::string> next;
		next.reserve(level.size() * static_cast<size_t>(f));
		for (const std::string& parent : level)
			for (int c = 0; c < f; c++) {
				next.push_back(parent + "/g" + std::to_string(c));
				w.groups.push_back(GroupSpec{.path = next.back()});
			}
		level = std::move(next);
	}
	for (size_t i = 0; i < w.tasks.size(); i++)
		w.tasks[i].taskgroup = level[i * level.size() / w.tasks.size()];
	return w;
}

}  // namespace eevdf::bench
