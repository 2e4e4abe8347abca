// SPDX-License-Identifier: GPL-2.0-only
// The schedule in the formats kernel developers read: perf sched timehist
// (rows and -s summary), perf sched latency, perf sched map, schbench's
// wakeup-latency percentiles, CSV of runs and Chrome JSON. Each is a
// complete file's text, or the long ones that text in chunks.
// The exact layouts are in docs/cli.md.
#pragma once

#include <string>
#include <vector>

#include "model/metrics.hpp"
#include "report/record.hpp"
#include "report/text_out.hpp"

namespace eevdf::cli {

std::string format_timehist(const Recorder& r);           // timehist.cpp
std::string format_latency(const Recorder& r);            // latency.cpp
std::string format_csv(const Recorder& r);                // csv.cpp
std::string format_sched_map(const Recorder& r);          // sched_map.cpp; needs the Recorder's switches
std::string format_chrome(const Recorder& r, const std::string& process_name);  // chrome.cpp
// The same texts (a line or more per run or switch) handed to `sink` in
// chunks as they are made (text_out.hpp).
void write_timehist(const Recorder& r, const TextSink& sink);
void write_csv(const Recorder& r, const TextSink& sink);
void write_sched_map(const Recorder& r, const TextSink& sink);
void write_chrome(const Recorder& r, const std::string& process_name, const TextSink& sink);

// schbench.cpp: "Wakeup Latencies percentiles (usec) runtime S (s) (N total samples)" ...
std::string format_schbench(const SampleCounts& wakeup_latency_ns, u64 runtime_ns);

// "123.456789": seconds with microseconds, as perf and ftrace print time stamps.
std::string sec_usec(u64 ns);
// "12.345": milliseconds with three decimals, rounded down like perf's print_sched_time().
std::string msec(u64 ns);

}  // namespace eevdf::cli
