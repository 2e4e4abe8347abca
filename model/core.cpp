// SPDX-License-Identifier: GPL-2.0-only
// kernel/sched/core.c around the fair class, on every CPU (v6.18): the tick,
// __schedule(), resched and IPIs, enqueue/dequeue, blocking and exit,
// migration by the balancer, sched_change and the syscalls that use it
// (nice, sched_setattr, sched_setaffinity, yield). The wake-up path and
// fork are in ttwu.cpp, the hrtick in hrtick.cpp.
#include <algorithm>

#include "model/balance.hpp"
#include "model/idle_cores.hpp"
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
	// 6.13+: a pending lazy request becomes a full one before task_tick()
	// (dynamic_preempt_lazy()), so a pull by this tick's balance finds it set.
	if (rq.cfs.resched_lazy)
		rq.cfs.resched_curr();
	rq.cfs.task_tick_fair(false);
	event_cpu_ = cpu;
	notify(&Observer::on_tick, now_, false);
	if (rqs_.size() > 1)
		sched_balance_trigger(*this, cpu);
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
	SchedEntity* prev = cfs.curr_task();
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
	if (!next && rqs_.size() > 1) {
		rq.newidle_from_task = prev != nullptr || rq.stopper_ran;  // curr: prev, or the stop task
		const int pulled = sched_balance_newidle(*this, cpu);
		rq.newidle_from_task = false;
		if (pulled > 0) {
			set_clock(rq);
			next = cfs.pick_next_task_fair();
		}
	}
	if (next && (next != prev || cfg_.preset->paths.hrtick_rearm_on_repick))
		hrtick_start_fair(cpu, next);
	if (hrtick_rework)
		hrtick_schedule_exit(cpu, !next);
	cfs.need_resched = false;
	cfs.resched_lazy = false;
	rq.ipi_resched = false;  // a resched IPI still on its way finds nothing to do
	rq.resched_at = NEVER;   // nor does a deferred timer resched
	notify(&Observer::on_schedule, now_, prev ? prev->id : IDLE, next ? next->id : IDLE);
	// After the stopper prev is the stop task (shown as idle, already
	// counted as a switch): put_prev_set_next_task() from it to the idle
	// task runs set_next_task_idle(), to a fair task no idle exit.
	const bool after_stopper = rq.stopper_ran;
	rq.stopper_ran = false;
	if (next == prev) {
		if (after_stopper && !next)
			account_idle_enter(rq);
		return;
	}

	rq.switches++;
	if (!prev && !after_stopper)
		account_idle_exit(rq);
	const bool prev_runnable = prev && tasks_[static_cast<size_t>(prev->id)].state == TaskState::Runnable;
	u64 switch_cost = 0;
	if (next)
		switch_cost = cfg_.knobs.switch_cost + Rq::draw(cfg_.profile.switch_cost, rq.noise.switch_cost);
	rq.useful_start = now_ + switch_cost;
	notify(&Observer::on_switch, now_, prev ? prev->id : IDLE, next ? next->id : IDLE, prev_runnable, rq.useful_start);
	if (!next)
		account_idle_enter(rq);
}

// The idle task starts (set_next_task_idle) or ends (put_prev_task_idle).
// idle_stamp marks when the CPU went idle, for avg_idle (ttwu_do_activate()).
// 7.x: only newidle balancing sets it, and the idle exit takes the sample.
// On an SMT machine the idle task's start may set the LLC's idle-core hint.
void Simulation::account_idle_enter(Rq& rq)
{
	update_idle_core(*this, rq.cpu);
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

// ---------------------------------------------------------------- resched, IPIs

// resched_curr(): the flag is set at once; another CPU acts on it when the
// IPI arrives (or at its next own scheduling point). A CPU that already has
// the flag gets no second IPI, unless it was only the lazy one.
void Simulation::resched_curr(u32 cpu, u32 this_cpu)
{
	Rq& rq = rqs_[cpu];
	if (rq.cfs.test_tsk_need_resched())
		return;
	rq.cfs.resched_curr();  // a full request on top of a lazy one does send the IPI
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
	if (rq.ipi_at == NEVER) {
		ipis_sent_++;
		rq.ipi_at = now_ + cfg_.knobs.ipi_latency + Rq::draw(cfg_.profile.ipi_latency, rq.noise.ipi_latency) +
			    (rq.idle() ? cfg_.knobs.idle_exit_latency +
						 Rq::draw(cfg_.profile.idle_exit_latency, rq.noise.idle_exit_latency)
				       : 0);
	}
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
		if (!rq.idle()) {
			const u64 cost = cfg_.knobs.wakeup_irq_cost +
					 Rq::draw(cfg_.profile.wakeup_irq_cost, rq.noise.wakeup_irq_cost);
			if (cost)
				rq.useful_start = std::max(now_, rq.useful_start) + cost;
		}
		sched_ttwu_pending(cpu);
	}
	if (kick)
		nohz_csd_func(*this, cpu, kick);
}

