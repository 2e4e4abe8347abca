// SPDX-License-Identifier: GPL-2.0-only
// A timer wake-up's resched of its own CPU waits for the interrupt's exit
// (Profile::resched_delay, resched_delay_busy; Simulation::
// defer_timer_resched()): the switch times below are worked out by hand on
// one CPU at HZ=250 (ticks at 0, 4, 8 ms), every other cost 0.
#include <catch2/catch.hpp>

#include "io/profile.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

Config with_delays(u64 idle, u64 busy)
{
	Config cfg = config("6.18", 250);
	cfg.profile.name = "resched";
	cfg.profile.resched_delay = Dist::fixed(idle);
	cfg.profile.resched_delay_busy = Dist::fixed(busy);
	return cfg;
}

// s sleeps until 3.97 ms, between ticks, then runs 100 us with a 0.1 ms
// slice: short enough that its wake-up preempts a hog (PREEMPT_SHORT).
TaskSpec sleeper() { return with_slice(task("s", {sleep(3970 * US), run(100 * US)}, 1), 100 * US); }

}  // namespace

TEST_CASE("a timer wake-up onto an idle CPU is switched in after the idle delay")
{
	const Recorder exact = simulate_checked(config("6.18", 250), workload({sleeper()}), 10 * MS);
	const Recorder r = simulate_checked(with_delays(10 * US, 3 * US), workload({sleeper()}), 10 * MS);
	CHECK(exact.switch_ins(0) == std::vector<u64>{0, 3970 * US});
	CHECK(r.switch_ins(0) == std::vector<u64>{0, 3980 * US});
}

TEST_CASE("a timer wake-up that preempts a running task is switched in after the busy delay")
{
	const Workload w = workload({sleeper(), hog("h")});
	const Recorder exact = simulate_checked(config("6.18", 250), w, 10 * MS);
	const Recorder r = simulate_checked(with_delays(10 * US, 3 * US), w, 10 * MS);
	REQUIRE(exact.switch_ins(0) == std::vector<u64>{0, 3970 * US});
	CHECK(r.switch_ins(0) == std::vector<u64>{0, 3973 * US});
	// the hog ran on through the wait and came back after s's 100 us
	CHECK(r.switch_ins(1) == std::vector<u64>{0, 4073 * US});
}

TEST_CASE("the running task's own block ends a deferred resched early")
{
	// h computes until 3.975 ms, then sleeps: that __schedule() comes
	// before s's 20 us wait is over and picks s.
	const Workload w = workload({sleeper(), task("h", {run(3975 * US), sleep(100 * MS)}, 1)});
	const Recorder r = simulate_checked(with_delays(10 * US, 20 * US), w, 10 * MS);
	CHECK(r.switch_ins(0) == std::vector<u64>{0, 3975 * US});
}

TEST_CASE("a task's start is not a timer interrupt's wake-up: it runs at once")
{
	// s's start at 1 ms comes from the model's start timer, not a sleep
	TaskSpec s = task("s", {run(100 * US)}, 1);
	s.delay = 1 * MS;
	const Recorder r = simulate_checked(with_delays(10 * US, 3 * US), workload({s}), 10 * MS);
	CHECK(r.switch_ins(0) == std::vector<u64>{1 * MS});
}

TEST_CASE("deferred rescheds keep every invariant on two CPUs under the machine's profile")
{
	// eight (1 ms run, 3 ms sleep) tasks: timer wake-ups onto idle and busy
	// CPUs, a newidle balance free to pull a task queued on a CPU whose
	// resched is still waiting
	std::vector<TaskSpec> ts;
	for (int i = 0; i < 8; i++)
		ts.push_back(task("p" + std::to_string(i), {run(1 * MS), sleep(3 * MS)}));
	Config cfg = make_config(*find_preset("6.18"), 250, 2);
	cfg.profile = find_profile("vm-6.18.44-hz250");
	REQUIRE(!cfg.profile.resched_delay.is_zero());
	for (u64 seed : {1, 2, 3}) {
		cfg.seed = seed;
		const Recorder r = simulate_checked(cfg, workload(ts), 2 * NSEC_PER_SEC);
		CHECK(r.switches.size() > 1000);
	}
}
