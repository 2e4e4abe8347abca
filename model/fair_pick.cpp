// SPDX-License-Identifier: GPL-2.0-only
// Picking on one cfs_rq (kernel/sched/fair.c): __pick_eevdf() over v6.6's
// vruntime-keyed tree and over the deadline-keyed tree of 6.8+,
// pick_next_entity() with its dequeue of a delayed pick, set_next_entity(),
// put_prev_entity(). The pick down the group levels is in fair_task.cpp.
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
	if (paths_->pick_buddy && next && eligible(next->vruntime)) {
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

}  // namespace eevdf
