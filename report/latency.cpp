// SPDX-License-Identifier: GPL-2.0-only
// perf sched latency: per task the run time, the number of times it was
// switched in and the average and maximum delay from becoming runnable
// (wakeup, creation or preemption) to running, sorted like perf's default
// "avg, max, switch, runtime" (descending). Layout after
// tools/perf/builtin-sched.c output_lat_thread() and perf_sched__lat() of
// perf 6.1 (Debian 12's, the perf --timehist follows too): its header says
// "Switches", which perf 6.10+ renamed "Count" ("perf sched: Rename switches
// to count", 2024) for the same number.
#include <algorithm>
#include <cstdio>
#include <map>

#include "report/outputs.hpp"

namespace eevdf::cli {
namespace {

struct Lat {
	int task = 0;
	u64 runtime = 0, count = 0, total_delay = 0, max_delay = 0, max_start = 0, max_end = 0;
};

}  // namespace

std::string format_latency(const Recorder& r)
{
	std::map<int, Lat> by_task;
	for (const RunRecord& run : r.runs) {
		if (run.task < 0)
			continue;
		Lat& l = by_task[run.task];
		l.task = run.task;
		l.runtime += run.end - run.start;
		l.count++;
		l.total_delay += run.delay;
		if (run.delay > l.max_delay || l.count == 1) {
			l.max_delay = run.delay;
			l.max_start = run.start - run.delay;
			l.max_end = run.start;
		}
	}
	std::vector<Lat> rows;
	for (const auto& [task, l] : by_task)
		rows.push_back(l);
	std::stable_sort(rows.begin(), rows.end(), [](const Lat& a, const Lat& b) {
		const u64 aa = a.total_delay / a.count, ba = b.total_delay / b.count;
		if (aa != ba)
			return aa > ba;
		if (a.max_delay != b.max_delay)
			return a.max_delay > b.max_delay;
		if (a.count != b.count)
			return a.count > b.count;
		return a.runtime > b.runtime;
	});

	const std::string rule(139, '-');
	std::string out = "\n " + rule + "\n";
	out += "  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms    | Max delay start "
	       "          | Max delay end          |\n";
	out += " " + rule + "\n";
	char b[320];
	u64 total_runtime = 0, total_count = 0;
	for (const Lat& l : rows) {
		std::string who = "  " + r.comm(l.task) + ":" + std::to_string(r.pid(l.task));
		if (who.size() < 24)
			who.resize(24, ' ');
		std::snprintf(b, sizeof b,
			      "%s|%11.3f ms |%9llu | avg:%8.3f ms | max:%8.3f ms | max start: %12s s | max end: %12s s\n",
			      who.c_str(), static_cast<double>(l.runtime) / 1e6, static_cast<unsigned long long>(l.count),
			      static_cast<double>(l.total_delay) / static_cast<double>(l.count) / 1e6,
			      static_cast<double>(l.max_delay) / 1e6, sec_usec(l.max_start).c_str(), sec_usec(l.max_end).c_str());
		out += b;
		total_runtime += l.runtime;
		total_count += l.count;
	}
	out += " " + std::string(113, '-') + "\n";
	std::snprintf(b, sizeof b, "  TOTAL:                |%11.3f ms |%9llu |\n", static_cast<double>(total_runtime) / 1e6,
		      static_cast<unsigned long long>(total_count));
	out += b;
	out += " " + std::string(51, '-') + "\n";
	return out;
}

}  // namespace eevdf::cli
