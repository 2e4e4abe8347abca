// SPDX-License-Identifier: GPL-2.0-only
#include "trace/run_check.hpp"

#include <algorithm>

#include "model/proved_bounds.hpp"

namespace eevdf::trace {
namespace {

bool is_fair(int prio) { return prio >= 100 && prio <= 139; }
// run_whole_equal's cases: n = 2..10 tasks on the CPU, curr included.
constexpr size_t MAX_EQUAL_TASKS = 10;
int nice_of(int prio) { return prio - 120; }

}  // namespace

u64 weighted_run_bound(int nice_c, const std::vector<int>& others, const RunBoundParams& p, u64 resolution_ns)
{
	if (!weighted_case_proved(nice_c, others))
		return 0;
	std::vector<int> nices{nice_c};  // curr is entity 0
	nices.insert(nices.end(), others.begin(), others.end());
	const WeightedBounds b = weighted_bounds(nices, p.slice_ns, p.tick_ns + p.jitter_ns, InvWeight::Table);
	const u64 wc = b.w[0];
	// L_c = U_c + W sum_j w_j U_j / (W_o w_c), rounded up
	const unsigned __int128 Lc = b.run(0, true);
	// real time: L_c w_c / 1024, then calc_delta_fair's truncation
	unsigned __int128 real = (Lc * wc + 1023) / 1024;
	real += real >> 15;
	real += real / p.tick_ns + 2;
	return static_cast<u64>(real) + resolution_ns - 1 + p.tolerance_ns;
}

RunChecker::Task& RunChecker::task(int pid) { return tasks_[pid]; }

u64 RunChecker::slice(int pid)
{
	const u64 s = slice_of_ ? slice_of_(task(pid).comm, pid) : 0;
	return s ? s : p_.slice_ns;
}

RunChecker::Cpu& RunChecker::cpu(u32 c)
{
	if (cpus_.size() <= c)
		cpus_.resize(c + 1);
	return cpus_[c];
}

void RunChecker::waiting_changed(Cpu& c)
{
	if (c.curr <= 0)
		return;
	c.set_changed = true;
	if (c.waiting.empty())
		c.always_waiting = false;
	for (int pid : c.waiting) {
		if (task(pid).prio != 120)
			c.all_nice0 = false;
		if (slice(pid) != c.run_slice)
			c.same_slice = false;
	}
}

void RunChecker::join(u32 cn, int pid)
{
	Cpu& c = cpu(cn);
	if (std::find(c.waiting.begin(), c.waiting.end(), pid) == c.waiting.end() && is_fair(task(pid).prio)) {
		c.waiting.push_back(pid);
		waiting_changed(c);
	}
}

void RunChecker::leave(u32 cn, int pid)
{
	Cpu& c = cpu(cn);
	const auto it = std::find(c.waiting.begin(), c.waiting.end(), pid);
	if (it != c.waiting.end()) {
		c.waiting.erase(it);
		waiting_changed(c);
	}
}

void RunChecker::end_run(u32 cn, u64 ts)
{
	Cpu& c = cpu(cn);
	if (c.curr <= 0 || !c.run_known)
		return;
	if (c.since < from_ || ts > to_)
		return;
	const Task& t = task(c.curr);
	if (select_ && !select_(t.comm, c.curr))
		return;
	out_.runs++;
	auto skip = [&](const char* why) { out_.skipped[why]++; };
	if (c.lost)
		return skip("events of its CPU were lost during it");
	if (!is_fair(t.prio))
		return skip("not a fair-class task");
	if (c.waiting_at_pick.empty())
		return skip("no other task waited at its pick (a task alone on its CPU runs until another comes)");
	if (!c.always_waiting)
		return skip("its CPU's other tasks all left during it (woken elsewhere, pulled, or slept)");
	RunViolation v{BoundKind::Equal, t.comm, c.curr, cn, c.since, ts, 0, {}, {}};
	for (int pid : c.waiting_at_pick) {
		v.waiting_prios.push_back(task(pid).prio);
		v.waiting_pids.push_back(pid);
	}
	if (!c.same_slice)
		return skip("unequal slices (--task-slice): the bounds assume one slice on the CPU");
	// Both theorems are about a fixed set of hogs: a task that joins brings
	// a lag their invariants do not bound, one that leaves takes its own.
	if (c.set_changed)
		return skip(
			"the waiting tasks changed during it (a task joined or left: the bounds are for a fixed set)");
	const bool equal = t.prio == 120 && c.all_nice0;
	if (equal && c.waiting_at_pick.size() + 1 > MAX_EQUAL_TASKS)
		return skip("more than 10 nice-0 tasks on its CPU (run_whole_equal is proved for 2..10)");
	if (equal) {
		v.bound = out_.equal_bound - whole_run_bound(p_.slice_ns, p_.tick_ns, p_.jitter_ns) +
			  whole_run_bound(c.run_slice, p_.tick_ns, p_.jitter_ns);
		out_.checked_equal++;
		const u64 request = out_.request_bound - p_.slice_ns + c.run_slice;
		out_.longer_than_request += ts - c.since > request;
	} else {
		std::vector<int> others;
		for (int pr : v.waiting_prios)
			others.push_back(nice_of(pr));
		RunBoundParams p = p_;
		p.slice_ns = c.run_slice;
		v.bound = weighted_run_bound(nice_of(t.prio), others, p, resolution_);
		if (!v.bound)
			return skip("unequal weights outside run_weighted's cases (2..4 tasks at nice -20/-10/0/10/19)");
		v.kind = BoundKind::Weighted;
		out_.checked_weighted++;
	}
	const u64 len = ts - c.since;
	if (out_.closest_bound == 0 || static_cast<double>(len) / static_cast<double>(v.bound) >
					       static_cast<double>(out_.closest_length) / static_cast<double>(out_.closest_bound)) {
		out_.closest_length = len;
		out_.closest_bound = v.bound;
		out_.closest_kind = v.kind;
	}
	if (len > v.bound)
		out_.violations.push_back(std::move(v));
}

// The line's context ran on `cn` although the trace never switched to it:
// a missing sched_switch. The run in progress there is of unknown length,
// and the context task runs, so it waits nowhere.
void RunChecker::missed_switch(u32 cn, int pid)
{
	out_.missed_switches++;
	Task& t = task(pid);
	if (t.state == State::Waiting && t.cpu >= 0)
		leave(static_cast<u32>(t.cpu), pid);
	if (pid > 0) {
		t.state = State::Running;
		t.cpu = static_cast<int>(cn);
	}
	Cpu& c = cpu(cn);
	c.curr = pid;
	c.run_known = false;
}

void RunChecker::add(const Event& e, const ReadStats& rs)
{
	if (!started_) {
		started_ = true;
		resolution_ = rs.resolution_ns() ? rs.resolution_ns() : 1;
		from_ = e.ts + std::min(from_, MAX_TIME_NS);
		if (to_ != ~0ULL)
			to_ = e.ts + std::min(to_, MAX_TIME_NS);
		out_.equal_bound =
			whole_run_bound(p_.slice_ns, p_.tick_ns, p_.jitter_ns) + resolution_ - 1 + p_.tolerance_ns;
		out_.request_bound =
			request_bound(p_.slice_ns, p_.tick_ns, p_.jitter_ns) + resolution_ - 1 + p_.tolerance_ns;
	}
	Cpu& here = cpu(e.cpu);
	if (here.curr < 0 && e.kind != EventKind::Lost)
		here.curr = e.context_pid;
	else if (e.kind != EventKind::Lost && e.context_pid != here.curr)
		missed_switch(e.cpu, e.context_pid);
	switch (e.kind) {
	case EventKind::Switch: {
		Task& prev = task(e.prev_pid);
		prev.comm = e.prev_comm;
		prev.prio = e.prev_prio;
		end_run(e.cpu, e.ts);
		if (e.prev_pid > 0) {
			prev.cpu = static_cast<int>(e.cpu);
			if (e.prev_state == 'R') {
				prev.state = State::Waiting;
				cpu(e.cpu).curr = 0;  // the set changes below are not curr's
				join(e.cpu, e.prev_pid);
			} else {
				prev.state = State::Sleeping;
			}
		}
		Task& next = task(e.next_pid);
		next.comm = e.next_comm;
		next.prio = e.next_prio;
		Cpu& c = cpu(e.cpu);
		c.curr = 0;
		if (e.next_pid > 0) {
			if (next.state == State::Waiting && next.cpu >= 0)
				leave(static_cast<u32>(next.cpu), e.next_pid);
			next.state = State::Running;
			next.cpu = static_cast<int>(e.cpu);
		}
		c.curr = e.next_pid;
		c.since = e.ts;
		c.run_known = true;
		c.lost = false;
		c.set_changed = false;
		c.waiting_at_pick = c.waiting;
		c.always_waiting = !c.waiting.empty();
		c.all_nice0 = true;
		c.run_slice = e.next_pid > 0 ? slice(e.next_pid) : p_.slice_ns;
		c.same_slice = true;
		for (int pid : c.waiting) {
			if (task(pid).prio != 120)
				c.all_nice0 = false;
			if (slice(pid) != c.run_slice)
				c.same_slice = false;
		}
		break;
	}
	case EventKind::Wakeup:
	case EventKind::WakeupNew: {
		Task& t = task(e.pid);
		t.comm = e.comm;
		t.prio = e.prio;
		if (t.state == State::Running)
			break;
		if (t.state == State::Waiting && t.cpu >= 0)
			leave(static_cast<u32>(t.cpu), e.pid);
		t.state = State::Waiting;
		t.cpu = static_cast<int>(e.target_cpu);
		join(e.target_cpu, e.pid);
		break;
	}
	case EventKind::Migrate: {
		Task& t = task(e.pid);
		t.prio = e.prio;
		if (t.state == State::Waiting) {
			leave(e.orig_cpu, e.pid);
			join(e.dest_cpu, e.pid);
		}
		t.cpu = static_cast<int>(e.dest_cpu);
		break;
	}
	case EventKind::Exit: {
		Task& t = task(e.pid);
		if (t.state == State::Waiting && t.cpu >= 0)
			leave(static_cast<u32>(t.cpu), e.pid);
		break;
	}
	case EventKind::Lost:
		cpu(e.cpu).lost = true;
		break;
	case EventKind::Waking:
	case EventKind::Fork:
		break;
	}
}

RunCheck RunChecker::finish(const ReadStats&) { return out_; }

}  // namespace eevdf::trace
