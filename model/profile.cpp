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
	for (const Dist* d : {&switch_cost, &tick_jitter, &ipi_latency, &idle_exit_latency, &wakeup_irq_cost,
			      &balance_cost, &timer_delay, &timer_delay_busy, &resched_delay, &resched_delay_busy,
			      &futex_wake_cost, &ipi_send_cost, &hrtimer_arm_cost})
		if (!d->is_zero())
			return false;
	return timer_slack == 0 && !scales_bursts();
}

std::string Profile::invalid() const
{
	const std::pair<const char*, const Dist*> costs[] = {
		{"switch_cost", &switch_cost},         {"tick_jitter", &tick_jitter},
		{"ipi_latency", &ipi_latency},         {"idle_exit_latency", &idle_exit_latency},
		{"wakeup_irq_cost", &wakeup_irq_cost}, {"balance_cost", &balance_cost},
		{"timer_delay", &timer_delay},         {"timer_delay_busy", &timer_delay_busy},
		{"resched_delay", &resched_delay},     {"resched_delay_busy", &resched_delay_busy},
		{"burst_scale", &burst_scale},
		{"run_scale", &run_scale},             {"futex_wake_cost", &futex_wake_cost},
		{"ipi_send_cost", &ipi_send_cost},     {"hrtimer_arm_cost", &hrtimer_arm_cost},
	};
	for (const auto& [name, d] : costs) {
		const std::string why = d->invalid();
		if (!why.empty())
			return std::string(name) + ": " + why;
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
