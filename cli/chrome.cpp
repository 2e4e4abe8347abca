// SPDX-License-Identifier: GPL-2.0-only
// Chrome JSON (the Trace Event Format, which ui.perfetto.dev and
// chrome://tracing open): {"traceEvents": [...], "displayTimeUnit": "ns"}
// with a process and thread names ("M"), one complete slice ("X", name
// "run") per run of a task, and counters ("C") sampled at every switch,
// wakeup and tick: "lag NAME" {lag_ns}, "deadline NAME" {deadline_ns, the
// virtual deadline} per queued task and "V" {V_ns, avg_vruntime}.
// Times are microseconds (ts, dur) with nanosecond decimals.
#include <nlohmann/json.hpp>

#include "cli/outputs.hpp"

namespace eevdf::cli {
namespace {

using ordered_json = nlohmann::ordered_json;
constexpr int PID = 1;

double us(u64 ns) { return static_cast<double>(ns) / 1000.0; }

}  // namespace

std::string format_chrome(const Recorder& r, const std::string& process_name)
{
	ordered_json ev = ordered_json::array();
	ev.push_back({{"ph", "M"}, {"pid", PID}, {"tid", 0}, {"name", "process_name"}, {"args", {{"name", process_name}}}});
	for (size_t i = 0; i < r.names.size(); i++)
		ev.push_back({{"ph", "M"}, {"pid", PID}, {"tid", r.pids[i]}, {"name", "thread_name"},
			      {"args", {{"name", r.names[i]}}}});
	for (const RunRecord& run : r.runs) {
		if (run.task < 0)
			continue;
		ev.push_back({{"ph", "X"}, {"pid", PID}, {"tid", r.pid(run.task)}, {"ts", us(run.start)},
			      {"dur", us(run.end - run.start)}, {"name", "run"}, {"cat", "cpu0"},
			      {"args", {{"prev_state", std::string(1, run.state)}, {"wait_ns", run.wait}, {"delay_ns", run.delay}}}});
	}
	for (size_t i = 0; i < r.samples.size() && i < r.names.size(); i++)
		for (const Sample& s : r.samples[i]) {
			ev.push_back({{"ph", "C"}, {"pid", PID}, {"ts", us(s.t)}, {"name", "lag " + r.names[i]},
				      {"args", {{"lag_ns", s.lag_ns}}}});
			ev.push_back({{"ph", "C"}, {"pid", PID}, {"ts", us(s.t)}, {"name", "deadline " + r.names[i]},
				      {"args", {{"deadline_ns", s.deadline}}}});
		}
	for (const auto& [t, v] : r.v_samples)
		ev.push_back({{"ph", "C"}, {"pid", PID}, {"ts", us(t)}, {"name", "V"}, {"args", {{"V_ns", v}}}});
	std::string out = "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n";  // one event a line
	for (size_t i = 0; i < ev.size(); i++)
		out += ev[i].dump() + (i + 1 < ev.size() ? ",\n" : "\n");
	return out + "]}\n";
}

}  // namespace eevdf::cli