// A timer interrupt that woke a task onto its own CPU and asked that CPU to
// reschedule leaves __schedule() to the interrupt's exit: on an idle CPU
// the idle loop's exit (do_idle() -> schedule_idle(), with the nohz tick's
// restart), on a busy one the return to user space. On this VM both take
// microseconds (sched_waking -> sched_switch of a local timer wake-up:
// 5-16 us p50, docs/kernel-probe.md), time in which the woken task is
// queued but not running and the interrupted task runs on. The profile's
// resched_delay (idle) and resched_delay_busy draws say how long; 0, as in
// the exact profile, acts at once as before. Any earlier scheduling point
// of the CPU (its task blocks, a tick, an IPI) ends the wait.
bool Simulation::defer_timer_resched(u32 cpu)
{
	Rq& rq = rqs_[cpu];
	if (!rq.cfs.need_resched || rq.resched_at != NEVER)
		return false;
	const Profile& p = cfg_.profile;
	const u64 delay = rq.idle() ? Rq::draw(p.resched_delay, rq.noise.resched_delay)
				    : Rq::draw(p.resched_delay_busy, rq.noise.resched_delay_busy);
	if (!delay)
		return false;
	rq.resched_at = now_ + delay;
	touch(cpu);
	return true;
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
		hrtick_update_enqueued(p.cpu, rq.cfs.curr_task());
}

// dequeue_task_fair() ends with hrtick_update() unless the task stayed
// queued, delayed.
bool Simulation::dequeue_task(Task& p, unsigned flags)
{
	Rq& rq = rqs_[p.cpu];
	touch(p.cpu);
	const bool left = rq.cfs.dequeue_task_fair(&p.se, flags);
	if (left)
		hrtick_update(p.cpu, rq.cfs.curr_task());
	return left;
}

void Simulation::block_current(u32 cpu, TaskState why, int suspended_on)
{
	Rq& rq = rqs_[cpu];
	Task& t = tasks_[static_cast<size_t>(rq.cfs.curr_task()->id)];
	set_clock(rq);
	t.state = why;
	t.suspended_on = suspended_on;
	const bool delayed = !rq.cfs.dequeue_task_fair(&t.se, DEQUEUE_SLEEP);
	if (!delayed && !cfg_.preset->paths.hrtick_rework)
		rq.hrtick_dequeue_donor = &t.se;  // hrtick_update() after __schedule()'s hrtick_clear()
	event_cpu_ = cpu;
	notify(&Observer::on_block, now_, t.se.id, delayed, false);
	rq.cfs.need_resched = true;
}

