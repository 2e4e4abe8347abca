// SPDX-License-Identifier: GPL-2.0-only
#include "trace/stats.hpp"

#include <algorithm>

#include "io/input_error.hpp"

namespace eevdf::trace {
namespace {
constexpr u64 NONE = ~0ULL;
}

StatsBuilder::TaskState& StatsBuilder::task(int pid, const std::string& comm)
{
	auto [it, fresh] = index_.try_emplace(pid, tasks_.size());
	if (fresh) {
		if (tasks_.size() >= MAX_TRACE_TASKS) {
			index_.erase(it);
			throw TraceLimit("more than " + std::to_string(MAX_TRACE_TASKS) + " tasks (distinct pids) in the trace");
		}
		check_pairs(tasks_.size() + 1, cpus_.size());
		tasks_.emplace_back();
		tasks_.back().pid = pid;
		tasks_.back().m.pid = pid;
	}
	TaskState& t = tasks_[it->second];
	// the latest comm names it (a fork shows its parent's until exec)
	if (!comm.empty() && comm != "<...>")
		t.m.name = comm;
	return t;
}

StatsBuilder::CpuState& StatsBuilder::cpu(u32 c, u32 cpus)
{
	const size_t n = std::max<size_t>(c + 1, cpus);
	if (cpus_.size() < n) {
		check_pairs(tasks_.size(), n);
		cpus_.resize(n);
		cpu_m_.resize(n);
		observed_.resize(n);
		unattributed_.resize(n);
	}
	return cpus_[c];
}

// Every task's time is kept per CPU: tasks x CPUs pairs of 8 bytes.
void StatsBuilder::check_pairs(size_t tasks, size_t cpus) const
{
	if (static_cast<u64>(tasks) * cpus > MAX_TRACE_TASK_CPUS)
		throw TraceLimit(std::to_string(tasks) + " tasks on " + std::to_string(cpus) + " CPUs: more than " +
				 std::to_string(MAX_TRACE_TASK_CPUS) + " task-CPU pairs (each task's time is kept per CPU)");
}

// The part of [a, b] inside the window.
u64 StatsBuilder::clip(u64 a, u64 b) const
{
	a = std::max(a, w_.from);
	b = std::min(b, w_.to);
	return b > a ? b - a : 0;
}

// [a, b] of CPU c ran `pid` (0: idle).
void StatsBuilder::account(u32 c, int pid, u64 a, u64 b)
{
	const u64 d = clip(a, b);
	if (!d)
		return;
	if (is_idle(pid)) {
		cpu_m_[c].idle_ns += d;
		return;
	}
	cpu_m_[c].busy_ns += d;
	TaskMetrics& m = tasks_[index_.at(pid)].m;
	m.cpu_ns += d;
	if (m.cpu_ns_per_cpu.size() <= c)
		m.cpu_ns_per_cpu.resize(c + 1);
	m.cpu_ns_per_cpu[c] += d;
}

// The line's context is not what the CPU last switched to: a sched_switch
// is missing (lost, or never emitted: docs/trace.md). The CPU went from
// curr to the context task at some unknown time in [since, ts]: if the new
// task's wake-up came after `since`, the CPU ran curr at least until then;
// the rest is attributed to no one, and the new task's run, wake-up latency
// and run delay are unknown.
void StatsBuilder::missed_switch(const Event& e)
{
	CpuState& cs = cpus_[e.cpu];
	missed_switches_++;
	u64 known_until = cs.since;
	if (!is_idle(e.context_pid)) {
		TaskState& n = task(e.context_pid, e.context_comm);
		if (n.woken_at != NONE && n.woken_at > cs.since && n.woken_at <= e.ts)
			known_until = n.woken_at;
		n.woken_at = NONE;
		n.runnable_since = NONE;
		n.since_known = false;
		n.state = State::Running;
		n.cpu = static_cast<int>(e.cpu);
	}
	if (!is_idle(cs.curr)) {
		TaskState& p = task(cs.curr, {});
		p.since_known = false;
		if (p.state == State::Running)
			p.state = State::Unknown;
	}
	account(e.cpu, cs.curr, cs.since, known_until);
	unattributed_[e.cpu] += clip(known_until, e.ts);
	cs.curr = e.context_pid;
	cs.since = e.ts;
}

void StatsBuilder::on_switch(const Event& e, const ReadStats& rs)
{
	CpuState& cs = cpu(e.cpu, rs.cpus());
	const bool in = e.ts >= w_.from && e.ts <= w_.to;
	if (!is_idle(e.prev_pid)) {
		TaskState& p = task(e.prev_pid, e.prev_comm);
		account(e.cpu, e.prev_pid, cs.since, e.ts);
		if (p.since_known && p.since >= w_.from && in)
			p.m.runs.add(e.ts - p.since);
		if (in) {
			p.m.switches++;
			if (e.prev_state == 'R')
				p.m.involuntary_switches++;
		}
		p.since_known = false;
		p.cpu = static_cast<int>(e.cpu);
		if (e.prev_state == 'R') {
			p.state = State::Runnable;
			p.runnable_since = e.ts;
		} else if (p.state == State::Running || p.state == State::Unknown) {
			p.state = State::Sleeping;  // a wake-up seen before the switch already made it runnable
		}
	} else {
		account(e.cpu, 0, cs.since, e.ts);
	}
	if (in)
		cpu_m_[e.cpu].switches++;
	cs.curr = e.next_pid;
	cs.since = e.ts;
	if (is_idle(e.next_pid))
		return;
	TaskState& n = task(e.next_pid, e.next_comm);
	if (n.woken_at != NONE) {
		if (n.woken_at >= w_.from && in)
			n.m.wakeup_latency.add(e.ts - n.woken_at);
		n.woken_at = NONE;
	}
	if (n.runnable_since != NONE) {
		n.m.run_delay_ns += clip(n.runnable_since, e.ts);
		n.runnable_since = NONE;
	}
	n.state = State::Running;
	n.cpu = static_cast<int>(e.cpu);
	n.since = e.ts;
	n.since_known = true;
}

// sched_waking starts the wake-up latency on the waker's CPU; sched_wakeup
// (or _new) says where it is runnable. Without sched_waking in the trace
// the wakeup line stands for both.
void StatsBuilder::on_wakeup(const Event& e)
{
	TaskState& t = task(e.pid, e.comm);
	const bool in = e.ts >= w_.from && e.ts <= w_.to;
	if (t.state == State::Running) {
		// woken before it had switched out: no latency, nothing queued
		if (e.kind == EventKind::Wakeup) {
			wakeups_of_running_ += in;
			if (in) {
				t.m.wakeups++;
				(e.cpu == e.target_cpu ? t.m.wakeups_local : t.m.wakeups_remote)++;
			}
		}
		t.woken_at = NONE;
		return;
	}
	if (e.kind == EventKind::Waking) {
		t.woken_at = e.ts;
		t.waker_cpu = e.cpu;
		t.wake_migrated = false;
		return;
	}
	if (t.woken_at == NONE) {
		t.woken_at = e.ts;
		t.waker_cpu = e.cpu;
	}
	if (t.runnable_since == NONE)
		t.runnable_since = t.woken_at;
	if (e.kind == EventKind::Wakeup && in && t.woken_at >= w_.from) {
		t.m.wakeups++;
		(t.waker_cpu == e.target_cpu ? t.m.wakeups_local : t.m.wakeups_remote)++;
		if (t.wake_migrated)
			t.m.wakeups_migrate++;
	}
	t.wake_migrated = false;
	t.state = State::Runnable;
	t.cpu = static_cast<int>(e.target_cpu);
}

void StatsBuilder::add(const Event& e, const ReadStats& rs)
{
	if (!any_) {
		first_ts_ = e.ts;
		any_ = true;
		w_.from = e.ts + std::min(w_.from, MAX_TIME_NS);
		if (w_.to != NONE)
			w_.to = e.ts + std::min(w_.to, MAX_TIME_NS);
	}
	if (e.ts > w_.to)
		return;
	last_ts_ = e.ts;
	CpuState& cs = cpu(e.cpu, rs.cpus());
	if (cs.curr >= 0 && e.kind != EventKind::Lost && e.context_pid != cs.curr)
		missed_switch(e);
	if (cs.curr < 0 && e.kind != EventKind::Lost) {
		// What a CPU runs before its first switch, it ran since the trace
		// began (its buffer holds every switch from then) unless the ring
		// buffer overwrote the start: then since this, its first line. The
		// line's context says what it was.
		cs.curr = e.context_pid;
		cs.since = rs.overwritten() || !rs.buffer_started.empty() ? e.ts : first_ts_;
		if (!is_idle(cs.curr))
			task(cs.curr, e.context_comm);
		observed_[e.cpu] = true;
	}
	switch (e.kind) {
	case EventKind::Switch:
		on_switch(e, rs);
		break;
	case EventKind::Waking:
	case EventKind::Wakeup:
	case EventKind::WakeupNew:
		on_wakeup(e);
		break;
	case EventKind::Migrate: {
		TaskState& t = task(e.pid, e.comm);
		cpu(e.dest_cpu, rs.cpus());
		if (e.ts >= w_.from)
			t.m.migrations++;
		if (t.state != State::Runnable && t.state != State::Running)
			t.wake_migrated = true;  // set_task_cpu() in try_to_wake_up()
		t.cpu = static_cast<int>(e.dest_cpu);
		break;
	}
	case EventKind::Fork:
		task(e.pid, e.comm);
		task(e.child_pid, e.child_comm);
		break;
	case EventKind::Exit:
		task(e.pid, e.comm);
		break;
	case EventKind::Lost:
		break;
	}
}

TraceMetrics StatsBuilder::finish(const ReadStats& rs)
{
	TraceMetrics out;
	const u64 end = w_.to != NONE ? w_.to : last_ts_;
	out.start_ns = any_ ? w_.from : 0;
	out.end_ns = end;
	cpu(0, rs.cpus());
	// what each CPU was running at the end ran until the end
	for (u32 c = 0; c < cpus_.size(); c++) {
		const CpuState& cs = cpus_[c];
		if (cs.curr >= 0)
			account(c, cs.curr, cs.since, end);
	}
	const size_t ncpu = cpus_.size();
	for (TaskState& t : tasks_) {
		if (ncpu > 1)
			t.m.cpu_ns_per_cpu.resize(ncpu);
		else
			t.m.cpu_ns_per_cpu.clear();  // as `eevdf sim` on one CPU
		out.tasks.push_back(std::move(t.m));
	}
	std::sort(out.tasks.begin(), out.tasks.end(), [](const TaskMetrics& a, const TaskMetrics& b) { return a.pid < b.pid; });
	out.cpus = cpu_m_;
	out.observed = observed_;
	out.unattributed_ns = unattributed_;
	out.missed_switches = missed_switches_;
	out.wakeups_of_running = wakeups_of_running_;
	return out;
}

TraceMetrics measure(Reader& r, Window w)
{
	StatsBuilder b(w);
	Event e;
	try {
		while (r.next(e)) {
			b.add(e, r.stats());
			if (b.past_window(e.ts))
				break;
		}
		return b.finish(r.stats());
	} catch (const TraceLimit& limit) {
		throw InputError(r.where() + limit.what());
	}
}

}  // namespace eevdf::trace
