// SPDX-License-Identifier: GPL-2.0-only
// Autogroup (CONFIG_SCHED_AUTOGROUP, kernel/sched/autogroup.[ch]): with
// sysctl_sched_autogroup_enabled, each session (setsid()) has a task group
// of its own, "/autogroup-<id>", a child of the root. A task whose cpu cgroup
// is the root runs in its session's group (autogroup_task_group(), applied at
// fork by sched_cgroup_fork()); a task in any other cpu cgroup ignores it.
//
// In the model (--autogroup on, Config::autogroup) the workload is started in
// one session, as rt-app's threads are one process in its shell's session:
// that session's autogroup has id 1. A task with "setsid" is a process of
// its own that called setsid() before its first phase: it leads a new
// session whose autogroup takes the next id (autogroup_seq_nr), in the order
// the tasks are created (delay, then the workload's order). The task is
// created in that group (the kernel forks it into its parent's and moves it
// at setsid(), sched_move_task(): not modelled). A task that is not a
// session leader yet may call setsid() in a phase (Event::Kind::Setsid):
// its first call leads a new session, whose group is made with the others
// and numbered after every task-level session, in the workload's order
// (the kernel numbers it when the call runs: the ids may differ, the
// groups do not); later calls fail (EPERM: it leads a session already)
// and change nothing. The session's nice
// (/proc/PID/autogroup, proc_sched_autogroup_set_nice()) sets the group's
// shares as a task's nice sets its weight.
#pragma once

#include <string>
#include <vector>

#include "model/workload.hpp"

namespace eevdf {

// ag->id of the session the workload is started in.
inline constexpr u64 WORKLOAD_SESSION_AUTOGROUP = 1;

// autogroup_path(): "/autogroup-<id>".
std::string autogroup_path(u64 id);

// proc_sched_autogroup_set_nice(): scale_load(sched_prio_to_weight[nice + 20]).
u64 autogroup_shares(int nice);

// The autogroups of a workload's sessions and the one each task runs in.
struct Autogroups {
	std::vector<GroupSpec> groups;  // by id: groups[i].autogroup_id == i + 1
	std::vector<int> of_task;  // index into groups; -1: the task names a cpu cgroup
	std::vector<int> session_of_task;  // index into groups: the session each task starts in
	std::vector<int> setsid_group;  // index into groups: a phase's setsid() leads this session; -1: none
};

// The sessions as autogroup_create() would number them (see above). Every
// session's group exists, with tasks in it or not (a setsid task in a cpu
// cgroup still creates one).
Autogroups autogroup_sessions(const Workload& wl);

}  // namespace eevdf
