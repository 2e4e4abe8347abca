// SPDX-License-Identifier: GPL-2.0-only
// perf sched timehist -S: one row per run, written when it ends (the
// sched_switch that takes the task off its CPU) with that CPU, then the
// summary with one idle line per CPU.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include "report/outputs.hpp"

namespace eevdf::cli {

std::string sec_usec(u64 ns)
{
	char b[40];
	std::snprintf(b, sizeof b, "%llu.%06llu", static_cast<unsigned long long>(ns / 1000000000ULL),
		      static_cast<unsigned long long>(ns % 1000000000ULL / 1000ULL));
	return b;
}

std::string msec(u64 ns)
{
	char b[40];
	std::snprintf(b, sizeof b, "%llu.%03llu", static_cast<unsigned long long>(ns / 1000000ULL),
		      static_cast<unsigned long long>(ns % 1000000ULL / 1000ULL));
	return b;
}

namespace {

// Layout of tools/perf/builtin-sched.c (timehist_header(),
// timehist_print_sample(), print_thread_runtime(),
// timehist_print_summary()), printf for printf, trailing spaces included:
// print_sched_time() prints "%*lu.%03lu " (msec.usec and a space). The
// summary is the one with a "Terminated tasks" section (perf before the
// exited-thread rework, e.g. Debian 12's perf 6.1; newer perf drops exited
// tasks from the summary).
constexpr int COMM_WIDTH = 30;  // comm_width; names cut to 15 bytes never widen it

void sched_time(TextOut& out, u64 ns, int width)
{
	char b[48];
	std::snprintf(b, sizeof b, "%*llu.%03llu ", width, static_cast<unsigned long long>(ns / 1000000ULL),
		      static_cast<unsigned long long>(ns % 1000000ULL / 1000ULL));
	out += b;
}

std::string commstr(const Recorder& r, int task)
{
	return task < 0 ? "<idle>" : r.comm(task) + "[" + std::to_string(r.pid(task)) + "]";
}

std::string dots(int n) { return std::string(static_cast<size_t>(n), '-'); }

// perf's struct stats: Welford's running mean and M2 in double, so the
// printed mean and stddev round as perf's do.
struct Stats {
	u64 n = 0, total = 0, min = ~0ULL, max = 0;
	double mean = 0, m2 = 0;
	bool exited = false;

