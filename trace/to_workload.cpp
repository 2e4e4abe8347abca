// SPDX-License-Identifier: GPL-2.0-only
#include "trace/to_workload.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "io/input_error.hpp"
#include "io/rtapp.hpp"
#include "model/cpumask.hpp"

namespace eevdf::trace {
namespace {

constexpr u64 NONE = ~0ULL;

// What a task did, in trace order, before the selection is known (a comm
// may change at exec, and the waker's selection decides a sleep's form).
struct Item {
	enum Kind { Burst, Sleep, Wake } kind;
	u64 ns = 0;     // Burst, Sleep
	int pid = 0;    // Sleep: the waker (0: none in task context); Wake: the wakee
};

struct Task {
	std::string comm;
	int prio = 120;
	bool seen_running = false;
	u64 start = 0;               // its creation time (a fork), or the trace's start
	bool running = false;
	u64 since = 0;               // the current stretch on a CPU began
	u64 burst = 0;               // CPU time of the burst so far, without the current stretch
	bool sleeping = false;
	u64 sleep_start = 0;
	bool exited = false;
	bool woken = false;          // a waking was seen for the current sleep
	u64 woken_at = NONE;         // its last sched_waking/sched_wakeup
	std::map<u32, u64> cpu_ns_on;  // CPU time on each CPU
	std::vector<Item> items;
	u64 cpu_ns = 0;
	int on_cpu = -1;               // where the current stretch runs

	void ran(u64 ns)
	{
		cpu_ns += ns;
		if (on_cpu >= 0)
			cpu_ns_on[static_cast<u32>(on_cpu)] += ns;
	}

	// The current stretch on a CPU lasted until `ts`: its time joins the burst.
	void stretch_until(u64 ts)
	{
		burst += ts - since;
		ran(ts - since);
	}

	void flush_burst()
	{
		if (burst)
			items.push_back({Item::Burst, burst, 0});
		burst = 0;
	}
};

u64 round_us(u64 ns) { return (ns + 500) / 1000 * 1000; }

// "COMM-PID" in printable ASCII: a comm is bytes (the kernel cuts it at 15,
// which can split a UTF-8 character), a workload name is JSON text.
std::string task_name(const std::string& comm, int pid)
{
	std::string n = comm;
	for (char& c : n)
		if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e)
			c = '_';
	return n + "-" + std::to_string(pid);
}

}  // namespace

