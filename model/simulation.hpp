// SPDX-License-Identifier: GPL-2.0-only
// A machine of one or more CPUs, each driven by its periodic tick: the parts
// of kernel/sched/core.c that call into the fair class, the wake-up path
// across CPUs and the load balancer around them, and the tasks' programs
// that generate those calls.
//
// The concepts live in their own files, named as the kernel names them:
//   rq.hpp / rq.cpp          one CPU's run queue, tick and hrtick arming
//   core.cpp                 __schedule, sched_tick, resched and IPIs, block and
//                            exit, sched_change, set_user_nice, sched_setattr,
//                            sched_setaffinity, sched_yield, task migration
//   ttwu.cpp                 try_to_wake_up, ttwu_queue and the wakelist,
//                            set_task_cpu, wake_up_new_task
//   hrtick.cpp               hrtick_start_fair, hrtick_update, the 7.x rework
//   select_task_rq_fair.*    CPU selection at wake-up and fork
//   balance*.*               sched_balance_newidle / _domains / _rq, nohz ILB
//                            (balance.cpp lists the parts)
//   topology.*               domains and groups
//   machine.hpp              the CPUs' state select_task_rq_fair and the
//                            balancer see, and the core.c services they call
//   task_program.cpp         the rt-app-like interpreter
//   simulation.cpp           construction and the event loop over all CPUs
//
// What select_task_rq_fair and the balancer see of it is the Machine
// (machine.hpp): the CPUs' state and five core.c services. The Simulation
// is the event loop around that state: it owns it, implements the services
// and adds time, events, timers, futexes, the programs and the observers.
//
// Time is u64 nanoseconds from 0. Everything is decided by the workload, the
// Config and Config::seed; nothing allocates once the Simulation is built.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "model/autogroup.hpp"
#include "model/balance.hpp"
#include "model/config.hpp"
#include "model/event_tree.hpp"
#include "model/fair.hpp"
#include "model/machine.hpp"
#include "model/observer.hpp"
#include "model/rq.hpp"
#include "model/task.hpp"
#include "model/wait_queue.hpp"
#include "model/topology.hpp"
#include "model/workload.hpp"

namespace eevdf {

// What the Simulation constructor checks first: a workload this Config can
// run (refs, loops, nice, affinity within the CPUs, no thread relocking a
// mutex it holds) within the limits of tasks, CPUs, resources and ticks
// (validate_workload.cpp). Throws WorkloadError.
void validate_workload(const Config& cfg, const Workload& wl);

class Simulation final : public Machine {
public:
	using TaskState = eevdf::TaskState;
	using Task = eevdf::Task;

	// Takes the workload by value: move a large one in rather than copy it.
	Simulation(const Config& cfg, Workload wl);
	Simulation(const Simulation&) = delete;
	Simulation& operator=(const Simulation&) = delete;

	void add_observer(Observer* o);  // before run(); not owned

	// Runs until `until` (or the workload's duration, or until every task has
	// exited), or until `max_events` events have been handled since the
	// start (a fuzzer's budget; the run then stops at its last event's
	// instant). May be called repeatedly with increasing limits.
	void run_until(u64 until, u64 max_events = NEVER);
	void run() { run_until(end_time()); }

	u64 end_time() const;
	bool finished() const { return now_ >= end_time() || live_tasks_ == 0; }

	const Workload& workload() const { return wl_; }
	// With Config::autogroup: the sessions' autogroups, made after the
	// workload's cgroups (model/autogroup.hpp); empty without.
	const std::vector<GroupSpec>& autogroups() const { return autogroups_.groups; }
	// The autogroup task i runs in, or nullptr (autogroup off, or the task
	// is in a cpu cgroup).
	const GroupSpec* task_autogroup(size_t i) const
	{
		const int ag = autogroups_.of_task.empty() ? -1 : autogroups_.of_task[i];
		return ag < 0 ? nullptr : &autogroups_.groups[static_cast<size_t>(ag)];
	}
	// The group task i runs in (task_group(p)): its cgroup, its session's
	// autogroup, or "" for the root group.
	const std::string& task_group_path(size_t i) const
	{
		const GroupSpec* ag = task_autogroup(i);
		return ag ? ag->path : wl_.tasks[i].taskgroup;
	}
	// Every WaitQueue of every futex word, condition and barrier (the checker's).
	template <class F>
	void for_each_wait_queue(F&& f) const
	{
		for (const auto* v : {&futex_waiters_, &cond_waiters_, &barrier_waiters_})
			for (const WaitQueue& q : *v)
				f(q);
	}

