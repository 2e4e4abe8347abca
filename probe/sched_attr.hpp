// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: the raw sched_setattr() argument.
#pragma once

#include <cstdint>

namespace probe {

// Our own copy of struct sched_attr (include/uapi/linux/sched/types.h),
// SCHED_ATTR_SIZE_VER0 = 48 bytes.
struct ProbeSchedAttr {
	std::uint32_t size;
	std::uint32_t sched_policy;
	std::uint64_t sched_flags;
	std::int32_t sched_nice;
	std::uint32_t sched_priority;
	std::uint64_t sched_runtime;
	std::uint64_t sched_deadline;
	std::uint64_t sched_period;
};
static_assert(sizeof(ProbeSchedAttr) == 48, "SCHED_ATTR_SIZE_VER0");

}  // namespace probe
