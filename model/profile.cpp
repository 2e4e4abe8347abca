// SPDX-License-Identifier: GPL-2.0-only
#include "model/profile.hpp"

namespace eevdf {

bool Profile::scales_bursts() const
{
	const auto neutral = [](const Dist& d) { return d.is_fixed() && d.a == PPM_ONE; };
	return !neutral(burst_scale) || !neutral(run_scale);
}

bool Profile::exact() const
{
	for (const ProfileCost& c : PROFILE_COSTS)
		if (!c.multiplier && !(this->*c.dist).is_zero())
			return false;
	return timer_slack == 0 && !scales_bursts();
}

std::string Profile::invalid() const
{
	for (const ProfileCost& c : PROFILE_COSTS) {
		const std::string why = (this->*c.dist).invalid();
		if (!why.empty())
			return std::string(c.key) + ": " + why;
	}
	// A multiplier of at most x1000 keeps a scaled burst (<= 2^62 ns) from
	// wrapping: bursts are scaled in 128 bits, then clamped to 2^62.
	for (const auto& [name, d] : {std::pair{"burst_scale", &burst_scale}, std::pair{"run_scale", &run_scale}})
		if (d->max() > 1000 * PPM_ONE)
			return std::string(name) + ": a multiplier above x1000 (" + std::to_string(d->max()) + " ppm)";
	if (timer_slack > MAX_TIME_NS)
		return "timer_slack: above 2^62 ns";
	return "";
}

}  // namespace eevdf
