// SPDX-License-Identifier: GPL-2.0-only
// kernel/sched/core.c around the fair class, on every CPU (v6.18): the tick,
// __schedule(), the wake-up path (try_to_wake_up, ttwu_runnable,
// select_task_rq, ttwu_queue and the wakelist, ttwu_do_activate), fork,
// sched_change and the syscalls that use it, yield, IPIs and migration.
#include <algorithm>

#include "model/balance.hpp"
#include "model/select_task_rq_fair.hpp"
#include "model/simulation.hpp"

namespace eevdf {

// ---------------------------------------------------------------- tick

// sched_tick(): account curr (entity_tick), then sched_balance_trigger():
// a due periodic balance and the nohz idle-balance kick.
void Simulation::sched_tick(u32 cpu)
{
	Rq& rq = rqs_[cpu];
	rq.ticks++;
	set_clock(rq);
	rq.cfs.entity_tick(false);
	event_cpu_ = cpu;
	for (Observer* o : observers_)
		o->on_tick(*this, now_, false);
	if (rqs_.size() > 1)
		sched_balance_trigger(*this, cpu);
}

void Simulation::hrtick(u32 cpu)
{
	Rq& rq = rqs_[cpu];
	if (!rq.cfs.curr)
		return;
	set_clock(rq);
	rq.cfs.entity_tick(true);
	event_cpu_ = cpu;
	for (Observer* o : observers_)
		o->on_tick(*this, now_, true);
}

// ---------------------------------------------------------------- __schedule

// __schedule() -> pick_next_task_fair(). The pick runs before prev is put
// back, with prev still cfs_rq->curr; re-picking prev changes nothing (in
// particular its slice protection is not renewed). When the fair class has
// nothing, sched_balance_newidle() may pull work from another CPU before the
// CPU goes idle.
//
// HRTICK: __schedule() cancels the hrtick first (hrtick_clear()), and the
// fair class arms it again for the task it sets running: for every pick on
// 6.6, only for a different task from 6.12 (a re-picked task runs on to the
// periodic tick). Arming happens inside the pick, before __schedule() clears
// TIF_NEED_RESCHED, so a resched it asks for (a re-picked task already past
// its slice) is lost.
void Simulation::schedule(u32 cpu)
{
	Rq& rq = rqs_[cpu];
	CfsRq& cfs = rq.cfs;
	set_clock(rq);
	event_cpu_ = cpu;
	SchedEntity* prev = cfs.curr;
	const bool hrtick_rework = cfg_.preset->paths.hrtick_rework;
	if (cfg_.features[Feature::HRTICK] && !hrtick_rework)
		rq.hrtick_at = NEVER;
	rq.hrtick_sched = hrtick_rework;  // hrtick_schedule_enter(): no cancel, later starts deferred
	// The block's dequeue comes after hrtick_clear() inside __schedule(); its
	// hrtick_update() arms the timer for the blocked task (a stale timer if
	// the next task then runs alone).
	if (rq.hrtick_dequeue_donor) {
		hrtick_start_fair(cpu, rq.hrtick_dequeue_donor);
		rq.hrtick_dequeue_donor = nullptr;
	}
	// Each delayed task the pick makes leave re-arms the hrtick for prev
	// (still rq->donor; CfsRq::after_delayed_dequeue): a re-picked prev, or a
	// next running alone, keeps that timer.
	SchedEntity* next = cfs.pick_next_task_fair();
	if (!next && rqs_.size() > 1 && sched_balance_newidle(*this, cpu) > 0) {
		set_clock(rq);
		next = cfs.pick_next_task_fair();
	}
	if (next && (next != prev || cfg_.preset->paths.hrtick_rearm_on_repick))
		hrtick_start_fair(cpu, next);
	if (hrtick_rework)
		hrtick_schedule_exit(cpu, !next);
	cfs.need_resched = false;
	rq.resched_lazy = false;
	rq.ipi_resched = false;  // a resched IPI still on its way finds nothing to do
	for (Observer* o : observers_)
		o->on_schedule(*this, now_, prev ? prev->id : IDLE, next ? next->id : IDLE);
	if (next == prev)
		return;

	rq.switches++;
	if (!prev)
		account_idle_exit(rq);
	const bool prev_runnable = prev && tasks_[static_cast<size_t>(prev->id)].state == TaskState::Runnable;
	rq.useful_start = now_ + (next ? cfg_.knobs.switch_cost : 0);
	for (Observer* o : observers_)
		o->on_switch(*this, now_, prev ? prev->id : IDLE, next ? next->id : IDLE, prev_runnable, rq.useful_start);
	if (!next)
		account_idle_enter(rq);
}

// The idle task starts (set_next_task_idle) or ends (put_prev_task_idle).
// idle_stamp marks when the CPU went idle, for avg_idle (ttwu_do_activate()).
// 7.x: only newidle balancing sets it, and the idle exit takes the sample.
void Simulation::account_idle_enter(Rq& rq)
{
	if (!cfg_.preset->paths.avg_idle_at_idle_exit)
		rq.idle_stamp = now_;
	if (rqs_.size() > 1)
		nohz_balance_enter_idle(*this, rq.cpu);
}

void Simulation::account_idle_exit(Rq& rq)
{
	if (cfg_.preset->paths.avg_idle_at_idle_exit && rqs_.size() > 1)
		update_rq_avg_idle(rq);
}

// ---------------------------------------------------------------- hrtick

// hrtick_start_fair(rq, p) (6.6 - 6.18): end p's slice by timer, measured
// in real runtime since its pick, when more than one task is queued;
// hrtick_start() never arms it less than 10 us ahead. With one task queued
// an armed timer is left alone. p is rq->donor, the running task, even
// between a sched_change's put_prev and set_next.
//
// 7.x: the timer is set for the real time to p's virtual deadline,
// w (d - v) / NICE_0_LOAD (no IRQ time here to scale it by), through
// hrtick_start() below. A start asked of another CPU arrives by IPI in the
// kernel; the model arms it at once (the expiry is absolute in both).
void Simulation::hrtick_start_fair(u32 cpu, const SchedEntity* se)
{
	Rq& rq = rqs_[cpu];
	if (!cfg_.features[Feature::HRTICK] || !se || rq.cfs.nr_queued <= 1)
		return;
	constexpr u64 HRTICK_MIN_NS = 10 * NSEC_PER_USEC;
	if (cfg_.preset->paths.hrtick_rework) {
		const s64 vdelta = wrapped_diff(se->deadline, se->vruntime);
		if (vdelta < 0) {
			if (se == rq.cfs.curr)
				rq.cfs.need_resched = true;
			return;
		}
		hrtick_start(cpu, se->load.weight * static_cast<u64>(vdelta) / NICE_0_LOAD);
		return;
	}
	u64 ran = se->sum_exec_runtime - se->prev_sum_exec_runtime;
	if (cfg_.bugs[Bug::HRTICK_FROM_PICK_TIME])
		ran = 0;  // as if picked now: the runtime since the pick is forgotten
	const s64 delta = static_cast<s64>(se->slice - ran);
	if (delta < 0) {
		rq.cfs.need_resched = true;
		return;
	}
	rq.hrtick_at = now_ + std::max<u64>(static_cast<u64>(delta), HRTICK_MIN_NS);
	touch(cpu);
}

// hrtick_update(): at the end of enqueue_task_fair() and dequeue_task_fair(),
// for the task running there (none on the idle task). 7.x calls it only
// from enqueue (hrtick_update_enqueued()).
void Simulation::hrtick_update(u32 cpu, const SchedEntity* donor)
{
	if (donor && !cfg_.preset->paths.hrtick_rework)
		hrtick_start_fair(cpu, donor);
}

// enqueue_task_fair()'s hrtick_update(); 7.x: only when no hrtick is armed
// (hrtick_active()), so an armed timer is never moved by an enqueue.
void Simulation::hrtick_update_enqueued(u32 cpu, const SchedEntity* donor)
{
	if (!cfg_.preset->paths.hrtick_rework) {
		hrtick_update(cpu, donor);
		return;
	}
	if (donor && rqs_[cpu].hrtick_at == NEVER)
		hrtick_start_fair(cpu, donor);
}

// 7.x hrtick_start(): at least 10 us; inside __schedule() only noted, else
// armed unless an armed timer already expires within 5 us of the new time
// (hrtick_needs_rearm()).
void Simulation::hrtick_start(u32 cpu, u64 delay)
{
	Rq& rq = rqs_[cpu];
	const u64 delta = std::max<u64>(delay, 10 * NSEC_PER_USEC);
	if (rq.hrtick_sched) {
		rq.hrtick_start_pending = true;
		rq.hrtick_delay = delta;
		return;
	}
	hrtick_cond_restart(cpu, now_ + delta);
}

void Simulation::hrtick_cond_restart(u32 cpu, u64 at)
{
	Rq& rq = rqs_[cpu];
	if (rq.hrtick_at != NEVER && (at > rq.hrtick_at ? at - rq.hrtick_at : rq.hrtick_at - at) <= 5000)
		return;
	rq.hrtick_at = at;
	touch(cpu);
}

// 7.x hrtick_schedule_exit(): arm the last start noted in __schedule();
// without one, a CPU going idle cancels its timer and any other keeps it
// (it may fire for a task that did not ask for it: a full resched).
void Simulation::hrtick_schedule_exit(u32 cpu, bool idle)
{
	Rq& rq = rqs_[cpu];
	rq.hrtick_sched = false;
	if (rq.hrtick_start_pending) {
		rq.hrtick_start_pending = false;
		hrtick_cond_restart(cpu, now_ + rq.hrtick_delay);
	} else if (idle && rq.hrtick_at != NEVER) {
		rq.hrtick_at = NEVER;
		touch(cpu);
	}
}

// ---------------------------------------------------------------- resched, IPIs

// An operation run on this_cpu against cpu's rq under its lock (a remote
// enqueue, a balancer's detach or attach). Whatever resched it leaves there
// -- update_curr() ending curr's slice, the wake-up preemption check -- is
// resched_curr() in the kernel, which reaches a remote CPU by IPI. CfsRq
// only sets the flag; this sends the IPI.
//
// Every resched the fair class asks for is resched_curr_lazy(): with
// PREEMPT_LAZY a CPU running a task gets TIF_NEED_RESCHED_LAZY and no IPI,
// and acts on it at its next interrupt (its tick at the latest); the idle
// task is always preempted at once.
template <class Op>
void Simulation::on_rq_of(u32 cpu, u32 this_cpu, Op&& op)
{
	Rq& rq = rqs_[cpu];
	const bool had = rq.cfs.need_resched;
	op();
	if (cpu == this_cpu || had || !rq.cfs.need_resched)
		return;
	if (cfg_.preempt == Preempt::Lazy && !rq.idle())
		rq.resched_lazy = true;
	else
		send_ipi(cpu, false, true);
}

// resched_curr(): the flag is set at once; another CPU acts on it when the
// IPI arrives (or at its next own scheduling point). A CPU that already has
// the flag gets no second IPI, unless it was only the lazy one.
void Simulation::resched_curr(u32 cpu, u32 this_cpu)
{
	Rq& rq = rqs_[cpu];
	if (rq.cfs.need_resched && !rq.resched_lazy)
		return;
	rq.cfs.need_resched = true;
	rq.resched_lazy = false;  // a full request on top of a lazy one does send the IPI
	if (cpu != this_cpu)
		send_ipi(cpu, false, true);
}

// smp_send_reschedule() / __smp_call_single_queue(): one IPI in flight per
// CPU carries whatever was asked of it. No idle state polls (halted idle:
// haltpoll with guest_halt_poll_ns=0, as on the machine the probe runs on),
// so every IPI to an idle CPU pays the exit latency too.
void Simulation::send_ipi(u32 cpu, bool wakelist, bool resched)
{
	Rq& rq = rqs_[cpu];
	rq.ipi_wakelist = rq.ipi_wakelist || wakelist;
	rq.ipi_resched = rq.ipi_resched || resched;
	touch(cpu);
	if (rq.ipi_at == NEVER)
		rq.ipi_at = now_ + cfg_.knobs.ipi_latency + (rq.idle() ? cfg_.knobs.idle_exit_latency : 0);
}

void Simulation::deliver_ipi(u32 cpu)
{
	Rq& rq = rqs_[cpu];
	rq.ipis++;
	rq.ipi_at = NEVER;
	const bool wakelist = rq.ipi_wakelist;
	const unsigned kick = rq.ipi_nohz_flags;
	rq.ipi_wakelist = rq.ipi_resched = false;
	rq.ipi_nohz_flags = 0;
	if (wakelist) {
		// The handler's own time is IRQ time, which this kernel
		// (no IRQ_TIME_ACCOUNTING) charges to whatever was running.
		if (!rq.idle() && cfg_.knobs.wakeup_irq_cost)
			rq.useful_start = std::max(now_, rq.useful_start) + cfg_.knobs.wakeup_irq_cost;
		sched_ttwu_pending(cpu);
	}
	if (kick)
		nohz_csd_func(*this, cpu, kick);
}

void Simulation::send_nohz_kick(u32 cpu, unsigned flags)
{
	rqs_[cpu].ipi_nohz_flags |= flags;
	send_ipi(cpu, false, false);
}

// ---------------------------------------------------------------- enqueue / dequeue

// enqueue_task() and add_nr_running(): a second runnable task on a CPU
// marks the root domain overloaded (newidle balancing runs only then).
// enqueue_task_fair() ends with hrtick_update(), except when it only
// requeued a delayed task.
void Simulation::enqueue_task(Task& p, unsigned flags)
{
	Rq& rq = rqs_[p.cpu];
	touch(p.cpu);
	const u32 before = rq.nr_running();
	rq.cfs.enqueue_task_fair(&p.se, flags);
	if (before < 2 && rq.nr_running() >= 2)
		balance_.rd_overloaded = true;
	if (!(flags & ENQUEUE_DELAYED))
		hrtick_update_enqueued(p.cpu, rq.cfs.curr);
}

// dequeue_task_fair() ends with hrtick_update() unless the task stayed
// queued, delayed.
bool Simulation::dequeue_task(Task& p, unsigned flags)
{
	Rq& rq = rqs_[p.cpu];
	touch(p.cpu);
	const bool left = rq.cfs.dequeue_task_fair(&p.se, flags);
	if (left)
		hrtick_update(p.cpu, rq.cfs.curr);
	return left;
}

// ---------------------------------------------------------------- wake-up

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
		remove_entity_load_avg(src.cfs.avg, p.se.avg, se_weight_of(p.se.load));
		const u64 pelt = src.cfs.pelt_now();
		const u64 idle = src.idle_stamp + CfsRq::PELT_CLOCK_ORIGIN;
		const RqClock clk{pelt, pelt, pelt, 0, idle, idle};
		migrate_se_pelt_lag(p.se.avg, se_weight_of(p.se.load), src.cfs.avg, clk, src.idle(), pelt);
	}
	p.se.avg.last_update_time = 0;
	if (cfg_.bugs[Bug::MIGRATE_DROPS_LAG])
		p.se.vlag = 0;
	const u32 from = p.cpu;
	p.cpu = cpu;
	p.nr_migrations++;
	for (Observer* o : observers_)
		o->on_migrate(*this, now_, p.se.id, from, cpu);
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
	for (Observer* o : observers_)
		o->on_wakeup(*this, now_, p.se.id, IDLE, false);
	if (rq.cfs.curr != &p.se)
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
	for (Observer* o : observers_)
		o->on_wakeup(*this, now_, p.se.id, IDLE, false);
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
	p.state = TaskState::Runnable;
	p.suspended_on = -1;
	p.wakeups++;
	event_cpu_ = p.cpu;
	for (Observer* o : observers_)
		o->on_ttwu(*this, now_, task, waker);
	if (ttwu_runnable(p, this_cpu, WF_TTWU)) {
		// ttwu_stat(p, task_cpu(p)): schedstats count the requeue too
		if (p.cpu == this_cpu)
			p.wakeups_local++;
		else
			p.wakeups_remote++;
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
	t.timer_cpu = t.cpu;
	Rq& rq = rqs_[t.cpu];
	set_clock(rq);
	post_init_entity_util_avg(t.se.avg, se_weight_of(t.se.load), rq.cfs.avg);
	on_rq_of(t.cpu, parent_cpu,
		 [&] { enqueue_task(t, cfg_.preset->paths.fork_enqueue_initial ? unsigned{ENQUEUE_INITIAL} : 0u); });
	event_cpu_ = t.cpu;
	for (Observer* o : observers_)
		o->on_ttwu(*this, now_, task, IDLE);
	for (Observer* o : observers_)
		o->on_wakeup(*this, now_, task, IDLE, true);
	wakeup_preempt(t.cpu, &t.se, WF_FORK, parent_cpu);
}