	// ---- the CPUs (and the Machine's config(), now(), jiffies(), nr_cpus(),
	// rq(), topology(), tasks(), balance_state())
	const CfsRq& cfs_rq(u32 cpu = 0) const { return rqs_[cpu].cfs; }
	int current(u32 cpu = 0) const { return rqs_[cpu].cfs.curr_task() ? rqs_[cpu].cfs.curr_task()->id : IDLE; }
	// The CPU the observer callback in progress is about: where a switch,
	// tick or pick happened, where a task was enqueued, blocked or changed.
	u32 event_cpu() const { return event_cpu_; }
	// The CPU whose code is running: the one handling the current event (a
	// remote enqueue is done by the waker's CPU; a wakelist one by the target).
	u32 context_cpu() const { return context_cpu_; }

	u64 busy_ns() const;  // Σ over CPUs of wall time a task was on the CPU
	u64 idle_ns() const;
	u64 ticks() const;
	u64 events() const { return events_; }
	u64 next_tick_time(u32 cpu = 0) const { return rqs_[cpu].next_tick; }
	bool tick_running(u32 cpu = 0) const;  // false while idle (NO_HZ_IDLE) or NO_HZ_FULL has stopped it
	// The kept next event of every CPU is what recomputing it gives (for the
	// invariant checker; "" when it is, else which CPU is stale).
	std::string stale_next_event() const;

	// Real (not virtual) lag of a queued task on its CPU: w_i (V - v_i) / NICE_0 in ns.
	s64 lag_ns(int task) const;

private:
	// ---- the Machine's services (core.cpp; machine.hpp says what each does)
	void detach_task(Task& p, u32 dst, u32 this_cpu) override;
	void attach_task(Task& p, u32 this_cpu) override;
	void stopper_preempt(u32 cpu) override;
	void resched_curr(u32 cpu, u32 this_cpu) override;
	void send_nohz_kick(u32 cpu, unsigned flags) override;

