// SPDX-License-Identifier: GPL-2.0-only
// A new task: sched_fork() and wake_up_new_task().
#include "oracle/internal.hpp"

#include <algorithm>

namespace eevdf::oracle {

// sched_fork() + wake_up_new_task(): the child starts with vlag 0 and the
// base (or its custom) slice; 6.6 places it in task_fork_fair() with
// ENQUEUE_INITIAL but activates it without, so the enqueue re-places it
// with a full first request; 6.8+ activate with ENQUEUE_INITIAL. Then
// wakeup_preempt(WF_FORK).
void DecisionOracle::fork_task(const Simulation& sim, int task)
{
	Ent& e = ents_[static_cast<size_t>(task)];
	const TaskSpec& spec = *sim.tasks()[static_cast<size_t>(task)].spec;
	const Ent placed = e;  // where the hierarchy put it
	e = Ent{};
	e.cfs = placed.cfs;
	e.parent = placed.parent;
	e.depth = placed.depth;
	e.forked = true;
	e.nice = spec.nice;
	e.idle = spec.policy == Policy::Idle;
	e.normal = spec.policy == Policy::Normal;
	e.load = e.idle ? LoadWeight{3 << 10, 1431655765} : task_load_weight(spec.nice);  // WEIGHT_IDLEPRIO, WMULT_IDLEPRIO
	e.slice = cfg_.base_slice_ns;
	if (rules_->custom_slices && spec.custom_slice) {
		e.custom = true;
		e.slice = std::clamp<u64>(spec.custom_slice, NSEC_PER_MSEC / 10, NSEC_PER_MSEC * 100);
	}
	// 6.6's task_fork_fair() charges the forker's own level and places the
	// child there; the enqueue redoes the placement. The forker (rt-app's
	// main thread) is not modelled, so neither is its charge (docs/model.md).
	enqueue_task_fair(task, rules_->fork_initial ? EN_INITIAL : 0);
	pending_ = {task, WF_FORK_, true, stimulus_};
}

}  // namespace eevdf::oracle
