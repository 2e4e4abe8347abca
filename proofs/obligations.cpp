// SPDX-License-Identifier: GPL-2.0-only
// The proof obligations of issue 4 and the `prove` driver.
//
// Each obligation asserts Pre ∧ ¬Claim over the symbolic encoding: unsat is
// PROVED, sat is REFUTED (the model is the counterexample), anything else
// UNKNOWN. Refutations come with a workload (rt-app JSON) and a Config that
// the simulator replays to show the violation.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <functional>
#include <map>
#include <sstream>

#include "io/output_file.hpp"
#include "io/rtapp.hpp"
#include "model/fair.hpp"
#include "model/simulation.hpp"
#include "proofs/encoding.hpp"
#include "proofs/invariants.hpp"
#include "proofs/obligation.hpp"
#include "proofs/prove.hpp"
#include "proofs/query.hpp"

namespace eevdf::proofs {
namespace {

using z3::expr;

enum class Verdict { Proved, Refuted, Unknown };
const char* verdict_name(Verdict v)
{
	return v == Verdict::Proved ? "PROVED" : v == Verdict::Refuted ? "REFUTED" : "UNKNOWN";
}

constexpr u64 TICK_HZ1000 = 1000000, TICK_HZ300 = 3333333, TICK_HZ250 = 4000000, TICK_HZ100 = 10000000;
constexpr u64 HZ_TICKS[] = {TICK_HZ100, TICK_HZ250, TICK_HZ300, TICK_HZ1000};

u32 hz_of_tick(u64 t)
{
	for (u32 hz : {100u, 250u, 300u, 1000u})
		if (tick_nsec(hz) == t)
			return hz;
	return 0;
}

}  // namespace

// Run lengths (switch to switch) and same-task re-picks after a renewal.
struct RunObserver : Observer {
	std::vector<u64> max_run, runs;
	int running = -1;
	u64 since = 0;
	u64 repicks = 0;     // a tick renewed curr's deadline, another queued task had v <= v_curr, curr kept the CPU
	u64 pending_d = 0;
	int pending = -1;
	bool pending_other_behind = false;

