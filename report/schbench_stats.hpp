// SPDX-License-Identifier: GPL-2.0-only
// schbench's latency statistics, as schbench keeps and prints them
// (masoncl/schbench: struct stats, add_lat(), calc_percentiles(),
// show_latencies(); the histogram is fio's, "mr axboe's magic latency
// histogram").
//
// A sample is a whole number of microseconds. Values below 512 have a bucket
// each; above, each power of two is split into 256 buckets, so a bucket is
// 2^(msb - 8) wide and is reported at its centre. A percentile p is the first
// bucket at which the running count reaches p / 100 of all samples; each
// printed row also gives the samples since the previous row. min and max are
// exact. Fixed memory: 19 * 256 buckets, whatever the number of samples.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "model/types.hpp"

namespace eevdf::cli {

class SchbenchStats {
public:
	static constexpr unsigned PLAT_BITS = 8;
	static constexpr unsigned PLAT_VAL = 1u << PLAT_BITS;
	static constexpr unsigned PLAT_GROUP_NR = 19;
	static constexpr unsigned PLAT_NR = PLAT_GROUP_NR * PLAT_VAL;

	// plat_val_to_idx() / plat_idx_to_val().
	static unsigned val_to_idx(unsigned val);
	static unsigned idx_to_val(unsigned idx);

	void add(unsigned us);  // add_lat()
	// Every sample of `o` added to these, as schbench's combine_stats()
	// sums its threads' histograms: the percentiles of the pooled samples.
	void merge(const SchbenchStats& o);
	u64 samples() const { return nr_samples_; }
	unsigned min() const { return min_; }
	unsigned max() const { return max_; }

	struct Row {
		double pct;
		unsigned value;
		u64 samples;  // since the previous row
	};
	// calc_percentiles() for schbench's list 20, 50, 90, 99, 99.9.
	std::vector<Row> percentiles() const;
	// The value at one of those percentiles (0 without samples).
	unsigned value_at(double pct) const;

	// show_latencies(): the block for rows in `mask` (bit i = list entry i),
	// `star` the starred one.
	std::string show(const char* label, const char* units, u64 runtime_s, unsigned mask, unsigned star) const;

private:
	std::array<u32, PLAT_NR> plat_{};
	u64 nr_samples_ = 0;
	unsigned min_ = 0, max_ = 0;
};

// The percentile rows schbench prints: latencies 50, 90, 99 (starred),
// 99.9; RPS 20, 50 (starred), 90.
inline constexpr unsigned PLIST_20 = 1u << 0, PLIST_50 = 1u << 1, PLIST_90 = 1u << 2, PLIST_99 = 1u << 3,
			  PLIST_999 = 1u << 4;
inline constexpr unsigned PLIST_FOR_LAT = PLIST_50 | PLIST_90 | PLIST_99 | PLIST_999;
inline constexpr unsigned PLIST_FOR_RPS = PLIST_20 | PLIST_50 | PLIST_90;

// schbench's microseconds between two instants: the difference of two
// gettimeofday() stamps, each truncated to 1 us (the model's clock is the
// stamp's time base).
constexpr u64 schbench_us(u64 start_ns, u64 end_ns) { return end_ns / 1000 - start_ns / 1000; }

}  // namespace eevdf::cli