	// ---- core.c (core.cpp, ttwu.cpp, hrtick.cpp)
	void sched_tick(u32 cpu);
	void hrtick(u32 cpu);
	void schedule(u32 cpu);
	void try_to_wake_up(int task, int waker, u32 this_cpu);
	void charge_ipi_send(int waker, u32 this_cpu, u64 ipis_before);
	bool start_timer_arm(Task& t, u32 cpu);
	bool ttwu_runnable(Task& p, u32 this_cpu, unsigned wake_flags);
	void ttwu_queue(Task& p, u32 cpu, u32 this_cpu, unsigned wake_flags);
	bool ttwu_queue_cond(const Task& p, u32 cpu, u32 this_cpu, bool def = false) const;
	bool ttwu_queue_wakelist(Task& p, u32 cpu, u32 this_cpu, unsigned wake_flags);
	void queue_wakelist(Task& p, u32 cpu);
	bool ttwu_delayed(Task& p, u32 cpu, unsigned wake_flags);
	void ttwu_do_activate(Task& p, u32 cpu, unsigned wake_flags, u32 this_cpu);
	void sched_ttwu_pending(u32 cpu);
	void set_task_rq(Task& p, u32 cpu);
	void set_task_cpu(Task& p, u32 cpu);
	u32 select_task_rq(Task& p, u32 prev_cpu, unsigned& wake_flags, u32 this_cpu);
	void wake_up_new_task(int task);
	void wakeup_preempt(u32 cpu, SchedEntity* pse, unsigned wake_flags, u32 this_cpu);
	void send_ipi(u32 cpu, bool wakelist, bool resched);
	void deliver_ipi(u32 cpu);
	void block_current(u32 cpu, TaskState why, int suspended_on);
	bool barrier(u32 cpu, Task& t, int ref);
	bool futex_wait(u32 cpu, Task& t, int word);  // true: it blocked
	void futex_post(u32 cpu, int word);
	void futex_wake_one(u32 cpu, int word);
	bool mutex_lock(u32 cpu, Task& t, int word);  // true: it blocked
	void mutex_unlock(u32 cpu, int word);
	void cond_wait(u32 cpu, Task& t, int cond, int mutex);
	void cond_signal(u32 cpu, int cond);
	void cond_wake(u32 cpu, int woken);
	void cond_broadcast(u32 cpu, int cond);
	template <class Change>
	void sched_change(SchedEntity* se, unsigned dequeue_flags, Change&& change);
	template <class Op>
	void on_rq_of(u32 cpu, u32 this_cpu, Op&& op);  // below the class: core.cpp and ttwu.cpp use it
	// Every observer's `callback`, in the order they were added, with this
	// Simulation and `args` (callbacks about one CPU: set event_cpu_ first).
	template <class... Params, class... Args>
	void notify(void (Observer::*callback)(const Simulation&, Params...), Args&&... args)
	{
		for (Observer* o : observers_)
			(o->*callback)(*this, std::forward<Args>(args)...);
	}
	void set_user_nice(Task& t, int nice);
	void sched_setattr_runtime(Task& t, u64 runtime);
	void do_sched_yield(u32 cpu);
	bool sched_setaffinity(u32 cpu, Task& t, const CpuMask& mask);  // true: the running task moved
	void hrtick_start_fair(u32 cpu, const SchedEntity* donor);
	void hrtick_update(u32 cpu, const SchedEntity* donor);
	void hrtick_update_enqueued(u32 cpu, const SchedEntity* donor);
	void hrtick_start(u32 cpu, u64 delay);   // 7.x core.c
	void hrtick_cond_restart(u32 cpu, u64 at);
	void hrtick_schedule_exit(u32 cpu, bool idle);
	void enqueue_task(Task& p, unsigned flags);
	bool dequeue_task(Task& p, unsigned flags);
	void account_idle_enter(Rq& rq);
	void account_idle_exit(Rq& rq);
	void update_rq_avg_idle(Rq& rq);

	// ---- the tasks' programs (task_program.cpp)
	void step_current(u32 cpu);  // run curr's program until it blocks, yields or computes
	const Event* current_event(Task& t) const;
	bool advance_pc(Task& t);  // false when the program has ended
	// A timer due now: fire it (true when it woke a sleeping task) or re-arm it.
	bool timed_wakeup(int task);
	u64 timer_delivery(u32 cpu);
	void arm_sleep_timer(Task& t, u32 cpu, u64 soft);
	u64 burst_work(Task& t, u64 ns);
	void exit_current(u32 cpu);

	// ---- time (simulation.cpp)
	void advance_to(u64 t);
	enum class EventSource { Completion, Hrtick, Tick, Ipi, Wakeup, Resched };
	EventSource next_event(u64& t, u32& cpu) const;
	// Each CPU's earliest event, kept: an event recomputes it only for the
	// CPUs it touched (its own, any whose rq it locked, sent an IPI or
	// re-armed a timer of), and the earliest of them is kept in a tournament
	// tree (event_tree.hpp), so finding the next event costs O(log N) per
	// touched CPU, not N recomputations or an N-key scan. The invariant
	// checker compares the kept keys with a full recomputation after every
	// event (next_events_current()).
	struct CpuEvent {
		u64 t = NEVER;
		EventSource src = EventSource::Wakeup;
	};
	CpuEvent cpu_next_event(u32 cpu) const;
	void set_cpu_event(u32 cpu);  // recompute and keep CPU cpu's earliest event
	void touch(u32 cpu)
	{
		if (!is_touched_[cpu]) {
			is_touched_[cpu] = 1;
			touched_.push_back(cpu);
		}
	}
	void refresh_touched();
	u64 curr_completion_time(const Rq& rq) const;
	void set_clock(Rq& rq)
	{
		rq.cfs.clock_task = now_;
		touch(rq.cpu);
	}
	void after_event(u64 t, u32 cpu, bool resched_deferred = false);
	bool defer_timer_resched(u32 cpu);
	void update_jiffies();

