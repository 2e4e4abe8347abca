// SPDX-License-Identifier: GPL-2.0-only
// The lockstep protocol: how the oracle follows the model hook by hook
// (begin() and end() around each hook, the wake-up whose preemption check
// waits for the next hook, the ticks and the hrtick that must have come in
// between, a tie adopted from the model) and records disagreements; the
// constructor and the reports.
#include "oracle/internal.hpp"

#include <algorithm>

namespace eevdf::oracle {

namespace {

const char* kind_of_wakeup(unsigned wake_flags) { return (wake_flags & 0x04) ? "fork" : "wakeup"; }

}  // namespace

std::string Disagreement::describe() const
{
	return "event " + std::to_string(event) + " at t=" + std::to_string(t) + " ns, " + stimulus + ": " + field +
	       ": oracle " + oracle + ", model " + model + " [" + klass + "]";
}

DecisionOracle::DecisionOracle(const Config& cfg, Options opt) : cfg_(cfg), opt_(opt)
{
	if (!cfg.preset)
		throw std::invalid_argument("decision oracle: no preset");
	const auto v = version_of(cfg.preset->name);
	if (!v)
		throw std::invalid_argument("decision oracle: no rules for preset \"" + std::string(cfg.preset->name) + "\"");
	if (cfg.cpus > 1)  // the oracle follows one CPU
		throw std::invalid_argument("decision oracle: one CPU only (cpus = " + std::to_string(cfg.cpus) + ")");
	version_ = *v;
	rules_ = rules_for(version_);
	qs_.assign(1, Q{});
	qs_[0].v0 = cfg.vruntime_origin;
}

// The tasks and the groups as the workload made them: each task below its
// group's entity (task_group(p)), each group's entity below its parent's.
// A group's entity starts as the kernel's kzalloc'ed one: weight
// NICE_0_LOAD, all else 0, until its first enqueue weighs and places it.
void DecisionOracle::build_hierarchy(const Simulation& sim)
{
	ntasks_ = sim.tasks().size();
	const auto& groups = sim.groups();
	ents_.assign(ntasks_ + groups.size(), Ent{});
	qs_.assign(1 + groups.size(), Q{});
	for (Q& x : qs_)
		x.v0 = cfg_.vruntime_origin;  // init_cfs_rq()
	tg_shares_.assign(groups.size(), 0);
	for (size_t g = 0; g < groups.size(); g++) {
		const TaskGroup& tg = groups[g];
		Ent& e = ent(group_se(g));
		e.forked = true;
		e.load = LoadWeight{NICE_0_LOAD, 0};
		e.my_q = static_cast<int>(g + 1);
		if (tg.parent) {
			e.parent = group_se(tg.parent->id);
			e.cfs = static_cast<int>(tg.parent->id + 1);
			e.depth = ent(e.parent).depth + 1;
		}
		qs_[g + 1].se = group_se(g);
		qs_[g + 1].idle = tg.idle;
		tg_shares_[g] = tg.shares;
	}
	for (size_t i = 0; i < ntasks_; i++) {
		const std::string& path = sim.task_group_path(i);
		if (path.empty())
			continue;
		for (size_t g = 0; g < groups.size(); g++)
			if (groups[g].path == path) {
				Ent& e = ents_[i];
				e.parent = group_se(g);
				e.cfs = static_cast<int>(g + 1);
				e.depth = ent(e.parent).depth + 1;
			}
	}
}

std::string DecisionOracle::report() const
{
	std::string s = "decision oracle (" + std::string(version_name(version_)) + "): ";
	s += first_ ? first_->describe() : std::string("no disagreement");
	s += "; hooks " + num(counters_.hooks) + ", comparisons " + num(counters_.comparisons) + ", picks " +
	     num(counters_.picks) + ", undetermined " + num(counters_.undetermined_picks) + " picks and " +
	     num(counters_.undetermined_slices) + " slice-augment values, overflow-skipped " +
	     num(counters_.overflow_states) + ", stale-augment-skipped " + num(counters_.augment_skipped) + ", classes " +
	     num(classes_.size());
	return s;
}

std::string DecisionOracle::dump() const
{
	std::string s = "oracle: curr " + who(q().curr) + ", running " + who(running_) + ", nr_queued " + num(q().nr_queued) +
			", v0 " + snum(static_cast<s64>(q().v0)) + ", need_resched " + num(need_resched_) + ", hrtick " +
			(hrtick_at_ == NONE ? std::string("-") : num(hrtick_at_)) + "\n";
	for (size_t i = 0; i < ents_.size(); i++) {
		const Ent& e = ents_[i];
		if (!e.forked)
			continue;
		s += "  " + who_se(static_cast<int>(i)) + ": w=" + num(e.load.weight) + " v=" + snum(static_cast<s64>(e.vruntime)) +
		     " d=" + snum(static_cast<s64>(e.deadline)) + " vlag=" + snum(e.vlag()) + " slice=" + num(e.slice) +
		     (e.custom ? "c" : "") + " on_rq=" + num(e.on_rq) + " delayed=" + num(e.delayed) + " rel=" +
		     num(e.rel_deadline) + " tree=" + num(e.in_tree) + "/" + num(e.seq) + " sum=" + num(e.sum_exec) +
		     " prev_sum=" + num(e.prev_sum_exec) + "\n";
	}
	return s;
}

int DecisionOracle::resolve(const Simulation& sim, const Pick& p, int model_choice, const char* what)
{
	if (p.tied.empty())
		return p.chosen;
	counters_.undetermined_picks++;
	undetermined_now_ = true;
	if (std::find(p.tied.begin(), p.tied.end(), model_choice) != p.tied.end())
		return model_choice;
	std::string c;
	for (int i : p.tied)
		c += (c.empty() ? "" : ",") + std::to_string(i);
	disagree(sim, std::string(what) + ":tie", std::string(what) + " among tied {" + c + "}", "one of {" + c + "}",
		 who(model_choice));
	return model_choice;
}

// Grid and hrtick checks for the time that passed before a hook at t.
void DecisionOracle::check_timers_before(const Simulation& sim, u64 t)
{
	if (hrtick_at_ != NONE && hrtick_at_ < t) {
		if (running_ != IDLE)
			disagree(sim, "hrtick:missing", "hrtick due at " + num(hrtick_at_), "fires", "did not fire");
		hrtick_at_ = NONE;
	}
	// With exact ticks, a tick the state required at a grid point strictly
	// between the time it became required and this hook must have come.
	if (cfg_.knobs.tick_jitter == 0 && tick_needed_since_ != NONE) {
		const u64 tn = cfg_.tick_ns, ph = cfg_.knobs.tick_phase % tn;
		u64 from = std::max(tick_needed_since_, tick_seen_ ? last_tick_ : 0);
		u64 g = from - (from % tn) + ph;
		while (g <= from || g == 0)
			g += tn;
		if (g < t) {
			disagree(sim, "tick:missing", "periodic tick at " + num(g), "fires", "did not fire");
			last_tick_ = g;
			tick_seen_ = true;
		}
	}
}

void DecisionOracle::note_tick_need(u64 t)
{
	const bool need = running_ != IDLE && (!feat(Feature::NO_HZ_FULL) || qs_[0].h_nr_queued >= 2);
	if (!need)
		tick_needed_since_ = NONE;
	else if (tick_needed_since_ == NONE)
		tick_needed_since_ = t;
}

// The preemption check of the last wakeup, applied before the hook that
// follows it; its resched decision is compared here unless that hook is the
// schedule it asked for (on_schedule checks that a schedule was requested).
void DecisionOracle::apply_pending_wakeup(const Simulation& sim, Hook next)
{
	if (pending_.task == IDLE)
		return;
	const PendingWakeup p = pending_;
	pending_ = PendingWakeup{};
	const std::string here = stimulus_;
	stimulus_ = p.stimulus;
	undetermined_now_ = false;
	const bool was_idle = running_ == IDLE;
	if (p.hrtick_update)
		hrtick_update_enqueued();
	wakeup_preempt(sim, p.task, p.wake_flags);
	if (undetermined_now_ && next == Hook::Schedule)
		need_resched_ = true;  // the model's side of the tie: it rescheduled
	// Only at the end of the event is the model's need_resched that of the
	// wakeup alone (any other hook has applied its own stimulus already;
	// on_schedule checks that a schedule was asked for). Leaving idle is
	// the core's business: the model need not set need_resched for it.
	if (next == Hook::Event && !was_idle && !undetermined_now_ &&
	    sim.cfs_rq().need_resched != need_resched_)
		disagree(sim, std::string(kind_of_wakeup(p.wake_flags)) + ":need_resched",
			 "wakeup preemption (need_resched after the wakeup)", need_resched_ ? "set" : "clear",
			 sim.cfs_rq().need_resched ? "set" : "clear");
	if (undetermined_now_ && next != Hook::Schedule) {
		need_resched_ = sim.cfs_rq().need_resched;
		resched_lazy_ = sim.cfs_rq().resched_lazy;
	}
	stimulus_ = here;
}

bool DecisionOracle::begin(const Simulation& sim, u64 t, std::string stimulus, bool program_side, Hook hook)
{
	if (!started_) {
		started_ = true;
		build_hierarchy(sim);
	}
	counters_.hooks++;
	disagreements_at_begin_ = disagreements_;
	stimulus_ = std::move(stimulus);
	t_ = t;
	event_ = sim.events();
	undetermined_now_ = false;
	if (overflow_) {
		counters_.overflow_states++;
		return false;
	}
	if (stale_augment_) {
		counters_.augment_skipped++;
		return false;
	}
	check_timers_before(sim, t);
	now_ = t;
	apply_pending_wakeup(sim, hook);
	sync_group_shares(sim);
	if (program_side && need_resched_)
		disagree(sim, "resched:deferred", "need_resched before " + stimulus_,
			 "acted on before the running task's next call", "the task's program went on");
	return true;
}

void DecisionOracle::end(const Simulation& sim, bool compare_resched)
{
	if (overflow_) {
		counters_.overflow_states++;
		return;
	}
	if (stale_augment_) {
		counters_.augment_skipped++;
		return;
	}
	compare(sim, compare_resched);
	note_tick_need(t_);
}

void DecisionOracle::disagree(const Simulation& sim, const std::string& klass, const std::string& field,
			      const std::string& o, const std::string& m)
{
	disagreements_++;
	Disagreement d{event_, t_, stimulus_, klass, field, o, m};
	if (!first_)
		first_ = d;
	if (all_.size() < opt_.keep)
		all_.push_back(d);
	if (!class_index_.count(klass)) {
		class_index_[klass] = classes_.size();
		classes_.push_back(d);
	}
	(void)sim;
}

}  // namespace eevdf::oracle
