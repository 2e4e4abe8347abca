// SPDX-License-Identifier: GPL-2.0-only
// One CPU driven by a periodic tick: the parts of kernel/sched/core.c that
// call into the fair class (sched_tick, __schedule, try_to_wake_up,
// wake_up_new_task, set_user_nice, sched_setattr, sched_yield), and the
// tasks' programs that generate those calls.
//
// Time is u64 nanoseconds from 0. Everything is decided by the workload, the
// Config and Config::seed; nothing allocates once the Simulation is built.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "model/config.hpp"
#include "model/fair.hpp"
#include "model/observer.hpp"
#include "model/workload.hpp"

namespace eevdf {

// A workload the model cannot run (e.g. a loop that never lets time pass).
struct WorkloadError : std::invalid_argument {
	using std::invalid_argument::invalid_argument;
};

class Simulation {
public:
	enum class TaskState { New, Runnable, Sleeping, Suspended, Exited };

	struct Task {
		const TaskSpec* spec = nullptr;
		SchedEntity se;
		TaskState state = TaskState::New;
		int nice = 0;

		// program counter: task loop, phase, phase loop, event
		s64 task_iter = 0;
		size_t phase = 0;
		s64 phase_iter = 0;
		size_t event = 0;

		bool in_progress = false;  // the Run or Runtime at the program counter is under way
		u64 work_left = 0;     // CPU ns left in the current Run (RUN_FOREVER for a hog)
		u64 runtime_end = 0;   // wall time at which the current Runtime ends
		bool in_runtime = false;
		u64 wake_at = ~0ULL;   // pending timed wakeup (sleep, timer, fork)
		int suspended_on = -1; // ref it is suspended on
		size_t timer_base = 0; // index of its first timer slot in Simulation::timers_
	};

	Simulation(const Config& cfg, const Workload& wl);
	Simulation(const Simulation&) = delete;
	Simulation& operator=(const Simulation&) = delete;

	void add_observer(Observer* o);  // before run(); not owned

	// Runs until `until` (or the workload's duration, or until every task has
	// exited). May be called repeatedly with increasing limits.
	void run_until(u64 until);
	void run() { run_until(end_time()); }

	u64 end_time() const;
	u64 now() const { return now_; }
	bool finished() const { return now_ >= end_time() || live_tasks_ == 0; }

	const Config& config() const { return cfg_; }
	const Workload& workload() const { return wl_; }
	const CfsRq& cfs_rq() const { return cfs_; }
	const std::vector<Task>& tasks() const { return tasks_; }
	int current() const { return cfs_.curr ? cfs_.curr->id : IDLE; }

	u64 busy_ns() const { return busy_ns_; }  // wall time a task was on the CPU
	u64 idle_ns() const { return idle_ns_; }
	u64 ticks() const { return ticks_; }
	u64 events() const { return events_; }
	u64 next_tick_time() const { return next_tick_; }
	bool tick_running() const;  // false while NO_HZ_FULL has stopped it

	// Real (not virtual) lag of a queued task: w_i (V - v_i) / NICE_0 in ns.
	s64 lag_ns(int task) const;

private:
	// ---- core.c
	void sched_tick();
	void hrtick();
	void schedule();
	void try_to_wake_up(int task, int waker);
	void wake_up_new_task(int task);
	void wakeup_preempt(SchedEntity* pse, unsigned wake_flags);
	void block_current(TaskState why, int suspended_on);
	template <class Change>
	void sched_change(SchedEntity* se, unsigned dequeue_flags, Change&& change);
	void set_user_nice(Task& t, int nice);
	void sched_setattr_runtime(Task& t, u64 runtime);
	void do_sched_yield();
	void hrtick_start_fair();
	void hrtick_update();

	// ---- the tasks' programs
	void step_current();  // run curr's program until it blocks, yields or computes
	const Event* current_event(Task& t) const;
	bool advance_pc(Task& t);  // false when the program has ended
	void timed_wakeup(int task);
	void exit_current();

	// ---- time
	void advance_to(u64 t);
	enum class EventSource { Completion, Hrtick, Tick, Wakeup };
	EventSource next_event(u64& t) const;
	u64 curr_completion_time() const;
	void set_clock(u64 t) { cfs_.clock_task = t; }
	u64 grid_tick_after(u64 t) const;  // first grid point strictly after t
	void arm_next_tick(u64 after);
	u64 prng_next();
	void after_event(u64 t);

	// ---- timed wakeups: a fixed-capacity binary heap keyed (time, task)
	void heap_push(int task);
	void heap_remove(int task);
	void heap_sift_up(size_t i);
	void heap_sift_down(size_t i);
	bool heap_less(int a, int b) const;

	Config cfg_;
	Workload wl_;
	CfsRq cfs_;
	std::vector<Task> tasks_;
	std::vector<u64> timers_;       // per task x ref: next absolute expiry (0 = unused)
	std::vector<int> heap_;         // task ids
	std::vector<size_t> heap_pos_;  // position in heap_, or npos
	std::vector<Observer*> observers_;

	u64 now_ = 0;
	u64 next_tick_ = 0;       // next tick's firing time (grid point minus jitter)
	u64 next_tick_grid_ = 0;  // the grid point it belongs to
	u64 last_tick_grid_ = 0;  // the grid point of the last tick delivered
	bool tick_was_running_ = false;
	u64 hrtick_at_ = ~0ULL;
	u64 useful_start_ = 0;    // when curr starts running its own code (after the switch cost)
	u64 busy_ns_ = 0, idle_ns_ = 0, ticks_ = 0, events_ = 0;
	int live_tasks_ = 0;
	u64 prng_state_;
};

}  // namespace eevdf
