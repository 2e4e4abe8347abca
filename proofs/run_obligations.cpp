// SPDX-License-Identifier: GPL-2.0-only
// Obligations 1-4 (docs/proofs.md: "Notation and common preconditions", the
// statements and results of groups 1-4, findings 1-3): how long a request
// lasts after its pick (run_length, run_length_eps, run_length_tight,
// hz1000_3ms, hz100_3ms_10ms, no_extra_tick_2p8ms, extra_tick_nice,
// extra_tick_jitter), the re-pick lemma that makes a request bound a run
// bound (repick_*; the integer forms are built in invariants.cpp), and whole
// runs of hogs (hog_runs_whole_ticks, invariants.cpp; slice_below_tick). The
// weighted run bound is with the lag bounds (lag_obligations.cpp).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "model/simulation.hpp"
#include "proofs/encoding.hpp"
#include "proofs/invariants.hpp"
#include "proofs/obligation.hpp"
#include "proofs/obligation_common.hpp"
#include "proofs/query.hpp"
#include "proofs/run_observer.hpp"

namespace eevdf::proofs {
namespace {

// ---------------------------------------------------------------- one request
//
// A nice-0 CPU-bound curr A picked at t0 with vruntime vp and deadline vp+D
// (0 < D <= r: the invariant of placement and renewal), among nq >= 2
// queued entities with the same slice r; B stands for the tree. S is the
// state at an accounting point E ns after the pick with no resched so far;
// the next accounting point (a tick, at most T + J later) is `gap` later.
struct RunStep {
	expr T, r, J, t0, vp, D, E, gap, nq;
	expr init_ok;   // set_protect_slice at the pick gives vprot = deadline
	expr resched;   // update_curr at the next point asked for a resched
	expr inv_next;  // otherwise the invariant holds again
	expr L;         // run time since the pick at the next point
	expr pre;
};

RunStep run_step(Query& q, unsigned mutation, const CdfParams& cdf = {})
{
	expr T = q.show("TICK_NSEC", q.var("T")), r = q.show("slice", q.var("r")), J = q.show("jitter", q.var("J"));
	expr t0 = q.show("t_pick", q.var("t0")), vp = q.show("v_pick", q.var("vp"));
	expr D = q.show("deadline-v_pick", q.var("D")), E = q.show("E(ran before last tick)", q.var("E"));
	expr gap = q.show("gap(to next tick)", q.var("gap")), nq = q.show("nr_queued", q.var("nq"));
	Enc enc(q.c, sym_config(q, r, T, mutation));
	// the rest of the queue at the pick (curr == NULL inside set_next_entity)
	SymSE B{q.var("vB"), q.var("dB"), q.var("vprotB"), r, q.var("vlagB"), q.var("execB"), q.var("sumB"),
		q.var("wB"), CdfParams{}, false, false};
	SymRq pick_rq{q.var("v0p"), q.var("sump"), q.var("loadp"), nq - 1, t0, {B}, std::nullopt, true,
		      q.c.bool_val(false)};
	SymSE A{vp, vp + D, vp, r, q.bv(0), t0, q.var("sumA"), q.bv(1024), cdf, false, false};
	if (!cdf.identity)
		A.w = q.var("wA");
	enc.set_protect_slice(pick_rq, A);
	const expr vprot = A.vprot;
	expr init_ok = vprot == vp + D;

	SymSE S = A;
	S.v = vp + E;
	S.exec_start = t0 + E;
	S.vprot = vp + D;
	SymRq rq{q.var("v0"), q.var("sum"), q.var("load"), nq, t0 + E + gap, {B}, S, true, q.c.bool_val(false)};
	enc.update_curr(rq);
	const expr L = E + gap;
	const SymSE& n = *rq.curr;
	expr inv_next = n.v == vp + L && n.d == vp + D && n.exec_start == t0 + L && n.slice == r && z3::ult(L, D);
	expr pre = q.in(r, 100000, 100000000) && z3::ule(J, T - 1) && q.in(D, 1, ~0ULL) && z3::ule(D, r) &&
		   z3::ult(E, D) && z3::uge(gap, q.bv(1)) && z3::ule(gap, T + J) && q.in(nq, 2, 1u << 20) &&
		   z3::ult(t0, q.bv(1ULL << 62));
	return RunStep{T, r, J, t0, vp, D, E, gap, nq, init_ok, rq.need_resched, inv_next, L, pre};
}

expr max_bv(const expr& a, const expr& b) { return z3::ite(z3::ugt(a, b), a, b); }

// "The request ends (resched) within `bound` of the pick": init, and one
// inductive step of the run.
void assert_run_bound(Query& q, const RunStep& s, const expr& bound)
{
	const expr claim = s.init_ok && z3::implies(s.resched, z3::ule(s.L, bound)) &&
			   z3::implies(!s.resched, s.inv_next);
	q.s.add(s.pre && !claim);
}

Workload hogs(int n, u64 duration) { return hogs_workload(n, duration); }


// Replay: hogs at (hz, slice); confirms if some run reaches at least `want`.
Replay replay_run_at_least(u32 hz, u64 slice, int n, u64 want, const std::string& what, int nice = 0)
{
	Replay rp{config_for(hz, slice), hogs(n, std::max<u64>(200 * want, 100 * NSEC_PER_MSEC)), what, {}, 1};
	for (auto& t : rp.wl.tasks)
		t.nice = nice;
	rp.confirms = [want](const Simulation&, const RunObserver& o, std::string& msg) {
		u64 mx = 0;
		for (u64 m : o.max_run)
			mx = std::max(mx, m);
		msg = "longest run observed " + std::to_string(mx) + " ns (needed >= " + std::to_string(want) + ")";
		return mx >= want;
	};
	return rp;
}

// O1/O2 re-pick lemma: curr C has just renewed its deadline at a tick; the
// tree holds `others` entities with 0 < d - v <= their vslice; some other
// entity has v <= v_C. Equal weights: the pick is not C.
void build_repick(Query& q, unsigned mutation, bool equal)
{
	expr r = q.show("slice", q.var("r"));
	Enc enc(q.c, sym_config(q, r, q.bv(TICK_HZ1000), mutation));
	expr v0 = q.show("v0", q.var("v0"));
	expr pre = q.in(r, 1, 1ULL << 32);
	const int others = equal ? 2 : 1;
	// Equal weights: nice 0 (a symbolic common weight makes every product
	// non-linear and the query times out; any common weight cancels in the
	// eligibility test, and the common vslice r is symbolic).
	expr w_common = q.bv(1024);

	std::vector<SymSE> tree;
	expr sum = q.bv(0), load = q.bv(0), some_behind = q.c.bool_val(false);
	expr vc = q.show("v_curr", q.var("vc")), d_old = q.show("d_curr_old", q.var("dold"));
	expr wc = w_common;
	for (int i = 0; i < others; i++) {
		const std::string n = std::to_string(i);
		expr v = q.show("v_" + n, q.var("v" + n)), d = q.show("d_" + n, q.var("d" + n));
		expr w = w_common;
		const expr vs = r;  // others at nice 0: vslice = r
		pre = pre && z3::slt(q.bv(0), d - v) && z3::sle(d - v, vs) && key_bounded(q, v, v0, 1ULL << 40);
		SymSE se{v, d, v, r, q.bv(0), q.bv(0), q.bv(0), w, CdfParams{}, false, false};
		tree.push_back(se);
		sum = sum + (v - v0) * w;
		load = load + w;
		some_behind = some_behind || z3::sle(v - vc, q.bv(0));
	}
	pre = pre && key_bounded(q, vc, v0, 1ULL << 40) && !z3::slt(vc - d_old, 0) && z3::sle(vc - d_old, q.bv(1ULL << 32));
	expr picked = q.bv(0);
	auto curr_with = [&](const CdfParams& cdf, expr& pick_out, expr& d_out, u64 weight) {
		SymSE c{vc, d_old, d_old, r, q.bv(0), q.bv(0), q.bv(0), q.bv(weight), cdf, false, false};
		enc.update_deadline(c);  // the renewal at this tick
		d_out = c.d;
		SymRq rq{v0, sum, load, q.bv(static_cast<u64>(others + 1)), q.bv(0), tree, c, true, q.c.bool_val(false)};
		pick_out = enc.pick_eevdf(rq, true);
	};
	expr pick = q.c.bv_val(0, 8), dnew = q.bv(0);
	if (equal) {
		curr_with(CdfParams{}, pick, dnew, 1024);
	} else {
		// curr at any nice level: one disjunct per table entry
		expr nice = q.show("nice_curr+20", q.var("nice"));
		pre = pre && z3::ult(nice, q.bv(40));
		pick = q.c.bv_val(PICK_NONE, 8);
		for (int n = MIN_NICE; n <= MAX_NICE; n++) {
			expr p = pick, d = dnew;
			curr_with(cdf_params(task_load_weight(n)), p, d, nice_to_weight(n));
			const expr sel = nice == q.bv(static_cast<u64>(n - MIN_NICE));
			pick = z3::ite(sel, p, pick);
			dnew = z3::ite(sel, d, dnew);
		}
	}
	q.show("d_curr_new", dnew);
	q.s.add(pre && some_behind && pick == q.c.bv_val(PICK_CURR, 8));
}

// Replay of a re-pick refutation: n hogs at HZ=1000 with 3 ms slices,
// hog-0 at `nice`; confirmed when hog-0 is re-picked after a renewal with
// another task not ahead and runs longer than a request and a tick.
Replay replay_heavy_repick(int nice, int n)
{
	Replay rp{config_for(1000, 3000000), hogs(n, 2 * NSEC_PER_SEC),
		  "hog-0 at nice " + std::to_string(nice) + " is re-picked after its renewal", {}, 1};
	rp.wl.tasks[0].nice = nice;
	rp.confirms = [](const Simulation&, const RunObserver& o, std::string& msg) {
		msg = std::to_string(o.repicks) + " re-picks after a renewal with another task behind; longest hog-0 run " +
		      std::to_string(o.max_run.empty() ? 0 : o.max_run[0]) + " ns";
		return o.repicks > 0 && !o.max_run.empty() && o.max_run[0] > 3000000 + 1000000;
	};
	return rp;
}


}  // namespace

std::vector<Obligation> run_obligations()
{
	std::vector<Obligation> v;

	// ---------------------------------------------------------------- 1
	v.push_back({"run_length", "1",
		     "nice-0 curr among n>=2 queued entities with equal slices r in [0.1,100] ms, TICK in [1,10] ms, "
		     "jitter J < TICK, pick at any time: resched <= r + TICK + J - 1 after the pick",
		     true, MUT_NR_QUEUED_OFF_BY_ONE,
		     [](Query& q, unsigned m) {
			     RunStep s = run_step(q, m);
			     q.s.add(q.in(s.T, TICK_HZ1000, TICK_HZ100));
			     assert_run_bound(q, s, s.r + s.T + s.J - 1);
		     },
		     nullptr});
	v.push_back({"run_length_eps", "1",
		     "same preconditions: resched <= max(r, TICK) + eps with eps = TICK + J - 1",
		     true, MUT_RENEW_STRICT,
		     [](Query& q, unsigned m) {
			     RunStep s = run_step(q, m);
			     q.s.add(q.in(s.T, TICK_HZ1000, TICK_HZ100));
			     assert_run_bound(q, s, max_bv(s.r, s.T) + s.T + s.J - 1);
		     },
		     nullptr});
	v.push_back({"run_length_tight", "1",
		     "eps - 1 suffices, i.e. resched <= max(r, TICK) + TICK + J - 2 (refuted with J = 0, picks on "
		     "ticks, HZ in {100,250,300,1000}: a hog run replays it)",
		     false, 0,
		     [](Query& q, unsigned m) {
			     RunStep s = run_step(q, m);
			     expr k = q.show("ticks_before", q.var("k"));
			     q.s.add(q.one_of(s.T, {TICK_HZ100, TICK_HZ250, TICK_HZ300, TICK_HZ1000}) && s.J == 0 &&
				     s.D == s.r && z3::ule(k, q.bv(100)) && s.E == k * s.T && s.gap == s.T);
			     q.s.add(s.pre && s.init_ok && s.resched && z3::ugt(s.L, max_bv(s.r, s.T) + s.T + s.J - 2));
			     q.show("run", s.L);
		     },
		     [](Query& q, const z3::model& m) -> std::optional<Replay> {
			     const u64 T = val(m, q.var("T")), r = val(m, q.var("r"));
			     const u64 L = val(m, q.var("E")) + val(m, q.var("gap"));
			     return replay_run_at_least(hz_of_tick(T), r, 2, L,
							"2 nice-0 hogs run " + std::to_string(L) + " ns > max(r,TICK)+TICK-2");
		     }});
	v.push_back({"repick_equal_weights", "1",
		     "equal weights (any common weight, any common vslice): after curr's renewal at a tick, the pick "
		     "returns another entity whenever some queued entity has v <= v_curr (n = 3)",
		     true, MUT_DEADLINE_FROM_OLD,
		     [](Query& q, unsigned m) { build_repick(q, m, true); }, nullptr});
	v.push_back({"repick_unequal_weights", "1",
		     "the same with curr at any nice level and a nice-0 other entity (refuted: a heavier curr is "
		     "re-picked, so its run spans several requests)",
		     false, 0,
		     [](Query& q, unsigned m) { build_repick(q, m, false); },
		     [](Query& q, const z3::model& m) -> std::optional<Replay> {
			     return replay_heavy_repick(static_cast<int>(val(m, q.var("nice"))) + MIN_NICE, 2);
		     }});

	v.push_back({"repick_equal_weights_int", "1",
		     "equal weights, n = 2..6, any common vslice: after curr's renewal at a tick the pick is another "
		     "entity whenever some waiting entity has v <= v_curr (QF_LIA, the pick rule the encoding check "
		     "holds to the model)",
		     true, MUT_DEADLINE_FROM_OLD, nullptr, nullptr});
	v.push_back({"repick_unequal_weights_int", "1",
		     "the same with curr at any nice level and two nice-0 entities (refuted: a heavier curr with a "
		     "shorter virtual request is re-picked although another entity is behind; replayed)",
		     false, 0, nullptr,
		     [](Query& q, const z3::model& m) -> std::optional<Replay> {
			     int nice = 0;
			     for (auto& [name, e] : q.shown)
				     if (name == "nice_curr")
					     nice = static_cast<int>(static_cast<s64>(val(m, e)));
			     return replay_heavy_repick(nice, 3);
		     }});

	// ---------------------------------------------------------------- 2
	v.push_back({"hog_runs_whole_ticks", "2",
		     "runs, not only requests: n = 2..8 nice-0 hogs forked together, exact ticks (J = 0, phase 0), HZ "
		     "100/250/300/1000, any r in [0.1, 100] ms: every run lasts exactly ceil(r/T) ticks (a task's first "
		     "run ceil((r/2)/T)), so at most r + T - 1 ns; curr is never re-picked (QF_LIA inductive invariant "
		     "over the tick grid)",
		     true, MUT_RENEW_STRICT, nullptr, nullptr});
	v.push_back({"run_whole_equal", "2",
		     "runs, re-picks included: n = 2..10 nice-0 hogs forked together on one CPU, equal slices r >= 1, "
		     "TICK >= 1, 0 <= J < TICK, accounting points <= TICK + J apart (any tick phase and jitter), 6.17+ "
		     "protection (vprot <= d at a pick, kept by a re-pick), any pick pick_spec allows: every run (switch "
		     "to switch) lasts at most r + 2 TICK + 2 J - 1 ns, and at most r + TICK + J - 1 unless curr is "
		     "re-picked (QF_LIA inductive invariant: lag_invariant's Inv and the run's)",
		     true, MUT_RENEW_PROTECT, nullptr, nullptr});
	v.push_back({"slice_below_tick", "2",
		     "nice-0 curr among n >= 2 entities, r in [0.1, 100] ms, TICK in [1, 10] ms, r + J <= TICK (so r <= "
		     "TICK without jitter), pick on a tick: the first tick after the pick asks for the resched (every "
		     "request lasts one tick)",
		     true, MUT_NR_QUEUED_OFF_BY_ONE,
		     [](Query& q, unsigned m) {
			     RunStep s = run_step(q, m);
			     q.s.add(q.in(s.T, TICK_HZ1000, TICK_HZ100) && z3::ule(s.r + s.J, s.T) && s.E == 0 &&
				     z3::uge(s.gap, s.T - s.J));
			     q.s.add(s.pre && !(s.init_ok && s.resched));
		     },
		     nullptr});

	// ---------------------------------------------------------------- 3
	v.push_back({"hz1000_3ms", "3",
		     "HZ=1000, r = 3 ms, no jitter, pick at any time: resched <= 3 ms + one tick after the pick",
		     true, MUT_NR_QUEUED_OFF_BY_ONE,
		     [](Query& q, unsigned m) {
			     RunStep s = run_step(q, m);
			     q.s.add(s.T == q.bv(TICK_HZ1000) && s.r == q.bv(3000000) && s.J == 0);
			     assert_run_bound(q, s, q.bv(4000000));
		     },
		     nullptr});
	v.push_back({"hz100_3ms_10ms", "3",
		     "HZ=100, r = 3 ms: no run of 10 ms (refuted: witness, replayed with 4 hogs)",
		     false, 0,
		     [](Query& q, unsigned m) {
			     RunStep s = run_step(q, m);
			     q.s.add(s.T == q.bv(TICK_HZ100) && s.r == q.bv(3000000) && s.J == 0 && s.E == 0 &&
				     s.D == s.r && s.gap == s.T);
			     q.s.add(s.pre && s.init_ok && s.resched && s.L == q.bv(10000000));
			     q.show("run", s.L);
		     },
		     [](Query&, const z3::model&) -> std::optional<Replay> {
			     return replay_run_at_least(100, 3000000, 4, 10000000, "4 hogs at HZ=100 run 10 ms each");
		     }});

	// ---------------------------------------------------------------- 4
	v.push_back({"no_extra_tick_2p8ms", "4",
		     "HZ=1000, r <= 2.8 ms (the default 4 x 0.70 ms, and any shorter slice), nice-0 curr, pick on a tick, "
		     "each tick early by <= J <= 0.2 ms: the resched comes at the 3rd tick after the pick at the latest",
		     true, MUT_NR_QUEUED_OFF_BY_ONE,
		     [](Query& q, unsigned m) {
			     RunStep s = run_step(q, m);
			     expr u0 = q.show("u0", q.var("u0")), u2 = q.show("u2", q.var("u2")), u3 = q.show("u3", q.var("u3"));
			     q.s.add(s.T == q.bv(TICK_HZ1000) && z3::ule(s.r, q.bv(2800000)) && z3::ule(s.J, q.bv(200000)) &&
				     z3::ule(u0, s.J) && z3::ule(u2, s.J) && z3::ule(u3, s.J) &&
				     s.E == 2 * s.T + u0 - u2 && s.gap == s.T + u2 - u3);
			     q.s.add(s.pre && !(s.init_ok && s.resched));
		     },
		     nullptr});
	v.push_back({"extra_tick_nice", "4",
		     "HZ=1000, r = k x TICK, picks on ticks, no jitter: every request ends by the k-th tick for any curr nice "
		     "(refuted: calc_delta_fair truncation makes k x cdf(TICK) < cdf(k x TICK))",
		     false, 0,
		     [](Query& q, unsigned m) {
			     expr T = q.show("TICK_NSEC", q.var("T")), k = q.show("k", q.var("k"));
			     expr nice = q.show("nice+20", q.var("nice"));
			     expr t0 = q.var("t0"), vp = q.var("vp");
			     expr r = q.show("slice", k * T);
			     Enc enc(q.c, sym_config(q, r, T, m));
			     expr pre = T == q.bv(TICK_HZ1000) && q.in(k, 1, 100) &&
					z3::ule(r, q.bv(100000000)) && z3::ult(nice, q.bv(40)) && nice != q.bv(20) &&
					z3::ult(t0, q.bv(1ULL << 62));
			     expr witness = q.c.bool_val(false);
			     for (int n = MIN_NICE; n <= MAX_NICE; n++) {
				     if (!n)
					     continue;
				     const CdfParams cdf = cdf_params(task_load_weight(n));
				     SymSE B{q.var("vB"), q.var("dB"), q.var("vB"), r, q.bv(0), q.bv(0), q.bv(0), q.bv(1024),
					     CdfParams{}, false, false};
				     SymSE A{vp, vp + enc.calc_delta_fair(r, cdf), vp, r, q.bv(0), t0, q.bv(0),
					     q.bv(nice_to_weight(n)), cdf, false, false};
				     SymRq pick_rq{q.var("v0"), q.var("sum"), q.var("load"), q.bv(1), t0, {B}, std::nullopt, true,
						   q.c.bool_val(false)};
				     enc.set_protect_slice(pick_rq, A);
				     // after k-1 aligned ticks: k-1 charges of cdf(TICK)
				     A.v = vp + (k - 1) * enc.calc_delta_fair(T, cdf);
				     A.exec_start = t0 + (k - 1) * T;
				     SymRq rq{q.var("v0"), q.var("sum"), q.var("load"), q.bv(2), t0 + k * T, {B}, A, true,
					      q.c.bool_val(false)};
				     enc.update_curr(rq);  // the k-th tick
				     const expr no_resched_k = !rq.need_resched;
				     rq.clock = t0 + (k + 1) * T;
				     enc.update_curr(rq);  // the (k+1)-th tick
				     witness = witness ||
					       (nice == q.bv(static_cast<u64>(n - MIN_NICE)) && no_resched_k && rq.need_resched);
			     }
			     q.s.add(pre && witness);
		     },
		     [](Query& q, const z3::model& m) -> std::optional<Replay> {
			     const u64 T = val(m, q.var("T")), k = val(m, q.var("k"));
			     const int nice = static_cast<int>(val(m, q.var("nice"))) + MIN_NICE;
			     return replay_run_at_least(hz_of_tick(T), k * T, 2, (k + 1) * T,
							"2 hogs at nice " + std::to_string(nice) + " with r = " +
								std::to_string(k) + " ticks run " + std::to_string(k + 1) + " ticks",
							nice);
		     }});
	v.push_back({"extra_tick_jitter", "4",
		     "r = k x TICK (HZ=1000), nice-0 curr, pick on a tick, ticks early by <= J: the request ends by the "
		     "k-th tick (refuted with any J > 0: the k-th tick arrives early)",
		     false, 0,
		     [](Query& q, unsigned m) {
			     RunStep s = run_step(q, m);
			     expr k = q.show("k", q.var("k"));
			     expr u0 = q.show("u0", q.var("u0")), uk = q.show("uk", q.var("uk")), uk1 = q.show("uk1", q.var("uk1"));
			     q.s.add(s.T == q.bv(TICK_HZ1000) && q.in(k, 1, 100) && s.r == k * s.T && s.D == s.r &&
				     z3::ule(u0, s.J) && z3::ule(uk, s.J) && z3::ule(uk1, s.J) && z3::ugt(s.J, q.bv(0)) &&
				     s.E == k * s.T + u0 - uk && s.gap == s.T + uk - uk1);
			     q.s.add(s.pre && s.init_ok && s.resched);
			     q.show("run", s.L);
		     },
		     [](Query& q, const z3::model& m) -> std::optional<Replay> {
			     const u64 k = val(m, q.var("k"));
			     const u64 J = std::max<u64>(val(m, q.var("J")), 100000);
			     Replay rp = replay_run_at_least(1000, k * TICK_HZ1000, 2, k * TICK_HZ1000 + J + 1,
							     "2 hogs, tick jitter " + std::to_string(J) + " ns: a request of " +
								     std::to_string(k) + " ticks needs a " + std::to_string(k + 1) +
								     "th tick");
			     rp.cfg.knobs.tick_jitter = J;
			     rp.seeds = 20;
			     return rp;
		     }});
	for (Obligation& o : v) {
		if (o.name == "repick_equal_weights_int" || o.name == "repick_unequal_weights_int") {
			const bool equal = o.name == "repick_equal_weights_int";
			o.logic = "QF_LIA";
			o.cases = equal ? 5 : static_cast<size_t>(MAX_NICE - MIN_NICE + 1);
			o.build_case = [equal](Query& q, unsigned m, size_t k) { build_repick_int(q, m, k, equal); };
		}
		if (o.name == "run_whole_equal") {
			o.logic = "QF_LIA";
			o.cases = run_whole_cases();
			o.build_case = build_run_whole;
			o.crosscheck = crosscheck_run_whole;
		}
		if (o.name == "hog_runs_whole_ticks") {
			o.logic = "QF_LIA";
			o.cases = whole_tick_cases().size();
			o.build_case = build_whole_ticks;
			o.crosscheck = crosscheck_whole_ticks;
		}
	}
	return v;
}

}  // namespace eevdf::proofs
