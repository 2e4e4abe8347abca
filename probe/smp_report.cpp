// SPDX-License-Identifier: GPL-2.0-only
#include "smp_report.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include <sys/prctl.h>

#include "json.hpp"
#include "report.hpp"
#include "stats.hpp"

namespace probe {
namespace {

struct Shares {
	size_t n = 0;
	double min = 0, mean = 0, max = 0, p10 = 0, p90 = 0;
};

Shares share_stats(std::vector<double> v)
{
	Shares s;
	if (v.empty())
		return s;
	std::sort(v.begin(), v.end());
	s.n = v.size();
	double sum = 0;
	for (double x : v)
		sum += x;
	s.mean = sum / double(s.n);
	auto pct = [&](double p) {
		size_t rank = size_t(std::ceil(p / 100.0 * double(s.n)));
		return v[std::max<size_t>(rank, 1) - 1];
	};
	s.min = v.front();
	s.max = v.back();
	s.p10 = pct(10);
	s.p90 = pct(90);
	return s;
}

struct WakeCounts {
	size_t n = 0, on_prev = 0, on_waker = 0, target_idle = 0, moved_before_run = 0;
	size_t in_untraced = 0;  // switched in without a sched_switch: no latency
	std::vector<i64> waking, wakeup, waking_idle, waking_busy;
	// Woken on the CPU that ran try_to_wake_up() (a timer's interrupt on
	// its own CPU): the profile's resched_delay and resched_delay_busy.
	std::vector<i64> local_idle, local_busy;
};

WakeCounts wake_counts(const SmpTaskStats &t)
{
	WakeCounts w;
	for (const SmpWake &x : t.wakes) {
		++w.n;
		if (x.target_cpu == x.prev_cpu)
			++w.on_prev;
		if (x.target_cpu == x.waker_cpu)
			++w.on_waker;
		if (x.target_idle)
			++w.target_idle;
		if (x.run_cpu != x.target_cpu && x.target_cpu >= 0)
			++w.moved_before_run;
		if (x.in < 0) {
			++w.in_untraced;
			continue;
		}
		w.waking.push_back(x.in - x.waking);
		(x.target_idle ? w.waking_idle : w.waking_busy).push_back(x.in - x.waking);
		if (x.waker_cpu == x.target_cpu && x.run_cpu == x.target_cpu)
			(x.target_idle ? w.local_idle : w.local_busy).push_back(x.in - x.waking);
		if (x.wakeup >= 0)
			w.wakeup.push_back(x.in - x.wakeup);
	}
	return w;
}

struct MigCounts {
	size_t wakeup = 0, balance = 0, active = 0, by_idle = 0;
};

MigCounts mig_counts(const SmpTaskStats &t)
{
	MigCounts m;
	for (const SmpMigration &x : t.migrations) {
		(x.cause == SmpMigration::Wakeup ? m.wakeup : x.cause == SmpMigration::Active ? m.active : m.balance)++;
		if (x.by_idle_cpu)
			++m.by_idle;
	}
	return m;
}

// CPU time over the window as the kernel charged it (se.sum_exec_runtime,
// unaffected by switches the trace misses); the trace's if /proc failed.
double proc_cpu(const SmpTask &t, const SmpTaskStats &x)
{
	if (t.st0.ok && t.st1.ok)
		return double(t.st1.sum_exec_ns - t.st0.sum_exec_ns);
	return double(x.cpu_ns);
}

std::vector<i64> user_latency(const SmpTask &t) { return std::vector<i64>(t.lat.begin(), t.lat.end()); }

std::string us1(i64 ns) { return strf("%.1f", double(ns) / kUs); }

}  // namespace

void print_smp_text(const SmpReport &r)
{
	const auto &tasks = *r.tasks;
	const auto &si = r.si;
	const SmpAnalysis &a = r.a;
	const double win = double(r.opt.duration_ns);
	std::printf("command     : %s\n", r.command.c_str());
	std::printf("kernel      : %s %s (%s)\n", si.release.c_str(), si.version.c_str(), si.machine.c_str());
	std::printf("HZ          : %s", si.hz ? std::to_string(*si.hz).c_str() : "unknown");
	if (si.hz)
		std::printf(" from %s", si.hz_source.c_str());
	std::printf("\n");
	std::printf("preempt     : %s\n", si.preempt_mode.empty() ? "unknown" : si.preempt_mode.c_str());
	std::printf("autogroup   : enabled=%d, probe in %s%s\n", si.autogroup_enabled, si.autogroup.c_str(),
		    r.opt.isolate ? " (--isolate: own session, all tasks in it)" : "");
	std::string cpus;
	for (int c : r.cpus)
		cpus += (cpus.empty() ? "" : ",") + std::to_string(c);
	std::printf("scenario    : %s: %s; unpinned on CPUs %s (%d online); slice %s; window %.3f s after %.3f s "
		    "warm-up\n",
		    r.scenario.name.c_str(), r.scenario.description.c_str(), cpus.c_str(), si.ncpus_online,
		    slice_str(r.opt.slice_ns).c_str(), win / kSec, double(r.opt.warmup_ns) / kSec);
	for (const auto &t : r.scenario.tasks)
		if (t.role == Role::Sleeper)
			std::printf("  %-9s: period %s ms, %s ms of CPU time, first wake T0+%s ms, timer slack 1 ns\n",
				    t.name.c_str(), ms3(t.period_ns).c_str(), ms3(t.run_ns).c_str(), ms3(t.offset_ns).c_str());
		else if (t.role == Role::Ping || t.role == Role::Pong)
			std::printf("  %-9s: %s ms of CPU time, then FUTEX_WAKE %s and FUTEX_WAIT\n", t.name.c_str(),
				    ms3(t.run_ns).c_str(), r.scenario.tasks[size_t(t.partner)].name.c_str());
		else if (t.role == Role::PipePing || t.role == Role::PipePong)
			std::printf("  %-9s: %s ms of CPU time, then write() to %s's pipe and read() its own\n", t.name.c_str(),
				    ms3(t.run_ns).c_str(), r.scenario.tasks[size_t(t.partner)].name.c_str());
		else if (t.role == Role::Periodic)
			std::printf("  %-9s: %s ms of CPU time, then a relative sleep of %s ms (default timer slack)\n",
				    t.name.c_str(), ms3(t.run_ns).c_str(), ms3(t.sleep_ns).c_str());
		else if (t.role == Role::Forker)
			std::printf("  %-9s: %s ms of CPU time, then fork() a child and waitpid() it\n", t.name.c_str(),
				    ms3(t.run_ns).c_str());
		else if (t.role == Role::Child)
			std::printf("  %-9s: each child process: %s ms of CPU time, then _exit()\n", t.name.c_str(),
				    ms3(t.run_ns).c_str());
	for (const auto &t : r.scenario.tasks)
		if (t.nice || t.idle_policy || t.slice_ns)
			std::printf("  %-9s: %s, nice %d, slice %s\n", t.name.c_str(), t.idle_policy ? "SCHED_IDLE" : "SCHED_OTHER",
				    t.nice, slice_str(t.slice_ns ? t.slice_ns : r.opt.slice_ns).c_str());
	std::printf("trace       : sched_switch, sched_waking, sched_wakeup, sched_migrate_task, local_timer_entry on "
		    "every CPU, trace_clock=mono\n");

	std::printf("\nper task (trace; share = time on a CPU / window; w/o oth = time on a CPU / (window - time "
		    "queued behind tasks from outside the scenario)):\n");
	std::printf("  %-9s %7s %6s %7s %-15s %6s %9s %9s %9s %5s %5s  %s\n", "task", "tid", "share", "w/o oth",
		    "per CPU (ms)", "runs", "p50 ms", "p90 ms", "max ms", "preem", "block",
		    "migrations (wake/balance/active; by idle CPU)");
	for (size_t i = 0; i < tasks.size(); ++i) {
		const SmpTaskStats &t = a.tasks[i];
		std::string per;
		for (i64 x : t.cpu_ns_per_cpu)
			per += (per.empty() ? "" : "/") + strf("%.0f", double(x) / kMs);
		const Summary s = summarize(t.runs);
		const MigCounts m = mig_counts(t);
		std::printf("  %-9s %7d %6.3f %7.3f %-15s %6zu %9s %9s %9s %5zu %5zu  %zu (%zu/%zu/%zu; %zu)\n",
			    tasks[i].spec.name.c_str(), int(tasks[i].tid.load()), double(t.cpu_ns) / win,
			    double(t.cpu_ns) / (win - double(t.other_wait_ns)), per.c_str(), s.n,
			    s.n ? ms3(s.p50).c_str() : "-", s.n ? ms3(s.p90).c_str() : "-", s.n ? ms3(s.max).c_str() : "-",
			    t.preempted, t.blocked, t.migrations.size(), m.wakeup, m.balance, m.active, m.by_idle);
	}
	std::printf("\nCPU share over %s ms windows: min / p10 / mean / p90 / max; time between a task's "
		    "migrations p50 / max (ms)\n",
		    ms3(r.opt.share_window_ns).c_str());
	for (size_t i = 0; i < tasks.size(); ++i) {
		const Shares s = share_stats(a.tasks[i].shares);
		const Summary res = summarize(a.tasks[i].residence);
		std::printf("  %-9s %.3f / %.3f / %.3f / %.3f / %.3f   %s / %s\n", tasks[i].spec.name.c_str(), s.min, s.p10,
			    s.mean, s.p90, s.max, res.n ? ms3(res.p50).c_str() : "-", res.n ? ms3(res.max).c_str() : "-");
	}
	{
		const Summary g = summarize(a.migration_gaps);
		std::printf("  between consecutive migrations of any task: n=%zu p50 %s ms, p90 %s ms, max %s ms\n", g.n,
			    g.n ? ms3(g.p50).c_str() : "-", g.n ? ms3(g.p90).c_str() : "-", g.n ? ms3(g.max).c_str() : "-");
	}

	bool any_wake = false;
	for (size_t i = 0; i < tasks.size(); ++i)
		any_wake = any_wake || !a.tasks[i].wakes.empty() || tasks[i].lat.size();
	if (any_wake) {
		std::printf("\nwake-ups (sched_waking -> switch in, us; where: chosen CPU = previous / = waker's / was "
			    "idle at waking):\n");
		for (size_t i = 0; i < tasks.size(); ++i) {
			const WakeCounts w = wake_counts(a.tasks[i]);
			if (!w.n && !tasks[i].lat.size())
				continue;
			const Summary l = summarize(w.waking), li = summarize(w.waking_idle), lb = summarize(w.waking_busy);
			std::printf("  %-9s n=%zu p50 %s p90 %s p99 %s max %s | onto idle n=%zu p50 %s | onto busy n=%zu p50 "
				    "%s | prev %zu, waker's %zu, idle %zu, moved before running %zu, woken while runnable "
				    "%zu, switched in untraced %zu\n",
				    tasks[i].spec.name.c_str(), w.n, us1(l.p50).c_str(), us1(l.p90).c_str(), us1(l.p99).c_str(),
				    us1(l.max).c_str(), li.n, us1(li.p50).c_str(), lb.n, us1(lb.p50).c_str(), w.on_prev,
				    w.on_waker, w.target_idle, w.moved_before_run, a.tasks[i].wakes_while_runnable,
				    w.in_untraced);
			const Summary u = summarize(user_latency(tasks[i]));
			if (u.n)
				std::printf("  %-9s user space (%s): n=%zu p50 %s p90 %s p99 %s max %s us; periods skipped "
					    "%" PRId64 "\n",
					    "", tasks[i].spec.role == Role::Sleeper    ? "expected wake -> first timestamp"
					    : tasks[i].spec.role == Role::Periodic ? "end of the sleep -> first timestamp"
										   : "partner's wake call -> first timestamp",
					    u.n, us1(u.p50).c_str(), us1(u.p90).c_str(), us1(u.p99).c_str(), us1(u.max).c_str(),
					    tasks[i].missed);
		}
	}

	std::printf("\nper CPU (ms in the window):\n");
	std::printf("  %-4s %9s %9s %9s %9s %9s %9s %9s %8s %8s\n", "cpu", "busy", "scenario", "probe", "foreign",
		    "idle", "unknown", "waited", "switches", "timer");
	for (size_t c = 0; c < a.cpus.size(); ++c) {
		const SmpCpuStats &s = a.cpus[c];
		std::printf("  %-4zu %9s %9s %9s %9s %9s %9s %9s %8zu %8zu\n", c, ms3(s.busy_ns).c_str(),
			    ms3(s.scenario_ns).c_str(), ms3(s.probe_ns).c_str(), ms3(s.foreign_ns).c_str(),
			    ms3(s.idle_ns).c_str(), ms3(s.unknown_ns).c_str(), ms3(s.other_wait_ns).c_str(), s.switches,
			    s.timer_irqs);
	}
	std::printf("  (waited: an outside task ran while a scenario task was queued there)\n");
	std::printf("\nper task, /proc/<pid>/task/<tid>/sched deltas over the window:\n");
	std::printf("  %-9s %11s %8s %6s %6s %6s\n", "task", "sum_exec", "nr_sw", "vol", "invol", "migr");
	for (const auto &t : tasks) {
		const auto &x = t.st0, &y = t.st1;
		std::printf("  %-9s %11s %8" PRId64 " %6" PRId64 " %6" PRId64 " %6" PRId64 "\n", t.spec.name.c_str(),
			    ms3(y.sum_exec_ns - x.sum_exec_ns).c_str(), y.nr_switches - x.nr_switches,
			    y.nr_voluntary - x.nr_voluntary, y.nr_involuntary - x.nr_involuntary,
			    y.nr_migrations - x.nr_migrations);
	}
	std::printf("\nnoise: %zu foreign runs, %s ms foreign CPU time", a.foreign_runs, ms3(a.foreign_ns).c_str());
	if (!a.foreign_top.empty()) {
		std::printf("; top:");
		for (auto &[name, f] : a.foreign_top)
			std::printf(" %s(%zux, %s ms)", name.c_str(), f.second, ms3(f.first).c_str());
	}
	std::printf("\n");
	if (a.trace_written > a.trace_entries)
		std::printf("  WARNING: trace buffer overran (%" PRId64 " of %" PRId64 " entries kept)\n", a.trace_entries,
			    a.trace_written);
	if (a.unparsed)
		std::printf("  WARNING: %zu trace lines not parsed\n", a.unparsed);
	if (a.untraced_switches)
		std::printf("  %zu switches the trace does not show (an event in another task's context than the last "
			    "sched_switch named); that task is taken to run from the CPU's previous event\n",
			    a.untraced_switches);
	for (const auto &t : tasks)
		if (t.lat.full || t.acts.full)
			std::printf("  WARNING: %s: a measurement buffer filled up\n", t.spec.name.c_str());
}

std::string make_smp_json(const SmpReport &r)
{
	const auto &tasks = *r.tasks;
	const auto &si = r.si;
	const SmpAnalysis &a = r.a;
	const double win = double(r.opt.duration_ns);
	Json j;
	j.obj();
	j.key("probe").v("eevdf-probe");
	j.key("command").v(r.command);
	j.key("kernel").obj();
	j.key("release").v(si.release);
	j.key("version").v(si.version);
	j.key("machine").v(si.machine);
	j.key("hz").opt(si.hz);
	j.key("hz_source").v(si.hz_source);
	j.key("preempt").v(si.preempt_mode);
	j.key("autogroup_enabled").v(si.autogroup_enabled);
	j.key("autogroup").v(si.autogroup);
	j.key("cpus_online").v(si.ncpus_online);
	j.end_obj();

	j.key("config").obj();
	j.key("mode").v("scenario");
	j.key("scenario").v(r.scenario.name);
	j.key("slice_ns").opt(r.opt.slice_ns);
	j.key("duration_ns").v(r.opt.duration_ns);
	j.key("warmup_ns").v(r.opt.warmup_ns);
	j.key("t0_mono_ns").v(r.plan.t0);
	j.key("share_window_ns").v(r.opt.share_window_ns);
	j.key("isolate").v(r.opt.isolate);
	j.key("traced").v(true);
	j.end_obj();

	// Everything the model needs to rebuild the run.
	j.key("scenario").obj();
	j.key("name").v(r.scenario.name);
	j.key("description").v(r.scenario.description);
	j.key("pinned").v(false);
	j.key("cpus").arr();
	for (int c : r.cpus)
		j.v(c);
	j.end_arr();
	j.key("one_autogroup").v(r.opt.isolate);
	j.key("autogroup_nice").v(r.opt.isolate ? -20 : 0);
	j.key("tasks").arr();
	for (const auto &t : r.scenario.tasks) {
		j.obj();
		j.key("name").v(t.name);
		j.key("role").v(role_name(t.role));
		j.key("nice").v(t.nice);
		j.key("slice_ns").opt(t.slice_ns ? t.slice_ns : r.opt.slice_ns);
		if (t.idle_policy)
			j.key("policy").v("SCHED_IDLE");
		if (t.role == Role::Sleeper) {
			j.key("period_ns").v(t.period_ns);
			j.key("run_ns").v(t.run_ns);
			j.key("offset_ns").v(t.offset_ns);
			j.key("timer_slack_ns").v(1);
			j.key("run_is").v("cpu_time");
		} else if (t.role == Role::Periodic) {
			j.key("run_ns").v(t.run_ns);
			j.key("sleep_ns").v(t.sleep_ns);
			j.key("timer_slack_ns").v(i64(prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL)));  // inherited
			j.key("run_is").v("cpu_time");
		} else if (is_pair(t.role)) {
			j.key("run_ns").v(t.run_ns);
			j.key("partner").v(r.scenario.tasks[size_t(t.partner)].name);
			j.key("waits_first").v(t.role == Role::Pong || t.role == Role::PipePong || t.role == Role::Child);
			j.key("run_is").v("cpu_time");
		}
		j.end_obj();
	}
	j.end_arr();
	j.end_obj();

