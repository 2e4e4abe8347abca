// SPDX-License-Identifier: GPL-2.0-only
// Chrome JSON (the Trace Event Format, which ui.perfetto.dev and
// chrome://tracing open): {"displayTimeUnit": "ns", "otherData": {...},
// "traceEvents": [...]} with process and thread names ("M"), one complete
// slice ("X", name "run") per run of a task, the run under way at the end
// included (args "in_progress": true), and counters ("C"), one per time,
// sampled at switches, wake-ups and ticks: "lag NAME" {lag_ns} and
// "deadline NAME" {deadline_ns} per queued task and "V" {V_ns}. Virtual
// times are relative to one origin, the first V sample, as the SVG plots
// them (raw vruntime starts near 2^64 - 2^20 on some presets, which no
// viewer plots): otherData names it (vruntime_origin_ns).
// Times are microseconds (ts, dur) with nanosecond decimals.
//
// With several CPUs each CPU is also a process of its own ("CPU N", pid
// 2 + N, one thread tid = pid): its runs as slices named by the task, in
// the order Perfetto lists processes, and its own V (there is no global
// V; the origin is CPU 0's first). The task slices keep the task tracks and
// say the CPU in "cat" and args. One CPU has none of this.
#include <nlohmann/json.hpp>

#include "report/outputs.hpp"

namespace eevdf::cli {
namespace {

using ordered_json = nlohmann::ordered_json;
constexpr int PID = 1;
constexpr int CPU_PID0 = 2;  // below the tasks' 1000 + i, so no tid is shared

double us(u64 ns) { return static_cast<double>(ns) / 1000.0; }

}  // namespace

void write_chrome(const Recorder& r, const std::string& process_name, const TextSink& sink)
{
	const bool smp = r.nr_cpus > 1;
	const std::vector<VSample>& origin_list = smp ? (r.cpu_v_samples.empty() ? r.v_samples : r.cpu_v_samples[0]) : r.v_samples;
	const u64 v0 = origin_list.empty() ? 0 : origin_list.front().v;
	const auto rel = [v0](u64 v) { return static_cast<s64>(v - v0); };
	const ordered_json other = {{"vruntime_origin_ns", std::to_string(v0)},
				    {"counters", "deadline_ns and V_ns are vruntime - vruntime_origin_ns (the first V sample" +
							 std::string(smp ? " of CPU 0" : "") + "); lag_ns is w (V - v) / NICE_0_LOAD"}};
	TextOut out(sink);
	out += "{\"displayTimeUnit\": \"ns\", \"otherData\": " +
	       other.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
	       ", \"traceEvents\": [\n";  // one event a line
	// Each event written as it is made: a long run has millions.
	struct Events {
		TextOut& out;
		bool first = true;
		void push_back(const ordered_json& e)
		{
			out += first ? "" : ",\n";
			out += e.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
			first = false;
		}
	} ev{out};
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
	auto slice = [&](const RunRecord& run, bool in_progress) {
		const std::string cat = "cpu" + std::to_string(run.cpu);
		ordered_json args = {{"prev_state", std::string(1, run.state)}, {"wait_ns", run.wait}, {"delay_ns", run.delay}};
		if (in_progress) {
			args.erase("prev_state");  // it has not been switched out
			args["in_progress"] = true;
		}
		if (smp)
			args["cpu"] = run.cpu;
		ev.push_back({{"ph", "X"}, {"pid", PID}, {"tid", r.pid(run.task)}, {"ts", us(run.start)},
			      {"dur", us(run.end - run.start)}, {"name", "run"}, {"cat", cat}, {"args", args}});
		if (smp) {
			const int pid = CPU_PID0 + static_cast<int>(run.cpu);
			ordered_json cargs = {{"pid", r.pid(run.task)}};
			if (in_progress)
				cargs["in_progress"] = true;
			else
				cargs["prev_state"] = std::string(1, run.state);
			ev.push_back({{"ph", "X"}, {"pid", pid}, {"tid", pid}, {"ts", us(run.start)},
				      {"dur", us(run.end - run.start)}, {"name", r.name(run.task)}, {"cat", cat}, {"args", cargs}});
		}
	};
	for (const RunRecord& run : r.runs)
		if (run.task >= 0)
			slice(run, false);
	for (const RunRecord& run : r.open_runs)
		if (run.task >= 0 && run.end > run.start)
			slice(run, true);
	for (size_t i = 0; i < r.samples.size() && i < r.names.size(); i++)
		for (const Sample& s : r.samples[i]) {
			ev.push_back({{"ph", "C"}, {"pid", PID}, {"ts", us(s.t)}, {"name", "lag " + r.names[i]},
				      {"args", {{"lag_ns", s.lag_ns}}}});
			ev.push_back({{"ph", "C"}, {"pid", PID}, {"ts", us(s.t)}, {"name", "deadline " + r.names[i]},
				      {"args", {{"deadline_ns", rel(s.deadline)}}}});
		}
	if (smp) {
		for (size_t c = 0; c < r.cpu_v_samples.size(); c++)
			for (const auto& [t, v] : r.cpu_v_samples[c])
				ev.push_back({{"ph", "C"}, {"pid", CPU_PID0 + static_cast<int>(c)}, {"ts", us(t)}, {"name", "V"},
					      {"args", {{"V_ns", rel(v)}}}});
	} else {
		for (const auto& [t, v] : r.v_samples)
			ev.push_back({{"ph", "C"}, {"pid", PID}, {"ts", us(t)}, {"name", "V"}, {"args", {{"V_ns", rel(v)}}}});
	}
	out += "\n]}\n";
	out.flush();
}

std::string format_chrome(const Recorder& r, const std::string& process_name)
{
	return whole_text([&](const TextSink& sink) { write_chrome(r, process_name, sink); });
}

}  // namespace eevdf::cli
