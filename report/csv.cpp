// SPDX-License-Identifier: GPL-2.0-only
// One CSV row per completed run of a task (idle excluded), in time order:
// task,pid,start_ns,end_ns,length_ns,reason,cpu. reason is the prev_state of
// the switch that ended the run: R preempted, S blocked, X exited; cpu is the
// CPU it ran on (the rows of all CPUs interleave by end time). Task names
// are quoted as RFC 4180 does when they hold a comma, quote or newline.
#include "report/outputs.hpp"

namespace eevdf::cli {
namespace {

std::string field(const std::string& s)
{
	if (s.find_first_of(",\"\n\r") == std::string::npos)
		return s;
	std::string q = "\"";
	for (char c : s)
		q += c == '"' ? std::string("\"\"") : std::string(1, c);
	return q + "\"";
}

}  // namespace

void write_csv(const Recorder& r, const TextSink& sink)
{
	TextOut out(sink);
	out += "task,pid,start_ns,end_ns,length_ns,reason,cpu\n";
	for (const RunRecord& run : r.runs) {
		if (run.task < 0)
			continue;
		out += field(r.name(run.task)) + "," + std::to_string(r.pid(run.task)) + "," + std::to_string(run.start) + "," +
		       std::to_string(run.end) + "," + std::to_string(run.end - run.start) + "," + run.state + "," +
		       std::to_string(run.cpu) + "\n";
	}
	out.flush();
}

std::string format_csv(const Recorder& r)
{
	return whole_text([&](const TextSink& sink) { write_csv(r, sink); });
}

}  // namespace eevdf::cli
