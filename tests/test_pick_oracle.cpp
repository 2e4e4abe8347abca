// SPDX-License-Identifier: GPL-2.0-only
// The brute-force pick (model/pick_oracle.hpp) as the checker calls it: one
// scan of the queue for both protect values.
#include <catch2/catch.hpp>

#include "model/pick_oracle.hpp"
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
