// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: the command line.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "util.hpp"

namespace probe {

struct Options {
	int hogs = 4;
	std::vector<int> nices;               // one per hog (--nices); empty: all nice 0
	std::optional<i64> slice_ns;          // nullopt: kernel default slice
	i64 duration_ns = 5 * kSec;
	int cpu = 1;
	bool waker = false;
	i64 waker_period_ns = 0;
	i64 waker_run_ns = 0;
	i64 waker_offset_ns = 1 * kMs;
	bool waker_slice_given = false;       // else: same as the hogs
	std::optional<i64> waker_slice_ns;
	bool json = false;
	std::string dump_trace;               // save the raw trace text here
	std::string json_out;                 // also write the JSON here
	bool isolate = false;                 // own session + autogroup nice -20
	i64 gap_thr_ns = 30 * kUs;
	i64 irq_thr_ns = 2 * kUs;
	i64 warmup_ns = 500 * kMs;
	enum class Trace { Auto, On, Off } trace = Trace::Auto;
	// --scenario NAME: unpinned tasks on every CPU (scenario.hpp)
	std::string scenario;
	std::string rtapp;                    // --rtapp FILE: run rt-app FILE under tracing
	i64 rtapp_timeout_ns = 600 * kSec;    // --timeout: rt-app is stopped after this long
	std::string pinned_only;              // the first option given that only a pinned run takes
	i64 share_window_ns = 100 * kMs;      // CPU share measured over windows this long
	i64 sleeper_period_ns = 10 * kMs;     // periodic sleepers: timer period
	i64 sleeper_run_ns = 1 * kMs;         // and CPU time per period
	i64 pingpong_run_ns = 200 * kUs;      // ping-pong: CPU time before waking the partner
};

void usage(FILE *f);
Options parse_args(int argc, char **argv);

}  // namespace probe
