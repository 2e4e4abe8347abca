// SPDX-License-Identifier: GPL-2.0-only
// Kernel integer types and the wrapped comparisons the scheduler uses.
#pragma once

#include <cstdint>

namespace eevdf {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using s64 = std::int64_t;
using s128 = __int128;
using u128 = unsigned __int128;

inline constexpr u64 NSEC_PER_USEC = 1000;
inline constexpr u64 NSEC_PER_MSEC = 1000 * NSEC_PER_USEC;
inline constexpr u64 NSEC_PER_SEC = 1000 * NSEC_PER_MSEC;

// The longest time quantity any input may give (a run, sleep, delay, period,
// duration or flag): 2^62 ns, about 146 years. The model adds a few of them
// to the clock, and below 2^62 each such sum stays below 2^64, so time
// never wraps; the readers refuse anything longer (issue 19).
inline constexpr u64 MAX_TIME_NS = 1ULL << 62;

// The kernel compares u64 virtual times by the sign of their wrapped
// difference, so ordering survives wrap-around as long as the values being
// compared lie within 2^63 of each other.
inline constexpr s64 wrapped_diff(u64 a, u64 b) { return static_cast<s64>(a - b); }
inline constexpr u64 min_vruntime(u64 a, u64 b) { return wrapped_diff(a, b) < 0 ? a : b; }
inline constexpr u64 max_vruntime(u64 a, u64 b) { return wrapped_diff(a, b) > 0 ? a : b; }

// include/vdso/jiffies.h: TICK_NSEC = (NSEC_PER_SEC + HZ/2) / HZ.
inline constexpr u64 tick_nsec(u32 hz) { return (NSEC_PER_SEC + hz / 2) / hz; }

}  // namespace eevdf
