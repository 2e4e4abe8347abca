// SPDX-License-Identifier: GPL-2.0-only
// Picking on one cfs_rq (kernel/sched/fair.c): __pick_eevdf() over v6.6's
// vruntime-keyed tree and over the deadline-keyed tree of 6.8+,
// pick_next_entity() with its dequeue of a delayed pick, set_next_entity(),
// put_prev_entity(), and the task level's pick down the group levels
// (pick_next_task_fair(), put_prev_task_fair(), set_next_task_fair()).
#include "model/fair.hpp"

namespace eevdf {

// __pick_eevdf() of v6.6, over its vruntime-ordered tree whose nodes know
// the minimum deadline of their subtree. Ordered by vruntime, the eligible
// entities (v <= V) form a prefix of the tree: walking down from the root,
// an ineligible node sends the search left; an eligible node and everything
// in its left subtree are eligible, so the earliest deadline there is the
// left child's min_deadline. The walk keeps the best eligible node seen and
// the best fully-eligible left subtree, stops where the subtree minimum is
// found, and if that left subtree holds an earlier (or an equal) deadline
// descends it to the entity that carries it. curr starts as the best and is
// replaced only by a strictly earlier deadline on the walk, so it keeps ties
// against the nodes walked, but not against an equal deadline inside a left
// subtree: which of two equal deadlines wins depends on the tree's shape.
SchedEntity* CfsRq::pick_eevdf_66() const
{
	const Eligibility eligible = eligibility();
	SchedEntity* c = curr;
	if (c && (!c->on_rq || !eligible(c->vruntime)))
		c = nullptr;
	if (feat(Feature::RUN_TO_PARITY) && c && protect_slice(c))
		return c;

	SchedEntity* best = c;
	SchedEntity* best_left = nullptr;
	for (SchedEntity* node = timeline.root(); node;) {
		if (!eligible(node->vruntime)) {
			node = node->left;
			continue;
		}
		if (!best || wrapped_diff(best->deadline, node->deadline) > 0)
			best = node;
		if (SchedEntity* left = node->left) {
			if (!best_left || wrapped_diff(best_left->min_deadline, left->min_deadline) > 0)
				best_left = left;
			if (left->min_deadline == node->min_deadline)
				break;  // the subtree's earliest deadline is in the left branch
		}
		if (node->deadline == node->min_deadline)
			break;  // ... or at this node
		node = node->right;
	}
	if (!best_left || wrapped_diff(best_left->min_deadline, best->deadline) > 0)
		return best;
	for (SchedEntity* node = best_left; node;) {
		if (node->deadline == node->min_deadline)
			return node;
		node = node->left && node->left->min_deadline == node->min_deadline ? node->left : node->right;
	}
	return nullptr;
}

// __pick_eevdf() (6.8+ tree, 6.17+ protect parameter): among eligible
// entities the earliest virtual deadline; curr loses ties.
SchedEntity* CfsRq::pick_eevdf_protect(bool protect) const
{
	if (paths_->tree == KernelPaths::Tree::VruntimeKeyed)
		return pick_eevdf_66();
	SchedEntity* se = timeline.leftmost();
	SchedEntity* c = curr;
	SchedEntity* best = nullptr;

	if (nr_queued == 1)
		return c && c->on_rq ? c : se;
	// V does not change during the pick: vruntime_eligible()'s two sums once.
	const Eligibility eligible = eligibility();

	// "Picking the ->next buddy will affect latency but not fairness."
	// (6.18.33+ here; 7.x only when protecting, so not for a short-slice
	// wake-up; before 6.18.33 in pick_next_entity().)
	if (next && buddy_in_pick_eevdf(protect) && eligible(next->vruntime)) {
		warn().on(Warn::PICK_BUDDY_DELAYED, next->sched_delayed);
		return next;
	}

	if (c && (!c->on_rq || !eligible(c->vruntime)))
		c = nullptr;

	if (c) {
		const bool honour = paths_->protect == KernelPaths::Protect::VlagStash
					    ? feat(Feature::RUN_TO_PARITY)
					    : protect;
		if (honour && protect_slice(c))
			return c;
	}

	if (se && eligible(se->vruntime)) {
		best = se;
	} else {
		// Heap search: an eligible entity in a left subtree always has an
		// earlier deadline than the node, so descend left whenever the left
		// subtree's min_vruntime says it holds one.
		SchedEntity* node = timeline.root();
		while (node) {
			SchedEntity* left = node->left;
			if (bug(Bug::PICK_FIRST_ELIGIBLE) && eligible(node->vruntime)) {
				best = node;
				break;
			}
			if (left && eligible(left->min_vruntime)) {
				node = left;
				continue;
			}
			if (eligible(node->vruntime)) {
				best = node;
				break;
			}
			node = node->right;
		}
	}

	if (!best || (c && entity_before(c, best)))
		best = c;
	return best;
}

SchedEntity* CfsRq::pick_next_entity(bool protect)
{
	// 6.14 .. 6.18.32: the buddy test is here, before __pick_eevdf(), so the
	// wake-up preemption's own __pick_eevdf() call does not see the buddy.
	if (next && paths_->pick_buddy == KernelPaths::PickBuddy::InPickNextEntity && entity_eligible(next)) {
		warn().on(Warn::PICK_BUDDY_DELAYED, next->sched_delayed);
		return next;
	}
	SchedEntity* se = pick_eevdf_protect(protect);
	if (!se) {
		rq_root().pick_failures++;
		// v6.6's pick_eevdf(): "EEVDF scheduling fail, picking leftmost".
		if (paths_->tree != KernelPaths::Tree::VruntimeKeyed || !timeline.leftmost())
			return nullptr;
		se = timeline.leftmost();
	}
	if (se->sched_delayed) {
		// A delayed entity leaves when it is picked: by now it has
		// burnt off its negative lag. A group's entity leaves the same
		// way (its cfs_rq emptied while it was ineligible), and its
		// parents with it if they are left empty.
		const bool task = se->is_task();
		rq_root().dequeue_entities(se, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
		if (CfsRq& rq = rq_root(); task && rq.after_delayed_dequeue)
			rq.after_delayed_dequeue(rq.after_delayed_dequeue_arg);
		return nullptr;
	}
	return se;
}

void CfsRq::set_next_entity(SchedEntity* se, bool first)
{
	clear_buddies(se);
	if (se->on_rq) {
		dequeue_from_tree(se);
		update_load_avg(se, UPDATE_TG);
		if (first || !paths_->protect_only_at_pick)
			set_protect_slice(se);
	}
	se->exec_start = rq_root().clock_task;
	warn().on(Warn::SET_NEXT_WITH_CURR, curr != nullptr);
	curr = se;
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

void CfsRq::put_prev_entity(SchedEntity* prev)
{
	if (prev->on_rq) {
		update_curr();
		enqueue_in_tree(prev);
		update_load_avg(prev, 0);
	}
	warn().on(Warn::PUT_PREV_NOT_CURR, curr != prev);
	curr = nullptr;
}

// ---------------------------------------------------------------- the pick down the group levels

SchedEntity* CfsRq::pick_next_task_fair()
{
	SchedEntity* const prev = curr_task();
	SchedEntity* se = nullptr;
	// pick_task_fair(): down from the root; a pick that finally dequeued a
	// delayed entity (nullptr) starts again from the root, a failed pick
	// (no eligible entity: arithmetic gone wrong) ends it.
	while (nr_queued) {
		CfsRq* q = this;
		const u64 failures = pick_failures;
		do {
			q->update_curr_if_queued();
			se = q->pick_next_entity();
			q = se ? se->my_q : nullptr;
		} while (q);
		if (se || pick_failures != failures)
			break;
	}
	if (!se) {
		if (prev)
			put_prev_task_fair(prev);
		return nullptr;
	}
	if (se == prev)
		return se;
	if (!se->parent && (!prev || !prev->parent)) {
		// Both in the root group (or coming from the idle task): one level,
		// the walk below in one step.
		if (prev)
			put_prev_entity(prev);
		set_next_entity(se, true);
		list_move_task_head(se);  // __set_next_task_fair(): cfs_tasks is MRU
		return se;
	}
	switch_group_levels(prev, se);
	return se;
}

// pick_next_task_fair()'s put and set: from the idle task every level of
// next is set (set_next_task_fair()); otherwise prev's levels are put and
// next's set, deepest first, only up to the group both are in.
void CfsRq::switch_group_levels(SchedEntity* prev, SchedEntity* se)
{
	if (!prev) {
		set_next_task_fair(se, true);
		return;
	}
	SchedEntity* n = se;
	SchedEntity* pse = prev;
	while (!is_same_group(n, pse)) {
		const int n_depth = n->depth, pse_depth = pse->depth;
		if (n_depth <= pse_depth) {
			cfs_rq_of(pse).put_prev_entity(pse);
			pse = parent_entity(pse);
		}
		if (n_depth >= pse_depth) {
			cfs_rq_of(n).set_next_entity(n, true);
			n = parent_entity(n);
		}
	}
	CfsRq& common = cfs_rq_of(n);
	common.put_prev_entity(pse);
	common.set_next_entity(n, true);
	list_move_task_head(se);  // __set_next_task_fair(): cfs_tasks is MRU
}

void CfsRq::put_prev_task_fair(SchedEntity* prev)
{
	for (SchedEntity* e = prev; e; e = parent_entity(e))
		cfs_rq_of(e).put_prev_entity(e);
}

void CfsRq::set_next_task_fair(SchedEntity* se, bool first)
{
	for (SchedEntity* e = se; e; e = parent_entity(e))
		cfs_rq_of(e).set_next_entity(e, first);
	if (first)
		list_move_task_head(se);
}

}  // namespace eevdf
