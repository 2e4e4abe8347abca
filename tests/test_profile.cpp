// SPDX-License-Identifier: GPL-2.0-only
// Machine profiles (model/profile.hpp, io/profile.hpp, docs/profiles.md):
// where each cost is charged, worked out by hand; the same seed gives the
// same schedule; the exact profile is the model before profiles; and the
// profile file is read strictly.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "io/input_error.hpp"
#include "io/profile.hpp"
#include "io/rtapp.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {


// The times task `id` was woken.
std::vector<u64> wakeups_of(const Recorder& r, int id)
{
	std::vector<u64> v;
	for (const auto& [t, task] : r.wakeups)
		if (task == id)
			v.push_back(t);
	return v;
}

// A sleeper due at 3.97 ms beside a hog, so the CPU's tick (every 4 ms at
// HZ=250) is running when the sleep's hrtimer comes due.
Workload sleeper_beside_a_hog()
{
	return workload({task("s", {sleep(3970 * US), run(100 * US)}, 1), hog("h")});
}

Config with_profile(Profile p, u64 seed = 0)
{
	Config cfg = config("6.18", 250);
	cfg.profile = std::move(p);
	cfg.seed = seed;
	return cfg;
}

Profile named(std::string name)
{
	Profile p;
	p.name = std::move(name);
	return p;
}

}  // namespace

TEST_CASE("a sleep with no slack wakes at its expiry")
{
	const Recorder r = simulate(config("6.18", 250), sleeper_beside_a_hog(), 10 * MS);
	CHECK(wakeups_of(r, 0) == std::vector<u64>{0, 3970 * US});  // its start, its timer
}

TEST_CASE("a range timer fires at its CPU's tick when the tick falls inside the slack window")
{
	Profile p = named("slack50");
	p.timer_slack = 50 * US;  // window [3.97 ms, 4.02 ms] holds the tick at 4 ms
	const Recorder r = simulate(with_profile(p), sleeper_beside_a_hog(), 10 * MS);
	CHECK(wakeups_of(r, 0) == std::vector<u64>{0, 4 * MS});
}

TEST_CASE("a range timer with no tick in its window fires at its hard expiry, late by the idle delay on an idle CPU")
{
	Profile p = named("idle-busy");
	p.timer_slack = 20 * US;  // window [3.97 ms, 3.99 ms]: no tick
	p.timer_delay = Dist::fixed(40 * US);
	p.timer_delay_busy = Dist::fixed(7 * US);
	// alone: its CPU idles while it sleeps, and no tick runs there (NO_HZ_IDLE)
	const Recorder r = simulate(with_profile(p), workload({task("s", {sleep(3970 * US), run(100 * US)}, 1)}), 10 * MS);
	CHECK(wakeups_of(r, 0) == std::vector<u64>{0, 3990 * US + 40 * US});
}

TEST_CASE("a range timer with no tick in its window fires late by the busy delay on a CPU that runs a task")
{
	Profile p = named("idle-busy");
	p.timer_slack = 20 * US;
	p.timer_delay = Dist::fixed(40 * US);
	p.timer_delay_busy = Dist::fixed(7 * US);
	const Recorder r = simulate(with_profile(p), sleeper_beside_a_hog(), 10 * MS);
	CHECK(wakeups_of(r, 0) == std::vector<u64>{0, 3990 * US + 7 * US});
}

TEST_CASE("a profile file without a busy timer delay delivers to busy CPUs as to idle ones")
{
	const Profile p = parse_profile(R"({"eevdf_profile": 1, "name": "old", "timer_delay": "9us"})", "old.json");
	CHECK(p.timer_delay_busy == Dist::fixed(9 * US));
}

TEST_CASE("a burst is scaled by the run's and the burst's multipliers")
{
	// Alone on its CPU: run 1 ms, sleep 1 ms. At x2 each run takes 2 ms.
	const Workload w = workload({task("t", {run(1 * MS), sleep(1 * MS)})});
	Profile p = named("slow");
	p.burst_scale = Dist::fixed(2 * PPM_ONE);
	CHECK(simulate(with_profile(p), w, 9 * MS).switch_outs(0) == std::vector<u64>{2 * MS, 5 * MS, 8 * MS});
	p.run_scale = Dist::fixed(PPM_ONE / 2);  // x2 x0.5 = x1
	CHECK(simulate(with_profile(p), w, 9 * MS).switch_outs(0) == std::vector<u64>{1 * MS, 3 * MS, 5 * MS, 7 * MS});
}

