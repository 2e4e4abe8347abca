// SPDX-License-Identifier: GPL-2.0-only
// No allocation on the event path: once a Simulation is built, run_until()
// with no observers must never call operator new, whatever the workload,
// the preset, the features or the knobs.
//
// Built as its own executable, alloc_tests (bench/CMakeLists.txt), which
// links bench/alloc_counter.cpp: counting replacements of the global
// operator new/delete. On failure the test prints the stack of the first
// allocation made inside run_until().
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "bench/alloc_counter.hpp"
#include "bench/workloads.hpp"
#include "model/config.hpp"
#include "model/simulation.hpp"
#include "model/workload.hpp"

namespace {

using namespace eevdf;
namespace alloc = eevdf::bench::alloc;

constexpr u64 MS = NSEC_PER_MSEC;
constexpr u64 US = NSEC_PER_USEC;

struct RunResult {
	alloc::Stats stats;
	std::string stack;
	u64 events = 0;
};

// Builds the simulation (allocation allowed), then runs it to `until` in
// `chunks` calls of run_until() while counting allocations.
RunResult run_counting(const Config& cfg, const Workload& wl, u64 until, int chunks = 4)
{
	Simulation sim(cfg, wl);
	RunResult r;
	{
		alloc::Scope scope;
		for (int i = 1; i <= chunks; i++)
			sim.run_until(until / static_cast<u64>(chunks) * static_cast<u64>(i));
		sim.run_until(until);
		r.stats = scope.finish();
	}
	r.stack = alloc::first_stack();
	r.events = sim.events();
	return r;
}

void require_no_alloc(const RunResult& r, const std::string& what)
{
	INFO(what);
	INFO("events processed: " << r.events);
	INFO("first allocation inside run_until():\n" << r.stack);
	CHECK(r.events > 0);
	REQUIRE(r.stats.count == 0);
}

Event ev(Event::Kind k, u64 ns = 0, int ref = -1, int value = 0) { return Event{k, ns, ref, value}; }

TaskSpec spec(std::string name, std::vector<Phase> phases, s64 loop = LOOP_FOREVER, int nice = 0, u64 delay = 0)
{
	TaskSpec t;
	t.name = std::move(name);
	t.phases = std::move(phases);
	t.loop = loop;
	t.nice = nice;
	t.delay = delay;
	return t;
}

// Every kind of event the model runs: run, runtime, sleep, timer,
// suspend/resume, yield, nice changes, custom slices; staggered forks;
// tasks that exit; hogs beside them.
Workload everything_workload(u64 duration)
{
	using K = Event::Kind;
	Workload w;
	w.duration = duration;
	const int tmr = w.ref("tick-timer"), sig = w.ref("signal"), tmr2 = w.ref("fast-timer");

	w.tasks.push_back(spec("sleeper", {Phase{"p", 1, {ev(K::Run, 3 * MS), ev(K::Sleep, 2 * MS)}}}));
	w.tasks.push_back(spec("periodic", {Phase{"p", 1, {ev(K::Run, 1 * MS), ev(K::Timer, 4 * MS, tmr)}}}, LOOP_FOREVER, -3));
	// A timer whose period is shorter than the run: rt-app restarts it, no sleep.
	w.tasks.push_back(spec("overrun", {Phase{"p", 1, {ev(K::Run, 2 * MS), ev(K::Timer, 1 * MS, tmr2)}}}, LOOP_FOREVER, 4));
	w.tasks.push_back(spec("waker", {Phase{"p", 1, {ev(K::Run, 500 * US), ev(K::Resume, 0, sig), ev(K::Sleep, 3 * MS)}}}));
	w.tasks.push_back(spec("waiter", {Phase{"p", 1, {ev(K::Suspend, 0, sig), ev(K::Run, 200 * US)}}}, LOOP_FOREVER, 2));
	w.tasks.push_back(spec("waiter2", {Phase{"p", 1, {ev(K::Suspend, 0, sig), ev(K::Run, 700 * US), ev(K::Yield)}}}));
	w.tasks.push_back(spec("renicer",
			       {Phase{"up", 2, {ev(K::SetNice, 0, -1, 5), ev(K::Run, 2 * MS)}},
				Phase{"down", 1, {ev(K::SetNice, 0, -1, -3), ev(K::Run, 1 * MS), ev(K::Yield)}},
				Phase{"short", 3, {ev(K::SetSlice, 300 * US), ev(K::Run, 1 * MS), ev(K::Sleep, 500 * US)}},
				Phase{"long", 1, {ev(K::SetSlice, 0), ev(K::SetNice, 0, -1, 0), ev(K::Run, 4 * MS)}}}));
	w.tasks.push_back(spec("runtime", {Phase{"p", 1, {ev(K::Runtime, 5 * MS), ev(K::Sleep, 5 * MS)}}}));
	w.tasks.push_back(spec("yielder", {Phase{"p", 1, {ev(K::Run, 150 * US), ev(K::Yield)}}}, LOOP_FOREVER, 1));
	w.tasks.push_back(spec("zero-time", {Phase{"p", 1, {ev(K::Run, 0), ev(K::Sleep, 0), ev(K::Run, 900 * US),
							       ev(K::Sleep, 1100 * US)}}}));
	// Forks late and exits after a bounded number of loops.
	w.tasks.push_back(spec("short-lived", {Phase{"p", 20, {ev(K::Run, 1 * MS), ev(K::Sleep, 1 * MS)}}}, 3, 0, 500 * MS));
	w.tasks.push_back(spec("one-shot", {Phase{"p", 1, {ev(K::Run, 30 * MS)}}}, 1, -5, 1200 * MS));
	TaskSpec custom = spec("custom-hog", {Phase{"p", 1, {ev(K::Run, RUN_FOREVER)}}}, 1, 0, 0);
	custom.custom_slice = 2 * MS;
	w.tasks.push_back(custom);
	w.tasks.push_back(spec("hog", {Phase{"p", 1, {ev(K::Run, RUN_FOREVER)}}}, 1, -2));
	// Many light sleepers with staggered forks.
	for (int i = 0; i < 40; i++) {
		const u64 h = bench::task_hash(static_cast<u64>(i) + 1000);
		w.tasks.push_back(spec("light-" + std::to_string(i),
				       {Phase{"p", 1,
					      {ev(K::Run, 50 * US + h % (800 * US)), ev(K::Sleep, 5 * MS + (h >> 20) % (40 * MS))}}},
				       LOOP_FOREVER, static_cast<int>((h >> 40) % 11) - 5, (h >> 8) % (300 * MS)));
	}
	return w;
}

struct Variant {
	std::string name;
	void (*apply)(Config&);
};

const std::vector<Variant>& variants()
{
	static const std::vector<Variant> v = {
		{"defaults", [](Config&) {}},
		{"HRTICK", [](Config& c) { c.features.set(Feature::HRTICK, true); }},
		{"NO_HZ_FULL", [](Config& c) { c.features.set(Feature::NO_HZ_FULL, true); }},
		{"-DELAY_DEQUEUE -RUN_TO_PARITY",
		 [](Config& c) {
			 c.features.set(Feature::DELAY_DEQUEUE, false);
			 c.features.set(Feature::RUN_TO_PARITY, false);
		 }},
		{"-PLACE_LAG -WAKEUP_PREEMPTION",
		 [](Config& c) {
			 c.features.set(Feature::PLACE_LAG, false);
			 c.features.set(Feature::WAKEUP_PREEMPTION, false);
		 }},
		{"knobs: phase, jitter, switch cost",
		 [](Config& c) {
			 c.knobs.tick_phase = c.tick_ns / 3;
			 c.knobs.tick_jitter = c.tick_ns / 5;
			 c.knobs.switch_cost = 7 * US;
			 c.seed = 12345;
		 }},
	};
	return v;
}

std::string label(const Config& c, const std::string& what)
{
	return what + " | kernel " + std::string(c.preset->name) + " HZ=" + std::to_string(c.hz) + " slice " +
	       std::to_string(c.base_slice_ns) + " ns";
}

}  // namespace

