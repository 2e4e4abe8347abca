// SPDX-License-Identifier: GPL-2.0-only
// include/linux/jiffies.h's comparisons on the model's u64 jiffies, for
// the balancer's intervals and the wake-up path's flip decay: one
// definition, as in the kernel.
#pragma once

#include "model/types.hpp"

namespace eevdf {

// include/linux/jiffies.h, on the model's u64 jiffies.
// time_after(a, b): a is later than b, across wrap-around.
inline bool time_after(u64 a, u64 b) { return static_cast<s64>(b - a) < 0; }
inline bool time_after_eq(u64 a, u64 b) { return static_cast<s64>(a - b) >= 0; }
inline bool time_before(u64 a, u64 b) { return time_after(b, a); }

}  // namespace eevdf
