// SPDX-License-Identifier: GPL-2.0-only
// `eevdf schbench`: schbench's command line run on the model (io/schbench.hpp
// builds the threads), measured as schbench measures, printed as schbench
// prints: the wake-up latency and RPS blocks and the average rps.
#pragma once

#include <string>
#include <vector>

#include "cli/schbench_stats.hpp"
#include "io/model_options.hpp"
#include "model/observer.hpp"

namespace eevdf::cli {

struct SchbenchCmdOptions {
	int message_threads = 1, workers = 0, operations = 5;
	u64 runtime_s = 30, sleep_us = 100, warmup_s = 0, interval_s = 10;
	std::string pin;  // -M: "auto" or empty
	bool no_locking = false;
	std::string op_cost, timer_slack = "50us", msg_cost = "1us", worker_cost = "2us";
	int stress = 0;
	std::string schbench_slice, stress_slice;  // custom slices (sched_setattr); empty = none
	std::vector<std::string> with;  // rt-app files whose tasks run beside schbench's
	bool json = false;
};

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

int cmd_schbench(const ModelOptions& mo, const SchbenchCmdOptions& so);

}  // namespace eevdf::cli
