// SPDX-License-Identifier: GPL-2.0-only
// One scheduler tracepoint as a kernel trace records it: the context every
// line carries (timestamp, CPU, the task that was running when it fired)
// and the fields of the sched_* events include/trace/events/sched.h defines
// (v6.18). Comms are at most TASK_COMM_LEN - 1 = 15 characters, which
// std::string holds without allocating.
#pragma once

#include <string>

#include "model/types.hpp"

namespace eevdf::trace {

enum class EventKind : unsigned char {
	Switch,     // sched_switch: prev -> next on `cpu`
	Waking,     // sched_waking: try_to_wake_up() began (on the waker's CPU)
	Wakeup,     // sched_wakeup: the task is runnable on `target_cpu`
	WakeupNew,  // sched_wakeup_new: a forked task is runnable on `target_cpu`
	Migrate,    // sched_migrate_task: set_task_cpu() from orig_cpu to dest_cpu
	Fork,       // sched_process_fork: pid forked child_pid
	Exit,       // sched_process_exit
	Lost,       // a "[LOST n EVENTS]" marker: events of `cpu` are missing here
};

struct Event {
	u64 ts = 0;      // ns since the trace clock's origin
	u32 cpu = 0;     // the CPU whose buffer holds the line
	EventKind kind = EventKind::Switch;
	int context_pid = 0;  // the line's TASK-PID: what `cpu` ran when it fired
	std::string context_comm;  // its comm as the trace prints it ("<...>" when unknown, "<idle>")
	// The latency format's hardirq/softirq column: 'h', 's', 'H', 'z' or
	// 'Z' when the event fired in interrupt context (then the context task
	// did not cause it), '.' in task context or when the trace has no
	// flags column (perf script, trace-cmd report without -l).
	char irq = '.';

	// sched_switch
	std::string prev_comm, next_comm;
	int prev_pid = 0, next_pid = 0, prev_prio = 0, next_prio = 0;
	char prev_state = 'R';     // the first TASK_REPORT letter: R S D T t X Z P I
	bool prev_preempt = false; // "+": switched out by preemption (TASK_REPORT_MAX)

	// the others: the task they are about
	std::string comm;
	int pid = 0, prio = 0;
	u32 target_cpu = 0;         // waking/wakeup/wakeup_new
	u32 orig_cpu = 0, dest_cpu = 0;  // migrate
	int child_pid = 0;          // fork
	std::string child_comm;
	u64 lost = 0;               // Lost: how many (0: unknown)
};

// A task runs its own code after a switch to it; pid 0 is the idle task.
inline bool is_idle(int pid) { return pid == 0; }
inline bool in_irq(const Event& e) { return e.irq != '.'; }

}  // namespace eevdf::trace
