// SPDX-License-Identifier: GPL-2.0-only
// The encoding against the executable model: random concrete cfs_rq states,
// each function of Enc built on numerals and simplified by Z3, compared with
// the model's own CfsRq method on the same state.
#include <algorithm>
#include <chrono>
#include <deque>
#include <random>
#include <sstream>

#include "model/cfs_rq_state.hpp"
#include "model/fair.hpp"
#include "proofs/encoding.hpp"
#include "proofs/term_check.hpp"

namespace eevdf::proofs {
namespace {

using z3::expr;

struct EntSpec {
	int nice = 0;
	u64 v = 0, d = 0, vprot = 0, slice = 0, exec_start = 0, sum_exec = 0;
	s64 vlag = 0;
	bool custom = false, rel = false;
};

struct StateSpec {
	Config cfg;
	u64 v0 = 0, clock = 0;
	std::vector<EntSpec> tree;
	bool has_curr = false, curr_on_rq = true;
	EntSpec curr, extra;
	bool initial = false;
	bool overflow = false;
	u64 probe_v = 0;
};

s64 wmul(s64 a, s64 b) { return static_cast<s64>(static_cast<u64>(a) * static_cast<u64>(b)); }

// The model's state for a spec (model/cfs_rq_state.hpp).
EntitySpec entity_state(const EntSpec& e)
{
	EntitySpec x;
	x.nice = e.nice;
	x.vruntime = e.v;
	x.deadline = e.d;
	x.slice = e.slice;
	x.vprot = e.vprot;
	x.vlag = e.vlag;
	x.exec_start = e.exec_start;
	x.sum_exec_runtime = e.sum_exec;
	x.custom_slice = e.custom;
	x.rel_deadline = e.rel;
	return x;
}

std::vector<EntitySpec> tree_states(const StateSpec& s)
{
	std::vector<EntitySpec> v;
	for (const EntSpec& e : s.tree)
		v.push_back(entity_state(e));
	return v;
}

struct ModelState {
	CfsRqState st;
	CfsRq& rq;
	SchedEntity* curr = nullptr;
	SchedEntity* extra = nullptr;
	std::vector<SchedEntity*> tree;

	explicit ModelState(const StateSpec& s) : st(s.cfg, s.v0, s.clock, tree_states(s)), rq(st.rq())
	{
		for (size_t i = 0; i < st.tree_size(); i++)
			tree.push_back(st.tree_entity(i));
		if (s.has_curr)
			curr = st.set_curr(entity_state(s.curr), s.curr_on_rq);
		extra = st.make_entity(entity_state(s.extra));
	}
	ModelState(const ModelState&) = delete;

