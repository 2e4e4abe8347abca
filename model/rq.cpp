// SPDX-License-Identifier: GPL-2.0-only
#include "model/rq.hpp"

namespace eevdf {

Rq::Rq(const Config& cfg, u32 cpu_)
	: cpu(cpu_), cfs(cfg), rng_state(cfg.seed ^ (0x5851f42d4c957f2dULL * (cpu_ + 1))),
	  prng_state_(cfg.seed + 0x9e3779b97f4a7c15ULL * cpu_)
{
	// tick_setup_sched_timer(): every CPU on one grid; skew_tick=1 offsets
	// CPU c by c * ((TICK_NSEC >> 1) / nr_cpus).
	tick_offset = cfg.knobs.tick_phase;
	if (cfg.skew_tick)
		tick_offset += cpu * ((cfg.tick_ns >> 1) / cfg.cpus);
	tick_offset %= cfg.tick_ns;
	cfs.ref_vruntime = cfg.vruntime_origin + cpu * cfg.vruntime_origin_step;
	using S = NoiseSource;
	auto stream = [&](S s) { return rng_stream(cfg.seed, static_cast<u64>(s), cpu_); };
	noise = Noise{stream(S::SwitchCost),      stream(S::TickJitter),    stream(S::IpiLatency),
		      stream(S::IdleExitLatency), stream(S::WakeupIrqCost), stream(S::BalanceCost),
		      stream(S::TimerDelay),      stream(S::TimerDelayBusy), stream(S::ReschedDelay),
		      stream(S::ReschedDelayBusy), stream(S::IpiSendCost),
		      stream(S::HrtimerArmCost)};
}

u64 Rq::prng_next()
{
	// splitmix64: seeded, so the same seed gives the same jitter. CPU 0's
	// stream is the one-CPU model's.
	u64 z = (prng_state_ += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u64 Rq::grid_tick_after(u64 t, u64 tick) const
{
	const u64 phase = tick_offset;
	if (t < phase)
		return phase == 0 ? tick : phase;
	return phase + ((t - phase) / tick + 1) * tick;
}

// The next tick is the next grid point after `after` that has not had its
// tick yet, arriving early by a jitter drawn uniformly from [0, jitter] (and
// by the profile's tick_jitter draw): the clockevent fires a little before
// the period is complete, the effect 2ae891b82695 describes. An early tick still owns its grid point, so the
// following tick belongs to the next one.
void Rq::arm_next_tick(u64 after, u64 tick, u64 jitter)
{
	u64 grid;
	if (last_tick_grid && after < last_tick_grid + tick) {
		grid = last_tick_grid + tick;  // the usual case, without a division
	} else {
		grid = grid_tick_after(after, tick);
		if (last_tick_grid && grid <= last_tick_grid)
			grid = last_tick_grid + tick;
	}
	u64 early = 0;
	if (jitter)
		early = prng_next() % (jitter + 1);
	early += draw(cfs.cfg().profile.tick_jitter, noise.tick_jitter);
	next_tick_grid = grid;
	next_tick = grid > after + early ? grid - early : grid;  // never before `after`
}

}  // namespace eevdf
