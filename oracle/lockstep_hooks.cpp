// SPDX-License-Identifier: GPL-2.0-only
// The Observer hooks: each applies the model's stimulus (a wake-up or fork,
// a block or exit, a nice or slice change, a yield, a tick, a schedule, the
// end of an event) to the oracle's state by the kernel's rule for it.
#include "oracle/internal.hpp"

namespace eevdf::oracle {

const Event* DecisionOracle::attr_event(const Simulation& sim, int task) const
{
	const Simulation::Task& t = sim.tasks()[static_cast<size_t>(task)];
	if (!t.spec || t.phase >= t.spec->phases.size() || t.event >= t.spec->phases[t.phase].events.size())
		return nullptr;
	const Event& e = t.spec->phases[t.phase].events[t.event];
	if (e.kind != Event::Kind::SetNice && e.kind != Event::Kind::SetSlice)
		return nullptr;
	return &e;
}

void DecisionOracle::on_wakeup(const Simulation& sim, u64 t, int task, int waker, bool new_task)
{
	const bool program = waker != IDLE && waker == running_;
	if (!begin(sim, t,
		   (new_task ? "fork of task " : "wakeup of task ") + std::to_string(task) +
			   (waker != IDLE ? " (waker " + std::to_string(waker) + ")" : ""),
		   program, Hook::Wakeup))
		return;
	if (new_task) {
		fork_task(sim, task);
	} else {
		Ent& e = ents_[static_cast<size_t>(task)];
		if (e.delayed) {
			requeue_delayed_entity(e);  // ttwu_runnable(): ENQUEUE_DELAYED, no hrtick_update
			pending_ = {task, WF_TTWU_, false, stimulus_};
		} else if (!e.on_rq) {
			enqueue_task_fair(task, EN_WAKEUP);
			pending_ = {task, WF_TTWU_, true, stimulus_};
		} else {
			disagree(sim, "wakeup:protocol", "state of task " + std::to_string(task), "queued and not delayed",
				 "woken");
		}
	}
	end(sim, false);
}

void DecisionOracle::on_block(const Simulation& sim, u64 t, int task, bool delayed, bool exited)
{
	if (!begin(sim, t, std::string(exited ? "exit of task " : "block of task ") + std::to_string(task), true, Hook::Block))
		return;
	if (task != running_ || task == IDLE) {
		disagree(sim, "block:protocol", "blocking task", who(running_), who(task));
		end(sim, false);
		return;
	}
	// __schedule() cancels the hrtick before try_to_block_task() dequeues.
	hrtick_clear();
	hrtick_cleared_by_block_ = true;
	schedule_requested_ = true;
	Ent& e = ents_[static_cast<size_t>(task)];
	const bool dequeued = dequeue_entities(task, DQ_SLEEP | (exited ? DQ_SPECIAL : 0)) >= 0;
	if (dequeued)
		hrtick_update();
	if (exited)
		e.exited = true;
	if (delayed != !dequeued)
		disagree(sim, "block:delayed", "delayed (DELAY_DEQUEUE) of task " + std::to_string(task),
			 num(!dequeued), num(delayed));
	end(sim, false);
}

void DecisionOracle::on_reweight(const Simulation& sim, u64 t, int task, s64 vlag, u64 old_weight)
{
	const Event* ev = attr_event(sim, task);
	if (!begin(sim, t, "set_user_nice of task " + std::to_string(task) + (ev ? " to " + std::to_string(ev->value) : ""),
		   true, Hook::Reweight))
		return;
	if (!ev || ev->kind != Event::Kind::SetNice || task != running_) {
		disagree(sim, "nice:protocol", "on_reweight", "set_user_nice() by the running task", "something else");
		return;
	}
	set_user_nice(ents_[static_cast<size_t>(task)], ev->value, &vlag);
	nice_done_at_reweight_ = task;
	if (vlag != saved_vlag_)
		disagree(sim, "nice:saved_vlag", "vlag saved at the dequeue of task " + std::to_string(task),
			 snum(saved_vlag_), snum(vlag));
	if (old_weight != saved_old_weight_)
		disagree(sim, "nice:old_weight", "old weight of task " + std::to_string(task), num(saved_old_weight_),
			 num(old_weight));
}

void DecisionOracle::on_attr(const Simulation& sim, u64 t, int task)
{
	const Event* ev = attr_event(sim, task);
	const bool nice = ev && ev->kind == Event::Kind::SetNice;
	const std::string what = !ev ? "attribute change of task " + std::to_string(task)
				 : nice ? "set_user_nice of task " + std::to_string(task) + " to " + std::to_string(ev->value)
					: "sched_setattr of task " + std::to_string(task) + " runtime " + std::to_string(ev->ns);
	const bool done = nice_done_at_reweight_ == task;
	nice_done_at_reweight_ = IDLE;
	if (!begin(sim, t, what, !done, Hook::Attr))
		return;
	if (!ev || task != running_) {
		disagree(sim, "attr:protocol", "on_attr", "SetNice/SetSlice by the running task", "unknown");
		end(sim, false);
		return;
	}
	Ent& e = ents_[static_cast<size_t>(task)];
	if (nice) {
		const int before = 120 + e.nice;
		if (!done)
			set_user_nice(e, ev->value, nullptr);
		const int old_prio = done ? saved_old_prio_ : before;
		if (old_prio != 120 + e.nice)
			prio_changed_fair(sim, e, old_prio);
	} else {
		// From 6.18.17 set_next_entity(first = false) leaves the vlag word
		// alone, so the model's still holds the lag saved at the dequeue.
		const s64 saved = sim.tasks()[static_cast<size_t>(task)].se.vlag;
		sched_setattr_runtime(e, ev->ns, rules_->protect_first_only ? &saved : nullptr);
	}
	end(sim, true);
}

void DecisionOracle::on_yield(const Simulation& sim, u64 t, int task)
{
	if (!begin(sim, t, "yield of task " + std::to_string(task), true, Hook::Yield))
		return;
	if (task != running_ || task == IDLE) {
		disagree(sim, "yield:protocol", "yielding task", who(running_), who(task));
		end(sim, false);
		return;
	}
	yield_task_fair();
	schedule_requested_ = true;
	end(sim, false);
}

void DecisionOracle::on_tick(const Simulation& sim, u64 t, bool hrtick)
{
	if (!begin(sim, t, hrtick ? "hrtick" : "tick", false, Hook::Tick))
		return;
	if (hrtick) {
		if (hrtick_at_ != t)
			disagree(sim, "hrtick:time", "hrtick expiry",
				 hrtick_at_ == NONE ? std::string("none armed") : num(hrtick_at_), num(t));
		hrtick_at_ = NONE;
		if (running_ != IDLE)
			task_tick_fair(true);
	} else {
		if (running_ == IDLE)
			disagree(sim, "tick:while-stopped", "periodic tick", "none while idle (NO_HZ)", "tick");
		else if (feat(Feature::NO_HZ_FULL) && qs_[0].h_nr_queued <= 1)
			disagree(sim, "tick:while-stopped", "periodic tick", "none with one task queued (NO_HZ_FULL)", "tick");
		if (cfg_.knobs.tick_jitter == 0 && t % cfg_.tick_ns != cfg_.knobs.tick_phase % cfg_.tick_ns)
			disagree(sim, "tick:off-grid", "periodic tick time", "on the grid", num(t));
		last_tick_ = t;
		tick_seen_ = true;
		if (running_ != IDLE)
			task_tick_fair(false);
	}
	end(sim, true);
}

void DecisionOracle::on_schedule(const Simulation& sim, u64 t, int prev, int next)
{
	if (!begin(sim, t, "schedule (" + who(prev) + " -> " + who(next) + ")", false, Hook::Schedule))
		return;
	if (prev != running_)
		disagree(sim, "schedule:protocol", "prev", who(running_), who(prev));
	if (!need_resched_ && !schedule_requested_)
		disagree(sim, "schedule:unrequested", "reason to schedule", "none (no resched, block or yield)",
			 "scheduled");
	schedule_requested_ = false;
	if (!hrtick_cleared_by_block_)
		hrtick_clear();
	hrtick_cleared_by_block_ = false;
	in_schedule_ = rules_->hrtick_v7;  // hrtick_schedule_enter()
	const int chosen = pick_next_task(sim, next);
	if (rules_->hrtick_v7 && feat(Feature::HRTICK))
		hrtick_schedule_exit(chosen == IDLE);
	in_schedule_ = false;
	// __schedule() clears TIF_NEED_RESCHED after the pick.
	need_resched_ = false;
	resched_lazy_ = false;
	running_ = chosen;
	if (chosen != next)
		disagree(sim, "schedule:next", "task picked to run", who(chosen), who(next));
	end(sim, false);
}

void DecisionOracle::on_switch(const Simulation&, u64, int, int, bool, u64) {}

// sched_move_task() of the running task: under sched_change (SAVE|MOVE) it
// leaves its group's chain and joins the new one (task_change_group_fair():
// set_task_rq() below the group the model's task now names, the move's
// stimulus), and is rescheduled.
void DecisionOracle::on_move_group(const Simulation& sim, u64 t, int task)
{
	const SchedEntity* to = sim.tasks()[static_cast<size_t>(task)].se.parent;
	if (!begin(sim, t, "move of task " + std::to_string(task) + " to " + (to ? who_se(model_id(to)) : "the root"), true,
		   Hook::Attr))
		return;
	if (task != running_) {
		disagree(sim, "move:protocol", "moving task", who(running_), who(task));
		end(sim, false);
		return;
	}
	Ent& e = ent(task);
	const bool queued = e.on_rq;
	if (queued && dequeue_entities(task, DQ_SAVE | DQ_MOVE) >= 0)
		hrtick_update();
	put_prev_task_fair(task);
	e.parent = model_id(to);
	e.cfs = e.parent == IDLE ? 0 : ent(e.parent).my_q;
	e.depth = e.parent == IDLE ? 0 : ent(e.parent).depth + 1;
	if (queued) {
		enqueue_task_fair(task, EN_RESTORE | EN_MOVE);
		hrtick_update_enqueued();
	}
	set_next_task_fair(task, false);
	resched_curr();
	end(sim, true);
}

// A cpu.weight write reweighted a queued group entity: begin() has applied
// the write (sync_group_shares()); the update_curr() of each reweight may
// have asked for a resched.
void DecisionOracle::on_group_reweight(const Simulation& sim, u64 t, u32, size_t group)
{
	if (!begin(sim, t, "cpu.weight write of group " + std::to_string(group), false, Hook::Attr))
		return;
	end(sim, true);
}

// Every shares write, its entities reweighted (queued or not): two writes
// in one event are two steps, each rounding a saved lag (6.6 reweights an
// emptied group's entity too).
void DecisionOracle::on_group_shares(const Simulation& sim, u64 t, size_t group)
{
	if (!begin(sim, t, "shares write of group " + std::to_string(group), false, Hook::Attr))
		return;
	end(sim, true);
}

void DecisionOracle::on_event(const Simulation& sim, u64 t)
{
	if (!begin(sim, t, "end of event", false, Hook::Event))
		return;
	if (need_resched_)
		disagree(sim, "resched:not-acted-on", "need_resched at the end of the event", "a schedule",
			 "none");
	end(sim, true);
	if (need_resched_ && opt_.resync) {
		need_resched_ = sim.cfs_rq().need_resched;
		resched_lazy_ = sim.cfs_rq().resched_lazy;
	}
}

}  // namespace eevdf::oracle