void Simulation::exit_current(u32 cpu)
{
	Rq& rq = rqs_[cpu];
	Task& t = tasks_[static_cast<size_t>(rq.cfs.curr_task()->id)];
	set_clock(rq);
	t.state = TaskState::Exited;
	rq.cfs.dequeue_task_fair(&t.se, DEQUEUE_SLEEP | DEQUEUE_SPECIAL);
	if (!cfg_.preset->paths.hrtick_rework)
		rq.hrtick_dequeue_donor = &t.se;
	live_tasks_--;
	event_cpu_ = cpu;
	notify(&Observer::on_block, now_, t.se.id, false, true);
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
	notify(&Observer::on_attach, now_, p.se.id);
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
	const bool queued = se->on_rq, running = cfs.curr_task() == se;
	const SchedEntity* donor = cfs.curr_task();  // rq->donor stays the running task throughout
	set_clock(rq);
	if (queued) {
		cfs.dequeue_task_fair(se, dequeue_flags);
		hrtick_update(cpu, donor);
	}
	if (running)
		cfs.put_prev_task_fair(se);
	change();
	if (queued) {
		cfs.enqueue_task_fair(se, ENQUEUE_RESTORE);
		hrtick_update_enqueued(cpu, donor);
	}
	if (running)
		cfs.set_next_task_fair(se, false);
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
	const bool queued = se->on_rq, running = cfs.curr_task() == se;
	const int old = t.nice;
	const u64 old_weight = se->load.weight;
	const bool reweight = !se->idle_policy || cfg_.preset->paths.idle_policy_reweights;
	s64 saved_vlag = 0;
	sched_change(se, DEQUEUE_SAVE, [&] {
		saved_vlag = se->vlag;
		t.nice = nice;
		if (reweight)
			cfs.cfs_rq_of(se).reweight_entity(se, se->idle_policy ? idle_load_weight() : task_load_weight(nice));
	});
	event_cpu_ = t.cpu;
	if (queued && reweight)
		notify(&Observer::on_reweight, now_, se->id, saved_vlag, old_weight);

	if (!queued || cfs.nr_queued == 1)
		return;
	if (running) {
		if (nice > old)  // lower priority: let the pick decide now (prio_changed_fair())
			cfs.resched_curr();
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
	const int prev = rq.cfs.curr_task()->id;
	rq.cfs.put_prev_task_fair(rq.cfs.curr_task());
	rq.switches++;
	rq.stopper_ran = true;
	event_cpu_ = cpu;
	notify(&Observer::on_switch, now_, prev, IDLE, true, now_);
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
	notify(&Observer::on_attach, now_, t.se.id);
	wakeup_preempt(t.cpu, &t.se, 0, cpu);
	rq.cfs.need_resched = true;  // the stopper is done; this CPU picks again
	return true;
}

// sched_group_set_shares(): a write to cpu.shares or cpu.weight. An idle
// group refuses it (-EINVAL: its weight is WEIGHT_IDLEPRIO while cpu.idle
// is 1) and nothing changes. Else, __sched_group_set_shares(): on every
// CPU the group's entity and all those above it take their shares at once,
// queued or running (update_cfs_group(), reweight_entity()); nothing is
// rescheduled: the next tick or wake-up decides with the new weights. But
// the update_curr() that reweight_entity() makes on each CPU may end a
// request there: a full request on another CPU is sent its IPI, as
// __resched_curr() sends it.
void Simulation::sched_group_set_shares(size_t group, u64 shares, u32 this_cpu)
{
	if (groups_[group].idle)
		return;
	__sched_group_set_shares(group, shares, this_cpu);
}

void Simulation::__sched_group_set_shares(size_t group, u64 shares, u32 this_cpu)
{
	TaskGroup& tg = groups_[group];
	if (tg.shares == shares)
		return;
	tg.shares = shares;
	for (Rq& rq : rqs_) {
		set_clock(rq);
		SchedEntity* se = &tg.se[rq.cpu];
		CfsRq& q = rq.cfs.cfs_rq_of(se);
		q.last_queued_reweight.se = nullptr;
		const bool had_resched = rq.cfs.need_resched;
		rq.cfs.update_group_shares(se);
		touch(rq.cpu);
		if (rq.cpu != this_cpu && !had_resched && rq.cfs.need_resched && !rq.cfs.resched_lazy)
			send_ipi(rq.cpu, false, true);
		if (q.last_queued_reweight.se == se) {
			event_cpu_ = rq.cpu;
			notify(&Observer::on_group_reweight, now_, rq.cpu, group);
		}
	}
	event_cpu_ = this_cpu;
	notify(&Observer::on_group_shares, now_, group);
}

// sched_group_set_idle(): a write to cpu.idle mid-run. On every CPU the
// group's cfs_rq becomes idle (or not), and the tasks queued below it that
// were not idle already are counted as idle (or no longer) in h_nr_idle on
// every level above its queued entity, up to the first idle level (which
// counts them already). Then __sched_group_set_shares(): WEIGHT_IDLEPRIO,
// or NICE_0_LOAD when the group stops being idle (not the weight it had
// before: the kernel does not keep it), so its entities are reweighted.
void Simulation::sched_group_set_idle(size_t group, bool idle, u32 this_cpu)
{
	TaskGroup& tg = groups_[group];
	if (tg.idle == idle)
		return;
	tg.idle = idle;
	for (Rq& rq : rqs_) {
		CfsRq& g = tg.cfs_rq[rq.cpu];
		g.idle = idle;
		const u64 delta = g.h_nr_queued - g.h_nr_idle;
		for (SchedEntity* se = &tg.se[rq.cpu]; se && se->on_rq; se = parent_entity(se)) {
			CfsRq& q = rq.cfs.cfs_rq_of(se);
			q.h_nr_idle = idle ? q.h_nr_idle + delta : q.h_nr_idle - delta;
			if (q.idle)
				break;
		}
		touch(rq.cpu);
	}
	__sched_group_set_shares(group, idle ? scale_load(WEIGHT_IDLEPRIO) : NICE_0_LOAD, this_cpu);
}

// sched_move_task(): the running task writes itself into another cpu
// cgroup (rt-app does at a phase's start, and not when it is there
// already). Under sched_change (SAVE|MOVE), task_change_group_fair():
// detach_task_cfs_rq() takes its load out of the old group's cfs_rq,
// set_task_rq() puts it below the new group's entity of its CPU, and the
// enqueue that follows attaches it there (DO_ATTACH, last_update_time 0;
// the kernel's attach_entity_cfs_rq() does it just before, at the same
// instant). The running task is rescheduled. Under --autogroup a task
// moved to the root cgroup goes to its session's autogroup
// (autogroup_task_group()), as sched_change_group() decides.
void Simulation::sched_move_task(Task& t, int group)
{
	TaskGroup* tg = group >= 0 ? &groups_[static_cast<size_t>(group)] : nullptr;
	const size_t i = static_cast<size_t>(t.se.id);
	if (cfg_.autogroup)
		autogroups_.of_task[i] = tg ? -1 : autogroups_.session_of_task[i];
	if (!tg && task_autogroup(i))
		tg = &group_by_path(task_autogroup(i)->path);
	SchedEntity* parent = tg ? &tg->se[t.cpu] : nullptr;
	if (t.se.parent == parent)
		return;
	CfsRq& cfs = rqs_[t.cpu].cfs;
	const bool running = cfs.curr_task() == &t.se;
	sched_change(&t.se, DEQUEUE_SAVE | DEQUEUE_MOVE, [&] {
		cfs.cfs_rq_of(&t.se).detach_entity_cfs_rq(&t.se);
		t.se.avg.last_update_time = 0;
		t.se.parent = parent;
		t.se.depth = parent ? parent->depth + 1 : 0;
	});
	if (running)
		cfs.resched_curr();
	touch(t.cpu);
	event_cpu_ = t.cpu;
	notify(&Observer::on_move_group, now_, t.se.id);
}

// setsid() -> sched_autogroup_create_attach(): the caller leads a new
// session whose autogroup it joins, and autogroup_move_group() moves it
// there (sched_move_task()) when autogroup_task_group() applies, i.e. it is
// in the root cpu cgroup; in a cpu cgroup it stays, and a later move to the
// root takes it to the new session's group. A session leader's setsid()
// fails (EPERM): only a task's first call does anything
// (Autogroups::setsid_group).
void Simulation::sched_setsid(Task& t)
{
	if (!cfg_.autogroup)
		return;
	const size_t i = static_cast<size_t>(t.se.id);
	const int session = autogroups_.setsid_group[i];
	if (session < 0 || autogroups_.session_of_task[i] == session)
		return;
	autogroups_.session_of_task[i] = session;
	if (autogroups_.of_task[i] >= 0)
		sched_move_task(t, -1);
}

void Simulation::do_sched_yield(u32 cpu)
{
	Rq& rq = rqs_[cpu];
	set_clock(rq);
	rq.cfs.yield_task_fair();
	rq.cfs.need_resched = true;
	event_cpu_ = cpu;
	notify(&Observer::on_yield, now_, rq.cfs.curr_task() ? rq.cfs.curr_task()->id : IDLE);
}

}  // namespace eevdf