	// ---- timed wakeups: a fixed-capacity binary heap keyed (time, task).
	// Each entry carries its key, so sifting reads the heap's own
	// contiguous memory, not the tasks (a million sleepers' keys would
	// otherwise be a cache miss per comparison). Only the earliest is ever
	// taken out.
	struct TimedWakeup {
		u64 at;
		int task;
		bool operator<(const TimedWakeup& o) const { return at != o.at ? at < o.at : task < o.task; }
	};
	void heap_push(int task);  // at tasks_[task].wake_at
	void create_groups();
	void sched_group_set_shares(size_t group, u64 shares, u32 this_cpu);
	void __sched_group_set_shares(size_t group, u64 shares, u32 this_cpu);
	void sched_group_set_idle(size_t group, bool idle, u32 this_cpu);
	void sched_move_task(Task& t, int group);
	void sched_setsid(Task& t);
	TaskGroup& group_by_path(const std::string& path);
	int heap_pop();            // the earliest; the heap is not empty

	// The Machine holds cfg_, topo_, rqs_, tasks_, balance_, now_, jiffies_.
	Workload wl_;
	Autogroups autogroups_;  // with Config::autogroup only
	// The profile tells busy and idle CPUs' timer delays apart (decided once:
	// comparing two empirical distributions is no per-timer work).
	bool timer_delay_split_ = false;
	std::vector<u64> timers_;       // per task x ref: next absolute expiry (0 = unused)
	// Futex words by ref: schbench's (Event::Kind::Futex*, List*) and
	// mutexes' (0 free, 1 locked, 2 locked and maybe waited for); their
	// waiters; each list's words, most recent last (capacity reserved up
	// front). The waiters of each condition variable (rt-app suspend and
	// wait) and of each barrier's condition.
	std::vector<unsigned char> futex_word_;
	std::vector<WaitQueue> futex_waiters_;
	std::vector<WaitQueue> cond_waiters_;
	std::vector<WaitQueue> barrier_waiters_;
	std::vector<std::vector<int>> lists_;
	// rt-app's barrier counter by ref: the users less one at the start
	// (init_barrier_resource() starts at -1, parsing adds each thread), one
	// less for each thread waiting.
	std::vector<s64> barrier_waiting_;
	std::vector<TimedWakeup> heap_;
	std::vector<Observer*> observers_;
	EventTree cpu_events_;
	std::vector<u32> touched_;  // capacity nr_cpus
	std::vector<unsigned char> is_touched_;

	u64 next_jiffy_at_ = 0;  // now_ at which jiffies_ next changes
	u64 events_ = 0;
	u64 run_scale_ppm_ = PPM_ONE;  // the profile's run_scale, drawn once
	int live_tasks_ = 0;
	u32 event_cpu_ = 0;
	u32 context_cpu_ = 0;
	u64 ipis_sent_ = 0;  // IPIs sent (not merged into one in flight): ttwu's send cost
};

// An operation run on this_cpu against cpu's rq under its lock (a remote
// enqueue, a balancer's detach or attach). Whatever resched it leaves there
// -- update_curr() ending curr's slice, the wake-up preemption check -- is
// resched_curr() in the kernel, which reaches a remote CPU by IPI. CfsRq
// only sets the flag; this sends the IPI.
//
// The fair class asks with resched_curr_lazy() (CfsRq::resched_lazy): with
// PREEMPT_LAZY a CPU running a task gets TIF_NEED_RESCHED_LAZY and no IPI,
// and acts on it at its next interrupt (its tick at the latest); the idle
// task is always preempted at once. A full request is sent by IPI, also on
// top of a lazy one.
template <class Op>
inline void Simulation::on_rq_of(u32 cpu, u32 this_cpu, Op&& op)
{
	Rq& rq = rqs_[cpu];
	const bool had = rq.cfs.test_tsk_need_resched();
	op();
	if (cpu == this_cpu || had || !rq.cfs.test_tsk_need_resched())
		return;
	send_ipi(cpu, false, true);
}

}  // namespace eevdf
