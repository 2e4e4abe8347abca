// SPDX-License-Identifier: GPL-2.0-only
#include "smp_analysis.hpp"

#include <algorithm>
#include <cstdint>

namespace probe {
namespace {

constexpr int kUnknown = -2;  // no switch seen on the CPU yet

enum class Who { Scenario, Probe, Foreign, Idle };

struct Iv {
	i64 s = 0, e = 0;
	int cpu = -1, pid = -1, task = -1;
	Who who = Who::Foreign;
	bool trunc_s = false, trunc_e = false;
	char end_state = '?';
};

enum class State { Unknown, Running, Runnable, Sleeping };

struct Pending {
	bool active = false;
	SmpWake w;
};

}  // namespace

SmpAnalysis analyse_smp(const TraceData &td, const std::vector<int> &tids, const std::vector<int> &probe_pids,
			int ncpus, i64 t0, i64 t1, i64 share_window, const std::vector<std::pair<int, int>> &more_pids)
{
	SmpAnalysis a;
	a.ncpus = ncpus;
	a.trace_entries = td.entries_in_buffer;
	a.trace_written = td.entries_written;
	a.unparsed = td.unparsed;
	const size_t nt = tids.size();
	a.tasks.assign(nt, {});
	for (auto &t : a.tasks)
		t.cpu_ns_per_cpu.assign(size_t(ncpus), 0);
	a.cpus.assign(size_t(ncpus), {});
	std::map<int, int> task_of_pid;
	for (size_t i = 0; i < nt; ++i)
		if (tids[i] > 0)
			task_of_pid[tids[i]] = int(i);
	for (const auto &[pid, i] : more_pids)
		task_of_pid[pid] = i;
	auto task_of = [&](int pid) {
		auto it = task_of_pid.find(pid);
		return it == task_of_pid.end() ? -1 : it->second;
	};
	auto who_of = [&](int pid) {
		if (pid == 0)
			return Who::Idle;
		if (task_of(pid) >= 0)
			return Who::Scenario;
		if (std::find(probe_pids.begin(), probe_pids.end(), pid) != probe_pids.end())
			return Who::Probe;
		return Who::Foreign;
	};
	auto in_window = [&](i64 ts) { return ts >= t0 && ts < t1; };

	const i64 first_ts = td.evs.empty() ? t0 : td.evs.front().ts;
	std::vector<int> cur(size_t(ncpus), kUnknown);
	std::vector<i64> since(size_t(ncpus), first_ts);
	std::vector<State> state(nt, State::Unknown);
	std::vector<std::string> last_out_to(nt);  // next_comm of the task's last switch-out
	std::vector<Pending> pending(nt);
	std::vector<Iv> ivs;
	std::map<int, std::string> comm_of;

	auto close = [&](int pid, int cpu, i64 s, i64 e, bool trunc_s, char st) {
		Iv iv;
		iv.s = s;
		iv.e = e;
		iv.cpu = cpu;
		iv.pid = pid;
		iv.task = task_of(pid);
		iv.who = who_of(pid);
		iv.trunc_s = trunc_s;
		iv.end_state = st;
		ivs.push_back(iv);
	};
	auto idle_mask = [&]() {
		std::uint64_t m = 0;
		for (int c = 0; c < ncpus && c < 64; ++c)
			if (cur[size_t(c)] == 0)
				m |= std::uint64_t(1) << c;
		return m;
	};
	std::vector<std::uint64_t> idle_at_waking(nt, 0);
	// Waiting behind outside tasks: where each task is queued (runnable, not
	// running), and since when that CPU runs an outside task while it is.
	std::vector<int> queued_on(nt, -1);
	std::vector<i64> other_since(nt, -1);
	auto other_runs = [&](int cpu) {
		const int pid = cur[size_t(cpu)];
		return pid != kUnknown && pid != 0 && task_of(pid) < 0;
	};
	std::vector<i64> cpu_other_since(size_t(ncpus), -1);
	auto settle = [&](i64 now) {
		for (int c = 0; c < ncpus; ++c) {
			bool waiting = false;
			for (size_t i = 0; i < nt; ++i)
				waiting = waiting || queued_on[i] == c;
			waiting = waiting && other_runs(c);
			i64 &since_c = cpu_other_since[size_t(c)];
			if (waiting && since_c < 0) {
				since_c = now;
			} else if (!waiting && since_c >= 0) {
				const i64 s = std::max(since_c, t0), e = std::min(now, t1);
				if (e > s)
					a.cpus[size_t(c)].other_wait_ns += e - s;
				since_c = -1;
			}
		}
		for (size_t i = 0; i < nt; ++i) {
			const bool waiting = queued_on[i] >= 0 && other_runs(queued_on[i]);
			if (waiting && other_since[i] < 0) {
				other_since[i] = now;
			} else if (!waiting && other_since[i] >= 0) {
				const i64 s = std::max(other_since[i], t0), e = std::min(now, t1);
				if (e > s)
					a.tasks[i].other_wait_ns += e - s;
				other_since[i] = -1;
			}
		}
	};

	std::vector<i64> last_ts(size_t(ncpus), first_ts);
	for (const TraceEv &ev : td.evs) {
		if (ev.cpu < 0 || ev.cpu >= ncpus)
			continue;
		const size_t c = size_t(ev.cpu);
		if (cur[c] != kUnknown && ev.cur_pid >= 0 && ev.cur_pid != cur[c]) {
			// A switch the trace does not show: what ran last ends at the
			// CPU's previous event, and the line's task runs from there (the
			// tasks seen so are switched in and out within microseconds).
			close(cur[c], ev.cpu, since[c], last_ts[c], false, '?');
			if (int p = task_of(cur[c]); p >= 0) {
				state[size_t(p)] = State::Runnable;
				queued_on[size_t(p)] = -1;
			}
			if (in_window(ev.ts))
				a.untraced_switches++;
			cur[c] = ev.cur_pid;
			since[c] = last_ts[c];
			if (int n = task_of(ev.cur_pid); n >= 0) {
				state[size_t(n)] = State::Running;
				queued_on[size_t(n)] = -1;
				// A wake-up it was switched in for: where it ran is known,
				// its latency is not.
				Pending &pw = pending[size_t(n)];
				if (pw.active) {
					pw.w.run_cpu = ev.cpu;
					if (in_window(pw.w.waking))
						a.tasks[size_t(n)].wakes.push_back(pw.w);
					pw.active = false;
				}
			}
			settle(last_ts[c]);
		}
		last_ts[c] = ev.ts;
		switch (ev.kind) {
		case TraceEv::Timer:
			if (in_window(ev.ts))
				a.cpus[c].timer_irqs++;
			break;
		case TraceEv::Switch: {
			const bool unknown = cur[c] == kUnknown;
			close(ev.prev_pid, ev.cpu, unknown ? first_ts : since[c], ev.ts, unknown, ev.prev_state);
			if (!ev.prev_comm.empty())
				comm_of[ev.prev_pid] = ev.prev_comm;
			comm_of[ev.next_pid] = ev.next_comm;
			if (in_window(ev.ts))
				a.cpus[c].switches++;
			if (int p = task_of(ev.prev_pid); p >= 0) {
				state[size_t(p)] = ev.prev_state == 'R' ? State::Runnable : State::Sleeping;
				last_out_to[size_t(p)] = ev.next_comm;
				queued_on[size_t(p)] = ev.prev_state == 'R' ? ev.cpu : -1;
			}
			cur[c] = ev.next_pid;
			since[c] = ev.ts;
			if (int n = task_of(ev.next_pid); n >= 0) {
				state[size_t(n)] = State::Running;
				queued_on[size_t(n)] = -1;
				Pending &pw = pending[size_t(n)];
				if (pw.active) {
					pw.w.in = ev.ts;
					pw.w.run_cpu = ev.cpu;
					if (in_window(pw.w.waking))
						a.tasks[size_t(n)].wakes.push_back(pw.w);
					pw.active = false;
				}
			}
			break;
		}
		case TraceEv::Waking: {
			const int p = task_of(ev.pid);
			if (p < 0)
				break;
			if (state[size_t(p)] == State::Running || state[size_t(p)] == State::Runnable) {
				if (in_window(ev.ts))
					a.tasks[size_t(p)].wakes_while_runnable++;
				break;
			}
			Pending &pw = pending[size_t(p)];
			pw.active = true;
			pw.w = SmpWake{};
			pw.w.waking = ev.ts;
			pw.w.waker_cpu = ev.cpu;
			pw.w.prev_cpu = ev.target_cpu;
			idle_at_waking[size_t(p)] = idle_mask();
			if (ev.target_cpu >= 0 && ev.target_cpu < 64)
				pw.w.prev_idle = (idle_at_waking[size_t(p)] >> ev.target_cpu) & 1;
			break;
		}
		case TraceEv::Wakeup: {
			const int p = task_of(ev.pid);
			if (p < 0 || !pending[size_t(p)].active || pending[size_t(p)].w.wakeup >= 0)
				break;
			SmpWake &w = pending[size_t(p)].w;
			w.wakeup = ev.ts;
			if (state[size_t(p)] != State::Running)
				queued_on[size_t(p)] = ev.target_cpu;
			w.target_cpu = ev.target_cpu;
			if (ev.target_cpu >= 0 && ev.target_cpu < 64)
				w.target_idle = (idle_at_waking[size_t(p)] >> ev.target_cpu) & 1;
			break;
		}
		case TraceEv::Migrate: {
			const int p = task_of(ev.pid);
			if (p >= 0 && queued_on[size_t(p)] >= 0)
				queued_on[size_t(p)] = ev.dest_cpu;
			if (p < 0 || !in_window(ev.ts))
				break;
			SmpMigration m;
			m.ts = ev.ts;
			m.from = ev.orig_cpu;
			m.to = ev.dest_cpu;
			const Pending &pw = pending[size_t(p)];
			if (pw.active && pw.w.wakeup < 0)
				m.cause = SmpMigration::Wakeup;
			else if (last_out_to[size_t(p)].rfind("migration/", 0) == 0)
				m.cause = SmpMigration::Active;
			else
				m.cause = SmpMigration::Balance;
			m.by_idle_cpu = ev.cpu == ev.dest_cpu && cur[c] == 0;
			a.tasks[size_t(p)].migrations.push_back(m);
			break;
		}
		}
		settle(ev.ts);
	}
	for (size_t i = 0; i < nt; ++i)
		queued_on[i] = -1;
	settle(t1);
	for (int c = 0; c < ncpus; ++c)
		if (cur[size_t(c)] != kUnknown) {
			close(cur[size_t(c)], c, since[size_t(c)], t1 + 1, false, '?');
			ivs.back().trunc_e = true;
		}

	// Clip to the window; account per CPU and per task.
	std::vector<Iv> win;
	std::map<int, std::pair<i64, size_t>> foreign;
	for (Iv iv : ivs) {
		if (iv.e <= t0 || iv.s >= t1)
			continue;
		if (iv.s < t0) {
			iv.s = t0;
			iv.trunc_s = true;
		}
		if (iv.e > t1) {
			iv.e = t1;
			iv.trunc_e = true;
		}
		const i64 len = iv.e - iv.s;
		SmpCpuStats &cs = a.cpus[size_t(iv.cpu)];
		switch (iv.who) {
		case Who::Idle:
			cs.idle_ns += len;
			break;
		case Who::Scenario: {
			cs.scenario_ns += len;
			SmpTaskStats &ts = a.tasks[size_t(iv.task)];
			ts.cpu_ns += len;
			ts.cpu_ns_per_cpu[size_t(iv.cpu)] += len;
			if (!iv.trunc_s && !iv.trunc_e)
				ts.runs.push_back(len);
			if (!iv.trunc_e)
				(iv.end_state == 'R' ? ts.preempted : ts.blocked)++;
			break;
		}
		case Who::Probe:
			cs.probe_ns += len;
			break;
		case Who::Foreign:
			cs.foreign_ns += len;
			a.foreign_runs++;
			a.foreign_ns += len;
			foreign[iv.pid].first += len;
			foreign[iv.pid].second++;
			break;
		}
		win.push_back(iv);
	}
	for (SmpCpuStats &cs : a.cpus) {
		cs.busy_ns = cs.scenario_ns + cs.probe_ns + cs.foreign_ns;
		cs.unknown_ns = (t1 - t0) - cs.busy_ns - cs.idle_ns;
	}
	for (auto &[pid, f] : foreign)
		a.foreign_top.push_back({strf("%s/%d", comm_of[pid].c_str(), pid), f});
	std::sort(a.foreign_top.begin(), a.foreign_top.end(),
		  [](auto &x, auto &y) { return x.second.first > y.second.first; });
	if (a.foreign_top.size() > 8)
		a.foreign_top.resize(8);

	// Runs merged across foreign tasks (and the probe's own threads), per
	// CPU: a run that blocks, another scenario task or the idle task ends a
	// merged run.
	std::stable_sort(win.begin(), win.end(), [](const Iv &x, const Iv &y) {
		return x.cpu != y.cpu ? x.cpu < y.cpu : x.s < y.s;
	});
	{
		bool have = false;
		Iv m;
		auto flush = [&]() {
			if (have && !m.trunc_s && !m.trunc_e)
				a.tasks[size_t(m.task)].runs_merged.push_back(m.e - m.s);
			have = false;
		};
		int cpu = -1;
		for (const Iv &iv : win) {
			if (iv.cpu != cpu) {
				flush();
				cpu = iv.cpu;
			}
			if (iv.who == Who::Scenario) {
				if (have && iv.task == m.task) {
					m.e = iv.e;
					m.trunc_e = iv.trunc_e;
					m.end_state = iv.end_state;
				} else {
					flush();
					m = iv;
					have = true;
				}
				if (m.end_state != 'R' && !m.trunc_e)
					flush();
			} else if (iv.who == Who::Idle) {
				flush();
			}
		}
		flush();
	}

	// Shares over whole windows of share_window.
	const i64 nwin = share_window > 0 ? (t1 - t0) / share_window : 0;
	for (size_t i = 0; i < nt; ++i) {
		std::vector<i64> in(size_t(nwin), 0);
		for (const Iv &iv : win) {
			if (iv.task != int(i))
				continue;
			for (i64 k = (iv.s - t0) / share_window; k < nwin; ++k) {
				const i64 ws = t0 + k * share_window, we = ws + share_window;
				if (ws >= iv.e)
					break;
				const i64 s = std::max(ws, iv.s), e = std::min(we, iv.e);
				if (e > s)
					in[size_t(k)] += e - s;
			}
		}
		for (i64 x : in)
			a.tasks[i].shares.push_back(double(x) / double(share_window));
	}

	// Time between migrations.
	std::vector<i64> all;
	for (SmpTaskStats &ts : a.tasks) {
		for (size_t k = 1; k < ts.migrations.size(); ++k)
			ts.residence.push_back(ts.migrations[k].ts - ts.migrations[k - 1].ts);
		for (const SmpMigration &m : ts.migrations)
			all.push_back(m.ts);
	}
	std::sort(all.begin(), all.end());
	for (size_t k = 1; k < all.size(); ++k)
		a.migration_gaps.push_back(all[k] - all[k - 1]);
	return a;
}

}  // namespace probe
