// SPDX-License-Identifier: GPL-2.0-only
// Chrome JSON (the Trace Event Format, which ui.perfetto.dev and
// chrome://tracing open): {"traceEvents": [...], "displayTimeUnit": "ns"}
// with a process and thread names ("M"), one complete slice ("X", name
// "run") per run of a task, and counters ("C") sampled at every switch,
// wakeup and tick: "lag NAME" {lag_ns}, "deadline NAME" {deadline_ns, the
// virtual deadline} per queued task and "V" {V_ns, avg_vruntime}.
// Times are microseconds (ts, dur) with nanosecond decimals.
//
// With several CPUs each CPU is also a process of its own ("CPU N", pid
// 2 + N, one thread tid = pid): its runs as slices named by the task, in
// the order Perfetto lists processes, and its own V (there is no global
// V). The task slices keep the task tracks and say the CPU in "cat" and
// args. One CPU has none of this, as before.
#include <nlohmann/json.hpp>

#include "cli/outputs.hpp"

namespace eevdf::cli {
namespace {

using ordered_json = nlohmann::ordered_json;
constexpr int PID = 1;
constexpr int CPU_PID0 = 2;  // below the tasks' 1000 + i, so no tid is shared

double us(u64 ns) { return static_cast<double>(ns) / 1000.0; }

}  // namespace

std::string format_chrome(const Recorder& r, const std::string& process_name)
{
	const bool smp = r.nr_cpus > 1;
	ordered_json ev = ordered_json::array();
	ev.push_back({{"ph", "M"}, {"pid", PID}, {"tid", 0}, {"name", "process_name"}, {"args", {{"name", process_name}}}});
	for (size_t i = 0; i < r.names.size(); i++)
		ev.push_back({{"ph", "M"}, {"pid", PID}, {"tid", r.pids[i]}, {"name", "thread_name"},
			      {"args", {{"name", r.names[i]}}}});
	if (smp)
		for (u32 c = 0; c < r.nr_cpus; c++) {
			const int pid = CPU_PID0 + static_cast<int>(c);
			const std::string name = "CPU " + std::to_string(c);
			ev.push_back({{"ph", "M"}, {"pid", pid}, {"tid", pid}, {"name", "process_name"}, {"args", {{"name", name}}}});
			ev.push_back({{"ph", "M"}, {"pid", pid}, {"tid", pid}, {"name", "process_sort_index"},
				      {"args", {{"sort_index", c + 1}}}});
			ev.push_back({{"ph", "M"}, {"pid", pid}, {"tid", pid}, {"name", "thread_name"}, {"args", {{"name", name}}}});
		}
	for (const RunRecord& run : r.runs) {
		if (run.task < 0)
			continue;
		const std::string cat = "cpu" + std::to_string(run.cpu);
		ordered_json args = {{"prev_state", std::string(1, run.state)}, {"wait_ns", run.wait}, {"delay_ns", run.delay}};
		if (smp)
			args["cpu"] = run.cpu;
		ev.push_back({{"ph", "X"}, {"pid", PID}, {"tid", r.pid(run.task)}, {"ts", us(run.start)},
			      {"dur", us(run.end - run.start)}, {"name", "run"}, {"cat", cat}, {"args", args}});
		if (smp) {
			const int pid = CPU_PID0 + static_cast<int>(run.cpu);
			ev.push_back({{"ph", "X"}, {"pid", pid}, {"tid", pid}, {"ts", us(run.start)},
				      {"dur", us(run.end - run.start)}, {"name", r.name(run.task)}, {"cat", cat},
				      {"args", {{"pid", r.pid(run.task)}, {"prev_state", std::string(1, run.state)}}}});
		}
	}
	for (size_t i = 0; i < r.samples.size() && i < r.names.size(); i++)
		for (const Sample& s : r.samples[i]) {
			ev.push_back({{"ph", "C"}, {"pid", PID}, {"ts", us(s.t)}, {"name", "lag " + r.names[i]},
				      {"args", {{"lag_ns", s.lag_ns}}}});
			ev.push_back({{"ph", "C"}, {"pid", PID}, {"ts", us(s.t)}, {"name", "deadline " + r.names[i]},
				      {"args", {{"deadline_ns", s.deadline}}}});
		}
	if (smp) {
		for (size_t c = 0; c < r.cpu_v_samples.size(); c++)
			for (const auto& [t, v] : r.cpu_v_samples[c])
				ev.push_back({{"ph", "C"}, {"pid", CPU_PID0 + static_cast<int>(c)}, {"ts", us(t)}, {"name", "V"},
					      {"args", {{"V_ns", v}}}});
	} else {
		for (const auto& [t, v] : r.v_samples)
			ev.push_back({{"ph", "C"}, {"pid", PID}, {"ts", us(t)}, {"name", "V"}, {"args", {{"V_ns", v}}}});
	}
	std::string out = "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n";  // one event a line
	for (size_t i = 0; i < ev.size(); i++)
		out += ev[i].dump() + (i + 1 < ev.size() ? ",\n" : "\n");
	return out + "]}\n";
}

}  // namespace eevdf::cli