TEST_CASE("a wake-up's CPU time is charged to the task that wakes")
{
	// The barrier test's rounds (test_barrier.cpp): t1 arrives last at 3 ms
	// and wakes t0 and t2; at 50 us per wake-up it sleeps 100 us later.
	const Workload w = parse_rtapp(R"({"tasks": {
		"t0": {"loop": -1, "run": 1000, "barrier": "b", "sleep": 5000},
		"t1": {"loop": -1, "run": 3000, "barrier": "b", "sleep": 5000},
		"t2": {"loop": -1, "run": 2000, "barrier": "b", "sleep": 5000}}})",
				       "barrier.json");
	Config cfg = make_config(*find_preset("6.18"), 1000, 3);
	cfg.profile = named("wake50");
	cfg.profile.futex_wake_cost = Dist::fixed(50 * US);
	const Recorder r = simulate(cfg, w, 5 * MS);
	CHECK(r.switch_outs(1) == std::vector<u64>{3100 * US});
	CHECK(wakeups_of(r, 0) == std::vector<u64>{0, 3 * MS});  // its start, the broadcast
	CHECK(wakeups_of(r, 2) == std::vector<u64>{0, 3 * MS});
}

TEST_CASE("a profile's switch cost adds to the switch-cost knob")
{
	// Two tasks that each run 1 ms and sleep 3 ms: every switch-in's own
	// code starts switch_cost later, so each run ends that much later.
	const Workload w = workload({task("a", {run(1 * MS), sleep(3 * MS)}), task("b", {run(1 * MS), sleep(3 * MS)})});
	Config cfg = config("6.18", 250);
	cfg.knobs.switch_cost = 2 * US;
	cfg.profile = named("switch3");
	cfg.profile.switch_cost = Dist::fixed(3 * US);
	const Recorder r = simulate(cfg, w, 3 * MS);
	CHECK(r.switch_outs(0) == std::vector<u64>{1 * MS + 5 * US});
	CHECK(r.switch_outs(1) == std::vector<u64>{2 * MS + 10 * US});
}

TEST_CASE("the same profile and seed give the same schedule, another seed another")
{
	Profile p = named("noisy");
	p.switch_cost = Dist::normal(5 * US, 2 * US);
	p.burst_scale = Dist::uniform(PPM_ONE * 9 / 10, PPM_ONE * 11 / 10);
	p.timer_slack = 50 * US;
	p.timer_delay = Dist::uniform(0, 30 * US);
	const Workload w = mixed_pick_workload();
	const auto run = [&](u64 seed) { return simulate(with_profile(p, seed), w, 200 * MS).switches; };
	CHECK(run(7) == run(7));
	CHECK(run(7) != run(8));
}

TEST_CASE("a profile whose every cost is zero schedules exactly as the exact model")
{
	const Workload w = mixed_pick_workload();
	CHECK(simulate(with_profile(named("zeros"), 5), w, 200 * MS).switches ==
	      simulate(config("6.18", 250), w, 200 * MS).switches);
	CHECK(exact_profile().exact());
}

TEST_CASE("a profile whose tick jitter can reach a whole tick is refused")
{
	Profile p = named("jumpy");
	p.tick_jitter = Dist::uniform(0, 4 * MS);
	Workload w = workload({hog("h")});
	w.duration = MS;
	CHECK_THROWS_AS(Simulation(with_profile(p), w), WorkloadError);
}

// ---- the profile file

