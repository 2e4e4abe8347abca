// SPDX-License-Identifier: GPL-2.0-only
// eevdf_tree_bench: the cost of the tasks_timeline hot path, the kernel's
// red-black tree (model/timeline.hpp) against the treap the model used
// before it (a copy kept below, for this comparison only).
//
//   Tree/{rbtree,treap}/n   one scheduling step on a queue of n entities:
//                           pick (the fair.cpp heap search, leftmost first),
//                           erase the picked entity, advance its vruntime by
//                           its slice and its deadline to v + slice, insert it
//                           again; items = steps
//
// Both trees see the same entities and the same step sequence (the pick is
// the same entity in both: the first eligible one in tree order).
#include <benchmark/benchmark.h>

#include <vector>

#include "model/timeline.hpp"

namespace {

using namespace eevdf;

// ------------------------------------------------------------------------
// OLD TREAP, kept only for this comparison: model/timeline.{hpp,cpp} before
// the red-black tree replaced it. Heap priorities are a hash of the
// insertion count; in-order is (deadline, insertion order).
namespace old_treap {

struct Node {
	u64 vruntime = 0, deadline = 0, slice = 0;
	Node* left = nullptr;
	Node* right = nullptr;
	u64 node_seq = 0, node_prio = 0;
	u64 min_vruntime = 0, min_slice = 0, max_slice = 0;
};

u64 hash_seq(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

bool node_less(const Node* a, const Node* b)
{
	const s64 d = wrapped_diff(a->deadline, b->deadline);
	if (d)
		return d < 0;
	return a->node_seq < b->node_seq;
}

void update_augment(Node* se)
{
	u64 minv = se->vruntime, mins = se->slice, maxs = se->slice;
	if (const Node* c = se->left) {
		minv = min_vruntime(minv, c->min_vruntime);
		mins = c->min_slice < mins ? c->min_slice : mins;
		maxs = c->max_slice > maxs ? c->max_slice : maxs;
	}
	if (const Node* c = se->right) {
		minv = min_vruntime(minv, c->min_vruntime);
		mins = c->min_slice < mins ? c->min_slice : mins;
		maxs = c->max_slice > maxs ? c->max_slice : maxs;
	}
	se->min_vruntime = minv;
	se->min_slice = mins;
	se->max_slice = maxs;
}

void split(Node* t, const Node* key, Node*& l, Node*& r)
{
	if (!t) {
		l = r = nullptr;
		return;
	}
	if (node_less(t, key)) {
		split(t->right, key, t->right, r);
		l = t;
	} else {
		split(t->left, key, l, t->left);
		r = t;
	}
	update_augment(t);
}

Node* merge(Node* l, Node* r)
{
	if (!l || !r)
		return l ? l : r;
	if (l->node_prio > r->node_prio) {
		l->right = merge(l->right, r);
		update_augment(l);
		return l;
	}
	r->left = merge(l, r->left);
	update_augment(r);
	return r;
}

Node* leftmost_of(Node* t)
{
	while (t && t->left)
		t = t->left;
	return t;
}

class Treap {
public:
	Node* root() const { return root_; }
	Node* leftmost() const { return leftmost_; }

	void insert(Node* se)
	{
		se->left = se->right = nullptr;
		se->node_seq = next_seq_++;
		se->node_prio = hash_seq(se->node_seq);
		Node** link = &root_;
		while (Node* t = *link) {
			if (se->node_prio > t->node_prio)
				break;
			t->min_vruntime = min_vruntime(t->min_vruntime, se->vruntime);
			t->min_slice = se->slice < t->min_slice ? se->slice : t->min_slice;
			t->max_slice = se->slice > t->max_slice ? se->slice : t->max_slice;
			link = node_less(se, t) ? &t->left : &t->right;
		}
		split(*link, se, se->left, se->right);
		update_augment(se);
		*link = se;
		if (!leftmost_ || node_less(se, leftmost_))
			leftmost_ = se;
	}

	// The old erase without its depth-128 fallback (never taken here).
	void erase(Node* se)
	{
		Node* path[128];
		int depth = 0;
		Node** link = &root_;
		while (*link && *link != se) {
			Node* t = *link;
			path[depth++] = t;
			link = node_less(se, t) ? &t->left : &t->right;
		}
		Node* const sub = merge(se->left, se->right);
		*link = sub;
		if (leftmost_ == se)
			leftmost_ = sub ? leftmost_of(sub) : (depth ? path[depth - 1] : nullptr);
		se->left = se->right = nullptr;
		while (depth > 0) {
			Node* t = path[--depth];
			const u64 minv = t->min_vruntime, mins = t->min_slice, maxs = t->max_slice;
			update_augment(t);
			if (t->min_vruntime == minv && t->min_slice == mins && t->max_slice == maxs)
				break;
		}
	}

private:
	Node* root_ = nullptr;
	Node* leftmost_ = nullptr;
	u64 next_seq_ = 0;
};

}  // namespace old_treap
// ------------------------------------------------------------------------

// Slices of 0.7, 1.4 and 2.1 ms (virtual, as if nice 0): enough spread that
// deadlines interleave and the leftmost is not always eligible.
constexpr u64 SLICE[3] = {700'000, 1'400'000, 2'100'000};

// CfsRq::pick_eevdf_protect's search, curr and protection aside: the
// leftmost if eligible, else descend left whenever the left subtree holds
// an eligible entity. Eligible: v <= V, V the plain mean (no weights).
template <class Node, class Tree>
Node* pick(const Tree& tree, u64 ref, s64 key_sum, s64 n)
{
	auto eligible = [&](u64 v) { return wrapped_diff(v, ref) * n <= key_sum; };
	Node* se = tree.leftmost();
	if (se && eligible(se->vruntime))
		return se;
	for (Node* node = tree.root(); node;) {
		if (node->left && eligible(node->left->min_vruntime)) {
			node = node->left;
			continue;
		}
		if (eligible(node->vruntime))
			return node;
		node = node->right;
	}
	return nullptr;
}

template <class Node, class Tree>
void run_steps(benchmark::State& state, Tree& tree, std::vector<Node>& nodes)
{
	const s64 n = static_cast<s64>(nodes.size());
	const u64 ref = 0;
	s64 key_sum = 0;
	for (size_t i = 0; i < nodes.size(); i++) {
		Node& se = nodes[i];
		se.slice = SLICE[i % 3];
		se.vruntime = (i * 7919) % 1'000'000;  // spread within one slice
		se.deadline = se.vruntime + se.slice;
		key_sum += wrapped_diff(se.vruntime, ref);
		tree.insert(&se);
	}
	for (auto _ : state) {
		Node* se = pick<Node>(tree, ref, key_sum, n);
		benchmark::DoNotOptimize(se);
		tree.erase(se);
		se->vruntime += se->slice;  // ran its whole request
		key_sum += static_cast<s64>(se->slice);
		se->deadline = se->vruntime + se->slice;
		tree.insert(se);
	}
	state.SetItemsProcessed(state.iterations());
}

void BM_TreeRbtree(benchmark::State& state)
{
	std::vector<SchedEntity> nodes(static_cast<size_t>(state.range(0)));
	Timeline tree;
	run_steps(state, tree, nodes);
}

void BM_TreeTreap(benchmark::State& state)
{
	std::vector<old_treap::Node> nodes(static_cast<size_t>(state.range(0)));
	old_treap::Treap tree;
	run_steps(state, tree, nodes);
}

BENCHMARK(BM_TreeRbtree)->Name("Tree/rbtree")->Arg(16)->Arg(256)->Arg(10000)->MinTime(0.3);
BENCHMARK(BM_TreeTreap)->Name("Tree/treap")->Arg(16)->Arg(256)->Arg(10000)->MinTime(0.3);

}  // namespace

BENCHMARK_MAIN();
