// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: distributions (nearest-rank percentiles) and 1 ms / whole-tick
// histograms.
#pragma once

#include <cstddef>
#include <map>
#include <vector>

#include "util.hpp"

namespace probe {

struct Summary {
	size_t n = 0;
	double mean = 0;
	i64 min = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
	i64 sum = 0;
};

Summary summarize(std::vector<i64> v);
// 101 quantiles at equal steps of probability (p0.1, p1 ... p99, p99.9: the
// extremes clipped), as a profile's empirical distribution takes them.
std::vector<i64> quantiles101(std::vector<i64> v);
// 1 ms buckets: bucket k holds lengths in [k ms, k+1 ms).
std::map<i64, size_t> histogram_ms(const std::vector<i64> &v);
// Run lengths rounded to the nearest whole number of ticks.
std::map<i64, size_t> histogram_ticks(const std::vector<i64> &v, i64 tick);

}  // namespace probe
