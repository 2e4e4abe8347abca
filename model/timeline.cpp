// SPDX-License-Identifier: GPL-2.0-only
#include "model/timeline.hpp"

namespace eevdf {
namespace {

// min_vruntime_update() / min_deadline_update() as RBCOMPUTE: true when
// nothing changed, which is where propagate stops.
struct EntityAugment {
	static bool compute(SchedEntity* se)
	{
		const u64 minv = se->min_vruntime, mins = se->min_slice, maxs = se->max_slice, mind = se->min_deadline;
		Timeline::update_augment(se);
		return se->min_vruntime == minv && se->min_slice == mins && se->max_slice == maxs &&
		       se->min_deadline == mind;
	}
	static void copy(const SchedEntity* from, SchedEntity* to)
	{
		to->min_vruntime = from->min_vruntime;
		to->min_slice = from->min_slice;
		to->max_slice = from->max_slice;
		to->min_deadline = from->min_deadline;
	}
};

using Callbacks = rb::Augment<SchedEntity, EntityAugment>;

// Bug::STALE_AUGMENT: the erase refreshes nothing above the nodes it moves.
// The successor still takes the erased node's values and rotations still
// recompute the nodes they demote, as the tree's own moves require.
struct StaleEraseCallbacks : Callbacks {
	static void propagate(SchedEntity*, SchedEntity*) {}
};

struct DeadlineLess {
	bool operator()(const SchedEntity* a, const SchedEntity* b) const
	{
		return wrapped_diff(a->deadline, b->deadline) < 0;
	}
};

struct VruntimeLess {
	bool operator()(const SchedEntity* a, const SchedEntity* b) const
	{
		return wrapped_diff(a->vruntime, b->vruntime) < 0;
	}
};

}  // namespace

void Timeline::update_augment(SchedEntity* se)
{
	// Left child first, then right: the same order of min/max as a loop
	// over {left, right}, written out so that it compiles to straight code.
	u64 minv = se->vruntime, mins = se->slice, maxs = se->slice, mind = se->deadline;
	if (const SchedEntity* c = se->left) {
		minv = min_vruntime(minv, c->min_vruntime);
		mins = c->min_slice < mins ? c->min_slice : mins;
		maxs = c->max_slice > maxs ? c->max_slice : maxs;
		mind = min_vruntime(mind, c->min_deadline);
	}
	if (const SchedEntity* c = se->right) {
		minv = min_vruntime(minv, c->min_vruntime);
		mins = c->min_slice < mins ? c->min_slice : mins;
		maxs = c->max_slice > maxs ? c->max_slice : maxs;
		mind = min_vruntime(mind, c->min_deadline);
	}
	se->min_vruntime = minv;
	se->min_slice = mins;
	se->max_slice = maxs;
	se->min_deadline = mind;
}

// __enqueue_entity: a leaf's augmented values are its own.
void Timeline::insert(SchedEntity* se)
{
	se->min_vruntime = se->vruntime;
	se->min_slice = se->slice;
	se->max_slice = se->slice;
	se->min_deadline = se->deadline;
	se->node_seq = next_seq_++;
	if (key_ == Key::Deadline)
		rb::add_augmented_cached<SchedEntity, Callbacks>(se, tree_, DeadlineLess{});
	else
		rb::add_augmented_cached<SchedEntity, Callbacks>(se, tree_, VruntimeLess{});
	size_++;
}

void Timeline::erase(SchedEntity* se)
{
	if (!se->rb_parent && tree_.node != se)
		return;  // not in the tree: caller's invariant violated; leave the tree intact
	if (stale_augment_on_erase)
		rb::erase_augmented_cached<SchedEntity, StaleEraseCallbacks>(se, tree_);
	else
		rb::erase_augmented_cached<SchedEntity, Callbacks>(se, tree_);
	se->left = se->right = se->rb_parent = nullptr;  // RB_CLEAR_NODE's role: erase twice is a no-op
	size_--;
}

void Timeline::propagate(SchedEntity* se)
{
	Callbacks::propagate(se, nullptr);
}

}  // namespace eevdf
