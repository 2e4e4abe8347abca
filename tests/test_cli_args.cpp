// SPDX-License-Identifier: GPL-2.0-only
#include <catch2/catch.hpp>

#include "io/values.hpp"

using namespace eevdf;
using namespace eevdf::cli;

TEST_CASE("durations take ns, us, ms and s suffixes and decimals", "[cli]")
{
	CHECK(parse_duration("3ms", "--slice") == 3'000'000);
	CHECK(parse_duration("2.8ms", "--slice") == 2'800'000);
	CHECK(parse_duration("750us", "--slice") == 750'000);
	CHECK(parse_duration("30s", "--duration") == 30'000'000'000ULL);
	CHECK(parse_duration("1500ns", "--slice") == 1500);
	CHECK(parse_duration("0.5s", "--duration") == 500'000'000);
}

TEST_CASE("a bare number is not a duration, but for 0", "[cli]")
{
	// eevdf sim once read it as ns and eevdf-probe as ms: neither guesses now
	CHECK_THROWS_WITH(parse_duration("1500", "--slice"),
			  Catch::Contains("--slice") && Catch::Contains("'1500' has no unit") && Catch::Contains("1500us"));
	CHECK_THROWS_AS(parse_duration("2.5", "--duration"), UsageError);
	CHECK(parse_duration("0", "--tick-jitter") == 0);
	CHECK(parse_duration("0.0", "--tick-jitter") == 0);
}

TEST_CASE("a bad duration names the flag and the value", "[cli]")
{
	CHECK_THROWS_WITH(parse_duration("3 ms", "--slice"), Catch::Contains("--slice") && Catch::Contains("'3 ms'"));
	CHECK_THROWS_AS(parse_duration("ms", "--slice"), UsageError);
	CHECK_THROWS_AS(parse_duration("3h", "--slice"), UsageError);
	CHECK_THROWS_AS(parse_duration("1.0001ns", "--slice"), UsageError);
	CHECK_THROWS_AS(parse_duration("99999999999999999999", "--slice"), UsageError);
	CHECK_THROWS_AS(parse_duration("", "--slice"), UsageError);
}

TEST_CASE("feature lists switch features on and off", "[cli]")
{
	Features f;
	f.set(Feature::RUN_TO_PARITY, true);
	f = apply_feature_list(f, "+HRTICK,-RUN_TO_PARITY", "--features");
	CHECK(f[Feature::HRTICK]);
	CHECK_FALSE(f[Feature::RUN_TO_PARITY]);
	f = apply_feature_list(f, "NO_HRTICK,no_hz_full", "--features");
	CHECK_FALSE(f[Feature::HRTICK]);
	f = apply_feature_list(f, "+no_hz_full", "--features");
	CHECK(f[Feature::NO_HZ_FULL]);
}

TEST_CASE("an unknown feature is an error naming it", "[cli]")
{
	CHECK_THROWS_WITH(apply_feature_list(Features{}, "+FOO", "--features"), Catch::Contains("'FOO'"));
}
