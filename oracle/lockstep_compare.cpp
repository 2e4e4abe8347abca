// SPDX-License-Identifier: GPL-2.0-only
// The state comparison at the end of each hook, and the resync that adopts
// the model's state after a disagreement.
#include "oracle/internal.hpp"

#include <algorithm>

namespace eevdf::oracle {

namespace {

const char* kind_of(const std::string& stimulus)
{
	if (stimulus.rfind("fork", 0) == 0)
		return "fork";
	if (stimulus.rfind("wakeup", 0) == 0)
		return "wakeup";
	if (stimulus.rfind("block", 0) == 0)
		return "block";
	if (stimulus.rfind("exit", 0) == 0)
		return "exit";
	if (stimulus.rfind("hrtick", 0) == 0)
		return "hrtick";
	if (stimulus.rfind("tick", 0) == 0)
		return "tick";
	if (stimulus.rfind("schedule", 0) == 0)
		return "schedule";
	if (stimulus.rfind("yield", 0) == 0)
		return "yield";
	if (stimulus.rfind("set_user_nice", 0) == 0)
		return "nice";
	if (stimulus.rfind("sched_setattr", 0) == 0)
		return "setattr";
	return "event";
}

}  // namespace

// The state comparison: every decision and every field a later decision
// reads. Fields the kernel never reads again (a queued non-curr entity's
// stale vlag word, an off-queue entity's vruntime) are not compared.
void DecisionOracle::compare(const Simulation& sim, bool compare_resched)
{
	counters_.comparisons++;
	const std::string k = kind_of(stimulus_);
	auto diff = [&](const std::string& field, const std::string& o, const std::string& m) {
		disagree(sim, k + ":" + field.substr(0, field.find(' ')), field, o, m);
	};
	if (compare_resched && sim.cfs_rq().need_resched != need_resched_)
		diff("need_resched", need_resched_ ? "set" : "clear", sim.cfs_rq().need_resched ? "set" : "clear");
	for (size_t qi = 0; qi < qs_.size(); qi++) {
		const Q& o = qs_[qi];
		const CfsRq& m = model_cfs_rq(sim, qi);
		const std::string at = qi ? " of group " + std::to_string(qi - 1) + "'s cfs_rq" : "";
		if (model_id(m.curr) != o.curr)
			diff("curr" + at, who_se(o.curr), who_se(model_id(m.curr)));
		if (model_id(m.next) != o.next)
			diff("next" + at, who_se(o.next), who_se(model_id(m.next)));
		if (m.h_nr_queued != o.h_nr_queued)
			diff("h_nr_queued" + at, num(o.h_nr_queued), num(m.h_nr_queued));
		if (m.ref_vruntime != o.v0)
			diff("v0 (min_vruntime/zero_vruntime)" + at, snum(static_cast<s64>(o.v0)),
			     snum(static_cast<s64>(m.ref_vruntime)));
	}
	for (size_t i = 0; i < ents_.size(); i++) {
		const Ent& e = ents_[i];
		const SchedEntity& m = model_se(sim, i);
		const std::string tsk = " of " + who_se(static_cast<int>(i));
		const bool dep = e.slice_augment_dependent;
		ents_[i].slice_augment_dependent = false;
		if (!e.forked) {
			if (m.on_rq)
				diff("on_rq" + tsk, "0 (not forked)", "1");
			continue;
		}
		if (m.on_rq != e.on_rq)
			diff("on_rq" + tsk, num(e.on_rq), num(m.on_rq));
		if (m.sched_delayed != e.delayed)
			diff("sched_delayed" + tsk, num(e.delayed), num(m.sched_delayed));
		if (m.load.weight != e.load.weight)
			diff("weight" + tsk, num(e.load.weight), num(m.load.weight));
		if (m.slice != e.slice)
			diff("slice" + tsk, num(e.slice), num(m.slice));
		if (m.custom_slice != e.custom)
			diff("custom_slice" + tsk, num(e.custom), num(m.custom_slice));
		if (m.sum_exec_runtime != e.sum_exec)
			diff("sum_exec_runtime" + tsk, num(e.sum_exec), num(m.sum_exec_runtime));
		if (m.rel_deadline != e.rel_deadline)
			diff("rel_deadline" + tsk, num(e.rel_deadline), num(m.rel_deadline));
		if (e.on_rq) {
			if (m.vruntime != e.vruntime)
				diff("vruntime" + tsk, snum(static_cast<s64>(e.vruntime)), snum(static_cast<s64>(m.vruntime)));
			if (m.deadline != e.deadline)
				diff("deadline" + tsk, snum(static_cast<s64>(e.deadline)), snum(static_cast<s64>(m.deadline)));
		} else {
			if (e.rel_deadline && m.deadline != e.deadline)
				diff("deadline" + tsk, "d - v = " + snum(static_cast<s64>(e.deadline)),
				     snum(static_cast<s64>(m.deadline)));
			if (m.vlag != e.vlag() && dep) {
				counters_.undetermined_slices++;
				ents_[i].lagword = static_cast<u64>(m.vlag);
			} else if (m.vlag != e.vlag()) {
				diff("vlag" + tsk, snum(e.vlag()), snum(m.vlag));
			}
		}
		const bool is_curr = static_cast<int>(i) == qs_[static_cast<size_t>(e.cfs)].curr;
		if (is_curr && e.on_rq && rules_->vprot_split) {
			if (m.vprot != e.protword && dep) {
				counters_.undetermined_slices++;
				ents_[i].protword = m.vprot;
			} else if (m.vprot != e.protword) {
				diff("vprot" + tsk, snum(static_cast<s64>(e.protword)), snum(static_cast<s64>(m.vprot)));
			}
			if (m.prev_sum_exec_runtime != e.prev_sum_exec)
				diff("prev_sum_exec_runtime" + tsk, num(e.prev_sum_exec), num(m.prev_sum_exec_runtime));
		} else if (is_curr && e.on_rq) {
			if (static_cast<u64>(m.vlag) != e.lagword && dep) {
				counters_.undetermined_slices++;
				ents_[i].lagword = static_cast<u64>(m.vlag);
			} else if (static_cast<u64>(m.vlag) != e.lagword)
				diff(std::string(rules_->stash ? "vlag (deadline stash)" : "vprot (vlag word)") + tsk,
				     snum(e.vlag()), snum(m.vlag));
			if (m.prev_sum_exec_runtime != e.prev_sum_exec)
				diff("prev_sum_exec_runtime" + tsk, num(e.prev_sum_exec), num(m.prev_sum_exec_runtime));
		}
	}
	if (opt_.resync && disagreements_ != disagreements_at_begin_)
		resync(sim);
}

// Adopt the model's state (after a disagreement), keeping the oracle's
// reference to the tasks' FIFO order where it still holds.
void DecisionOracle::resync(const Simulation& sim)
{
	counters_.resyncs++;
	for (size_t qi = 0; qi < qs_.size(); qi++) {
		const CfsRq& m = model_cfs_rq(sim, qi);
		Q& o = qs_[qi];
		o.curr = model_id(m.curr);
		o.next = model_id(m.next);
		o.v0 = m.ref_vruntime;
		o.nr_queued = 0;
		o.h_nr_queued = m.h_nr_queued;
	}
	running_ = sim.current();
	need_resched_ = sim.cfs_rq().need_resched;
	resched_lazy_ = sim.cfs_rq().resched_lazy;
	std::vector<std::pair<u64, size_t>> order;
	for (size_t i = 0; i < ents_.size(); i++) {
		const SchedEntity& m = model_se(sim, i);
		Ent& e = ents_[i];
		if (i < ntasks_) {
			const Simulation::Task& t = sim.tasks()[i];
			e.forked = t.state != Simulation::TaskState::New;
			e.exited = t.state == Simulation::TaskState::Exited;
			e.nice = t.nice;
		}
		e.load = m.load;
		e.vruntime = m.vruntime;
		e.deadline = m.deadline;
		e.lagword = static_cast<u64>(m.vlag);
		e.protword = m.vprot;
		e.slice = m.slice;
		e.custom = m.custom_slice;
		e.on_rq = m.on_rq;
		e.delayed = m.sched_delayed;
		e.rel_deadline = m.rel_deadline;
		e.exec_start = m.exec_start;
		e.sum_exec = m.sum_exec_runtime;
		e.prev_sum_exec = m.prev_sum_exec_runtime;
		Q& o = qs_[static_cast<size_t>(e.cfs)];
		const bool in = m.on_rq && static_cast<int>(i) != o.curr;
		if (in && !e.in_tree)
			e.seq = ~0ULL - (ents_.size() - i);  // newly in: after the others
		e.in_tree = in;
		if (m.on_rq)
			o.nr_queued++;
		if (in)
			order.emplace_back(m.node_seq, i);
	}
	// The model's own insertion order decides FIFO among equal deadlines.
	std::sort(order.begin(), order.end());
	for (auto& [s, i] : order)
		ents_[i].seq = ++seq_;
}

const SchedEntity& DecisionOracle::model_se(const Simulation& sim, size_t i) const
{
	return i < ntasks_ ? sim.tasks()[i].se : sim.groups()[i - ntasks_].se[0];
}

const CfsRq& DecisionOracle::model_cfs_rq(const Simulation& sim, size_t qi) const
{
	return qi == 0 ? sim.cfs_rq() : sim.groups()[qi - 1].cfs_rq[0];
}

int DecisionOracle::model_id(const SchedEntity* se) const
{
	if (!se)
		return IDLE;
	return se->my_q ? group_se(se->my_q->tg->id) : se->id;
}

std::string DecisionOracle::who_se(int i) const
{
	if (i == IDLE || static_cast<size_t>(i) < ntasks_)
		return who(i);
	return "group " + std::to_string(static_cast<size_t>(i) - ntasks_) + "'s entity";
}

}  // namespace eevdf::oracle