void Simulation::block_current(u32 cpu, TaskState why, int suspended_on)
{
	Rq& rq = rqs_[cpu];
	Task& t = tasks_[static_cast<size_t>(rq.cfs.curr->id)];
	set_clock(rq);
	t.state = why;
	t.suspended_on = suspended_on;
	const bool delayed = !rq.cfs.dequeue_task_fair(&t.se, DEQUEUE_SLEEP);
	if (!delayed && !cfg_.preset->paths.hrtick_rework)
		rq.hrtick_dequeue_donor = &t.se;  // hrtick_update() after __schedule()'s hrtick_clear()
	event_cpu_ = cpu;
	for (Observer* o : observers_)
		o->on_block(*this, now_, t.se.id, delayed, false);
	rq.cfs.need_resched = true;
}

void Simulation::exit_current(u32 cpu)
{
	Rq& rq = rqs_[cpu];
	Task& t = tasks_[static_cast<size_t>(rq.cfs.curr->id)];
	set_clock(rq);
	t.state = TaskState::Exited;
	rq.cfs.dequeue_task_fair(&t.se, DEQUEUE_SLEEP | DEQUEUE_SPECIAL);
	if (!cfg_.preset->paths.hrtick_rework)
		rq.hrtick_dequeue_donor = &t.se;
	live_tasks_--;
	event_cpu_ = cpu;
	for (Observer* o : observers_)
		o->on_block(*this, now_, t.se.id, false, true);
	rq.cfs.need_resched = true;
}

