// SPDX-License-Identifier: GPL-2.0-only
// The wake-up path (kernel/sched/core.c, v6.18): try_to_wake_up() with
// ttwu_runnable() (a task still queued, or delayed), select_task_rq(),
// set_task_cpu(), ttwu_queue() and the wakelist (ttwu_queue_cond(),
// sched_ttwu_pending()), ttwu_do_activate() and wakeup_preempt(); and
// wake_up_new_task(), a fork's first enqueue.
#include <algorithm>

#include "model/select_task_rq_fair.hpp"
#include "model/simulation.hpp"

namespace eevdf {

void Simulation::wakeup_preempt(u32 cpu, SchedEntity* pse, unsigned wake_flags, u32 this_cpu)
{
	Rq& rq = rqs_[cpu];
	if (rq.idle()) {  // the idle class is below fair: always preempted
		resched_curr(cpu, this_cpu);
		return;
	}
	on_rq_of(cpu, this_cpu, [&] { rq.cfs.check_preempt_wakeup_fair(pse, wake_flags); });
}

// select_task_rq(): only a task allowed on several CPUs asks the class; an
// answer outside the mask falls back to an allowed CPU (select_fallback_rq).
u32 Simulation::select_task_rq(Task& p, u32 prev_cpu, unsigned& wake_flags, u32 this_cpu)
{
	u32 cpu;
	if (p.nr_cpus_allowed > 1)
		cpu = select_task_rq_fair(*this, p, prev_cpu, wake_flags, this_cpu);
	else
		cpu = p.cpus_ptr.first();
	if (!p.cpus_ptr.test(cpu))
		cpu = p.cpus_ptr.first();
	return cpu;
}

// set_task_cpu() -> migrate_task_rq_fair(): the task's PELT averages leave
// the old cfs_rq (a woken task's by remove_entity_load_avg; a moved queued
// one's, TASK_ON_RQ_MIGRATING, were detached by its DO_DETACH dequeue) and attach at the next enqueue; vruntime is
// not renormalised: lag travels in se->vlag (e8f331bcc270).
void Simulation::set_task_cpu(Task& p, u32 cpu)
{
	if (p.cpu == cpu)
		return;
	Rq& src = rqs_[p.cpu];
	if (!p.on_rq_migrating) {
		// From cfs_rq_of(se): the group's cfs_rq there for a task in a group.
		CfsRq& q = src.cfs.cfs_rq_of(&p.se);
		remove_entity_load_avg(q.avg, p.se.avg, se_weight_of(p.se.load));
		const u64 pelt = src.cfs.pelt_now();
		const u64 idle = src.idle_stamp + CfsRq::PELT_CLOCK_ORIGIN;
		const RqClock clk{pelt, pelt, pelt, 0, idle, idle};
		migrate_se_pelt_lag(p.se.avg, se_weight_of(p.se.load), q.avg, clk, src.idle(), pelt);
	}
	p.se.avg.last_update_time = 0;
	if (cfg_.bugs[Bug::MIGRATE_DROPS_LAG])
		p.se.vlag = 0;
	const u32 from = p.cpu;
	p.cpu = cpu;
	set_task_rq(p, cpu);
	p.nr_migrations++;
	notify(&Observer::on_migrate, now_, p.se.id, from, cpu);
}

// set_task_rq() (__set_task_cpu()): a task in a group queues on that
// group's cfs_rq of its new CPU, below the group's entity there; the depth
// is the same on every CPU. set_task_rq_fair() does nothing for a task that
// migrate_task_rq_fair() detached or that is new (last_update_time 0).
void Simulation::set_task_rq(Task& p, u32 cpu)
{
	if (p.se.parent)
		p.se.parent = &p.se.parent->my_q->tg->se[cpu];
}

// ttwu_runnable(): a task still queued (delayed, 6.12+) is requeued in place
// on its own CPU, under that rq's lock: no CPU selection, no migration.
//
// TTWU_QUEUE_DELAYED (experimental: patches 11 and 12 of "sched: Address
// schbench regression", v2, 2 Jul 2025, never merged; docs/model.md): the
// waker does not take the remote lock. It queues the delayed task on its
// CPU's wakelist, busy or not (WF_DELAYED makes ttwu_queue_cond() default
// to yes), and that CPU dequeues it and selects a CPU for it
// (ttwu_delayed()). Where no wakelist is used (the task's CPU is this one)
// patch 11 applies: the delayed task is dequeued here and the wake-up goes
// on down the regular path, CPU selection and placement included.
bool Simulation::ttwu_runnable(Task& p, u32 this_cpu, unsigned wake_flags)
{
	if (!p.se.on_rq)
		return false;
	Rq& rq = rqs_[p.cpu];
	if (cfg_.features[Feature::TTWU_QUEUE_DELAYED] && p.se.sched_delayed) {
		p.wake_cpu = static_cast<int>(this_cpu);  // "bit of a hack": read by select_task_rq_fair()
		if (ttwu_queue_wakelist(p, p.cpu, this_cpu, wake_flags | WF_DELAYED))
			return true;
		set_clock(rq);
		on_rq_of(p.cpu, this_cpu, [&] { dequeue_task(p, DEQUEUE_SLEEP | DEQUEUE_DELAYED); });
		return false;
	}
	set_clock(rq);
	on_rq_of(p.cpu, this_cpu, [&] { enqueue_task(p, ENQUEUE_DELAYED); });
	event_cpu_ = p.cpu;
	notify(&Observer::on_wakeup, now_, p.se.id, IDLE, false);
	if (rq.cfs.curr_task() != &p.se)
		wakeup_preempt(p.cpu, &p.se, wake_flags, this_cpu);
	return true;
}

// ttwu_queue_cond(): queue on the target's wakelist (it enqueues the task
// itself, from the IPI) when the target is in another LLC, or is idle (and
// not this CPU); otherwise `def` (false but for WF_DELAYED) decides.
bool Simulation::ttwu_queue_cond(const Task& p, u32 cpu, u32 this_cpu, bool def) const
{
	if (!p.cpus_ptr.test(cpu))
		return false;
	if (!topo_.cpus_share_cache(this_cpu, cpu))
		return true;
	if (cpu == this_cpu)
		return false;
	if (rqs_[cpu].nr_running() == 0)
		return true;
	return def;
}

// ttwu_queue_wakelist(): the conditions, then __ttwu_queue_wakelist().
bool Simulation::ttwu_queue_wakelist(Task& p, u32 cpu, u32 this_cpu, unsigned wake_flags)
{
	if (!ttwu_queue_cond(p, cpu, this_cpu, (wake_flags & WF_DELAYED) != 0))
		return false;
	p.sched_remote_wakeup = (wake_flags & WF_MIGRATED) != 0;
	p.sched_remote_delayed = (wake_flags & WF_DELAYED) != 0;
	queue_wakelist(p, cpu);
	return true;
}

// __ttwu_queue_wakelist(): the first entry on an empty list sends the IPI.
void Simulation::queue_wakelist(Task& p, u32 cpu)
{
	Rq& rq = rqs_[cpu];
	rq.ttwu_pending = true;
	const bool first = rq.wake_list.empty();
	rq.wake_list.push_back(p.se.id);
	if (first)
		send_ipi(cpu, true, false);
}

void Simulation::ttwu_queue(Task& p, u32 cpu, u32 this_cpu, unsigned wake_flags)
{
	if (cfg_.features[Feature::TTWU_QUEUE] && ttwu_queue_wakelist(p, cpu, this_cpu, wake_flags))
		return;
	set_clock(rqs_[cpu]);
	ttwu_do_activate(p, cpu, wake_flags, this_cpu);
}

// ttwu_delayed() (TTWU_QUEUE_DELAYED), on `cpu`, the CPU whose wakelist
// held the delayed task: a full dequeue if it is still queued (it may have
// been picked and dequeued meanwhile, or moved by the balancer: then its
// own rq), CPU selection with the waker's CPU as prev_cpu (swapped back in
// select_task_rq_fair()), and either an activation here (false) or a
// second wakelist hop to the chosen CPU (true).
bool Simulation::ttwu_delayed(Task& p, u32 cpu, unsigned wake_flags)
{
	if (p.se.on_rq) {
		set_clock(rqs_[p.cpu]);
		on_rq_of(p.cpu, cpu, [&] { dequeue_task(p, DEQUEUE_SLEEP | DEQUEUE_DELAYED); });
	}
	const u32 prev = p.wake_cpu >= 0 ? static_cast<u32>(p.wake_cpu) : p.cpu;
	const u32 target = select_task_rq(p, prev, wake_flags, cpu);
	if (target != p.cpu) {  // ttwu_do_migrate()
		wake_flags |= WF_MIGRATED;
		p.wakeups_migrate++;
		set_task_cpu(p, target);
	}
	p.sched_remote_wakeup = (wake_flags & WF_MIGRATED) != 0;
	p.sched_remote_delayed = false;
	if (target == cpu)
		return false;
	queue_wakelist(p, target);
	return true;
}

// ttwu_do_activate(): enqueue (ENQUEUE_WAKEUP, MIGRATED after a move), the
// wake-up preemption check on that rq, and the end of an idle period for
// avg_idle.
void Simulation::ttwu_do_activate(Task& p, u32 cpu, unsigned wake_flags, u32 this_cpu)
{
	Rq& rq = rqs_[cpu];
	unsigned en_flags = ENQUEUE_WAKEUP;
	if (wake_flags & WF_MIGRATED)
		en_flags |= ENQUEUE_MIGRATED;
	on_rq_of(cpu, this_cpu, [&] { enqueue_task(p, en_flags); });
	event_cpu_ = cpu;
	notify(&Observer::on_wakeup, now_, p.se.id, IDLE, false);
	wakeup_preempt(cpu, &p.se, wake_flags, this_cpu);
	if (rq.idle_stamp && !cfg_.preset->paths.avg_idle_at_idle_exit)
		update_rq_avg_idle(rq);
}

// update_rq_avg_idle(): avg_idle is an EWMA (1/8) of idle periods, capped at
// twice the most a newidle balance has cost.
void Simulation::update_rq_avg_idle(Rq& rq)
{
	const u64 delta = now_ - rq.idle_stamp;
	const u64 max = 2 * rq.max_idle_balance_cost;
	const s64 diff = static_cast<s64>(delta) - static_cast<s64>(rq.avg_idle);
	rq.avg_idle = static_cast<u64>(static_cast<s64>(rq.avg_idle) + diff / 8);
	if (rq.avg_idle > max)
		rq.avg_idle = max;
	rq.idle_stamp = 0;
}

// sched_ttwu_pending(): the target CPU enqueues what its wakelist holds, in
// order; only WF_MIGRATED survives the trip.
void Simulation::sched_ttwu_pending(u32 cpu)
{
	Rq& rq = rqs_[cpu];
	set_clock(rq);
	for (size_t i = 0; i < rq.wake_list.size(); i++) {
		Task& p = tasks_[static_cast<size_t>(rq.wake_list[i])];
		unsigned wake_flags = p.sched_remote_wakeup ? unsigned{WF_MIGRATED} : 0u;
		if (p.sched_remote_delayed) {
			// the series' sched_ttwu_pending() passes WF_TTWU (its patch 10)
			wake_flags |= WF_TTWU | WF_DELAYED;
			if (ttwu_delayed(p, cpu, wake_flags))
				continue;
			set_clock(rq);
			wake_flags |= p.sched_remote_wakeup ? unsigned{WF_MIGRATED} : 0u;
		}
		ttwu_do_activate(p, cpu, wake_flags, cpu);
	}
	rq.wake_list.clear();
	rq.ttwu_pending = false;
}

// try_to_wake_up() on `this_cpu` (the waker's, or the CPU whose timer
// fired): a delayed task is requeued in place; any other goes through CPU
// selection and is queued on the chosen CPU, by its wakelist or directly.
void Simulation::try_to_wake_up(int task, int waker, u32 this_cpu)
{
	Task& p = tasks_[static_cast<size_t>(task)];
	if (p.state != TaskState::Sleeping && p.state != TaskState::Suspended)
		return;
	// A task that wakes another in a system call (FUTEX_WAKE, a condition's
	// broadcast) spends the profile's futex_wake_cost of CPU time on it.
	if (waker != IDLE && !cfg_.profile.futex_wake_cost.is_zero()) {
		Task& w = tasks_[static_cast<size_t>(waker)];
		w.syscall_pending += cfg_.profile.futex_wake_cost.sample(w.wake_cost_rng);
	}
	p.state = TaskState::Runnable;
	p.suspended_on = -1;
	p.wakeups++;
	event_cpu_ = p.cpu;
	notify(&Observer::on_ttwu, now_, task, waker);
	const u64 ipis_before = ipis_sent_;
	if (ttwu_runnable(p, this_cpu, WF_TTWU)) {
		// ttwu_stat(p, task_cpu(p)): schedstats count the requeue too
		if (p.cpu == this_cpu)
			p.wakeups_local++;
		else
			p.wakeups_remote++;
		charge_ipi_send(waker, this_cpu, ipis_before);
		return;
	}
	unsigned wake_flags = WF_TTWU;
	const u32 cpu = select_task_rq(p, p.cpu, wake_flags, this_cpu);
	if (cpu != p.cpu) {
		wake_flags |= WF_MIGRATED;
		p.wakeups_migrate++;
		set_task_cpu(p, cpu);
	}
	if (cpu == this_cpu)
		p.wakeups_local++;
	else
		p.wakeups_remote++;
	ttwu_queue(p, cpu, this_cpu, wake_flags);
	charge_ipi_send(waker, this_cpu, ipis_before);
}

// A wake-up that sent an IPI (a wakelist's call-function IPI, or a remote
// resched_curr()'s) cost its waker the profile's ipi_send_cost on top of
// futex_wake_cost: on this VM the send is a write of the x2APIC's ICR that
// exits to the host, 16-29 us of the waker's time p50 (docs/profiles.md). A
// wake-up from an interrupt (a timer's: waker IDLE) charges nothing: that
// CPU's time in interrupts is not modelled. The draw comes from the sending
// CPU's stream.
void Simulation::charge_ipi_send(int waker, u32 this_cpu, u64 ipis_before)
{
	if (waker == IDLE || ipis_sent_ == ipis_before || cfg_.profile.ipi_send_cost.is_zero())
		return;
	Task& w = tasks_[static_cast<size_t>(waker)];
	w.syscall_pending += cfg_.profile.ipi_send_cost.sample(rqs_[this_cpu].noise.ipi_send_cost);
}

// wake_up_new_task(): the child is placed at V with vlag 0 on the CPU the
// fork path selects. 6.8+ activate it with ENQUEUE_INITIAL (half a slice to
// its first deadline); v6.6 places it with INITIAL in task_fork_fair(), then
// activates without, so its first request is a whole slice.
void Simulation::wake_up_new_task(int task)
{
	Task& t = tasks_[static_cast<size_t>(task)];
	t.state = TaskState::Runnable;
	t.se.vlag = 0;
	const u32 parent_cpu = t.cpu;
	t.recent_used_cpu = static_cast<int>(t.cpu);
	unsigned wake_flags = WF_FORK;
	t.cpu = select_task_rq(t, t.cpu, wake_flags, parent_cpu);  // __set_task_cpu(): no migration
	set_task_rq(t, t.cpu);
	t.timer_cpu = t.cpu;
	Rq& rq = rqs_[t.cpu];
	set_clock(rq);
	post_init_entity_util_avg(t.se.avg, se_weight_of(t.se.load), rq.cfs.cfs_rq_of(&t.se).avg);
	on_rq_of(t.cpu, parent_cpu,
		 [&] { enqueue_task(t, cfg_.preset->paths.fork_enqueue_initial ? unsigned{ENQUEUE_INITIAL} : 0u); });
	event_cpu_ = t.cpu;
	notify(&Observer::on_ttwu, now_, task, IDLE);
	notify(&Observer::on_wakeup, now_, task, IDLE, true);
	wakeup_preempt(t.cpu, &t.se, WF_FORK, parent_cpu);
}

}  // namespace eevdf