	void update(u64 v)
	{
		n++;
		const double delta = static_cast<double>(v) - mean;
		mean += delta / static_cast<double>(n);
		m2 += delta * (static_cast<double>(v) - mean);
		min = std::min(min, v);
		max = std::max(max, v);
		total += v;
	}
	// rel_stddev_stats(stddev_stats()): the standard deviation of the mean,
	// in percent of the mean
	double rel_stddev() const
	{
		if (n < 2 || mean == 0)
			return 0.0;
		const double var_mean = m2 / static_cast<double>(n - 1) / static_cast<double>(n);
		return 100.0 * std::sqrt(var_mean) / mean;
	}
};

}  // namespace

void write_timehist(const Recorder& r, const TextSink& sink)
{
	TextOut out(sink);
	char b[256];
	std::snprintf(b, sizeof b, "%15s %6s  %-*s  %9s  %9s  %9s\n", "time", "cpu", COMM_WIDTH, "task name", "wait time",
		      "sch delay", "run time");
	out += b;
	std::snprintf(b, sizeof b, "%15s %-6s  %-*s  %9s  %9s  %9s\n", "", "", COMM_WIDTH, "[tid/pid]", "(msec)", "(msec)",
		      "(msec)");
	out += b;
	std::snprintf(b, sizeof b, "%s %s  %s  %s  %s  %s\n", dots(15).c_str(), dots(6).c_str(), dots(COMM_WIDTH).c_str(),
		      dots(9).c_str(), dots(9).c_str(), dots(9).c_str());
	out += b;

	std::map<int, Stats> stats;  // by task id
	const size_t ncpus = std::max<size_t>(r.nr_cpus, 1);
	std::vector<Stats> idle(ncpus);
	// perf's hist_time: from the first sched_switch to the last
	u64 first_switch = r.end_ns, last_switch = 0;
	for (const RunRecord& run : r.runs) {
		first_switch = std::min(first_switch, run.start);
		last_switch = std::max(last_switch, run.end);
	}
	for (const RunRecord& run : r.open_runs)
		first_switch = std::min(first_switch, run.start);
	for (const RunRecord& run : r.runs) {
		const u64 len = run.end - run.start;
		std::snprintf(b, sizeof b, "%15s [%04u]  %-*s ", sec_usec(run.end).c_str(), run.cpu, COMM_WIDTH,
			      commstr(r, run.task).c_str());
		out += b;
		sched_time(out, run.wait, 6);
		// perf sees the idle task switched out runnable (prev_state R), so it
		// counts the time until idle runs again as its scheduling delay too.
		sched_time(out, run.task < 0 ? run.wait : run.delay, 6);
		sched_time(out, len, 6);
		out += "\n";
		if (run.task < 0) {
			idle[run.cpu].update(len);
			continue;
		}
		Stats& s = stats[run.task];
		s.update(len);
		s.exited = s.exited || run.state == 'X';
	}

	out += "\nRuntime summary\n";
	std::snprintf(b, sizeof b, "%*s  parent   sched-in     run-time    min-run     avg-run     max-run  stddev  migrations\n",
		      COMM_WIDTH, "comm");
	out += b;
	std::snprintf(b, sizeof b, "%*s            (count)       (msec)     (msec)      (msec)      (msec)       %%\n",
		      COMM_WIDTH, "");
	out += b;
	out += dots(117) + "\n";
	u64 tasks = 0, sched_count = 0, total_run = 0;
	auto migrations = [&](int task) {
		return static_cast<size_t>(task) < r.migrations.size() ? r.migrations[static_cast<size_t>(task)] : 0;
	};
	auto row = [&](int task, const Stats& s) {
		tasks++;
		sched_count += s.n;
		total_run += s.total;
		std::snprintf(b, sizeof b, "%*s   %5d  %9llu ", COMM_WIDTH, commstr(r, task).c_str(), -1,
			      static_cast<unsigned long long>(s.n));
		out += b;
		sched_time(out, s.total, 8);
		sched_time(out, s.min, 6);
		out += " ";
		sched_time(out, static_cast<u64>(s.mean), 6);
		out += " ";
		sched_time(out, s.max, 6);
		std::snprintf(b, sizeof b, "  %5.2f   %5llu\n", static_cast<double>(static_cast<float>(s.rel_stddev())),
			      static_cast<unsigned long long>(migrations(task)));
		out += b;
	};
	for (const auto& [task, s] : stats)
		if (!s.exited)
			row(task, s);
	const u64 running = tasks;
	if (!running)
		out += "<no still running tasks>\n";
	out += "\nTerminated tasks:\n";
	for (const auto& [task, s] : stats)
		if (s.exited)
			row(task, s);
	if (tasks == running)
		out += "<no terminated tasks>\n";

	const u64 hist_time = last_switch > first_switch ? last_switch - first_switch : 0;
	out += "\nIdle stats:\n";
	for (size_t c = 0; c < ncpus; c++) {
		// perf's wording for an idle task with no completed run in the
		// window: also a CPU that was never idle.
		if (idle[c].n == 0) {
			std::snprintf(b, sizeof b, "    CPU %2zu idle entire time window\n", c);
			out += b;
			continue;
		}
		sched_count += idle[c].n;
		std::snprintf(b, sizeof b, "    CPU %2zu idle for ", c);
		out += b;
		sched_time(out, idle[c].total, 6);
		std::snprintf(b, sizeof b, " msec  (%6.2f%%)\n",
			      hist_time ? 100.0 * static_cast<double>(idle[c].total) / static_cast<double>(hist_time) : 0.0);
		out += b;
	}
	std::snprintf(b, sizeof b, "\n    Total number of unique tasks: %llu\nTotal number of context switches: %llu\n",
		      static_cast<unsigned long long>(tasks), static_cast<unsigned long long>(sched_count));
	out += b;
	out += "           Total run time (msec): ";
	sched_time(out, total_run, 2);
	out += "\n    Total scheduling time (msec): ";
	sched_time(out, hist_time, 2);
	std::snprintf(b, sizeof b, " (x %zu)\n", ncpus);
	out += b;
	out.flush();
}

std::string format_timehist(const Recorder& r)
{
	return whole_text([&](const TextSink& sink) { write_timehist(r, sink); });
}

}  // namespace eevdf::cli
