// SPDX-License-Identifier: GPL-2.0-only
// Task groups (kernel/sched/core.c sched_create_group(), fair.c
// alloc_fair_sched_group(), init_tg_cfs_entry(), update_cfs_group()).
#include "model/task_group.hpp"

namespace eevdf {

TaskGroup::TaskGroup(const Config& cfg, TaskGroup* parent_, std::string path_, u64 shares_)
	: path(std::move(path_)), parent(parent_), shares(shares_), cfg_(&cfg)
{
}

void TaskGroup::init_tg_cfs_entry(CfsRq& root_cfs_rq)
{
	const size_t cpu = cfs_rq.size();
	CfsRq& q = cfs_rq.emplace_back(*cfg_);
	q.attach_to_rq(&root_cfs_rq);
	q.tg = this;
	SchedEntity& e = se.emplace_back();
	// kzalloc'ed: vruntime, deadline, vlag and slice are 0 until the first
	// enqueue places it; the weight is NICE_0_LOAD with the inverse computed
	// lazily (update_load_set()).
	e.load = LoadWeight{NICE_0_LOAD, 0};
	e.my_q = &q;
	e.parent = parent ? &parent->se[cpu] : nullptr;
	e.depth = parent ? parent->se[cpu].depth + 1 : 0;
}

// update_cfs_group() (6.13+, 66951e4860d3: an emptied group keeps its
// weight). calc_group_shares() gives
//
//                     tg->shares * load
//   shares = ---------------------------------------------,   load = max(cfs_rq load, its load_avg)
//            tg->load_avg - tg_load_avg_contrib + load
//
// clamped to [MIN_SHARES, tg->shares]. On one CPU tg->load_avg is this
// cfs_rq's own contribution, so the denominator is load and, load being
// non-zero here, shares = tg->shares exactly: no PELT is needed to know it.
void CfsRq::update_group_entity_shares(SchedEntity* se)
{
	const CfsRq* g = se->my_q;
	if (!g->load)
		return;
	const u64 shares = g->tg->shares;
	if (se->load.weight != shares)
		reweight_entity(se, LoadWeight{shares, 0});
}

}  // namespace eevdf
