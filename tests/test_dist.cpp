// SPDX-License-Identifier: GPL-2.0-only
// The distributions costs are drawn from (model/dist.hpp): each form has
// the moments and bounds it promises, draws are a function of the seed and
// the stream alone, and bad parameters are named.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "model/dist.hpp"

using namespace eevdf;

namespace {
std::vector<u64> draws(const Dist& d, u64 n, u64 seed = 1, u64 source = 0)
{
	Rng r = rng_stream(seed, source);
	std::vector<u64> v(n);
	for (u64& x : v)
		x = d.sample(r);
	return v;
}
double mean_of(const std::vector<u64>& v)
{
	double s = 0;
	for (u64 x : v)
		s += static_cast<double>(x);
	return s / static_cast<double>(v.size());
}
double sd_of(const std::vector<u64>& v)
{
	const double m = mean_of(v);
	double s = 0;
	for (u64 x : v)
		s += (static_cast<double>(x) - m) * (static_cast<double>(x) - m);
	return std::sqrt(s / static_cast<double>(v.size()));
}
}  // namespace

TEST_CASE("a fixed cost is its value and draws nothing from the stream")
{
	Rng r = rng_stream(7, 3);
	const Rng before = r;
	CHECK(Dist::fixed(3000).sample(r) == 3000);
	CHECK(r.state == before.state);
	CHECK(Dist::fixed(0).is_zero());
	CHECK_FALSE(Dist::fixed(1).is_zero());
}

TEST_CASE("a uniform cost covers its whole range and nothing outside it")
{
	const std::vector<u64> v = draws(Dist::uniform(10, 14), 20000);
	CHECK(*std::min_element(v.begin(), v.end()) == 10);
	CHECK(*std::max_element(v.begin(), v.end()) == 14);
	for (u64 k = 10; k <= 14; k++) {
		const auto c = std::count(v.begin(), v.end(), k);
		CHECK(c > 3600);  // 4000 expected, sd ~57
		CHECK(c < 4400);
	}
}

TEST_CASE("uniform from 0 draws as the tick jitter always has: r % (J + 1)")
{
	Rng a = rng_stream(5, 1), b = a;
	for (int i = 0; i < 100; i++)
		CHECK(Dist::uniform(0, 30000).sample(a) == b.next() % 30001);
}

TEST_CASE("a normal cost has its mean and standard deviation, within 1 percent over 10^5 draws")
{
	const std::vector<u64> v = draws(Dist::normal(765000, 40000), 100000);
	CHECK(mean_of(v) == Approx(765000).epsilon(0.001));
	CHECK(sd_of(v) == Approx(40000).epsilon(0.01));
	CHECK(*std::max_element(v.begin(), v.end()) <= Dist::normal(765000, 40000).max());
}

TEST_CASE("a normal cost near zero is clamped at zero, never wraps")
{
	const std::vector<u64> v = draws(Dist::normal(1000, 5000), 10000);
	CHECK(*std::max_element(v.begin(), v.end()) <= 1000 + 6 * 5000);
	CHECK(std::count(v.begin(), v.end(), 0u) > 3000);  // P(N < -0.2 sd) ~ 0.42
}

TEST_CASE("an empirical cost replays its quantiles: the median between the middle ones")
{
	const Dist d = Dist::empirical({100, 200, 300, 400, 10000});
	std::vector<u64> v = draws(d, 40000);
	std::sort(v.begin(), v.end());
	CHECK(v.front() >= 100);
	CHECK(v.back() <= 10000);
	CHECK(v[v.size() / 2] == Approx(300).margin(5));
	CHECK(v[v.size() / 4] == Approx(200).margin(5));
	CHECK(v[v.size() * 9 / 10] > 400);  // the top quarter spreads to 10000
	CHECK(d.mean() == (150 + 250 + 350 + 5200) / 4);
}

TEST_CASE("the same seed and stream give the same draws; another stream or seed others")
{
	const Dist d = Dist::normal(1000000, 100000);
	CHECK(draws(d, 50, 9, 2) == draws(d, 50, 9, 2));
	CHECK(draws(d, 50, 9, 2) != draws(d, 50, 9, 3));
	CHECK(draws(d, 50, 9, 2) != draws(d, 50, 10, 2));
	CHECK(rng_stream(9, 2, 0).state != rng_stream(9, 2, 1).state);
}

TEST_CASE("bad parameters are named")
{
	CHECK(Dist::uniform(5, 4).invalid().find("least 5 is above the greatest 4") != std::string::npos);
	CHECK(Dist::empirical({1}).invalid().find("at least two") != std::string::npos);
	CHECK(Dist::empirical({1, 3, 2}).invalid().find("quantile 2 (2) is below") != std::string::npos);
	CHECK(Dist::normal(MAX_TIME_NS, 1).invalid() != "");
	CHECK(Dist::normal(1000, 100).invalid() == "");
}

TEST_CASE("a multiplier in ppm scales without wrapping")
{
	CHECK(scale_ppm(1000, PPM_ONE) == 1000);
	CHECK(scale_ppm(1000, 1500000) == 1500);
	CHECK(scale_ppm(MAX_TIME_NS, 2 * PPM_ONE) == 2 * MAX_TIME_NS);
}
