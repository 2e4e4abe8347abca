// SPDX-License-Identifier: GPL-2.0-only
#include "report/record.hpp"

#include "model/simulation.hpp"

namespace eevdf::cli {

void Recorder::ensure(const Simulation& sim)
{
	if (states_.size() < sim.tasks().size()) {
		states_.resize(sim.tasks().size());
		samples.resize(sim.tasks().size());
		migrations.resize(sim.tasks().size());
	}
	if (cpus_.size() < sim.nr_cpus()) {
		nr_cpus = sim.nr_cpus();
		cpus_.resize(nr_cpus);
		for (u32 c = 0; c < nr_cpus; c++)
			cpus_[c].current.cpu = c;
		if (nr_cpus > 1)
			cpu_v_samples.resize(nr_cpus);
	}
}

void Recorder::sample(const Simulation& sim, u64 t)
{
	if (!want_samples_)
		return;
	// One sample per time: several events at one instant (a switch and a
	// wake-up) keep the state after the last of them.
	auto put = [t](auto& list, auto value) {
		if (!list.empty() && list.back().t == t)
			list.back() = value;
		else
			list.push_back(value);
	};
	for (const auto& task : sim.tasks()) {
		const SchedEntity& se = task.se;
		if (se.on_rq)
			put(samples[static_cast<size_t>(se.id)],
			    Sample{t, sim.lag_ns(se.id), se.vruntime, se.deadline,
				   static_cast<s64>(se.vruntime - sim.cfs_rq(task.cpu).avg_vruntime())});
	}
	if (sim.cfs_rq().nr_queued)
		put(v_samples, VSample{t, sim.cfs_rq().avg_vruntime()});
	// There is no global V: each CPU's is sampled on its own.
	for (u32 c = 0; c < cpu_v_samples.size(); c++)
		if (sim.cfs_rq(c).nr_queued)
			put(cpu_v_samples[c], VSample{t, sim.cfs_rq(c).avg_vruntime()});
}

void Recorder::on_switch(const Simulation& sim, u64 t, int prev, int next, bool prev_runnable, u64)
{
	ensure(sim);
	const u32 cpu = sim.event_cpu();
	RunRecord& current = cpus_[cpu].current;
	State& p = st(prev, cpu);
	if (p.on_since != NO_TIME && current.task == prev && !(prev < 0 && current.start == t)) {
		current.end = t;
		current.state = prev < 0 || prev_runnable ? 'R' : p.exited ? 'X' : 'S';
		runs.push_back(current);  // a zero-length idle run at a wakeup is not a run
	}
	p.on_since = NO_TIME;
	p.last_out = t;
	p.ready = prev >= 0 && prev_runnable ? t : NO_TIME;

	State& n = st(next, cpu);
	const u64 wait = n.last_out == NO_TIME ? 0 : t - n.last_out;
	const u64 delay = next < 0 || n.ready == NO_TIME ? 0 : t - n.ready;
	n.on_since = t;
	n.ready = NO_TIME;
	current = {next, t, NO_TIME, wait, delay, 'R', cpu};
	if (want_switches_)
		switches.push_back({t, cpu, prev, next});
	sample(sim, t);
}

// A new task has no last switch out, so its first run waited 0 (perf's
// last_time stays 0 until the task is first switched out).
void Recorder::on_wakeup(const Simulation& sim, u64 t, int task, int, bool)
{
	ensure(sim);
	State& s = st(task, sim.event_cpu());
	if (s.ready == NO_TIME)
		s.ready = t;
	sample(sim, t);
}

void Recorder::on_migrate(const Simulation& sim, u64, int task, u32, u32)
{
	ensure(sim);
	migrations[static_cast<size_t>(task)]++;
}

void Recorder::on_block(const Simulation& sim, u64, int task, bool, bool exited)
{
	ensure(sim);
	st(task, sim.event_cpu()).exited = exited;
}

void Recorder::on_tick(const Simulation& sim, u64 t, bool) { sample(sim, t); }

void Recorder::finish(const Simulation& sim)
{
	ensure(sim);
	end_ns = sim.now();  // the run in progress did not end: it is not a run (as in MetricsCollector)
	open_runs.clear();
	for (const Cpu& c : cpus_) {
		open_runs.push_back(c.current);
		open_runs.back().end = end_ns;
	}
	names.clear();
	pids.clear();
	for (size_t i = 0; i < sim.workload().tasks.size(); i++) {
		names.push_back(sim.workload().tasks[i].name);
		pids.push_back(1000 + static_cast<int>(i));
	}
}

}  // namespace eevdf::cli
