// SPDX-License-Identifier: GPL-2.0-only
// What the PELT tests (tests/test_pelt*.cpp) share: the units and a task's
// averages by hand. Their values are derived by hand, or in the test from
// the kernel's recurrence, for Linux v6.18.44.
//
// Notation: a unit is 1024 ns, a period 1024 units (PERIOD_NS); q is the
// decay factor decay_load() really applies for one period,
// runnable_avg_yN_inv[1] / 2^32 = 4202935002 / 2^32 = 0.97857206..., and
// floor(x * q) is written x*q below.
#pragma once

#include "model/pelt.hpp"

namespace eevdf::test::pelt_cases {

inline constexpr u64 UNIT_NS = 1024;
inline constexpr u64 PERIOD_NS = 1024 * UNIT_NS;  // 1048576 ns, "~1 ms"
inline constexpr u64 NICE0 = 1024;  // se_weight() of a nice-0 task
inline constexpr u64 Y_INV = runnable_avg_yN_inv[1];

inline u64 times_q(u64 v) { return static_cast<u64>((static_cast<u128>(v) * Y_INV) >> 32); }

inline constexpr EntityState RUNNING{true, true, true};
inline constexpr EntityState WAITING{true, true, false};
inline constexpr EntityState SLEEPING{false, false, false};

// A task's averages with a given util_avg/runnable_avg/util_est only.
inline SchedAvg task_avg(u64 util, u64 runnable, u32 util_est)
{
	SchedAvg p;
	p.last_update_time = 1;
	p.util_avg = util;
	p.runnable_avg = runnable;
	p.util_est = util_est;
	return p;
}

}  // namespace eevdf::test::pelt_cases