// ---------------------------------------------------------------- migration by the balancer

// detach_task(): deactivate (a non-sleep dequeue: the lag is saved and,
// with PLACE_REL_DEADLINE, the deadline made relative; PELT detaches) and
// move to dst.
void Simulation::detach_task(Task& p, u32 dst, u32 this_cpu)
{
	set_clock(rqs_[p.cpu]);
	p.on_rq_migrating = true;
	on_rq_of(p.cpu, this_cpu, [&] { dequeue_task(p, DEQUEUE_MIGRATING); });
	set_task_cpu(p, dst);
}

// attach_task(): activate on the new CPU (ENQUEUE_MIGRATED: placed with
// the lag and relative deadline it left with, cold for task_hot()), then
// the wake-up preemption check there.
void Simulation::attach_task(Task& p, u32 this_cpu)
{
	Rq& dst = rqs_[p.cpu];
	set_clock(dst);
	on_rq_of(p.cpu, this_cpu, [&] { enqueue_task(p, ENQUEUE_MIGRATED); });
	p.on_rq_migrating = false;
	for (Observer* o : observers_)
		o->on_attach(*this, now_, p.se.id);
	wakeup_preempt(p.cpu, &p.se, 0, this_cpu);
	dst.tasks_pulled++;
}

// ---------------------------------------------------------------- sched_change and syscalls

