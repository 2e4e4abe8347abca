// SPDX-License-Identifier: GPL-2.0-only
// __pick_eevdf()'s search of the augmented red-black tree as Z3 terms, over
// a symbolic tree of bounded height: the heap search of 6.8+ (the tree
// keyed by deadline, each node knowing its subtree's min_vruntime;
// CfsRq::pick_eevdf_protect) and v6.6's walk (keyed by vruntime, each node
// knowing its subtree's min_deadline; CfsRq::pick_eevdf_66). The terms
// follow the model's loops statement by statement, one unrolled iteration
// per tree level (a step goes to a concrete child slot, so every path
// ends within the height); walk_obligations.cpp proves them correct and
// check_walk_encoding() holds them to the model's own picks on its own
// trees.
//
// A node is a slot of the heap layout (slot i's children are 2i+1 and
// 2i+2) that is present; keys and deadlines are integers relative to the
// cfs_rq's v0 (the s64 differences the kernel compares, exact while they
// lie within 2^62 of each other). Eligibility enters as a function of a
// key, so the proofs can take any monotone test and the check the model's.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include <z3++.h>

#include "model/types.hpp"
#include "proofs/query.hpp"

namespace eevdf::proofs {

// Mutations of the walks (breakers of pick_walk and pick_walk_66).
enum WalkMutation : unsigned {
	MUT_WALK_NODE_FIRST = 1u << 11,  // heap search: an eligible node is taken before its left subtree is
					 // searched (Bug::PICK_FIRST_ELIGIBLE: the left subtree skipped)
	MUT_WALK66_PREFIX = 1u << 12,  // v6.6's walk before b01db23d5923: it follows min_deadline down and
				       // never returns to the eligible left subtrees it passed
};

struct SymTree {
	int height = 0;  // levels 0 .. height-1
	std::vector<z3::expr> present;  // Bool per slot; a child only under a present parent
	std::vector<z3::expr> v, d;  // Int: key (v - v0), deadline - v0
	std::vector<z3::expr> min_v;  // 6.8+: the subtree's least key (min_vruntime)
	std::vector<z3::expr> min_d;  // 6.6: the subtree's earliest deadline (min_deadline)
	size_t slots() const { return present.size(); }
};

// A free tree of `height` levels, every field named "TAG..." and shown.
SymTree free_tree(Query& q, const std::string& tag, int height);

// In-order rank of each slot of a full tree of `height` levels.
std::vector<int> inorder_rank(int height);

struct SymCurr {
	z3::expr on_rq, v, d, prot;  // prot: protect_slice(curr)
};

// Results: a slot, or one of these.
inline constexpr int WALK_NONE = -1, WALK_CURR = -2;

struct WalkResult {
	z3::expr pick;  // Int: slot, WALK_NONE or WALK_CURR
};

using EligibleFn = std::function<z3::expr(const z3::expr&)>;

// pick_eevdf_protect(protect) on a deadline-keyed tree (6.8+).
WalkResult walk_heap(const SymTree& t, const SymCurr& c, const EligibleFn& eligible, const z3::expr& protect,
		     unsigned mutation);
// pick_eevdf_66() (RUN_TO_PARITY as given).
WalkResult walk_66(const SymTree& t, const SymCurr& c, const EligibleFn& eligible, const z3::expr& run_to_parity,
		   unsigned mutation);

// The field of slot `node` (an Int term), `dflt` for WALK_NONE.
z3::expr at(const std::vector<z3::expr>& field, const z3::expr& node, const z3::expr& dflt);

// The walks against the model: `states` random cfs_rqs under the 6.18 and
// 6.6 presets (trees of up to 12 entities, curr on or off the queue, tied
// keys and deadlines), each of height <= `height`, both walks' terms on
// numerals against pick_eevdf_protect(0/1) and pick_eevdf_66().
struct WalkCheckStats {
	u64 states = 0, comparisons = 0, mismatches = 0, too_tall = 0;
};
WalkCheckStats check_walk_encoding(u64 states, u64 seed, int height, std::ostream& out, unsigned max_report,
				   unsigned mutation);

}  // namespace eevdf::proofs
