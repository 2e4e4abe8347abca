// SPDX-License-Identifier: GPL-2.0-only
// The bounds the property suite checks, and the observers that measure
// against them, shared with the fuzzers (fuzz/). Header-only and free of
// RapidCheck, so a libFuzzer build can use it without the property suite.
//
// Every bound here has the same precondition: n equal-nice CPU hogs forked
// together at t = 0, HRTICK off (properties.hpp, 2 to 5).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "model/simulation.hpp"
#include "props/harness.hpp"

namespace eevdf::props {

// Property 2 / 2c: the longest run of one hog. `exact`: nice 0, no tick
// jitter, the first tick a whole TICK_NSEC after the start (tick phase 0):
// slice + TICK_NSEC - 1 (or max(slice, TICK_NSEC) + TICK_NSEC - 1 in the max
// form). Otherwise one re-pick is possible (docs/findings.md F1).
inline u64 hog_run_bound(const Config& cfg, bool exact, bool max_form = false)
{
	const u64 r = cfg.base_slice_ns, T = cfg.tick_ns, J = cfg.knobs.tick_jitter;
	if (exact)
		return (max_form ? std::max(r, T) : r) + T - 1;
	if (cfg.preset->paths.protect == KernelPaths::Protect::Vprot)
		return r + 2 * T + 2 * J - 1;  // one re-pick, then the unprotected curr is resched at the next tick
	return 2 * (r + T + J - 1);            // one re-pick, then it runs to its next renewal
}

// Property 4: nice-0 hogs keep |lag| < slice + TICK_NSEC + jitter.
inline s64 hog_lag_bound(const Config& cfg)
{
	return static_cast<s64>(cfg.base_slice_ns + cfg.tick_ns + cfg.knobs.tick_jitter);
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

// Property 8 (lag_weighted and run_weighted in docs/proofs.md): hogs at
// any nice levels. U_i = cdf_i(slice) + cdf_i(TICK_NSEC + jitter) - 1 is
// the most an entity's v can lead V; w_i (V - v_i) <= sum_{j != i} w_j U_j;
// one run (re-picks included) advances curr's v by at most
// L_c = U_c + W sum_{j != c} w_j U_j / (W_o w_c), W_o = W - w_c.
// Also records how close the schedule came to each bound (proofs/ reports
// it beside the theorems).
struct WeightedWatch : Observer {
	std::vector<u64> U, w, others, L, start;
	std::string bad;  // the first violation, in words
	u64 states = 0, runs = 0;
	double ahead = 0, behind = 0, run = 0;  // the largest observed fraction of each bound

	WeightedWatch(const Config& cfg, const std::vector<int>& nices)
	{
		const u64 step = cfg.tick_ns + cfg.knobs.tick_jitter;
		u64 W = 0;
		for (int nice : nices) {
			LoadWeight lw{scale_load(nice_to_weight(nice)), 0};
			U.push_back(calc_delta_fair(cfg.base_slice_ns, lw) + calc_delta_fair(step, lw) - 1);
			w.push_back(nice_to_weight(nice));
			W += w.back();
		}
		for (size_t i = 0; i < nices.size(); i++) {
			u64 o = 0;
			for (size_t j = 0; j < nices.size(); j++)
				if (j != i)
					o += w[j] * U[j];
			others.push_back(o);
			L.push_back(U[i] + static_cast<u64>(static_cast<unsigned __int128>(W) * o / ((W - w[i]) * w[i])));
		}
		start.assign(nices.size(), 0);
	}
	void on_switch(const Simulation& sim, u64, int prev, int next, bool, u64) override
	{
		if (prev >= 0) {
			const size_t c = static_cast<size_t>(prev);
			const u64 adv = sim.tasks()[c].se.vruntime - start[c];
			runs++;
			run = std::max(run, static_cast<double>(adv) / static_cast<double>(L[c]));
			if (adv > L[c] && bad.empty())
				bad = "task " + std::to_string(c) + "'s run advanced its v by " + std::to_string(adv) + ", beyond " +
				      std::to_string(L[c]);
		}
		if (next >= 0)
			start[static_cast<size_t>(next)] = sim.tasks()[static_cast<size_t>(next)].se.vruntime;
	}
	void on_event(const Simulation& sim, u64) override
	{
		if (sim.cfs_rq().nr_queued < 2)
			return;
		states++;
		const u64 V = sim.cfs_rq().avg_vruntime();
		for (size_t i = 0; i < U.size(); i++) {
			if (!sim.tasks()[i].se.on_rq)  // not forked yet
				continue;
			const s64 lead = wrapped_diff(sim.tasks()[i].se.vruntime, V);  // v_i - V
			if (lead > 0) {
				ahead = std::max(ahead, static_cast<double>(lead) / static_cast<double>(U[i]));
				if (static_cast<u64>(lead) > U[i] && bad.empty())
					bad = "task " + std::to_string(i) + " leads V by " + std::to_string(lead) + " > U = " +
					      std::to_string(U[i]);
			} else {
				const u64 lag = static_cast<u64>(-lead) * w[i];
				behind = std::max(behind, static_cast<double>(lag) / static_cast<double>(others[i]));
				if (lag > others[i] && bad.empty())
					bad = "task " + std::to_string(i) + " trails V by " + std::to_string(-lead) + ": w (V - v) > " +
					      std::to_string(others[i]);
			}
		}
	}
};

}  // namespace eevdf::props
