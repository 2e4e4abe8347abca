// SPDX-License-Identifier: GPL-2.0-only
// Load weights and the fixed-point scaling of runtime into virtual time.
//
// Mirrors kernel/sched/core.c (sched_prio_to_weight, sched_prio_to_wmult) and
// kernel/sched/fair.c (__update_inv_weight, __calc_delta, calc_delta_fair) as
// of Linux 6.6 through 6.18 on 64-bit: weights carry SCHED_FIXEDPOINT_SHIFT
// extra bits, so NICE_0_LOAD = 1 << 20, and the EEVDF sums use the table value
// (scale_load_down).
#pragma once

#include "model/types.hpp"

namespace eevdf {

inline constexpr int SCHED_FIXEDPOINT_SHIFT = 10;
inline constexpr u64 NICE_0_LOAD = 1ULL << (2 * SCHED_FIXEDPOINT_SHIFT);
inline constexpr u32 WMULT_CONST = ~0U;
inline constexpr int WMULT_SHIFT = 32;
inline constexpr int MIN_NICE = -20;
inline constexpr int MAX_NICE = 19;

struct LoadWeight {
	u64 weight = 0;      // scaled: table value << SCHED_FIXEDPOINT_SHIFT
	u32 inv_weight = 0;  // 2^32 / table value; 0 = compute lazily (WMULT_CONST / w)
};

inline constexpr u64 scale_load(u64 w) { return w << SCHED_FIXEDPOINT_SHIFT; }
// Since 2019 the kernel floors a non-zero down-scaled weight at 2.
inline constexpr u64 scale_load_down(u64 w)
{
	if (!w)
		return 0;
	const u64 d = w >> SCHED_FIXEDPOINT_SHIFT;
	return d < 2 ? 2 : d;
}

u64 nice_to_weight(int nice);  // table value, 15 .. 88761
u32 nice_to_wmult(int nice);   // table value, 2^32 / weight

// set_load_weight() for a SCHED_NORMAL task: scaled weight and the table's
// inverse (which differs by one from the lazily computed WMULT_CONST / w).
LoadWeight task_load_weight(int nice);

// set_load_weight() for SCHED_IDLE (sched.h WEIGHT_IDLEPRIO, WMULT_IDLEPRIO,
// 6.6 .. 7.1): weight 3 whatever the nice value, below nice 19's 15. Its
// vruntime runs 1024/3 = 341.3 times as fast as a nice-0 task's, so its
// virtual deadline lies some 341 slices ahead and a running idle task
// barely moves V.
inline constexpr u64 WEIGHT_IDLEPRIO = 3;
inline constexpr u32 WMULT_IDLEPRIO = 1431655765;  // floor(2^32 / 3)
inline constexpr LoadWeight idle_load_weight() { return LoadWeight{scale_load(WEIGHT_IDLEPRIO), WMULT_IDLEPRIO}; }

// __calc_delta(): delta_exec * weight / lw->weight through the inverse weight,
// truncating like mul_u64_u32_shr. Updates lw->inv_weight if it was zero.
u64 calc_delta(u64 delta_exec, u64 weight, LoadWeight& lw);

// __calc_delta() on 64-bit from v7.0: one u64 multiply (wrapping, as the
// kernel's does past 2^64) and divide, no inverse weight.
constexpr u64 calc_delta_div(u64 delta_exec, u64 weight, const LoadWeight& lw)
{
	return (delta_exec * weight) / lw.weight;
}

// calc_delta_fair(): real time to the entity's virtual time; identity at
// nice 0. divides: the 7.x __calc_delta (KernelPaths::calc_delta_divides).
inline u64 calc_delta_fair(u64 delta, LoadWeight& lw, bool divides = false)
{
	if (lw.weight != NICE_0_LOAD)
		delta = divides ? calc_delta_div(delta, NICE_0_LOAD, lw) : calc_delta(delta, NICE_0_LOAD, lw);
	return delta;
}

}  // namespace eevdf