	j.key("tasks").arr();
	for (size_t i = 0; i < tasks.size(); ++i) {
		const SmpTask &t = tasks[i];
		const SmpTaskStats &x = a.tasks[i];
		j.obj();
		j.key("name").v(t.spec.name);
		j.key("role").v(role_name(t.spec.role));
		j.key("tid").v(int(t.tid.load()));
		j.key("se_slice_ns").opt(t.st1.slice_ns);
		j.key("proc_delta").obj();
		j.key("valid").v(t.st0.ok && t.st1.ok);
		j.key("sum_exec_runtime_ns").v(t.st1.sum_exec_ns - t.st0.sum_exec_ns);
		j.key("nr_switches").v(t.st1.nr_switches - t.st0.nr_switches);
		j.key("nr_voluntary_switches").v(t.st1.nr_voluntary - t.st0.nr_voluntary);
		j.key("nr_involuntary_switches").v(t.st1.nr_involuntary - t.st0.nr_involuntary);
		j.key("nr_migrations").v(t.st1.nr_migrations - t.st0.nr_migrations);
		j.end_obj();
		j.key("cpu_ns").v(x.cpu_ns);
		j.key("share").v(double(x.cpu_ns) / win);
		j.key("other_wait_ns").v(x.other_wait_ns);
		j.key("share_proc").v(proc_cpu(t, x) / win);
		j.key("share_without_others").v(double(x.cpu_ns) / (win - double(x.other_wait_ns)));
		j.key("cpu_ns_per_cpu").arr();
		for (i64 c : x.cpu_ns_per_cpu)
			j.v(c);
		j.end_arr();
		json_summary(j, "runs", summarize(x.runs));
		json_summary(j, "runs_merged", summarize(x.runs_merged));
		j.key("switch_outs").obj();
		j.key("preempted").v(x.preempted);
		j.key("blocked").v(x.blocked);
		j.end_obj();
		const MigCounts m = mig_counts(x);
		j.key("migrations").obj();
		j.key("count").v(x.migrations.size());
		j.key("per_s").v(double(x.migrations.size()) * double(kSec) / win);
		j.key("wakeup").v(m.wakeup);
		j.key("balance").v(m.balance);
		j.key("active").v(m.active);
		j.key("by_idle_cpu").v(m.by_idle);
		json_summary(j, "residence", summarize(x.residence));
		j.end_obj();
		const Shares s = share_stats(x.shares);
		j.key("share_windows").obj();
		j.key("window_ns").v(r.opt.share_window_ns);
		j.key("count").v(s.n);
		j.key("min").v(s.min);
		j.key("p10").v(s.p10);
		j.key("mean").v(s.mean);
		j.key("p90").v(s.p90);
		j.key("max").v(s.max);
		j.key("values").arr();
		for (double v : x.shares)
			j.v(v);
		j.end_arr();
		j.end_obj();
		const WakeCounts w = wake_counts(x);
		j.key("wakeups").obj();
		j.key("count").v(w.n);
		j.key("while_runnable").v(x.wakes_while_runnable);
		j.key("on_prev_cpu").v(w.on_prev);
		j.key("on_waker_cpu").v(w.on_waker);
		j.key("target_idle").v(w.target_idle);
		j.key("moved_before_running").v(w.moved_before_run);
		j.key("switch_in_untraced").v(w.in_untraced);
		json_summary(j, "latency_waking", summarize(w.waking));
		json_summary(j, "latency_wakeup", summarize(w.wakeup));
		json_summary(j, "latency_waking_idle_target", summarize(w.waking_idle));
		json_summary(j, "latency_waking_busy_target", summarize(w.waking_busy));
		for (const auto& [key, v] : {std::pair{"latency_waking_local_idle_q101_ns", &w.local_idle},
					     std::pair{"latency_waking_local_busy_q101_ns", &w.local_busy}}) {
			if (v->empty())
				continue;
			j.key(key).arr();
			for (i64 q : quantiles101(*v))
				j.v(q);
			j.end_arr();
		}
		j.end_obj();
		if (t.spec.role != Role::Hog) {
			j.key("user").obj();
			j.key("activations").v(t.acts.size());
			j.key("periods_skipped").v(t.missed);
			json_summary(j, "latency", summarize(user_latency(t)));
			j.end_obj();
		}
		j.end_obj();
	}
	j.end_arr();

