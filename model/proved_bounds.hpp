// SPDX-License-Identifier: GPL-2.0-only
// The bounds the proofs establish (docs/proofs.md), computed in one place
// for every layer that checks them: the property suite and the fuzzers
// (props/bounds.hpp, props/proved_statements.cpp), the kernel-trace check
// (trace/run_check.cpp) and the proofs' own cross-checks on the simulator
// (proofs/invariants.cpp, proofs/nohz_obligations.cpp). Each bound names the
// obligation that proves it and states its preconditions as proved; a caller
// outside them (more tasks, another preset, a kernel trace) uses the bound as
// a check, not as a theorem.
//
// r = the slice, T = TICK_NSEC, J = how early a tick may come (the model's
// tick_jitter), cdf_i(x) = calc_delta_fair(x) for entity i's weight w_i
// (the table value), W = sum_i w_i, V = avg_vruntime().
#pragma once

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "model/simulation.hpp"
#include "model/types.hpp"
#include "model/weights.hpp"

// WeightedWatch runs after every event in the fuzzers too. Like the property
// suite's observers (fuzz/coverage_ignore.txt) its loops are no guide to new
// model behaviour, so libFuzzer builds leave it uninstrumented.
#if defined(__clang__) && __clang_major__ >= 13
#define EEVDF_NO_SANITIZE_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define EEVDF_NO_SANITIZE_COVERAGE
#endif

namespace eevdf {

// ---------------------------------------------------------------- equal weights

// run_length: a nice-0 curr among n >= 2 queued entities with equal slices,
// r in [0.1, 100] ms, T in [1, 10] ms, 0 <= J < T, picked at any time (6.18):
// the resched comes at most r + T + J - 1 after the pick. The same bound
// holds with wakeups in between (wakeup_wait_bound, PREEMPT_SHORT off: a
// waker arriving at t_w waits at most this less t_w - t0) and counted from
// the enqueue that ends a NO_HZ_FULL stretch alone (nohz_enqueue_bound). It
// bounds a run (switch to switch) when curr is not re-picked at the
// resched; with equal weights that needs curr strictly behind every other
// entity (repick_equal_weights_int, n = 2..6), which jittered ticks allow
// (docs/proofs.md, finding 3).
constexpr u64 request_bound(u64 r, u64 T, u64 J) { return r + T + J - 1; }

// run_whole_equal: n = 2..10 nice-0 hogs sharing one CPU from a common start
// (forked together: lag_invariant's Inv), equal slices r >= 1, T >= 1,
// 0 <= J < T, accounting points at most T + J apart (any tick phase and
// jitter), 6.17+ protection (RUN_TO_PARITY or not), any pick pick_spec
// allows: every run, switch to switch and re-picks included, lasts at most
// r + 2T + 2J - 1 ns; request_bound while curr is not re-picked. A re-pick
// (F1: curr strictly behind every other hog at its renewal) needs tick
// jitter or a pick between ticks; hog_runs_whole_ticks shows there is none
// on exact ticks from a fork on a tick. Not proved for a task that slept,
// migrated (docs/findings.md F11) or shared the CPU with others since the
// start.
constexpr u64 whole_run_bound(u64 r, u64 T, u64 J) { return r + 2 * T + 2 * J - 1; }

// run_length_eps: the same preconditions, the form max(r, T) + eps with
// eps = T + J - 1; eps - 1 does not suffice (run_length_tight).
constexpr u64 request_bound_max(u64 r, u64 T, u64 J) { return std::max(r, T) + T + J - 1; }

// hog_runs_whole_ticks: n = 2..8 nice-0 hogs forked together at t = 0, exact
// ticks (J = 0, tick phase 0), HZ 100/250/300/1000, r in [0.1, 100] ms, 6.18
// defaults: every run lasts exactly ceil(r / T) ticks, a task's first
// ceil((r / 2) / T), so at most r + T - 1 ns = request_bound(r, T, 0); curr
// is never re-picked.
constexpr u64 hog_run_ticks(u64 r, u64 T, bool first) { return first ? (r / 2 + T - 1) / T : (r + T - 1) / T; }

// lag_invariant: n = 3, 4 nice-0 hogs forked together, r >= 1, T >= 1,
// 0 <= J < T, accounting points at most T + J apart, any pick pick_spec
// allows: |V - v_i| <= r + T + J - 1, V the floored mean.
constexpr u64 lag_bound(u64 r, u64 T, u64 J) { return r + T + J - 1; }

// ---------------------------------------------------------------- unequal weights
//
// lag_weighted and run_weighted: n = 2..4 hogs forked together (6.18,
// uniform slices), curr and the others at the nice levels of WEIGHTED_NICES
// in every assignment, except that the n = 4 cases have no nice
// WEIGHTED_NICE_NOT_AT_4 anywhere; any r, T, J with cdf_i(r) >= 1 and
// cdf_i(T + J) >= 1. With U_i = cdf_i(r) + cdf_i(T + J) - 1:
//   lag_weighted  v_i - V <= U_i and w_i (V - v_i) <= sum_{j != i} w_j U_j;
//   run_weighted  one run of curr c (switch to switch, re-picks included)
//                 advances v_c by at most
//                 L_c = U_c + W sum_{j != c} w_j U_j / (W_o w_c), W_o = W - w_c.
// In real time L_c is roughly, not provably, (r + T + J)(1 + (n-1) W / W_o).
inline constexpr int WEIGHTED_NICES[] = {-20, -10, 0, 10, 19};
inline constexpr int WEIGHTED_NICE_NOT_AT_4 = -10;

constexpr bool weighted_nice(int nice)
{
	return std::find(std::begin(WEIGHTED_NICES), std::end(WEIGHTED_NICES), nice) != std::end(WEIGHTED_NICES);
}

// Curr at nice_c with `others` waiting: one of the proved cases.
inline bool weighted_case_proved(int nice_c, const std::vector<int>& others)
{
	if (others.empty() || others.size() > 3 || !weighted_nice(nice_c))
		return false;
	for (int n : others)
		if (!weighted_nice(n) ||
		    (others.size() == 3 && (n == WEIGHTED_NICE_NOT_AT_4 || nice_c == WEIGHTED_NICE_NOT_AT_4)))
			return false;
	return true;
}

// The inverse weight cdf_i is computed with: the table's (sched_prio_to_wmult,
// what set_load_weight() gives the model's tasks) or WMULT_CONST / w (what
// __update_inv_weight() computes when there is none). The latter is one less
// for 14 nice levels, none of WEIGHTED_NICES, so its U_i is at most the
// former's. Both use the 6.6-6.18 __calc_delta, not 7.x's division.
enum class InvWeight : unsigned char { Table, Computed };

// The weighted bounds of hogs at `nices` (entity i at nices[i]).
struct WeightedBounds {
	std::vector<u64> U;        // U_i: v_i - V <= U_i
	std::vector<u64> w;        // w_i, the table weight
	std::vector<u128> others;  // sum_{j != i} w_j U_j: w_i (V - v_i) <= others_i
	u64 W = 0;

