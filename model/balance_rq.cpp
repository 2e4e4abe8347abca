// SPDX-License-Identifier: GPL-2.0-only
// sched_balance_rq() (kernel/sched/fair.c, v6.18.44): one domain's balance,
// from should_we_balance() through the source group and rq to detaching and
// attaching tasks, and when that keeps failing an active balance:
// need_active_balance() asks the busiest CPU's stopper to run
// active_load_balance_cpu_stop().
// See model/balance.cpp for the balancer as a whole: what it follows, the
// other releases and the simplifications.
#include <algorithm>

#include "model/balance_internal.hpp"
#include "model/idle_cores.hpp"

namespace eevdf {
namespace balance_internal {

// need_active_balance(): no asym packing, no reduced capacity, no misfit
// tasks here, so only repeated migrate_task failures ask for one.
static bool need_active_balance(const LbEnv& env)
{
	const SchedDomain& sd = *env.sd;
	if (env.migration_type == MigrationType::task && sd.nr_balance_failed > sd.cache_nice_tries + 2)
		return true;
	return env.migration_type == MigrationType::misfit;
}

static bool should_we_balance(const LbEnv& env)
{
	return lb::should_we_balance(*env.sim, *env.sd, env.cpus, env.dst_cpu, env.idle);
}

// ---------------------------------------------------------------- sched_balance_rq

int sched_balance_rq(Machine& sim, u32 this_cpu, SchedDomain& sd, CpuIdleType idle, bool& continue_balancing,
		     u32 exec_cpu)
{
	Topology& topo = sim.topology_mut();
	BalanceCpu& stats = bcpu(sim, this_cpu);
	SchedDomain* sd_parent = sd.parent;
	LbEnv env;
	env.sim = &sim;
	env.sd = &sd;
	env.dst_cpu = this_cpu;
	env.dst_grpmask = topo.group(sd.groups.front()).span;  // group_balance_mask(sd->groups)
	env.idle = idle;
	env.cpus = sd.span;  // ∩ cpu_active_mask: all active
	env.this_cpu = exec_cpu;
	int ld_moved = 0;
	bool active_balance = false;
	int busiest_cpu = -1;

	sim.rq_mut(this_cpu).balance_attempts++;
	stats.lb_count[idle]++;

redo:
	if (!should_we_balance(env)) {
		continue_balancing = false;
		goto out_balanced;
	}
	{
		const int group = sched_balance_find_src_group(env);
		if (group < 0)
			goto out_balanced;
		busiest_cpu = sched_balance_find_src_rq(env, topo.group(static_cast<u32>(group)));
		if (busiest_cpu < 0)
			goto out_balanced;
	}
	env.src_cpu = static_cast<u32>(busiest_cpu);
	env.flags |= LBF_ALL_PINNED;
	if (sim.rq(env.src_cpu).nr_running() > 1) {
		// An imbalance with a single task on busiest stays one: ld_moved
		// stays 0 and it counts as a failure.
		env.loop_max = std::min(SYSCTL_SCHED_NR_MIGRATE, sim.rq(env.src_cpu).nr_running());
	more_balance:
		{
			const u32 cur_ld_moved = detach_tasks(env);
			if (cur_ld_moved) {
				attach_tasks(env);
				ld_moved += static_cast<int>(cur_ld_moved);
			}
		}
		if (env.flags & LBF_NEED_BREAK) {
			env.flags &= ~LBF_NEED_BREAK;
			goto more_balance;
		}
		// Tasks that may not run on dst but on another CPU of its group.
		if ((env.flags & LBF_DST_PINNED) && env.imbalance > 0) {
			env.cpus.clear(env.dst_cpu);
			env.dst_cpu = env.new_dst_cpu;
			env.flags &= ~LBF_DST_PINNED;
			env.loop = 0;
			env.loop_break = SCHED_NR_MIGRATE_BREAK;
			goto more_balance;
		}
		// Affinity defeated this level: the parent sees this group imbalanced.
		if (sd_parent && (env.flags & LBF_SOME_PINNED) && env.imbalance > 0)
			topo.group(sd_parent->groups.front()).sgc->imbalance = 1;
		if (env.flags & LBF_ALL_PINNED) {
			env.cpus.clear(env.src_cpu);
			if (!env.cpus.subset_of(env.dst_grpmask)) {
				env.loop = 0;
				env.loop_break = SCHED_NR_MIGRATE_BREAK;
				goto redo;
			}
			goto out_all_pinned;
		}
	}

	if (!ld_moved) {
		stats.lb_failed[idle]++;
		// Newidle balancing is too frequent to count failures.
		if (idle != CPU_NEWLY_IDLE && env.migration_type != MigrationType::misfit)
			sd.nr_balance_failed++;
		if (need_active_balance(env)) {
			// The running task of busiest must be allowed here (the idle
			// task is not).
			const Task* curr = sim.curr_task(env.src_cpu);
			if (!curr || !curr->cpus_ptr.test(this_cpu))
				goto out_one_pinned;
			env.flags &= ~LBF_ALL_PINNED;
			BalanceCpu& b = bcpu(sim, env.src_cpu);
			if (!b.active_balance) {
				b.active_balance = true;
				b.push_cpu = this_cpu;
				active_balance = true;
			}
			if (active_balance)
				sim.send_nohz_kick(env.src_cpu, ACTIVE_STOP_KICK);  // stop_one_cpu_nowait()
		}
	} else {
		sd.nr_balance_failed = 0;
	}
	if (!active_balance || need_active_balance(env))
		sd.balance_interval = sd.min_interval;  // unbalanced: back to the shortest interval
	return ld_moved;

out_balanced:
	// Balanced despite some affinity: the parent's flag is cleared once
	// other tasks had their chance.
	if (sd_parent && !(env.flags & LBF_ALL_PINNED))
		topo.group(sd_parent->groups.front()).sgc->imbalance = 0;
out_all_pinned:
	stats.lb_balanced[idle]++;
	sd.nr_balance_failed = 0;
out_one_pinned:
	// Newidle ignores intervals, so it must not lengthen them.
	if (env.idle == CPU_NEWLY_IDLE || env.migration_type == MigrationType::misfit)
		return 0;
	if (((env.flags & LBF_ALL_PINNED) && sd.balance_interval < MAX_PINNED_INTERVAL) ||
	    sd.balance_interval < sd.max_interval)
		sd.balance_interval *= 2;
	return 0;
}

// ---------------------------------------------------------------- active balance

// active_load_balance_cpu_stop() on the busiest CPU: push one task to
// push_cpu, through the lowest domain of push_cpu that spans both.
//
// The stopper (migration/N, the stop class) runs there only after the
// running task was switched out: its wake-up is wakeup_preempt() of a
// higher class, a plain resched_curr() (no buddy; 7.1.5 calls the fair
// class's check first, which returns for a task of another class), and
// __schedule() puts curr back with put_prev_entity() (update_curr(), back
// into the tree; vlag left alone). So curr is a queued task the stopper may
// move, and whatever it moves, the CPU then picks afresh: pick_next_task()
// with no cfs_rq->curr (its protection no longer counts) and a new
// set_next_entity(), which sets the protection again (6.18.44, 7.1.5).
void active_load_balance_cpu_stop(Machine& sim, u32 busiest_cpu)
{
	BalanceCpu& b = bcpu(sim, busiest_cpu);
	const u32 target_cpu = b.push_cpu;
	Rq& busiest = sim.rq_mut(busiest_cpu);
	if (busiest.cfs.curr_task()) {
		sim.stopper_preempt(busiest_cpu);
		busiest.cfs.resched_curr();  // the stopper is done: pick again
	}
	if (b.active_balance && sim.rq(busiest_cpu).nr_running() > 0 && target_cpu != busiest_cpu) {
		// nr_running counts the stopper itself: one fair task is enough.
		SchedDomain* sd = sim.topology_mut().sd(target_cpu);
		while (sd && !sd->span.test(busiest_cpu))
			sd = sd->parent;
		if (sd) {
			LbEnv env;
			env.sim = &sim;
			env.sd = sd;
			env.dst_cpu = target_cpu;
			env.src_cpu = busiest_cpu;
			env.idle = CPU_IDLE;
			env.flags = LBF_ACTIVE_LB;
			env.migration_type = MigrationType::load;  // zero-initialised in the kernel's env
			env.this_cpu = busiest_cpu;
			env.stopper = true;
			BalanceCpu& t = bcpu(sim, target_cpu);
			t.alb_count++;
			if (detach_one_task(env)) {
				t.alb_pushed++;
				sd->nr_balance_failed = 0;
			} else {
				t.alb_failed++;
			}
		}
	}
	b.active_balance = false;
}

}  // namespace balance_internal

namespace lb {

// should_we_balance(): newidle if nothing arrived meanwhile; otherwise only
// one CPU of the local group balances: its first idle CPU on a wholly idle
// core, else its first idle CPU (an idle SMT thread beside a busy one), else
// the group's first CPU. Within the SMT domain itself every idle CPU counts
// as an idle core (its siblings are the other groups).
bool should_we_balance(const Machine& sim, const SchedDomain& sd, const CpuMask& cpus, u32 dst_cpu,
		       CpuIdleType idle)
{
	if (!cpus.test(dst_cpu))
		return false;
	if (idle == CPU_NEWLY_IDLE) {
		const Rq& dst = sim.rq(dst_cpu);
		return !(dst.nr_running() > 0 || dst.ttwu_pending);
	}
	const Topology& topo = sim.topology();
	const SchedGroup& sg = topo.group(sd.groups.front());
	CpuMask swb = sg.span & cpus;
	u32 idle_smt = MAX_CPUS;  // -1: none
	for (u32 cpu = swb.first(); cpu < MAX_CPUS; cpu = swb.next(cpu + 1)) {
		if (!sim.rq(cpu).idle_cpu())
			continue;
		if (!(sd.flags & SD_SHARE_CPUCAPACITY) && !is_core_idle(sim, cpu)) {
			if (idle_smt == MAX_CPUS)
				idle_smt = cpu;
			swb = swb.andnot(topo.cpu_smt_mask(cpu));
			continue;
		}
		return cpu == dst_cpu;
	}
	if (idle_smt != MAX_CPUS)
		return idle_smt == dst_cpu;
	return sg.span.first() == dst_cpu;  // group_balance_cpu()
}

}  // namespace lb
}  // namespace eevdf
