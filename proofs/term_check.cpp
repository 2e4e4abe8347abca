// SPDX-License-Identifier: GPL-2.0-only
#include "proofs/term_check.hpp"

#include <chrono>
#include <random>
#include <sstream>

#include "model/check.hpp"
#include "model/simulation.hpp"
#include "model/workload.hpp"
#include "proofs/encoding.hpp"
#include "proofs/int_rules.hpp"

namespace eevdf::proofs {

using z3::expr;

void RuleTally::expect(bool ok, const char* rule, const std::string& detail, const std::string& state)
{
	comparisons++;
	if (ok)
		return;
	if (mismatches++ < max_report && out)
		*out << "rule mismatch: " << rule << ": " << detail << "\n" << state;
}

namespace {

bool truth(const expr& e) { return e.simplify().is_true(); }

// The queue (tree in order, then curr if queued) as the rules see it.
struct Numerals {
	std::vector<const SchedEntity*> ents;
	rules::Queue q;
	bool overflow = false;
};

Numerals numerals(z3::context& c, const CfsRq& rq, u64 ref)
{
	Numerals n;
	rq.timeline.for_each([&](const SchedEntity* se) { n.ents.push_back(se); });
	if (rq.curr && rq.curr->on_rq)
		n.ents.push_back(rq.curr);
	s128 A = 0, W = 0, kmax = 0;
	for (const SchedEntity* se : n.ents) {
		const s64 k = wrapped_diff(se->vruntime, ref), w = rq.avg_weight(se);
		n.q.k.push_back(c.int_val(static_cast<int64_t>(k)));
		n.q.d.push_back(c.int_val(static_cast<int64_t>(wrapped_diff(se->deadline, ref))));
		n.q.w.push_back(c.int_val(static_cast<int64_t>(w)));
		A += static_cast<s128>(k) * w;
		W += w;
		kmax = std::max(kmax, static_cast<s128>(k < 0 ? -static_cast<s128>(k) : static_cast<s128>(k)));
	}
	const s128 lim = static_cast<s128>(1) << 63;
	n.overflow = kmax * W >= lim || A >= lim || A <= -lim;
	return n;
}

std::string describe(const CfsRq& rq)
{
	std::ostringstream o;
	o << "  v0=" << rq.ref_vruntime << " nr_queued=" << rq.nr_queued << " need_resched=" << rq.need_resched << "\n";
	auto line = [&](const char* what, const SchedEntity* se) {
		o << "  " << what << " task " << se->id << ": w=" << se->load.weight << " v=" << se->vruntime
		  << " d=" << se->deadline << " vprot=" << rq.protect_end(se) << " slice=" << se->slice
		  << (se->sched_delayed ? " delayed" : "") << "\n";
	};
	rq.timeline.for_each([&](const SchedEntity* se) { line("tree", se); });
	if (rq.curr)
		line(rq.curr->on_rq ? "curr" : "curr(off rq)", rq.curr);
	return o.str();
}

std::string who(const SchedEntity* se) { return se ? "task " + std::to_string(se->id) : std::string("NULL"); }

}  // namespace

void compare_queue_rules(z3::context& c, const CfsRq& rq, unsigned mutation, RuleTally& t)
{
	const Numerals n = numerals(c, rq, rq.ref_vruntime);
	if (n.ents.empty())
		return;
	t.states++;
	if (n.overflow) {
		t.overflow++;
		return;
	}
	const bool strict = (mutation & MUT_ELIGIBLE_STRICT) != 0;
	auto index = [&](const SchedEntity* p) {
		for (size_t i = 0; i < n.ents.size(); i++)
			if (n.ents[i] == p)
				return i;
		return n.ents.size();
	};
	bool any = false;
	std::vector<bool> elig(n.ents.size());
	for (size_t i = 0; i < n.ents.size(); i++) {
		elig[i] = truth(rules::eligible(n.q, i, strict));
		any = any || elig[i];
		t.expect(elig[i] == rq.entity_eligible(n.ents[i]), "eligible",
			 who(n.ents[i]) + ": model " + std::to_string(rq.entity_eligible(n.ents[i])) + ", term " +
				 std::to_string(elig[i]),
			 describe(rq));
	}
	// avg_vruntime()'s floor: the model's V - v0 is the term's q
	{
		s128 A = 0, W = 0;
		for (const SchedEntity* se : n.ents) {
			A += static_cast<s128>(wrapped_diff(se->vruntime, rq.ref_vruntime)) * rq.avg_weight(se);
			W += rq.avg_weight(se);
		}
		const s64 qv = wrapped_diff(rq.avg_vruntime(), rq.ref_vruntime);
		const s128 Ap = A < 0 ? A - (W - 1) : A;
		const s128 rem = Ap - static_cast<s128>(qv) * W;
		const expr e = rules::avg_floor(c.int_val(static_cast<int64_t>(A)), c.int_val(static_cast<int64_t>(W)),
						c.int_val(static_cast<int64_t>(qv)), c.int_val(static_cast<int64_t>(rem)),
						(mutation & MUT_AVG_TRUNC) != 0);
		t.expect(truth(e), "avg_floor", "avg_vruntime() - v0 = " + std::to_string(qv), describe(rq));
	}
	if (!any)  // the pick rules need an eligible entity (eligible_exists_int gives one)
		return;
	const SchedEntity* curr = rq.curr && rq.curr->on_rq ? rq.curr : nullptr;
	const size_t ci = index(curr);
	// __pick_eevdf(protect = 1): a protected curr, else a pick as pick_spec allows
	const SchedEntity* p1 = rq.pick_eevdf_protect(true);
	const bool prot = curr && rq.nr_queued > 1 &&
			  truth(rules::protected_curr(n.q, ci, c.int_val(static_cast<int64_t>(
								   wrapped_diff(rq.protect_end(curr), rq.ref_vruntime)))));
	if (prot)
		t.expect(p1 == curr, "protected_curr", "pick " + who(p1) + ", the term says curr is protected", describe(rq));
	else
		t.expect(index(p1) < n.ents.size() && truth(rules::spec_pick(n.q, index(p1))), "spec_pick (protect)",
			 "pick " + who(p1), describe(rq));
	const SchedEntity* p0 = rq.pick_eevdf_protect(false);
	t.expect(index(p0) < n.ents.size() && truth(rules::spec_pick(n.q, index(p0))), "spec_pick", "pick " + who(p0),
		 describe(rq));
	if (curr && rq.nr_queued > 1) {
		const bool kept = truth(rules::curr_kept(n.q, ci));
		t.expect(kept == (p0 == curr), "curr_kept",
			 "pick " + who(p0) + ", the term says curr is " + (kept ? "kept" : "not kept"), describe(rq));
	}
}

CurrBefore CurrBefore::of(const CfsRq& rq)
{
	CurrBefore b;
	b.se = rq.curr;
	b.ref = rq.ref_vruntime;
	b.nr_queued = rq.nr_queued;
	b.need_resched = rq.need_resched;
	if (rq.curr) {
		b.v = rq.curr->vruntime;
		b.d = rq.curr->deadline;
		b.vprot = rq.protect_end(rq.curr);
		b.sum_exec = rq.curr->sum_exec_runtime;
	}
	return b;
}

void compare_step_rule(z3::context& c, const CurrBefore& b, const CfsRq& rq, unsigned mutation, RuleTally& t)
{
	const SchedEntity* se = rq.curr;
	// The rule is update_curr with nr_queued >= 2 on an unchanged curr.
	if (!se || se != b.se || !se->on_rq || b.nr_queued < 2 || rq.nr_queued < 2 || se->sum_exec_runtime == b.sum_exec)
		return;
	const s64 a = wrapped_diff(se->vruntime, b.v);
	LoadWeight lw = se->load;
	const u64 expect_a = rq.vdelta(se->sum_exec_runtime - b.sum_exec, lw);
	t.expect(a >= 0 && static_cast<u64>(a) == expect_a, "advance",
		 "v advanced by " + std::to_string(a) + ", calc_delta_fair of the elapsed time is " + std::to_string(expect_a),
		 describe(rq));
	auto key = [&](u64 x) { return c.int_val(static_cast<int64_t>(wrapped_diff(x, b.ref))); };
	const u64 vslice = rq.vdelta(se->slice, lw);
	const rules::Step st = rules::update_curr_step(key(b.v), key(b.d), c.int_val(static_cast<int64_t>(a)),
						       c.int_val(static_cast<int64_t>(vslice)), key(b.vprot),
						       (mutation & MUT_RENEW_STRICT) != 0);
	const expr d_term = st.d.simplify();
	const s64 d_model = wrapped_diff(se->deadline, b.ref);
	t.expect(d_term.is_numeral() && static_cast<s64>(d_term.as_int64()) == d_model, "update_curr_step: deadline",
		 "model d - v0 = " + std::to_string(d_model) + ", term " + d_term.to_string(), describe(rq));
	// a resched already pending says nothing about this step
	if (!b.need_resched) {
		const bool want = truth(st.resched);
		t.expect(want == rq.need_resched, "update_curr_step: resched",
			 std::string("model ") + (rq.need_resched ? "requested" : "did not request") + " it, the term says " +
				 (want ? "requested" : "not"),
			 describe(rq));
	}
}

namespace {

// A random workload: 2-6 tasks on 1 or 2 CPUs, hogs and sleepers, mixed
// nice and custom slices, 6.18 with the protection and wake-up features
// switched at random; a quarter of them nice-0 hogs on exact ticks with a
// slice of whole ticks, where renewals fall exactly on v == d.
struct Case {
	Config cfg;
	Workload wl;
};

Case random_case(std::mt19937_64& g)
{
	auto below = [&](u64 n) { return g() % n; };
	static const u32 hzs[] = {100, 250, 300, 1000};
	const u32 cpus = below(10) < 7 ? 1 : 2;
	Config cfg = make_config(*find_preset("6.18"), hzs[below(4)], cpus);
	cfg.base_slice_ns = below(2) ? 3000000 : 100000 + below(10000000);
	cfg.features.set(Feature::RUN_TO_PARITY, below(10) < 7);
	cfg.features.set(Feature::PREEMPT_SHORT, below(10) < 7);
	cfg.knobs.tick_jitter = below(2) ? 0 : below(cfg.tick_ns / 3);
	cfg.seed = g();
	Workload wl;
	wl.duration = 100 * NSEC_PER_MSEC;
	const int n = 2 + static_cast<int>(below(5));
	if (below(4) == 0) {  // hog_runs_whole_ticks's premises: nice-0 hogs, r = k TICK, exact ticks: v meets d exactly
		cfg.base_slice_ns = cfg.tick_ns * (1 + below(4));
		cfg.knobs.tick_jitter = 0;
		Workload h = hogs_workload(n, wl.duration);
		return Case{cfg, h};
	}
	for (int i = 0; i < n; i++) {
		std::vector<Event> ev;
		if (below(2))
			ev.push_back(Event{Event::Kind::Run, RUN_FOREVER});
		else {
			ev.push_back(Event{Event::Kind::Run, 100000 + below(5000000)});
			ev.push_back(Event{Event::Kind::Sleep, 100000 + below(10000000)});
		}
		TaskSpec t = looping_task("t" + std::to_string(i), ev);
		t.nice = below(2) ? 0 : static_cast<int>(below(40)) - 20;
		t.custom_slice = below(10) < 3 ? 100000 + below(20000000) : 0;
		t.delay = below(3) ? 0 : below(5000000);
		wl.tasks.push_back(t);
	}
	return Case{cfg, wl};
}

struct TermObserver : Observer {
	z3::context& c;
	unsigned mutation;
	RuleTally& t;
	std::vector<CurrBefore> before;
	u64 steps = 0;
	TermObserver(z3::context& ctx, unsigned m, RuleTally& tally) : c(ctx), mutation(m), t(tally) {}

