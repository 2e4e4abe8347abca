// SPDX-License-Identifier: GPL-2.0-only
// Golden schedules, computed by hand from the kernel's rules (6.18 unless a
// test says otherwise). Notation in the comments: times in ms, vruntimes
// relative to the boot reference point, V the weighted average vruntime.
#include <catch2/catch.hpp>

#include <algorithm>

#include "model/check.hpp"
#include "model/metrics.hpp"
#include "model/pick_by_definition.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

// Every run after the start-up runs lasts `len`.
void check_steady_runs(const Recorder& r, size_t skip, u64 len)
{
	const auto runs = r.run_lengths(skip);
	REQUIRE(runs.size() > 10);
	for (u64 x : runs)
		CHECK(x == len);
}

u64 first_after(const std::vector<u64>& times, u64 t)
{
	for (u64 x : times)
		if (x > t)
			return x;
	return 0;
}

}  // namespace

// Two hogs forked at t=0 get v = V and a first deadline half a slice away
// (PLACE_DEADLINE_INITIAL). hog-0 runs first and is protected until its
// deadline; at the tick where v >= deadline the deadline is renewed from v,
// hog-0 is ineligible (v > V) and hog-1 runs. From then on each run ends at
// the first tick at which the runner's v reaches its deadline.
TEST_CASE("two hogs at HZ=1000 with a 3 ms slice switch every 3 ms after start-up", "[golden]")
{
	const Recorder r = simulate(config("6.18", 1000, 3 * MS), workload({hog("a"), hog("b")}), 100 * MS);
	// t=2: hog-0 v=2 >= d=1.5, V=1: hog-1. t=4: hog-1 v=2 >= 1.5, d=5;
	// both v=2, equal deadlines: curr loses the tie. Then every 3 ms.
	REQUIRE(r.switches.size() > 5);
	CHECK(r.switches[0] == Switch{0, IDLE, 0});
	CHECK(r.switches[1] == Switch{2 * MS, 0, 1});
	CHECK(r.switches[2] == Switch{4 * MS, 1, 0});
	CHECK(r.switches[3] == Switch{7 * MS, 0, 1});
	CHECK(r.switches[4] == Switch{10 * MS, 1, 0});
	check_steady_runs(r, 2, 3 * MS);
}

TEST_CASE("two hogs with the slice below TICK_NSEC run one tick each", "[golden]")
{
	SECTION("HZ=1000, slice 0.7 ms") { check_steady_runs(simulate(config("6.18", 1000, 700 * US), workload({hog("a"), hog("b")}), 50 * MS), 1, 1 * MS); }
	SECTION("HZ=250, slice 3 ms") { check_steady_runs(simulate(config("6.18", 250, 3 * MS), workload({hog("a"), hog("b")}), 200 * MS), 1, 4 * MS); }
	SECTION("HZ=100, slice 3 ms") { check_steady_runs(simulate(config("6.18", 100, 3 * MS), workload({hog("a"), hog("b")}), 500 * MS), 1, 10 * MS); }
}

TEST_CASE("two hogs with the slice equal to TICK_NSEC run one tick each", "[golden]")
{
	SECTION("HZ=1000") { check_steady_runs(simulate(config("6.18", 1000, 1 * MS), workload({hog("a"), hog("b")}), 50 * MS), 1, 1 * MS); }
	SECTION("HZ=250") { check_steady_runs(simulate(config("6.18", 250, 4 * MS), workload({hog("a"), hog("b")}), 200 * MS), 1, 4 * MS); }
	SECTION("HZ=100") { check_steady_runs(simulate(config("6.18", 100, 10 * MS), workload({hog("a"), hog("b")}), 500 * MS), 1, 10 * MS); }
}

// Above the tick a run lasts the whole slice rounded up to ticks: the
// deadline is crossed at the first tick at or after slice of runtime.
TEST_CASE("two hogs with the slice above TICK_NSEC run the slice rounded up to whole ticks", "[golden]")
{
	SECTION("HZ=1000, 3 ms") { check_steady_runs(simulate(config("6.18", 1000, 3 * MS), workload({hog("a"), hog("b")}), 100 * MS), 2, 3 * MS); }
	SECTION("HZ=250, 6 ms -> 8 ms") { check_steady_runs(simulate(config("6.18", 250, 6 * MS), workload({hog("a"), hog("b")}), 400 * MS), 2, 8 * MS); }
	SECTION("HZ=100, 32 ms -> 40 ms") { check_steady_runs(simulate(config("6.18", 100, 32 * MS), workload({hog("a"), hog("b")}), 2000 * MS), 2, 40 * MS); }
}