ToWorkloadResult to_workload(Reader& r, const ToWorkloadOptions& o)
{
	std::map<int, Task> tasks;
	std::map<u32, int> running;  // per CPU
	u64 first = NONE, last = 0;
	Event e;
	// What a CPU runs before its first line, it ran since the trace began,
	// unless the ring buffer overwrote the start: then since that line (as
	// `trace stats` counts it).
	auto cpu_start = [&](u64 ts) {
		return r.stats().overwritten() || !r.stats().buffer_started.empty() ? ts : first;
	};
	auto get = [&](int pid, const std::string& comm) -> Task& {
		auto [it, fresh] = tasks.try_emplace(pid);
		if (fresh)
			it->second.start = first;
		if (!comm.empty() && comm != "<...>" && comm != it->second.comm) {
			// a new comm: an exec (or prctl); the CPUs it runs on count from here
			it->second.comm = comm;
			it->second.cpu_ns_on.clear();
		}
		return it->second;
	};
	// `pid` woken at `ts` by the task running on the waking line's CPU
	// (`context`, 0 when none or in an interrupt)
	auto woken = [&](int pid, u64 ts, int context) {
		Task& t = tasks[pid];
		if (!t.sleeping || t.woken)
			return;
		t.woken = true;
		int waker = 0;
		if (!is_idle(context) && context != pid) {
			auto w = tasks.find(context);
			if (w != tasks.end() && w->second.running) {
				Task& wt = w->second;
				wt.stretch_until(ts);
				wt.since = ts;
				wt.flush_burst();
				wt.items.push_back({Item::Wake, 0, pid});
				waker = context;
			}
		}
		t.items.push_back({Item::Sleep, ts - t.sleep_start, waker});
		t.sleeping = false;
	};
	auto wake_event = [&](const Event& ev) {
		Task& t = get(ev.pid, ev.comm);
		t.prio = ev.prio;
		t.woken_at = ev.ts;
		woken(ev.pid, ev.ts, in_irq(ev) ? 0 : ev.context_pid);
	};
	// `pid` starts a stretch on `cpu` at `ts` (nullptr for the idle task)
	auto switch_in = [&](u32 cpu, int pid, const std::string& comm, u64 ts) -> Task* {
		running[cpu] = pid;
		if (is_idle(pid))
			return nullptr;
		Task& n = get(pid, comm);
		if (n.sleeping)  // its wake-up was not in the trace
			woken(pid, ts, 0);
		n.running = true;
		n.seen_running = true;
		n.since = ts;
		n.on_cpu = static_cast<int>(cpu);
		return &n;
	};
	// The line's context is not `was`, what its CPU last switched to: that
	// switch is missing (docs/trace.md). As `trace stats` counts it
	// (StatsBuilder::missed_switch), `was` ran until the context task's
	// wake-up if that came later, else no longer: the rest of its stretch is
	// unattributed, not a burst to the end of the trace. It is left runnable
	// (its burst open); the context task runs from here.
	auto missed_switch = [&](const Event& ev, int was) {
		const auto gone = tasks.find(was);
		if (!is_idle(was) && gone != tasks.end() && gone->second.running && gone->second.on_cpu == static_cast<int>(ev.cpu)) {
			Task& g = gone->second;
			u64 until = g.since;
			const auto ctx = tasks.find(ev.context_pid);
			if (ctx != tasks.end() && ctx->second.woken_at != NONE && ctx->second.woken_at > g.since &&
			    ctx->second.woken_at <= ev.ts)
				until = ctx->second.woken_at;
			g.stretch_until(until);
			g.running = false;
		}
		switch_in(ev.cpu, ev.context_pid, ev.context_comm, ev.ts);
	};
	// Every task's bursts and sleeps are held until the selection is known:
	// bounded by the events read (a few items each) and the tasks.
	u64 events = 0;
	while (r.next(e)) {
		if (++events > MAX_TRACE_EVENTS_TO_WORKLOAD)
			throw InputError(r.where() + "more than " + std::to_string(MAX_TRACE_EVENTS_TO_WORKLOAD) +
					 " sched events to turn into a workload (an rt-app file holds at most " +
					 std::to_string(RTAPP_MAX_EVENTS) + " events): cut the trace to the part to replay");
		if (tasks.size() > MAX_TRACE_TASKS)
			throw InputError(r.where() + "more than " + std::to_string(MAX_TRACE_TASKS) + " tasks (distinct pids) in the trace");
		if (first == NONE)
			first = e.ts;
		last = e.ts;
		if (auto c = running.find(e.cpu); c != running.end() && e.kind != EventKind::Lost && c->second != e.context_pid)
			missed_switch(e, c->second);
		if (!running.count(e.cpu) && e.kind != EventKind::Lost && !is_idle(e.context_pid)) {
			running[e.cpu] = e.context_pid;  // it ran since the start
			Task& t = get(e.context_pid, e.context_comm);
			if (!t.running && !t.sleeping && t.items.empty() && !t.burst) {
				t.running = true;
				t.since = cpu_start(e.ts);
				t.on_cpu = static_cast<int>(e.cpu);
			}
		}
		switch (e.kind) {
		case EventKind::Switch: {
			if (!is_idle(e.prev_pid)) {
				Task& p = get(e.prev_pid, e.prev_comm);
				p.prio = e.prev_prio;
				if (!p.running && !p.sleeping && p.items.empty() && !p.burst) {
					p.since = cpu_start(e.ts);  // running since the trace began
					p.running = true;
				}
				p.on_cpu = static_cast<int>(e.cpu);
				if (p.running) {
					p.stretch_until(e.ts);
				}
				p.running = false;
				if (e.prev_state != 'R') {
					p.flush_burst();
					if (e.prev_state == 'X' || e.prev_state == 'Z') {
						p.exited = true;
					} else {
						p.sleeping = true;
						p.woken = false;
						p.sleep_start = e.ts;
					}
				}
			}
			if (Task* n = switch_in(e.cpu, e.next_pid, e.next_comm, e.ts))
				n->prio = e.next_prio;
			break;
		}
		case EventKind::Waking:
		case EventKind::Wakeup:
			wake_event(e);
			break;
		case EventKind::WakeupNew: {
			Task& t = get(e.pid, e.comm);
			t.prio = e.prio;
			if (t.items.empty() && !t.burst && !t.running) {
				t.start = e.ts;
				t.sleeping = false;
			}
			break;
		}
		case EventKind::Fork: {
			Task& c = get(e.child_pid, e.child_comm);
			c.start = e.ts;
			break;
		}
		case EventKind::Exit:
		case EventKind::Migrate:
		case EventKind::Lost:
			break;
		}
		// a task first seen being woken was asleep since the start
		if ((e.kind == EventKind::Waking || e.kind == EventKind::Wakeup) && tasks.count(e.pid)) {
			Task& t = tasks[e.pid];
			if (t.items.empty() && !t.running && !t.sleeping && !t.burst && t.start == first && !t.seen_running &&
			    !t.woken) {
				t.items.push_back({Item::Sleep, e.ts - first, 0});
				t.woken = true;
			}
		}
	}
	ToWorkloadResult out;
	if (first == NONE)
		return out;
	for (auto& [pid, t] : tasks) {
		if (t.running) {
			t.stretch_until(last);
			t.running = false;
		}
		t.flush_burst();
		if (t.sleeping && !t.exited)
			t.items.push_back({Item::Sleep, last - t.sleep_start, 0});
	}
	const u32 ncpu = r.stats().cpus();
	std::set<int> selected;
	for (auto& [pid, t] : tasks) {
		const std::string id = task_name(t.comm, pid);
		if (o.select && !o.select(t.comm, pid))
			continue;
		if (t.prio < 100) {
			out.left_out.push_back(id + ": an RT task (prio " + std::to_string(t.prio) + "); the model is the fair class");
			continue;
		}
		if (t.prio > 139) {
			out.left_out.push_back(id + ": prio " + std::to_string(t.prio) + " is no fair-class prio");
			continue;
		}
		if (!t.cpu_ns) {
			out.left_out.push_back(id + ": never ran in the trace");
			continue;
		}
		selected.insert(pid);
	}
	if (selected.size() > RTAPP_MAX_THREADS)
		throw InputError(r.file() + ": " + std::to_string(selected.size()) + " tasks to replay, more than the " +
				 std::to_string(RTAPP_MAX_THREADS) +
				 " threads an rt-app file may hold (eevdf sim would refuse the file); choose tasks with --task");
	Workload& w = out.workload;
	w.duration = round_us(last - first);
	size_t nevents = 0;
	for (int pid : selected) {
		const Task& t = tasks[pid];
		TaskSpec s;
		s.name = task_name(t.comm, pid);
		s.nice = t.prio - 120;
		s.delay = round_us(t.start - first);
		s.loop = 1;
		// The CPUs it ran on since its last exec (taskset pins itself,
		// then execs the program): an inference, not its mask.
		if (o.affinity && !t.cpu_ns_on.empty() && t.cpu_ns_on.size() < ncpu) {
			for (const auto& [c, ns] : t.cpu_ns_on)
				s.cpus.push_back(c);
			if (s.cpus.back() >= MAX_CPUS) {  // the model's CPUs end there
				out.left_out.push_back(s.name + ": its CPUs (up to " + std::to_string(s.cpus.back()) +
						       ") as affinity, past the model's " + std::to_string(MAX_CPUS));
				s.cpus.clear();
			}
		}
		Phase ph;
		ph.name = "trace";
		ph.loop = 1;
		u64 run = 0;
		auto flush = [&] {
			if (round_us(run))
				ph.events.push_back(eevdf::Event{eevdf::Event::Kind::Run, round_us(run), -1, 0});
			run = 0;
		};
		for (const Item& it : t.items) {
			switch (it.kind) {
			case Item::Burst:
				run += it.ns;
				break;
			case Item::Wake:
				if (!o.resume || !selected.count(it.pid))
					break;  // a wakee that is not replayed: the burst goes on
				flush();
				ph.events.push_back(eevdf::Event{eevdf::Event::Kind::Resume, 0, w.ref(task_name(tasks[it.pid].comm, it.pid)), 0});
				break;
			case Item::Sleep:
				flush();
				if (o.resume && it.pid && selected.count(it.pid)) {
					ph.events.push_back(eevdf::Event{eevdf::Event::Kind::Suspend, 0, w.ref(s.name), 0});
					out.suspends++;
				} else if (round_us(it.ns)) {
					ph.events.push_back(eevdf::Event{eevdf::Event::Kind::Sleep, round_us(it.ns), -1, 0});
					out.timed_sleeps++;
				}
				break;
			}
		}
		flush();
		nevents += ph.events.size();
		if (nevents > RTAPP_MAX_EVENTS)
			throw InputError(r.file() + ": the tasks' bursts and sleeps make more than " +
					 std::to_string(RTAPP_MAX_EVENTS) +
					 " events, more than an rt-app file may hold (eevdf sim would refuse the file); choose "
					 "tasks with --task or cut the trace");
		s.phases.push_back(std::move(ph));
		w.tasks.push_back(std::move(s));
		out.pids.push_back(pid);
	}
	return out;
}

}  // namespace eevdf::trace
