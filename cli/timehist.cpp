// SPDX-License-Identifier: GPL-2.0-only
// perf sched timehist: one row per run, written when it ends (the
// sched_switch that takes the task off its CPU) with that CPU, then the -s
// summary with one idle line per CPU. Layout after
// tools/perf/builtin-sched.c (timehist_header(), timehist_print_sample(),
// timehist_print_summary()); comm width 30.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

#include "cli/outputs.hpp"

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

constexpr int COMM_WIDTH = 30;

std::string commstr(const Recorder& r, int task)
{
	return task < 0 ? "<idle>" : r.name(task) + "[" + std::to_string(r.pid(task)) + "]";
}

std::string dots(int n) { return std::string(static_cast<size_t>(n), '-'); }

struct Stats {
	u64 n = 0, total = 0, min = 0, max = 0;
	double sum_sq = 0;
	bool exited = false;
};

}  // namespace

std::string format_timehist(const Recorder& r)
{
	std::string out;
	char b[256];
	std::snprintf(b, sizeof b, "%15s %6s  %-*s  %9s  %9s  %9s\n", "time", "cpu", COMM_WIDTH, "task name", "wait time",
		      "sch delay", "run time");
	out += b;
	std::snprintf(b, sizeof b, "%15s %6s  %-*s  %9s  %9s  %9s\n", "", "", COMM_WIDTH, "[tid/pid]", "(msec)", "(msec)",
		      "(msec)");
	out += b;
	std::snprintf(b, sizeof b, "%s %s  %s  %s  %s  %s\n", dots(15).c_str(), dots(6).c_str(), dots(COMM_WIDTH).c_str(),
		      dots(9).c_str(), dots(9).c_str(), dots(9).c_str());
	out += b;

	std::map<int, Stats> stats;  // by task id; idle is -1
	const size_t ncpus = std::max<size_t>(r.nr_cpus, 1);
	std::vector<u64> idle_ns(ncpus, 0), cpu_runs(ncpus, 0);
	u64 switches = 0;
	for (const RunRecord& run : r.runs) {
		const u64 len = run.end - run.start;
		std::snprintf(b, sizeof b, "%15s [%04u]  %-*s  %9s  %9s  %9s\n", sec_usec(run.end).c_str(), run.cpu,
			      COMM_WIDTH, commstr(r, run.task).c_str(), msec(run.wait).c_str(), msec(run.delay).c_str(),
			      msec(len).c_str());
		out += b;
		cpu_runs[run.cpu]++;
		if (run.task < 0) {
			idle_ns[run.cpu] += len;
			continue;
		}
		switches++;
		Stats& s = stats[run.task];
		s.min = s.n ? std::min(s.min, len) : len;
		s.max = std::max(s.max, len);
		s.n++;
		s.total += len;
		s.sum_sq += static_cast<double>(len) * static_cast<double>(len);
		s.exited = s.exited || run.state == 'X';
	}

	out += "\nRuntime summary\n";
	std::snprintf(b, sizeof b, "%*s  parent   sched-in     run-time    min-run     avg-run     max-run  stddev  migrations\n",
		      COMM_WIDTH, "comm");
	out += b;
	std::snprintf(b, sizeof b, "%*s            (count)       (msec)     (msec)      (msec)      (msec)       %%\n",
		      COMM_WIDTH, "");
	out += b;
	out += dots(COMM_WIDTH + 87) + "\n";
	u64 total_run = 0;
	auto migrations = [&](int task) {
		return static_cast<size_t>(task) < r.migrations.size() ? r.migrations[static_cast<size_t>(task)] : 0;
	};
	auto row = [&](int task, const Stats& s) {
		const double mean = static_cast<double>(s.total) / static_cast<double>(s.n);
		const double var = s.sum_sq / static_cast<double>(s.n) - mean * mean;
		const double rel = mean > 0 ? 100.0 * std::sqrt(var > 0 ? var : 0) / mean : 0;
		std::snprintf(b, sizeof b, "%*s  %6d  %9llu  %11s  %9s  %10s  %10s  %6.2f  %10llu\n", COMM_WIDTH,
			      commstr(r, task).c_str(), -1, static_cast<unsigned long long>(s.n), msec(s.total).c_str(),
			      msec(s.min).c_str(), msec(s.total / s.n).c_str(), msec(s.max).c_str(), rel,
			      static_cast<unsigned long long>(migrations(task)));
		out += b;
	};
	for (const auto& [task, s] : stats) {
		total_run += s.total;
		if (!s.exited)
			row(task, s);
	}
	bool any_exited = false;
	for (const auto& [task, s] : stats)
		any_exited = any_exited || s.exited;
	if (any_exited) {
		out += "\nTerminated tasks:\n";
		for (const auto& [task, s] : stats)
			if (s.exited)
				row(task, s);
	}
	out += "\nIdle stats:\n";
	for (size_t c = 0; c < ncpus; c++) {
		// perf's wording for a CPU whose idle task never ran a whole period:
		// here one that never switched, so idle from 0 to the end.
		const bool never_switched = cpu_runs[c] == 0 && c < r.open_runs.size() && r.open_runs[c].task < 0 &&
					    r.open_runs[c].start == 0;
		const double pct = r.end_ns ? 100.0 * static_cast<double>(idle_ns[c]) / static_cast<double>(r.end_ns) : 0;
		if (never_switched)
			std::snprintf(b, sizeof b, "    CPU %2zu idle entire time window\n", c);
		else
			std::snprintf(b, sizeof b, "    CPU %2zu idle for %10s  msec  (%6.2f%%)\n", c, msec(idle_ns[c]).c_str(),
				      pct);
		out += b;
	}
	std::snprintf(b, sizeof b,
		      "\n    Total number of unique tasks: %zu\nTotal number of context switches: %llu\n"
		      "           Total run time (msec): %s\n    Total scheduling time (msec): %s (x %zu)\n",
		      stats.size(), static_cast<unsigned long long>(switches), msec(total_run).c_str(),
		      msec(r.end_ns).c_str(), ncpus);
	out += b;
	return out;
}

}  // namespace eevdf::cli