	u64 pick_index(const SchedEntity* p) const
	{
		if (!p)
			return PICK_NONE;
		if (p == curr)
			return PICK_CURR;
		for (size_t i = 0; i < tree.size(); i++)
			if (tree[i] == p)
				return i;
		return 1000;
	}
};

struct SymState {
	Enc enc;
	SymRq rq;
	SymSE extra;
};

SymSE sym_entity(const Enc& e, const EntSpec& s)
{
	const LoadWeight lw = task_load_weight(s.nice);
	SymSE se{e.bv(s.v), e.bv(s.d), e.bv(s.vprot), e.bv(s.slice), e.bv(static_cast<u64>(s.vlag)),
		 e.bv(s.exec_start), e.bv(s.sum_exec), e.bv(scale_load_down(lw.weight)), cdf_params(lw),
		 s.custom, s.rel};
	return se;
}

SymState sym_state(z3::context& c, const StateSpec& s, unsigned mutation)
{
	SymConfig sc{c.bv_val(static_cast<uint64_t>(s.cfg.base_slice_ns), 64),
		     c.bv_val(static_cast<uint64_t>(s.cfg.tick_ns), 64), s.cfg.features,
		     s.cfg.preset->paths.normalized_base_slice, mutation};
	Enc enc(c, sc);
	u64 sum = 0, avg_load = 0, nr = 0;
	std::vector<SymSE> tree;
	for (const EntSpec& e : s.tree) {
		const s64 w = static_cast<s64>(scale_load_down(task_load_weight(e.nice).weight));
		sum += static_cast<u64>(wmul(wrapped_diff(e.v, s.v0), w));
		avg_load += static_cast<u64>(w);
		nr++;
		tree.push_back(sym_entity(enc, e));
	}
	if (s.has_curr && s.curr_on_rq)
		nr++;
	SymRq rq{enc.bv(s.v0), enc.bv(sum), enc.bv(avg_load), enc.bv(nr), enc.bv(s.clock), tree,
		 std::nullopt, s.curr_on_rq, c.bool_val(false)};
	if (s.has_curr)
		rq.curr = sym_entity(enc, s.curr);
	SymSE extra = sym_entity(enc, s.extra);
	return SymState{enc, rq, extra};
}

class Rng {
public:
	explicit Rng(u64 seed) : g_(seed) {}
	u64 u64_() { return g_(); }
	u64 below(u64 n) { return n ? g_() % n : 0; }
	s64 sym(u64 mag) { return static_cast<s64>(below(2 * mag + 1)) - static_cast<s64>(mag); }
	bool chance(unsigned pct) { return below(100) < pct; }

private:
	std::mt19937_64 g_;
};

StateSpec random_state(Rng& r)
{
	static const u32 hzs[] = {100, 250, 300, 1000};
	StateSpec s;
	s.cfg = make_config(*find_preset("6.18"), hzs[r.below(4)]);
	// The encoding states cfs_rq_min_slice() as the true minimum; the kernel's
	// own augments can be stale with mixed slices (docs/findings.md F9), so the
	// model is compared in its exact-augment mode.
	s.cfg.exact_tree_augments = true;
	s.cfg.base_slice_ns = 100000 + r.below(100000000 - 100000 + 1);
	s.cfg.features.set(Feature::RUN_TO_PARITY, r.chance(70));
	s.cfg.features.set(Feature::PLACE_LAG, r.chance(80));
	s.cfg.features.set(Feature::PLACE_DEADLINE_INITIAL, r.chance(80));
	s.overflow = r.chance(5);
	s.v0 = r.chance(50) ? static_cast<u64>(r.sym(1ULL << 35)) : r.u64_();
	const u64 spread = s.overflow ? (1ULL << 52) : (1ULL << 36);
	auto ent = [&]() {
		EntSpec e;
		e.nice = r.chance(50) ? 0 : static_cast<int>(r.below(40)) - 20;
		e.v = s.v0 + static_cast<u64>(r.sym(spread));
		e.d = e.v + static_cast<u64>(r.chance(10) ? r.sym(1ULL << 24) : static_cast<s64>(r.below(1ULL << 30)));
		e.custom = r.chance(30);
		e.slice = e.custom ? 100000 + r.below(100000000) : (r.chance(80) ? s.cfg.base_slice_ns : 100000 + r.below(1ULL << 27));
		e.vprot = e.v + static_cast<u64>(r.sym(1ULL << 26));
		e.exec_start = r.u64_();
		e.sum_exec = r.below(1ULL << 40);
		e.vlag = r.chance(20) ? 0 : r.sym(1ULL << 30);
		e.rel = r.chance(15);
		if (e.rel)
			e.d = r.below(1ULL << 28);
		return e;
	};
	const unsigned n = static_cast<unsigned>(r.below(5));
	for (unsigned i = 0; i < n; i++) {
		s.tree.push_back(ent());
		s.tree.back().rel = false;
		if (r.chance(15) && i)  // equal deadlines exercise the FIFO tie rule
			s.tree.back().d = s.tree[i - 1].d;
	}
	s.has_curr = n == 0 ? true : r.chance(85);
	s.curr_on_rq = r.chance(90);
	s.curr = ent();
	s.curr.rel = false;
	if (r.chance(10) && n)
		s.curr.d = s.tree[0].d;  // curr loses ties
	if (s.curr.nice == 0 && r.chance(15))
		s.curr.d = s.curr.v + (r.chance(50) ? 1000 : 999);  // renewal exactly at v == d (delta 1000 below)
	if (s.curr.nice == 0 && r.chance(15))
		s.curr.vprot = s.curr.v + 1000;  // protection ends exactly at v == vprot
	const u64 delta = r.chance(15) ? 1000 : r.chance(10) ? static_cast<u64>(-r.sym(5)) : (r.chance(10) ? 0 : 1 + r.below(1ULL << 27));
	s.clock = s.curr.exec_start + delta;
	s.extra = ent();
	if (r.chance(10))
		s.extra.d = s.extra.v;  // update_deadline at v == d
	s.initial = r.chance(50);
	s.probe_v = s.v0 + static_cast<u64>(r.sym(spread));
	return s;
}

std::string describe(const StateSpec& s)
{
	std::ostringstream o;
	o << "hz=" << s.cfg.hz << " base_slice=" << s.cfg.base_slice_ns << " v0=" << s.v0 << " clock=" << s.clock
	  << " features=" << features_string(s.cfg.features) << "\n";
	auto e = [&](const char* what, const EntSpec& x) {
		o << "  " << what << ": nice=" << x.nice << " v=" << x.v << " d=" << x.d << " vprot=" << x.vprot
		  << " slice=" << x.slice << " custom=" << x.custom << " vlag=" << x.vlag << " rel=" << x.rel
		  << " exec_start=" << x.exec_start << "\n";
	};
	for (const EntSpec& t : s.tree)
		e("tree", t);
	if (s.has_curr)
		e(s.curr_on_rq ? "curr" : "curr(off rq)", s.curr);
	e("extra", s.extra);
	return o.str();
}

}  // namespace

CheckStats check_encoding(u64 states, u64 seed, std::ostream& out, unsigned max_report, unsigned mutation)
{
	const auto t0 = std::chrono::steady_clock::now();
	CheckStats st;
	z3::context c;
	Rng r(seed);
	auto num = [](const expr& e) { return e.simplify().get_numeral_uint64(); };
	auto truth = [](const expr& e) { return e.simplify().is_true(); };
	unsigned reported = 0;

	for (u64 k = 0; k < states; k++) {
		const StateSpec s = random_state(r);
		st.states++;
		st.overflow_states += s.overflow;
		bool wrapped = false;
		for (const EntSpec& e : s.tree)
			wrapped |= (e.v < s.v0) != (wrapped_diff(e.v, s.v0) < 0);
		st.wrapped_states += wrapped;

		auto cmp = [&](const char* what, u64 model, u64 enc) {
			st.comparisons++;
			if (model == enc)
				return;
			st.mismatches++;
			if (reported++ < max_report)
				out << "encoding mismatch in " << what << ": model " << model << ", encoding " << enc
				    << "\n" << describe(s);
		};

		{  // avg_vruntime, eligibility, pick
			ModelState m(s);
			SymState y = sym_state(c, s, mutation);
			cmp("avg_vruntime", m.rq.avg_vruntime(), num(y.enc.avg_vruntime(y.rq)));
			for (size_t i = 0; i < s.tree.size(); i++)
				cmp("entity_eligible(tree)", m.rq.entity_eligible(m.tree[i]),
				    truth(y.enc.vruntime_eligible(y.rq, y.rq.tree[i].v)));
			if (s.has_curr)
				cmp("entity_eligible(curr)", m.rq.entity_eligible(m.curr),
				    truth(y.enc.vruntime_eligible(y.rq, y.rq.curr->v)));
			cmp("vruntime_eligible(v)", m.rq.vruntime_eligible(s.probe_v),
			    truth(y.enc.vruntime_eligible(y.rq, y.enc.bv(s.probe_v))));
			// The heap search equals "first eligible in tree order" only while
			// eligibility is monotone in v, i.e. without product overflow.
			if (!s.overflow)
				for (bool protect : {true, false})
					cmp(protect ? "pick_eevdf" : "pick_eevdf(protect=0)",
					    m.pick_index(m.rq.pick_eevdf_protect(protect)), num(y.enc.pick_eevdf(y.rq, protect)));
		}
		if (s.has_curr) {  // update_curr and the tick
			for (int tick = 0; tick < 2; tick++) {
				ModelState m(s);
				SymState y = sym_state(c, s, mutation);
				const char* what = tick ? "entity_tick" : "update_curr";
				if (tick) {
					m.rq.entity_tick(false);
					y.enc.entity_tick(y.rq);
				} else {
					m.rq.update_curr();
					y.enc.update_curr(y.rq);
				}
				cmp(what, m.curr->vruntime, num(y.rq.curr->v));
				cmp(what, m.curr->deadline, num(y.rq.curr->d));
				cmp(what, m.curr->slice, num(y.rq.curr->slice));
				cmp(what, m.curr->exec_start, num(y.rq.curr->exec_start));
				cmp(what, m.curr->sum_exec_runtime, num(y.rq.curr->sum_exec));
				cmp(what, m.rq.ref_vruntime, num(y.rq.v0));
				cmp(what, static_cast<u64>(m.rq.avg_vruntime_sum), num(y.rq.sum));
				cmp(what, m.rq.need_resched, truth(y.rq.need_resched));
			}
		}
		if (s.has_curr && s.curr_on_rq && !s.tree.empty() && !s.overflow) {
			// check_preempt_wakeup_fair(pse) for the last tree entity (the waker),
			// with PREEMPT_SHORT and WAKEUP_PREEMPTION switched at random
			StateSpec w = s;
			w.cfg.features.set(Feature::PREEMPT_SHORT, (k & 1) != 0);
			w.cfg.features.set(Feature::WAKEUP_PREEMPTION, (k % 7) != 0);
			ModelState m(w);
			SymState y = sym_state(c, w, mutation);
			const bool pre = (k % 11) == 0;  // need_resched already set
			m.rq.need_resched = pre;
			y.rq.need_resched = c.bool_val(pre);
			m.rq.check_preempt_wakeup_fair(m.tree.back(), WF_TTWU);
			y.enc.check_preempt_wakeup_fair(y.rq, static_cast<unsigned>(w.tree.size() - 1));
			cmp("check_preempt_wakeup_fair", m.rq.need_resched, truth(y.rq.need_resched));
			cmp("check_preempt_wakeup_fair", static_cast<u64>(m.curr->vlag), num(y.rq.curr->vprot));
			cmp("check_preempt_wakeup_fair", m.curr->vruntime, num(y.rq.curr->v));
			cmp("check_preempt_wakeup_fair", m.curr->deadline, num(y.rq.curr->d));
		}
		{
			// The integer obligations' own rule terms (proofs/int_rules.hpp)
			// on the same state: eligibility, avg_vruntime's floor, the pick
			// with and without protection, the re-pick of curr, and one
			// update_curr step. Overflow states are outside their
			// precondition and only counted.
			ModelState m(s);
			RuleTally t;
			t.out = &out;
			t.max_report = reported < max_report ? max_report - reported : 0;
			compare_queue_rules(c, m.rq, mutation, t);
			if (s.curr_on_rq && m.rq.nr_queued >= 2 && wrapped_diff(s.clock, s.curr.exec_start) > 0) {
				const CurrBefore before = CurrBefore::of(m.rq);
				m.rq.update_curr();
				compare_step_rule(c, before, m.rq, mutation, t);
			}
			st.comparisons += t.comparisons;
			st.mismatches += t.mismatches;
			st.rule_overflow_states += t.overflow;
			reported += std::min<u64>(t.mismatches, t.max_report);
		}
		{  // update_deadline, set_protect_slice, place_entity on an entity off the tree
			ModelState m(s);
			SymState y = sym_state(c, s, mutation);
			const bool renewed = m.rq.update_deadline(m.extra);
			const expr yr = y.enc.update_deadline(y.extra);
			cmp("update_deadline", renewed, truth(yr));
			cmp("update_deadline", m.extra->deadline, num(y.extra.d));
			cmp("update_deadline", m.extra->slice, num(y.extra.slice));
		}
		{
			ModelState m(s);
			SymState y = sym_state(c, s, mutation);
			m.extra->rel_deadline = false;
			y.extra.rel_deadline = false;
			m.rq.set_protect_slice(m.extra);
			y.enc.set_protect_slice(y.rq, y.extra);
			cmp("set_protect_slice", static_cast<u64>(m.extra->vlag), num(y.extra.vprot));
		}
		{
			ModelState m(s);
			SymState y = sym_state(c, s, mutation);
			m.rq.place_entity(m.extra, s.initial ? ENQUEUE_INITIAL : ENQUEUE_WAKEUP);
			y.enc.place_entity(y.rq, y.extra, s.initial);
			cmp("place_entity", m.extra->vruntime, num(y.extra.v));
			cmp("place_entity", m.extra->deadline, num(y.extra.d));
			cmp("place_entity", m.extra->slice, num(y.extra.slice));
		}
		{  // calc_delta_fair on its own, over the whole u64 range and every nice
			Enc e(c, SymConfig{c.bv_val(0, 64), c.bv_val(0, 64), {}, 700000, MUT_NONE});
			LoadWeight lw = task_load_weight(static_cast<int>(r.below(40)) - 20);
			const u64 delta = r.chance(50) ? r.below(1ULL << 34) : r.u64_();
			cmp("calc_delta_fair", calc_delta_fair(delta, lw), num(e.calc_delta_fair(e.bv(delta), cdf_params(lw))));
		}
	}
	st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	return st;
}

}  // namespace eevdf::proofs
