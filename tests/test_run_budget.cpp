// SPDX-License-Identifier: GPL-2.0-only
// run_bounded() (report/run_budget.hpp): every command's run stops at
// MAX_RUN_EVENTS events and says how far it got; a run within the budget
// is the run itself.
#include <catch2/catch.hpp>

#include "report/run_budget.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;
using Catch::Contains;

namespace {

// A sleeper that wakes every 10 us beside a hog: many events a tick.
Workload wakeful()
{
	Workload wl = workload({hog("h"), task("s", {run(5 * US), sleep(10 * US)})});
	wl.duration = 100 * MS;
	return wl;
}

Config two_cpus() { return make_config(*find_preset("6.18"), 1000, 2); }

}  // namespace

TEST_CASE("a run within the event budget ends where the unbounded run ends")
{
	Simulation whole(two_cpus(), wakeful());
	whole.run();
	Simulation bounded(two_cpus(), wakeful());
	REQUIRE_NOTHROW(run_bounded(bounded, whole.events()));  // exactly the budget
	CHECK(bounded.events() == whole.events());
	CHECK(bounded.now() == whole.now());
	CHECK(bounded.finished());
}

TEST_CASE("a run past the event budget is refused, saying how far it got and what to lower")
{
	Simulation whole(two_cpus(), wakeful());
	whole.run();
	Simulation bounded(two_cpus(), wakeful());
	try {
		run_bounded(bounded, whole.events() / 2);
		FAIL("no refusal");
	} catch (const WorkloadError& e) {
		CHECK_THAT(e.what(),
			   Contains("reached the limit of " + std::to_string(whole.events() / 2) + " events") &&
				   Contains("of its 0.100 s") && Contains("--duration"));
	}
	CHECK(bounded.events() == whole.events() / 2 + 1);  // the one past the budget
}

TEST_CASE("a warm-up under the budget leaves the rest of the budget to the run")
{
	Simulation whole(two_cpus(), wakeful());
	whole.run();
	Simulation bounded(two_cpus(), wakeful());
	REQUIRE_NOTHROW(run_bounded_until(bounded, 50 * MS, whole.events()));
	CHECK(bounded.now() == 50 * MS);
	CHECK_THROWS_AS(run_bounded(bounded, bounded.events() + 10), WorkloadError);
}
