// SPDX-License-Identifier: GPL-2.0-only
// The results of one simulation as a readable table and as JSON.
#pragma once

#include <ostream>
#include <string>

#include "model/metrics.hpp"
#include "model/simulation.hpp"

namespace eevdf::cli {

struct Deadlock;

struct Report {
	const Simulation& sim;
	const MetricsCollector& metrics;
	const Deadlock* deadlock = nullptr;  // the one the run ended in (deadlock.hpp), if any
};

// The table, written to `os` as it is made.
void write_table(const Report& r, std::ostream& os);
std::string format_json(const Report& r);  // the schema documented in README.md
// The same, written to `os` as it is made (a run of many tasks never holds
// the whole document).
void write_json(const Report& r, std::ostream& os);

// The sums over all tasks, as the "summary" object reports them.
TaskMetrics total_metrics(const MetricsCollector& m);

}  // namespace eevdf::cli
