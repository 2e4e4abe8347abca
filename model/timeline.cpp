// SPDX-License-Identifier: GPL-2.0-only
#include "model/timeline.hpp"

namespace eevdf {
namespace {

// splitmix64 finaliser: a fixed bijection, so priorities never collide.
u64 hash_seq(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

// Tree order: deadline, then insertion order (so ties go right, as rb_add does).
bool node_less(const SchedEntity* a, const SchedEntity* b)
{
	const s64 d = wrapped_diff(a->deadline, b->deadline);
	if (d)
		return d < 0;
	return a->node_seq < b->node_seq;
}

// Splits t into (< key) and (>= key).
void split(SchedEntity* t, const SchedEntity* key, SchedEntity*& l, SchedEntity*& r)
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
	Timeline::update_augment(t);
}

SchedEntity* merge(SchedEntity* l, SchedEntity* r)
{
	if (!l || !r)
		return l ? l : r;
	if (l->node_prio > r->node_prio) {
		l->right = merge(l->right, r);
		Timeline::update_augment(l);
		return l;
	}
	r->left = merge(l, r->left);
	Timeline::update_augment(r);
	return r;
}

SchedEntity* erase_at(SchedEntity* t, SchedEntity* se, bool stale)
{
	if (!t)
		return nullptr;  // not found: caller's invariant violated; leave tree intact
	if (t == se)
		return merge(t->left, t->right);
	if (node_less(se, t))
		t->left = erase_at(t->left, se, stale);
	else
		t->right = erase_at(t->right, se, stale);
	if (!stale)
		Timeline::update_augment(t);
	return t;
}

SchedEntity* leftmost_of(SchedEntity* t)
{
	if (!t)
		return nullptr;
	while (t->left)
		t = t->left;
	return t;
}

}  // namespace

void Timeline::update_augment(SchedEntity* se)
{
	// Left child first, then right: the same order of min/max as a loop
	// over {left, right}, written out so that it compiles to straight code.
	u64 minv = se->vruntime, mins = se->slice, maxs = se->slice;
	if (const SchedEntity* c = se->left) {
		minv = min_vruntime(minv, c->min_vruntime);
		mins = c->min_slice < mins ? c->min_slice : mins;
		maxs = c->max_slice > maxs ? c->max_slice : maxs;
	}
	if (const SchedEntity* c = se->right) {
		minv = min_vruntime(minv, c->min_vruntime);
		mins = c->min_slice < mins ? c->min_slice : mins;
		maxs = c->max_slice > maxs ? c->max_slice : maxs;
	}
	se->min_vruntime = minv;
	se->min_slice = mins;
	se->max_slice = maxs;
}

// Top-down: every node passed on the way to se's place gains se in its
// subtree, so its augment is extended by se's values (the minimum of a set
// does not depend on the order it is taken in); the subtree at se's place is
// split under se and recomputed. The shape is the recursive version's.
void Timeline::insert(SchedEntity* se)
{
	se->left = se->right = nullptr;
	se->node_seq = next_seq_++;
	se->node_prio = hash_seq(se->node_seq);
	SchedEntity** link = &root_;
	while (SchedEntity* t = *link) {
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
	size_++;
	if (!leftmost_ || node_less(se, leftmost_))
		leftmost_ = se;
}

// Finds se along its search path and replaces it by the merge of its
// children, then recomputes the augments on the path bottom-up, stopping at
// the first node whose augment did not change (nothing above it can).
void Timeline::erase(SchedEntity* se)
{
	constexpr int MAX_DEPTH = 128;
	SchedEntity* path[MAX_DEPTH];
	int depth = 0;
	SchedEntity** link = &root_;
	while (*link && *link != se) {
		if (depth == MAX_DEPTH) {  // a pathologically deep tree: the recursive version
			root_ = erase_at(root_, se, stale_augment_on_erase);
			se->left = se->right = nullptr;
			size_--;
			if (leftmost_ == se)
				leftmost_ = leftmost_of(root_);
			return;
		}
		SchedEntity* t = *link;
		path[depth++] = t;
		link = node_less(se, t) ? &t->left : &t->right;
	}
	if (!*link)
		return;  // not found: caller's invariant violated; leave tree intact
	SchedEntity* const sub = merge(se->left, se->right);
	*link = sub;
	if (leftmost_ == se)  // se had no left child: its successor is sub's leftmost, or its parent
		leftmost_ = sub ? leftmost_of(sub) : (depth ? path[depth - 1] : nullptr);
	se->left = se->right = nullptr;
	size_--;
	if (stale_augment_on_erase)  // Bug::STALE_AUGMENT: the path keeps its old augments
		return;
	while (depth > 0) {
		SchedEntity* t = path[--depth];
		const u64 minv = t->min_vruntime, mins = t->min_slice, maxs = t->max_slice;
		update_augment(t);
		if (t->min_vruntime == minv && t->min_slice == mins && t->max_slice == maxs)
			break;
	}
}

}  // namespace eevdf
