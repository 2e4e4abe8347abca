// SPDX-License-Identifier: GPL-2.0-only
// The project's figures, as SVG (cli/svg.hpp): lag and vruntime over time
// per task (sim --svg-lag), the run-length distribution per configuration
// (plot runs) and a claim's claimed-vs-model bars (check --svg).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cli/claims.hpp"
#include "cli/record.hpp"

namespace eevdf::cli {

// Two panels over time (ms): each task's lag (ms) and its vruntime minus the
// first V sampled (virtual ms), with V itself as a series.
// Lag and v - V per task over [from, to) (ns; to = 0: the end), each series
// downsampled to at most MAX_POINTS keeping every bucket's extremes.
std::string lag_figure(const Recorder& r, const std::string& title, u64 from = 0, u64 to = 0);

// The empirical CDF of run lengths (ms), one series per configuration.
// Lines of (x, y) points, one per label, on one panel.
std::string sweep_figure(const std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>>& lines,
			 const std::string& title, const std::string& xlabel, const std::string& ylabel);
std::string runs_figure(const std::vector<std::pair<std::string, std::vector<u64>>>& runs, const std::string& title);

// Claimed and model value of every row, grouped by row.
std::string claims_figure(const std::vector<std::pair<Claim, std::vector<RowResult>>>& all);

}  // namespace eevdf::cli
