// SPDX-License-Identifier: GPL-2.0-only
// The tree searches of __pick_eevdf() as Z3 terms (tree_walk.hpp), and
// their check against the model's picks on the model's own trees.
#include "proofs/tree_walk.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <random>

#include "model/cfs_rq_state.hpp"
#include "model/fair.hpp"

namespace eevdf::proofs {

using z3::expr;

namespace {

expr ival(z3::context& c, s64 x) { return c.int_val(static_cast<int64_t>(x)); }

int child(int slot, int side) { return 2 * slot + 1 + side; }

// rb_first(): the present slot of least in-order rank.
expr leftmost(const SymTree& t)
{
	z3::context& c = t.present.at(0).ctx();
	const std::vector<int> rank = inorder_rank(t.height);
	std::vector<size_t> by_rank(t.slots());
	for (size_t i = 0; i < t.slots(); i++)
		by_rank[static_cast<size_t>(rank[i])] = i;
	expr r = ival(c, WALK_NONE);
	for (size_t k = t.slots(); k-- > 0;)
		r = z3::ite(t.present[by_rank[k]], ival(c, static_cast<s64>(by_rank[k])), r);
	return r;
}

expr nr_queued(const SymTree& t, const SymCurr& cu)
{
	z3::context& c = t.present.at(0).ctx();
	expr n = z3::ite(cu.on_rq, ival(c, 1), ival(c, 0));
	for (const expr& p : t.present)
		n = n + z3::ite(p, ival(c, 1), ival(c, 0));
	return n;
}

}  // namespace

std::vector<int> inorder_rank(int height)
{
	const size_t n = (size_t{1} << height) - 1;
	std::vector<int> rank(n, 0);
	int next = 0;
	std::function<void(size_t)> visit = [&](size_t i) {
		if (i >= n)
			return;
		visit(2 * i + 1);
		rank[i] = next++;
		visit(2 * i + 2);
	};
	visit(0);
	return rank;
}

expr at(const std::vector<expr>& field, const expr& node, const expr& dflt)
{
	z3::context& c = node.ctx();
	expr r = dflt;
	for (size_t i = field.size(); i-- > 0;)
		r = z3::ite(node == ival(c, static_cast<s64>(i)), field[i], r);
	return r;
}

SymTree free_tree(Query& q, const std::string& tag, int height)
{
	SymTree t;
	t.height = height;
	const size_t n = (size_t{1} << height) - 1;
	for (size_t i = 0; i < n; i++) {
		const std::string s = tag + std::to_string(i);
		t.present.push_back(q.c.bool_const((s + ".present").c_str()));
		t.v.push_back(q.show(s + ".v", q.ivar(s + ".v")));
		t.d.push_back(q.show(s + ".d", q.ivar(s + ".d")));
		t.min_v.push_back(q.show(s + ".min_vruntime", q.ivar(s + ".min_vruntime")));
		t.min_d.push_back(q.show(s + ".min_deadline", q.ivar(s + ".min_deadline")));
	}
	return t;
}

// The loops below are unrolled along the tree: a step from slot i goes to
// a concrete child slot, so each slot's fields are read as themselves and
// the term grows with the slots, not with slots times levels. A step
// descends one level, and slots below the last level are absent, so every
// path ends within `height` steps: the walk terminates on every tree here.

// pick_eevdf_protect(), deadline-keyed tree: "an eligible entity in a left
// subtree always has an earlier deadline than the node, so descend left
// whenever the left subtree's min_vruntime says it holds one".
WalkResult walk_heap(const SymTree& t, const SymCurr& cu, const EligibleFn& eligible, const expr& protect,
		     unsigned mutation)
{
	z3::context& c = protect.ctx();
	const expr NONE = ival(c, WALK_NONE), CURR = ival(c, WALK_CURR), zero = ival(c, 0);
	const expr se = leftmost(t);
	// curr = NULL unless on the queue and eligible; protected curr wins
	const expr c_ok = cu.on_rq && eligible(cu.v);
	const bool node_first = mutation & MUT_WALK_NODE_FIRST;
	// the heap search from slot i
	std::function<expr(size_t)> from = [&](size_t i) -> expr {
		if (i >= t.slots())
			return NONE;
		const size_t l = static_cast<size_t>(child(static_cast<int>(i), 0));
		const expr node_el = eligible(t.v[i]);
		const expr left_el = l < t.slots() ? t.present[l] && eligible(t.min_v[l]) : c.bool_val(false);
		const expr take = node_first ? node_el : !left_el && node_el;
		const expr go_left = node_first ? !node_el && left_el : left_el;
		return z3::ite(!t.present[i], NONE,
			       z3::ite(take, ival(c, static_cast<s64>(i)), z3::ite(go_left, from(l), from(l + 1))));
	};
	const expr best = from(0);
	// the leftmost entity has the earliest deadline: taken if eligible
	const expr tree_best = z3::ite(se != NONE && eligible(at(t.v, se, zero)), se, best);
	// curr only with a strictly earlier deadline (entity_before)
	expr r = z3::ite(tree_best == NONE, z3::ite(c_ok, CURR, NONE),
			 z3::ite(c_ok && cu.d < at(t.d, tree_best, zero), CURR, tree_best));
	r = z3::ite(c_ok && protect && cu.prot, CURR, r);
	r = z3::ite(nr_queued(t, cu) == 1, z3::ite(cu.on_rq, CURR, se), r);
	return {r};
}

// pick_eevdf_66(): over the vruntime-keyed tree the eligible entities are a
// prefix; an eligible node's left subtree is all eligible, so its
// min_deadline is the best there. The walk keeps the best node seen and the
// best such left subtree, then descends that subtree to its min_deadline.
WalkResult walk_66(const SymTree& t, const SymCurr& cu, const EligibleFn& eligible, const expr& run_to_parity,
		   unsigned mutation)
{
	z3::context& c = run_to_parity.ctx();
	const expr NONE = ival(c, WALK_NONE), CURR = ival(c, WALK_CURR), F = c.bool_val(false);
	const expr c_ok = cu.on_rq && eligible(cu.v);
	auto slot = [&](size_t i) { return ival(c, static_cast<s64>(i)); };
	auto present = [&](size_t i) { return i < t.slots() ? t.present[i] : F; };
	// the walk's state: best (slot, CURR or NONE) with its deadline; the
	// best left subtree's min_deadline and the entity its descent reaches
	struct State {
		expr best, bd, has_left, left_md, left_pick;
	};
	expr r = NONE;
	if (mutation & MUT_WALK66_PREFIX) {
		// before b01db23d5923: curr is compared last, and the walk follows
		// the subtree's min_deadline without a way back
		auto finish = [&](const State& s) {
			return z3::ite(s.best == NONE, z3::ite(c_ok, CURR, NONE),
				       z3::ite(c_ok && s.bd > cu.d, CURR, s.best));
		};
		std::function<expr(size_t, const State&)> from = [&](size_t i, const State& s) -> expr {
			if (i >= t.slots())
				return finish(s);
			const size_t l = 2 * i + 1;
			const expr el = eligible(t.v[i]), nd = t.d[i], nmd = t.min_d[i];
			const expr upd = s.best == NONE || s.bd > nd;
			const expr brk = upd && nd == nmd;
			const State n{z3::ite(el && upd, slot(i), s.best), z3::ite(el && upd, nd, s.bd), F, nd, NONE};
			const expr go_left = l < t.slots() ? present(l) && t.min_d[l] == nmd : F;
			return z3::ite(
				!t.present[i], finish(s),
				z3::ite(el && brk, finish(n), z3::ite(!el || go_left, from(l, n), from(l + 1, n))));
		};
		r = from(0, State{NONE, cu.d, F, cu.d, NONE});
	} else {
		// the descent of a fully eligible subtree to its min_deadline
		std::vector<std::optional<expr>> memo(t.slots());
		std::function<expr(size_t)> descend = [&](size_t j) -> expr {
			if (j >= t.slots())
				return NONE;
			if (!memo[j]) {
				const size_t l = 2 * j + 1;
				const expr go_left = l < t.slots() ? present(l) && t.min_d[l] == t.min_d[j] : F;
				memo[j] = z3::ite(!t.present[j], NONE,
						  z3::ite(t.d[j] == t.min_d[j], slot(j),
							  z3::ite(go_left, descend(l), descend(l + 1))));
			}
			return *memo[j];
		};
		auto finish = [&](const State& s) {
			return z3::ite(!s.has_left || s.left_md > s.bd, s.best, s.left_pick);
		};
		std::function<expr(size_t, const State&)> from = [&](size_t i, const State& s) -> expr {
			if (i >= t.slots())
				return finish(s);
			const size_t l = 2 * i + 1;
			const expr el = eligible(t.v[i]), nd = t.d[i], nmd = t.min_d[i];
			const expr upd = s.best == NONE || s.bd > nd;
			State n{z3::ite(upd, slot(i), s.best), z3::ite(upd, nd, s.bd), s.has_left, s.left_md,
				s.left_pick};
			expr brk = nd == nmd;
			if (l < t.slots()) {
				const expr upd_left = t.present[l] && (!s.has_left || s.left_md > t.min_d[l]);
				n.has_left = s.has_left || upd_left;
				n.left_md = z3::ite(upd_left, t.min_d[l], s.left_md);
				n.left_pick = z3::ite(upd_left, descend(l), s.left_pick);
				brk = (t.present[l] && t.min_d[l] == nmd) || brk;
			}
			return z3::ite(!t.present[i], finish(s),
				       z3::ite(!el, from(l, s), z3::ite(brk, finish(n), from(l + 1, n))));
		};
		r = from(0, State{z3::ite(c_ok, CURR, NONE), cu.d, F, cu.d, NONE});
	}
	r = z3::ite(run_to_parity && c_ok && cu.prot, CURR, r);
	return {r};
}

// ---------------------------------------------------------------- the check

namespace {

struct Ent {
	int nice;
	u64 v, d;
};

}  // namespace

WalkCheckStats check_walk_encoding(u64 states, u64 seed, int height, std::ostream& out, unsigned max_report,
				   unsigned mutation)
{
	WalkCheckStats st;
	std::mt19937_64 g(seed);
	auto below = [&](u64 n) { return n ? g() % n : 0; };
	auto sym = [&](u64 mag) { return static_cast<s64>(below(2 * mag + 1)) - static_cast<s64>(mag); };
	z3::context c;
	unsigned reported = 0;
	for (u64 k = 0; k < states; k++) {
		const bool v66 = k % 2;
		Config cfg = make_config(*find_preset(v66 ? "6.6" : "6.18"), 250);
		cfg.features.set(Feature::RUN_TO_PARITY, below(100) < 70);
		const u64 v0 = below(2) ? g() : static_cast<u64>(sym(1ULL << 40));
		// small spreads and few distinct values: ties in keys and deadlines
		const u64 spread = below(2) ? 8 : 1ULL << 24;
		auto ent = [&] {
			Ent e{below(4) ? 0 : static_cast<int>(below(40)) - 20, 0, 0};
			e.v = v0 + static_cast<u64>(sym(spread));
			e.d = e.v + 1 + below(spread * 2);
			return e;
		};
		const size_t n = below(13);
		std::vector<EntitySpec> tree;
		for (size_t i = 0; i < n; i++) {
			const Ent e = ent();
			EntitySpec x;
			x.nice = e.nice;
			x.vruntime = e.v;
			x.deadline = below(5) || tree.empty() ? e.d : tree[below(tree.size())].deadline;
			x.slice = cfg.base_slice_ns;
			tree.push_back(x);
		}
		CfsRqState s(cfg, v0, 0, tree);
		CfsRq& rq = s.rq();
		const bool has_curr = n == 0 || below(100) < 80;
		SchedEntity* curr = nullptr;
		if (has_curr) {
			const Ent e = ent();
			EntitySpec x;
			x.nice = e.nice;
			x.vruntime = e.v;
			x.deadline = below(6) || tree.empty() ? e.d : tree[below(tree.size())].deadline;
			x.slice = cfg.base_slice_ns;
			x.vprot = below(2) ? x.deadline : x.vruntime + static_cast<u64>(sym(4));
			curr = s.set_curr(x, n == 0 || below(100) < 90);
		}
		// the model's tree in slots
		std::map<const SchedEntity*, int> slot_of;
		bool tall = false;
		int levels = 1;  // the tree's height (1 for an empty tree: the root slot, absent)
		std::function<void(const SchedEntity*, int, int)> place = [&](const SchedEntity* se, int slot,
									      int depth) {
			if (!se)
				return;
			if (depth >= height) {
				tall = true;
				return;
			}
			slot_of[se] = slot;
			levels = std::max(levels, depth + 1);
			place(se->left, child(slot, 0), depth + 1);
			place(se->right, child(slot, 1), depth + 1);
		};
		place(rq.timeline.root(), 0, 0);
		if (tall) {
			st.too_tall++;
			continue;
		}
		st.states++;
		// the walks' terms over the tree's own height (the slots below are
		// absent anyway; fewer slots keep the check quick)
		SymTree t;
		t.height = levels;
		const size_t slots = (size_t{1} << levels) - 1;
		for (size_t i = 0; i < slots; i++) {
			t.present.push_back(c.bool_val(false));
			for (auto* f : {&t.v, &t.d, &t.min_v, &t.min_d})
				f->push_back(ival(c, 0));
		}
		for (const auto& [se, i] : slot_of) {
			const size_t u = static_cast<size_t>(i);
			t.present[u] = c.bool_val(true);
			t.v[u] = ival(c, wrapped_diff(se->vruntime, v0));
			t.d[u] = ival(c, wrapped_diff(se->deadline, v0));
			t.min_v[u] = ival(c, wrapped_diff(se->min_vruntime, v0));
			t.min_d[u] = ival(c, wrapped_diff(se->min_deadline, v0));
		}
		SymCurr cu{c.bool_val(curr && curr->on_rq), ival(c, curr ? wrapped_diff(curr->vruntime, v0) : 0),
			   ival(c, curr ? wrapped_diff(curr->deadline, v0) : 0),
			   c.bool_val(curr && rq.protect_slice(curr))};
		// vruntime_eligible(): avg >= key * load, exact here (small keys)
		const CfsRq::Eligibility e = rq.eligibility();
		const EligibleFn eligible = [&](const expr& key) { return ival(c, e.avg) >= key * ival(c, e.wsum); };
		auto model_pick = [&](const SchedEntity* p) -> s64 {
			if (!p)
				return WALK_NONE;
			if (p == curr)
				return WALK_CURR;
			return slot_of.at(p);
		};
		auto cmp = [&](const char* what, const SchedEntity* model, const WalkResult& w) {
			st.comparisons++;
			const expr r = w.pick.simplify();
			int64_t got = 0;
			const bool ok = r.is_numeral_i64(got) && got == model_pick(model);
			if (ok)
				return;
			st.mismatches++;
			if (reported++ < max_report)
				out << "walk mismatch in " << what << " (" << cfg.preset->name << ", " << n
				    << " entities): model " << model_pick(model) << ", encoding " << r << "\n";
		};
		if (v66) {
			cmp("pick_eevdf_66", rq.pick_eevdf_66(),
			    walk_66(t, cu, eligible, c.bool_val(cfg.features[Feature::RUN_TO_PARITY]), mutation));
		} else {
			for (bool protect : {false, true})
				cmp(protect ? "pick_eevdf_protect(1)" : "pick_eevdf_protect(0)",
				    rq.pick_eevdf_protect(protect),
				    walk_heap(t, cu, eligible, c.bool_val(protect), mutation));
		}
	}
	return st;
}

}  // namespace eevdf::proofs
