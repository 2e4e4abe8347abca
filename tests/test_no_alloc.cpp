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
#include "props/workload_dsl.hpp"

namespace {

using namespace eevdf;
using namespace eevdf::test;
namespace alloc = eevdf::bench::alloc;

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

// Every kind of event the model runs: run, runtime, sleep, timer,
// suspend/resume, yield, nice changes, custom slices; staggered forks;
// tasks that exit; hogs beside them.
Workload everything_workload(u64 duration)
{
	Workload w = workload({}, duration);
	const int tmr = w.ref("tick-timer"), sig = w.ref("signal"), tmr2 = w.ref("fast-timer");
	auto one_phase = [](std::string name, std::vector<Event> events, s64 loop = LOOP_FOREVER) {
		return phased(std::move(name), {Phase{"p", 1, std::move(events)}}, loop);
	};

	w.tasks.push_back(one_phase("sleeper", {run(3 * MS), sleep(2 * MS)}));
	w.tasks.push_back(niced(one_phase("periodic", {run(1 * MS), timer(tmr, 4 * MS)}), -3));
	// A timer whose period is shorter than the run: rt-app restarts it, no sleep.
	w.tasks.push_back(niced(one_phase("overrun", {run(2 * MS), timer(tmr2, 1 * MS)}), 4));
	w.tasks.push_back(one_phase("waker", {run(500 * US), resume(sig), sleep(3 * MS)}));
	w.tasks.push_back(niced(one_phase("waiter", {suspend(sig), run(200 * US)}), 2));
	w.tasks.push_back(one_phase("waiter2", {suspend(sig), run(700 * US), yield()}));
	w.tasks.push_back(phased("renicer", {Phase{"up", 2, {set_nice(5), run(2 * MS)}},
					     Phase{"down", 1, {set_nice(-3), run(1 * MS), yield()}},
					     Phase{"short", 3, {set_slice(300 * US), run(1 * MS), sleep(500 * US)}},
					     Phase{"long", 1, {set_slice(0), set_nice(0), run(4 * MS)}}}));
	w.tasks.push_back(one_phase("runtime", {runtime(5 * MS), sleep(5 * MS)}));
	w.tasks.push_back(niced(one_phase("yielder", {run(150 * US), yield()}), 1));
	w.tasks.push_back(one_phase("zero-time", {run(0 * US), sleep(0 * US), run(900 * US), sleep(1100 * US)}));
	// Forks late and exits after a bounded number of loops.
	w.tasks.push_back(delayed(phased("short-lived", {Phase{"p", 20, {run(1 * MS), sleep(1 * MS)}}}, 3), 500 * MS));
	w.tasks.push_back(delayed(niced(one_phase("one-shot", {run(30 * MS)}, 1), -5), 1200 * MS));
	w.tasks.push_back(with_slice(one_phase("custom-hog", {run(RUN_FOREVER)}, 1), 2 * MS));
	w.tasks.push_back(niced(one_phase("hog", {run(RUN_FOREVER)}, 1), -2));
	// Many light sleepers with staggered forks.
	for (int i = 0; i < 40; i++) {
		const u64 h = bench::task_hash(static_cast<u64>(i) + 1000);
		TaskSpec light = one_phase("light-" + std::to_string(i),
					   {run(50 * US + h % (800 * US)), sleep(5 * MS + (h >> 20) % (40 * MS))});
		w.tasks.push_back(delayed(niced(light, static_cast<int>((h >> 40) % 11) - 5), (h >> 8) % (300 * MS)));
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

TEST_CASE("run_until() does not allocate: several CPUs, without and with SMT siblings", "[alloc]")
{
	// Wake-ups through select_task_rq_fair() (the idle-core hint and the
	// core scan with SMT), periodic, nohz and newidle balancing, migrations.
	for (u32 smt : {1u, 2u}) {
		const u64 duration = 5 * NSEC_PER_SEC;
		Config cfg = make_config(*find_preset("6.18.33"), 1000, 8);
		cfg.smt = smt;
		const RunResult r = run_counting(cfg, everything_workload(duration), duration);
		require_no_alloc(r, label(cfg, "8 CPUs, smt " + std::to_string(smt) + ", every kind of event"));
	}
}

TEST_CASE("run() to the end does not allocate: every task exits", "[alloc]")
{
	Workload wl;  // no duration: runs until the last task exits
	for (int i = 0; i < 8; i++) {
		const TaskSpec finite =
			phased("finite-" + std::to_string(i),
			       {Phase{"p", 50, {run((1 + static_cast<u64>(i)) * MS), sleep(3 * MS)}}}, 2);
		wl.tasks.push_back(delayed(niced(finite, i - 4), static_cast<u64>(i) * MS));
	}
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
