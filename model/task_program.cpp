// SPDX-License-Identifier: GPL-2.0-only
// The tasks' programs: an rt-app-like interpreter over the workload's
// phases and events, run by the task while it is on a CPU. It calls into the
// scheduler exactly where the real program would make a system call.
#include <algorithm>

#include "model/simulation.hpp"

namespace eevdf {

const Event* Simulation::current_event(Task& t) const
{
	if (t.phase >= t.spec->phases.size())
		return nullptr;
	return &t.spec->phases[t.phase].events[t.event];
}

bool Simulation::advance_pc(Task& t)
{
	const Phase& p = t.spec->phases[t.phase];
	if (++t.event < p.events.size())
		return true;
	t.event = 0;
	if (p.loop == LOOP_FOREVER || ++t.phase_iter < p.loop)
		return true;
	t.phase_iter = 0;
	if (++t.phase < t.spec->phases.size())
		return true;
	if (t.spec->loop == LOOP_FOREVER || ++t.task_iter < t.spec->loop) {
		t.phase = 0;
		return true;
	}
	return false;  // t.phase == phases.size(): the program has ended
}

// A sleep's or timer's hrtimer fires on the CPU the task slept on, and the
// wake-up runs there (this_cpu = that CPU, current = whatever runs on it).
//
// With a profile's timer slack or delivery delay the hrtimer is a range
// timer (hrtimer_set_expires_range_ns()): at its soft expiry it is not yet
// due; it fires at the first interrupt of its CPU inside the slack window
// -- the model takes that CPU's tick -- or else at the hard expiry, when
// the timer interrupt arrives timer_delivery() late. Other interrupts in the
// window (an IPI, another timer) are not looked at (docs/model.md).
// How late a timer interrupt at its hard expiry reaches `cpu`: on a halted
// (idle) vCPU the host must first wake it, on a busy one it is delivered to
// the running guest at once, so the two are separate distributions. Which
// one is decided at the soft expiry, when the model arms the hard one: a
// CPU idle then is taken to be idle at the hard expiry, slack later
// (docs/model.md, "Variability").
u64 Simulation::timer_delivery(u32 cpu)
{
	Rq& rq = rqs_[cpu];
	const Profile& p = cfg_.profile;
	// One distribution for both (a profile measured before they were told
	// apart) draws from one stream, as it did then: the same seed, the
	// same bytes.
	if (rq.idle() || !timer_delay_split_)
		return Rq::draw(p.timer_delay, rq.noise.timer_delay);
	return Rq::draw(p.timer_delay_busy, rq.noise.timer_delay_busy);
}

bool Simulation::timed_wakeup(int task)
{
	Task& t = tasks_[static_cast<size_t>(task)];
	if (t.timer_hard != NEVER) {
		const u64 hard = t.timer_hard;
		const Rq& rq = rqs_[t.timer_cpu];
		t.timer_hard = NEVER;
		u64 at = now_;
		if (tick_running(t.timer_cpu) && rq.next_tick <= hard)
			at = std::max(rq.next_tick, now_);
		else
			at = hard + timer_delivery(t.timer_cpu);
		if (at > now_) {
			t.wake_at = at;
			heap_push(task);
			return false;
		}
	}
	t.wake_at = NEVER;
	if (t.state == TaskState::New) {
		wake_up_new_task(task);
		return false;
	}
	try_to_wake_up(task, IDLE, t.timer_cpu);
	return true;
}

// schbench's fwait(): CAS(word, RUNNING -> BLOCKED) returns at once;
// otherwise FUTEX_WAIT(word, BLOCKED) puts the task to sleep at the tail
// of the word's waiters (the CAS is retried when it is woken).
bool Simulation::futex_wait(u32 cpu, Task& t, int word)
{
	const int self = t.se.id;
	event_cpu_ = cpu;
	if (futex_word_[static_cast<size_t>(word)]) {
		futex_word_[static_cast<size_t>(word)] = 0;
		notify(&Observer::on_futex_wait, now_, self, word, false);
		return false;
	}
	futex_waiters_[static_cast<size_t>(word)].push(tasks_, self);
	notify(&Observer::on_futex_wait, now_, self, word, true);
	block_current(cpu, TaskState::Suspended, word);
	return true;
}

// schbench's fpost(): CAS(word, BLOCKED -> RUNNING); only then
// FUTEX_WAKE(word, 1).
void Simulation::futex_post(u32 cpu, int word)
{
	unsigned char& w = futex_word_[static_cast<size_t>(word)];
	if (w)
		return;
	w = 1;
	event_cpu_ = cpu;
	const SchedEntity* curr = rqs_[cpu].cfs.curr_task();
	notify(&Observer::on_futex_post, now_, curr ? curr->id : IDLE, word);
	futex_wake_one(cpu, word);
}

// FUTEX_WAKE(word, 1) from curr of `cpu`: the longest waiter, if any, is
// woken by try_to_wake_up() without WF_SYNC, from this CPU.
void Simulation::futex_wake_one(u32 cpu, int word)
{
	const int woken = futex_waiters_[static_cast<size_t>(word)].pop(tasks_);
	if (woken >= 0)
		try_to_wake_up(woken, rqs_[cpu].cfs.curr_task() ? rqs_[cpu].cfs.curr_task()->id : IDLE, cpu);
}

// pthread_mutex_lock() of glibc's default (PTHREAD_MUTEX_NORMAL, no PI)
// mutex, lll_lock(): CAS 0 -> 1 takes a free mutex; otherwise
// __lll_lock_wait() swaps in 2 ("locked, maybe waiters") and FUTEX_WAITs
// for as long as the swap finds it held. A woken waiter retries the swap
// when it next runs: the mutex is not handed over, so a thread that takes it
// in the meantime keeps it and the waiter queues again, last. Returns true
// when the task blocked (its counter stays on the lock, to retry).
bool Simulation::mutex_lock(u32 cpu, Task& t, int word)
{
	unsigned char& w = futex_word_[static_cast<size_t>(word)];
	if (w == 0) {
		w = t.lll_waiter ? 2 : 1;
		t.lll_waiter = false;
		return false;
	}
	w = 2;
	t.lll_waiter = true;
	futex_waiters_[static_cast<size_t>(word)].push(tasks_, t.se.id);
	block_current(cpu, TaskState::Suspended, word);
	return true;
}

// pthread_mutex_unlock(), lll_unlock(): swap in 0; only a 2 means there may
// be waiters, and then FUTEX_WAKE wakes one. Like glibc's normal mutex it
// does not check the owner.
void Simulation::mutex_unlock(u32 cpu, int word)
{
	unsigned char& w = futex_word_[static_cast<size_t>(word)];
	const unsigned char old = w;
	w = 0;
	if (old == 2)
		futex_wake_one(cpu, word);
}

// pthread_cond_wait(cond, mutex): the thread becomes a waiter of the
// condition, then unlocks the mutex (which may wake a thread blocked on it
// while this one still runs), then sleeps. Woken, it takes the mutex again
// with lll_cond_lock() (the MutexLock that follows a CondWait), which
// stores 2 because other waiters may have been woken with it. glibc's
// condition variable (since 2.25) wakes waiters that started waiting before
// the signal, in the futex's FIFO order; the model keeps one FIFO per
// condition and no spurious wake-ups.
//
// The unlock and the sleep are two system calls (lll_unlock()'s FUTEX_WAKE,
// then futex_wait on the condition's signal word): a wake-up of the first
// that preempts the thread takes effect on its return to user space, before
// the second. The thread is then preempted still registered as a waiter; it
// goes to sleep when it next runs, unless a signal has taken it off the
// condition meanwhile (its futex_wait then returns at once).
void Simulation::cond_wait(u32 cpu, Task& t, int cond, int mutex)
{
	cond_waiters_[static_cast<size_t>(cond)].push(tasks_, t.se.id);
	mutex_unlock(cpu, mutex);
	t.lll_waiter = true;
	if (rqs_[cpu].cfs.need_resched) {
		t.cond_pending = cond;
		return;
	}
	block_current(cpu, TaskState::Suspended, cond);
}

// A waiter the signal took off the condition: woken, or, if it has not yet
// gone to sleep (cond_pending), left to find the signal when it runs.
void Simulation::cond_wake(u32 cpu, int woken)
{
	Task& w = tasks_[static_cast<size_t>(woken)];
	if (w.cond_pending >= 0) {
		w.cond_pending = -1;
		return;
	}
	try_to_wake_up(woken, rqs_[cpu].cfs.curr_task()->id, cpu);
}

// pthread_cond_signal(): the longest waiter of the condition, if any.
void Simulation::cond_signal(u32 cpu, int cond)
{
	const int woken = cond_waiters_[static_cast<size_t>(cond)].pop(tasks_);
	if (woken >= 0)
		cond_wake(cpu, woken);
}

// pthread_cond_broadcast() (rt-app broad and resume): every waiter, in the
// order they began waiting (futex_wake() builds its wake_q in list order);
// a broadcast with no waiter is lost, as rt-app's resume before a suspend is.
void Simulation::cond_broadcast(u32 cpu, int cond)
{
	WaitQueue q = cond_waiters_[static_cast<size_t>(cond)];
	cond_waiters_[static_cast<size_t>(cond)] = {};
	for (int woken; (woken = q.pop(tasks_)) >= 0;)
		cond_wake(cpu, woken);
}

// rt-app's barrier (rtapp_barrier in rt-app.c), under the barrier's mutex:
// with `waiting` at 0 every other user waits, so this thread, the last,
// broadcasts and goes on; otherwise it counts itself out and waits on the
// condition. A woken waiter, back from pthread_cond_wait(), counts itself in
// again when it next runs, so a fast thread that comes round again before a
// woken one has run finds the count short and waits (or, last, broadcasts)
// as rt-app's threads would. The hand-off of the barrier's own mutex takes
// no time here. Returns true when the task blocked.
bool Simulation::barrier(u32 cpu, Task& t, int ref)
{
	s64& waiting = barrier_waiting_[static_cast<size_t>(ref)];
	if (t.barrier_woken) {
		t.barrier_woken = false;
		waiting += 1;
		return false;
	}
	if (waiting == 0) {
		WaitQueue q = barrier_waiters_[static_cast<size_t>(ref)];
		barrier_waiters_[static_cast<size_t>(ref)] = {};
		for (int woken; (woken = q.pop(tasks_)) >= 0;) {
			tasks_[static_cast<size_t>(woken)].barrier_woken = true;
			try_to_wake_up(woken, t.se.id, cpu);
		}
		return false;
	}
	waiting -= 1;
	barrier_waiters_[static_cast<size_t>(ref)].push(tasks_, t.se.id);
	block_current(cpu, TaskState::Suspended, ref);
	return true;
}

// The hrtimer of a sleep or timer due at `soft`, on the CPU it slept on;
// with a profile's slack or timer delay it is a range timer (timed_wakeup()).
void Simulation::arm_sleep_timer(Task& t, u32 cpu, u64 soft)
{
	t.wake_at = soft;
	t.timer_cpu = cpu;
	if (cfg_.profile.timer_slack || !cfg_.profile.timer_delay.is_zero() || !cfg_.profile.timer_delay_busy.is_zero())
		t.timer_hard = soft + cfg_.profile.timer_slack;
	heap_push(t.se.id);
}

// clock_nanosleep()'s entry on a VM: arming the hrtimer writes the TSC
// deadline MSR, which exits to the host (~3.4 us more than a futex wait's
// entry on this project's VM, docs/profiles.md). The task spends the
// profile's hrtimer_arm_cost of CPU time, then its Sleep or Timer event
// runs; true when that time was started. The draw is the CPU's stream.
// Simplified: the relative sleep's expiry counts from the end of the
// arming, where the kernel's counts from just before it (docs/model.md,
// "Variability").
bool Simulation::start_timer_arm(Task& t, u32 cpu)
{
	const Dist& cost = cfg_.profile.hrtimer_arm_cost;
	if (cost.is_zero())
		return false;
	const u64 ns = cost.sample(rqs_[cpu].noise.hrtimer_arm_cost);
	if (!ns)
		return false;
	t.work_left = ns;
	t.work = Work::TimerArm;
	return true;
}

// A Run of `ns` of CPU time as this machine runs it: times the run's
// multiplier and the burst's own (the profile's run_scale and burst_scale),
// in 128 bits, at least 1 ns and at most 2^62.
u64 Simulation::burst_work(Task& t, u64 ns)
{
	if (ns == RUN_FOREVER || !cfg_.profile.scales_bursts())
		return ns;
	const u64 burst = cfg_.profile.burst_scale.sample(t.burst_rng);
	const u128 w = static_cast<u128>(ns) * run_scale_ppm_ / PPM_ONE * burst / PPM_ONE;
	return w < 1 ? 1 : (w > MAX_TIME_NS ? MAX_TIME_NS : static_cast<u64>(w));
}

// Runs curr's program from its program counter: instantaneous events
// execute now; the first event that takes CPU time, blocks or yields ends
// the step, and so does one after which this CPU must reschedule. An event
// that completes advances the counter.
void Simulation::step_current(u32 cpu)
{
	Rq& rq = rqs_[cpu];
	const int self = rq.cfs.curr_task()->id;
	Task& t = tasks_[static_cast<size_t>(self)];

	if (t.cond_pending >= 0) {  // preempted inside pthread_cond_wait(): its futex_wait now
		const int cond = t.cond_pending;
		t.cond_pending = -1;
		block_current(cpu, TaskState::Suspended, cond);
		return;
	}
	bool armed = false;  // the sleep at the counter has paid its hrtimer arming
	if (t.work != Work::None) {  // the Run, Runtime or system call under way has completed
		const Work done = t.work;
		t.work = Work::None;
		t.work_left = 0;
		armed = done == Work::TimerArm;
		// A Run or Runtime is the event at the counter; a system call's own
		// time came after its event, which already moved the counter on;
		// a timer's arming comes before its event, which is still to run.
		if (done != Work::Syscall && done != Work::TimerArm && !advance_pc(t)) {
			exit_current(cpu);
			return;
		}
	}
	for (;;) {
		if (t.syscall_pending) {  // wake-ups made just before it blocked or was preempted
			t.work_left = t.syscall_pending;
			t.syscall_pending = 0;
			t.work = Work::Syscall;
			return;
		}
		const Event* e = current_event(t);
		if (!e) {
			exit_current(cpu);
			return;
		}
		// Events that end the step leave the counter past themselves, so
		// the task resumes after them when it next runs.
		switch (e->kind) {
		case Event::Kind::Run:
			if (e->ns) {
				t.work_left = burst_work(t, e->ns);
				t.work = Work::Run;
				return;
			}
			break;
		case Event::Kind::Runtime:
			if (e->ns) {
				t.runtime_end = now_ + e->ns;
				t.work = Work::Runtime;
				return;
			}
			break;
		case Event::Kind::Sleep:
			if (e->ns) {
				if (!armed && start_timer_arm(t, cpu))
					return;
				advance_pc(t);  // at the end, the task exits when it wakes
				block_current(cpu, TaskState::Sleeping, -1);
				arm_sleep_timer(t, cpu, now_ + e->ns);
				return;
			}
			break;
		case Event::Kind::Timer: {
			if (!armed && start_timer_arm(t, cpu))
				return;
			// rt-app's relative timer: next += period; when that is already
			// past, the timer restarts from now and the task does not sleep.
			u64& next = timers_[t.timer_base + static_cast<size_t>(e->ref)];
			next = (next == NEVER ? now_ : next) + e->ns;
			if (next > now_) {
				const u64 wake = next;
				advance_pc(t);
				block_current(cpu, TaskState::Sleeping, -1);
				arm_sleep_timer(t, cpu, wake);
				return;
			}
			next = now_;
			break;
		}
		case Event::Kind::Suspend: {
			// rt-app's suspend: a condition wait under a mutex of its own,
			// held for no time (so never contended).
			const int ref = e->ref;
			advance_pc(t);
			cond_waiters_[static_cast<size_t>(ref)].push(tasks_, self);
			block_current(cpu, TaskState::Suspended, ref);
			return;
		}
		case Event::Kind::Resume:
			cond_broadcast(cpu, e->ref);
			break;
		case Event::Kind::MutexLock:
			if (mutex_lock(cpu, t, e->ref))
				return;  // the counter stays: woken, it retries
			break;
		case Event::Kind::MutexUnlock:
			mutex_unlock(cpu, e->ref);
			break;
		case Event::Kind::CondWait: {
			const int cond = e->ref, mutex = e->value;
			advance_pc(t);  // to the re-lock
			cond_wait(cpu, t, cond, mutex);
			return;
		}
		case Event::Kind::CondSignal:
			cond_signal(cpu, e->ref);
			break;
		case Event::Kind::Barrier:
			if (barrier(cpu, t, e->ref))
				return;  // the counter stays: woken, it counts itself back in and goes on
			break;
		case Event::Kind::Yield:
			advance_pc(t);
			do_sched_yield(cpu);
			return;
		case Event::Kind::FutexBlock:
			futex_word_[static_cast<size_t>(e->ref)] = 0;
			notify(&Observer::on_futex_block, now_, t.se.id, e->ref);
			break;
		case Event::Kind::FutexWait:
			if (futex_wait(cpu, t, e->ref))
				return;  // the counter stays: woken, it retries the CAS
			break;
		case Event::Kind::FutexPost:
			futex_post(cpu, e->ref);
			break;
		case Event::Kind::ListPush:
			lists_[static_cast<size_t>(e->ref)].push_back(e->value);
			break;
		case Event::Kind::ListPost: {
			std::vector<int>& list = lists_[static_cast<size_t>(e->ref)];
			for (size_t i = list.size(); i-- > 0;)  // the most recent poster first
				futex_post(cpu, list[i]);
			list.clear();
			break;
		}
		case Event::Kind::SetNice:
			set_user_nice(t, e->value);
			event_cpu_ = cpu;
			notify(&Observer::on_attr, now_, self);
			break;
		case Event::Kind::SetAffinity: {
			const auto& set = wl_.cpu_sets[static_cast<size_t>(e->ref)];
			CpuMask m = set.empty() ? CpuMask::first_n(cfg_.cpus) : CpuMask{};
			for (u32 c : set)
				m.set(c);
			if (sched_setaffinity(cpu, t, m)) {
				// curr was moved off this CPU: it continues there.
				if (!advance_pc(t))
					t.phase = t.spec->phases.size();  // it exits when it next runs
				return;
			}
			break;
		}
		case Event::Kind::SetShares:
			sched_group_set_shares(static_cast<size_t>(e->ref), e->ns, cpu);
			break;
		case Event::Kind::MoveGroup:
			sched_move_task(t, e->ref);
			break;
		case Event::Kind::SetIdle:
			sched_group_set_idle(static_cast<size_t>(e->ref), e->value != 0, cpu);
			break;
		case Event::Kind::Setsid:
			sched_setsid(t);
			break;
		case Event::Kind::SetSlice:
			sched_setattr_runtime(t, e->ns);
			event_cpu_ = cpu;
			notify(&Observer::on_attr, now_, self);
			break;
		}
		const bool more = advance_pc(t);
		// The CPU time of the wake-ups this event made (a profile's
		// futex_wake_cost) runs before the program goes on: before a
		// preemption it asked for, the model runs it when the task is back
		// on a CPU (docs/model.md, "Variability").
		if (t.syscall_pending) {
			t.work_left = t.syscall_pending;
			t.syscall_pending = 0;
			t.work = Work::Syscall;
			return;
		}
		// A wake-up or attribute change that asked this CPU to reschedule
		// preempts the task on return from that call, before its next one
		// (even before its exit: it exits when it next runs).
		if (rq.cfs.need_resched)
			return;
		if (!more) {
			exit_current(cpu);
			return;
		}
	}
}

}  // namespace eevdf
