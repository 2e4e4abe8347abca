// SPDX-License-Identifier: GPL-2.0-only
// Signed arithmetic that wraps, as the kernel's does (it builds with
// -fno-strict-overflow): an overflow in the avg_vruntime sums or in a lag
// product behaves here as it would in the kernel instead of being
// undefined. For the fair class's files only (model/fair*.cpp).
#pragma once

#include "model/types.hpp"

namespace eevdf {

inline s64 wmul(s64 a, s64 b) { return static_cast<s64>(static_cast<u64>(a) * static_cast<u64>(b)); }
inline s64 wadd(s64 a, s64 b) { return static_cast<s64>(static_cast<u64>(a) + static_cast<u64>(b)); }
inline s64 wsub(s64 a, s64 b) { return static_cast<s64>(static_cast<u64>(a) - static_cast<u64>(b)); }

// div_s64(): C division, truncating toward zero. INT64_MIN / -1 cannot occur
// (divisors here are positive weights).
inline s64 div_s64(s64 a, s64 b) { return a / b; }

}  // namespace eevdf
