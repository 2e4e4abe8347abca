// SPDX-License-Identifier: GPL-2.0-only
#include "model/sample_counts.hpp"

#include <bit>

namespace eevdf {

u64 SampleCounts::bucket(u64 v) const
{
	if (precision_ == EXACT || v >> (precision_ + 1) == 0)
		return v;
	const unsigned shift = static_cast<unsigned>(std::bit_width(v)) - 1 - precision_;
	return (v >> shift) << shift;
}

void SampleCounts::set_precision(unsigned p)
{
	precision_ = static_cast<unsigned char>(p);
	std::map<u64, u64> merged;
	for (const auto& [v, n] : counts_)
		merged[bucket(v)] += n;
	counts_.swap(merged);
}

// The largest P whose buckets fit in half the limit: values below 2^(P+1)
// keep one bucket each (2^(P+1) of them), and each of the 63 - P higher
// powers of two is split into 2^P.
void SampleCounts::coarsen()
{
	unsigned p = precision_ == EXACT ? 16 : precision_ - 1;
	while (p > 0 && (std::size_t{2} << p) + (std::size_t{63} - p) * (std::size_t{1} << p) > limit_ / 2)
		p--;
	set_precision(p);
}

void SampleCounts::add(u64 v, u64 n)
{
	if (!n)
		return;
	min_ = count_ ? (v < min_ ? v : min_) : v;
	max_ = count_ ? (v > max_ ? v : max_) : v;
	count_ += n;
	sum_ += v * n;
	counts_[bucket(v)] += n;
	if (counts_.size() > limit_)
		coarsen();
}

void SampleCounts::merge(const SampleCounts& o)
{
	if (o.empty())
		return;
	if (o.precision_ < precision_)
		set_precision(o.precision_);
	for (const auto& [v, n] : o.counts_) {
		counts_[bucket(v)] += n;
		if (counts_.size() > limit_)
			coarsen();
	}
	min_ = count_ ? (o.min_ < min_ ? o.min_ : min_) : o.min_;
	max_ = count_ ? (o.max_ > max_ ? o.max_ : max_) : o.max_;
	count_ += o.count_;
	sum_ += o.sum_;
}

u64 SampleCounts::at_rank(u64 rank) const
{
	u64 seen = 0;
	for (const auto& [v, n] : counts_) {
		seen += n;
		if (seen >= rank)
			return v;
	}
	return counts_.empty() ? 0 : counts_.rbegin()->first;
}

std::vector<u64> SampleCounts::values() const
{
	std::vector<u64> v;
	v.reserve(count_);
	for (const auto& [x, n] : counts_)
		v.insert(v.end(), n, x);
	return v;
}

}  // namespace eevdf
