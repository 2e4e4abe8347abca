// SPDX-License-Identifier: GPL-2.0-only
#include "report.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace probe {

void json_summary(Json &j, const char *k, const Summary &s)
{
	j.key(k).obj();
	j.key("count").v(s.n);
	if (s.n) {
		j.key("mean_ns").v(i64(std::llround(s.mean)));
		j.key("min_ns").v(s.min);
		j.key("p50_ns").v(s.p50);
		j.key("p90_ns").v(s.p90);
		j.key("p99_ns").v(s.p99);
		j.key("max_ns").v(s.max);
	}
	j.end_obj();
}

void json_hist(Json &j, const char *k, const std::map<i64, size_t> &h)
{
	j.key(k).arr();
	for (auto &[b, c] : h) {
		j.obj();
		j.key("from_ms").v(b);
		j.key("count").v(c);
		j.end_obj();
	}
	j.end_arr();
}


std::string slice_str(const std::optional<i64> &s)
{
	return s ? ms3(*s) + " ms" : std::string("default");
}

std::string opt_ms(const std::optional<i64> &s) { return s ? ms3(*s) : std::string("n/a"); }

namespace {

void print_summary_header(const char *first)
{
	std::printf("  %-8s %6s %9s %9s %9s %9s %9s %9s\n", first, "runs", "mean", "min",
		    "p50", "p90", "p99", "max");
}

void print_summary(const std::string &name, const Summary &s)
{
	if (s.n == 0) {
		std::printf("  %-8s %6zu\n", name.c_str(), s.n);
		return;
	}
	std::printf("  %-8s %6zu %9.3f %9s %9s %9s %9s %9s\n", name.c_str(), s.n, s.mean / kMs,
		    ms3(s.min).c_str(), ms3(s.p50).c_str(), ms3(s.p90).c_str(),
		    ms3(s.p99).c_str(), ms3(s.max).c_str());
}

void print_hist(const std::map<i64, size_t> &h)
{
	size_t total = 0, top = 0;
	for (auto &[b, c] : h) {
		total += c;
		top = std::max(top, c);
	}
	for (auto &[b, c] : h) {
		int bar = top ? int(50.0 * double(c) / double(top) + 0.5) : 0;
		std::printf("  [%3" PRId64 ",%3" PRId64 ") ms %6zu %5.1f%% %s\n", b, b + 1, c,
			    100.0 * double(c) / double(total), std::string(size_t(bar), '#').c_str());
	}
}

}  // namespace

