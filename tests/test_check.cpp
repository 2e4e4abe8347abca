// SPDX-License-Identifier: GPL-2.0-only
// The invariant checker's own contract: the names it reports are the ones
// it lists (INVARIANT_NAMES, which `eevdf sim --check` counts), and it
// counts the events it checked.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "model/check.hpp"
#include "model/simulation.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;

TEST_CASE("every invariant name check.cpp reports is listed in INVARIANT_NAMES, and no other")
{
	std::ifstream in(std::string(EEVDF_TEST_DATA) + "/../../model/check.cpp");
	REQUIRE(in);
	std::stringstream ss;
	ss << in.rdbuf();
	const std::string src = ss.str();
	const std::regex call(R"re(fail\(sim, [a-z_]+, "([A-Za-z_ -]+)")re");
	std::set<std::string> used;
	for (auto it = std::sregex_iterator(src.begin(), src.end(), call); it != std::sregex_iterator(); ++it)
		used.insert((*it)[1].str());
	// every fail() call site names its invariant as a literal, so the scan sees them all
	const std::regex any_call(R"(\bfail\(sim,)");
	const auto calls = std::distance(std::sregex_iterator(src.begin(), src.end(), any_call), std::sregex_iterator());
	const auto literal_calls = std::distance(std::sregex_iterator(src.begin(), src.end(), call), std::sregex_iterator());
	CHECK(calls == literal_calls);
	const std::set<std::string> listed(INVARIANT_NAMES.begin(), INVARIANT_NAMES.end());
	CHECK(used == listed);
	CHECK(listed.size() == INVARIANT_NAMES.size());
}

TEST_CASE("the checker counts every event it checked")
{
	Workload wl = test::workload({test::hog("a"), test::hog("b")});
	wl.duration = 20 * NSEC_PER_MSEC;
	Simulation sim(test::config("6.18", 1000), wl);
	InvariantChecker checker;
	sim.add_observer(&checker);
	sim.run();
	CHECK(checker.events_checked() == sim.events());
	CHECK(checker.events_checked() > 0);
}

namespace {
// Two hogs on CPU 0, CPU 1 idle with its tick stopped: no event of the run
// touches CPU 1's rq.
struct TwoHogsOnCpu0 {
	Workload wl = test::workload({test::pinned(test::hog("a"), {0}), test::pinned(test::hog("b"), {0})});
	Config cfg = make_config(*find_preset("6.18"), 1000, 2);
	TwoHogsOnCpu0() { wl.duration = 50 * test::MS; }
};

// Writes into a run queue from outside the model, as a model bug that
// bypasses the event loop would, at the first event from `at` on.
struct CorruptIdleRq : Observer {
	u64 at, event = 0, corrupted_at = 0;
	explicit CorruptIdleRq(u64 at) : at(at) {}
	void on_event(const Simulation& sim, u64 t) override
	{
		event++;
		if (t >= at && !corrupted_at) {
			const_cast<CfsRq&>(sim.cfs_rq(1)).avg_load = 1;
			corrupted_at = event;
		}
	}
};
}  // namespace

TEST_CASE("the checker skips a run queue whose bytes did not change since its last check")
{
	const TwoHogsOnCpu0 run;
	Simulation sim(run.cfg, run.wl);
	InvariantChecker checker;
	sim.add_observer(&checker);
	sim.run();
	// checking both rqs at every event would be 2 * events; CPU 1 stays as
	// it was at its first check
	CHECK(checker.events_checked() > 10);
	CHECK(checker.rq_checks() <= checker.events_checked() + 1);
}

TEST_CASE("the checker re-checks a run queue changed behind the event loop's back, at that event")
{
	const TwoHogsOnCpu0 run;
	Simulation sim(run.cfg, run.wl);
	CorruptIdleRq corrupt(20 * test::MS);
	InvariantChecker checker;
	sim.add_observer(&corrupt);  // before the checker: it sees the damage in the same event
	sim.add_observer(&checker);
	try {
		sim.run();
		FAIL("the corrupted avg_load of the idle CPU went unseen");
	} catch (const InvariantViolation& v) {
		CHECK(v.failure.invariant == "sums");
		CHECK(v.failure.detail.find("avg_load 1") != std::string::npos);
		CHECK(v.failure.event == corrupt.corrupted_at);
	}
}