	void ensure(const Simulation& s)
	{
		if (max_run.size() < s.tasks().size())
			max_run.resize(s.tasks().size(), 0), runs.resize(s.tasks().size(), 0);
	}
	// wakeup latency: from a wakeup while another task runs to the task's first run
	std::vector<u64> woke, max_wait;
	std::vector<u64> waits_not_preempted;  // O7: wakeups meeting the PREEMPT_SHORT condition that did not preempt
	std::vector<bool> pending_short;
	u64 ticks = 0, first_wakeup_ticks = ~0ULL;  // ticks before the first wakeup of a second task
	void ensure_w(const Simulation& s)
	{
		if (woke.size() < s.tasks().size()) {
			woke.resize(s.tasks().size(), ~0ULL);
			max_wait.resize(s.tasks().size(), 0);
			waits_not_preempted.resize(s.tasks().size(), 0);
			pending_short.resize(s.tasks().size(), false);
		}
	}
	void on_wakeup(const Simulation& s, u64 t, int task, int, bool) override
	{
		ensure_w(s);
		if (first_wakeup_ticks == ~0ULL && s.cfs_rq().curr && s.cfs_rq().curr->id != task)
			first_wakeup_ticks = ticks;
		const SchedEntity* c = s.cfs_rq().curr;
		if (!c || c->id == task)
			return;
		woke[static_cast<size_t>(task)] = t;
		// the PREEMPT_SHORT condition (at the enqueue): shorter slice, eligible, earliest deadline
		const SchedEntity& p = s.tasks()[static_cast<size_t>(task)].se;
		bool cond = p.slice < c->slice && s.cfs_rq().entity_eligible(&p) && wrapped_diff(c->deadline, p.deadline) >= 0;
		for (const auto& o : s.tasks())
			if (&o.se != &p && &o.se != c && o.se.on_rq && wrapped_diff(o.se.deadline, p.deadline) <= 0)
				cond = false;
		pending_short[static_cast<size_t>(task)] = cond;
	}
	void on_switch(const Simulation& s, u64 t, int prev, int next, bool, u64) override
	{
		ensure(s);
		ensure_w(s);
		if (next >= 0 && woke[static_cast<size_t>(next)] != ~0ULL) {
			max_wait[static_cast<size_t>(next)] = std::max(max_wait[static_cast<size_t>(next)], t - woke[static_cast<size_t>(next)]);
			woke[static_cast<size_t>(next)] = ~0ULL;
		}
		if (prev >= 0 && prev == running) {
			max_run[static_cast<size_t>(prev)] = std::max(max_run[static_cast<size_t>(prev)], t - since);
			runs[static_cast<size_t>(prev)]++;
		}
		running = next;
		since = t;
		pending = -1;
	}
	void on_tick(const Simulation& s, u64, bool) override
	{
		ticks++;
		// called after entity_tick, before the scheduling point
		pending = -1;
		if (!s.cfs_rq().curr || !s.cfs_rq().need_resched)
			return;
		const SchedEntity* c = s.cfs_rq().curr;
		bool behind = false;
		for (const auto& t : s.tasks())
			if (&t.se != c && t.se.on_rq && wrapped_diff(t.se.vruntime, c->vruntime) <= 0)
				behind = true;
		pending = c->id;
		pending_d = c->deadline;
		pending_other_behind = behind;
	}
	void on_event(const Simulation& s, u64) override
	{
		ensure_w(s);
		for (size_t i = 0; i < pending_short.size(); i++)
			if (pending_short[i]) {
				if (s.current() != static_cast<int>(i))
					waits_not_preempted[i]++;
				pending_short[i] = false;
			}
		if (pending >= 0 && s.current() == pending && pending_other_behind)
			repicks++;
		pending = -1;
	}
};

namespace {



SymConfig sym_config(Query&, const expr& slice, const expr& tick, unsigned mutation)
{
	const KernelPreset& p = *find_preset("6.18");
	return SymConfig{slice, tick, p.features, p.paths.normalized_base_slice, mutation};
}

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


expr key_bounded(Query& q, const expr& v, const expr& v0, u64 mag)
{
	const expr k = v - v0;
	return z3::sle(q.bv(static_cast<u64>(-static_cast<s64>(mag))), k) && z3::sle(k, q.bv(mag));
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

// O6: a queue of `ntree` tree entities plus (optionally) curr, any weights,
// keys within +-2^40 of v0, sums consistent.
struct Queue {
	SymRq rq;
	std::vector<expr> v, w;
	expr pre;
};

Queue build_queue(Query& q, const Enc& enc, int ntree, bool curr)
{
	expr v0 = q.show("v0", q.var("v0"));
	expr pre = q.c.bool_val(true);
	std::vector<SymSE> tree;
	std::vector<expr> vs, ws;
	expr sum = q.bv(0), load = q.bv(0);
	auto ent = [&](const std::string& n) {
		expr v = q.show("v_" + n, q.var("v_" + n)), d = q.show("d_" + n, q.var("d_" + n));
		expr w = q.bv(1024);  // nice 0: products by a constant (see docs/proofs.md)
		pre = pre && key_bounded(q, v, v0, 1ULL << 40) && key_bounded(q, d, v0, 1ULL << 41);
		vs.push_back(v);
		ws.push_back(w);
		return SymSE{v, d, q.var("vprot_" + n), q.var("slice_" + n), q.bv(0), q.bv(0), q.bv(0), w, CdfParams{}, false, false};
	};
	for (int i = 0; i < ntree; i++) {
		SymSE se = ent(std::to_string(i));
		sum = sum + (se.v - v0) * se.w;
		load = load + se.w;
		tree.push_back(se);
	}
	SymRq rq{v0, sum, load, q.bv(static_cast<u64>(ntree + (curr ? 1 : 0))), q.bv(0), tree, std::nullopt, true,
		 q.c.bool_val(false)};
	if (curr)
		rq.curr = ent("curr");
	(void)enc;
	return Queue{rq, vs, ws, pre};
}

// ---------------------------------------------------------------- O7, O8: wakeups
SymSE free_se(Query& q, const std::string& n)
{
	return SymSE{q.show("v_" + n, q.var("v_" + n)), q.show("d_" + n, q.var("d_" + n)),
		     q.show("vprot_" + n, q.var("vprot_" + n)), q.show("slice_" + n, q.var("slice_" + n)), q.bv(0),
		     q.var("exec_" + n), q.var("sumexec_" + n), q.var("w_" + n), CdfParams{}, false, false};
}

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
							const u64 bound = r + T + J - 1;
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

void build_eligible_overflow(Query& q, unsigned m)
{
	Enc enc(q.c, sym_config(q, q.bv(700000), q.bv(TICK_HZ1000), m));
	expr v0 = q.show("v0", q.var("v0"));
	std::vector<SymSE> tree;
	expr sum = q.bv(0);
	for (int i = 0; i < 2; i++) {
		const std::string n = std::to_string(i);
		expr v = q.show("v_" + n, q.var("v_" + n));
		tree.push_back(SymSE{v, v + 1, v, q.bv(700000), q.bv(0), q.bv(0), q.bv(0), q.bv(1024), CdfParams{}, false, false});
		sum = sum + (v - v0) * q.bv(1024);
	}
	SymRq rq{v0, sum, q.bv(2048), q.bv(2), q.bv(0), tree, std::nullopt, true, q.c.bool_val(false)};
	q.s.add(!(enc.vruntime_eligible(rq, tree[0].v) || enc.vruntime_eligible(rq, tree[1].v)));
}

bool replay_overflow(Query& q, const z3::model& md, std::string& msg)
{
	Config cfg = make_config(*find_preset("6.18"), 1000);
	CfsRq rq(cfg);
	rq.ref_vruntime = val(md, q.var("v0"));
	std::deque<SchedEntity> ses;
	for (int i = 0; i < 2; i++) {
		SchedEntity& se = ses.emplace_back();
		se.id = i;
		se.load = task_load_weight(0);
		se.vruntime = val(md, q.var("v_" + std::to_string(i)));
		se.deadline = se.vruntime + 1;
		se.slice = 700000;
		se.on_rq = true;
		rq.timeline.insert(&se);
		rq.avg_vruntime_sum = static_cast<s64>(static_cast<u64>(rq.avg_vruntime_sum) +
						       static_cast<u64>(rq.entity_key(&se)) * 1024u);
		rq.avg_load += 1024;
		rq.load += se.load.weight;
		rq.nr_queued++;
	}
	const bool e0 = rq.entity_eligible(&ses[0]), e1 = rq.entity_eligible(&ses[1]);
	const SchedEntity* p = rq.pick_eevdf();
	msg = "CfsRq: vruntime_eligible = " + std::to_string(e0) + ", " + std::to_string(e1) + "; pick_eevdf() = " +
	      (p ? std::to_string(p->id) : std::string("NULL"));
	return !e0 && !e1 && !p;
}

void build_pick_spec(Query& q, unsigned m)
{
	Enc enc(q.c, sym_config(q, q.bv(700000), q.bv(TICK_HZ1000), m));
	expr any_bad = q.c.bool_val(false);
	for (int nt = 1; nt <= 3; nt++)
		for (int cur = 0; cur <= 1; cur++) {
			if (nt + cur < 2 || nt + cur > 3)
				continue;
			const std::string tag = "s" + std::to_string(nt) + std::to_string(cur) + "_";
			std::vector<SymSE> tree;
			for (int i = 0; i < nt; i++)
				tree.push_back(free_se(q, tag + std::to_string(i)));
			for (SymSE& e : tree)
				e.w = q.bv(1024);  // nice 0: the load is a constant; the sum is free
			SymRq rq{q.var(tag + "v0"), q.var(tag + "sum"), q.bv(static_cast<u64>(1024 * nt)), q.bv(static_cast<u64>(nt + cur)),
				 q.bv(0), tree, std::nullopt, true, q.c.bool_val(false)};
			if (cur) {
				rq.curr = free_se(q, tag + "curr");
				rq.curr->w = q.bv(1024);
			}
			// deadlines within +-2^62 of one another (the tree order is transitive)
			std::vector<std::pair<expr, expr>> ents;  // (index, deadline)
			std::vector<expr> elig;
			for (int i = 0; i < nt; i++) {
				ents.emplace_back(q.c.bv_val(i, 8), rq.tree[static_cast<size_t>(i)].d);
				elig.push_back(enc.vruntime_eligible(rq, rq.tree[static_cast<size_t>(i)].v));
			}
			if (cur) {
				ents.emplace_back(q.c.bv_val(PICK_CURR, 8), rq.curr->d);
				elig.push_back(enc.vruntime_eligible(rq, rq.curr->v));
			}
			// no s64 overflow: every |key| * W < 2^63 (then eligibility is
			// monotone in v and the heap search finds the first eligible
			// entity in tree order; issue 20: without it the model's search,
			// as the kernel's, can return NULL or a later deadline)
			const u64 kmax = static_cast<u64>(INT64_MAX) / static_cast<u64>(1024 * (nt + cur));
			expr pre = q.c.bool_val(true), some = q.c.bool_val(false);
			for (int i = 0; i < nt; i++)
				pre = pre && key_bounded(q, rq.tree[static_cast<size_t>(i)].v, rq.v0, kmax);
			if (cur)
				pre = pre && key_bounded(q, rq.curr->v, rq.v0, kmax);
			for (size_t i = 0; i < ents.size(); i++) {
				pre = pre && key_bounded(q, ents[i].second, ents[0].second, 1ULL << 61);
				some = some || elig[i];
			}
			const expr res = enc.pick_eevdf(rq, false), res_p = enc.pick_eevdf(rq, true);
			expr ok = q.c.bool_val(false), ok_p = q.c.bool_val(false);
			for (size_t i = 0; i < ents.size(); i++) {
				expr earliest = elig[i];
				for (size_t j = 0; j < ents.size(); j++)
					earliest = earliest && z3::implies(elig[j], !z3::slt(ents[j].second - ents[i].second, 0));
				ok = ok || (res == ents[i].first && earliest);
				ok_p = ok_p || res_p == ents[i].first;
			}
			const expr bad = pre && some && !(ok && ok_p);
			any_bad = any_bad || bad;
		}
	q.s.add(any_bad);
}

std::vector<Obligation> make_obligations()
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

	// ---------------------------------------------------------------- 6
	v.push_back({"eligible_exists", "6",
		     "every queue of 1..4 nice-0 entities (curr or not), keys within +-2^40 of v0: "
		     "some queued entity is eligible and pick_eevdf returns an entity",
		     true, MUT_ELIGIBLE_STRICT,
		     [](Query& q, unsigned m) {
			     Enc enc(q.c, sym_config(q, q.bv(700000), q.bv(TICK_HZ1000), m));
			     expr any_bad = q.c.bool_val(false);
			     // one disjunct per queue shape, over disjoint variables
			     for (int nt = 0; nt <= 4; nt++)
				     for (int curr = 0; curr <= 1; curr++) {
					     if (nt + curr == 0 || nt + curr > 4)
						     continue;
					     Query sub(q.c, 1);
					     Queue qu = build_queue(sub, enc, nt, curr);
					     expr some = q.c.bool_val(false);
					     for (const expr& vv : qu.v)
						     some = some || enc.vruntime_eligible(qu.rq, vv);
					     const expr pick = enc.pick_eevdf(qu.rq, true);
					     (void)pick;
					     expr bad = qu.pre && (!some);
					     // rename: each shape uses its own copy of the variables
					     z3::expr_vector src(q.c), dst(q.c);
					     for (auto& [n, e] : sub.shown) {
						     src.push_back(e);
						     dst.push_back(q.c.bv_const(("s" + std::to_string(nt) + std::to_string(curr) + "_" + n).c_str(), 64));
					     }
					     any_bad = any_bad || bad.substitute(src, dst);
				     }
			     q.s.add(any_bad);
		     },
		     nullptr});
	v.push_back({"lag_sum_rounding", "6",
		     "same queues: sum_i w_i (avg_vruntime() - v_i) lies in (-W, 0] (floored V; exact V gives 0)",
		     true, MUT_ELIGIBLE_STRICT,
		     [](Query& q, unsigned m) {
			     Enc enc(q.c, sym_config(q, q.bv(700000), q.bv(TICK_HZ1000), m));
			     Queue qu = build_queue(q, enc, 3, true);
			     const expr V = enc.avg_vruntime(qu.rq);
			     expr lag = q.bv(0), W = q.bv(0);
			     for (size_t i = 0; i < qu.v.size(); i++) {
				     lag = lag + qu.w[i] * (V - qu.v[i]);
				     W = W + qu.w[i];
			     }
			     // the eligibility of the entity at V's floor, as a cross-check of the mutation
			     const expr at_v = enc.vruntime_eligible(qu.rq, V);
			     q.s.add(qu.pre && !(z3::slt(q.bv(0) - W, lag) && z3::sle(lag, q.bv(0)) && at_v));
		     },
		     nullptr});
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

	// ---------------------------------------------------------------- 6 (integer encoding)
	v.push_back({"eligible_exists_int", "6",
		     "n = 1..6 queued entities, any integer keys, any weights >= 1 (the nice table included): the entity "
		     "with the least key satisfies the kernel's test sum_j k_j w_j >= k_i W, so one is eligible "
		     "(QF_NIA; equals the s64 test when every |k_i| W < 2^63)",
		     true, MUT_ELIGIBLE_STRICT, [](Query& q, unsigned m) { build_eligible_int(q, m); }, nullptr});
	v.push_back({"lag_sum_rounding_int", "6",
		     "n = 1..8, any integer keys and weights >= 1: with V - v0 = the kernel's floored division "
		     "(avg < 0 ? avg - (W-1) : avg) / W (C division), sum_i w_i (V - v_i) lies in (-W, 0]",
		     true, MUT_AVG_TRUNC, [](Query& q, unsigned m) { build_lag_sum_int(q, m); }, nullptr});
	v.push_back({"eligible_exists_overflow", "6",
		     "without the no-overflow precondition: 2 nice-0 entities, any 64-bit keys: some entity is eligible "
		     "(refuted: key * W wraps; replayed on a CfsRq: vruntime_eligible false for both, pick_eevdf NULL)",
		     false, 0, [](Query& q, unsigned m) { build_eligible_overflow(q, m); }, nullptr});
	v.push_back({"pick_spec", "6",
		     "2 or 3 queued entities (tree, + curr or not), nice-0 weights, no key * weight overflow (every "
		     "|v - v0| * W < 2^63), deadlines within +-2^61 of each other, any sum: if some queued entity is "
		     "eligible, __pick_eevdf(protect=0) returns a queued eligible entity whose deadline is <= every "
		     "eligible entity's (signed difference); with protect=1 it returns a queued entity",
		     true, MUT_PICK_NO_CURR_FALLBACK, [](Query& q, unsigned m) { build_pick_spec(q, m); }, nullptr});

	// ---------------------------------------------------------------- 5
	v.push_back({"lag_invariant", "5",
		     "n = 3, 4 nice-0 hogs, r >= 1, TICK >= 1, 0 <= J < TICK: Inv = (d_i - v_i <= r; v_i < d_i; "
		     "v_i - v_j <= r + TICK + J - 1; d_curr <= min_{j != curr} v_j + r) holds initially, is preserved by an "
		     "accounting point <= TICK + J later and by any pick satisfying pick_spec, and implies "
		     "|V - v_i| <= r + TICK + J - 1 (QF_LIA)",
		     true, MUT_NO_RESCHED_RENEWAL, [](Query& q, unsigned m) { build_lag_invariant(q, m); }, nullptr});
	v.push_back({"lag_weighted", "5",
		     "n = 2..4 hogs, weights of nice -20/-10/0/10/19 in every assignment (n = 4 without -10), virtual request vs_i >= 1 and step A_i >= 1 (cdf_i(r), "
		     "cdf_i(TICK + J)): Inv (0 < d_i - v_i <= vs_i; v_i - V <= U_i = vs_i + A_i - 1 for waiting i; curr's v "
		     "at its pick <= V) holds initially, is preserved by a step and by any eligible pick after a renewal, "
		     "and implies -U_i <= V - v_i <= sum_{j != i} w_j U_j / w_i (QF_LIA)",
		     true, MUT_NO_RESCHED_RENEWAL, nullptr, nullptr});
	v.push_back({"run_weighted", "1",
		     "unequal weights, the same 2..4 hogs: one run (switch to switch, re-picks included) advances curr's "
		     "v by at most U_c + W sum_{j != c} w_j U_j / (W_o w_c), W_o = W - w_c (QF_LIA, from lag_weighted's "
		     "bound at the run's first pick; in real time that is roughly, not provably, (r + TICK + J)(1 + (n-1) "
		     "W / W_o))",
		     true, MUT_NO_RESCHED_RENEWAL, nullptr, nullptr});
	// Measured on this 2-core machine (z3 4.8.12, cvc5 1.0.3), two solver
	// runs at a time; the files without a note re-check in both within 5 s.
	const std::pair<const char*, const char*> recheck_notes[] = {
		{"nohz_enqueue_bound", "cvc5 needs 26 s (unsat); z3 re-checks it in under 2 s"},
		{"nohz_enqueue_init_shrink", "cvc5 needs 11 s (unsat); z3 5 s"},
		{"eligible_exists_int", "cvc5 needs 9.7-10.5 s for the six nonlinear cases (unsat); z3 with the exported tactic 0.2 s"},
		{"pick_spec", "cvc5 needs 6.7-8.4 s (unsat), z3 5 s: at the limit on a loaded machine"},
		{"extra_tick_nice", "z3 needs 7.3-8.4 s (sat), cvc5 4.6 s: at the limit on a loaded machine"},
		{"wakeup_wait_bound", "cvc5 needs about 6 s (unsat), z3 under 2 s: near the limit on a loaded machine"},
		{"repick_equal_weights", "UNKNOWN in-process within 60 s, PROVED in about 70 s with --timeout 300; "
					 "superseded by repick_equal_weights_int"},
		{"repick_unequal_weights", "UNKNOWN in-process within 60 s; refuted by repick_unequal_weights_int"},
		{"eligible_exists", "UNKNOWN in-process within 60 s over bit-vectors; superseded by eligible_exists_int"},
		{"lag_sum_rounding", "UNKNOWN in-process within 60 s over bit-vectors; superseded by lag_sum_rounding_int"},
		{"wakeup_waker_picked_bv", "about 6 s in-process, cvc5 about 45 s"},
	};
	for (Obligation& o : v)
		for (const auto& [name, note] : recheck_notes)
			if (o.name == name)
				o.recheck_note = note;
	for (Obligation& o : v) {
		if (o.name == "eligible_exists_int" || o.name == "lag_sum_rounding_int")
			o.logic = "QF_NIA";
		if (o.name == "lag_invariant")
			o.logic = "QF_LIA";
		if (o.name == "wakeup_waker_picked")
			o.logic = "QF_NIA";
		if (o.name == "lag_weighted") {
			o.logic = "QF_LIA";
			o.cases = lag_weighted_nices().size();
			o.build_case = build_lag_weighted;
			o.crosscheck = crosscheck_lag_weighted;
		}
		if (o.name == "repick_equal_weights_int" || o.name == "repick_unequal_weights_int") {
			const bool equal = o.name == "repick_equal_weights_int";
			o.logic = "QF_LIA";
			o.cases = equal ? 5 : static_cast<size_t>(MAX_NICE - MIN_NICE + 1);
			o.build_case = [equal](Query& q, unsigned m, size_t k) { build_repick_int(q, m, k, equal); };
		}
		if (o.name == "hog_runs_whole_ticks") {
			o.logic = "QF_LIA";
			o.cases = whole_tick_cases().size();
			o.build_case = build_whole_ticks;
			o.crosscheck = crosscheck_whole_ticks;
		}
		if (o.name == "run_weighted") {
			o.logic = "QF_LIA";
			o.cases = lag_weighted_nices().size();
			o.build_case = build_run_weighted;
			o.crosscheck = crosscheck_run_weighted;
		}
		if (o.name == "wakeup_waker_picked_bv") {  // PROVED in ~9 s (bit-blast); cvc5 ~45 s: run only when named
			o.bitblast = true;
			o.experimental = true;
		}
		if (o.name == "eligible_exists_overflow")
			o.direct_replay = replay_overflow;
		if (o.name == "nohz_enqueue_bound")
			o.crosscheck = crosscheck_nohz;
		if (o.name == "nohz_enqueue_init_shrink")
			o.bitblast = true;
	}
	// Products of symbolic keys defeat bit-blasting: these take 30 s to
	// minutes (repick_equal_weights: PROVED in ~36 s) or time out, so they
	// run only when named.
	for (Obligation& o : v)
		if (o.name == "repick_equal_weights" || o.name == "repick_unequal_weights" ||
		    o.name == "eligible_exists" || o.name == "lag_sum_rounding")
			o.experimental = true;
	for (Obligation& o : balance_obligations())
		v.push_back(std::move(o));
	return v;
}

// Whole or not at all (io/output_file.hpp); a failure names the file
// (eevdf-prove exits 2 on it).
void write_file(const std::string& path, const std::string& text)
{
	if (!write_output_file(path, text))
		throw std::runtime_error("cannot write '" + path + "'");
}

}  // namespace

std::vector<ObligationInfo> obligation_infos()
{
	std::vector<ObligationInfo> r;
	for (const Obligation& o : make_obligations())
		if (!o.experimental)
			r.push_back({o.name, o.expect_proved, o.breaker});
	return r;
}

int run_prove(const Options& opt, std::ostream& out) { return run_prove(opt, ExtraOptions{}, out); }

int run_prove(const Options& opt, const ExtraOptions& extra, std::ostream& out)
{
	const std::vector<Obligation> all = make_obligations();
	if (opt.list && opt.markdown) {  // the statements table of docs/proofs.md
		out << "| group | name | expected | logic | statement |\n|---|---|---|---|---|\n";
		for (const Obligation& o : all) {
			std::string claim;
			for (char ch : o.claim)
				claim += ch == '|' ? std::string("\\|") : std::string(1, ch);
			out << "| " << o.group << " | `" << o.name << "` | " << (o.expect_proved ? "PROVED" : "REFUTED")
			    << (o.experimental ? " (run only when named)" : "") << " | " << o.logic << " | " << claim << " |\n";
		}
		return 0;
	}
	if (opt.list) {
		for (const Obligation& o : all)
			out << o.name << "  [" << o.group << "]  expected " << (o.expect_proved ? "PROVED" : "REFUTED")
			    << (o.experimental ? " (experimental: run only when named)" : "") << ": "
			    << o.claim << "\n";
		return 0;
	}
	std::vector<const Obligation*> sel;
	for (const std::string& n : opt.names) {
		const Obligation* f = nullptr;
		for (const Obligation& o : all)
			if (o.name == n)
				f = &o;
		if (!f) {
			out << "prove: unknown obligation '" << n << "' (see --list)\n";
			return 2;
		}
		sel.push_back(f);
	}
	if (opt.names.empty())
		for (const Obligation& o : all)
			if (!o.experimental)
				sel.push_back(&o);

	namespace fs = std::filesystem;
	std::string wdir = extra.workload_dir.empty() ? opt.smt2_dir : extra.workload_dir;
	if (wdir.empty())
		wdir = (fs::temp_directory_path() / "eevdf-proofs").string();
	std::error_code ec;
	fs::create_directories(wdir, ec);
	std::ofstream verdicts;
	if (!opt.smt2_dir.empty()) {
		fs::create_directories(opt.smt2_dir, ec);
		verdicts.open(opt.smt2_dir + "/verdicts.tsv");
	}
	if (extra.mutation)
		out << "(encoding deliberately broken: " << mutation_name(extra.mutation) << ")\n";

	bool ok = true;
	for (const Obligation* o : sel) {
		z3::context c;
		Query q(c, opt.timeout_s, o->logic);
		if (std::string(o->logic) == "QF_NIA") {
			// sum-of-monomials normal form first (the builders add som-simplified terms), then the SMT core
			z3::params sp(c);
			sp.set("som", true);
			z3::solver ts = (z3::with(z3::tactic(c, "simplify"), sp) & z3::tactic(c, "smt")).mk_solver();
			z3::params p(c);
			p.set("timeout", opt.timeout_s * 1000u);
			ts.set(p);
			q.s = ts;
		}
		if (o->bitblast) {
			z3::solver ts = (z3::tactic(c, "simplify") & z3::tactic(c, "propagate-values") & z3::tactic(c, "solve-eqs") &
					 z3::tactic(c, "elim-uncnstr") & z3::tactic(c, "bit-blast") & z3::tactic(c, "sat"))
						.mk_solver();
			z3::params p(c);
			p.set("timeout", opt.timeout_s * 1000u);
			ts.set(p);
			q.s = ts;
		}
		const auto t0 = std::chrono::steady_clock::now();
		z3::check_result res = z3::unsat;
		// The query as built, taken before the solver runs (a tactic solver's
		// text afterwards can be its preprocessed form), with the strategy
		// the in-process solver uses, for the z3 binary (recheck_smt2.sh).
		const char* tactic = std::string(o->logic) == "QF_NIA" ? "(then (using-params simplify :som true) smt)"
				     : o->bitblast ? "(then simplify propagate-values solve-eqs elim-uncnstr bit-blast sat)"
						   : nullptr;
		auto query_text = [&] {
			std::string t = "(set-logic " + std::string(o->logic) + ")\n";
			if (tactic)
				t += std::string("; z3-tactic: ") + tactic + "\n";
			z3::solver plain(c);
			for (const expr& a : q.s.assertions())
				plain.add(a);
			return t + plain.to_smt2();
		};
		auto export_query = [&](const std::string& file, const std::string& text, z3::check_result r) {
			if (opt.smt2_dir.empty())
				return;
			write_file(opt.smt2_dir + "/" + file, text);
			verdicts << file << "\t" << (r == z3::unsat ? "unsat" : r == z3::sat ? "sat" : "unknown") << "\t"
				 << (o->recheck_note ? o->recheck_note : "") << "\n";
		};
		if (o->cases) {
			for (size_t k = 0; k < o->cases; k++) {
				q.s.push();
				q.shown.clear();
				o->build_case(q, extra.mutation, k);
				const std::string text = opt.smt2_dir.empty() ? std::string() : query_text();
				const z3::check_result r = q.s.check();
				export_query(o->name + "." + std::to_string(k) + ".smt2", text, r);
				if (r == z3::sat) {  // keep this case's assertions for the model
					res = r;
					break;
				}
				if (r == z3::unknown)
					res = r;
				q.s.pop();
			}
		} else {
			o->build(q, extra.mutation);
			const std::string text = opt.smt2_dir.empty() ? std::string() : query_text();
			res = q.s.check();
			export_query(o->name + ".smt2", text, res);
		}
		const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
		const Verdict v = res == z3::unsat ? Verdict::Proved : res == z3::sat ? Verdict::Refuted : Verdict::Unknown;
		char line[512];
		std::snprintf(line, sizeof line, "%-24s %-8s (expected %s)  %.2f s", o->name.c_str(), verdict_name(v),
			      o->expect_proved ? "PROVED" : "REFUTED", secs);
		out << line;
		if (o->cases)
			out << "  (" << o->cases << " cases)";
		out << "\n";
		if (extra.mutation) {  // a broken model: proofs must no longer go through
			if (o->expect_proved && v == Verdict::Proved)
				ok = false;
			continue;
		}
		bool this_ok = o->expect_proved ? v == Verdict::Proved : v == Verdict::Refuted;
		if (v == Verdict::Proved && o->crosscheck && extra.replay) {
			std::string msg;
			const bool cc = o->crosscheck(msg);
			out << "  cross-check: " << (cc ? "CONSISTENT" : "VIOLATED") << " (" << msg << ")\n";
			this_ok = this_ok && cc;
		}
		if (v == Verdict::Refuted) {
			const z3::model m = q.s.get_model();
			out << "  counterexample:";
			for (auto& [n, e] : q.shown)
				out << " " << n << "=" << static_cast<s64>(val(m, e));
			out << "\n";
			if (o->direct_replay && extra.replay) {
				std::string msg;
				const bool confirmed = o->direct_replay(q, m, msg);
				out << "  replay: " << (confirmed ? "CONFIRMED" : "NOT REPRODUCED") << " (" << msg << ")\n";
				if (!confirmed)
					this_ok = false;
			}
			if (o->replay) {
				std::optional<Replay> rp = o->replay(q, m);
				if (rp) {
					const std::string path = wdir + "/" + o->name + ".json";
					write_file(path, to_rtapp_json(rp->wl));
					out << "  workload: " << path << "  (eevdf sim " << path << " --kernel 6.18 --hz "
					    << rp->cfg.hz << " --slice " << rp->cfg.base_slice_ns << "ns";
					{
						const Config def = config_for(rp->cfg.hz, rp->cfg.base_slice_ns);
						std::string fl;
						for (unsigned f = 0; f < static_cast<unsigned>(Feature::COUNT); f++)
							if (def.features[static_cast<Feature>(f)] != rp->cfg.features[static_cast<Feature>(f)])
								fl += (fl.empty() ? "" : ",") + std::string(rp->cfg.features[static_cast<Feature>(f)] ? "+" : "-") +
								      std::string(feature_names[f]);
						if (!fl.empty())
							out << " --features " << fl;
					}
					if (rp->cfg.knobs.tick_phase)
						out << " --tick-phase " << rp->cfg.knobs.tick_phase << "ns";
					if (rp->cfg.knobs.tick_jitter)
						out << " --tick-jitter " << rp->cfg.knobs.tick_jitter << "ns";
					out << ")\n";
					if (extra.replay) {
						const Workload wl = extra.reload_workload ? load_rtapp_file(path) : rp->wl;
						bool confirmed = false;
						std::string msg;
						u64 seed = 0;
						for (; seed < rp->seeds && !confirmed; seed++) {
							Config cfg = rp->cfg;
							cfg.seed = seed;
							Simulation sim(cfg, wl);
							RunObserver obs;
							sim.add_observer(&obs);
							sim.run();
							confirmed = rp->confirms(sim, obs, msg);
						}
						out << "  replay: " << rp->what << ": "
						    << (confirmed ? "CONFIRMED" : "NOT REPRODUCED") << " (" << msg;
						if (rp->seeds > 1)
							out << "; seeds 0.." << rp->seeds - 1 << " tried";
						out << ")\n";
						if (!confirmed)
							this_ok = false;
					}
				}
			}
		}
		ok = ok && this_ok;
	}
	return ok ? 0 : 1;
}

}  // namespace eevdf::proofs
