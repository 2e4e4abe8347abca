// SPDX-License-Identifier: GPL-2.0-only
// schbench's wakeup-latency block (masoncl/schbench, show_latencies()):
// percentiles 50, 90, 99 (starred) and 99.9 in whole microseconds, each with
// the number of samples above the previous percentile and up to it, then
// min and max. Percentiles are nearest-rank over all tasks' wakeups.
#include <algorithm>
#include <cstdio>

#include "report/outputs.hpp"

namespace eevdf::cli {

std::string format_schbench(const SampleCounts& latency_ns, u64 runtime_ns)
{
	const SampleCounts& v = latency_ns;
	char b[160];
	std::snprintf(b, sizeof b, "Wakeup Latencies percentiles (usec) runtime %llu (s) (%zu total samples)\n",
		      static_cast<unsigned long long>(runtime_ns / 1000000000ULL), static_cast<size_t>(v.count()));
	std::string out = b;
	if (v.empty())
		return out + "\t  (no wakeups)\n";
	const struct { unsigned tenths; bool star; } pcts[] = {{500, false}, {900, false}, {990, true}, {999, false}};
	size_t prev = 0;
	for (const auto& p : pcts) {
		// nearest rank: the smallest index with at least p% at or below it
		size_t rank = (static_cast<size_t>(p.tenths) * static_cast<size_t>(v.count()) + 999) / 1000;
		rank = std::max<size_t>(rank, 1);
		const size_t upto = rank > prev ? rank : prev;
		std::snprintf(b, sizeof b, "\t%s%2u.%uth: %-10llu (%zu samples)\n", p.star ? "* " : "  ", p.tenths / 10,
			      p.tenths % 10, static_cast<unsigned long long>(v.at_rank(rank) / 1000), upto - prev);
		out += b;
		prev = upto;
	}
	std::snprintf(b, sizeof b, "\t  min=%llu, max=%llu\n", static_cast<unsigned long long>(v.min() / 1000),
		      static_cast<unsigned long long>(v.max() / 1000));
	return out + b;
}

}  // namespace eevdf::cli
