// SPDX-License-Identifier: GPL-2.0-only
// What a replay measures on the simulator (obligation.hpp's Replay::confirms
// reads it): run lengths, wakeup waits, PREEMPT_SHORT wakeups that did not
// preempt, and re-picks after a renewal.
#pragma once

#include <algorithm>
#include <vector>

#include "model/simulation.hpp"

namespace eevdf::proofs {

// Run lengths (switch to switch) and same-task re-picks after a renewal.
struct RunObserver : Observer {
	std::vector<u64> max_run, runs;
	int running = -1;
	u64 since = 0;
	u64 repicks = 0;     // a tick renewed curr's deadline, another queued task had v <= v_curr, curr kept the CPU
	u64 pending_d = 0;
	int pending = -1;
	bool pending_other_behind = false;

	void ensure(const Simulation& s)
	{
		if (max_run.size() < s.tasks().size())
			max_run.resize(s.tasks().size(), 0), runs.resize(s.tasks().size(), 0);
	}
	// wakeup latency: from a wakeup while another task runs to the task's first run
	std::vector<u64> woke, max_wait;
	std::vector<u64> waits_not_preempted;  // O7: wakeups meeting the PREEMPT_SHORT condition that did not preempt
	std::vector<bool> pending_short;
	u64 ticks = 0, first_wakeup_ticks = ~0ULL;  // ticks before the first wakeup of a second task
	void ensure_w(const Simulation& s)
	{
		if (woke.size() < s.tasks().size()) {
			woke.resize(s.tasks().size(), ~0ULL);
			max_wait.resize(s.tasks().size(), 0);
			waits_not_preempted.resize(s.tasks().size(), 0);
			pending_short.resize(s.tasks().size(), false);
		}
	}
	void on_wakeup(const Simulation& s, u64 t, int task, int, bool) override
	{
		ensure_w(s);
		if (first_wakeup_ticks == ~0ULL && s.cfs_rq().curr && s.cfs_rq().curr->id != task)
			first_wakeup_ticks = ticks;
		const SchedEntity* c = s.cfs_rq().curr;
		if (!c || c->id == task)
			return;
		woke[static_cast<size_t>(task)] = t;
		// the PREEMPT_SHORT condition (at the enqueue): shorter slice, eligible, earliest deadline
		const SchedEntity& p = s.tasks()[static_cast<size_t>(task)].se;
		bool cond = p.slice < c->slice && s.cfs_rq().entity_eligible(&p) && wrapped_diff(c->deadline, p.deadline) >= 0;
		for (const auto& o : s.tasks())
			if (&o.se != &p && &o.se != c && o.se.on_rq && wrapped_diff(o.se.deadline, p.deadline) <= 0)
				cond = false;
		pending_short[static_cast<size_t>(task)] = cond;
	}
	void on_switch(const Simulation& s, u64 t, int prev, int next, bool, u64) override
	{
		ensure(s);
		ensure_w(s);
		if (next >= 0 && woke[static_cast<size_t>(next)] != ~0ULL) {
			max_wait[static_cast<size_t>(next)] = std::max(max_wait[static_cast<size_t>(next)], t - woke[static_cast<size_t>(next)]);
			woke[static_cast<size_t>(next)] = ~0ULL;
		}
		if (prev >= 0 && prev == running) {
			max_run[static_cast<size_t>(prev)] = std::max(max_run[static_cast<size_t>(prev)], t - since);
			runs[static_cast<size_t>(prev)]++;
		}
		running = next;
		since = t;
		pending = -1;
	}
	void on_tick(const Simulation& s, u64, bool) override
	{
		ticks++;
		// called after entity_tick, before the scheduling point
		pending = -1;
		if (!s.cfs_rq().curr || !s.cfs_rq().need_resched)
			return;
		const SchedEntity* c = s.cfs_rq().curr;
		bool behind = false;
		for (const auto& t : s.tasks())
			if (&t.se != c && t.se.on_rq && wrapped_diff(t.se.vruntime, c->vruntime) <= 0)
				behind = true;
		pending = c->id;
		pending_d = c->deadline;
		pending_other_behind = behind;
	}
	void on_event(const Simulation& s, u64) override
	{
		ensure_w(s);
		for (size_t i = 0; i < pending_short.size(); i++)
			if (pending_short[i]) {
				if (s.current() != static_cast<int>(i))
					waits_not_preempted[i]++;
				pending_short[i] = false;
			}
		if (pending >= 0 && s.current() == pending && pending_other_behind)
			repicks++;
		pending = -1;
	}
};

}  // namespace eevdf::proofs
