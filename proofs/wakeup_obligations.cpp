// SPDX-License-Identifier: GPL-2.0-only
// Obligation 7 (docs/proofs.md: "Obligations 5-8: what exactly is proved",
// O7 and O7 without PREEMPT_SHORT): wake-up preemption. A shorter-slice
// waker meeting Cond preempts and is the next pick (wakeup_short_preempts;
// without PREEMPT_SHORT it waits, wakeup_no_short_waits), a waker with the
// earliest deadline is the pick of the next resched (wakeup_waker_picked,
// built in invariants.cpp; its wakeup half on the 64-bit encoding,
// wakeup_waker_picked_bv), and how long a waker waits for curr's resched
// (wakeup_wait_bound, wakeup_wait_tight).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "model/simulation.hpp"
#include "proofs/encoding.hpp"
#include "proofs/obligation.hpp"
#include "proofs/obligation_common.hpp"
#include "proofs/query.hpp"
#include "proofs/run_observer.hpp"
#include "proofs/invariants.hpp"

namespace eevdf::proofs {
namespace {

// ---------------------------------------------------------------- O7, O8: wakeups
// check_preempt_wakeup_fair for a waker P (the last-inserted tree entity)
// against curr and two other queued entities; every value free.
void build_wakeup(Query& q, unsigned m, bool preempt_short)
{
	SymConfig cfg = sym_config(q, q.var("base_slice"), q.bv(TICK_HZ1000), m);
	cfg.features.set(Feature::PREEMPT_SHORT, preempt_short);
	Enc enc(q.c, cfg);
	SymSE C = free_se(q, "curr"), B0 = free_se(q, "b0"), B1 = free_se(q, "b1"), P = free_se(q, "waker");
	const unsigned pi = 2;
	// nice-0 weights: the load is a constant (products by constants); sum and every value are free
	for (SymSE* e : {&C, &B0, &B1, &P})
		e->w = q.bv(1024);
	SymRq rq{q.show("v0", q.var("v0")), q.var("sum"), q.bv(3 * 1024), q.bv(4), q.show("clock", q.var("clock")),
		 {B0, B1, P}, C, true, q.c.bool_val(false)};
	SymRq post = rq;
	enc.update_curr(post);  // the state the wakeup's pick sees
	const SymSE& p = post.tree[pi];
	const expr shorter = z3::ult(p.slice, post.curr->slice);
	expr cond = shorter && enc.vruntime_eligible(post, p.v);
	for (unsigned i = 0; i < pi; i++)
		cond = cond && z3::implies(enc.vruntime_eligible(post, post.tree[i].v), z3::slt(p.d - post.tree[i].d, 0));
	cond = cond && z3::implies(enc.vruntime_eligible(post, post.curr->v), !z3::slt(post.curr->d - p.d, 0));
	SymRq after = rq;
	const expr wake_pick = enc.check_preempt_wakeup_fair(after, pi);
	// __schedule() at the same clock: update_curr() has nothing to account
	// (delta 0), then pick_eevdf() with protection (cancelled by the wakeup)
	const expr next = enc.pick_eevdf(after, true);
	const expr idx = q.c.bv_val(pi, 8);
	if (!preempt_short)  // the refutation: look for it where curr's update_curr is a no-op and all keys are 0
		q.s.add(C.exec_start == rq.clock && rq.sum == 0 && C.v == rq.v0 && B0.v == rq.v0 && B1.v == rq.v0 && P.v == rq.v0);
	// no s64 overflow (every |key| * W < 2^63, before and after the
	// wakeup's update_curr) and deadlines within +-2^61 of one another, as
	// pick_spec: the preconditions under which the tree's search is the
	// first eligible entity in tree order
	const u64 kmax = static_cast<u64>(INT64_MAX) / (4 * 1024);
	expr pre = key_bounded(q, C.v, rq.v0, kmax) && key_bounded(q, post.curr->v, post.v0, kmax);
	for (const SymSE* e : {&B0, &B1, &P})
		pre = pre && key_bounded(q, e->v, rq.v0, kmax) && key_bounded(q, e->v, post.v0, kmax);
	for (const SymSE* e : {&B0, &B1, &P})
		pre = pre && key_bounded(q, e->d, C.d, 1ULL << 61) && key_bounded(q, e->d, post.curr->d, 1ULL << 61);
	const expr claim = z3::implies(cond, after.need_resched && next == idx) &&
			   z3::implies(wake_pick == idx && shorter, cond);
	q.s.add(pre && !claim);
}

// O7, the pick: a waker P that is eligible with the earliest deadline of the
// queue (curr included) right after the wakeup's update_curr gets the CPU at
// the next resched, whether the wakeup itself preempts or the resched comes
// later from update_curr (a tick). Curr C and two other entities B0, B1, all
// nice 0; sums consistent with the keys; keys within +-2^40 of v0 (no s64
// overflow in key * load, O6's precondition). Checked with and without
// PREEMPT_SHORT (any waker slice).
void build_wakeup_picked(Query& q, unsigned m, int part)  // 1 the wakeup preempts, 2 a later resched (times out)
{
	const expr r = q.show("slice", q.var("r")), tw = q.show("t_wakeup", q.var("tw"));
	const expr e = q.show("since_last_accounting", q.var("e")), dt = q.show("wakeup_to_resched", q.var("dt"));
	const expr v0 = q.show("v0", q.var("v0"));
	expr pre = q.in(r, 100000, 100000000) && z3::ule(e, q.bv(1ULL << 38)) && z3::ule(dt, q.bv(1ULL << 38));
	// every value as v0 plus an offset (a bijection of the 64-bit values): the
	// solver sees the keys the kernel computes
	auto off = [&](const std::string& n, u64 mag) {
		const expr k = q.var(n + "-v0");
		pre = pre && z3::sle(q.bv(static_cast<u64>(-static_cast<s64>(mag))), k) && z3::sle(k, q.bv(mag));
		return q.show(n, v0 + k);
	};
	auto ent = [&](const std::string& n) {
		SymSE se = free_se(q, n);
		se.v = off("v_" + n, 1ULL << 40);
		se.d = off("d_" + n, 1ULL << 41);
		se.vprot = off("vprot_" + n, 1ULL << 41);
		se.w = q.bv(1024);
		return se;
	};
	SymSE C = ent("curr"), B0 = ent("b0"), B1 = ent("b1"), P = ent("waker");
	C.exec_start = tw - e;
	C.slice = r;
	// set_protect_slice and update_protect_slice keep vprot <= d (wrapped)
	pre = pre && z3::sle(C.vprot - C.d, q.bv(0));
	const expr sum = (B0.v - v0) * 1024 + (B1.v - v0) * 1024 + (P.v - v0) * 1024;
	const SymRq rq{v0, sum, q.bv(3 * 1024), q.bv(4), tw, {B0, B1, P}, C, true, q.c.bool_val(false)};
	const unsigned pi = 2;
	const expr idx = q.c.bv_val(pi, 8);
	SymConfig cfg = sym_config(q, r, q.bv(TICK_HZ1000), m);
	cfg.features.set(Feature::PREEMPT_SHORT, false);
	Enc enc(q.c, cfg);
	SymRq post = rq;
	enc.update_curr(post);  // the state the wakeup's pick sees
	const SymSE& p = post.tree[pi];
	expr cond = enc.vruntime_eligible(post, p.v) && z3::slt(p.d - post.curr->d, 0);
	for (unsigned i = 0; i < pi; i++)
		cond = cond && z3::slt(p.d - post.tree[i].d, 0);
	SymRq wake = rq;
	enc.check_preempt_wakeup_fair(wake, pi);
	// no preemption at the wakeup: curr runs on to its next accounting point
	// that requests a resched (earlier ones only advance v: nice 0)
	SymRq later = wake;
	later.clock = tw + dt;
	enc.update_curr(later);
	if (part == 1)
		q.s.add(pre && cond && wake.need_resched && enc.pick_eevdf(wake, true) != idx);
	else
		q.s.add(pre && cond && !wake.need_resched && later.need_resched && enc.pick_eevdf(later, true) != idx);
}

// A nice-0 curr picked at t0 (vprot from set_protect_slice with any other
// slice queued), at an accounting point E after the pick; the next one is a
// tick or a wakeup's update_curr, gap <= TICK + J later. No PREEMPT_SHORT.
void build_wakeup_wait(Query& q, unsigned m, bool tight)
{
	expr T = q.show("TICK_NSEC", q.var("T")), r = q.show("slice", q.var("r")), J = q.show("jitter", q.var("J"));
	expr t0 = q.show("t_pick", q.var("t0")), vp = q.show("v_pick", q.var("vp"));
	expr D = q.show("deadline-v_pick", q.var("D")), P = q.show("vprot-v_pick", q.var("P"));
	expr E = q.show("E", q.var("E")), gap = q.show("gap", q.var("gap")), nq = q.show("nr_queued", q.var("nq"));
	SymConfig cfg = sym_config(q, r, T, m);
	cfg.features.set(Feature::PREEMPT_SHORT, false);
	Enc enc(q.c, cfg);
	SymSE B{q.var("vB"), q.var("dB"), q.var("vprotB"), q.var("sliceB"), q.bv(0), q.var("execB"), q.var("sumB"),
		q.var("wB"), CdfParams{}, false, false};
	SymRq pick_rq{q.var("v0p"), q.var("sump"), q.var("loadp"), nq - 1, t0, {B}, std::nullopt, true, q.c.bool_val(false)};
	SymSE A{vp, vp + D, vp, r, q.bv(0), t0, q.var("sumA"), q.bv(1024), CdfParams{}, false, false};
	enc.set_protect_slice(pick_rq, A);
	const expr Pp = A.vprot - vp;
	const expr init_ok = !z3::slt(Pp, 0) && z3::sle(Pp, D);
	SymSE S = A;
	S.v = vp + E;
	S.exec_start = t0 + E;
	S.vprot = vp + P;
	SymSE W{q.var("vW"), q.var("dW"), q.var("vprotW"), q.var("sliceW"), q.bv(0), q.var("execW"), q.var("sumW"),
		q.var("wW"), CdfParams{}, false, false};
	B.w = q.bv(1024);
	W.w = q.bv(1024);
	// nice-0 queue: the load is a constant (the claim reads eligibility only through the wakeup's pick)
	SymRq rq{q.var("v0"), q.var("sum"), q.bv(2048), nq, t0 + E + gap, {B, W}, S, true, q.c.bool_val(false)};
	SymRq tick = rq;
	enc.update_curr(tick);
	SymRq wake = rq;
	enc.check_preempt_wakeup_fair(wake, 1);
	const expr L = E + gap;
	auto inv_next = [&](const SymRq& x) {
		const SymSE& n = *x.curr;
		return n.v == vp + L && n.d == vp + D && n.vprot == vp + P && n.exec_start == t0 + L && z3::ult(L, P);
	};
	const expr pre = q.in(r, 100000, 100000000) && q.in(T, TICK_HZ1000, TICK_HZ100) && z3::ule(J, T - 1) &&
			 q.in(D, 1, ~0ULL) && z3::ule(D, r) && z3::ule(P, D) && (z3::ult(E, P) || E == 0) && z3::ult(E, D) &&
			 z3::uge(gap, q.bv(1)) && z3::ule(gap, T + J) && q.in(nq, 2, 1u << 20) && z3::ult(t0, q.bv(1ULL << 62));
	const expr bound = r + T + J - 1;
	if (!tight) {
		expr claim = init_ok;
		for (const SymRq* x : {&tick, &wake})
			claim = claim && z3::implies(x->need_resched, z3::ule(L, bound)) && z3::implies(!x->need_resched, inv_next(*x));
		q.s.add(pre && !claim);
		return;
	}
	expr k = q.show("k", q.var("k"));
	q.s.add(q.one_of(T, {TICK_HZ100, TICK_HZ250, TICK_HZ1000}) && J == 0 && D == r && P == r &&
		q.in(k, 1, 100) && r == k * T && E == k * T - 1 && gap == T);
	q.s.add(pre && init_ok && tick.need_resched && z3::ugt(L, bound - 1));
	q.show("wait", L);
}

}  // namespace

// Two tasks: A runs T/2, sleeps until 2 TICK + 1 ns and is picked alone; B
// is created at the same instant. B waits for A's whole request.
std::optional<Replay> replay_wait_tight(u32 hz, u64 r, bool nohz)
{
	// rt-app times are whole microseconds: the wakeup is at 2 TICK, and the
	// tick grid is shifted by TICK - 1 ns so that it falls 1 ns after a tick.
	const u64 T = tick_nsec(hz), tw = 2 * T;
	Replay rp{config_for(hz, r), Workload{}, "", {}, 1};
	rp.cfg.knobs.tick_phase = T - 1;
	rp.cfg.features.set(Feature::NO_HZ_FULL, nohz);
	rp.wl.duration = tw + r + 10 * T;
	TaskSpec a{"A", 0, 0, 0, 1,
		   {Phase{"first", 1, {Event{Event::Kind::Run, 500000}, Event{Event::Kind::Sleep, tw - 500000}}},
		    Phase{"hog", LOOP_FOREVER, {Event{Event::Kind::Run, RUN_FOREVER}}}}};
	TaskSpec b{"B", 0, 0, tw, LOOP_FOREVER, {Phase{"hog", LOOP_FOREVER, {Event{Event::Kind::Run, RUN_FOREVER}}}}};
	rp.wl.tasks = {a, b};
	const u64 want = r + T - 1;
	rp.what = std::string(nohz ? "NO_HZ_FULL: " : "") + "B, woken at A's pick, waits r + TICK - 1 = " + std::to_string(want) + " ns";
	rp.confirms = [want, nohz](const Simulation&, const RunObserver& o, std::string& msg) {
		const u64 w = o.max_wait.size() > 1 ? o.max_wait[1] : 0;
		msg = "B waited " + std::to_string(w) + " ns; ticks before B's enqueue: " + std::to_string(o.first_wakeup_ticks);
		return w == want && (!nohz || o.first_wakeup_ticks == 0);
	};
	return rp;
}

std::vector<Obligation> wakeup_obligations()
{
	std::vector<Obligation> v;

	// ---------------------------------------------------------------- 7
	v.push_back({"wakeup_short_preempts", "7",
		     "PREEMPT_SHORT, 6.18 defaults: a waker P just enqueued next to curr and 2 other entities, nice-0 "
		     "weights, no key * weight overflow (every |v - v0| * W < 2^63, before and after the wakeup's "
		     "update_curr), deadlines within +-2^61 of each other, every other value free: if P has a shorter "
		     "slice than curr, is eligible after update_curr and is earlier in tree order than every other "
		     "eligible queued entity (d_p <= d_curr if curr is eligible), check_preempt_wakeup_fair requests a "
		     "resched and P is the next pick; conversely the wakeup's pick returns P only under that condition",
		     true, MUT_WAKEUP_IGNORE_SHORT,
		     [](Query& q, unsigned m) { build_wakeup(q, m, true); }, nullptr});
	v.push_back({"wakeup_no_short_waits", "7",
		     "the same without PREEMPT_SHORT (refuted: a protected curr keeps the CPU; replayed: a 0.1 ms-slice "
		     "sleeper meeting the condition is not run at its wakeup)",
		     false, 0, [](Query& q, unsigned m) { build_wakeup(q, m, false); },
		     [](Query&, const z3::model&) -> std::optional<Replay> {
			     Replay rp{config_for(1000, 3000000), Workload{}, "", {}, 1};
			     rp.cfg.features.set(Feature::PREEMPT_SHORT, false);
			     rp.wl.duration = 2 * NSEC_PER_SEC;
			     TaskSpec hog{"hog", 0, 0, 0, LOOP_FOREVER, {Phase{"run", LOOP_FOREVER, {Event{Event::Kind::Run, RUN_FOREVER}}}}};
			     TaskSpec shorty{"short", 0, 100000, 0, LOOP_FOREVER,
					     {Phase{"p", LOOP_FOREVER, {Event{Event::Kind::Run, 50000}, Event{Event::Kind::Sleep, 2300000}}}}};
			     rp.wl.tasks = {hog, shorty};
			     rp.what = "-PREEMPT_SHORT: a 0.1 ms-slice sleeper, eligible with the earliest deadline at its wakeup, waits";
			     rp.confirms = [](const Simulation&, const RunObserver& o, std::string& msg) {
				     const u64 n = o.waits_not_preempted.size() > 1 ? o.waits_not_preempted[1] : 0;
				     msg = std::to_string(n) + " such wakeups not run at once; longest wait " +
					   std::to_string(o.max_wait.size() > 1 ? o.max_wait[1] : 0) + " ns";
				     return n > 0;
			     };
			     return rp;
		     }});
	v.push_back({"wakeup_waker_picked", "7",
		     "with or without PREEMPT_SHORT, n = 3..5 entities, any weights >= 1: a waker that is eligible with the "
		     "earliest deadline of the queue (curr included) after the wakeup's update_curr is the pick of the "
		     "next resched, whether the wakeup preempts or a later update_curr (tick) requests it (QF_NIA over the "
		     "integer keys; the pick as pick_spec states it)",
		     true, MUT_RENEW_PROTECT, [](Query& q, unsigned m) { build_waker_picked_int(q, m); }, nullptr});
	v.push_back({"wakeup_waker_picked_bv", "7",
		     "the wakeup half over 64-bit bit-vectors on the model's own functions (no PREEMPT_SHORT, 4 nice-0 "
		     "entities, keys within 2^40 of v0): if check_preempt_wakeup_fair requests the resched, __schedule() "
		     "picks the waker",
		     true, MUT_RENEW_PROTECT, [](Query& q, unsigned m) { build_wakeup_picked(q, m, 1); }, nullptr});
	v.push_back({"wakeup_wait_bound", "7",
		     "PREEMPT_SHORT off: nice-0 curr picked at t0 with any vprot "
		     "set_protect_slice gives (0 <= vprot - v <= d - v <= r), accounting points (ticks, wakeups) <= TICK + J "
		     "apart: the resched comes <= r + TICK + J - 1 after t0, so a wakeup at t_w waits <= r + TICK + J - 1 - (t_w - t0)",
		     true, MUT_NR_QUEUED_OFF_BY_ONE,
		     [](Query& q, unsigned m) { build_wakeup_wait(q, m, false); }, nullptr});
	v.push_back({"wakeup_wait_tight", "7",
		     "the wait bound minus 1 ns (refuted: J = 0, wakeup at the pick, 1 ns after a tick, r = k TICK: the "
		     "waker waits r + TICK - 1; replayed)",
		     false, 0, [](Query& q, unsigned m) { build_wakeup_wait(q, m, true); },
		     [](Query& q, const z3::model& md) -> std::optional<Replay> {
			     return replay_wait_tight(hz_of_tick(val(md, q.var("T"))), val(md, q.var("r")), false);
		     }});

	for (Obligation& o : v) {
		if (o.name == "wakeup_waker_picked")
			o.logic = "QF_NIA";
		if (o.name == "wakeup_waker_picked_bv") {  // PROVED in ~9 s (bit-blast); cvc5 ~45 s: run only when named
			o.bitblast = true;
			o.experimental = true;
		}
	}
	return v;
}

}  // namespace eevdf::proofs
