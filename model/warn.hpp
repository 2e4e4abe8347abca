// SPDX-License-Identifier: GPL-2.0-only
// The kernel's WARN_ON_ONCE() habit: at each site where fair.c states what
// must hold, the model tests the same condition, cheaply, where it is about
// to rely on it. A site that fires is recorded in the cfs_rq's Warnings (no
// globals: model/ is pure), the model then goes on as the kernel goes on
// (e.g. place_entity() divides by 1 instead of 0), and the invariant
// checker (model/check.hpp) reports the first site that fired as a
// violation. The checker stays the full check after every event; these
// are the local statements of what a caller relies on.
//
// Each site is named by the kernel function holding it and the condition
// it warns on, as in v6.18.44's fair.c (the line numbers there are noted).
#pragma once

#include <array>
#include <string_view>

#include "model/types.hpp"

namespace eevdf {

enum class Warn : unsigned {
	PLACE_ENTITY_NO_LOAD,            // place_entity(): WARN_ON_ONCE(!load), then load = 1 (:5284)
	UPDATE_ENTITY_LAG_NOT_QUEUED,    // update_entity_lag(): WARN_ON_ONCE(!se->on_rq) (:772)
	DEQUEUE_DELAYED_NOT_DELAYED,     // dequeue_entity(DEQUEUE_DELAYED): WARN_ON_ONCE(!se->sched_delayed) (:5458)
	DEQUEUE_SLEEP_ALREADY_DELAYED,   // dequeue_entity(): WARN_ON_ONCE(delay && se->sched_delayed) (:5468)
	SET_NEXT_WITH_CURR,              // set_next_entity(): WARN_ON_ONCE(cfs_rq->curr) (:5551)
	PUT_PREV_NOT_CURR,               // put_prev_entity(): WARN_ON_ONCE(cfs_rq->curr != prev) (:5618)
	REQUEUE_NOT_DELAYED,             // requeue_delayed_entity(): WARN_ON_ONCE(!se->sched_delayed) (:6952)
	REQUEUE_NOT_QUEUED,              // requeue_delayed_entity(): WARN_ON_ONCE(!se->on_rq) (:6953)
	WAKEUP_PREEMPT_NO_WAKEE,         // check_preempt_wakeup_fair(): WARN_ON_ONCE(!pse) (:8906)
	PICK_BUDDY_DELAYED,              // pick_eevdf(): WARN_ON_ONCE(cfs_rq->next->sched_delayed) (:1030)
	SET_NEXT_BUDDY_NOT_QUEUED,       // set_next_buddy(): WARN_ON_ONCE(!se->on_rq) (:8793)
	COUNT
};

inline constexpr std::array<std::string_view, static_cast<unsigned>(Warn::COUNT)> warn_sites = {
	"place_entity(): !load",
	"update_entity_lag(): !se->on_rq",
	"dequeue_entity(DEQUEUE_DELAYED): !se->sched_delayed",
	"dequeue_entity(): delay && se->sched_delayed",
	"set_next_entity(): cfs_rq->curr",
	"put_prev_entity(): cfs_rq->curr != prev",
	"requeue_delayed_entity(): !se->sched_delayed",
	"requeue_delayed_entity(): !se->on_rq",
	"check_preempt_wakeup_fair(): !pse",
	"pick_eevdf(): cfs_rq->next->sched_delayed",
	"set_next_buddy(): !se->on_rq",
};

// The sites that fired on one cfs_rq: WARN_ON_ONCE() prints once per site,
// so a site is a bit; `count` counts every time any condition held.
class Warnings {
public:
	// WARN_ON_ONCE(cond): records the site when cond holds; returns cond,
	// so the kernel's `if (WARN_ON_ONCE(!load)) load = 1;` reads the same.
	bool on(Warn site, bool cond)
	{
		if (cond) [[unlikely]] {
			fired_ |= bit(site);
			count_++;
		}
		return cond;
	}
	bool any() const { return fired_ != 0; }
	u64 count() const { return count_; }
	bool fired(Warn site) const { return fired_ & bit(site); }
	// The first site (in enum order) that fired; meaningful when any().
	Warn first() const
	{
		for (unsigned i = 0; i < warn_sites.size(); i++)
			if (fired(static_cast<Warn>(i)))
				return static_cast<Warn>(i);
		return Warn::COUNT;
	}

private:
	static_assert(static_cast<unsigned>(Warn::COUNT) <= 64, "one bit per WARN site in a u64");
	static constexpr u64 bit(Warn w) { return 1ULL << static_cast<unsigned>(w); }
	u64 fired_ = 0;
	u64 count_ = 0;
};

inline std::string_view warn_site_name(Warn w) { return warn_sites[static_cast<unsigned>(w)]; }

}  // namespace eevdf
