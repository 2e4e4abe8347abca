// SPDX-License-Identifier: GPL-2.0-only
// The hierarchical load factor (kernel/sched/fair.c, CONFIG_FAIR_GROUP_SCHED,
// 6.18.44 and 7.1.5 alike): update_cfs_rq_h_load() and task_h_load().
//
// The balancer moves tasks to move root-level load, but a task in a group
// adds to the root only its part of the group entity's load_avg. The root's
// h_load is its load_avg; each group cfs_rq's is its parent's h_load times
// its entity's share of the parent's load:
//
//   h_load(grq) = h_load(cfs_rq_of(ge)) * ge->avg.load_avg / (load_avg(cfs_rq_of(ge)) + 1)
//
// and a task's task_h_load() = p->avg.load_avg * h_load(its cfs_rq) /
// (load_avg(its cfs_rq) + 1). Each factor is refreshed at most once per
// jiffy, top down, from the first cfs_rq on the path that is current.
#include "model/fair.hpp"

namespace eevdf {

// The kernel links the path up through cfs_rq->h_load_next, stops at the
// first current cfs_rq (or refreshes the root) and follows the links down;
// the recursion here visits the same cfs_rqs in the same order. Its depth is
// the group depth (validate_workload.cpp's path limit bounds it).
void CfsRq::update_cfs_rq_h_load(u64 jiffies)
{
	if (avg.last_h_load_update == jiffies)
		return;
	if (!tg_se) {
		avg.h_load = cfs_rq_load_avg(avg);
	} else {
		CfsRq& parent = cfs_rq_of(tg_se);
		parent.update_cfs_rq_h_load(jiffies);
		avg.h_load = (parent.avg.h_load * tg_se->avg.load_avg) / (cfs_rq_load_avg(parent.avg) + 1);
	}
	avg.last_h_load_update = jiffies;
}

u64 CfsRq::task_h_load(const SchedEntity* p, u64 jiffies)
{
	update_cfs_rq_h_load(jiffies);
	return (p->avg.load_avg * avg.h_load) / (cfs_rq_load_avg(avg) + 1);
}

}  // namespace eevdf
