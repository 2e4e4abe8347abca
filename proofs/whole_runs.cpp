// SPDX-License-Identifier: GPL-2.0-only
// Whole runs of equal-weight hogs, re-picks included (run_whole_equal in
// docs/proofs.md): the integer query and its cross-check on the simulator.
//
// A run is switch to switch. Its first request ends within r + T + J - 1 of
// the pick (run_length); after that the pick may return curr again (F1,
// finding 3), and a re-pick does not renew curr's protection
// (pick_next_task_fair() calls set_next_entity() only for another task), so
// on 6.17+ every later accounting point asks for a resched. Curr is kept at
// one only while it is eligible, and with equal weights and the others not
// moving that means v_c <= the others' mean <= the furthest of them, which
// lag_invariant's Inv puts at most r + T + J - 1 past curr's v at its pick.
// One more step of at most T + J ends the run: r + 2T + 2J - 1.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "model/proved_bounds.hpp"
#include "model/simulation.hpp"
#include "model/workload.hpp"
#include "proofs/encoding.hpp"
#include "proofs/int_rules.hpp"
#include "proofs/invariants.hpp"

namespace eevdf::proofs {

// Case k: n = k + 2 hogs.
size_t run_whole_cases() { return 9; }

// n nice-0 hogs (equal weights: any common weight, here 1), curr = entity 0
// by symmetry. lag_invariant's Inv, with c the current entity:
//   0 < d_i - v_i <= r;  v_i - v_j <= G = r + T + J - 1;  d_c <= min_{j != c} v_j + r.
// RunInv, with the ghosts p = curr's v at its switch-in and `repicked`:
//   p <= v_c;  v_j - p <= G for every waiting j;  vprot <= d_c;  vprot - p <= r;  v_c - p <= G;
//   not repicked => v_c - p <= r - 1.
// A step: curr advances a in [0, T + J] (update_curr at an accounting point:
// a tick at any phase, early by at most J); the resched comes on a renewal
// or once v >= vprot, and any other resched is allowed too. Then the pick:
// another entity as pick_spec allows (a new run: p = its v, vprot <= its d,
// set_protect_slice with any min slice), or curr again, if pick_spec allows
// it or it is still protected (pick_eevdf_protect(1)): vprot unchanged.
// Claims: Inv and RunInv hold from the fork and after every step, and the
// step's v - p, the run's length so far at nice 0, is at most
// r + 2T + 2J - 1 (r + T + J - 1 while curr was never re-picked).
void build_run_whole(Query& q, unsigned m, size_t k)
{
	const int n = static_cast<int>(k) + 2;
	const std::string tag = "n" + std::to_string(n) + ":";
	auto iv = [&](const std::string& x) { return q.show(tag + x, q.ivar(tag + x)); };
	const expr r = iv("slice"), T = iv("TICK_NSEC"), J = iv("jitter");
	const expr G = r + T + J - 1;
	const expr base = r >= 1 && T >= 1 && J >= 0 && J < T;
	std::vector<expr> v, d;
	for (int i = 0; i < n; i++) {
		v.push_back(iv("v" + std::to_string(i)));
		d.push_back(iv("d" + std::to_string(i)));
	}
	const std::vector<expr> ones(static_cast<size_t>(n), q.ival(1));
	auto inv = [&](const std::vector<expr>& vv, const std::vector<expr>& dd, size_t c) {
		expr x = q.c.bool_val(true);
		for (size_t i = 0; i < vv.size(); i++) {
			x = x && vv[i] < dd[i] && dd[i] - vv[i] <= r;
			for (size_t j = 0; j < vv.size(); j++)
				if (i != j) {
					x = x && vv[i] - vv[j] <= G;
					if (i == c)
						x = x && dd[c] <= vv[j] + r;
				}
		}
		return x;
	};
	auto run_inv = [&](const std::vector<expr>& vv, const std::vector<expr>& dd, const expr& vprot, const expr& p,
			   const expr& repicked) {
		expr x = p <= vv[0] && vprot <= dd[0] && vprot - p <= r && vv[0] - p <= G &&
			 z3::implies(!repicked, vv[0] - p <= r - 1);
		for (size_t j = 1; j < vv.size(); j++)
			x = x && vv[j] - p <= G;
		return x;
	};
	const expr vprot = iv("vprot_curr"), p = iv("p_curr");
	const expr repicked = q.c.bool_const((tag + "repicked").c_str());

	// the fork: every hog at one V, 0 < d_i - v <= r (PLACE_DEADLINE_INITIAL
	// gives half a request), entity 0 picked with vprot <= its deadline
	expr init = base && p == v[0] && vprot <= d[0] && !repicked;
	for (int i = 0; i < n; i++)
		init = init && v[static_cast<size_t>(i)] == v[0] && d[static_cast<size_t>(i)] > v[0] &&
		       d[static_cast<size_t>(i)] - v[0] <= r;
	expr bad = init && !(inv(v, d, 0) && run_inv(v, d, vprot, p, repicked));

	// a new run: Inv with c the picked entity, its v the ghost, any vprot <= d
	bad = bad ||
	      (base && inv(v, d, 0) && p == v[0] && vprot <= d[0] && !repicked && !run_inv(v, d, vprot, p, repicked));

	// a step of curr
	const expr a = iv("advance");
	const rules::Step st = rules::update_curr_step(v[0], d[0], a, r, vprot);
	std::vector<expr> v2 = v, d2 = d;
	v2[0] = st.v;
	d2[0] = st.d;
	const rules::Queue Q2{v2, d2, ones};
	// MUT_RENEW_PROTECT: a renewal protects the new request (vprot = d), as if
	// a re-pick were a fresh pick
	const expr vprot2 = (m & MUT_RENEW_PROTECT) ? z3::ite(st.renew, st.d, vprot) : vprot;
	const expr rs = q.c.bool_const((tag + "resched").c_str());
	const expr pre = base && inv(v, d, 0) && run_inv(v, d, vprot, p, repicked) && a >= 0 && a <= T + J &&
			 z3::implies(st.resched, rs);
	// the run so far, at this accounting point
	bad = bad || (pre && st.v - p > G + T + J);
	bad = bad || (pre && !repicked && st.v - p > G);
	// no resched: curr runs on
	bad = bad || (pre && !rs && !(inv(v2, d2, 0) && run_inv(v2, d2, vprot2, p, repicked)));
	// resched, curr kept: pick_spec allows it, or it is still protected
	const expr kept = rules::spec_pick(Q2, 0) || rules::protected_curr(Q2, 0, vprot2);
	bad = bad || (pre && rs && kept && !(inv(v2, d2, 0) && run_inv(v2, d2, vprot2, p, q.c.bool_val(true))));
	// resched, another entity picked: a new run from Inv with that entity as c
	for (int j = 1; j < n; j++)
		bad = bad || (pre && rs && rules::spec_pick(Q2, static_cast<size_t>(j)) &&
			      !inv(v2, d2, static_cast<size_t>(j)));
	q.s.add(bad);
}

// The simulator's hogs against the bound: every run of n nice-0 hogs at
// several HZ, slices, jitters and tick phases, with the longest run as a
// fraction of r + 2T + 2J - 1 and the runs longer than one request.
bool crosscheck_run_whole(std::string& msg)
{
	struct Runs : Observer {
		u64 bound = 0, request = 0, since = 0, runs = 0, over_request = 0, bad = 0;
		double worst = 0;
		void on_switch(const Simulation&, u64 t, int prev, int, bool, u64) override
		{
			if (prev >= 0) {
				const u64 len = t - since;
				runs++;
				over_request += len > request;
				bad += len > bound;
				worst = std::max(worst, static_cast<double>(len) / static_cast<double>(bound));
			}
			since = t;
		}
	};
	u64 sims = 0, runs = 0, over = 0, bad = 0;
	double worst = 0;
	for (u32 hz : {100u, 250u, 1000u})
		for (int n = 2; n <= 8; n += 3)
			for (u64 r : {100000ULL, 1400000ULL, 2800000ULL, 4000000ULL, 10000000ULL})
				for (u64 jit_pct : {0ULL, 20ULL})
					for (u64 phase_pct : {0ULL, 37ULL}) {
						Config cfg = config_for(hz, r);
						cfg.knobs.tick_jitter = cfg.tick_ns * jit_pct / 100;
						cfg.knobs.tick_phase =
							cfg.tick_ns * phase_pct / 100 + (phase_pct ? 1 : 0);
						Runs o;
						o.bound = whole_run_bound(r, cfg.tick_ns, cfg.knobs.tick_jitter);
						o.request = request_bound(r, cfg.tick_ns, cfg.knobs.tick_jitter);
						Simulation sim(cfg, hogs_workload(n, 2 * NSEC_PER_SEC));
						sim.add_observer(&o);
						sim.run();
						sims++;
						runs += o.runs;
						over += o.over_request;
						bad += o.bad;
						worst = std::max(worst, o.worst);
					}
	char buf[320];
	std::snprintf(
		buf, sizeof buf,
		"%llu simulations (2/5/8 hogs, HZ 100/250/1000, r 0.1-10 ms, jitter 0/20%%, tick phase 0/37%%): "
		"%llu runs, %llu longer than one request (re-picked), %llu beyond the bound; longest = %.2f of it",
		static_cast<unsigned long long>(sims), static_cast<unsigned long long>(runs),
		static_cast<unsigned long long>(over), static_cast<unsigned long long>(bad), worst);
	msg = buf;
	return bad == 0 && over > 0;
}

}  // namespace eevdf::proofs