	j.key("cpus").arr();
	for (size_t c = 0; c < a.cpus.size(); ++c) {
		const SmpCpuStats &s = a.cpus[c];
		j.obj();
		j.key("cpu").v(c);
		j.key("busy_ns").v(s.busy_ns);
		j.key("idle_ns").v(s.idle_ns);
		j.key("unknown_ns").v(s.unknown_ns);
		j.key("scenario_ns").v(s.scenario_ns);
		j.key("probe_ns").v(s.probe_ns);
		j.key("foreign_ns").v(s.foreign_ns);
		j.key("other_wait_ns").v(s.other_wait_ns);
		j.key("switches").v(s.switches);
		j.key("timer_irqs").v(s.timer_irqs);
		j.end_obj();
	}
	j.end_arr();

	size_t migrations = 0;
	for (const auto &x : a.tasks)
		migrations += x.migrations.size();
	j.key("summary").obj();
	j.key("migrations").v(migrations);
	j.key("migrations_per_s").v(double(migrations) * double(kSec) / win);
	json_summary(j, "migration_gaps", summarize(a.migration_gaps));
	j.end_obj();

	j.key("noise").obj();
	j.key("foreign_runs").v(a.foreign_runs);
	j.key("foreign_ns").v(a.foreign_ns);
	j.key("foreign_top").arr();
	for (auto &[name, f] : a.foreign_top) {
		j.obj();
		j.key("task").v(name);
		j.key("runs").v(f.second);
		j.key("ns").v(f.first);
		j.end_obj();
	}
	j.end_arr();
	j.key("trace_entries").v(a.trace_entries);
	j.key("trace_entries_written").v(a.trace_written);
	j.key("unparsed").v(a.unparsed);
	j.key("untraced_switches").v(a.untraced_switches);
	bool full = false;
	for (const auto &t : tasks)
		full = full || t.lat.full || t.acts.full;
	j.key("buffer_overflow").v(full);
	j.end_obj();
	j.end_obj();
	return j.text() + "\n";
}

}  // namespace probe