// The sched_change pattern of core.c: a queued task is dequeued (SAVE) and,
// if running, put back; the change is made off the queue; the task is
// enqueued (RESTORE: lag and relative deadline kept) and set running again,
// without renewing its slice protection where the preset says so.
template <class Change>
void Simulation::sched_change(SchedEntity* se, unsigned dequeue_flags, Change&& change)
{
	const u32 cpu = tasks_[static_cast<size_t>(se->id)].cpu;
	Rq& rq = rqs_[cpu];
	CfsRq& cfs = rq.cfs;
	const bool queued = se->on_rq, running = cfs.curr == se;
	const SchedEntity* donor = cfs.curr;  // rq->donor stays the running task throughout
	set_clock(rq);
	if (queued) {
		cfs.dequeue_task_fair(se, dequeue_flags);
		hrtick_update(cpu, donor);
	}
	if (running)
		cfs.put_prev_entity(se);
	change();
	if (queued) {
		cfs.enqueue_task_fair(se, ENQUEUE_RESTORE);
		hrtick_update_enqueued(cpu, donor);
	}
	if (running)
		cfs.set_next_entity(se, false);
}

// set_user_nice(): reweight under sched_change, then prio_changed_fair().
// A SCHED_IDLE task keeps weight 3, but its prio still changes, so the
// prio_changed_fair() that follows runs as for any task. v6.6's
// set_load_weight() stores the idle weight and returns before
// reweight_task(); 6.12+ reweight to the same weight, which recomputes the
// entity's load_avg from its load_sum (KernelPaths::idle_policy_reweights).
void Simulation::set_user_nice(Task& t, int nice)
{
	if (nice == t.nice)
		return;
	SchedEntity* se = &t.se;
	CfsRq& cfs = rqs_[t.cpu].cfs;
	const bool queued = se->on_rq, running = cfs.curr == se;
	const int old = t.nice;
	const u64 old_weight = se->load.weight;
	const bool reweight = !se->idle_policy || cfg_.preset->paths.idle_policy_reweights;
	s64 saved_vlag = 0;
	sched_change(se, DEQUEUE_SAVE, [&] {
		saved_vlag = se->vlag;
		t.nice = nice;
		if (reweight)
			cfs.reweight_entity(se, se->idle_policy ? idle_load_weight() : task_load_weight(nice));
	});
	event_cpu_ = t.cpu;
	if (queued && reweight)
		for (Observer* o : observers_)
			o->on_reweight(*this, now_, se->id, saved_vlag, old_weight);

	if (!queued || cfs.nr_queued == 1)
		return;
	if (running) {
		if (nice > old)  // lower priority: let the pick decide now
			cfs.need_resched = true;
	} else {
		wakeup_preempt(t.cpu, se, 0, t.cpu);
	}
}