TEST_CASE("four hogs at HZ=1000 with a 3 ms slice average 3 ms runs, and 10 ms at HZ=100", "[golden]")
{
	const auto four = workload({hog("a"), hog("b"), hog("c"), hog("d")});
	const Recorder fast = simulate(config("6.18", 1000, 3 * MS), four, 1000 * MS);
	check_steady_runs(fast, 4, 3 * MS);
	const Recorder slow = simulate(config("6.18", 100, 3 * MS), four, 1000 * MS);
	check_steady_runs(slow, 1, 10 * MS);
	// Round robin: each hog's next turn comes after the other three.
	for (size_t i = 8; i < fast.switches.size(); i++)
		CHECK(fast.switches[i].next == fast.switches[i - 4].next);
}

TEST_CASE("four hogs at HZ=250 run whole ticks for every slice up to one tick", "[golden]")
{
	const auto four = workload({hog("a"), hog("b"), hog("c"), hog("d")});
	for (u64 slice : {100 * US, 700 * US, 1400 * US, 3 * MS, 4 * MS})
		check_steady_runs(simulate(config("6.18", 250, slice), four, 400 * MS), 4, 4 * MS);
}

// Weights 1024 and 335: over 10 s the nice-0 hog gets 1024/1359 of the CPU
// within the lag bound (a slice plus a tick of either task).
TEST_CASE("nice 0 and nice 5 hogs share the CPU 1024:335", "[golden]")
{
	Workload wl = workload({hog("n0", 0), hog("n5", 5)});
	wl.duration = 10'000 * MS;
	Simulation sim(config("6.18", 1000, 3 * MS), wl);
	MetricsCollector m;
	sim.add_observer(&m);
	sim.run();
	m.finish(sim);
	const s64 ideal0 = static_cast<s64>(10'000 * MS * 1024 / 1359);
	const s64 bound = static_cast<s64>(2 * (3 * MS + 1 * MS));
	CHECK(std::abs(static_cast<s64>(m.tasks[0].cpu_ns) - ideal0) <= bound);
	CHECK(m.tasks[0].cpu_ns + m.tasks[1].cpu_ns == 10'000 * MS);
}

// b runs 0.5 ms from t=2 (its first turn) and sleeps 10 ms. At t=2.5:
// v_b=0.5, v_a=2, V=1.25, so b is eligible (no delay) with vlag=0.75 ms.
// At t=12.5 a alone has v_a=12; b's lag is inflated by (W+w)/W = 2 to
// 1.5 ms: v_b = 10.5, d_b = 13.5 < d_a = 14.5, and a's protection ended at
// 5 ms: b preempts at once, with V = 11.25 leaving it exactly 0.75 ms of lag.
TEST_CASE("a sleeper waking with positive lag is placed lag-inflated and preempts", "[golden]")
{
	Workload wl = workload({hog("a"), task("b", {run(500 * US), sleep(10 * MS)})});
	wl.duration = 13 * MS;
	Simulation sim(config("6.18", 1000, 3 * MS), wl);
	Recorder r;
	bool checked = false;
	r.each_event = [&](const Simulation& s, u64 t) {
		if (t != 12'500 * US || checked)
			return;
		checked = true;
		const SchedEntity& a = s.tasks()[0].se;
		const SchedEntity& b = s.tasks()[1].se;
		CHECK(a.vruntime - b.vruntime == 1'500'000);
		CHECK(b.deadline - b.vruntime == 3 * MS);
		CHECK(s.cfs_rq().avg_vruntime() - b.vruntime == 750'000);
		CHECK(s.current() == 1);
	};
	sim.add_observer(&r);
	sim.run();
	CHECK(checked);
	const auto ins = r.switch_ins(1);
	REQUIRE(ins.size() == 2);
	CHECK(ins[0] == 2 * MS);
	CHECK(ins[1] == 12'500 * US);
}

// a (3 ms slice) runs from t=0, protected until its deadline v=1.5. b, with
// a custom 0.5 ms slice, is created at t=1: v_b = V = v_a = 1 and, with half
// a slice, d_b = 1.25 < d_a. With PREEMPT_SHORT the shorter slice ignores
// a's protection: b runs at once. Without it b waits for a's deadline,
// crossed at the tick at 4 ms (HZ=250).
TEST_CASE("PREEMPT_SHORT lets a short-slice waker preempt a protected task", "[golden]")
{
	const TaskSpec b = delayed(with_slice(task("b", {run(200 * US), sleep(100 * MS)}, 1), 500 * US), 1 * MS);
	const auto wl = workload({hog("a"), b});
	Config on = config("6.18", 250, 3 * MS);
	Config off = on;
	off.features.set(Feature::PREEMPT_SHORT, false);
	const auto with = simulate(on, wl, 20 * MS).switch_ins(1);
	const auto without = simulate(off, wl, 20 * MS).switch_ins(1);
	REQUIRE(!with.empty());
	REQUIRE(!without.empty());
	CHECK(with[0] == 1 * MS);
	CHECK(without[0] == 4 * MS);
}

// b runs first, for 1.5 ms, and sleeps with v_b = 1.5 > V = 0.75: with
// DELAY_DEQUEUE it stays queued (delayed) until the pick selects it at the
// tick at 3 ms (V = 1.5: eligible), leaving with zero lag; it wakes at 11.5
// with zero lag and runs at the tick at 12. Without DELAY_DEQUEUE it leaves
// at once with vlag = -0.75 ms, is placed 1.5 ms behind V on waking, and
// runs only at 14.
TEST_CASE("a task sleeping with negative lag is delayed until it is picked", "[golden]")
{
	auto wl = workload({task("b", {run(1500 * US), sleep(10 * MS), run(100 * MS)}, 1), hog("a")});
	Config cfg = config("6.18", 1000, 3 * MS);

	Workload w = wl;
	w.duration = 20 * MS;
	Simulation sim(cfg, w);
	Recorder r;
	u64 left_at = 0;
	r.each_event = [&](const Simulation& s, u64 t) {
		if (!left_at && t > 1500 * US && !s.tasks()[0].se.on_rq)
			left_at = t;
	};
	sim.add_observer(&r);
	sim.run();
	REQUIRE(r.delayed_blocks.size() == 1);
	CHECK(r.delayed_blocks[0] == std::pair<u64, int>{1500 * US, 0});
	CHECK(left_at == 3 * MS);
	CHECK(first_after(r.switch_ins(0), 11'500 * US) == 12 * MS);

	cfg.features.set(Feature::DELAY_DEQUEUE, false);
	const Recorder no_delay = simulate(cfg, wl, 20 * MS);
	CHECK(no_delay.delayed_blocks.empty());
	CHECK(first_after(no_delay.switch_ins(0), 11'500 * US) == 14 * MS);
}

// b runs 1 ms, then renices itself to 5 (dequeue SAVE, reweight, enqueue
// RESTORE). vlag = V - v = 0.5 - 1 = -0.5 ms becomes -0.5 ms * 1024/335 =
// -1528358 ns (div_s64 truncates), inflated by (1024+335)/1024 to -2028357;
// v_b = V(=v_a) + 2028357, and the relative deadline 0.5 ms scales to 1528358.
// Its priority got worse while running: resched, and a runs.
TEST_CASE("a nice change mid-run rescales lag and relative deadline", "[golden]")
{
	Workload wl = workload({task("b", {run(1 * MS), set_nice(5), run(RUN_FOREVER)}, 1), hog("a")});
	wl.duration = 2 * MS;
	Simulation sim(config("6.18", 1000, 3 * MS), wl);
	Recorder r;
	bool checked = false;
	r.each_event = [&](const Simulation& s, u64 t) {
		if (t != 1 * MS || checked || s.current() != 1)
			return;
		checked = true;
		const SchedEntity& b = s.tasks()[0].se;
		const SchedEntity& a = s.tasks()[1].se;
		CHECK(b.load.weight == 335ULL << 10);
		CHECK(b.vruntime - a.vruntime == 2'028'357);
		CHECK(b.deadline - b.vruntime == 1'528'358);
	};
	sim.add_observer(&r);
	sim.run();
	CHECK(checked);
	CHECK(r.switches[1] == Switch{1 * MS, 0, 1});
}

// The kernel starts v0 at 2^64 - 2^20 so that the first millisecond of
// runtime wraps vruntime through 2^64. Wrapped signed comparisons make the
// schedule independent of where v0 starts.
TEST_CASE("vruntime crossing 2^64 does not change the schedule", "[golden]")
{
	TaskSpec s = task("s", {run(700 * US), sleep(2300 * US)});
	TaskSpec n = task("n", {run(5 * MS), set_nice(3), run(2 * MS), set_nice(-2), sleep(1 * MS)});
	auto wl = workload({hog("a"), hog("b", 4), s, n});
	Config base = config("6.18", 1000);
	REQUIRE(base.vruntime_origin == static_cast<u64>(-(1LL << 20)));
	const Recorder ref = simulate(base, wl, 300 * MS);
	for (u64 origin : {0ULL, 1ULL << 63, ~0ULL - 5000, (1ULL << 63) - 2 * MS}) {
		Config c = base;
		c.vruntime_origin = origin;
		CHECK(simulate(c, wl, 300 * MS).switches == ref.switches);
	}
}

TEST_CASE("the tree pick equals the brute-force EEVDF pick after every event", "[golden]")
{
	Workload wl = mixed_pick_workload();
	for (const KernelPreset& preset : kernel_presets()) {
		for (u32 hz : {100u, 250u, 1000u}) {
			Config cfg = make_config(preset, hz);
			Workload w = wl;
			w.duration = 2000 * MS;
			Simulation sim(cfg, w);
			Recorder r;
			u64 compared = 0, mismatches = 0;
			std::string first_difference;
			r.each_event = [&](const Simulation& s2, u64 t) {
				for (const PickComparison& pick : compare_picks(s2.cfs_rq(), exact_v(s2.cfs_rq()))) {
					compared++;
					if (!pick.agree && !mismatches++)
						first_difference =
							"at " + std::to_string(t) + " ns: " + pick.describe();
				}
			};
			sim.add_observer(&r);
			sim.run();
			INFO("preset " << preset.name << " HZ=" << hz);
			CHECK(compared > 1000);
			INFO(first_difference);
			CHECK(mismatches == 0);
		}
	}
}

TEST_CASE("the same workload and seed give the same schedule", "[golden]")
{
	Config cfg = config("6.18", 1000, 3 * MS);
	cfg.knobs.tick_jitter = 30 * US;
	cfg.knobs.switch_cost = 5 * US;
	cfg.seed = 42;
	auto wl = workload({hog("a"), hog("b"), task("s", {run(700 * US), sleep(2300 * US)})});
	const Recorder x = simulate(cfg, wl, 500 * MS);
	const Recorder y = simulate(cfg, wl, 500 * MS);
	CHECK(x.switches == y.switches);
	cfg.seed = 43;
	CHECK(simulate(cfg, wl, 500 * MS).switches != x.switches);
}

TEST_CASE("the invariant checker holds on every event of mixed workloads for every preset", "[golden][check]")
{
	TaskSpec s = task("s", {run(700 * US), sleep(2300 * US)});
	TaskSpec p = with_slice(task("p", {run(300 * US), timer(0, 5 * MS)}), 400 * US);
	TaskSpec n = task("n", {run(5 * MS), set_nice(3), run(2 * MS), set_nice(-7), sleep(1 * MS), yield()});
	TaskSpec w = task("w", {run(1 * MS), resume(1), sleep(4 * MS)});
	TaskSpec z = task("z", {suspend(1), run(600 * US)});
	Workload wl = workload({hog("a"), hog("b", 4), s, p, n, w, z, task("d", {run(13 * MS), sleep(7 * MS)})});
	wl.refs = {"t", "wake"};
	wl.duration = 1000 * MS;
	for (const KernelPreset& preset : kernel_presets())
		for (u32 hz : {100u, 250u, 1000u})
			for (bool nohz : {false, true}) {
				Config cfg = make_config(preset, hz);
				cfg.features.set(Feature::NO_HZ_FULL, nohz);
				cfg.knobs.tick_jitter = hz == 1000 ? 20 * US : 0;
				cfg.knobs.switch_cost = 3 * US;
				Simulation sim(cfg, wl);
				InvariantChecker check;
				sim.add_observer(&check);
				INFO("preset " << preset.name << " HZ=" << hz << " nohz_full=" << nohz);
				CHECK_NOTHROW(sim.run());
				CHECK(check.events_checked() > 1000);
			}
}

TEST_CASE("the invariant checker catches historical bugs switched back in", "[golden][check]")
{
	TaskSpec s = task("s", {run(700 * US), sleep(2300 * US)});
	TaskSpec d = task("d", {run(2 * MS), sleep(3 * MS)});
	Workload wl = workload({hog("a", -5), hog("b", 4), s, d, hog("c")});
	wl.duration = 2000 * MS;
	for (Bug bug : {Bug::AVG_VRUNTIME_TRUNC, Bug::STALE_AUGMENT, Bug::NO_LAG_INFLATION, Bug::DELAY_ZERO_KEEPS_LAG,
			Bug::ELIGIBLE_STRICT, Bug::DEADLINE_FROM_OLD}) {
		Config cfg = make_config(*find_preset("6.18.33"), 1000, 1, Bugs{}.set(bug));
		Simulation sim(cfg, wl);
		InvariantChecker check;
		sim.add_observer(&check);
		INFO("bug " << bug_info[static_cast<unsigned>(bug)].name);
		CHECK_THROWS_AS(sim.run(), InvariantViolation);
	}
}

// The clock rule: an event reported at another time than the simulation's
// now (as a wrapped clock or an observer called out of order would give)
// is a violation (issue 19).
TEST_CASE("the invariant checker catches an event off the simulation's clock", "[golden][check]")
{
	Workload wl = workload({hog("a"), hog("b")});
	wl.duration = 20 * MS;
	Simulation sim(make_config(*find_preset("6.18.33"), 1000), wl);
	InvariantChecker check;
	sim.add_observer(&check);
	sim.run_until(10 * MS);
	REQUIRE(sim.now() == 10 * MS);
	CHECK_NOTHROW(check.on_event(sim, sim.now()));
	try {
		check.on_event(sim, sim.now() - 1);
		FAIL("no violation");
	} catch (const InvariantViolation& v) {
		CHECK(v.failure.invariant == "clock");
	}
}
