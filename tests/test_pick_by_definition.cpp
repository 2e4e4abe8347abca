// SPDX-License-Identifier: GPL-2.0-only
// The pick by the definition (model/pick_by_definition.hpp): one scan of the
// queue gives it for both protect values, and compare_picks(), the one
// comparison of the tree pick with it, names both picks when they differ.
#include <catch2/catch.hpp>

#include <optional>

#include "model/pick_by_definition.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

TEST_CASE("one scan gives the brute-force pick of both protect values", "[oracle]")
{
	Workload wl = mixed_pick_workload();
	wl.duration = 1000 * MS;
	u64 protect_mattered = 0;
	for (const KernelPreset& preset : kernel_presets()) {
		Simulation sim(make_config(preset, 250), wl);
		Recorder r;
		u64 compared = 0, mismatches = 0;
		r.each_event = [&](const Simulation& s2, u64) {
			const CfsRq& cfs = s2.cfs_rq();
			const BruteForcePicks both = pick_eevdf_bruteforce_both(cfs, exact_v(cfs));
			compared++;
			if (both.protect != pick_eevdf_bruteforce(cfs, true) || both.no_protect != pick_eevdf_bruteforce(cfs, false))
				mismatches++;
			protect_mattered += both.protect != both.no_protect;
		};
		sim.add_observer(&r);
		sim.run();
		INFO("preset " << preset.name);
		CHECK(compared > 1000);
		CHECK(mismatches == 0);
	}
	// The two values differ somewhere, so a mix-up of the two would show.
	CHECK(protect_mattered > 0);
}

// b01db23d5923 undone: the heap search returns an eligible entity that need
// not have the earliest deadline. The first pick where that shows is
// reported with the tree's entity, the definition's, and the protect value.
TEST_CASE("a tree pick other than the pick by the definition is named with both picks", "[oracle]")
{
	Workload wl = mixed_pick_workload();
	wl.duration = 1000 * MS;
	Config cfg = config("6.18", 250);
	cfg.bugs.set(Bug::PICK_FIRST_ELIGIBLE);
	Simulation sim(cfg, wl);
	Recorder r;
	std::optional<PickComparison> first;
	std::string verdict;
	s64 deadline_gap = 0;  // the tree pick's deadline minus the definition's
	r.each_event = [&](const Simulation& s2, u64) {
		if (first)
			return;
		const CfsRq& cfs = s2.cfs_rq();
		for (const PickComparison& pick : compare_picks(cfs, exact_v(cfs)))
			if (!pick.agree && !first) {
				first = pick;
				verdict = tree_pick_difference(cfs);
				deadline_gap = wrapped_diff(pick.tree->deadline, pick.by_definition->deadline);
			}
	};
	sim.add_observer(&r);
	sim.run();
	REQUIRE(first);
	REQUIRE(first->tree);
	REQUIRE(first->by_definition);
	CHECK(deadline_gap > 0);
	CHECK(first->describe() == std::string("__pick_eevdf(protect=") + (first->protect ? "true" : "false") +
					   ") = task " + std::to_string(first->tree->id) + ", brute force = task " +
					   std::to_string(first->by_definition->id));
	CHECK(verdict == first->describe());
}
