// SPDX-License-Identifier: GPL-2.0-only
#include "report/schbench_stats.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace eevdf::cli {
namespace {

constexpr std::array<double, 5> PLIST = {20.0, 50.0, 90.0, 99.0, 99.9};

}  // namespace

unsigned SchbenchStats::val_to_idx(unsigned val)
{
	const unsigned msb = val ? 31u - static_cast<unsigned>(std::countl_zero(val)) : 0u;
	if (msb <= PLAT_BITS)
		return val;  // below 512: one bucket per value
	const unsigned error_bits = msb - PLAT_BITS;
	const unsigned base = (error_bits + 1) << PLAT_BITS;
	const unsigned offset = (PLAT_VAL - 1) & (val >> error_bits);
	return std::min(base + offset, PLAT_NR - 1);
}

unsigned SchbenchStats::idx_to_val(unsigned idx)
{
	if (idx < (PLAT_VAL << 1))
		return idx;
	const unsigned error_bits = (idx >> PLAT_BITS) - 1;
	const unsigned base = 1u << (error_bits + PLAT_BITS);
	const unsigned k = idx % PLAT_VAL;
	// base + (k + 0.5) * 2^error_bits, exact in integers for error_bits >= 1
	return base + k * (1u << error_bits) + (1u << (error_bits - 1));
}

void SchbenchStats::add(unsigned us)
{
	max_ = std::max(max_, us);
	if (min_ == 0 || us < min_)
		min_ = us;
	plat_[val_to_idx(us)]++;
	nr_samples_++;
}

void SchbenchStats::merge(const SchbenchStats& o)
{
	if (!o.nr_samples_)
		return;
	max_ = std::max(max_, o.max_);
	// add() keeps min_ 0 until a sample is nonzero; so does this.
	if (min_ == 0 || (o.min_ != 0 && o.min_ < min_))
		min_ = o.min_;
	for (unsigned i = 0; i < PLAT_NR; i++)
		plat_[i] += o.plat_[i];
	nr_samples_ += o.nr_samples_;
}

std::vector<SchbenchStats::Row> SchbenchStats::percentiles() const
{
	std::vector<Row> rows(PLIST.size(), Row{0, 0, 0});
	std::vector<u64> cum(PLIST.size(), 0);
	const double nr = static_cast<double>(nr_samples_);
	u64 sum = 0;
	size_t j = 0;
	bool done = false;
	for (unsigned i = 0; i < PLAT_NR && !done; i++) {
		sum += plat_[i];
		// The same double comparison as schbench's: p / 100 * nr.
		while (static_cast<double>(sum) >= PLIST[j] / 100.0 * nr) {
			rows[j].value = idx_to_val(i);
			cum[j] = sum;
			if (j == PLIST.size() - 1) {
				done = true;
				break;
			}
			j++;
		}
	}
	u64 prev = 0;
	for (size_t i = 0; i < rows.size(); i++) {
		rows[i].pct = PLIST[i];
		rows[i].samples = cum[i] - prev;
		prev = cum[i];
	}
	return rows;
}

unsigned SchbenchStats::value_at(double pct) const
{
	for (const Row& r : percentiles())
		if (r.pct == pct)
			return r.value;
	return 0;
}

std::string SchbenchStats::show(const char* label, const char* units, u64 runtime_s, unsigned mask, unsigned star) const
{
	char b[200];
	std::snprintf(b, sizeof b, "%s percentiles (%s) runtime %llu (s) (%llu total samples)\n", label, units,
		      static_cast<unsigned long long>(runtime_s), static_cast<unsigned long long>(nr_samples_));
	std::string out = b;
	const std::vector<Row> rows = percentiles();
	for (size_t i = 0; i < rows.size(); i++) {
		const unsigned bit = 1u << i;
		if (!(mask & bit))
			continue;
		std::snprintf(b, sizeof b, "\t%s%2.1fth: %-10u (%llu samples)\n", bit == star ? "* " : "  ", rows[i].pct,
			      rows[i].value, static_cast<unsigned long long>(rows[i].samples));
		out += b;
	}
	std::snprintf(b, sizeof b, "\t  min=%u, max=%u\n", min_, max_);
	return out + b;
}

}  // namespace eevdf::cli