TEST_CASE("the counting allocator sees an allocation", "[alloc]")
{
	alloc::Scope scope;
	auto* v = new std::vector<int>(100);
	const alloc::Stats s = scope.finish();
	delete v;
	REQUIRE(s.count == 2);
	REQUIRE(s.bytes >= 100 * sizeof(int));
	REQUIRE(alloc::first_stack().find("#0") != std::string::npos);
}

TEST_CASE("run_until() does not allocate: CPU hogs, every preset", "[alloc]")
{
	for (const KernelPreset& p : kernel_presets()) {
		for (u32 hz : {100u, 250u, 1000u}) {
			for (int n : {1, 2, 4, 64, 1000}) {
				Config cfg = make_config(p, hz);
				const u64 duration = (n >= 1000 ? 5 : 30) * NSEC_PER_SEC;
				const RunResult r = run_counting(cfg, hogs_workload(n, duration), duration);
				require_no_alloc(r, label(cfg, std::to_string(n) + " hogs"));
			}
		}
	}
}

TEST_CASE("run_until() does not allocate: seed-001 configurations", "[alloc]")
{
	const Config base = bench::bench_config();
	for (u32 hz : {1000u, 100u}) {
		for (u64 slice_ms : {3, 6, 9, 12, 22, 32}) {
			Config cfg = make_config(*base.preset, hz);
			cfg.base_slice_ns = slice_ms * MS;
			const RunResult r = run_counting(cfg, hogs_workload(4, 30 * NSEC_PER_SEC), 30 * NSEC_PER_SEC);
			require_no_alloc(r, label(cfg, "seed 001, 4 hogs"));
		}
	}
}