// sched_setattr() with sched_runtime (6.12+): the slice changes under
// sched_change (SAVE|MOVE); the relative deadline is kept, so the new slice
// takes effect at the next renewal.
void Simulation::sched_setattr_runtime(Task& t, u64 runtime)
{
	if (!cfg_.preset->paths.custom_slices)
		return;  // before 6.12 the fair class ignores sched_runtime
	SchedEntity* se = &t.se;
	// __sched_setscheduler(): with the policy and nice unchanged, only a
	// sched_runtime different from the current slice, compared raw before
	// clamping, goes on to change anything. So a runtime equal to the base
	// slice leaves a task without a custom slice, and runtime 0 on such a
	// task still re-queues it.
	if (runtime == se->slice)
		return;
	const u64 slice = runtime ? clamp_custom_slice(runtime) : cfg_.base_slice_ns;
	sched_change(se, DEQUEUE_SAVE | DEQUEUE_MOVE, [&] {
		se->custom_slice = runtime != 0;
		se->slice = slice;
	});
}

// The CPU stopper preempts the running task of `cpu` (migration/N; shown
// as a switch to the idle task, the model has no stop class): put back as a
// queued task, curr cleared, so it can be moved like any queued task.
void Simulation::stopper_preempt(u32 cpu)
{
	Rq& rq = rqs_[cpu];
	set_clock(rq);
	const int prev = rq.cfs.curr->id;
	rq.cfs.put_prev_entity(rq.cfs.curr);
	rq.switches++;
	event_cpu_ = cpu;
	for (Observer* o : observers_)
		o->on_switch(*this, now_, prev, IDLE, true, now_);
}

