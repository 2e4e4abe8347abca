// SPDX-License-Identifier: GPL-2.0-only
// struct task_struct, the parts a fair-class model needs: the entity, the
// CPU it belongs to and may run on, the wake-up statistics CPU selection
// reads, and the program (an rt-app task) that decides what it does next.
#pragma once

#include "model/cpumask.hpp"
#include "model/dist.hpp"
#include "model/sched_entity.hpp"
#include "model/workload.hpp"

namespace eevdf {

enum class TaskState { New, Runnable, Sleeping, Suspended, Exited };

// What the task's CPU time goes to while it is on a CPU: nothing pending
// (its program runs on at the next event), the Run (CPU time, work_left)
// or Runtime (wall time, runtime_end) at its program counter, or a system
// call's own CPU time (work_left) after which the program goes on from
// where it is (its counter already past the call), or a sleep's hrtimer
// arming (work_left, the profile's hrtimer_arm_cost) before the Sleep or
// Timer at its counter runs and the task blocks.
enum class Work : unsigned char { None, Run, Runtime, Syscall, TimerArm };

inline constexpr int NO_CPU = -1;

// Fields are ordered by size so that a million tasks carry no padding
// (docs/performance.md, "Scale").
struct Task {
	const TaskSpec* spec = nullptr;
	SchedEntity se;
	TaskState state = TaskState::New;
	int nice = 0;

	// ---- program counter: task loop, phase, phase loop, event
	s64 task_iter = 0;
	size_t phase = 0;
	s64 phase_iter = 0;
	size_t event = 0;

	u64 work_left = 0;     // CPU ns left in the current Run or system call (RUN_FOREVER for a hog)
	u64 syscall_pending = 0;  // CPU ns of wake-ups it made, to run before its program goes on
	u64 runtime_end = 0;   // wall time at which the current Runtime ends
	u64 wake_at = ~0ULL;   // pending timed wakeup (sleep, timer, fork)
	u64 timer_hard = ~0ULL;  // a range timer's hard expiry while wake_at is its soft one (timed_wakeup())
	size_t timer_base = 0; // index of its first timer slot in Simulation::timers_
	int suspended_on = -1; // ref it is suspended on
	int wait_next = -1;    // the next waiter in the same WaitQueue (wait_queue.hpp)

	// ---- SMP (task_struct fields of the same names)
	CpuMask cpus_ptr;         // affinity
	u32 cpu = 0;              // task_cpu(p): the rq it is (or was last) queued on
	u32 nr_cpus_allowed = 1;
	int recent_used_cpu = NO_CPU;
	int wake_cpu = NO_CPU;
	int last_wakee = -1;      // task id of the last task this one woke
	u32 wakee_flips = 0;
	u64 wakee_flip_decay_ts = 0;  // jiffies
	u64 nr_migrations = 0;    // se.nr_migrations
	u32 timer_cpu = 0;        // where its sleep's hrtimer fires: the CPU it slept on

	Work work = Work::None;    // what its CPU time goes to (work_left or runtime_end)
	bool barrier_woken = false;  // woken by a barrier's broadcast: it counts itself back in when it runs
	bool lll_waiter = false;     // its next mutex lock stores 2, as __lll_lock_wait()'s swap and
	                             // lll_cond_lock() do: it was woken from a mutex or condition wait
	bool sched_remote_wakeup = false;  // queued on a wakelist after a migration (WF_MIGRATED)
	bool sched_remote_delayed = false; // on a wakelist as a delayed task's wake-up (WF_DELAYED; experimental)
	bool on_rq_migrating = false;      // task_on_rq_migrating(): between deactivate and activate of a move
	bool waiting = false;     // runnable but not running (for run_delay)
	// pthread_cond_wait() between its mutex unlock and its futex_wait: the
	// condition it waits on, while the unlock's wake-up has it preempted
	// (-1 otherwise, and once a signal took it off the condition).
	int cond_pending = -1;

	// The task's own streams of its profile's draws (model/profile.hpp):
	// its bursts' multipliers and its wake-ups' CPU time.
	Rng burst_rng;
	Rng wake_cost_rng;

	// schedstats-like counters
	u64 wakeups = 0, wakeups_local = 0, wakeups_remote = 0, wakeups_affine = 0, wakeups_migrate = 0;
	u64 run_delay = 0;        // time runnable but not running
	u64 last_queued = 0;      // when it last became runnable-but-waiting (for run_delay)
};

}  // namespace eevdf
