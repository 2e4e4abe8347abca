// SPDX-License-Identifier: GPL-2.0-only
#include "model/metrics.hpp"

#include <algorithm>

#include "model/simulation.hpp"

namespace eevdf {
namespace {

constexpr u64 NONE = ~0ULL;

u64 nearest_rank(const std::vector<u64>& sorted, unsigned pct)
{
	// rank = ceil(pct/100 * n), 1-based
	const u64 n = sorted.size();
	u64 rank = (pct * n + 99) / 100;
	if (rank == 0)
		rank = 1;
	return sorted[rank - 1];
}

}  // namespace

Distribution summarize(std::vector<u64> v)
{
	Distribution d;
	if (v.empty())
		return d;
	std::sort(v.begin(), v.end());
	d.count = v.size();
	d.min = v.front();
	d.max = v.back();
	d.p50 = nearest_rank(v, 50);
	d.p90 = nearest_rank(v, 90);
	d.p99 = nearest_rank(v, 99);
	for (u64 x : v)
		d.sum += x;
	return d;
}

Distribution summarize(const SampleCounts& s)
{
	Distribution d;
	if (s.empty())
		return d;
	d.count = s.count();
	d.min = s.min();
	d.max = s.max();
	d.sum = s.sum();
	d.exact = s.exact();
	d.precision_bits = s.precision_bits();
	// rank = ceil(pct/100 * n), 1-based, as nearest_rank() over the values.
	const auto pct = [&](unsigned p) { return s.at_rank((p * d.count + 99) / 100); };
	d.p50 = pct(50);
	d.p90 = pct(90);
	d.p99 = pct(99);
	return d;
}

// Bounded memory for every task's samples together: about 2^22 (value,
// count) pairs (some 200 MB at most) over the two metrics of every task,
// but never fewer than 1024 per metric (SampleCounts coarsens past it).
static size_t sample_limit(size_t tasks)
{
	const size_t per = (size_t{1} << 22) / (2 * (tasks ? tasks : 1));
	return per < 1024 ? 1024 : per > SampleCounts::DEFAULT_LIMIT ? SampleCounts::DEFAULT_LIMIT : per;
}

void add_to_total(TaskMetrics& t, const TaskMetrics& x)
{
	t.cpu_ns += x.cpu_ns;
	t.runs.merge(x.runs);
	t.switches += x.switches;
	t.involuntary_switches += x.involuntary_switches;
	t.wakeup_latency.merge(x.wakeup_latency);
	t.max_abs_lag_ns = std::max(t.max_abs_lag_ns, x.max_abs_lag_ns);
	t.migrations += x.migrations;
	t.wakeups += x.wakeups;
	t.wakeups_local += x.wakeups_local;
	t.wakeups_remote += x.wakeups_remote;
	t.wakeups_migrate += x.wakeups_migrate;
	t.run_delay_ns += x.run_delay_ns;
	if (t.cpu_ns_per_cpu.size() < x.cpu_ns_per_cpu.size())
		t.cpu_ns_per_cpu.resize(x.cpu_ns_per_cpu.size());
	for (size_t c = 0; c < x.cpu_ns_per_cpu.size(); c++)
		t.cpu_ns_per_cpu[c] += x.cpu_ns_per_cpu[c];
}

void MetricsCollector::ensure(const Simulation& sim)
{
	if (!tasks.empty())
		return;
	const auto& specs = sim.workload().tasks;
	tasks.resize(specs.size());
	const size_t limit = sample_limit(specs.size());
	for (size_t i = 0; i < specs.size(); i++) {
		tasks[i].runs = SampleCounts(limit);
		tasks[i].wakeup_latency = SampleCounts(limit);
		tasks[i].name = specs[i].name;
		tasks[i].pid = static_cast<int>(1000 + i);
		if (sim.nr_cpus() > 1)  // on one CPU, cpu_ns is that CPU's (and a million tasks save 32 MB)
			tasks[i].cpu_ns_per_cpu.assign(sim.nr_cpus(), 0);
	}
	woken_at_.assign(specs.size(), NONE);
	runnable_since_.assign(specs.size(), NONE);
	running_.assign(sim.nr_cpus(), -1);
	run_since_.assign(sim.nr_cpus(), 0);
}

void MetricsCollector::sample_lag(const Simulation& sim, int task)
{
	if (task < 0 || !sim.tasks()[static_cast<size_t>(task)].se.on_rq)
		return;
	const s64 lag = sim.lag_ns(task);
	const s64 a = lag < 0 ? -lag : lag;
	TaskMetrics& m = tasks[static_cast<size_t>(task)];
	if (a > m.max_abs_lag_ns)
		m.max_abs_lag_ns = a;
}

void MetricsCollector::on_switch(const Simulation& sim, u64 t, int prev, int next, bool prev_runnable, u64 run_start)
{
	ensure(sim);
	const u32 cpu = sim.event_cpu();
	if (prev >= 0) {
		TaskMetrics& m = tasks[static_cast<size_t>(prev)];
		m.runs.add(t - run_since_[cpu]);
		m.cpu_ns += t - run_since_[cpu];
		if (!m.cpu_ns_per_cpu.empty())
			m.cpu_ns_per_cpu[cpu] += t - run_since_[cpu];
		m.switches++;
		if (prev_runnable) {
			m.involuntary_switches++;
			runnable_since_[static_cast<size_t>(prev)] = t;
		}
		sample_lag(sim, prev);
	}
	running_[cpu] = next;
	run_since_[cpu] = t;
	if (next >= 0) {
		u64& w = woken_at_[static_cast<size_t>(next)];
		if (w != NONE) {
			tasks[static_cast<size_t>(next)].wakeup_latency.add(run_start - w);
			w = NONE;
		}
		u64& r = runnable_since_[static_cast<size_t>(next)];
		if (r != NONE) {
			tasks[static_cast<size_t>(next)].run_delay_ns += t - r;
			r = NONE;
		}
		sample_lag(sim, next);
	}
}

void MetricsCollector::on_ttwu(const Simulation& sim, u64 t, int task, int)
{
	ensure(sim);
	woken_at_[static_cast<size_t>(task)] = t;
	runnable_since_[static_cast<size_t>(task)] = t;
}

void MetricsCollector::on_wakeup(const Simulation& sim, u64, int task, int, bool)
{
	ensure(sim);
	sample_lag(sim, task);
}

void MetricsCollector::on_tick(const Simulation& sim, u64, bool)
{
	ensure(sim);
	sample_lag(sim, sim.current(sim.event_cpu()));
}

// The running task moved itself: what it has used so far, the run in
// progress included, was used in the group it leaves.
void MetricsCollector::on_move_group(const Simulation& sim, u64 t, int task)
{
	ensure(sim);
	const u32 cpu = sim.event_cpu();
	TaskMetrics& m = tasks[static_cast<size_t>(task)];
	const u64 partial = running_[cpu] == task && t > run_since_[cpu] ? t - run_since_[cpu] : 0;
	const SchedEntity* parent = sim.tasks()[static_cast<size_t>(task)].se.parent;
	m.group_moves.push_back({m.cpu_ns + partial, parent ? static_cast<int>(parent->my_q->tg->id) : -1});
}

void MetricsCollector::finish(const Simulation& sim)
{
	ensure(sim);
	end_ns = sim.now();
	for (u32 c = 0; c < running_.size(); c++)
		if (running_[c] >= 0) {
			TaskMetrics& m = tasks[static_cast<size_t>(running_[c])];
			m.cpu_ns += end_ns - run_since_[c];
			if (!m.cpu_ns_per_cpu.empty())
				m.cpu_ns_per_cpu[c] += end_ns - run_since_[c];
			run_since_[c] = end_ns;
		}
	for (size_t i = 0; i < tasks.size(); i++) {
		const Task& t = sim.tasks()[i];
		TaskMetrics& m = tasks[i];
		m.migrations = t.nr_migrations;
		m.wakeups = t.wakeups;
		m.wakeups_local = t.wakeups_local;
		m.wakeups_remote = t.wakeups_remote;
		m.wakeups_migrate = t.wakeups_migrate;
	}
	cpus.assign(sim.nr_cpus(), {});
	for (u32 c = 0; c < sim.nr_cpus(); c++) {
		const Rq& rq = sim.rq(c);
		cpus[c] = CpuMetrics{rq.busy_ns, rq.idle_ns, rq.switches, rq.ipis, rq.balance_attempts, rq.tasks_pulled,
				     rq.ticks};
	}
}

}  // namespace eevdf
