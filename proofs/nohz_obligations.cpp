// SPDX-License-Identifier: GPL-2.0-only
// Obligation 8 (docs/proofs.md: "Obligations 5-8: what exactly is proved",
// O8): NO_HZ_FULL. After a stretch alone with the tick stopped, the enqueue
// of a second task (nohz_enqueue_init, nohz_enqueue_init_shrink) and the
// steps of the restarted tick (nohz_enqueue_bound, cross-checked on the
// simulator) keep obligation 1's r + TICK + J - 1, counted from the
// enqueue; nohz_enqueue_tight shows it is tight.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "model/proved_bounds.hpp"
#include "model/simulation.hpp"
#include "proofs/encoding.hpp"
#include "proofs/obligation.hpp"
#include "proofs/obligation_common.hpp"
#include "proofs/query.hpp"
#include "proofs/run_observer.hpp"

namespace eevdf::proofs {
namespace {

// NO_HZ_FULL: the enqueue of a second task after a stopped tick, then the
// accounting points of the restarted tick. Inv(x): x ns after the enqueue,
// x + max(vprot - v, 1) <= r.
void build_nohz(Query& q, unsigned m, int mode)  // 0 enqueue, 3 enqueue + update_protect_slice, 1 step, 2 tight
{
	expr T = q.show("TICK_NSEC", q.var("T")), r = q.show("slice", q.var("r")), J = q.show("jitter", q.var("J"));
	SymConfig cfg = sym_config(q, r, T, m);
	cfg.features.set(Feature::NO_HZ_FULL, true);
	Enc enc(q.c, cfg);
	auto inv = [&](const SymSE& S, const expr& x, const expr& te) {
		const expr rem = S.vprot - S.v;
		return z3::ult(x, r) && (z3::slt(rem, q.bv(1)) || z3::sle(rem, r - x)) && z3::sge(rem, q.bv(static_cast<u64>(-(1LL << 62)))) &&
		       S.exec_start == te + x;
	};
	const expr te = q.show("t_enqueue", q.var("te"));
	const expr base = q.in(r, 100000, 100000000) && q.in(T, TICK_HZ1000, TICK_HZ100) && z3::ule(J, T - 1) &&
			  z3::ult(te, q.bv(1ULL << 62));
	// (1) the enqueue: A alone since its last accounting at xa (no tick).
	// A's state is written as va plus offsets (d = va + a, vprot = va + p,
	// xa = te - e): a bijection of the free 64-bit values, so nothing is
	// lost, but the solver sees the differences the claim is about.
	expr va = q.show("v_A", q.var("va")), a = q.var("d_A-v_A"), p = q.var("vprot_A-v_A"), e = q.var("te-xa");
	expr dA = q.show("d_A", va + a), pA = q.show("vprot_A", va + p), xa = q.show("last_accounting", te - e);
	SymSE A{va, dA, pA, r, q.bv(0), xa, q.var("sumA"), q.bv(1024), CdfParams{}, false, false};
	SymRq lone{q.var("v0"), q.var("sum"), q.bv(0), q.bv(1), te, {}, A, true, q.c.bool_val(false)};  // A alone: tree load 0
	enc.update_curr(lone);  // enqueue_entity(B) -> update_curr(), nr_queued == 1
	SymSE S1 = *lone.curr;
	const expr ms = q.show("min_vslice", q.var("min_vslice"));
	if (mode == 3)  // update_protect_slice at the wakeup (B's slice shorter, B not picked)
		enc.limit_protect_slice(S1, ms);
	const expr pre1 = base && z3::ule(xa, te) && z3::slt(q.bv(0), dA - va) && z3::sle(dA - va, r) &&
			  z3::ult(te - xa, q.bv(1ULL << 61)) && z3::sle(pA - dA, q.bv(0)) &&
			  z3::sge(pA - va, q.bv(static_cast<u64>(-(1LL << 61)))) && z3::ult(ms, q.bv(1ULL << 40));
	const expr claim1 = inv(S1, q.bv(0), te);
	// (2) a step of the restarted tick (or any later update_curr), nr_queued >= 2
	expr x = q.show("x(since enqueue)", q.var("x")), g = q.show("gap", q.var("g")), nq = q.var("nq");
	SymSE S{q.show("v", q.var("v")), q.var("d"), q.show("vprot", q.var("vprot")), r, q.bv(0), te + x, q.var("sumS"),
		q.bv(1024), CdfParams{}, false, false};
	// the load only feeds sum and v0 (update_min_vruntime), which the claim does not read: a constant keeps the
	// product linear
	SymRq rq{q.var("v0s"), q.var("sums"), q.bv(1024), nq, te + x + g, {}, S, true, q.c.bool_val(false)};
	enc.update_curr(rq);
	const expr pre2 = base && inv(S, x, te) && z3::uge(g, q.bv(1)) && z3::ule(g, T + J) && q.in(nq, 2, 1u << 20) &&
			  z3::ult(x, q.bv(1ULL << 32)) && z3::ult(g, q.bv(1ULL << 32));  // implied by x < r, g <= TICK + J
	const expr bound = r + T + J - 1;
	const expr claim2 = z3::implies(rq.need_resched, z3::ule(x + g, bound)) &&
			    z3::implies(!rq.need_resched, inv(*rq.curr, x + g, te));
	if (mode == 0 || mode == 3) {
		q.s.add(pre1 && !claim1);
		return;
	}
	if (mode == 1) {
		q.s.add(pre2 && !claim2);
		return;
	}
	expr k = q.show("k", q.var("k"));
	q.s.add(q.one_of(T, {TICK_HZ100, TICK_HZ250, TICK_HZ1000}) && J == 0 && q.in(k, 1, 100) && r == k * T &&
		pre2 && rq.need_resched && z3::ugt(x + g, bound - 1));
	q.show("wait", x + g);
}

// Executable cross-check of nohz_enqueue_bound: A alone with the tick stopped
// for a while, then B; B's wait is within r + TICK + J - 1.
bool crosscheck_nohz(std::string& msg)
{
	u64 runs = 0, worst_margin = ~0ULL, bad = 0;
	for (u32 hz : {1000u, 250u})
		for (u64 r : {700000ULL, 3000000ULL, 10000000ULL})
			for (u64 jit_pct : {0ULL, 30ULL})
				for (u64 alone : {0ULL, 2ULL, 50ULL})
					for (u64 off : {1ULL, 999999ULL}) {
						Config cfg = config_for(hz, r);
						cfg.features.set(Feature::NO_HZ_FULL, true);
						cfg.knobs.tick_jitter = cfg.tick_ns * jit_pct / 100;
						const u64 T = cfg.tick_ns, J = cfg.knobs.tick_jitter;
						const u64 te = alone * T + off % T + 1;
						Workload wl;
						wl.duration = te + 2 * (r + 2 * T);
						wl.tasks = {TaskSpec{"A", 0, 0, 0, LOOP_FOREVER, {Phase{"hog", LOOP_FOREVER, {Event{Event::Kind::Run, RUN_FOREVER}}}}},
							    TaskSpec{"B", 0, 0, te, LOOP_FOREVER, {Phase{"hog", LOOP_FOREVER, {Event{Event::Kind::Run, RUN_FOREVER}}}}}};
						for (u64 seed = 0; seed < 1; seed++) {
							cfg.seed = seed;
							Simulation sim(cfg, wl);
							RunObserver o;
							sim.add_observer(&o);
							sim.run();
							runs++;
							const u64 w = o.max_wait.size() > 1 ? o.max_wait[1] : ~0ULL;
							const u64 bound = request_bound(r, T, J);
							if (w > bound || o.first_wakeup_ticks != 0)
								bad++;
							else
								worst_margin = std::min(worst_margin, bound - w);
						}
					}
	msg = std::to_string(runs) + " NO_HZ_FULL simulations (HZ 1000/250, r 0.7/3/10 ms, jitter 0/30%, A alone 0-50 ticks): " +
	      std::to_string(bad) + " exceed r + TICK + J - 1 or ticked while alone; least margin " + std::to_string(worst_margin) + " ns";
	return bad == 0;
}

}  // namespace

std::vector<Obligation> nohz_obligations()
{
	std::vector<Obligation> v;

	// ---------------------------------------------------------------- 8
	v.push_back({"nohz_enqueue_bound", "8",
		     "(step; the enqueue is nohz_enqueue_init) NO_HZ_FULL: lone nice-0 curr (0 < d - v <= r, vprot <= d at its last accounting), tick stopped for "
		     "any time < 2^62 ns; a second task is enqueued (update_curr with nr_queued = 1, the wakeup may shrink "
		     "vprot), the tick restarts (first tick <= TICK later, then <= TICK + J apart): resched <= r + TICK + J - 1 "
		     "after the enqueue",
		     true, MUT_NR_QUEUED_OFF_BY_ONE,
		     [](Query& q, unsigned m) { build_nohz(q, m, 1); }, nullptr});
	v.push_back({"nohz_enqueue_init", "8",
		     "NO_HZ_FULL: the state right after the enqueue (A's update_curr with nr_queued = 1 after any stopped-tick "
		     "time < 2^61 ns, vprot not touched by the wakeup) satisfies Inv(0): max(vprot - v, 1) <= r",
		     true, MUT_EXEC_START_STALE, [](Query& q, unsigned m) { build_nohz(q, m, 0); }, nullptr});
	v.push_back({"nohz_enqueue_init_shrink", "8",
		     "the same when the wakeup's update_protect_slice shrinks vprot to v + cdf(min slice) (any min vslice < 2^40): "
		     "Inv(0) holds",
		     true, MUT_PROTECT_MAX, [](Query& q, unsigned m) { build_nohz(q, m, 3); }, nullptr});
	v.push_back({"nohz_enqueue_tight", "8",
		     "the NO_HZ_FULL bound minus 1 ns (refuted: J = 0, curr picked at the enqueue 1 ns after a tick, "
		     "r = k TICK; replayed with NO_HZ_FULL: the second task waits r + TICK - 1 and no tick ran while alone)",
		     false, 0, [](Query& q, unsigned m) { build_nohz(q, m, 2); },
		     [](Query& q, const z3::model& md) -> std::optional<Replay> {
			     return replay_wait_tight(hz_of_tick(val(md, q.var("T"))), val(md, q.var("r")), true);
		     }});
	for (Obligation& o : v) {
		if (o.name == "nohz_enqueue_bound")
			o.crosscheck = crosscheck_nohz;
		if (o.name == "nohz_enqueue_init_shrink")
			o.bitblast = true;
	}
	return v;
}

}  // namespace eevdf::proofs
