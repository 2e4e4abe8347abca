// SPDX-License-Identifier: GPL-2.0-only
// A quantile of per-seed values, linear between the order statistics
// (Hyndman-Fan type 7, as numpy's default): the one definition behind every
// "median [2.5..97.5 %]" over seeds, for the CLI's ensembles and the claims
// judged against an interval alike.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace eevdf {

// `q` (0..1) of `v`; 0 for no values.
inline double quantile_linear(std::vector<double> v, double q)
{
	if (v.empty())
		return 0;
	std::sort(v.begin(), v.end());
	const double h = q * static_cast<double>(v.size() - 1);
	const std::size_t i = static_cast<std::size_t>(h);
	if (i + 1 >= v.size())
		return v.back();
	return v[i] + (h - static_cast<double>(i)) * (v[i + 1] - v[i]);
}

}  // namespace eevdf
