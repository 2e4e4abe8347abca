// SPDX-License-Identifier: GPL-2.0-only
// `eevdf sim --sweep KEY=VALUES ...`: the model over the cartesian product
// of settings, run in parallel, reported one row per configuration in the
// order of the product (the first --sweep varies slowest).
//
// VALUES is a comma-separated list of values and ranges:
//   A..B       A, 2A, 4A, ... while <= B (doubling; A > 0)
//   A..B:STEP  A, A+STEP, A+2*STEP, ... while <= B
// Durations (slice, tick-phase, tick-jitter, switch-cost, custom-slice,
// duration) take units (1ms..32ms); hz, cpus, seed, hogs and nice are
// integers; kernel and features are lists only (features separated by ';',
// since one value is itself "+A,-B").
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cli/sim.hpp"
#include "io/model_options.hpp"
#include "model/metrics.hpp"

namespace eevdf::cli {

struct SweepAxis {
	std::string key;
	std::vector<std::string> values;
};

// The most tasks whose CPU shares a row keeps (an ensemble lists them).
inline constexpr size_t MAX_ENSEMBLE_TASKS = 64;

// One configuration's run: its settings, what went wrong, its metrics.
struct SweepRow {
	std::vector<std::pair<std::string, std::string>> settings;
	std::string error;      // a bad configuration (exit 2)
	std::string violation;  // an invariant violation (exit 1)
	std::string json;       // the run's document, with --json
	u64 events_checked = 0;  // with --check
	size_t tasks = 0;
	TaskMetrics total;
	std::vector<u64> task_cpu_ns;  // each task's time on a CPU (none past MAX_ENSEMBLE_TASKS tasks)
	u64 duration_ns = 0;
};

struct Sweep {
	std::vector<SweepAxis> axes;
	std::vector<SweepRow> rows;
	unsigned jobs = 0;
	int status = 0;  // 1 when some configuration broke an invariant
};

// Every configuration of the product of `specs`, on `jobs` threads (0: all
// cores); a bad one is a UsageError naming it, a violation is reported on
// stderr and makes status 1.
Sweep run_sweep(const ModelOptions& mo, const SimOptions& so, const std::vector<std::string>& specs, unsigned jobs);

// Throws UsageError naming --sweep and the spec.
SweepAxis parse_sweep(const std::string& spec);

// The cartesian product, first axis slowest.
std::vector<std::vector<std::pair<std::string, std::string>>> sweep_product(const std::vector<SweepAxis>& axes);

// Applies KEY=VALUE to the options, as the flag --KEY VALUE would.
void apply_setting(ModelOptions& mo, SimOptions& so, const std::string& key, const std::string& value);

// The most threads --jobs may ask for.
inline constexpr unsigned MAX_JOBS = 1024;

// Calls work(i) for every i in 0..n-1 on `jobs` threads (0: all cores;
// never more than n), each i exactly once, and returns the threads used.
// Throws UsageError for jobs past MAX_JOBS. The first exception a call
// throws (by i) is rethrown here once every thread has stopped, so a
// result never depends on which thread ran what.
unsigned run_parallel(size_t n, unsigned jobs, const std::function<void(size_t)>& work);

// Runs every configuration on `jobs` threads (0: all cores) and prints the
// table or a JSON array. Progress goes to stderr when it is a terminal.
int cmd_sweep(const ModelOptions& mo, const SimOptions& so, const std::vector<std::string>& specs, unsigned jobs);

// `eevdf sim --sweep ... --seeds N`: every configuration of the sweep as an
// ensemble of N seeds (--seed S .. S+N-1), each metric its median and 95 %
// interval over the seeds. The runs, configurations times seeds, are at most
// MAX_SWEEP_RUNS: past that it is a UsageError naming both counts.
inline constexpr size_t MAX_SWEEP_RUNS = 10000;
int cmd_sweep_ensemble(const ModelOptions& mo, const SimOptions& so, const std::vector<std::string>& specs,
		       unsigned seeds, unsigned jobs);

// `eevdf plot sweep`: one metric of a sweep against one swept key, one
// line per combination of the other keys' values, as SVG.
struct PlotSweepOptions {
	std::vector<std::string> specs;  // --sweep KEY=VALUES, repeatable
	std::string metric = "mean_run_ms";
	std::string x;                   // the key on the x axis; default the last --sweep
	std::string output;              // -o FILE.svg ("-": stdout)
	unsigned jobs = 0;
};
int cmd_plot_sweep(const ModelOptions& mo, const SimOptions& so, const PlotSweepOptions& po);

}  // namespace eevdf::cli
