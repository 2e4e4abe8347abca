// SPDX-License-Identifier: GPL-2.0-only
// The metrics `eevdf sim` reports, measured on a kernel trace: per task its
// CPU time, runs (sched_switch in to out), switches and how they ended
// (prev_state R: involuntary), wake-up latency (sched_waking, or
// sched_wakeup when waking was not traced, to the switch in), migrations,
// wake-ups local/remote/migrated as schedstats counts them and run delay;
// per CPU its busy and idle time and switches. Only what the trace shows:
// lag, ticks, IPIs and balancing are not in it (docs/trace.md).
#pragma once

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/metrics.hpp"
#include "trace/reader.hpp"

namespace eevdf::trace {

// Metrics count what happens in [from, to], both relative to the trace's
// first event (a kernel's timestamps count from boot).
struct Window {
	u64 from = 0;
	u64 to = ~0ULL;  // ~0: to the trace's last event
};

struct TraceMetrics {
	std::vector<TaskMetrics> tasks;  // by pid; pid 0 (idle) is not a task
	std::vector<CpuMetrics> cpus;    // busy_ns, idle_ns, switches (the rest is not in a trace)
	// false: no line came from that CPU, so what it ran is unknown (busy
	// and idle both 0): a CPU idle throughout, or one task never switched.
	std::vector<bool> observed;
	u64 start_ns = 0, end_ns = 0;    // the window the metrics cover, in the trace's clock
	u64 wakeups_of_running = 0;      // sched_wakeup of a task still on its CPU (it had not slept yet)
	// A line whose context is not what its CPU last switched to: a
	// sched_switch is missing. The time in which the switch happened is
	// unattributed (neither busy nor idle), per CPU.
	u64 missed_switches = 0;
	std::vector<u64> unattributed_ns;
};

// A trace beyond one of reader.hpp's limits (MAX_TRACE_TASKS, ...), found
// while its events are measured; measure() names the file and line.
struct TraceLimit : std::length_error {
	using std::length_error::length_error;
};

class StatsBuilder {
public:
	explicit StatsBuilder(Window w = {}) : w_(w) {}
	// Events in trace order; `rs` is the reader's state (CPU count, whether
	// the ring buffer overwrote the start).
	void add(const Event& e, const ReadStats& rs);
	TraceMetrics finish(const ReadStats& rs);
	bool past_window(u64 ts) const { return any_ && w_.to != ~0ULL && ts > w_.to; }

private:
	enum class State : unsigned char { Unknown, Sleeping, Runnable, Running };
	struct TaskState {
		int pid = 0;
		State state = State::Unknown;
		int cpu = -1;             // the CPU it last ran or was queued on
		u64 since = 0;            // when its current run began
		bool since_known = false; // switched in within the trace
		u64 woken_at = ~0ULL;     // pending wake-up
		u32 waker_cpu = 0;
		u64 runnable_since = ~0ULL;
		bool wake_migrated = false;
		TaskMetrics m;
	};
	struct CpuState {
		int curr = -1;            // pid running; -1 before its first switch
		u64 since = 0;
	};
	TaskState& task(int pid, const std::string& comm);
	CpuState& cpu(u32 c, u32 cpus);
	void check_pairs(size_t tasks, size_t cpus) const;
	void account(u32 c, int pid, u64 a, u64 b);
	u64 clip(u64 a, u64 b) const;
	void on_switch(const Event& e, const ReadStats& rs);
	void on_wakeup(const Event& e);
	void missed_switch(const Event& e);

	Window w_;
	std::vector<TaskState> tasks_;
	std::unordered_map<int, size_t> index_;  // pid -> tasks_ index
	std::vector<CpuState> cpus_;
	std::vector<CpuMetrics> cpu_m_;
	std::vector<bool> observed_;
	std::vector<u64> unattributed_;
	u64 missed_switches_ = 0;
	u64 first_ts_ = 0, last_ts_ = 0;
	bool any_ = false;
	u64 wakeups_of_running_ = 0;
};

// Streams the trace through a StatsBuilder.
TraceMetrics measure(Reader& r, Window w = {});

}  // namespace eevdf::trace