void print_text(const Report &r)
{
	const auto &tasks = *r.tasks;
	const auto &si = r.si;
	std::printf("command     : %s\n", r.command.c_str());
	std::printf("kernel      : %s %s (%s)\n", si.release.c_str(), si.version.c_str(),
		    si.machine.c_str());
	std::printf("HZ          : %s", si.hz ? std::to_string(*si.hz).c_str() : "unknown");
	if (si.hz)
		std::printf(" from %s", si.hz_source.c_str());
	if (si.measured_hz)
		std::printf("; jiffies rate measured %.1f/s", *si.measured_hz);
	std::printf("\n");
	std::printf("preempt     : %s\n",
		    si.preempt_mode.empty() ? "unknown (/sys/kernel/debug/sched/preempt not readable)"
					    : si.preempt_mode.c_str());
	std::printf("autogroup   : enabled=%d, probe in %s%s\n", si.autogroup_enabled,
		    si.autogroup.c_str(), r.opt.isolate ? " (--isolate: own session)" : "");
	std::printf("setup       : %d hog(s) on CPU %d (of %d online), slice %s, window %s s "
		    "after %s s warm-up\n",
		    r.opt.hogs, r.opt.cpu, si.ncpus_online, slice_str(r.opt.slice_ns).c_str(),
		    strf("%.3f", double(r.opt.duration_ns) / kSec).c_str(),
		    strf("%.3f", double(r.opt.warmup_ns) / kSec).c_str());
	if (r.opt.waker)
		std::printf("waker       : period %s ms, run %s ms (wall clock), first wake "
			    "T0+%s ms, slice %s, timer slack 1 ns\n",
			    ms3(r.opt.waker_period_ns).c_str(), ms3(r.opt.waker_run_ns).c_str(),
			    ms3(r.opt.waker_offset_ns).c_str(),
			    slice_str(r.opt.waker_slice_ns).c_str());
	std::printf("gap         : a run ends at a spin gap > %" PRId64 " us; gaps of %" PRId64
		    "..%" PRId64 " us count as interrupts\n",
		    r.opt.gap_thr_ns / kUs, r.opt.irq_thr_ns / kUs, r.opt.gap_thr_ns / kUs);
	std::printf("trace       : %s\n",
		    r.traced ? "sched_switch + sched_wakeup + local_timer_entry on the CPU, "
			       "trace_clock=mono (ground truth)"
			     : ("off: " + r.trace_note).c_str());

	std::printf("\nper task, /proc/<pid>/task/<tid>/sched deltas over the window:\n");
	std::printf("  %-8s %7s %10s %11s %8s %6s %6s %6s\n", "task", "tid", "se.slice",
		    "sum_exec", "nr_sw", "vol", "invol", "migr");
	for (const auto &t : tasks) {
		const auto &a = t.st0, &b = t.st1;
		if (!a.ok || !b.ok) {
			std::printf("  %-8s %7d  (/proc/.../sched not readable at T0 or T1)\n",
				    t.name.c_str(), int(t.tid.load()));
			continue;
		}
		std::printf("  %-8s %7d %10s %11s %8" PRId64 " %6" PRId64 " %6" PRId64 " %6" PRId64
			    "\n",
			    t.name.c_str(), int(t.tid.load()), opt_ms(b.slice_ns).c_str(),
			    ms3(b.sum_exec_ns - a.sum_exec_ns).c_str(), b.nr_switches - a.nr_switches,
			    b.nr_voluntary - a.nr_voluntary, b.nr_involuntary - a.nr_involuntary,
			    b.nr_migrations - a.nr_migrations);
	}
	std::printf("  (se.slice and sum_exec in ms; deltas between reads at T0%+.3f ms and "
		    "T1%+.3f ms)\n",
		    double(tasks[0].st0.read_at - r.plan.t0) / kMs,
		    double(tasks[0].st1.read_at - r.plan.t1) / kMs);

	std::printf("\nruns, spin method (ms; runs cut by the window edges excluded):\n");
	print_summary_header("task");
	for (size_t i = 0; i < tasks.size(); ++i)
		print_summary(tasks[i].name, r.res[i].spin_runs);
	print_summary("all hogs", r.spin_all);
	std::printf("  merged across foreign interruptions (wall-clock span from one known task "
		    "to the next):\n");
	print_summary("all hogs", r.spin_merged_all);
	std::printf("histogram of hog runs, spin method:\n");
	print_hist(r.spin_hist);
	if (!r.spin_tick_hist.empty()) {
		std::printf("merged hog runs in whole ticks (rounded), spin method:");
		for (auto &[k, c] : r.spin_tick_hist)
			std::printf("  %" PRId64 ":%zu", k, c);
		std::printf("\n");
	}

	if (r.traced) {
		std::printf("\nruns, sched_switch trace (ms):\n");
		print_summary_header("task");
		for (size_t i = 0; i < tasks.size(); ++i)
			print_summary(tasks[i].name, r.res[i].trace_runs);
		print_summary("all hogs", r.trace_all);
		std::printf("  merged across foreign tasks:\n");
		print_summary("all hogs", r.trace_merged_all);
		std::printf("histogram of hog runs, trace:\n");
		print_hist(r.trace_hist);
		if (!r.trace_tick_hist.empty()) {
			std::printf("hog runs in whole ticks (rounded), trace:");
			for (auto &[k, c] : r.trace_tick_hist)
				std::printf("  %" PRId64 ":%zu", k, c);
			std::printf("\n");
		}
		std::printf("run ends per task (trace): preempted / blocked; next is known task / "
			    "foreign / idle\n");
		for (size_t i = 0; i < tasks.size(); ++i) {
			const auto &x = r.res[i];
			std::printf("  %-8s %5zu / %-5zu  %5zu / %5zu / %5zu\n", tasks[i].name.c_str(),
				    x.trace_preempted, x.trace_blocked, x.trace_by_known,
				    x.trace_by_foreign, x.trace_to_idle);
		}
	}

	std::printf("\ntick alignment:\n");
	if (r.tick_ns) {
		if (r.spin_phase.ok)
			std::printf("  spin : %zu/%zu hog->hog switches lie within [-50,+200) us of one "
				    "%.0f ms grid (phase %.3f ms); %zu of %zu short interrupt gaps on it\n",
				    r.spin_ends_at_tick, r.spin_ends, double(*r.tick_ns) / kMs,
				    double(r.spin_phase.phase) / kMs, r.irq_on_grid, r.irq_events);
		else
			std::printf("  spin : too few hog->hog switches (%zu) to look for a grid\n",
				    r.spin_ends);
		if (r.traced) {
			if (r.trace_phase.ok) {
				std::printf("  trace: %zu local_timer_entry, %zu on the tick grid (phase "
					    "%.3f ms), tick period p50 %s ms\n",
					    r.timer_events, r.tick_events, double(r.trace_phase.phase) / kMs,
					    opt_ms(r.tick_period_obs).c_str());
				std::printf("  trace: hog preempted by known task: %zu/%zu within "
					    "[-50,+200) us after a tick; hog runs starting at a tick: "
					    "%zu/%zu\n",
					    r.trace_hog_ends_at_tick, r.trace_hog_ends,
					    r.trace_hog_starts_at_tick, r.trace_hog_starts);
				if (r.end_after_timer.n)
					std::printf("  trace: switch-out minus previous timer interrupt: p50 "
						    "%.1f us, p90 %.1f us, max %.1f us\n",
						    double(r.end_after_timer.p50) / kUs,
						    double(r.end_after_timer.p90) / kUs,
						    double(r.end_after_timer.max) / kUs);
			} else {
				std::printf("  trace: %zu local_timer_entry events, no grid found\n",
					    r.timer_events);
			}
		}
	} else {
		std::printf("  HZ unknown, skipped\n");
	}

	std::printf("\nnoise on CPU %d:\n", r.opt.cpu);
	std::printf("  spin gaps > %" PRId64 " us of hogs: %zu explained by other probe tasks "
		    "running, %zu with no probe task running (foreign task, interrupt or "
		    "hypervisor), %zu partly explained (a hole > %" PRId64 " us)\n"
		    "  time in the window with no probe task on the CPU: %s ms (includes ~30-40 "
		    "us switch overhead per switch)\n",
		    r.opt.gap_thr_ns / kUs,
		    r.gaps_known, r.gaps_foreign, r.gaps_mixed,
		    std::max(r.opt.gap_thr_ns, kSwitchSlack) / kUs, ms3(r.unexplained_ns).c_str());
	if (r.steal_ns)
		std::printf("  host steal time on CPU %d in the window: %s ms (/proc/stat; left out of "
			    "clock_task, so runs are longer than the model's by it)\n",
			    r.opt.cpu, ms3(*r.steal_ns).c_str());
	else
		std::printf("  host steal time: unknown (/proc/stat unreadable)\n");
	if (r.traced) {
		std::printf("  trace: %zu foreign runs, %s ms foreign CPU time, %s ms idle",
			    r.foreign_runs, ms3(r.foreign_ns).c_str(), ms3(r.idle_ns).c_str());
		if (!r.foreign_top.empty()) {
			std::printf("; top:");
			for (auto &[n, f] : r.foreign_top)
				std::printf(" %s(%zux, %s ms)", n.c_str(), f.second, ms3(f.first).c_str());
		}
		std::printf("\n  spin gaps > %" PRId64 " us with no context switch in the trace "
			    "(interrupts / hypervisor): %zu, %s ms\n",
			    r.opt.gap_thr_ns / kUs, r.spin_gaps_no_switch,
			    ms3(r.spin_gaps_no_switch_ns).c_str());
		if (r.trace_written > r.trace_entries)
			std::printf("  WARNING: trace buffer overran (%" PRId64 " of %" PRId64
				    " entries kept)\n",
				    r.trace_entries, r.trace_written);
		if (r.trace_unparsed)
			std::printf("  WARNING: %zu trace lines not parsed\n", r.trace_unparsed);
	}
	for (const auto &t : tasks)
		if (t.gaps.full || t.irqs.full || t.lat.full || t.acts.full)
			std::printf("  WARNING: %s: a measurement buffer filled up\n", t.name.c_str());

	if (r.opt.waker) {
		std::printf("\nwaker:\n");
		std::printf("  activations %zu, periods skipped %" PRId64 "\n", r.waker_acts,
			    r.waker_missed);
		auto lat = [](const char *what, const Summary &s) {
			if (s.n)
				std::printf("  %-46s n=%zu p50 %.1f us, p90 %.1f us, p99 %.1f us, max "
					    "%.1f us\n",
					    what, s.n, double(s.p50) / kUs, double(s.p90) / kUs,
					    double(s.p99) / kUs, double(s.max) / kUs);
		};
		lat("latency expected wake -> first timestamp:", r.waker_lat_spin);
		if (r.traced) {
			lat("latency sched_wakeup -> switch-in (trace):", r.waker_lat_trace);
			std::printf("  hog runs ended by the waker preempting: %zu\n",
				    r.hog_runs_ended_by_waker);
		}
	}
}

