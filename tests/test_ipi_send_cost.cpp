// SPDX-License-Identifier: GPL-2.0-only
// A wake-up that sends an IPI costs its waker the profile's ipi_send_cost
// (Simulation::charge_ipi_send()). Worked out by hand on two CPUs at
// HZ=250, every other cost 0 (IPIs arrive at once): a runs 1 ms on CPU 0,
// posts b's futex word and waits on its own; b waits on CPU 1, runs 100 us
// when woken, posts a's word and waits again.
#include <catch2/catch.hpp>

#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

Config two_cpus(u64 send_cost)
{
	Config cfg = make_config(*find_preset("6.18"), 250, 2);
	if (send_cost) {
		cfg.profile.name = "ipi-send";
		cfg.profile.ipi_send_cost = Dist::fixed(send_cost);
	}
	return cfg;
}

Workload pair(u32 cpu_a, u32 cpu_b)
{
	Workload wl = workload({pinned(task("a", {run(1 * MS), futex_post(1), futex_wait(0)}), {cpu_a}),
				pinned(task("b", {futex_wait(1), run(100 * US), futex_post(0)}), {cpu_b})});
	wl.refs = {"word-a", "word-b"};
	return wl;
}

}  // namespace

TEST_CASE("a wake-up onto another CPU costs the waker the IPI's send")
{
	const Recorder exact = simulate_checked(two_cpus(0), pair(0, 1), 1500 * US);
	const Recorder r = simulate_checked(two_cpus(20 * US), pair(0, 1), 1500 * US);
	// exact: a blocks right after its post at 1 ms; b runs 1.0 .. 1.1 ms
	REQUIRE(exact.switch_outs(0) == std::vector<u64>{1000 * US});
	REQUIRE(exact.switch_ins(1) == std::vector<u64>{0, 1000 * US});
	// the send keeps a on CPU 0 20 us longer; b's wake-up is not later
	CHECK(r.switch_outs(0) == std::vector<u64>{1020 * US});
	CHECK(r.switch_ins(1) == std::vector<u64>{0, 1000 * US});
	// b's post at 1.1 ms sends one to the idle CPU 0 in turn: a is back at
	// 1.1 ms, b blocks 20 us later
	CHECK(r.switch_ins(0) == std::vector<u64>{0, 1100 * US});
	CHECK(r.switch_outs(1) == std::vector<u64>{0, 1120 * US});
}

TEST_CASE("a wake-up on the waker's own CPU sends no IPI and costs nothing more")
{
	const Recorder exact = simulate_checked(two_cpus(0), pair(0, 0), 1500 * US);
	const Recorder r = simulate_checked(two_cpus(20 * US), pair(0, 0), 1500 * US);
	CHECK(r.switches == exact.switches);
}