TEST_CASE("run_until() does not allocate: sleep/wake/timer/suspend/resume/nice/slice/yield, every preset", "[alloc]")
{
	const u64 duration = 20 * NSEC_PER_SEC;
	const Workload wl = everything_workload(duration);
	for (const KernelPreset& p : kernel_presets()) {
		for (u32 hz : {100u, 250u, 1000u}) {
			for (const Variant& v : variants()) {
				Config cfg = make_config(p, hz);
				v.apply(cfg);
				const RunResult r = run_counting(cfg, wl, duration, 7);
				require_no_alloc(r, label(cfg, "everything workload, " + v.name));
			}
		}
	}
}

TEST_CASE("run_until() does not allocate: the benchmarks' mixed workload, every preset", "[alloc]")
{
	for (const KernelPreset& p : kernel_presets()) {
		for (int n : {2, 64, 1000}) {
			const u64 duration = (n >= 1000 ? 10 : 20) * NSEC_PER_SEC;
			Config cfg = make_config(p, 1000);
			const RunResult r = run_counting(cfg, bench::mixed_workload(n, duration), duration);
			require_no_alloc(r, label(cfg, std::to_string(n) + " mixed sleep/wake tasks"));
		}
	}
}

TEST_CASE("run() to the end does not allocate: every task exits", "[alloc]")
{
	using K = Event::Kind;
	Workload wl;  // no duration: runs until the last task exits
	for (int i = 0; i < 8; i++)
		wl.tasks.push_back(spec("finite-" + std::to_string(i),
					{Phase{"p", 50, {ev(K::Run, (1 + static_cast<u64>(i)) * MS), ev(K::Sleep, 3 * MS)}}}, 2,
					i - 4, static_cast<u64>(i) * MS));
	for (const KernelPreset& p : kernel_presets()) {
		Config cfg = make_config(p, 250);
		Simulation sim(cfg, wl);
		alloc::Stats s;
		{
			alloc::Scope scope;
			sim.run();
			s = scope.finish();
		}
		INFO(label(cfg, "finite tasks run to exit"));
		INFO("first allocation inside run():\n" << alloc::first_stack());
		CHECK(sim.finished());
		CHECK(sim.events() > 0);
		REQUIRE(s.count == 0);
	}
}
