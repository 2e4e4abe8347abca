// SPDX-License-Identifier: GPL-2.0-only
// The project's figures, as SVG (report/svg.hpp): lag and vruntime over time
// per task (sim --svg-lag) and the run-length distribution per configuration
// (plot runs); a claim's claimed-vs-model bars (check --svg) are drawn with
// svg.hpp by the claims engine.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "report/record.hpp"

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

}  // namespace eevdf::cli