TEST_CASE("a profile written as JSON reads back to the same profile")
{
	Profile p = named("round-trip");
	p.measured = {"6.18.44", 250, 2, "2026-12-05", "eevdf calibrate", 1200};
	p.timer_slack = 50 * US;
	p.switch_cost = Dist::fixed(3 * US);
	p.tick_jitter = Dist::uniform(0, 20 * US);
	p.ipi_latency = Dist::normal(12 * US, 4 * US);
	p.timer_delay = Dist::empirical({2 * US, 5 * US, 9 * US, 40 * US});
	p.timer_delay_busy = Dist::uniform(1 * US, 9 * US);
	p.burst_scale = Dist::normal(PPM_ONE, 80000);
	p.run_scale = Dist::uniform(950000, 1050001);
	CHECK(parse_profile(profile_json(p), "p.json") == p);
}

TEST_CASE("a multiplier is read exactly to the ppm")
{
	const Profile p = parse_profile(R"({"eevdf_profile": 1, "name": "m", "burst_scale": 1.000125,
		"run_scale": {"uniform": [0.5, 2]}})", "m.json");
	CHECK(p.burst_scale == Dist::fixed(1000125));
	CHECK(p.run_scale == Dist::uniform(500000, 2 * PPM_ONE));
}

TEST_CASE("a bad profile names the file, line, column and key")
{
	const auto error = [](const std::string& text) {
		try {
			parse_profile(text, "bad.json");
		} catch (const InputError& e) {
			return std::string(e.what());
		}
		return std::string("accepted");
	};
	CHECK(error(R"({"eevdf_profile": 1, "name": "x", "switch_cots": "3us"})") ==
	      "bad.json:1:50: switch_cots: unknown key (known: eevdf_profile, name, measured, timer_slack, switch_cost, "
	      "tick_jitter, ipi_latency, idle_exit_latency, wakeup_irq_cost, balance_cost, timer_delay, "
	      "timer_delay_busy, resched_delay, resched_delay_busy, futex_wake_cost, ipi_send_cost, hrtimer_arm_cost, "
	      "burst_scale, run_scale)");
	CHECK(error(R"({"eevdf_profile": 1, "name": "x", "timer_slack": "1us", "timer_slack": "2us"})")
		      .find("bad.json:1:72: timer_slack: given twice") == 0);
	CHECK(error(R"({"eevdf_profile": 1, "name": "x", "burst_scale": 1001})").find("burst_scale: the multiplier 1001 is above x1000") !=
	      std::string::npos);
	CHECK(error(R"({"eevdf_profile": 1, "name": "x", "burst_scale": 1e3})").find("plain non-negative decimal") !=
	      std::string::npos);
	CHECK(error(R"({"eevdf_profile": 1, "name": "x", "timer_delay": {"empirical": ["5us", "2us"]}})")
		      .find("timer_delay.empirical") != std::string::npos);
	CHECK(error(R"({"eevdf_profile": 1, "name": "x", "ipi_latency": {"gamma": "1us"}})").find("unknown form") !=
	      std::string::npos);
	CHECK(error(R"({"eevdf_profile": 1, "name": "x", "switch_cost": 3})").find("expected a duration string") !=
	      std::string::npos);
	CHECK(error(R"({"name": "x"})").find("eevdf_profile: missing") != std::string::npos);
	CHECK(error(R"({"eevdf_profile": 2, "name": "x"})").find("format 1") != std::string::npos);
	CHECK(error(R"({"eevdf_profile": 1, "name": "X Y"})").find("name: expected 1 to 64") != std::string::npos);
}

TEST_CASE("a profile name that is neither built in nor a path is refused with the built-in names")
{
	try {
		find_profile("nosuch");
		FAIL("accepted");
	} catch (const InputError& e) {
		CHECK(std::string(e.what()).find("--profile: no built-in profile 'nosuch' (built in: exact") == 0);
	}
}

TEST_CASE("every built-in profile reads, says where it was measured and varies some cost")
{
	const std::vector<std::string> names = builtin_profile_names();
	REQUIRE(names.front() == "exact");
	REQUIRE(names.size() >= 2);
	for (size_t i = 1; i < names.size(); i++) {
		const Profile p = find_profile(names[i]);
		INFO(names[i]);
		CHECK(p.name == names[i]);
		CHECK_FALSE(p.exact());
		CHECK_FALSE(p.measured.kernel.empty());
		CHECK(p.measured.hz > 0);
		CHECK(p.measured.cpus > 0);
	}
}
