// SPDX-License-Identifier: GPL-2.0-only
// `eevdf schbench`: schbench's command line run on the model (io/schbench.hpp
// builds the threads), measured as schbench measures (report/schbench_meter.hpp),
// printed as schbench prints: the wake-up latency and RPS blocks and the
// average rps.
#pragma once

#include <string>
#include <vector>

#include "io/model_options.hpp"

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
	unsigned seeds = 0;  // --seeds N: an ensemble of N seeds (0: one run)
	bool ensemble = false;  // --seeds was given (so that --seeds 0 is refused)
	unsigned jobs = 0;   // threads for the seeds (0: all cores)
};

// One run, or with --seeds N the same run under seeds S..S+N-1 (--seed S)
// in parallel, each figure as the median and 95 % interval over the seeds
// beside the percentile of all seeds' samples pooled.
int cmd_schbench(const ModelOptions& mo, const SchbenchCmdOptions& so);

}  // namespace eevdf::cli
