// SPDX-License-Identifier: GPL-2.0-only
// struct task_group (kernel/sched/sched.h, CONFIG_FAIR_GROUP_SCHED): a cgroup
// of the cpu controller as the fair class sees it. Per CPU it has an entity
// (se[cpu]), queued on the parent's cfs_rq of that CPU like a task, and a
// cfs_rq of its own (cfs_rq[cpu], the entity's my_q) where its tasks and
// child groups queue. The root group is rq->cfs of each CPU and has no
// entity; it is not a TaskGroup here.
//
// The weight: tg->shares (cpu.shares of cgroup v1 scaled by 2^10, or
// cpu.weight of v2 through sched_weight_from_cgroup()), default NICE_0_LOAD.
// A group's entity on a CPU weighs calc_group_shares() of its cfs_rq there,
// tg->shares x (this CPU's load) / (the group's load on all CPUs), the
// latter kept in tg->load_avg (model/update_cfs_group.cpp). On one CPU the
// two loads are the same whenever the cfs_rq has load, so the entity weighs
// tg->shares.
#pragma once

#include <deque>
#include <string>

#include "model/fair.hpp"

namespace eevdf {

// sched.h: the range __sched_group_set_shares() clamps to.
inline constexpr u64 MIN_SHARES = 2;
inline constexpr u64 MAX_SHARES = 1ULL << 18;

// cgroup v2 cpu.weight (1 .. 10000, default 100) to a table weight:
// DIV_ROUND_CLOSEST_ULL(w * 1024, 100) (core.c sched_weight_from_cgroup()).
constexpr u64 sched_weight_from_cgroup(u64 cgrp_weight) { return (cgrp_weight * 1024 + 50) / 100; }
// And back, as cpu.weight reads (sched_weight_to_cgroup()): clamped to 1 .. 10000.
constexpr u64 sched_weight_to_cgroup(u64 weight)
{
	const u64 w = (weight * 100 + 512) / 1024;
	return w < 1 ? 1 : (w > 10000 ? 10000 : w);
}

struct TaskGroup {
	TaskGroup(const Config& cfg, TaskGroup* parent, std::string path, u64 shares);
	TaskGroup(const TaskGroup&) = delete;
	TaskGroup& operator=(const TaskGroup&) = delete;

	std::string path;             // "/A/B"; the root is "/"
	u32 id = 0;                   // index in Simulation::groups(): parents before children
	TaskGroup* parent = nullptr;  // nullptr: a child of the root group
	u64 shares = NICE_0_LOAD;     // scaled, clamped to [scale_load(MIN_SHARES), scale_load(MAX_SHARES)]
	bool idle = false;            // tg->idle (cpu.idle): tg_is_idle()
	// Σ over CPUs of cfs_rq[cpu]->tg_load_avg_contrib (atomic_long_t in the
	// kernel; the model's CPUs take turns, so a plain sum).
	s64 load_avg = 0;
	// Per CPU, stable addresses (every se->parent and my_q points here).
	std::deque<SchedEntity> se;
	std::deque<CfsRq> cfs_rq;

	// alloc_fair_sched_group() / init_tg_cfs_entry() for one CPU: the entity
	// weighs NICE_0_LOAD until its first update_cfs_group(), and sits below
	// the parent's entity of that CPU (or on rq->cfs).
	// Called once per CPU, in CPU order.
	void init_tg_cfs_entry(CfsRq& root_cfs_rq);
	// sched_group_set_idle() of a group no task has joined yet (so no
	// h_nr_idle to move up the chains): tg->idle and each CPU's
	// cfs_rq->idle, and the weight __sched_group_set_shares() then gives,
	// WEIGHT_IDLEPRIO for an idle group and NICE_0_LOAD when it stops
	// being one. Called after init_tg_cfs_entry() of every CPU.
	void sched_group_set_idle(bool idle);

private:
	const Config* cfg_;
};

}  // namespace eevdf