	void on_tick(const Simulation& sim, u64, bool) override
	{
		const u32 cpu = sim.event_cpu();
		if (cpu < before.size()) {
			const u64 n = t.comparisons;
			compare_step_rule(c, before[cpu], sim.cfs_rq(cpu), mutation, t);
			steps += t.comparisons != n;
		}
	}
	void on_event(const Simulation& sim, u64) override
	{
		before.resize(sim.nr_cpus());
		for (u32 cpu = 0; cpu < sim.nr_cpus(); cpu++) {
			compare_queue_rules(c, sim.cfs_rq(cpu), mutation, t);
			before[cpu] = CurrBefore::of(sim.cfs_rq(cpu));
		}
	}
};

}  // namespace

TermCheckStats check_terms(u64 sims, u64 seed, std::ostream& out, unsigned max_report, unsigned mutation)
{
	const auto t0 = std::chrono::steady_clock::now();
	TermCheckStats st;
	z3::context c;
	std::mt19937_64 g(seed);
	RuleTally t;
	t.out = &out;
	t.max_report = max_report;
	for (u64 i = 0; i < sims; i++) {
		const Case k = random_case(g);
		Simulation sim(k.cfg, k.wl);
		TermObserver o(c, mutation, t);
		InvariantChecker chk;  // the premises the proofs assume hold on the same runs
		sim.add_observer(&chk);
		sim.add_observer(&o);
		sim.run();
		st.sims++;
		st.steps += o.steps;
	}
	st.states = t.states;
	st.comparisons = t.comparisons;
	st.mismatches = t.mismatches;
	st.overflow = t.overflow;
	st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	return st;
}

}  // namespace eevdf::proofs
