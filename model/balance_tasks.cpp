// SPDX-License-Identifier: GPL-2.0-only
// The tasks an lb_env moves (kernel/sched/fair.c, v6.18.44): task_hot(),
// can_migrate_task(), detach_tasks() from the busiest CPU's cfs_tasks,
// attach_tasks() on the destination, and the active balance's
// detach_one_task().
// See model/balance.cpp for the balancer as a whole: what it follows, the
// other releases and the simplifications.
#include <algorithm>

#include "model/balance_internal.hpp"

namespace eevdf {
namespace balance_internal {

static u64 shr_bound(u64 val, u32 shift) { return val >> std::min<u32>(shift, 63); }

// list_move(&p->se.group_node, &rq->cfs_tasks): to the head (MRU end).
static void cfs_tasks_move_head(CfsRq& cfs, SchedEntity* se)
{
	if (cfs.tasks_head == se)
		return;
	(se->group_prev ? se->group_prev->group_next : cfs.tasks_head) = se->group_next;
	(se->group_next ? se->group_next->group_prev : cfs.tasks_tail) = se->group_prev;
	se->group_prev = nullptr;
	se->group_next = cfs.tasks_head;
	if (cfs.tasks_head)
		cfs.tasks_head->group_prev = se;
	else
		cfs.tasks_tail = se;
	cfs.tasks_head = se;
}

// ---------------------------------------------------------------- detach / attach

// detach_task(): deactivate_task() + set_task_cpu() on the source, run on
// this_cpu (a resched the dequeue's update_curr() leaves on a remote
// source goes by IPI, in Machine::detach_task()).
static void detach_task(Machine& sim, Task& p, u32 dst_cpu, u32 this_cpu) { sim.detach_task(p, dst_cpu, this_cpu); }

// attach_task(): activate_task() on p's new rq and wakeup_preempt() there,
// run on this_cpu. A delayed task arrives still delayed (the move's dequeue
// had no DEQUEUE_SLEEP).
static void attach_task(Machine& sim, Task& p, u32 this_cpu) { sim.attach_task(p, this_cpu); }

// ---------------------------------------------------------------- can_migrate_task

// task_hot(): fair tasks only (all are); a SCHED_IDLE task is never hot;
// SMT siblings share every cache (within the SMT domain); CACHE_HOT_BUDDY needs
// cfs_rq->next, which only NEXT_BUDDY sets (off);
// sysctl_sched_migration_cost is its default, so: hot iff p ran on the
// source less than 500 us ago. exec_start is 0 for a task that has
// not run since it was forked or migrated: cold. (The kernel gets that from
// rq_clock_task(), which has counted since boot; the model's clock starts
// at 0, so it tests exec_start == 0 itself: else a task forked at 0 would
// be hot for the first 500 us.)
static bool task_hot(const LbEnv& env, const Task& p)
{
	if (p.se.idle_policy)
		return false;
	if (env.sd->flags & SD_SHARE_CPUCAPACITY)
		return false;
	if (p.se.exec_start == 0)
		return false;
	const s64 delta = static_cast<s64>(env.sim->now() - p.se.exec_start);
	return delta < static_cast<s64>(SYSCTL_SCHED_MIGRATION_COST);
}

// task_is_ineligible_on_dst_cpu() (6.15+): p's group's cfs_rq on the
// destination has entities, and p is not eligible on its own cfs_rq.
static bool task_is_ineligible_on_dst_cpu(const LbEnv& env, const Task& p)
{
	Machine& sim = *env.sim;
	const CfsRq& dst = p.se.parent ? p.se.parent->my_q->tg->cfs_rq[env.dst_cpu] : sim.rq(env.dst_cpu).cfs;
	return feat(sim, Feature::PLACE_LAG) && dst.nr_queued && !task_cfs_rq(sim, p).entity_eligible(&p.se);
}

// can_migrate_task(). `hot_gained`: the task was hot and moved anyway.
static bool can_migrate_task(LbEnv& env, Task& p, bool& hot_gained)
{
	Machine& sim = *env.sim;
	const KernelPaths& kp = paths(sim);
	hot_gained = false;
	if (kp.lb_skips_delayed && p.se.sched_delayed && env.migration_type != MigrationType::load &&
	    !sim.config().bugs[Bug::MIGRATE_DELAYED])
		return false;
	// No throttled hierarchies, per-CPU kthreads or proxy-blocked tasks.
	if (kp.lb_prefers_eligible && !env.sd->nr_balance_failed && task_is_ineligible_on_dst_cpu(env, p))
		return false;
	if (!p.cpus_ptr.test(env.dst_cpu)) {
		env.flags |= LBF_SOME_PINNED;
		if (env.idle == CPU_NEWLY_IDLE || (env.flags & (LBF_DST_PINNED | LBF_ACTIVE_LB)))
			return false;
		const u32 cpu = (env.dst_grpmask & env.cpus & p.cpus_ptr).first();
		if (cpu < MAX_CPUS) {
			env.flags |= LBF_DST_PINNED;
			env.new_dst_cpu = cpu;
		}
		return false;
	}
	env.flags &= ~LBF_ALL_PINNED;
	if (!env.stopper && sim.rq(env.src_cpu).cfs.curr_task() == &p.se)
		return false;  // task_on_cpu()
	if (env.flags & LBF_ACTIVE_LB)
		return true;
	// No NUMA balancing: migrate_degrades_locality() is 0.
	const bool hot = task_hot(env, p);
	if (!hot || env.sd->nr_balance_failed > env.sd->cache_nice_tries) {
		hot_gained = hot;
		return true;
	}
	return false;
}

// detach_tasks(): from the tail (least recently picked) of the source's
// cfs_tasks, rotating every refused task to the head.
u32 detach_tasks(LbEnv& env)
{
	Machine& sim = *env.sim;
	Rq& src = sim.rq_mut(env.src_cpu);
	BalanceCpu& stats = bcpu(sim, env.dst_cpu);
	if (src.nr_running() <= 1) {
		env.flags &= ~LBF_ALL_PINNED;
		return 0;
	}
	if (env.imbalance <= 0)
		return 0;
	u32 detached = 0;
	while (src.cfs.tasks_tail) {
		// An idle dst never takes the source's last task.
		if (env.idle != CPU_NOT_IDLE && src.nr_running() <= 1)
			break;
		env.loop++;
		if (env.loop > env.loop_max)
			break;
		if (env.loop > env.loop_break) {
			env.loop_break += SCHED_NR_MIGRATE_BREAK;
			env.flags |= LBF_NEED_BREAK;
			break;
		}
		SchedEntity* se = src.cfs.tasks_tail;
		Task& p = sim.task_mut(se->id);
		bool hot_gained = false;
		bool take = can_migrate_task(env, p, hot_gained);
		if (take) {
			switch (env.migration_type) {
			case MigrationType::load: {
				// LB_MIN is off.
				const u64 load = std::max<u64>(task_h_load(sim, p), 1);
				if (shr_bound(load, env.sd->nr_balance_failed) > static_cast<u64>(env.imbalance))
					take = false;
				else
					env.imbalance -= static_cast<s64>(load);
				break;
			}
			case MigrationType::util: {
				const u64 util = task_util_est(p.se.avg);
				if (shr_bound(util, env.sd->nr_balance_failed) > static_cast<u64>(env.imbalance))
					take = false;
				else
					env.imbalance -= static_cast<s64>(util);
				break;
			}
			case MigrationType::task:
				env.imbalance--;
				break;
			case MigrationType::misfit:
				take = false;  // task_fits_cpu(): every task fits a full-capacity CPU
				break;
			}
		}
		if (!take) {
			cfs_tasks_move_head(src.cfs, se);
			continue;
		}
		if (hot_gained)
			stats.lb_hot_gained[env.idle]++;
		detach_task(sim, p, env.dst_cpu, env.this_cpu);
		env.tasks[env.nr_tasks++] = &p;
		detached++;
		if (env.idle == CPU_NEWLY_IDLE)
			break;  // CONFIG_PREEMPTION
		if (env.imbalance <= 0)
			break;
	}
	stats.lb_gained[env.idle] += detached;
	return detached;
}

// attach_tasks(): env->tasks is a stack (list_add), attached from its top.
void attach_tasks(LbEnv& env)
{
	while (env.nr_tasks)
		attach_task(*env.sim, *env.tasks[--env.nr_tasks], env.this_cpu);
}

// detach_one_task(): the first movable task from the tail, no rotation.
Task* detach_one_task(LbEnv& env)
{
	Machine& sim = *env.sim;
	Rq& src = sim.rq_mut(env.src_cpu);
	for (SchedEntity* se = src.cfs.tasks_tail; se; se = se->group_prev) {
		Task& p = sim.task_mut(se->id);
		bool hot_gained = false;
		if (!can_migrate_task(env, p, hot_gained))
			continue;
		// active_load_balance_cpu_stop() switched curr out first: every task
		// here is a queued one.
		detach_task(sim, p, env.dst_cpu, env.src_cpu);
		attach_task(sim, p, env.src_cpu);  // attach_one_task()
		return &p;
	}
	return nullptr;
}

}  // namespace balance_internal
}  // namespace eevdf
