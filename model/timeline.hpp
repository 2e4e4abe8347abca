// SPDX-License-Identifier: GPL-2.0-only
// tasks_timeline: the augmented red-black tree of queued entities
// (kernel: rb_root_cached, __enqueue_entity / __dequeue_entity).
//
// The tree is the kernel's own algorithm (model/rbtree.hpp), so its shape
// and colours after any sequence of enqueues and dequeues are the kernel's:
// a search that stops early on the way down (Bug::PICK_FIRST_ELIGIBLE, or
// any question about which nodes a pick visits) sees the nodes the kernel
// would. The order is chosen at construction:
//   Key::Deadline  6.8+ (2227a957e1d5): entity_before() on deadlines,
//                  augmented by min_vruntime_cb (min_vruntime; min_slice
//                  from aef6987d8954, 6.12; max_slice from 6e3c0a4e1ad1);
//   Key::Vruntime  6.6-6.7: ordered by vruntime, augmented by
//                  min_deadline_cb.
// All four augmented values are kept under either order: a value nobody
// reads costs a recomputation but cannot move a node, since no case of
// rebalancing looks at them. Equal keys go right, so they stay FIFO.
//
// The augmented values are always the true subtree extrema: the copy on a
// rotation copies all of them, and a new node starts from its own values.
// (The kernel's RB_DECLARE_CALLBACKS copies only the named field,
// min_vruntime, on a rotation, and __enqueue_entity does not reset
// max_slice; the model does not follow those two.)
#pragma once

#include "model/rbtree.hpp"
#include "model/sched_entity.hpp"

namespace eevdf {

class Timeline {
public:
	enum class Key { Deadline, Vruntime };

	Timeline() = default;
	explicit Timeline(Key key) : key_(key) {}

	void insert(SchedEntity* se);  // __enqueue_entity's tree half
	void erase(SchedEntity* se);   // __dequeue_entity's tree half

	// min_vruntime_cb_propagate / min_deadline_cb_propagate: se, in the tree,
	// has a new vruntime, deadline or slice that does not move it in the
	// order (reweight_entity's in-place update of 6.6).
	void propagate(SchedEntity* se);

	bool stale_augment_on_erase = false;  // Bug::STALE_AUGMENT

	Key key() const { return key_; }
	u64 key_of(const SchedEntity* se) const { return key_ == Key::Deadline ? se->deadline : se->vruntime; }
	// __entity_less() for this tree's order.
	bool less(const SchedEntity* a, const SchedEntity* b) const
	{
		return wrapped_diff(key_of(a), key_of(b)) < 0;
	}

	SchedEntity* root() const { return tree_.node; }
	SchedEntity* leftmost() const { return tree_.leftmost; }  // __pick_first_entity()
	bool empty() const { return tree_.node == nullptr; }
	u64 size() const { return size_; }

	// Recomputes se's augmented values from its own fields and its
	// children's (min_vruntime_update() and min_deadline_update()).
	static void update_augment(SchedEntity* se);

	// In-order visit, for checkers and oracles.
	template <class F>
	void for_each(F&& f) const { visit(tree_.node, f); }

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

	Key key_ = Key::Deadline;
	rb::Root<SchedEntity> tree_;
	u64 next_seq_ = 0;
	u64 size_ = 0;
};

// entity_before(): a's deadline is earlier, by wrapped signed difference.
inline bool entity_before(const SchedEntity* a, const SchedEntity* b)
{
	return wrapped_diff(a->deadline, b->deadline) < 0;
}

}  // namespace eevdf
