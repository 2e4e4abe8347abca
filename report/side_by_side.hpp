// SPDX-License-Identifier: GPL-2.0-only
// One task's metrics measured on the kernel beside the model's, row by row
// with the relative difference, '*' beyond a threshold: what `eevdf trace
// compare` and `eevdf probe --rtapp` print.
#pragma once

#include <ostream>
#include <string>

#include "model/metrics.hpp"

namespace eevdf::cli {

// "10%" for 0.1.
std::string percent(double fraction);

// The block for one task; returns how many of its rows were flagged.
size_t write_side_by_side(std::ostream& os, const std::string& title, const TaskMetrics& kernel,
			  const TaskMetrics& model, double threshold);

}  // namespace eevdf::cli
