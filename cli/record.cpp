// SPDX-License-Identifier: GPL-2.0-only
#include "cli/record.hpp"

#include "model/simulation.hpp"

namespace eevdf::cli {

void Recorder::ensure(const Simulation& sim)
{
	if (states_.size() < sim.tasks().size()) {
		states_.resize(sim.tasks().size());
		samples.resize(sim.tasks().size());
	}
}

void Recorder::sample(const Simulation& sim, u64 t)
{
	if (!want_samples_)
		return;
	for (const auto& task : sim.tasks()) {
		const SchedEntity& se = task.se;
		if (se.on_rq)
			samples[static_cast<size_t>(se.id)].push_back({t, sim.lag_ns(se.id), se.vruntime, se.deadline});
	}
	if (sim.cfs_rq().nr_queued)
		v_samples.emplace_back(t, sim.cfs_rq().avg_vruntime());
}

void Recorder::on_switch(const Simulation& sim, u64 t, int prev, int next, bool prev_runnable, u64)
{
	ensure(sim);
	State& p = st(prev);
	if (p.on_since != NO_TIME && current_.task == prev && !(prev < 0 && current_.start == t)) {
		current_.end = t;
		current_.state = prev < 0 || prev_runnable ? 'R' : p.exited ? 'X' : 'S';
		runs.push_back(current_);  // a zero-length idle run at a wakeup is not a run
	}
	p.on_since = NO_TIME;
	p.last_out = t;
	p.ready = prev >= 0 && prev_runnable ? t : NO_TIME;

	State& n = st(next);
	const u64 wait = n.last_out == NO_TIME ? 0 : t - n.last_out;
	const u64 delay = next < 0 || n.ready == NO_TIME ? 0 : t - n.ready;
	n.on_since = t;
	n.ready = NO_TIME;
	current_ = {next, t, NO_TIME, wait, delay, 'R'};
	sample(sim, t);
}

void Recorder::on_wakeup(const Simulation& sim, u64 t, int task, int, bool new_task)
{
	ensure(sim);
	State& s = st(task);
	if (s.ready == NO_TIME)
		s.ready = t;
	if (new_task)
		s.last_out = t;
	sample(sim, t);
}

void Recorder::on_block(const Simulation& sim, u64, int task, bool, bool exited)
{
	ensure(sim);
	st(task).exited = exited;
}

void Recorder::on_tick(const Simulation& sim, u64 t, bool) { sample(sim, t); }

void Recorder::finish(const Simulation& sim)
{
	ensure(sim);
	end_ns = sim.now();  // the run in progress did not end: it is not a run (as in MetricsCollector)
	names.clear();
	pids.clear();
	for (size_t i = 0; i < sim.workload().tasks.size(); i++) {
		names.push_back(sim.workload().tasks[i].name);
		pids.push_back(1000 + static_cast<int>(i));
	}
}

}  // namespace eevdf::cli
