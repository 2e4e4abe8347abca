// SPDX-License-Identifier: GPL-2.0-only
// SampleCounts: a metric's samples in bounded memory, exact while they fit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "model/metrics.hpp"
#include "model/sample_counts.hpp"

using namespace eevdf;

namespace {

bool same(const Distribution& a, const Distribution& b)
{
	return a.count == b.count && a.min == b.min && a.max == b.max && a.sum == b.sum && a.p50 == b.p50 &&
	       a.p90 == b.p90 && a.p99 == b.p99 && a.exact == b.exact;
}

}  // namespace

TEST_CASE("below its limit a sample set gives exactly the percentiles of its values", "[metrics]")
{
	std::mt19937_64 rng(20261202);
	for (int round = 0; round < 200; round++) {
		const size_t n = 1 + rng() % 3000;
		const u64 spread = 1 + rng() % 5000;  // few or many distinct values
		std::vector<u64> v;
		SampleCounts s;
		for (size_t i = 0; i < n; i++) {
			const u64 x = 1000000 + (rng() % spread) * 997;
			v.push_back(x);
			s.add(x);
		}
		REQUIRE(s.exact());
		CHECK(same(summarize(s), summarize(v)));
		std::sort(v.begin(), v.end());
		CHECK(s.values() == v);
	}
}

TEST_CASE("past its limit a sample set stays within it and its percentiles within 2^-P below", "[metrics]")
{
	std::mt19937_64 rng(7);
	SampleCounts s(4096);
	std::vector<u64> v;
	for (int i = 0; i < 200000; i++) {
		const u64 x = 1 + rng() % (u64{1} << 40);
		v.push_back(x);
		s.add(x);
		REQUIRE(s.distinct() <= 4096);
	}
	REQUIRE_FALSE(s.exact());
	const Distribution a = summarize(s), e = summarize(v);
	// count, min, max and the sum stay exact
	CHECK(a.count == e.count);
	CHECK(a.min == e.min);
	CHECK(a.max == e.max);
	CHECK(a.sum == e.sum);
	const double rel = 1.0 / static_cast<double>(u64{1} << s.precision_bits());
	for (auto [approx, exact] : {std::pair{a.p50, e.p50}, {a.p90, e.p90}, {a.p99, e.p99}}) {
		CHECK(approx <= exact);
		CHECK(static_cast<double>(exact - approx) <= rel * static_cast<double>(exact));
	}
}

TEST_CASE("merging sample sets is adding their samples to one", "[metrics]")
{
	std::mt19937_64 rng(11);
	SampleCounts a, b, all;
	for (int i = 0; i < 5000; i++) {
		const u64 x = rng() % 100000;
		(i % 3 ? a : b).add(x);
		all.add(x);
	}
	a.merge(b);
	CHECK(a == all);
	CHECK(same(summarize(a), summarize(all)));
}

TEST_CASE("a coarsened sample set merged into an exact one coarsens it to the same buckets", "[metrics]")
{
	SampleCounts coarse(512), fine, both(512);
	for (u64 x = 1; x <= 20000; x++) {
		coarse.add(x * 1009);
		both.add(x * 1009);
	}
	for (u64 x = 1; x <= 100; x++) {
		fine.add(x * 7);
		both.add(x * 7);
	}
	REQUIRE_FALSE(coarse.exact());
	fine.merge(coarse);
	CHECK_FALSE(fine.exact());
	CHECK(fine.count() == both.count());
	CHECK(fine.sum() == both.sum());
	CHECK(fine.min() == both.min());
	CHECK(fine.max() == both.max());
}
