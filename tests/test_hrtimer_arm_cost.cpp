// SPDX-License-Identifier: GPL-2.0-only
// A sleep spends the profile's hrtimer_arm_cost on its CPU before it blocks
// (Simulation::start_timer_arm()). Worked out by hand on one CPU at HZ=250,
// every other cost 0: a runs 1 ms, then sleeps 3 ms, and again.
#include <catch2/catch.hpp>

#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

Config with_arm_cost(u64 ns)
{
	Config cfg = config("6.18", 250);
	if (ns) {
		cfg.profile.name = "hrtimer-arm";
		cfg.profile.hrtimer_arm_cost = Dist::fixed(ns);
	}
	return cfg;
}

}  // namespace

TEST_CASE("a sleep arms its hrtimer on the CPU before the task blocks")
{
	const Workload w = workload({task("a", {run(1 * MS), sleep(3 * MS)})});
	const Recorder exact = simulate_checked(with_arm_cost(0), w, 6 * MS);
	const Recorder r = simulate_checked(with_arm_cost(5 * US), w, 6 * MS);
	REQUIRE(exact.switch_outs(0) == std::vector<u64>{1000 * US, 5000 * US});
	REQUIRE(exact.switch_ins(0) == std::vector<u64>{0, 4000 * US});
	// a blocks 5 us after its run; its 3 ms count from there (the model's
	// simplification: the kernel's expiry counts from just before the arming)
	CHECK(r.switch_outs(0) == std::vector<u64>{1005 * US, 5010 * US});
	CHECK(r.switch_ins(0) == std::vector<u64>{0, 4005 * US});
}

TEST_CASE("a futex wait arms no timer and costs nothing more")
{
	Workload w = workload({task("a", {run(1 * MS), futex_post(1), futex_wait(0)}),
			       task("b", {futex_wait(1), run(100 * US), futex_post(0)})});
	w.refs = {"word-a", "word-b"};
	const Recorder exact = simulate_checked(with_arm_cost(0), w, 3 * MS);
	const Recorder r = simulate_checked(with_arm_cost(5 * US), w, 3 * MS);
	CHECK(r.switches == exact.switches);
}
