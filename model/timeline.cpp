// SPDX-License-Identifier: GPL-2.0-only
#include "model/timeline.hpp"

#include <initializer_list>

namespace eevdf {
namespace {

// The subtree extrema from a node's own field and its children's stored
// values, children taken right before left as min_vruntime_update() and
// min_deadline_update() do (the order matters only for wrapped minima more
// than 2^63 apart).
u64 sub_min_vruntime(const SchedEntity* se)
{
	u64 m = se->vruntime;
	for (const SchedEntity* c : {se->right, se->left})
		if (c)
			m = min_vruntime(m, c->min_vruntime);
	return m;
}

u64 sub_min_deadline(const SchedEntity* se)
{
	u64 m = se->deadline;
	for (const SchedEntity* c : {se->right, se->left})
		if (c)
			m = min_vruntime(m, c->min_deadline);
	return m;
}

u64 sub_min_slice(const SchedEntity* se)
{
	u64 m = se->slice;
	for (const SchedEntity* c : {se->right, se->left})
		if (c && c->min_slice < m)
			m = c->min_slice;
	return m;
}

u64 sub_max_slice(const SchedEntity* se)
{
	u64 m = se->slice;
	for (const SchedEntity* c : {se->right, se->left})
		if (c && c->max_slice > m)
			m = c->max_slice;
	return m;
}

// Each struct is one RB_DECLARE_CALLBACKS: compute is RBCOMPUTE (true when
// nothing changed), copy moves RBAUGMENTED.

// min_vruntime_cb of 6.12 .. 6.18.16: min_vruntime_update() recomputes
// min_vruntime and min_slice; the declared field is min_vruntime.
struct MinVruntimeCb {
	static bool compute(SchedEntity* se)
	{
		const u64 minv = se->min_vruntime, mins = se->min_slice;
		se->min_vruntime = sub_min_vruntime(se);
		se->min_slice = sub_min_slice(se);
		return se->min_vruntime == minv && se->min_slice == mins;
	}
	static void copy(const SchedEntity* from, SchedEntity* to) { to->min_vruntime = from->min_vruntime; }
};

// min_vruntime_cb of 6.18.17+ and 7.x (6e3c0a4e1ad1 adds max_slice to
// min_vruntime_update()); the declared field is still min_vruntime.
struct MinVruntimeCbMax {
	static bool compute(SchedEntity* se)
	{
		const u64 minv = se->min_vruntime, mins = se->min_slice, maxs = se->max_slice;
		se->min_vruntime = sub_min_vruntime(se);
		se->min_slice = sub_min_slice(se);
		se->max_slice = sub_max_slice(se);
		return se->min_vruntime == minv && se->min_slice == mins && se->max_slice == maxs;
	}
	static void copy(const SchedEntity* from, SchedEntity* to) { to->min_vruntime = from->min_vruntime; }
};

// min_deadline_cb (6.6): one field, so copy carries all of it: exact.
struct MinDeadlineCb {
	static bool compute(SchedEntity* se)
	{
		const u64 mind = se->min_deadline;
		se->min_deadline = sub_min_deadline(se);
		return se->min_deadline == mind;
	}
	static void copy(const SchedEntity* from, SchedEntity* to) { to->min_deadline = from->min_deadline; }
};

// The model's own exact callbacks: every field they compute is declared.
struct ExactVruntimeSlices {
	static bool compute(SchedEntity* se)
	{
		const u64 minv = se->min_vruntime, mins = se->min_slice, maxs = se->max_slice;
		se->min_vruntime = sub_min_vruntime(se);
		se->min_slice = sub_min_slice(se);
		se->max_slice = sub_max_slice(se);
		return se->min_vruntime == minv && se->min_slice == mins && se->max_slice == maxs;
	}
	static void copy(const SchedEntity* from, SchedEntity* to)
	{
		to->min_vruntime = from->min_vruntime;
		to->min_slice = from->min_slice;
		to->max_slice = from->max_slice;
	}
};

struct ExactMaxSlice {
	static bool compute(SchedEntity* se)
	{
		const u64 maxs = se->max_slice;
		se->max_slice = sub_max_slice(se);
		return se->max_slice == maxs;
	}
	static void copy(const SchedEntity* from, SchedEntity* to) { to->max_slice = from->max_slice; }
};

template <class C>
using Cb = rb::Augment<SchedEntity, C>;
template <class A, class B>
using Both = rb::Both<SchedEntity, A, B>;

// min_deadline is kept (exactly) under every order; only 6.6 reads it.
using ExactCallbacks = Both<Cb<ExactVruntimeSlices>, Cb<MinDeadlineCb>>;
using Callbacks612 = Both<Cb<MinVruntimeCb>, Both<Cb<ExactMaxSlice>, Cb<MinDeadlineCb>>>;
using Callbacks61817 = Both<Cb<MinVruntimeCbMax>, Cb<MinDeadlineCb>>;

// Bug::STALE_AUGMENT: the erase refreshes nothing above the nodes it moves.
// The successor still takes the erased node's values and rotations still
// recompute the nodes they demote, as the tree's own moves require.
template <class C>
struct StaleErase : C {
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

Timeline::Augments augments_of(const KernelPaths& paths, bool exact)
{
	if (exact || paths.tree == KernelPaths::Tree::VruntimeKeyed)
		return Timeline::Augments::Exact;  // 6.6's one field is exact anyway
	// max_slice arrived with the max-slice lag clamp (6e3c0a4e1ad1, 6.18.17).
	return paths.lag_clamp == KernelPaths::LagClamp::MaxSlicePlusTick ? Timeline::Augments::MinVruntimeCbMax
									  : Timeline::Augments::MinVruntimeCb;
}

}  // namespace

Timeline::Timeline(const KernelPaths& paths, bool exact_augments)
	: key_(paths.tree == KernelPaths::Tree::VruntimeKeyed ? Key::Vruntime : Key::Deadline),
	  aug_(augments_of(paths, exact_augments))
{
}

template <class F>
void Timeline::with_callbacks(F&& f) const
{
	switch (aug_) {
	case Augments::Exact:
		f.template operator()<ExactCallbacks>();
		break;
	case Augments::MinVruntimeCb:
		f.template operator()<Callbacks612>();
		break;
	case Augments::MinVruntimeCbMax:
		f.template operator()<Callbacks61817>();
		break;
	}
}

// __enqueue_entity: the fields it initialises start from the entity's own
// values; 6.18.17+ does not initialise max_slice, which keeps what the
// entity's last time in the tree (or its creation, 0) left.
void Timeline::insert(SchedEntity* se)
{
	se->min_vruntime = se->vruntime;
	se->min_slice = se->slice;
	if (aug_ != Augments::MinVruntimeCbMax)
		se->max_slice = se->slice;
	se->min_deadline = se->deadline;
	se->node_seq = next_seq_++;
	with_callbacks([&]<class C>() {
		if (key_ == Key::Deadline)
			rb::add_augmented_cached<SchedEntity, C>(se, tree_, DeadlineLess{});
		else
			rb::add_augmented_cached<SchedEntity, C>(se, tree_, VruntimeLess{});
	});
	size_++;
}

void Timeline::erase(SchedEntity* se)
{
	if (!se->rb_parent && tree_.node != se)
		return;  // not in the tree: caller's invariant violated; leave the tree intact
	with_callbacks([&]<class C>() {
		if (stale_augment_on_erase)
			rb::erase_augmented_cached<SchedEntity, StaleErase<C>>(se, tree_);
		else
			rb::erase_augmented_cached<SchedEntity, C>(se, tree_);
	});
	se->left = se->right = se->rb_parent = nullptr;  // RB_CLEAR_NODE's role: erase twice is a no-op
	size_--;
}

void Timeline::propagate(SchedEntity* se)
{
	with_callbacks([&]<class C>() { C::propagate(se, nullptr); });
}

}  // namespace eevdf
