// SPDX-License-Identifier: GPL-2.0-only
// Reading a kernel scheduler trace as text, line by line (a trace may be
// gigabytes; only one line is held at a time). Three layouts are read:
//
//   ftrace    /sys/kernel/tracing/trace and trace_pipe (trace_print_context():
//             "COMM-PID [CPU] FLAGS SEC.USEC: EVENT: FIELDS", the flags and
//             a "(TGID)" column optional), the fields as TP_printk() prints them;
//   trace-cmd `trace-cmd report`: the same context, with libtraceevent's
//             sched plugin printing "COMM:PID [PRIO] S ==> COMM:PID [PRIO]";
//   perf      `perf script`: "COMM PID [CPU] SEC.USEC: sched:EVENT: FIELDS".
//
// Lines of other events are skipped and counted by name; "[LOST n EVENTS]"
// markers become EventKind::Lost events. Anything else is an InputError
// "FILE:LINE:COL: what", or with lenient counted in ReadStats::unparsed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "trace/event.hpp"

namespace eevdf::trace {

// What a trace may hold, each checked as it is read (an InputError naming
// the file and line beyond it): a trace is a kernel's output, but a file
// can claim anything, and each of these costs memory.
inline constexpr u32 MAX_TRACE_CPUS = 8192;          // the largest NR_CPUS a distribution builds
inline constexpr size_t MAX_TRACE_LINE = 65536;      // bytes; a sched line is ~200
inline constexpr size_t MAX_TRACE_EVENT_NAMES = 1024;  // distinct names of skipped events counted apart
inline constexpr size_t MAX_TRACE_TASKS = size_t{1} << 20;  // distinct pids (PID_MAX_LIMIT is 2^22)
// tasks x CPUs: each task's time is kept per CPU (8 bytes a pair, 256 MiB)
inline constexpr u64 MAX_TRACE_TASK_CPUS = u64{1} << 25;

enum class Format { Unknown, Ftrace, TraceCmd, Perf };
const char* format_name(Format f);

struct ReadOptions {
	bool lenient = false;  // count unparseable lines instead of refusing the file
};

struct ReadStats {
	Format format = Format::Unknown;
	u64 lines = 0;
	u64 events = 0;                        // sched events returned
	// Other events' lines, by event name (past MAX_TRACE_EVENT_NAMES names,
	// the rest together under "(other names)").
	std::map<std::string, u64> skipped;
	u64 unparsed = 0;                      // lenient only
	u64 lost_markers = 0, lost_events = 0; // "[LOST n EVENTS]" lines and their n
	// The ftrace header's "entries-in-buffer/entries-written: N/M": M > N
	// means the ring buffer overwrote M - N events before the read.
	u64 entries_in_buffer = 0, entries_written = 0;
	bool has_entries_header = false;
	u32 header_cpus = 0;                   // "#P:N" or trace-cmd's "cpus=N"; 0 if absent
	u32 max_cpu = 0;                       // the highest CPU column seen
	std::vector<u32> buffer_started;       // "##### CPU N buffer started ####" (the first MAX_TRACE_CPUS)
	unsigned timestamp_digits = 0;         // fraction digits: 6 (usec) or 9 (ns)
	u64 first_ts = 0, last_ts = 0;
	u64 overwritten() const { return entries_written > entries_in_buffer ? entries_written - entries_in_buffer : 0; }
	u32 cpus() const { return header_cpus ? header_cpus : max_cpu + 1; }
	// 10^(9 - digits) ns: what one unit of the timestamps' last digit is (0 before any event).
	u64 resolution_ns() const
	{
		u64 r = timestamp_digits ? 1 : 0;
		for (unsigned d = timestamp_digits; r && d < 9; d++)
			r *= 10;
		return r;
	}
};

class Reader {
public:
	Reader(std::istream& in, std::string file, ReadOptions o = {});
	// The next sched event in file order; false at the end. Timestamps never
	// go back (the kernel merges its per-CPU buffers by time): one that
	// does is an error naming the line.
	bool next(Event& e);
	const ReadStats& stats() const { return stats_; }
	const std::string& file() const { return file_; }
	// "FILE:LINE: " of the line last read, for errors found past the reader.
	std::string where() const { return file_ + ":" + std::to_string(line_no_) + ": "; }

private:
	enum class Line { Event, Skip };
	Line parse(std::string_view line, Event& e);
	bool read_line(bool& too_long);
	[[noreturn]] void fail(size_t col, const std::string& what) const;

	std::istream& in_;
	std::string file_;
	ReadOptions opt_;
	ReadStats stats_;
	std::string line_;
	std::vector<char> buf_;  // MAX_TRACE_LINE + 2: a line, one byte more, and the NUL
	u64 line_no_ = 0;
};

// Reads the whole file (for the tests and small traces).
std::vector<Event> read_all(std::istream& in, const std::string& file, ReadStats* stats = nullptr, ReadOptions o = {});

}  // namespace eevdf::trace