// sched_setaffinity() by the running task on `cpu`: the new mask applies
// at once; if this CPU is no longer allowed, the stopper preempts the task
// and move_queued_task() takes it to an allowed CPU (the kernel picks it
// with cpumask_any_and_distribute(); the model takes the first allowed one)
// with ENQUEUE_MIGRATED placement, and this CPU reschedules.
bool Simulation::sched_setaffinity(u32 cpu, Task& t, const CpuMask& mask)
{
	CpuMask allowed = mask & CpuMask::first_n(cfg_.cpus);
	if (allowed.empty())
		return false;  // -EINVAL: the mask has no online CPU; nothing changes
	t.cpus_ptr = allowed;
	t.nr_cpus_allowed = allowed.weight();
	if (allowed.test(cpu))
		return false;
	Rq& rq = rqs_[cpu];
	stopper_preempt(cpu);  // t, now queued, is moved
	t.on_rq_migrating = true;
	dequeue_task(t, DEQUEUE_MIGRATING);
	set_task_cpu(t, allowed.first());
	set_clock(rqs_[t.cpu]);
	on_rq_of(t.cpu, cpu, [&] { enqueue_task(t, ENQUEUE_MIGRATED); });
	t.on_rq_migrating = false;
	for (Observer* o : observers_)
		o->on_attach(*this, now_, t.se.id);
	wakeup_preempt(t.cpu, &t.se, 0, cpu);
	rq.cfs.need_resched = true;  // the stopper is done; this CPU picks again
	return true;
}

void Simulation::do_sched_yield(u32 cpu)
{
	Rq& rq = rqs_[cpu];
	set_clock(rq);
	rq.cfs.yield_task_fair();
	rq.cfs.need_resched = true;
	event_cpu_ = cpu;
	for (Observer* o : observers_)
		o->on_yield(*this, now_, rq.cfs.curr ? rq.cfs.curr->id : IDLE);
}

}  // namespace eevdf
