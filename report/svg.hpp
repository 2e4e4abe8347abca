// SPDX-License-Identifier: GPL-2.0-only
// SVG charts written by the project: line charts (stacked panels sharing
// the x axis) and grouped bar charts, with axes on "nice" ranges, ticks,
// labels and a legend. Every element a test looks for carries a class and
// data- attributes: <g class="panel" data-title data-x-min data-x-max
// data-y-min data-y-max>, <g class="series" data-name data-points>,
// <text class="title|xlabel|ylabel|tick|legend">, <rect class="bar"
// data-series data-group data-value>.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace eevdf::cli::svg {

struct Series {
	std::string name;
	std::vector<std::pair<double, double>> points;  // (x, y), x ascending
	bool step = false;                              // draw as a step function (a CDF)
	bool downsampled = false;                       // drawn translucent: the points are bucket extremes
	bool dashed = false;                            // drawn dashed: it coincides with an earlier series
	bool markers = false;                           // a circle at every point, smaller for each later series
};

struct Panel {
	std::string title, ylabel;
	std::vector<Series> series;
};

// Panels stacked vertically, one x axis label at the bottom.
std::string line_chart(const std::string& title, const std::string& xlabel, const std::vector<Panel>& panels);

struct BarGroup {
	std::string label;
	std::vector<std::optional<double>> values;  // one per series; none: no bar
};

std::string bar_chart(const std::string& title, const std::string& ylabel, const std::vector<std::string>& series,
		      const std::vector<BarGroup>& groups);

// Horizontal bars, one panel per BarPanel stacked vertically, each with its
// own value axis: labels on the left, the canvas sized to the longest label.
struct BarPanel {
	std::string title, xlabel;
	std::vector<BarGroup> groups;
};
std::string bar_panels(const std::string& title, const std::vector<std::string>& series, const std::vector<BarPanel>& panels);

// A range [lo, hi] widened to round tick steps; `ticks` gets the tick values.
std::pair<double, double> nice_range(double lo, double hi, std::vector<double>& ticks);

std::string escape(const std::string& s);

}  // namespace eevdf::cli::svg
