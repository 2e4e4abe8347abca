// SPDX-License-Identifier: GPL-2.0-only
// The EEVDF-relevant sched_feat() switches of kernel/sched/features.h, plus
// the two tick options that are kernel configuration rather than features.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace eevdf {

enum class Feature : unsigned {
	PLACE_LAG,               // keep lag across sleep (placement strategy #1)
	PLACE_DEADLINE_INITIAL,  // a new task's first deadline is half a slice away
	PLACE_REL_DEADLINE,      // keep d - v across non-sleep dequeue/enqueue (6.12+)
	RUN_TO_PARITY,           // slice protection against wakeup preemption
	PREEMPT_SHORT,           // a shorter-slice waker may cancel protection (6.12+)
	DELAY_DEQUEUE,           // an ineligible sleeper stays queued to burn its lag (6.12+)
	DELAY_ZERO,              // clip positive lag to 0 when a delayed task leaves (6.12+)
	WAKEUP_PREEMPTION,       // wakeup preemption at all
	HRTICK,                  // end the slice by hrtimer instead of at the next tick
	NO_HZ_FULL,              // CONFIG_NO_HZ_FULL on this CPU: no tick with one task queued
	// Several CPUs (they change nothing on one):
	TTWU_QUEUE,              // wake up through the target's wakelist (IPI) when the kernel's conditions hold
	SIS_UTIL,                // select_idle_cpu() scans at most nr_idle_scan CPUs
	WA_IDLE,                 // wake_affine_idle()
	WA_WEIGHT,               // wake_affine_weight()
	WA_BIAS,                 // wake_affine_weight()'s imbalance_pct bias
	UTIL_EST,                // util_est in cpu_util()
	NI_RANDOM,               // 6.18.5+: newidle balance in proportion to its success rate
	TTWU_QUEUE_DELAYED,      // experimental, never merged (peterz/queue sched/ttwu, mid-2025)
	COUNT
};

// The features that act only with several CPUs start here.
inline constexpr unsigned FIRST_SMP_FEATURE = static_cast<unsigned>(Feature::TTWU_QUEUE);

inline constexpr std::array<std::string_view, static_cast<unsigned>(Feature::COUNT)> feature_names = {
	"PLACE_LAG", "PLACE_DEADLINE_INITIAL", "PLACE_REL_DEADLINE", "RUN_TO_PARITY",
	"PREEMPT_SHORT", "DELAY_DEQUEUE", "DELAY_ZERO", "WAKEUP_PREEMPTION", "HRTICK",
	"NO_HZ_FULL", "TTWU_QUEUE", "SIS_UTIL", "WA_IDLE", "WA_WEIGHT", "WA_BIAS", "UTIL_EST", "NI_RANDOM",
	"TTWU_QUEUE_DELAYED",
};

inline std::optional<Feature> feature_by_name(std::string_view name)
{
	for (unsigned i = 0; i < feature_names.size(); i++)
		if (feature_names[i] == name)
			return static_cast<Feature>(i);
	return std::nullopt;
}

class Features {
public:
	constexpr bool operator[](Feature f) const { return bits_ & bit(f); }
	constexpr Features& set(Feature f, bool on)
	{
		bits_ = on ? (bits_ | bit(f)) : (bits_ & ~bit(f));
		return *this;
	}
	constexpr bool operator==(const Features&) const = default;

private:
	static_assert(static_cast<unsigned>(Feature::COUNT) <= 32, "one bit per feature in an unsigned");
	static constexpr unsigned bit(Feature f) { return 1u << static_cast<unsigned>(f); }
	unsigned bits_ = 0;
};

}  // namespace eevdf
