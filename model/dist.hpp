// SPDX-License-Identifier: GPL-2.0-only
// A cost drawn anew each time it is charged: how a real machine varies what
// the exact model charges as a constant (docs/model.md, "Variability").
//
// Four forms, all in integer arithmetic (model/ has no floating point):
//
//   fixed      always `a`
//   uniform    a + U, U uniform on the integers 0 .. b - a
//   normal     mean a, standard deviation b, drawn as the Irwin-Hall sum of
//              12 uniforms on [0, 1): Σ U_i - 6 has mean 0 and variance
//              12 / 12 = 1, so a + b (Σ U_i - 6) has the moments asked for;
//              its tails end at 6 b (a normal's mass beyond 6 sd is 2e-9).
//              A draw below 0 is 0 (a cost is never negative).
//   empirical  piecewise linear between quantiles q_0 <= ... <= q_n taken
//              at probabilities i / n: a uniform p picks the segment
//              floor(p n) and the point within it, so a measured
//              distribution replays with its shape, tails included.
//
// A Dist is drawn from an Rng, one splitmix64 stream per source of
// variability (Rq::Noise per CPU, Task::burst_rng per task), so turning one source on does not
// move the draws of another, and the same seed gives the same bytes.
#pragma once

#include <string>
#include <vector>

#include "model/types.hpp"

namespace eevdf {

// splitmix64 (Steele, Lea, Flood 2014): a 64-bit state that any seed
// starts well, one add and three mixes per draw.
struct Rng {
	u64 state = 0;
	u64 next()
	{
		u64 z = (state += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		return z ^ (z >> 31);
	}
};

// The stream of source `source` (and, for per-CPU or per-task sources,
// index `index`) of a run seeded with `seed`: its state is the seed mixed
// with both, so streams of neighbouring seeds and sources share nothing.
Rng rng_stream(u64 seed, u64 source, u64 index = 0);

struct Dist {
	enum class Kind : unsigned char { Fixed, Uniform, Normal, Empirical };
	Kind kind = Kind::Fixed;
	u64 a = 0;           // fixed: the value; uniform: the least; normal: the mean
	u64 b = 0;           // uniform: the greatest; normal: the standard deviation
	std::vector<u64> q;  // empirical: the quantiles, at least two, non-decreasing

	static Dist fixed(u64 v) { return Dist{Kind::Fixed, v, 0, {}}; }
	static Dist uniform(u64 lo, u64 hi) { return Dist{Kind::Uniform, lo, hi, {}}; }
	static Dist normal(u64 mean, u64 sd) { return Dist{Kind::Normal, mean, sd, {}}; }
	static Dist empirical(std::vector<u64> quantiles) { return Dist{Kind::Empirical, 0, 0, std::move(quantiles)}; }

	// Always 0: charging it changes nothing and draws nothing.
	bool is_zero() const { return kind == Kind::Fixed && a == 0; }
	// Draws no random number (fixed): the exact model's costs.
	bool is_fixed() const { return kind == Kind::Fixed; }
	u64 sample(Rng& rng) const;
	// The mean, rounded down (normal: `a` before the clamp at 0).
	u64 mean() const;
	// The largest value a draw can take.
	u64 max() const;
	// What is wrong with its parameters, or "" (uniform lo > hi, too few or
	// decreasing quantiles, values past MAX_TIME_NS).
	std::string invalid() const;
	// "fixed 3000", "uniform 0..30000", "normal 765000 sd 40000",
	// "empirical 5 quantiles 1000..90000" (ns).
	std::string describe() const;

	bool operator==(const Dist&) const = default;
};

// A multiplier in parts per million, drawn as a Dist of ppm (1000000 is x1):
// v * m / 10^6 in 128 bits, so no product wraps.
inline u64 scale_ppm(u64 v, u64 ppm) { return static_cast<u64>(static_cast<u128>(v) * ppm / 1000000); }
inline constexpr u64 PPM_ONE = 1000000;

}  // namespace eevdf
