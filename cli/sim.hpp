// SPDX-License-Identifier: GPL-2.0-only
// `eevdf sim`: its options, the workload they describe, and one run of the
// model with the requested outputs written.
#pragma once

#include <string>

#include "io/model_options.hpp"
#include "io/rtapp.hpp"
#include "model/workload.hpp"

namespace eevdf::cli {

struct SimOptions {
	std::string workload;
	int hogs = 0;
	int nice = 0;
	std::string custom_slice;
	std::string pin;  // --pin: CPU list every hog is allowed on ("0", "0-3", "0,2"); empty = all
	std::string duration;
	bool json = false;
	bool trace_waking = false;  // --trace-waking
	bool check = false;
	std::string counterexample = "eevdf-counterexample.json";
	// outputs, each written whole or not at all; "" = not requested
	std::string trace, timehist, latency, csv, map, chrome, svg_lag;
	std::string svg_from, svg_to;  // --from/--to: the --svg-lag figure's window ("" = the whole run)
	std::string schbench;  // "-": after the table on stdout; else a file
	bool want_schbench = false;
};

// The workload of a file or --hogs, with --duration applied. Throws UsageError / InputError.
// `notes`, when given, receives what the workload file set that the model ignores.
Workload build_workload(const SimOptions& s, RtappNotes* notes = nullptr);

// Runs the model once and prints the table or JSON; returns the exit status.
int cmd_sim(const ModelOptions& mo, const SimOptions& so);

}  // namespace eevdf::cli
