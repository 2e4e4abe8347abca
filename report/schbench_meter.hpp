// SPDX-License-Identifier: GPL-2.0-only
// schbench's measurements of a run on the model (`eevdf schbench` prints
// them, claims/ judges by them): the wake-up and request latencies and the
// requests per second, recorded as schbench records them.
#pragma once

#include <string>
#include <vector>

#include "model/observer.hpp"
#include "report/schbench_stats.hpp"

namespace eevdf::cli {

// What schbench records: every worker's wake-up latency (fpost of its word
// to its fwait's return), its request latency (from that return, where
// schbench takes work_start, through the think-time sleep and the CPU work,
// to msg_and_wait()'s FUTEX_BLOCKED on its own word at the same instant) and
// the requests completed in each second.
class SchbenchMeter : public Observer {
public:
	SchbenchMeter(const Simulation& sim, u64 warmup_ns);
	void on_futex_post(const Simulation&, u64 t, int task, int word) override;
	void on_futex_block(const Simulation&, u64 t, int task, int word) override;
	void on_futex_wait(const Simulation&, u64 t, int task, int word, bool blocked) override;
	void on_ttwu(const Simulation& sim, u64 t, int task, int waker) override;

	// schbench's recording: whole microseconds of gettimeofday() stamps,
	// only samples above 0 (schbench_stats.hpp).
	SchbenchStats wakeup;             // after the warm-up
	SchbenchStats request;            // completed after the warm-up
	std::vector<u64> requests_per_s;  // per whole second of the run
	u64 requests = 0;                 // after the warm-up
	u64 wakeups = 0, delayed_wakeups = 0;  // try_to_wake_up() of a worker; of one still queued, delayed

private:
	std::vector<int> worker_of_word_;  // task id, or -1 for a non-worker word
	std::vector<u64> posted_at_;
	std::vector<u64> request_start_;  // by task: its request's start, or ~0 between requests
	u64 warmup_ns_;
};

// schbench's RPS block: one sample as the run starts (0 requests) and one
// per whole second after it, in schbench's histogram.
SchbenchStats schbench_rps_stats(const std::vector<u64>& per_second);
std::string format_schbench_rps(const std::vector<u64>& per_second, u64 runtime_s);

}  // namespace eevdf::cli
