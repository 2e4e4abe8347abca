// SPDX-License-Identifier: GPL-2.0-only
#include "model/weights.hpp"

#include <bit>

namespace eevdf {
namespace {

// kernel/sched/core.c, nice -20 .. 19. Neighbours differ by ~1.25x, so one
// nice level moves ~10% of CPU between two competing tasks.
constexpr u32 prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291,
	29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,
	3121,  2501,  1991,  1586,  1277,
	1024,  820,   655,   526,   423,
	335,   272,   215,   172,   137,
	110,   87,    70,    56,    45,
	36,    29,    23,    18,    15,
};

// 2^32 / prio_to_weight[i], precomputed by the kernel (not WMULT_CONST / w).
constexpr u32 prio_to_wmult[40] = {
	48388,     59856,     76040,     92818,     118348,
	147320,    184698,    229616,    287308,    360437,
	449829,    563644,    704093,    875809,    1099582,
	1376151,   1717300,   2157191,   2708050,   3363326,
	4194304,   5237765,   6557202,   8165337,   10153587,
	12820798,  15790321,  19976592,  24970740,  31350126,
	39045157,  49367440,  61356676,  76695844,  95443717,
	119304647, 148102320, 186737708, 238609294, 286331153,
};

// The tables' own relations, as the kernel states them: nice 0 weighs
// NICE_0_LOAD (unscaled), the weights fall with nice, and each inverse is
// 2^32 / w up to rounding (the kernel rounded some entries up).
constexpr bool prio_tables_consistent()
{
	if (prio_to_weight[0 - MIN_NICE] != scale_load_down(NICE_0_LOAD))
		return false;
	for (int i = 0; i < 40; i++) {
		if (i && prio_to_weight[i] >= prio_to_weight[i - 1])
			return false;
		const u64 w = prio_to_weight[i], product = static_cast<u64>(prio_to_wmult[i]) * w, two32 = 1ULL << 32;
		if (product + w <= two32 || product >= two32 + w)
			return false;
	}
	return true;
}
static_assert(prio_tables_consistent());
static_assert(MAX_NICE - MIN_NICE + 1 == 40);

int prio_index(int nice)
{
	if (nice < MIN_NICE)
		nice = MIN_NICE;
	if (nice > MAX_NICE)
		nice = MAX_NICE;
	return nice - MIN_NICE;
}

void update_inv_weight(LoadWeight& lw)
{
	if (lw.inv_weight)
		return;
	const u64 w = scale_load_down(lw.weight);
	if (w >= WMULT_CONST)
		lw.inv_weight = 1;
	else if (!w)
		lw.inv_weight = WMULT_CONST;
	else
		lw.inv_weight = static_cast<u32>(WMULT_CONST / w);
}

// fls(): 1-based index of the most significant set bit.
int fls32(u32 x) { return 32 - std::countl_zero(x); }

}  // namespace

u64 nice_to_weight(int nice) { return prio_to_weight[prio_index(nice)]; }
u32 nice_to_wmult(int nice) { return prio_to_wmult[prio_index(nice)]; }

LoadWeight task_load_weight(int nice)
{
	return LoadWeight{scale_load(nice_to_weight(nice)), nice_to_wmult(nice)};
}

// fact = weight * inv_weight is kept within 32 bits by shifting it down and
// lowering the final shift to match, so the result is
// (delta * fact) >> shift with a 96-bit intermediate, truncated.
u64 calc_delta(u64 delta_exec, u64 weight, LoadWeight& lw)
{
	u64 fact = scale_load_down(weight);
	u32 fact_hi = static_cast<u32>(fact >> 32);
	int shift = WMULT_SHIFT;

	update_inv_weight(lw);
	if (fact_hi) {
		const int fs = fls32(fact_hi);
		shift -= fs;
		fact >>= fs;
	}
	fact = static_cast<u64>(static_cast<u32>(fact)) * lw.inv_weight;
	fact_hi = static_cast<u32>(fact >> 32);
	if (fact_hi) {
		const int fs = fls32(fact_hi);
		shift -= fs;
		fact >>= fs;
	}
	return static_cast<u64>((static_cast<u128>(delta_exec) * static_cast<u32>(fact)) >> shift);
}

}  // namespace eevdf
