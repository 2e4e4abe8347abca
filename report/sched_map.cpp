// SPDX-License-Identifier: GPL-2.0-only
// perf sched map: one line per sched_switch, in the order they happened,
// with a column per CPU showing what runs there after it. Layout after
// tools/perf/builtin-sched.c (map_switch_event(), print_sched_map()) as of
// v6.18: "  ", then per CPU '*' for the CPU that switched (' ' otherwise)
// and "%2s " its task's two-character short name ("   " before the CPU's
// first switch, when perf cannot know what runs there), then
// "  %12s secs " and the time in sec.usec, and, the first time a task is
// switched in, "A0 => name:pid". Short names go A0, B0, ... Z0, A1, ...
// Z9 and then wrap to A0 as perf's do; the idle task is ". " (swapper:0).
#include <cstdio>
#include <vector>

#include "report/outputs.hpp"

namespace eevdf::cli {

void write_sched_map(const Recorder& r, const TextSink& sink)
{
	const size_t ncpus = r.nr_cpus ? r.nr_cpus : 1;
	std::vector<int> curr(ncpus, 0);
	std::vector<bool> seen(ncpus, false);
	std::vector<std::string> shortname(r.names.size());
	std::string idle_name;
	char first = 'A', second = '0';
	TextOut out(sink);
	char b[96];
	for (const SwitchRecord& s : r.switches) {
		std::string& name = s.next < 0 ? idle_name : shortname[static_cast<size_t>(s.next)];
		const bool fresh = name.empty();
		if (fresh && s.next < 0) {
			name = ". ";
		} else if (fresh) {
			name = {first, second};
			if (first < 'Z') {
				first++;
			} else {
				first = 'A';
				second = second < '9' ? static_cast<char>(second + 1) : '0';
			}
		}
		curr[s.cpu] = s.next;
		seen[s.cpu] = true;
		out += "  ";
		for (size_t c = 0; c < ncpus; c++) {
			out += c == s.cpu ? '*' : ' ';
			if (!seen[c]) {
				out += "   ";
				continue;
			}
			out += (curr[c] < 0 ? idle_name : shortname[static_cast<size_t>(curr[c])]) + " ";
		}
		std::snprintf(b, sizeof b, "  %12s secs ", sec_usec(s.t).c_str());
		out += b;
		if (fresh)
			out += name + " => " + (s.next < 0 ? std::string("swapper") : r.comm(s.next)) + ":" +
			       std::to_string(r.pid(s.next));
		out += "\n";
	}
	out.flush();
}

std::string format_sched_map(const Recorder& r)
{
	return whole_text([&](const TextSink& sink) { write_sched_map(r, sink); });
}

}  // namespace eevdf::cli
