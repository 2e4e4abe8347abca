// SPDX-License-Identifier: GPL-2.0-only
#include "analysis.hpp"

#include <algorithm>
#include <cmath>

#include "tracefs.hpp"

namespace probe {
namespace {

struct Interval {
	i64 s = 0, e = 0;
	bool trunc_s = false, trunc_e = false;  // cut by the window edge
	int task = -1;                          // index into tasks, -1 foreign
	int pid = -1;                           // trace only
	char end_state = '?';                   // trace only: 'R' preempted, ...
	int next_pid = -1;                      // trace only
	i64 len() const { return e - s; }
	bool complete() const { return !trunc_s && !trunc_e; }
};

// On-CPU intervals of one task reconstructed from its spin gaps.
std::vector<Interval> spin_intervals(const Task &t, i64 t0, i64 t1)
{
	std::vector<Interval> out;
	auto add = [&](i64 s, i64 e, bool ts, bool te) {
		if (e > s)
			out.push_back(Interval{s, e, ts, te, t.idx});
	};
	if (!t.is_waker) {
		i64 cur = t0;
		bool cur_trunc = true;
		for (const Gap &g : t.gaps) {
			if (g.b <= t0)
				continue;
			if (g.a >= t1)
				break;
			add(cur, g.a, cur_trunc, false);
			cur = g.b;
			cur_trunc = false;
		}
		i64 end = std::min(t1, t.end_ts);
		if (t.rec_end != 0)
			end = std::min(end, t.rec_end);
		add(cur, end, cur_trunc, true);
	} else {
		const Gap *g = t.gaps.begin(), *ge = t.gaps.end();
		for (const Gap &act : t.acts) {
			i64 cur = act.a;
			while (g != ge && g->a < act.b) {
				add(cur, g->a, false, false);
				cur = g->b;
				++g;
			}
			add(cur, act.b, false, act.b > t1);
		}
		for (auto &iv : out)
			if (iv.e > t1) {
				iv.e = t1;
				iv.trunc_e = true;
			}
	}
	return out;
}

using Spans = std::vector<std::pair<i64, i64>>;

Spans union_of(std::vector<Interval> ivs)
{
	std::sort(ivs.begin(), ivs.end(),
		  [](const Interval &x, const Interval &y) { return x.s < y.s; });
	Spans u;
	for (const auto &iv : ivs) {
		if (!u.empty() && iv.s <= u.back().second)
			u.back().second = std::max(u.back().second, iv.e);
		else
			u.emplace_back(iv.s, iv.e);
	}
	return u;
}

struct Cover {
	i64 covered = 0, uncovered = 0, max_chunk = 0;
};

Cover cover(const Spans &u, i64 a, i64 b)
{
	Cover c;
	auto it = std::lower_bound(u.begin(), u.end(), a,
				   [](const std::pair<i64, i64> &sp, i64 x) { return sp.second <= x; });
	i64 cursor = a;
	for (; it != u.end() && it->first < b; ++it) {
		i64 s = std::max(it->first, a), e = std::min(it->second, b);
		if (s > cursor) {
			c.uncovered += s - cursor;
			c.max_chunk = std::max(c.max_chunk, s - cursor);
		}
		if (e > s)
			c.covered += e - s;
		cursor = std::max(cursor, e);
	}
	if (b > cursor) {
		c.uncovered += b - cursor;
		c.max_chunk = std::max(c.max_chunk, b - cursor);
	}
	return c;
}

// Runs as seen "between known tasks": consecutive intervals of one task
// separated only by foreign activity are merged; the merged length is the
// wall-clock span (it includes the foreign time inside it).
std::vector<Interval> merge_known(std::vector<Interval> timeline)
{
	std::sort(timeline.begin(), timeline.end(),
		  [](const Interval &x, const Interval &y) { return x.s < y.s; });
	std::vector<Interval> out;
	bool have = false;
	Interval cur;
	for (const auto &iv : timeline) {
		if (iv.task >= 0) {
			if (have && iv.task == cur.task) {
				cur.e = iv.e;
				cur.trunc_e = iv.trunc_e;
				cur.end_state = iv.end_state;
				cur.next_pid = iv.next_pid;
			} else {
				if (have)
					out.push_back(cur);
				cur = iv;
				have = true;
			}
		} else if (iv.pid == 0) {  // idle: the known task was not runnable
			if (have)
				out.push_back(cur);
			have = false;
		}
	}
	if (have)
		out.push_back(cur);
	return out;
}

i64 grid_offset(i64 t, i64 phase, i64 T)
{
	i64 o = ((t - phase) % T + T) % T;
	if (o >= T / 2)
		o -= T;
	return o;   // in [-T/2, T/2)
}

bool near_tick(i64 off) { return off >= -50 * kUs && off < 200 * kUs; }

Phase estimate_phase(const std::vector<i64> &ts, i64 T)
{
	Phase p;
	p.n = ts.size();
	if (ts.size() < 10 || T <= 0)
		return p;
	const i64 bin = 20 * kUs;
	const size_t nb = size_t((T + bin - 1) / bin);
	std::vector<size_t> cnt(nb, 0);
	for (i64 t : ts)
		++cnt[size_t(((t % T) + T) % T / bin)];
	size_t best = 0, best_sum = 0;
	for (size_t b = 0; b < nb; ++b) {
		size_t s = cnt[(b + nb - 1) % nb] + cnt[b] + cnt[(b + 1) % nb];
		if (s > best_sum) {
			best_sum = s;
			best = b;
		}
	}
	// The phase is the median of the events near the densest bin.
	i64 centre = i64(best) * bin + bin / 2;
	std::vector<i64> offs;
	for (i64 t : ts) {
		i64 o = grid_offset(t, centre, T);
		if (o > -3 * bin && o < 3 * bin)
			offs.push_back(o);
	}
	std::sort(offs.begin(), offs.end());
	i64 lo = offs.empty() ? 0 : offs[offs.size() / 2];
	p.phase = ((centre + lo) % T + T) % T;
	size_t near = 0;
	for (i64 t : ts)
		if (near_tick(grid_offset(t, p.phase, T)))
			++near;
	p.frac = double(near) / double(ts.size());
	p.ok = true;
	return p;
}

// -------------------------------------------------------- trace parsing

}  // namespace

void analyse(Report &r, const std::string &trace_text)
{
	auto &tasks = *r.tasks;
	const i64 t0 = r.plan.t0, t1 = r.plan.t1;
	const size_t nt = tasks.size();
	r.res.assign(nt, {});
	if (r.si.hz)
		r.tick_ns = kSec / *r.si.hz;

	// ---- spin method
	std::vector<std::vector<Interval>> ivs(nt);
	for (size_t i = 0; i < nt; ++i)
		ivs[i] = spin_intervals(tasks[i], t0, t1);
	std::vector<i64> all_spin, all_merged, irq_ts, switch_ts;
	const i64 slack = std::max(r.opt.gap_thr_ns, kSwitchSlack);
	for (size_t i = 0; i < nt; ++i) {
		std::vector<Interval> others;
		for (size_t k = 0; k < nt; ++k)
			if (k != i)
				others.insert(others.end(), ivs[k].begin(), ivs[k].end());
		Spans u = union_of(others);
		auto &res = r.res[i];
		for (const Gap &g : tasks[i].gaps) {
			i64 a = std::max(g.a, t0), b = std::min(g.b, t1);
			if (b <= a)
				continue;
			Cover c = cover(u, a, b);
			res.unexplained_ns += c.uncovered;
			if (c.covered == 0)
				res.gaps_foreign++;
			else if (c.max_chunk > slack)
				res.gaps_mixed++;
			else
				res.gaps_known++;
		}
		for (const auto &iv : ivs[i]) {
			if (iv.complete())
				res.spin_lens.push_back(iv.len());
			// A switch to another known task: it starts running right after.
			if (!iv.trunc_e && !tasks[i].is_waker &&
			    cover(u, iv.e, iv.e + slack).covered > 0)
				switch_ts.push_back(iv.e);
		}
		res.spin_runs = summarize(res.spin_lens);
		for (i64 x : tasks[i].irqs)
			if (x >= t0 && x < t1)
				irq_ts.push_back(x);
		if (!tasks[i].is_waker) {
			all_spin.insert(all_spin.end(), res.spin_lens.begin(), res.spin_lens.end());
			r.gaps_known += res.gaps_known;
			r.gaps_foreign += res.gaps_foreign;
			r.gaps_mixed += res.gaps_mixed;
		}
	}
	{
		std::vector<Interval> timeline;
		for (auto &v : ivs)
			timeline.insert(timeline.end(), v.begin(), v.end());
		auto merged = merge_known(timeline);
		std::vector<std::vector<i64>> per(nt);
		for (auto &m : merged)
			if (m.complete())
				per[size_t(m.task)].push_back(m.len());
		for (size_t i = 0; i < nt; ++i) {
			r.res[i].spin_merged = summarize(per[i]);
			if (!tasks[i].is_waker)
				all_merged.insert(all_merged.end(), per[i].begin(), per[i].end());
		}
	}
	{
		// CPU time in the window during which no probe task was on the CPU
		// by its own clock: switch overhead, foreign tasks, interrupts
		// longer than the gap threshold, time the hypervisor took.
		std::vector<Interval> every;
		for (auto &v : ivs)
			every.insert(every.end(), v.begin(), v.end());
		r.unexplained_ns = cover(union_of(every), t0, t1).uncovered;
	}
	r.spin_all = summarize(all_spin);
	r.spin_merged_all = summarize(all_merged);
	r.spin_hist = histogram_ms(all_spin);
	if (r.tick_ns)
		r.spin_tick_hist = histogram_ticks(all_merged, *r.tick_ns);
	r.irq_events = irq_ts.size();
	r.spin_ends = switch_ts.size();
	if (r.tick_ns) {
		// Without a trace the tick is not directly visible (with whole-tick
		// runs every tick switches), so look for one grid of period TICK_NSEC
		// on which the hog-to-hog switches line up; the share of switches on
		// the densest grid measures the quantisation.
		r.spin_phase = estimate_phase(switch_ts, *r.tick_ns);
		if (r.spin_phase.ok) {
			r.spin_ends_at_tick = size_t(std::llround(r.spin_phase.frac * double(switch_ts.size())));
			for (i64 x : irq_ts)
				if (near_tick(grid_offset(x, r.spin_phase.phase, *r.tick_ns)))
					++r.irq_on_grid;
		}
	}
	for (auto &t : tasks)
		if (t.is_waker) {
			std::vector<i64> lat(t.lat.begin(), t.lat.end());
			r.waker_lat_spin = summarize(lat);
			r.waker_missed = t.missed;
			r.waker_acts = t.acts.size();
		}

	// ---- trace
	if (trace_text.empty())
		return;
	TraceData td = parse_trace(trace_text);
	r.traced = true;
	r.trace_entries = td.entries_in_buffer;
	r.trace_written = td.entries_written;
	r.trace_unparsed = td.unparsed;
	std::map<int, int> task_of_pid;
	for (size_t i = 0; i < nt; ++i)
		task_of_pid[int(tasks[i].tid.load())] = int(i);
	auto task_of = [&](int pid) {
		auto it = task_of_pid.find(pid);
		return it == task_of_pid.end() ? -1 : it->second;
	};

	std::vector<i64> timers;
	std::vector<Interval> runs;   // all runs on the CPU, clipped to window
	std::map<int, std::string> comm_of;
	int cur = -1;
	i64 cur_s = 0;
	std::map<int, i64> pending_wake;  // waker pid -> wakeup ts
	std::vector<i64> waker_lat;
	auto close_run = [&](int pid, i64 s, i64 e, char st, int next) {
		if (e <= t0 || s >= t1)
			return;
		Interval iv;
		iv.s = std::max(s, t0);
		iv.e = std::min(e, t1);
		iv.trunc_s = s < t0;
		iv.trunc_e = e > t1;
		iv.pid = pid;
		iv.task = task_of(pid);
		iv.end_state = st;
		iv.next_pid = next;
		runs.push_back(iv);
	};
	for (const auto &ev : td.evs) {
		switch (ev.kind) {
		case TraceEv::Timer:
			timers.push_back(ev.ts);
			break;
		case TraceEv::Wakeup:
			if (task_of(ev.pid) >= 0 && tasks[size_t(task_of(ev.pid))].is_waker)
				pending_wake[ev.pid] = ev.ts;
			break;
		case TraceEv::Switch:
			if (cur >= 0 && cur == ev.prev_pid)
				close_run(cur, cur_s, ev.ts, ev.prev_state, ev.next_pid);
			if (!ev.prev_comm.empty())
				comm_of[ev.prev_pid] = ev.prev_comm;
			comm_of[ev.next_pid] = ev.next_comm;
			cur = ev.next_pid;
			cur_s = ev.ts;
			if (auto it = pending_wake.find(cur); it != pending_wake.end()) {
				if (it->second >= t0 && it->second < t1)
					waker_lat.push_back(ev.ts - it->second);
				pending_wake.erase(it);
			}
			break;
		case TraceEv::Waking:
		case TraceEv::Migrate:
			break;  // not enabled for a pinned run
		}
	}
	if (cur >= 0)
		close_run(cur, cur_s, t1 + 1, '?', -1);
	r.waker_lat_trace = summarize(waker_lat);

	std::vector<i64> win_timers;
	for (i64 t : timers)
		if (t >= t0 && t < t1)
			win_timers.push_back(t);
	r.timer_events = win_timers.size();
	if (r.tick_ns) {
		r.trace_phase = estimate_phase(win_timers, *r.tick_ns);
		if (r.trace_phase.ok) {
			std::vector<i64> ticks;
			for (i64 t : win_timers)
				if (near_tick(grid_offset(t, r.trace_phase.phase, *r.tick_ns)))
					ticks.push_back(t);
			r.tick_events = ticks.size();
			std::vector<i64> diffs;
			for (size_t k = 1; k < ticks.size(); ++k)
				diffs.push_back(ticks[k] - ticks[k - 1]);
			if (!diffs.empty())
				r.tick_period_obs = summarize(diffs).p50;
		}
	}

	std::vector<i64> all_trace, end_after_timer;
	std::map<int, std::pair<i64, size_t>> foreign;
	for (const auto &iv : runs) {
		if (iv.task >= 0) {
			auto &res = r.res[size_t(iv.task)];
			if (iv.complete())
				res.trace_lens.push_back(iv.len());
			if (!iv.trunc_e) {
				bool preempted = iv.end_state == 'R';
				(preempted ? res.trace_preempted : res.trace_blocked)++;
				int nt_ = task_of(iv.next_pid);
				if (iv.next_pid == 0)
					res.trace_to_idle++;
				else if (nt_ >= 0)
					res.trace_by_known++;
				else
					res.trace_by_foreign++;
				bool hog = !tasks[size_t(iv.task)].is_waker;
				if (hog && preempted && nt_ >= 0 && tasks[size_t(nt_)].is_waker)
					++r.hog_runs_ended_by_waker;
				if (hog && preempted && nt_ >= 0) {
					auto it = std::upper_bound(timers.begin(), timers.end(), iv.e);
					if (it != timers.begin())
						end_after_timer.push_back(iv.e - *(it - 1));
					if (r.trace_phase.ok) {
						++r.trace_hog_ends;
						if (near_tick(grid_offset(iv.e, r.trace_phase.phase, *r.tick_ns)))
							++r.trace_hog_ends_at_tick;
					}
				}
			}
			if (!iv.trunc_s && r.trace_phase.ok && !tasks[size_t(iv.task)].is_waker) {
				++r.trace_hog_starts;
				if (near_tick(grid_offset(iv.s, r.trace_phase.phase, *r.tick_ns)))
					++r.trace_hog_starts_at_tick;
			}
		} else if (iv.pid == 0) {
			r.idle_ns += iv.len();
		} else {
			++r.foreign_runs;
			r.foreign_ns += iv.len();
			auto &f = foreign[iv.pid];
			f.first += iv.len();
			f.second++;
		}
	}
	r.end_after_timer = summarize(end_after_timer);
	for (auto &[pid, f] : foreign)
		r.foreign_top.push_back({strf("%s/%d", comm_of[pid].c_str(), pid), f});
	std::sort(r.foreign_top.begin(), r.foreign_top.end(),
		  [](auto &x, auto &y) { return x.second.first > y.second.first; });
	if (r.foreign_top.size() > 8)
		r.foreign_top.resize(8);

	auto merged = merge_known(runs);
	std::vector<std::vector<i64>> per(nt);
	for (auto &m : merged)
		if (m.complete())
			per[size_t(m.task)].push_back(m.len());
	std::vector<i64> all_tmerged;
	for (size_t i = 0; i < nt; ++i) {
		auto &res = r.res[i];
		res.trace_runs = summarize(res.trace_lens);
		res.trace_merged = summarize(per[i]);
		if (!tasks[i].is_waker) {
			all_trace.insert(all_trace.end(), res.trace_lens.begin(), res.trace_lens.end());
			all_tmerged.insert(all_tmerged.end(), per[i].begin(), per[i].end());
		}
	}
	r.trace_all = summarize(all_trace);
	r.trace_merged_all = summarize(all_tmerged);
	r.trace_hist = histogram_ms(all_trace);
	if (r.tick_ns)
		r.trace_tick_hist = histogram_ticks(all_trace, *r.tick_ns);
	r.trace_merged_hist = histogram_ms(all_tmerged);

	// Spin gaps during which the trace says the task kept the CPU: interrupts,
	// or the hypervisor running something else (steal).
	for (size_t i = 0; i < nt; ++i) {
		std::vector<Interval> mine;
		for (auto &iv : runs)
			if (iv.task == int(i))
				mine.push_back(iv);
		for (const Gap &g : tasks[i].gaps) {
			if (g.a < t0 || g.b > t1)
				continue;
			// Trace timestamps have 1 us resolution.
			auto it = std::upper_bound(mine.begin(), mine.end(), g.a + kUs,
						   [](i64 x, const Interval &iv) { return x < iv.s; });
			if (it == mine.begin())
				continue;
			--it;
			if (it->s <= g.a + kUs && it->e >= g.b - kUs) {
				r.res[i].spin_gaps_no_switch++;
				r.res[i].spin_gaps_no_switch_ns += g.b - g.a;
			}
		}
		if (!tasks[i].is_waker) {
			r.spin_gaps_no_switch += r.res[i].spin_gaps_no_switch;
			r.spin_gaps_no_switch_ns += r.res[i].spin_gaps_no_switch_ns;
		}
	}
}

}  // namespace probe
