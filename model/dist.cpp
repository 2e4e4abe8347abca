// SPDX-License-Identifier: GPL-2.0-only
#include "model/dist.hpp"

namespace eevdf {

Rng rng_stream(u64 seed, u64 source, u64 index)
{
	// Two rounds of the splitmix64 finaliser over the three inputs: a
	// stream's state depends on every bit of each.
	Rng r{seed ^ 0x6a09e667f3bcc909ULL};
	r.state = r.next() ^ (source * 0xd1342543de82ef95ULL);
	r.state = r.next() ^ (index * 0x9e6c63d0676a9a99ULL);
	r.state = r.next();
	return r;
}

u64 Dist::sample(Rng& rng) const
{
	switch (kind) {
	case Kind::Fixed:
		return a;
	case Kind::Uniform:
		// The modulo's bias favours the low residues by at most a relative
		// (b - a + 1) / 2^64: under 10^-10 for any span up to a second.
		return a + rng.next() % (b - a + 1);
	case Kind::Normal: {
		// Σ of 12 uniforms in units of 2^-32: the sum is in [0, 12 * 2^32),
		// its mean 6 * 2^32; the deviation (sum - 6 * 2^32) * b / 2^32.
		s64 sum = 0;
		for (int i = 0; i < 12; i++)
			sum += static_cast<s64>(rng.next() >> 32);
		const s128 dev = static_cast<s128>(sum - 6 * (s64(1) << 32)) * static_cast<s128>(b) >> 32;
		const s128 v = static_cast<s128>(a) + dev;
		return v < 0 ? 0 : static_cast<u64>(v);
	}
	case Kind::Empirical: {
		// p uniform in [0, 2^32): segment i = p n / 2^32, the point within
		// it (p n mod 2^32) / 2^32 of the way from q_i to q_{i+1}.
		const u64 n = q.size() - 1;
		const u128 pn = static_cast<u128>(rng.next() >> 32) * n;
		const u64 i = static_cast<u64>(pn >> 32);
		const u64 frac = static_cast<u64>(pn & 0xffffffffULL);
		const u64 lo = q[i], hi = q[i + 1];
		return lo + static_cast<u64>(static_cast<u128>(hi - lo) * frac >> 32);
	}
	}
	return a;
}

u64 Dist::mean() const
{
	switch (kind) {
	case Kind::Fixed:
	case Kind::Normal:
		return a;
	case Kind::Uniform:
		return a + (b - a) / 2;
	case Kind::Empirical: {
		// The mean of the piecewise-linear quantile function: the average of
		// the segments' midpoints.
		u128 sum = 0;
		for (size_t i = 0; i + 1 < q.size(); i++)
			sum += static_cast<u128>(q[i]) + q[i + 1];
		return static_cast<u64>(sum / (2 * (q.size() - 1)));
	}
	}
	return a;
}

u64 Dist::max() const
{
	switch (kind) {
	case Kind::Fixed:
		return a;
	case Kind::Uniform:
		return b;
	case Kind::Normal:
		return a + 6 * b;
	case Kind::Empirical:
		return q.back();
	}
	return a;
}

std::string Dist::invalid() const
{
	switch (kind) {
	case Kind::Fixed:
		return a > MAX_TIME_NS ? "value above 2^62" : "";
	case Kind::Uniform:
		if (a > b)
			return "uniform: the least " + std::to_string(a) + " is above the greatest " + std::to_string(b);
		return b > MAX_TIME_NS ? "uniform: the greatest above 2^62" : "";
	case Kind::Normal:
		// a + 6 b must stay below 2^62 so the model's sums of costs never wrap.
		if (a > MAX_TIME_NS || b > MAX_TIME_NS / 8 || a + 6 * b > MAX_TIME_NS)
			return "normal: mean + 6 sd above 2^62";
		return "";
	case Kind::Empirical:
		if (q.size() < 2)
			return "empirical: at least two quantiles (the least and the greatest)";
		if (q.size() > 4097)
			return "empirical: at most 4097 quantiles";
		for (size_t i = 1; i < q.size(); i++)
			if (q[i] < q[i - 1])
				return "empirical: quantile " + std::to_string(i) + " (" + std::to_string(q[i]) +
				       ") is below the one before it (" + std::to_string(q[i - 1]) + ")";
		return q.back() > MAX_TIME_NS ? "empirical: a quantile above 2^62" : "";
	}
	return "";
}

std::string Dist::describe() const
{
	switch (kind) {
	case Kind::Fixed:
		return "fixed " + std::to_string(a);
	case Kind::Uniform:
		return "uniform " + std::to_string(a) + ".." + std::to_string(b);
	case Kind::Normal:
		return "normal " + std::to_string(a) + " sd " + std::to_string(b);
	case Kind::Empirical:
		return "empirical " + std::to_string(q.size()) + " quantiles " + std::to_string(q.front()) + ".." +
		       std::to_string(q.back());
	}
	return "";
}

}  // namespace eevdf
