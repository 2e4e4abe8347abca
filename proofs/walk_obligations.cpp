// SPDX-License-Identifier: GPL-2.0-only
// The model's search, not a definition (docs/proofs.md, group 6): the walks
// of __pick_eevdf() over the augmented red-black tree (tree_walk.hpp) return
// the earliest eligible deadline, for every tree of bounded height that
// satisfies the tree's order and its augmented invariant. pick_spec states
// the pick as "the first eligible entity in tree order"; these prove that
// the model's loops compute it, so a walk that skips a subtree refutes them.
#include <string>
#include <vector>

#include "proofs/obligation.hpp"
#include "proofs/query.hpp"
#include "proofs/tree_walk.hpp"

namespace eevdf::proofs {
namespace {

// Trees of bounded height, one case per slot: the heap search over every
// binary tree of height <= 5 (31 slots; every red-black tree of up to 6
// entities, height <= 2 log2(n + 1)), v6.6's walk over height <= 4 (15
// slots; up to 4 entities). The walks take one level per step, so a deeper
// tree needs only more unrolling, but the solver's cost does not scale:
// measured in z3 4.8.12, pick_walk_66's cases at height 5 take 30-255 s
// each; unsplit, pick_walk took 1, 10 and 72 s at heights 3, 4 and 5.
constexpr int HEAP_HEIGHT = 5, WALK66_HEIGHT = 4;

// Slot j is in the left (side 0) or right (side 1) subtree of slot i.
bool in_subtree(size_t i, size_t j, int side)
{
	size_t top = 2 * i + 1 + static_cast<size_t>(side);
	while (j > top)
		j = (j - 1) / 2;
	return j == top;
}

struct Setup {
	SymTree t;
	SymCurr cu;
	expr theta, pre;
	EligibleFn eligible;
};

// A tree ordered by `key` (d: 6.8+; v: 6.6) with the augmented field
// `aug` = the subtree minimum of `of` (min_vruntime of v; min_deadline of d);
// eligibility any monotone test key <= theta with some queued entity eligible
// (eligible_exists_int: the least key passes the kernel's test).
Setup setup(Query& q, bool deadline_keyed)
{
	Setup s{free_tree(q, "slot", deadline_keyed ? HEAP_HEIGHT : WALK66_HEIGHT),
		SymCurr{q.c.bool_const("curr.on_rq"), q.show("curr.v", q.ivar("curr.v")),
			q.show("curr.d", q.ivar("curr.d")), q.c.bool_const("curr.protected")},
		q.show("theta", q.ivar("theta")), q.c.bool_val(true), nullptr};
	const expr theta = s.theta;
	s.eligible = [theta](const expr& k) { return k <= theta; };
	const SymTree& t = s.t;
	const std::vector<expr>& key = deadline_keyed ? t.d : t.v;
	const std::vector<expr>& of = deadline_keyed ? t.v : t.d;
	const std::vector<expr>& aug = deadline_keyed ? t.min_v : t.min_d;
	expr some = s.cu.on_rq && s.eligible(s.cu.v);
	for (size_t i = 0; i < t.slots(); i++) {
		some = some || (t.present[i] && s.eligible(t.v[i]));
		if (i)
			s.pre = s.pre && z3::implies(t.present[i], t.present[(i - 1) / 2]);
		// rb order: the left subtree before the node, the right after (ties go right)
		for (size_t j = i + 1; j < t.slots(); j++) {
			if (in_subtree(i, j, 0))
				s.pre = s.pre && z3::implies(t.present[i] && t.present[j], key[j] <= key[i]);
			if (in_subtree(i, j, 1))
				s.pre = s.pre && z3::implies(t.present[i] && t.present[j], key[i] <= key[j]);
		}
		// the augmented invariant: aug = min(of, the children's aug)
		expr is_min = aug[i] <= of[i], attained = aug[i] == of[i];
		for (int side : {0, 1}) {
			const size_t ch = 2 * i + 1 + static_cast<size_t>(side);
			if (ch < t.slots()) {
				is_min = is_min && z3::implies(t.present[ch], aug[i] <= aug[ch]);
				attained = attained || (t.present[ch] && aug[i] == aug[ch]);
			}
		}
		s.pre = s.pre && z3::implies(t.present[i], is_min && attained);
	}
	s.pre = s.pre && some;
	return s;
}

// "d_x <= d_y for every eligible queued y": the earliest eligible deadline.
expr earliest_eligible(const Setup& s, const expr& x)
{
	const SymTree& t = s.t;
	const expr zero = x.ctx().int_val(0);
	const expr dx = z3::ite(x == WALK_CURR, s.cu.d, at(t.d, x, zero));
	const expr vx = z3::ite(x == WALK_CURR, s.cu.v, at(t.v, x, zero));
	const expr queued = z3::ite(x == WALK_CURR, s.cu.on_rq, x != WALK_NONE);
	expr e = queued && s.eligible(vx) && z3::implies(s.cu.on_rq && s.eligible(s.cu.v), dx <= s.cu.d);
	for (size_t i = 0; i < t.slots(); i++)
		e = e && z3::implies(t.present[i] && s.eligible(t.v[i]), dx <= t.d[i]);
	return e;
}

// Case k of pick_walk: the first eligible entity in tree order is slot k
// (k = slots: there is none). The cases cover every tree; with the answer
// fixed, the solver follows one path instead of splitting on all of them.
void build_walk_heap(Query& q, unsigned m, size_t k_case)
{
	const Setup s = setup(q, true);
	const SymTree& t = s.t;
	const expr protect = q.c.bool_const("protect");
	const WalkResult w = walk_heap(t, s.cu, s.eligible, protect, m);
	z3::context& c = q.c;
	const expr NONE = c.int_val(WALK_NONE), CURR = c.int_val(WALK_CURR), zero = c.int_val(0);
	// the first eligible entity in tree order
	const std::vector<int> rank = inorder_rank(t.height);
	std::vector<size_t> by_rank(t.slots());
	for (size_t i = 0; i < t.slots(); i++)
		by_rank[static_cast<size_t>(rank[i])] = i;
	expr first = NONE;
	for (size_t k = t.slots(); k-- > 0;)
		first = z3::ite(t.present[by_rank[k]] && s.eligible(t.v[by_rank[k]]),
				c.int_val(static_cast<int>(by_rank[k])), first);
	const expr c_ok = s.cu.on_rq && s.eligible(s.cu.v);
	const expr protected_curr = protect && c_ok && s.cu.prot;
	const expr expected = z3::ite(protected_curr, CURR,
				      z3::ite(first == NONE || (c_ok && s.cu.d < at(t.d, first, zero)), CURR, first));
	// (nr_queued == 1 returns the one entity without a test: it is eligible)
	const expr claim = w.pick == expected && (protected_curr || earliest_eligible(s, w.pick));
	expr this_case = first == c.int_val(k_case < t.slots() ? static_cast<int>(k_case) : WALK_NONE);
	for (size_t i = 0; i < t.slots(); i++) {
		const expr el = t.present[i] && s.eligible(t.v[i]);
		if (i == k_case)
			this_case = this_case && el;
		else if (k_case >= t.slots() || rank[i] < rank[k_case])
			this_case = this_case && !el;
	}
	q.s.add(s.pre && this_case && !claim);
}

// Case k of pick_walk_66: slot k (k = slots: curr) is eligible with the
// earliest eligible deadline. Some queued entity is eligible, so one of
// them is such an entity and the cases cover every tree.
void build_walk_66(Query& q, unsigned m, size_t k_case)
{
	const Setup s = setup(q, false);
	const SymTree& t = s.t;
	const expr k = q.c.int_val(k_case < t.slots() ? static_cast<int>(k_case) : WALK_CURR);
	const expr rtp = q.c.bool_const("RUN_TO_PARITY");
	const WalkResult w = walk_66(s.t, s.cu, s.eligible, rtp, m);
	const expr protected_curr = rtp && s.cu.on_rq && s.eligible(s.cu.v) && s.cu.prot;
	const expr claim = z3::ite(protected_curr, w.pick == WALK_CURR, earliest_eligible(s, w.pick));
	q.s.add(s.pre && earliest_eligible(s, k) && !claim);
}

}  // namespace

std::vector<Obligation> walk_obligations()
{
	std::vector<Obligation> v;
	v.push_back({"pick_walk", "6",
		     "the model's heap search (pick_eevdf_protect, 6.8+): every binary tree of height <= 5 (every "
		     "red-black tree of up to 6 entities) ordered by deadline (ties to the right) whose nodes hold "
		     "their subtree's min_vruntime, any curr on or off the queue, protect 0 or 1, eligibility any "
		     "monotone test key <= theta (the kernel's without overflow) with some queued entity eligible: the "
		     "walk returns the first eligible entity in tree order, or curr when it is "
		     "eligible with a strictly earlier deadline or protected; so its deadline is the earliest eligible "
		     "one (QF_LIA over integer keys and deadlines; one case per answer)",
		     true, MUT_WALK_NODE_FIRST, nullptr, nullptr});
	v.back().build_case = build_walk_heap;
	v.push_back({"pick_walk_66", "6",
		     "v6.6's min_deadline walk (pick_eevdf_66): every binary tree of height <= 4 (every red-black tree "
		     "of up to 4 entities) ordered by vruntime "
		     "(ties to the right) whose nodes hold their subtree's min_deadline, any curr, RUN_TO_PARITY on or "
		     "off, eligibility any monotone test key <= theta with some queued entity eligible: the walk and "
		     "its descent return an eligible entity whose deadline is <= every "
		     "eligible entity's, or a protected curr (QF_LIA; one case per earliest eligible entity)",
		     true, MUT_WALK66_PREFIX, nullptr, nullptr});
	v.back().build_case = build_walk_66;
	// each slot, and none (heap) or curr (6.6)
	v[0].cases = (size_t{1} << HEAP_HEIGHT) - 1 + 1;
	v[1].cases = (size_t{1} << WALK66_HEIGHT) - 1 + 1;
	for (Obligation& o : v)
		o.logic = "QF_LIA";
	return v;
}

}  // namespace eevdf::proofs
