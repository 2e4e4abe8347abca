// SPDX-License-Identifier: GPL-2.0-only
// Autogroup (kernel/sched/autogroup.c autogroup_create(),
// proc_sched_autogroup_set_nice(), autogroup_task_group()).
#include "model/autogroup.hpp"

#include <algorithm>
#include <numeric>

#include "model/weights.hpp"

namespace eevdf {

std::string autogroup_path(u64 id) { return "/autogroup-" + std::to_string(id); }

u64 autogroup_shares(int nice) { return scale_load(nice_to_weight(nice)); }

namespace {

bool has_setsid_event(const TaskSpec& t)
{
	for (const Phase& p : t.phases)
		for (const Event& e : p.events)
			if (e.kind == Event::Kind::Setsid)
				return true;
	return false;
}

}  // namespace

Autogroups autogroup_sessions(const Workload& wl)
{
	Autogroups a;
	a.of_task.assign(wl.tasks.size(), -1);
	a.session_of_task.assign(wl.tasks.size(), 0);
	a.setsid_group.assign(wl.tasks.size(), -1);
	a.groups.push_back(
		GroupSpec{autogroup_path(WORKLOAD_SESSION_AUTOGROUP), NICE_0_LOAD, WORKLOAD_SESSION_AUTOGROUP});
	// setsid() runs when the task first runs: the tasks are created by
	// delay, ties in the workload's order (a stable sort).
	std::vector<size_t> order(wl.tasks.size());
	std::iota(order.begin(), order.end(), size_t{0});
	std::stable_sort(order.begin(), order.end(),
			 [&](size_t x, size_t y) { return wl.tasks[x].delay < wl.tasks[y].delay; });
	for (size_t i : order) {
		const TaskSpec& t = wl.tasks[i];
		int session = 0;
		if (t.setsid) {
			// autogroup_create(): ag->id = ++autogroup_seq_nr, shares
			// NICE_0_LOAD until the nice is written.
			const u64 id = a.groups.size() + 1;
			a.groups.push_back(GroupSpec{autogroup_path(id), autogroup_shares(t.autogroup_nice), id});
			session = static_cast<int>(a.groups.size() - 1);
		}
		// autogroup_task_group(): only a task of the root cpu cgroup.
		a.session_of_task[i] = session;
		if (t.taskgroup.empty())
			a.of_task[i] = session;
	}
	// A phase's setsid() of a task that does not lead a session yet.
	for (size_t i = 0; i < wl.tasks.size(); i++) {
		const TaskSpec& t = wl.tasks[i];
		if (t.setsid || !has_setsid_event(t))
			continue;
		const u64 id = a.groups.size() + 1;
		a.groups.push_back(GroupSpec{autogroup_path(id), NICE_0_LOAD, id});
		a.setsid_group[i] = static_cast<int>(a.groups.size() - 1);
	}
	return a;
}

}  // namespace eevdf
