// SPDX-License-Identifier: GPL-2.0-only
// `eevdf slice-table`: seed 001's tables (avg-run and context switches of
// N hogs on one CPU, per CONFIG_HZ and base slice) computed by the model,
// beside the measured values when the scenario is the seed's, as markdown
// or (--json) one document.
#pragma once

#include <string>
#include <vector>

#include "io/model_options.hpp"

namespace eevdf::cli {

struct TableOptions {
	std::vector<u32> hz{1000, 100};
	std::vector<std::string> slices{"3ms", "6ms", "9ms", "12ms", "22ms", "32ms"};
	int hogs = 4;
	std::string duration = "30s";
	bool json = false;
	unsigned seeds = 0;     // --seeds N: each cell over N seeds (0: one run)
	bool ensemble = false;  // --seeds was given (so that --seeds 0 is refused)
	unsigned jobs = 0;      // threads for the runs (0: all cores)
};

// With --seeds N every cell is N runs (--seed S .. S+N-1): the model's
// figure is their median with the 2.5th..97.5th percentile in brackets. The
// runs, cells times seeds, are at most MAX_TABLE_RUNS.
inline constexpr size_t MAX_TABLE_RUNS = 10000;

int cmd_slice_table(ModelOptions mo, const TableOptions& to);

}  // namespace eevdf::cli
