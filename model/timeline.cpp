// SPDX-License-Identifier: GPL-2.0-only
#include "model/timeline.hpp"

#include <initializer_list>

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

SchedEntity* insert_at(SchedEntity* t, SchedEntity* se)
{
	if (!t)
		return se;
	if (se->node_prio > t->node_prio) {
		split(t, se, se->left, se->right);
		Timeline::update_augment(se);
		return se;
	}
	if (node_less(se, t))
		t->left = insert_at(t->left, se);
	else
		t->right = insert_at(t->right, se);
	Timeline::update_augment(t);
	return t;
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
	u64 minv = se->vruntime, mins = se->slice, maxs = se->slice;
	for (const SchedEntity* c : {se->left, se->right}) {
		if (!c)
			continue;
		minv = min_vruntime(minv, c->min_vruntime);
		mins = c->min_slice < mins ? c->min_slice : mins;
		maxs = c->max_slice > maxs ? c->max_slice : maxs;
	}
	se->min_vruntime = minv;
	se->min_slice = mins;
	se->max_slice = maxs;
}

void Timeline::insert(SchedEntity* se)
{
	se->left = se->right = nullptr;
	se->node_seq = next_seq_++;
	se->node_prio = hash_seq(se->node_seq);
	update_augment(se);
	root_ = insert_at(root_, se);
	size_++;
	if (!leftmost_ || node_less(se, leftmost_))
		leftmost_ = se;
}

void Timeline::erase(SchedEntity* se)
{
	root_ = erase_at(root_, se, stale_augment_on_erase);
	se->left = se->right = nullptr;
	size_--;
	if (leftmost_ == se)
		leftmost_ = leftmost_of(root_);
}

}  // namespace eevdf
