// SPDX-License-Identifier: GPL-2.0-only
// `sim --seeds N` (cli/ensemble.hpp): the interval over the seeds is the
// 2.5th..97.5th percentile of the per-seed values, linear between order
// statistics, so it is reproducible by hand from the values.
#include <catch2/catch.hpp>

#include "cli/ensemble.hpp"

using eevdf::cli::quantile_linear;

TEST_CASE("the median of an odd number of seeds is the middle value")
{
	CHECK(quantile_linear({5, 1, 3}, 0.5) == 3);
}

TEST_CASE("the median of an even number of seeds lies halfway between the middle two")
{
	CHECK(quantile_linear({4, 1, 3, 2}, 0.5) == 2.5);
}

TEST_CASE("the 95 percent interval of 21 seeds runs from half into the first gap to half into the last")
{
	std::vector<double> v;
	for (int i = 0; i <= 20; i++)
		v.push_back(i * 10.0);
	// h = q (n - 1): 0.025 * 20 = 0.5 and 0.975 * 20 = 19.5.
	CHECK(quantile_linear(v, 0.025) == Approx(5.0));
	CHECK(quantile_linear(v, 0.975) == Approx(195.0));
}

TEST_CASE("one seed is its own median and interval")
{
	CHECK(quantile_linear({7}, 0.025) == 7);
	CHECK(quantile_linear({7}, 0.975) == 7);
}
