// SPDX-License-Identifier: GPL-2.0-only
// Task groups (kernel/sched/core.c sched_create_group(), fair.c
// alloc_fair_sched_group(), init_tg_cfs_entry()); their shares are in
// model/update_cfs_group.cpp.
#include "model/task_group.hpp"

namespace eevdf {

TaskGroup::TaskGroup(const Config& cfg, TaskGroup* parent_, std::string path_, u64 shares_)
	: path(std::move(path_)), parent(parent_), shares(shares_), cfg_(&cfg)
{
}

void TaskGroup::sched_group_set_idle(bool idle_)
{
	idle = idle_;
	for (CfsRq& q : cfs_rq)
		q.idle = idle_;
	shares = idle_ ? scale_load(WEIGHT_IDLEPRIO) : NICE_0_LOAD;
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
	q.tg_se = &e;
}

}  // namespace eevdf
