// SPDX-License-Identifier: GPL-2.0-only
// The samples of one metric (a task's run lengths, its wake-up latencies)
// in bounded memory, exact as long as that bound allows.
//
// Samples are kept as (value, count) pairs. Run lengths and latencies
// repeat (a hog's runs are whole ticks), so the pairs stay few and every
// statistic is exact: count, min, max and sum always, nearest-rank
// percentiles and the per-tick histogram while no more than `limit`
// distinct values were seen. Past that the values are coarsened to
// log-linear buckets: a value v >= 2^(P+1) is kept as v with all but its
// P + 1 leading bits cleared (so within a relative 2^-P below v), with the
// largest P whose buckets over the 64-bit range, about 64 * 2^P, fit in
// limit / 2. The pairs then never exceed the limit again, whatever the
// number of samples, and `exact()` says that percentiles are bucket lower
// bounds from then on. (Not the kernel's: the simulator's own bookkeeping.)
#pragma once

#include <cstddef>
#include <map>
#include <vector>

#include "model/types.hpp"

namespace eevdf {

class SampleCounts {
public:
	static constexpr std::size_t DEFAULT_LIMIT = std::size_t{1} << 17;
	static constexpr std::size_t MAX_LIMIT = std::size_t{1} << 31;

	explicit SampleCounts(std::size_t limit = DEFAULT_LIMIT)
		: limit_(static_cast<u32>(limit < 256 ? 256 : limit > MAX_LIMIT ? MAX_LIMIT : limit))
	{
	}

	void add(u64 v, u64 n = 1);
	void merge(const SampleCounts& o);

	u64 count() const { return count_; }
	u64 min() const { return min_; }
	u64 max() const { return max_; }
	u64 sum() const { return sum_; }  // exact, as a u64 (wraps only past 2^64 ns in all)
	bool empty() const { return count_ == 0; }
	// True while every value is kept as it was.
	bool exact() const { return precision_ == EXACT; }
	// The relative precision of the buckets once coarsened: 2^-precision_bits().
	unsigned precision_bits() const { return precision_; }
	std::size_t distinct() const { return counts_.size(); }

	// Each kept value (a bucket's lower bound once coarsened) with its
	// count, in ascending order.
	const std::map<u64, u64>& counts() const { return counts_; }
	// The kept value at 1-based rank `rank` of the ascending samples (rank
	// clamped to 1..count; 0 when empty): a nearest-rank percentile.
	u64 at_rank(u64 rank) const;
	// Every sample, expanded, in ascending order (for tests and figures).
	std::vector<u64> values() const;

	bool operator==(const SampleCounts& o) const
	{
		return counts_ == o.counts_ && count_ == o.count_ && sum_ == o.sum_ && precision_ == o.precision_;
	}

private:
	static constexpr unsigned char EXACT = 64;
	u64 bucket(u64 v) const;
	void set_precision(unsigned p);
	void coarsen();

	std::map<u64, u64> counts_;
	u64 count_ = 0, min_ = 0, max_ = 0, sum_ = 0;
	u32 limit_;
	unsigned char precision_ = EXACT;  // 88 bytes in all: two per task, a million tasks
};

}  // namespace eevdf
