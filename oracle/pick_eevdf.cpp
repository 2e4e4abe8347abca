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
	if (nr_queued_ == 1) {
		if (c && c->on_rq)
			return {curr_, {}};
		int first = IDLE;
		for (size_t i = 0; i < ents_.size(); i++)
			if (ents_[i].in_tree &&
			    (first == IDLE || wrapped_diff(ents_[i].deadline, ents_[static_cast<size_t>(first)].deadline) < 0 ||
			     (ents_[i].deadline == ents_[static_cast<size_t>(first)].deadline &&
			      ents_[i].seq < ents_[static_cast<size_t>(first)].seq)))
				first = static_cast<int>(i);
		return {first, {}};
	}
	if (c && (!c->on_rq || !entity_eligible(*c)))
		c = nullptr;
	if (c) {
		const bool prot = rules_->stash ? (feat(Feature::RUN_TO_PARITY) && c->lagword == c->deadline)
						: (protect && protect_slice(*c));
		if (prot)
			return {curr_, {}};
	}
	int best = IDLE;
	for (size_t i = 0; i < ents_.size(); i++) {
		Ent& e = ents_[i];
		if (!e.in_tree || !entity_eligible(e))
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
		best = c ? curr_ : best;
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
		return {curr_, {}};
	std::vector<int> elig;
	for (size_t i = 0; i < ents_.size(); i++)
		if (ents_[i].in_tree && entity_eligible(ents_[i]))
			elig.push_back(static_cast<int>(i));
	if (elig.empty()) {
		if (c)
			return {curr_, {}};
		// pick_eevdf()'s "EEVDF scheduling fail, picking leftmost" (v6.6)
		int left = IDLE;
		for (size_t i = 0; i < ents_.size(); i++)
			if (ents_[i].in_tree &&
			    (left == IDLE || wrapped_diff(ents_[i].vruntime, ents_[static_cast<size_t>(left)].vruntime) < 0))
				left = static_cast<int>(i);
		return {left, {}};
	}
	u64 dmin = ents_[static_cast<size_t>(elig[0])].deadline;
	for (int i : elig)
		dmin = wrapped_diff(ents_[static_cast<size_t>(i)].deadline, dmin) < 0 ? ents_[static_cast<size_t>(i)].deadline : dmin;
	if (c && wrapped_diff(c->deadline, dmin) < 0)
		return {curr_, {}};
	std::vector<int> tied;
	for (int i : elig)
		if (ents_[static_cast<size_t>(i)].deadline == dmin)
			tied.push_back(i);
	if (c && c->deadline == dmin) {
		if (elig.size() == 1)
			return {curr_, {}};
		tied.push_back(curr_);
		return {IDLE, tied};
	}
	if (tied.size() == 1)
		return {tied[0], {}};
	return {IDLE, tied};
}

// __schedule()'s pick: pick_next_task_fair() with CONFIG_FAIR_GROUP_SCHED
// (prev stays curr during the pick), put_prev/set_next only when the task
// changes, then the hrtick for the picked task (6.6: at every pick; 6.12+:
// in __set_next_task_fair(first) only when it changed).
int DecisionOracle::pick_next_task(const Simulation& sim, int model_next)
{
	const int prev = running_;
	int chosen = IDLE;
	if (rules_->v612_code) {
		for (;;) {
			if (nr_queued_ == 0)
				break;
			if (cur() && cur()->on_rq)
				update_curr();
			const Pick p = pick_eevdf(true);
			const int se = resolve(sim, p, model_next, "pick");
			if (se == IDLE)
				break;
			if (ents_[static_cast<size_t>(se)].delayed) {
				dequeue_entity(ents_[static_cast<size_t>(se)], DQ_SLEEP | DQ_DELAYED);
				hrtick_update();
				continue;
			}
			chosen = se;
			break;
		}
		if (chosen == IDLE) {
			if (prev != IDLE)
				put_prev_entity(ents_[static_cast<size_t>(prev)]);
		} else if (prev != chosen) {
			if (prev != IDLE)
				put_prev_entity(ents_[static_cast<size_t>(prev)]);
			set_next_entity(ents_[static_cast<size_t>(chosen)], true);
			if (feat(Feature::HRTICK))
				hrtick_start_fair(ents_[static_cast<size_t>(chosen)], false);
		}
		return chosen;
	}
	// v6.6
	if (nr_queued_ == 0) {
		if (prev != IDLE)
			put_prev_entity(ents_[static_cast<size_t>(prev)]);
		return IDLE;
	}
	if (cur() && cur()->on_rq)
		update_curr();
	chosen = resolve(sim, pick_eevdf(true), model_next, "pick");
	if (chosen == IDLE)
		return IDLE;
	if (prev != chosen) {
		if (prev != IDLE)
			put_prev_entity(ents_[static_cast<size_t>(prev)]);
		set_next_entity(ents_[static_cast<size_t>(chosen)], true);
	}
	if (feat(Feature::HRTICK))
		hrtick_start_fair(ents_[static_cast<size_t>(chosen)], chosen == prev);
	return chosen;
}

}  // namespace eevdf::oracle
