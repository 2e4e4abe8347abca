// SPDX-License-Identifier: GPL-2.0-only
// tasks_timeline: the deadline-ordered, augmented search tree of queued
// entities (kernel: rb_root_cached + RB_DECLARE_CALLBACKS(min_vruntime_cb)).
//
// The kernel uses a red-black tree; this is a treap whose heap priorities are
// a fixed hash of the insertion sequence number, so its shape is a pure
// function of the operation sequence (deterministic) and its depth is
// O(log n) in expectation. What the scheduler observes is identical: in-order
// = (deadline, FIFO among equal deadlines), and every node knows the minimum
// vruntime (and min/max slice) of its subtree. Nodes are intrusive: no
// allocation on insert or erase.
#pragma once

#include "model/sched_entity.hpp"

namespace eevdf {

class Timeline {
public:
	void insert(SchedEntity* se);  // se->deadline, slice, vruntime are the keys/augments
	void erase(SchedEntity* se);

	bool stale_augment_on_erase = false;  // Bug::STALE_AUGMENT

	SchedEntity* root() const { return root_; }
	SchedEntity* leftmost() const { return leftmost_; }  // __pick_first_entity()
	bool empty() const { return root_ == nullptr; }
	u64 size() const { return size_; }

	// Recomputes se's augmented values from its children (min_vruntime_update()).
	static void update_augment(SchedEntity* se);

	// In-order visit, for checkers and oracles.
	template <class F>
	void for_each(F&& f) const { visit(root_, f); }

private:
	template <class F>
	static void visit(SchedEntity* n, F& f)
	{
		if (!n)
			return;
		visit(n->left, f);
		f(n);
		visit(n->right, f);
	}

	SchedEntity* root_ = nullptr;
	SchedEntity* leftmost_ = nullptr;
	u64 next_seq_ = 0;
	u64 size_ = 0;
};

// entity_before(): a's deadline is earlier, by wrapped signed difference.
inline bool entity_before(const SchedEntity* a, const SchedEntity* b)
{
	return wrapped_diff(a->deadline, b->deadline) < 0;
}

}  // namespace eevdf
