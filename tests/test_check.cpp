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
