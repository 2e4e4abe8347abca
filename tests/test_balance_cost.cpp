// SPDX-License-Identifier: GPL-2.0-only
// What a newidle balance pass costs when nothing says (Knobs::balance_cost,
// DEFAULT_BALANCE_COST): never 0, as sched_balance_newidle()'s domain_cost
// (a sched_clock_cpu() delta) is never 0 in the kernel; `--balance-cost 0`
// still means a free pass, and a profile's balance_cost draw takes the
// default's place.
#include <catch2/catch.hpp>

#include "balance_helpers.hpp"
#include "io/model_options.hpp"

using namespace eevdf;
using namespace eevdf::test;
using namespace eevdf::test::balance_cases;

// As in test_balance_newidle.cpp: P (pinned to CPU 1) runs 0.2 ms and
// sleeps, CPU 0 holds two hogs pinned there, so the first newidle pass of
// CPU 1, at 0.2 ms, finds nothing to pull. Its cost is all the domain has
// recorded: max_newidle_lb_cost = 2 us (6.18.33: no bump on failure).
TEST_CASE("a newidle balance pass costs 2 us of sched_clock by default", "[balance]")
{
	TaskSpec p = pinned(task("P", {run(200 * US), sleep(300 * US)}), {1});
	Workload wl = workload({p, pinned(hog("a"), {0}), pinned(hog("b"), {0})});
	wl.duration = 10 * MS;
	const Config cfg = smp(1000, 2);
	REQUIRE(cfg.knobs.balance_cost == DEFAULT_BALANCE_COST);
	Simulation sim(cfg, wl);
	sim.run_until(300 * US);
	CHECK(sim.balance_state().cpu[1].lb_count[CPU_NEWLY_IDLE] == 1);
	CHECK(sim.topology().sd(1)->max_newidle_lb_cost == 2 * US);
}

TEST_CASE("a balance cost of 0 (--balance-cost 0) makes a newidle balance pass free", "[balance]")
{
	cli::ModelOptions o;
	o.cpus = 2;
	CHECK(cli::build_config(o).knobs.balance_cost == 2 * US);
	o.balance_cost = "0";
	CHECK(cli::build_config(o).knobs.balance_cost == 0);
	o.balance_cost = "5us";
	CHECK(cli::build_config(o).knobs.balance_cost == 5 * US);
}

TEST_CASE("a profile's balance_cost takes the place of the default cost", "[balance]")
{
	cli::ModelOptions o;
	o.cpus = 2;
	o.profile = "vm-6.18.44-hz250";
	const Config cfg = cli::build_config(o);
	REQUIRE_FALSE(cfg.profile.balance_cost.is_zero());
	CHECK(cfg.knobs.balance_cost == 0);  // the profile's 2 us draw is the cost, not 2 + 2
	CHECK(command_line_flags(cfg).find("--balance-cost") == std::string::npos);
	o.balance_cost = "1us";  // an explicit knob still adds to the draw
	CHECK(cli::build_config(o).knobs.balance_cost == 1 * US);
}
