// SPDX-License-Identifier: GPL-2.0-only
// The task level of the fair class (kernel/sched/fair.c, 6.18.44 and
// 7.1.5) walks the task's entity and the group entities above it
// (for_each_sched_entity), called on the CPU's root cfs_rq. For a task of
// the root group each walk is one step and every group-only line does
// nothing, so a flat workload is scheduled as before groups existed. Each
// walk lives beside the per-entity functions it calls on every event (one
// translation unit, so the one-level walk inlines as before):
//
//   fair_queue.cpp   enqueue_task_fair(), dequeue_task_fair(), dequeue_entities()
//   fair_pick.cpp    pick_next_task_fair() level by level, put/set matching
//   fair_events.cpp  task_tick_fair(), reweight of a queued group entity
//   fair_wakeup.cpp  check_preempt_wakeup_fair() with find_matching_se()
//
// This file: the next buddy (set_next_buddy() on a sleep that leaves the
// group non-empty, __clear_buddies_next()) and yield_task_fair().
//
// The group slice (aef6987d8954, 6.12): a group's entity carries the
// smallest slice queued below it, as a custom slice, so its deadline and
// protection follow its most latency-sensitive task.
#include "model/fair.hpp"
#include "model/task_group.hpp"

namespace eevdf {

// ---------------------------------------------------------------- buddies

void CfsRq::set_next_buddy(SchedEntity* se)
{
	for (; se; se = parent_entity(se)) {
		if (warn().on(Warn::SET_NEXT_BUDDY_NOT_QUEUED, !se->on_rq))
			return;
		if (se_is_idle(se))
			return;
		cfs_rq_of(se).next = se;
	}
}

// __clear_buddies_next(): se stops being the buddy, and so do its group
// entities while they are theirs.
void CfsRq::clear_buddies_next(SchedEntity* se)
{
	for (; se; se = parent_entity(se)) {
		CfsRq& q = cfs_rq_of(se);
		if (q.next != se)
			break;
		q.next = nullptr;
	}
}

// ---------------------------------------------------------------- yield

// yield_task_fair(): nothing if the task is alone on the CPU; otherwise its
// own level only (the group entities above it are untouched).
void CfsRq::yield_task_fair()
{
	if (h_nr_queued == 1)
		return;
	SchedEntity* se = curr_task();
	if (!se) {
		update_curr();
		return;
	}
	CfsRq& q = cfs_rq_of(se);
	q.clear_buddies(se);
	q.update_curr();
	q.yield_entity(se);
}

}  // namespace eevdf
