// SPDX-License-Identifier: GPL-2.0-only
// rt-app JSON workloads (github.com/scheduler-tools/rt-app, doc/tutorial.txt)
// read into and written from an eevdf::Workload: the reader is
// rtapp_read.cpp (with rtapp_events.cpp and rtapp_values.cpp), the writer
// rtapp_write.cpp.
//
// Only what the model can run is accepted: SCHED_OTHER tasks and the events
// run, runtime, sleep, timer, suspend, resume, yield, and wait, signal,
// broad, sync (as suspend/resume on the condition) with lock/unlock around
// them. Anything else is an InputError naming the file, line, column, field
// path, value and reason.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "io/input_error.hpp"
#include "model/workload.hpp"

namespace eevdf {

// What an rt-app file may hold: threads (instances counted), events after
// the instances are expanded, and named resources (timers, mutexes,
// conditions, barriers, suspend/resume objects). Writers of workloads
// (`eevdf trace workload`) keep to them so that what they write is read.
inline constexpr std::size_t RTAPP_MAX_THREADS = 4096;
inline constexpr std::size_t RTAPP_MAX_EVENTS = std::size_t{1} << 20;
inline constexpr std::size_t RTAPP_MAX_REFS = 65536;

// What a parse accepted but does not model: the keys rt-app reads that
// change nothing the fair class does, as paths ("global.calibration"), in
// file order.
struct RtappNotes {
	std::vector<std::string> ignored;
	// Bare "suspend" keys given their task's name, as rt-app's workgen
	// rewrites them (io/workgen.hpp); only for a file that is not JSON as written.
	int workgen_suspends = 0;
};

// Throws InputError. `filename` is only used in messages; `notes`, when
// given, receives what was accepted and ignored.
Workload parse_rtapp(std::string_view text, const std::string& filename, RtappNotes* notes = nullptr);

// Reads the file at `path` and parses it; an unreadable file is an InputError.
Workload load_rtapp_file(const std::string& path, RtappNotes* notes = nullptr);

// `w` as an rt-app file that parse_rtapp reads back to an equal Workload when
// `w` has the shape parse_rtapp produces (see rtapp_read.cpp). Times must be
// whole microseconds. Throws std::invalid_argument for what rt-app cannot
// express.
std::string to_rtapp_json(const Workload& w);

// `w` with every run that never ends ("run": -1, a hog) as a phase looping
// forever over a finite run of `chunk`, which rt-app ends at its global
// duration: rt-app 1.0 never finishes a run of -1 and ignores both the
// duration and SIGTERM meanwhile. The events after such a run, which never
// execute, are dropped. The model runs the two alike (a completed run
// starts the next at once; tests/test_rtapp.cpp).
Workload rtapp_terminating(const Workload& w, u64 chunk = 100 * NSEC_PER_MSEC);

}  // namespace eevdf