	// L_c with curr = entity c, rounded down or up.
	u128 run(size_t c, bool round_up) const
	{
		const u128 den = static_cast<u128>(W - w[c]) * w[c];
		return U[c] + (static_cast<u128>(W) * others[c] + (round_up ? den - 1 : 0)) / den;
	}
};

// slice = r, step = T + J.
inline WeightedBounds weighted_bounds(const std::vector<int>& nices, u64 slice, u64 step, InvWeight inv)
{
	WeightedBounds b;
	for (int nice : nices) {
		LoadWeight lw = inv == InvWeight::Table ? task_load_weight(nice)
							: LoadWeight{scale_load(nice_to_weight(nice)), 0};
		b.U.push_back(calc_delta_fair(slice, lw) + calc_delta_fair(step, lw) - 1);
		b.w.push_back(nice_to_weight(nice));
		b.W += b.w.back();
	}
	for (size_t i = 0; i < nices.size(); i++) {
		u128 o = 0;
		for (size_t j = 0; j < nices.size(); j++)
			if (j != i)
				o += static_cast<u128>(b.w[j]) * b.U[j];
		b.others.push_back(o);
	}
	return b;
}

// Property 8 (lag_weighted and run_weighted in docs/proofs.md): hogs at
// any nice levels. U_i = cdf_i(slice) + cdf_i(TICK_NSEC + jitter) - 1 is
// the most an entity's v can lead V; w_i (V - v_i) <= sum_{j != i} w_j U_j;
// one run (re-picks included) advances curr's v by at most
// L_c = U_c + W sum_{j != c} w_j U_j / (W_o w_c), W_o = W - w_c.
// Also records how close the schedule came to each bound (proofs/ reports
// it beside the theorems). cdf_i uses InvWeight::Computed, and the
// property suite holds it to any preset and nice level, outside the proof's.
struct WeightedWatch : Observer {
	std::vector<u64> U, w, others, L, start;
	std::string bad;  // the first violation, in words
	u64 states = 0, runs = 0;
	double ahead = 0, behind = 0, run = 0;  // the largest observed fraction of each bound

	EEVDF_NO_SANITIZE_COVERAGE WeightedWatch(const Config& cfg, const std::vector<int>& nices)
	{
		const u64 step = cfg.tick_ns + cfg.knobs.tick_jitter;
		const WeightedBounds b = weighted_bounds(nices, cfg.base_slice_ns, step, InvWeight::Computed);
		U = b.U;
		w = b.w;
		for (size_t i = 0; i < nices.size(); i++) {
			others.push_back(static_cast<u64>(b.others[i]));
			L.push_back(static_cast<u64>(b.run(i, false)));
		}
		start.assign(nices.size(), 0);
	}
	EEVDF_NO_SANITIZE_COVERAGE void on_switch(const Simulation& sim, u64, int prev, int next, bool, u64) override
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
	EEVDF_NO_SANITIZE_COVERAGE void on_event(const Simulation& sim, u64) override
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

}  // namespace eevdf
