// SPDX-License-Identifier: GPL-2.0-only
// A task's metrics as `eevdf sim --json` writes them ("cpu_ns" to
// "cpu_ns_per_cpu"), shared by `eevdf sim` and `eevdf trace stats` so the
// two documents compare field by field.
#pragma once

#include <cstddef>
#include <vector>

#include "model/metrics.hpp"
#include "report/json_writer.hpp"

namespace eevdf::cli {

double mean(const Distribution& d);

// Runs counted by their length in ticks, rounded to the nearest tick:
// counts[k] = runs of k ticks for k < MAX_TICK_BUCKETS; `longer` the rest.
inline constexpr size_t MAX_TICK_BUCKETS = size_t{1} << 16;
std::vector<u64> tick_histogram(const SampleCounts& runs, u64 tick, u64& longer);

struct MetricsShape {
	u64 tick_ns = 0;   // run_histogram's bucket; 0: no histogram (a trace without --hz)
	bool smp = false;  // migrations, wake-ups, run delay and per-CPU time
	bool lag = true;   // max_abs_lag_ns (a trace cannot show lag)
};

void write_task_metrics(JsonWriter& w, const TaskMetrics& m, const MetricsShape& shape);

}  // namespace eevdf::cli
