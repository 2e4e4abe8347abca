// SPDX-License-Identifier: GPL-2.0-only
// struct sched_entity: the EEVDF fields of include/linux/sched.h (6.18),
// with the group fields of CONFIG_FAIR_GROUP_SCHED.
#pragma once

#include "model/types.hpp"
#include "model/pelt.hpp"
#include "model/weights.hpp"

namespace eevdf {

class CfsRq;

struct SchedEntity {
	LoadWeight load;

	u64 vruntime = 0;  // v_i
	u64 deadline = 0;  // vd_i; holds d - v while rel_deadline
	s64 vlag = 0;      // V - v_i saved at dequeue (virtual ns); 6.6-6.16 also the protection stash
	u64 vprot = 0;     // 6.17+ protection end (virtual); shares vlag's storage on 6.17/6.18.0
	u64 slice = 0;     // r_i, real ns

	bool custom_slice = false;
	bool on_rq = false;
	bool sched_delayed = false;
	bool rel_deadline = false;
	bool rb_black = false;  // the run_node's colour (below)
	bool normal_policy = true;  // normal_policy(task->policy): SCHED_OTHER, not SCHED_BATCH or SCHED_IDLE
	bool idle_policy = false;   // se_is_idle(): task_has_idle_policy(), SCHED_IDLE
	int id = -1;  // the task's index in the simulation; -1 for a group's entity
	// CONFIG_FAIR_GROUP_SCHED: 0 for an entity queued on rq->cfs, its
	// parent's depth + 1 below it.
	int depth = 0;
	// The entity of the group this one is queued in (nullptr on rq->cfs),
	// and the cfs_rq a group's entity owns (nullptr for a task:
	// entity_is_task()).
	SchedEntity* parent = nullptr;
	CfsRq* my_q = nullptr;

	u64 exec_start = 0;
	u64 sum_exec_runtime = 0;
	u64 prev_sum_exec_runtime = 0;

	// Node in cfs_rq->tasks_timeline (struct rb_node run_node), a red-black
	// tree ordered by deadline (6.8+) or vruntime (6.6-6.7), equal keys in
	// insertion order, and augmented with the subtree's min_vruntime,
	// min_slice and max_slice (6.8+) and min_deadline (6.6-6.7); the model
	// keeps all four under either order.
	SchedEntity* left = nullptr;
	SchedEntity* right = nullptr;
	SchedEntity* rb_parent = nullptr;
	u64 node_seq = 0;  // insertion count: names the FIFO order of equal keys for checkers
	u64 min_vruntime = 0;
	u64 min_slice = 0;
	u64 max_slice = 0;
	u64 min_deadline = 0;

	// rq->cfs_tasks via se->group_node: queued tasks, most recently picked
	// first (list_add at enqueue, list_move to the head when picked).
	SchedEntity* group_prev = nullptr;
	SchedEntity* group_next = nullptr;

	SchedAvg avg;  // PELT (model/pelt.hpp)

	bool is_task() const { return my_q == nullptr; }  // entity_is_task()
};

// for_each_sched_entity(): se, then each group entity above it.
inline SchedEntity* parent_entity(const SchedEntity* se) { return se->parent; }
// is_same_group(): both queued on one cfs_rq.
inline bool is_same_group(const SchedEntity* se, const SchedEntity* pse) { return se->parent == pse->parent; }

}  // namespace eevdf