std::string make_json(const Report &r)
{
	const auto &tasks = *r.tasks;
	const auto &si = r.si;
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
	j.key("config_hz").opt(si.config_hz);
	j.key("measured_jiffies_hz").opt(si.measured_hz);
	j.key("preempt").v(si.preempt_mode);
	j.key("autogroup_enabled").v(si.autogroup_enabled);
	j.key("autogroup").v(si.autogroup);
	j.key("cpus_online").v(si.ncpus_online);
	j.end_obj();
	j.key("config").obj();
	j.key("hogs").v(r.opt.hogs);
	if (!r.opt.nices.empty()) {
		j.key("nices").arr();
		for (int n : r.opt.nices)
			j.v(n);
		j.end_arr();
	}
	j.key("cpu").v(r.opt.cpu);
	j.key("slice_ns").opt(r.opt.slice_ns);
	j.key("duration_ns").v(r.opt.duration_ns);
	j.key("warmup_ns").v(r.opt.warmup_ns);
	j.key("t0_mono_ns").v(r.plan.t0);
	j.key("gap_threshold_ns").v(r.opt.gap_thr_ns);
	j.key("irq_threshold_ns").v(r.opt.irq_thr_ns);
	j.key("isolate").v(r.opt.isolate);
	if (r.opt.waker) {
		j.key("waker").obj();
		j.key("period_ns").v(r.opt.waker_period_ns);
		j.key("run_ns").v(r.opt.waker_run_ns);
		j.key("offset_ns").v(r.opt.waker_offset_ns);
		j.key("slice_ns").opt(r.opt.waker_slice_ns);
		j.end_obj();
	}
	j.key("traced").v(r.traced);
	if (!r.traced)
		j.key("trace_note").v(r.trace_note);
	j.end_obj();

	j.key("tasks").arr();
	for (size_t i = 0; i < tasks.size(); ++i) {
		const auto &t = tasks[i];
		const auto &x = r.res[i];
		j.obj();
		j.key("name").v(t.name);
		j.key("role").v(t.is_waker ? "waker" : "hog");
		j.key("nice").v(t.nice);
		j.key("tid").v(int(t.tid.load()));
		j.key("requested_slice_ns").opt(t.slice_ns);
		j.key("se_slice_ns").opt(t.st1.slice_ns);
		j.key("proc_delta").obj();
		j.key("valid").v(t.st0.ok && t.st1.ok);
		j.key("sum_exec_runtime_ns").v(t.st1.sum_exec_ns - t.st0.sum_exec_ns);
		j.key("nr_switches").v(t.st1.nr_switches - t.st0.nr_switches);
		j.key("nr_voluntary_switches").v(t.st1.nr_voluntary - t.st0.nr_voluntary);
		j.key("nr_involuntary_switches").v(t.st1.nr_involuntary - t.st0.nr_involuntary);
		j.key("nr_migrations").v(t.st1.nr_migrations - t.st0.nr_migrations);
		j.end_obj();
		json_summary(j, "spin_runs", x.spin_runs);
		json_summary(j, "spin_runs_merged", x.spin_merged);
		j.key("spin_gaps").obj();
		j.key("known").v(x.gaps_known);
		j.key("foreign").v(x.gaps_foreign);
		j.key("mixed").v(x.gaps_mixed);
		j.key("uncovered_by_other_tasks_ns").v(x.unexplained_ns);
		j.end_obj();
		if (r.traced) {
			json_summary(j, "trace_runs", x.trace_runs);
			json_summary(j, "trace_runs_merged", x.trace_merged);
			j.key("trace_ends").obj();
			j.key("preempted").v(x.trace_preempted);
			j.key("blocked").v(x.trace_blocked);
			j.key("next_known").v(x.trace_by_known);
			j.key("next_foreign").v(x.trace_by_foreign);
			j.key("next_idle").v(x.trace_to_idle);
			j.end_obj();
		}
		j.end_obj();
	}
	j.end_arr();

	j.key("hogs").obj();
	j.key("spin").obj();
	json_summary(j, "runs", r.spin_all);
	json_summary(j, "runs_merged", r.spin_merged_all);
	json_hist(j, "histogram", r.spin_hist);
	j.key("histogram_ticks_merged").obj();
	for (auto &[k, c] : r.spin_tick_hist)
		j.key(std::to_string(k)).v(c);
	j.end_obj();
	j.end_obj();
	if (r.traced) {
		j.key("trace").obj();
		json_summary(j, "runs", r.trace_all);
		json_summary(j, "runs_merged", r.trace_merged_all);
		json_hist(j, "histogram", r.trace_hist);
		json_hist(j, "histogram_merged", r.trace_merged_hist);
		j.key("histogram_ticks").obj();
		for (auto &[k, c] : r.trace_tick_hist)
			j.key(std::to_string(k)).v(c);
		j.end_obj();
		j.end_obj();
	}
	i64 invol = 0, sw = 0;
	for (const auto &t : tasks)
		if (!t.is_waker) {
			invol += t.st1.nr_involuntary - t.st0.nr_involuntary;
			sw += t.st1.nr_switches - t.st0.nr_switches;
		}
	j.key("nr_involuntary_switches").v(invol);
	j.key("nr_switches").v(sw);
	j.end_obj();

	j.key("ticks").obj();
	j.key("tick_ns").opt(r.tick_ns);
	j.key("spin_irq_gaps").v(r.irq_events);
	if (r.spin_phase.ok) {
		j.key("spin_phase_ns").v(r.spin_phase.phase);
		j.key("spin_irq_gaps_on_grid").v(r.irq_on_grid);
		j.key("spin_switches").v(r.spin_ends);
		j.key("spin_switches_on_grid").v(r.spin_ends_at_tick);
	}
	if (r.traced) {
		j.key("timer_events").v(r.timer_events);
		j.key("tick_events").v(r.tick_events);
		if (r.trace_phase.ok)
			j.key("trace_phase_ns").v(r.trace_phase.phase);
		j.key("tick_period_observed_ns").opt(r.tick_period_obs);
		j.key("hog_preemptions").v(r.trace_hog_ends);
		j.key("hog_preemptions_at_tick").v(r.trace_hog_ends_at_tick);
		j.key("hog_run_starts").v(r.trace_hog_starts);
		j.key("hog_run_starts_at_tick").v(r.trace_hog_starts_at_tick);
		json_summary(j, "switch_after_timer_irq", r.end_after_timer);
	}
	j.end_obj();

	j.key("noise").obj();
	j.key("spin_gaps_known").v(r.gaps_known);
	j.key("spin_gaps_foreign").v(r.gaps_foreign);
	j.key("spin_gaps_mixed").v(r.gaps_mixed);
	j.key("spin_no_probe_task_ns").v(r.unexplained_ns);
	j.key("steal_ns").opt(r.steal_ns);
	if (r.traced) {
		j.key("foreign_runs").v(r.foreign_runs);
		j.key("foreign_ns").v(r.foreign_ns);
		j.key("idle_ns").v(r.idle_ns);
		j.key("spin_gaps_without_switch").v(r.spin_gaps_no_switch);
		j.key("spin_gaps_without_switch_ns").v(r.spin_gaps_no_switch_ns);
		j.key("trace_entries").v(r.trace_entries);
		j.key("trace_entries_written").v(r.trace_written);
		j.key("foreign_top").arr();
		for (auto &[n, f] : r.foreign_top) {
			j.obj();
			j.key("task").v(n);
			j.key("runs").v(f.second);
			j.key("ns").v(f.first);
			j.end_obj();
		}
		j.end_arr();
	}
	bool full = false;
	for (const auto &t : tasks)
		full = full || t.gaps.full || t.irqs.full || t.lat.full || t.acts.full;
	j.key("buffer_overflow").v(full);
	j.end_obj();

	if (r.opt.waker) {
		j.key("waker").obj();
		j.key("activations").v(r.waker_acts);
		j.key("periods_skipped").v(r.waker_missed);
		json_summary(j, "latency_spin", r.waker_lat_spin);
		if (r.traced) {
			json_summary(j, "latency_trace", r.waker_lat_trace);
			j.key("hog_runs_ended_by_waker").v(r.hog_runs_ended_by_waker);
		}
		j.end_obj();
	}
	j.end_obj();
	return j.text() + "\n";
}

}  // namespace probe
