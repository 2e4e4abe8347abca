// SPDX-License-Identifier: GPL-2.0-only
#include "stats.hpp"

#include <algorithm>
#include <cmath>

namespace probe {

std::vector<i64> quantiles101(std::vector<i64> v)
{
	std::vector<i64> q;
	if (v.empty())
		return q;
	std::sort(v.begin(), v.end());
	for (int i = 0; i <= 100; i++) {
		const double p = std::clamp(i / 100.0, 0.001, 0.999);
		q.push_back(v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))]);
	}
	return q;
}

Summary summarize(std::vector<i64> v)
{
	Summary s;
	if (v.empty())
		return s;
	std::sort(v.begin(), v.end());
	s.n = v.size();
	for (i64 x : v)
		s.sum += x;
	s.mean = double(s.sum) / double(s.n);
	auto pct = [&](double p) {
		size_t rank = size_t(std::ceil(p / 100.0 * double(s.n)));
		if (rank < 1)
			rank = 1;
		return v[rank - 1];
	};
	s.min = v.front();
	s.p50 = pct(50);
	s.p90 = pct(90);
	s.p99 = pct(99);
	s.max = v.back();
	return s;
}

std::map<i64, size_t> histogram_ms(const std::vector<i64> &v)
{
	std::map<i64, size_t> h;
	for (i64 x : v)
		++h[x / kMs];
	return h;
}

std::map<i64, size_t> histogram_ticks(const std::vector<i64> &v, i64 tick)
{
	std::map<i64, size_t> h;
	for (i64 x : v)
		++h[(x + tick / 2) / tick];
	return h;
}

}  // namespace probe
