// SPDX-License-Identifier: GPL-2.0-only
// The pick: pick_eevdf() by definition (6.8+) and v6.6's, and __schedule()'s
// pick through pick_next_task_fair().
#include "oracle/internal.hpp"

namespace eevdf::oracle {

// __pick_eevdf()/pick_eevdf() of 6.8+ by definition (see the header).
DecisionOracle::Pick DecisionOracle::pick_eevdf(bool protect)
{
	counters_.picks++;
	if (rules_->vruntime_tree)
		return pick_eevdf_66();
	Ent* c = cur();
	if (q().nr_queued == 1) {
		if (c && c->on_rq)
			return {q().curr, {}};
		int first = IDLE;
		for (size_t i = 0; i < ents_.size(); i++)
			if (ents_[i].in_tree && ents_[i].cfs == cq_ &&
			    (first == IDLE || wrapped_diff(ents_[i].deadline, ents_[static_cast<size_t>(first)].deadline) < 0 ||
			     (ents_[i].deadline == ents_[static_cast<size_t>(first)].deadline &&
			      ents_[i].seq < ents_[static_cast<size_t>(first)].seq)))
				first = static_cast<int>(i);
		return {first, {}};
	}
	// PICK_BUDDY (6.18.33+ here; 7.x only when protecting; before, in
	// pick_next_entity()): an eligible next buddy is picked.
	const bool buddy_here = rules_->buddy == Rules::Buddy::InPickEevdf ||
				(rules_->buddy == Rules::Buddy::InPickEevdfProtect && protect);
	if (buddy_here && q().next != IDLE && entity_eligible(ent(q().next)))
		return {q().next, {}};
	if (c && (!c->on_rq || !entity_eligible(*c)))
		c = nullptr;
	if (c) {
		const bool prot = rules_->stash ? (feat(Feature::RUN_TO_PARITY) && c->lagword == c->deadline)
						: (protect && protect_slice(*c));
		if (prot)
			return {q().curr, {}};
	}
	int best = IDLE;
	for (size_t i = 0; i < ents_.size(); i++) {
		Ent& e = ents_[i];
		if (!e.in_tree || e.cfs != cq_ || !entity_eligible(e))
			continue;
		if (best == IDLE) {
			best = static_cast<int>(i);
			continue;
		}
		const Ent& b = ents_[static_cast<size_t>(best)];
		const s64 d = wrapped_diff(e.deadline, b.deadline);
		if (d < 0 || (d == 0 && e.seq < b.seq))
			best = static_cast<int>(i);
	}
	if (best == IDLE || (c && wrapped_diff(c->deadline, ents_[static_cast<size_t>(best)].deadline) < 0))
		best = c ? q().curr : best;
	return {best, {}};
}

// v6.6 __pick_eevdf(): curr first (if queued and eligible; kept while
// RUN_TO_PARITY and its vlag stash equals its deadline), then the min
// deadline among eligible tree entities; on equal deadlines the walk's
// result depends on the tree's shape unless only one tree entity is
// eligible (then curr is kept against it).
DecisionOracle::Pick DecisionOracle::pick_eevdf_66()
{
	Ent* c = cur();
	if (c && (!c->on_rq || !entity_eligible(*c)))
		c = nullptr;
	if (feat(Feature::RUN_TO_PARITY) && c && c->lagword == c->deadline)
		return {q().curr, {}};
	std::vector<int> elig;
	for (size_t i = 0; i < ents_.size(); i++)
		if (ents_[i].in_tree && ents_[i].cfs == cq_ && entity_eligible(ents_[i]))
			elig.push_back(static_cast<int>(i));
	if (elig.empty()) {
		if (c)
			return {q().curr, {}};
		// pick_eevdf()'s "EEVDF scheduling fail, picking leftmost" (v6.6)
		int left = IDLE;
		for (size_t i = 0; i < ents_.size(); i++)
			if (ents_[i].in_tree && ents_[i].cfs == cq_ &&
			    (left == IDLE || wrapped_diff(ents_[i].vruntime, ents_[static_cast<size_t>(left)].vruntime) < 0))
				left = static_cast<int>(i);
		return {left, {}};
	}
	u64 dmin = ents_[static_cast<size_t>(elig[0])].deadline;
	for (int i : elig)
		dmin = wrapped_diff(ents_[static_cast<size_t>(i)].deadline, dmin) < 0 ? ents_[static_cast<size_t>(i)].deadline : dmin;
	if (c && wrapped_diff(c->deadline, dmin) < 0)
		return {q().curr, {}};
	std::vector<int> tied;
	for (int i : elig)
		if (ents_[static_cast<size_t>(i)].deadline == dmin)
			tied.push_back(i);
	if (c && c->deadline == dmin) {
		if (elig.size() == 1)
			return {q().curr, {}};
		tied.push_back(q().curr);
		return {IDLE, tied};
	}
	if (tied.size() == 1)
		return {tied[0], {}};
	return {IDLE, tied};
}

// pick_next_entity(): the buddy first where 6.14 .. 6.18.32 test it, then
// pick_eevdf(); a delayed pick is dequeued (its whole chain, as far as it
// empties) and nothing returned.
int DecisionOracle::pick_next_entity(const Simulation& sim, int model_next, bool protect)
{
	if (rules_->buddy == Rules::Buddy::InPickNextEntity && q().next != IDLE && entity_eligible(ent(q().next)))
		return q().next;
	const int se = resolve(sim, pick_eevdf(protect), model_next, "pick");
	if (se != IDLE && ent(se).delayed) {
		dequeue_entities(se, DQ_SLEEP | DQ_DELAYED);
		return IDLE;
	}
	return se;
}

// pick_next_task_fair()'s walk from prev to next (6.6 .. 7.1.5 alike): put
// prev's levels and set next's, deepest first, until both stand on the
// cfs_rq they share, then put and set there.
void DecisionOracle::switch_levels(int prev, int next)
{
	int se = next, pse = prev;
	while (ent(se).cfs != ent(pse).cfs) {
		const int sd = ent(se).depth, pd = ent(pse).depth;
		if (sd <= pd) {
			put_prev_entity(ent(pse));
			pse = ent(pse).parent;
		}
		if (sd >= pd) {
			set_next_entity(ent(se), true);
			se = ent(se).parent;
		}
	}
	put_prev_entity(ent(pse));
	set_next_entity(ent(se), true);
}

// __schedule()'s pick: pick_next_task_fair() with CONFIG_FAIR_GROUP_SCHED
// (prev stays curr during the pick): pick_task_fair() walks down from
// rq->cfs, charging each level's curr; then only the levels that change
// are put and set, deepest first, up to the group prev and next share
// (from the idle task: set_next_task_fair() on every level); then the
// hrtick for the picked task (6.6: at every pick; 6.12+: in
// __set_next_task_fair(first) only when it changed).
int DecisionOracle::pick_next_task(const Simulation& sim, int model_next)
{
	const int prev = running_;
	int chosen = IDLE;
	if (rules_->v612_code) {
		int level = 0;
		while (qs_[0].nr_queued) {
			int se;
			{
				On on(*this, level);
				if (cur() && cur()->on_rq)
					update_curr();
				se = pick_next_entity(sim, level == 0 ? model_next : IDLE, true);
			}
			if (se == IDLE) {
				level = 0;  // goto again
				continue;
			}
			if (ent(se).my_q < 0) {
				chosen = se;
				break;
			}
			level = ent(se).my_q;
		}
		if (chosen == IDLE) {
			if (prev != IDLE)
				put_prev_task_fair(prev);
		} else if (prev == IDLE) {
			set_next_task_fair(chosen, true);
			if (feat(Feature::HRTICK))
				hrtick_start_fair(ent(chosen), false);
		} else if (prev != chosen) {
			switch_levels(prev, chosen);
			if (feat(Feature::HRTICK))
				hrtick_start_fair(ent(chosen), false);
		}
		return chosen;
	}
	return pick_next_task_66(sim, model_next);
}

// v6.6 pick_next_task_fair(): from the idle task (its "simple" path) every
// level is picked and set on the way down, with no update_curr(); from a
// fair prev each level's curr is charged and the pick walks down, then the
// levels that change are put and set as above. Ties of the vruntime tree's
// walk are settled by the model's choice at that level (the ancestor of its
// task there). The hrtick is armed at every pick.
int DecisionOracle::pick_next_task_66(const Simulation& sim, int model_next)
{
	const int prev = running_;
	if (qs_[0].nr_queued == 0) {
		if (prev != IDLE)
			put_prev_task_fair(prev);
		return IDLE;
	}
	auto model_at = [&](int level) {
		int se = model_next;
		while (se != IDLE && ent(se).cfs != level)
			se = ent(se).parent;
		return se;
	};
	int chosen = IDLE;
	for (int level = 0;;) {
		int se;
		{
			On on(*this, level);
			if (prev != IDLE && cur() && cur()->on_rq)
				update_curr();
			se = resolve(sim, pick_eevdf(true), model_at(level), "pick");
			if (se == IDLE)
				return IDLE;
			if (prev == IDLE)
				set_next_entity(ent(se), true);
		}
		if (ent(se).my_q < 0) {
			chosen = se;
			break;
		}
		level = ent(se).my_q;
	}
	if (prev != IDLE && prev != chosen)
		switch_levels(prev, chosen);
	if (feat(Feature::HRTICK))
		hrtick_start_fair(ent(chosen), chosen == prev);
	return chosen;
}

}  // namespace eevdf::oracle
