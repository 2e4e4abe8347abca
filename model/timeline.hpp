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
// The model keeps all four augmented values under either order, each group
// of them with its own callbacks (a value nobody reads costs a
// recomputation but cannot move a node: no case of rebalancing looks at
// one). Equal keys go right, so they stay FIFO.
//
// How exact they are follows the kernel (Augments, chosen per preset).
// RB_DECLARE_CALLBACKS's rotate and copy carry only the declared field to
// the node that moves up; min_vruntime_update() recomputes every field, and
// propagate stops at the first node where none changed. So under
// min_vruntime_cb only min_vruntime is the true subtree minimum: the
// min_slice (and from 6.18.17 max_slice) of a node a rotation moved up
// still describes the smaller subtree it headed before, until that node is
// recomputed, and a recomputation that finds a stale node unchanged stops
// there, so an erased entity's slice can stay in the nodes above.
// 6.18.17's __enqueue_entity also leaves max_slice as the entity's last
// time in the tree left it. 6.6's min_deadline_cb has one field, so it is
// exact. The fields a version does not have (6.6: min_vruntime, min_slice,
// max_slice; 6.12 .. 6.18.16: max_slice; 6.8+: min_deadline) are kept exact
// by separate callbacks, which leave the kernel's fields, and where its
// propagation stops, untouched.
#pragma once

#include "model/config.hpp"
#include "model/rbtree.hpp"
#include "model/sched_entity.hpp"

namespace eevdf {

class Timeline {
public:
	enum class Key { Deadline, Vruntime };
	enum class Augments {
		Exact,             // every value the true subtree extremum: 6.6, and Config::exact_tree_augments
		MinVruntimeCb,     // 6.12 .. 6.18.16: min_vruntime_cb over min_vruntime and min_slice
		MinVruntimeCbMax,  // 6.18.17+, 7.x: over min_vruntime, min_slice and max_slice
	};

	Timeline() = default;  // deadline-keyed, exact
	explicit Timeline(Key key, Augments augments = Augments::Exact) : key_(key), aug_(augments) {}
	// The tree of `paths`' kernel; exact_augments: the model's own exact one.
	Timeline(const KernelPaths& paths, bool exact_augments);

	void insert(SchedEntity* se);  // __enqueue_entity's tree half
	void erase(SchedEntity* se);   // __dequeue_entity's tree half

	// min_vruntime_cb_propagate / min_deadline_cb_propagate: se, in the tree,
	// has a new vruntime, deadline or slice that does not move it in the
	// order (reweight_entity's in-place update of 6.6).
	void propagate(SchedEntity* se);

	bool stale_augment_on_erase = false;  // Bug::STALE_AUGMENT

	Key key() const { return key_; }
	Augments augments() const { return aug_; }
	// Whether every node's min_slice / max_slice is the true subtree extremum
	// (otherwise as the kernel's; min_vruntime and min_deadline always are).
	bool min_slice_exact() const { return aug_ == Augments::Exact; }
	bool max_slice_exact() const { return aug_ != Augments::MinVruntimeCbMax; }
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

	// In-order visit, for checkers and oracles.
	template <class F>
	void for_each(F&& f) const { visit(tree_.node, f); }

private:
	template <class F>
	void with_callbacks(F&& f) const;
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
	Augments aug_ = Augments::Exact;
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
