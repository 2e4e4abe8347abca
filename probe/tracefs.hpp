// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: a private tracefs instance (setup, switching on and off,
// reading, removal on every exit path) and the parser of its text: the
// sched_switch, sched_waking, sched_wakeup, sched_migrate_task and
// irq_vectors:local_timer_entry lines, with the CPU each was recorded on.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "util.hpp"

namespace probe {

class Tracer {
public:
	std::string note;          // why tracing is off, or remarks
	bool active = false;
	bool have_timer_event = false;
	std::string root, inst;

	// One CPU, sched_switch + sched_wakeup (+ local_timer_entry where the
	// kernel has it): the pinned runs.
	bool setup(int cpu, i64 duration_ns);
	// The CPUs in `cpus`, a per-CPU buffer of `buffer_kb`, every event in
	// `events` ("sched/sched_switch", ...) required, local_timer_entry
	// where the kernel has it.
	bool setup(const std::vector<int> &cpus, long buffer_kb, const std::vector<std::string> &events);
	bool on();
	void off();
	std::string read_trace();
	void teardown();

private:
	bool created_ = false;
	bool mounted_ = false;

	bool find_root();
};

struct TraceEv {
	enum Kind { Switch, Wakeup, Timer, Waking, Migrate } kind;
	i64 ts = 0;
	int cpu = -1;                 // the CPU whose buffer recorded it
	int cur_pid = -1;             // the task current on it then (the line's "comm-pid"; 0 for <idle>)
	int prev_pid = -1, next_pid = -1, pid = -1;
	char prev_state = '?';
	std::string next_comm, prev_comm;
	int target_cpu = -1;          // sched_waking: task_cpu() before selection; sched_wakeup: after
	int orig_cpu = -1, dest_cpu = -1;  // sched_migrate_task
};

struct TraceData {
	std::vector<TraceEv> evs;
	i64 entries_in_buffer = -1, entries_written = -1;
	size_t unparsed = 0;
};

TraceData parse_trace(const std::string &text);

}  // namespace probe
