// SPDX-License-Identifier: GPL-2.0-only
#include "report/deadlock.hpp"

#include <algorithm>
#include <cstdio>

#include "model/simulation.hpp"

namespace eevdf::cli {
namespace {

using K = Event::Kind;

// The event at the task's program counter, if its program has not ended.
const Event* at_pc(const Task& t)
{
	const std::vector<Phase>& ph = t.spec->phases;
	if (t.phase >= ph.size() || t.event >= ph[t.phase].events.size())
		return nullptr;
	return &ph[t.phase].events[t.event];
}

// 1 when the last lock, unlock or condition wait of mutex `ref` among the
// first `end` events of `p` is a lock, 0 when it releases it, -1 when
// there is none.
int last_mutex_op(const Phase& p, size_t end, int ref)
{
	for (size_t i = end; i-- > 0;) {
		const Event& e = p.events[i];
		if (e.kind == K::MutexLock && e.ref == ref)
			return 1;
		if ((e.kind == K::MutexUnlock && e.ref == ref) || (e.kind == K::CondWait && e.value == ref))
			return 0;
	}
	return -1;
}

// Whether the task holds mutex `ref` at its program counter: the last of
// its locks and unlocks of it before the counter, going back through the
// current pass, the phase's previous pass, the earlier phases and the
// task's previous loop. A forever phase does not count its passes
// (advance_pc()), so its previous pass is taken as made.
bool holds(const Task& t, int ref)
{
	const std::vector<Phase>& ph = t.spec->phases;
	const size_t cur = std::min(t.phase, ph.size());
	if (cur < ph.size()) {
		if (const int r = last_mutex_op(ph[cur], t.event, ref); r >= 0)
			return r;
		if (ph[cur].loop == LOOP_FOREVER || t.phase_iter > 0)
			if (const int r = last_mutex_op(ph[cur], ph[cur].events.size(), ref); r >= 0)
				return r;
	}
	for (size_t i = cur; i-- > 0;)
		if (const int r = last_mutex_op(ph[i], ph[i].events.size(), ref); r >= 0)
			return r;
	if (t.task_iter > 0)
		for (size_t i = ph.size(); i-- > cur;)
			if (const int r = last_mutex_op(ph[i], ph[i].events.size(), ref); r >= 0)
				return r;
	return false;
}

// Calls `f` on each event the task's program can still reach from its
// counter: the current phase only when it loops forever, else the phases
// from the current one (up to a forever one), and all when the task loops
// again.
template <class F>
void reachable_events(const Task& t, F f)
{
	if (t.state == TaskState::Exited)
		return;
	const std::vector<Phase>& ph = t.spec->phases;
	if (t.phase >= ph.size())
		return;
	const bool again = t.spec->loop == LOOP_FOREVER || t.task_iter + 1 < t.spec->loop;
	for (size_t n = 0, i = t.phase; n < ph.size() && (again || i >= t.phase); n++, i = (i + 1) % ph.size()) {
		for (const Event& e : ph[i].events)
			f(e);
		if (ph[i].loop == LOOP_FOREVER)
			return;
	}
}

enum class Wait { None, Mutex, Barrier, Futex, Condition, Unknown };

Wait wait_kind(const Task& t, size_t refs)
{
	if (t.state != TaskState::Suspended)
		return Wait::None;
	if (t.suspended_on < 0 || static_cast<size_t>(t.suspended_on) >= refs)
		return Wait::Unknown;  // no resource to follow: taken as released
	const Event* e = at_pc(t);
	if (e && e->ref == t.suspended_on) {
		if (e->kind == K::MutexLock)
			return Wait::Mutex;
		if (e->kind == K::Barrier)
			return Wait::Barrier;
		if (e->kind == K::FutexWait)
			return Wait::Futex;
	}
	return Wait::Condition;  // a condition wait or rt-app's suspend, woken by a signal or resume
}

}  // namespace

std::optional<Deadlock> DeadlockWatch::find(const Simulation& sim, const std::vector<int>& pids) const
{
	const std::vector<Task>& tasks = sim.tasks();
	const std::vector<std::string>& refs = sim.workload().refs;
	const size_t n = tasks.size();
	std::vector<Wait> kind(n);
	size_t alive = 0, waiting = 0;
	for (size_t i = 0; i < n; i++) {
		kind[i] = wait_kind(tasks[i], refs.size());
		alive += tasks[i].state != TaskState::Exited;
		waiting += kind[i] != Wait::None;
	}
	if (!waiting)
		return std::nullopt;

	// Who holds each mutex waited on.
	std::vector<int> holder(refs.size(), -1);
	for (size_t i = 0; i < n; i++)
		if (kind[i] == Wait::Mutex && holder[static_cast<size_t>(tasks[i].suspended_on)] < 0) {
			const int ref = tasks[i].suspended_on;
			for (size_t h = 0; h < n; h++)
				if (h != i && holds(tasks[h], ref)) {
					holder[static_cast<size_t>(ref)] = static_cast<int>(h);
					break;
				}
		}

	// The tasks that can never run again: the greatest set in which each
	// waits on what only a task of the set (or one that exited) releases.
	// Every task still alive waiting is a whole deadlock, the kind this
	// always reported; otherwise start from every waiter and take out
	// those a task outside the set may still release.
	std::vector<char> stuck(n);
	for (size_t i = 0; i < n; i++)
		stuck[i] = kind[i] != Wait::None;
	const bool whole = waiting == alive;
	for (bool changed = !whole; changed;) {
		changed = false;
		// What the tasks outside the set can still reach: signals and
		// resumes of each condition, and for each barrier whether every
		// thread that names it waits there or can still get there.
		std::vector<char> signalled(refs.size()), barrier_ok(refs.size(), 1);
		for (size_t i = 0; i < n; i++) {
			const Task& t = tasks[i];
			std::vector<int> reached;
			if (!stuck[i])
				reachable_events(t, [&](const Event& e) {
					if ((e.kind == K::CondSignal || e.kind == K::Resume) && e.ref >= 0)
						signalled[static_cast<size_t>(e.ref)] = 1;
					if (e.kind == K::Barrier && e.ref >= 0)
						reached.push_back(e.ref);
				});
			for (const Phase& p : t.spec->phases)
				for (const Event& e : p.events)
					if (e.kind == K::Barrier && e.ref >= 0 &&
					    !(kind[i] == Wait::Barrier && t.suspended_on == e.ref) &&
					    std::find(reached.begin(), reached.end(), e.ref) == reached.end())
						barrier_ok[static_cast<size_t>(e.ref)] = 0;
		}
		for (size_t i = 0; i < n; i++) {
			if (!stuck[i])
				continue;
			const size_t ref = static_cast<size_t>(tasks[i].suspended_on);
			bool released = true;
			switch (kind[i]) {
			case Wait::Mutex: {
				const int h = holder[ref];
				released = h < 0 || (!stuck[static_cast<size_t>(h)] &&
						     tasks[static_cast<size_t>(h)].state != TaskState::Exited);
				break;
			}
			case Wait::Barrier:
				released = barrier_ok[ref];
				break;
			case Wait::Condition:
				released = signalled[ref];
				break;
			case Wait::Futex:  // schbench's words: posted by lists the program builds as it runs
			case Wait::Unknown:
			case Wait::None:
				break;
			}
			if (released) {
				stuck[i] = 0;
				changed = true;
			}
		}
	}

	Deadlock d;
	d.partial = !whole;
	d.alive = alive;
	for (size_t i = 0; i < n; i++) {
		if (!stuck[i])
			continue;
		const Task& t = tasks[i];
		const bool named = t.suspended_on >= 0 && static_cast<size_t>(t.suspended_on) < refs.size();
		Deadlock::Waiter w{t.spec->name, i < pids.size() ? pids[i] : 0,
				   named ? refs[static_cast<size_t>(t.suspended_on)] : "(unnamed)", std::nullopt, 0};
		if (kind[i] == Wait::Mutex && named)
			if (const int h = holder[static_cast<size_t>(t.suspended_on)]; h >= 0) {
				w.held_by = tasks[static_cast<size_t>(h)].spec->name;
				w.held_by_pid = static_cast<size_t>(h) < pids.size() ? pids[static_cast<size_t>(h)] : 0;
			}
		d.waiting.push_back(std::move(w));
		if (d.partial && i < blocked_at_.size())
			d.since_ns = std::max(d.since_ns, blocked_at_[i]);
	}
	if (d.waiting.empty())
		return std::nullopt;
	if (!d.partial)
		d.since_ns = last_block_ns_;
	return d;
}

std::string describe(const Deadlock& d)
{
	char at[48];
	std::snprintf(at, sizeof at, "%.3f ms", static_cast<double>(d.since_ns) / 1e6);
	std::string s = "deadlock from " + std::string(at) + ": ";
	if (d.partial)
		s += std::to_string(d.waiting.size()) + " of " + std::to_string(d.alive) +
		     " tasks can never run again (the others run on); waiting: ";
	else
		s += "no task can run again; waiting: ";
	for (size_t i = 0; i < d.waiting.size(); i++) {
		const Deadlock::Waiter& w = d.waiting[i];
		s += (i ? ", '" : "'") + w.task + "' (pid " + std::to_string(w.pid) + ") on " + w.on;
		if (w.held_by)
			s += " held by '" + *w.held_by + "' (pid " + std::to_string(w.held_by_pid) + ")";
	}
	return s;
}

}  // namespace eevdf::cli
