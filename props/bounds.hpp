// SPDX-License-Identifier: GPL-2.0-only
// The bounds the property suite checks, and the observers that measure
// against them, shared with the fuzzers (fuzz/). Header-only and free of
// RapidCheck, so a libFuzzer build can use it without the property suite.
// The proved bounds themselves are model/proved_bounds.hpp's; this file
// says which of them each property holds the model to.
//
// Every bound here has the same precondition: n equal-nice CPU hogs forked
// together at t = 0, HRTICK off (properties.hpp, 2 to 5).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "model/proved_bounds.hpp"
#include "model/simulation.hpp"
#include "props/harness.hpp"

namespace eevdf::props {

// Property 2 / 2c: the longest run of one hog. `exact`: nice 0, no tick
// jitter, the first tick a whole TICK_NSEC after the start (tick phase 0):
// slice + TICK_NSEC - 1 (or max(slice, TICK_NSEC) + TICK_NSEC - 1 in the max
// form). Otherwise one re-pick is possible (docs/findings.md F1).
// The exact forms are hog_runs_whole_ticks' and run_length_eps's with J = 0
// (request_bound, request_bound_max); the others add what a re-pick can.
inline u64 hog_run_bound(const Config& cfg, bool exact, bool max_form = false)
{
	const u64 r = cfg.base_slice_ns, T = cfg.tick_ns, J = cfg.knobs.tick_jitter;
	if (exact)
		return max_form ? request_bound_max(r, T, 0) : request_bound(r, T, 0);
	if (cfg.preset->paths.protect == KernelPaths::Protect::Vprot)
		return request_bound(r, T, J) + T + J;  // one re-pick, then the unprotected curr is resched at the next tick
	return 2 * request_bound(r, T, J);      // one re-pick, then it runs to its next renewal
}

// Property 4: nice-0 hogs keep |lag| < slice + TICK_NSEC + jitter, i.e.
// lag_invariant's |V - v_i| <= lag_bound (proved for 3 and 4 hogs).
inline s64 hog_lag_bound(const Config& cfg)
{
	return static_cast<s64>(lag_bound(cfg.base_slice_ns, cfg.tick_ns, cfg.knobs.tick_jitter) + 1);
}

// Property 5: over any window, a nice-0 hog's CPU time is within
// 2 (slice + TICK_NSEC + jitter) of its share t / n.
inline s64 hog_window_bound(const Config& cfg) { return 2 * hog_lag_bound(cfg); }

// Every run, the one still going at the end included (measured up to the
// end: a lower bound of its length, so it may still exceed a bound).
inline std::vector<u64> runs_until(const SwitchLog& log, u64 end)
{
	std::vector<u64> runs;
	for (size_t i = 0; i < log.switches.size(); i++) {
		if (log.switches[i].second == IDLE)
			continue;
		const u64 stop = i + 1 < log.switches.size() ? log.switches[i + 1].first : end;
		runs.push_back(stop - log.switches[i].first);
	}
	return runs;
}

// Lag of every queued task after every event.
struct LagWatch : Observer {
	s64 min_lag = 0, max_lag = 0;
	void on_event(const Simulation& sim, u64) override
	{
		for (size_t i = 0; i < sim.tasks().size(); i++) {
			if (!sim.tasks()[i].se.on_rq)
				continue;
			const s64 l = sim.lag_ns(static_cast<int>(i));
			min_lag = std::min(min_lag, l);
			max_lag = std::max(max_lag, l);
		}
	}
};

// n * cpu_i(t) - t for each task: n times its service error against 1/n.
struct ShareWatch : Observer {
	std::vector<s64> lo, hi;
	std::vector<u64> cpu;
	int running = IDLE;
	u64 since = 0;
	void on_switch(const Simulation& sim, u64 t, int, int next, bool, u64) override
	{
		sample(sim, t);
		running = next;
	}
	// Ticks too, so that a run that never ends is still measured.
	void on_tick(const Simulation& sim, u64 t, bool) override { sample(sim, t); }
	void sample(const Simulation& sim, u64 t)
	{
		const size_t n = sim.tasks().size();
		if (cpu.empty()) {
			cpu.assign(n, 0);
			lo.assign(n, 0);
			hi.assign(n, 0);
		}
		if (running >= 0)
			cpu[static_cast<size_t>(running)] += t - since;
		since = t;
		for (size_t i = 0; i < n; i++) {
			const s64 e = static_cast<s64>(n * cpu[i]) - static_cast<s64>(t);
			lo[i] = std::min(lo[i], e);
			hi[i] = std::max(hi[i], e);
		}
	}
	// The largest service error over a window of task i: the change of e_i / n.
	s64 worst_window(size_t i) const { return (hi[i] - lo[i]) / static_cast<s64>(lo.size()); }
};

// Property 8's observer (lag_weighted and run_weighted): model/proved_bounds.hpp.
using eevdf::WeightedWatch;

}  // namespace eevdf::props
