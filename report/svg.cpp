// SPDX-License-Identifier: GPL-2.0-only
#include "report/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace eevdf::cli::svg {
namespace {

// Colour-blind-safe palette (Okabe-Ito).
const char* const COLOURS[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"};
const char* colour(size_t i) { return COLOURS[i % (sizeof COLOURS / sizeof *COLOURS)]; }

constexpr double WIDTH = 760, LEFT = 80, RIGHT = 170, TOP = 40, PANEL_H = 220, GAP = 50, BOTTOM = 50;

std::string num(double v)
{
	char b[48];
	std::snprintf(b, sizeof b, "%.6g", std::abs(v) < 1e-12 ? 0.0 : v);
	return b;
}

std::string coord(double v)
{
	char b[32];
	std::snprintf(b, sizeof b, "%.2f", v);
	return b;
}

std::string text(const std::string& cls, double x, double y, const std::string& s, const std::string& extra = "")
{
	return "<text class=\"" + cls + "\" x=\"" + coord(x) + "\" y=\"" + coord(y) + "\"" + extra + ">" + escape(s) +
	       "</text>\n";
}

std::string header(double height, const std::string& title, double width = WIDTH)
{
	return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
	       coord(width) + "\" height=\"" + coord(height) + "\" viewBox=\"0 0 " + coord(width) + " " + coord(height) +
	       "\" font-family=\"sans-serif\" font-size=\"12\">\n<title>" + escape(title) + "</title>\n" +
	       "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" +
	       text("title", (LEFT + (WIDTH - RIGHT)) / 2, 22, title, " text-anchor=\"middle\" font-size=\"15\"");
}

// The canvas is wide enough for the longest legend (about 7 px a character
// at font-size 12, after the 38 px swatch), never narrower than WIDTH.
double canvas_width(const std::vector<Panel>& panels)
{
	size_t longest = 0;
	for (const Panel& p : panels)
		for (const Series& s : p.series)
			longest = std::max(longest, s.name.size());
	return std::max(WIDTH, WIDTH - RIGHT + 38 + 7.0 * static_cast<double>(longest) + 10);
}

struct Axes {
	double x0, x1, y0, y1;          // data ranges
	double left, top, w, h;         // plot area in pixels
	double px(double x) const { return left + (x - x0) / (x1 - x0) * w; }
	double py(double y) const { return top + h - (y - y0) / (y1 - y0) * h; }
};

std::string axes(const Axes& a, const std::vector<double>& xt, const std::vector<double>& yt, bool xlabels)
{
	std::string o = "<rect x=\"" + coord(a.left) + "\" y=\"" + coord(a.top) + "\" width=\"" + coord(a.w) +
			"\" height=\"" + coord(a.h) + "\" fill=\"none\" stroke=\"#444\"/>\n";
	for (double y : yt) {
		o += "<line x1=\"" + coord(a.left) + "\" x2=\"" + coord(a.left + a.w) + "\" y1=\"" + coord(a.py(y)) +
		     "\" y2=\"" + coord(a.py(y)) + "\" stroke=\"#ddd\"/>\n";
		o += text("tick", a.left - 6, a.py(y) + 4, num(y), " text-anchor=\"end\"");
	}
	for (double x : xt) {
		o += "<line x1=\"" + coord(a.px(x)) + "\" x2=\"" + coord(a.px(x)) + "\" y1=\"" + coord(a.top) + "\" y2=\"" +
		     coord(a.top + a.h) + "\" stroke=\"#eee\"/>\n";
		if (xlabels)
			o += text("tick", a.px(x), a.top + a.h + 16, num(x), " text-anchor=\"middle\"");
	}
	return o;
}

}  // namespace

std::string escape(const std::string& s)
{
	std::string o;
	for (char c : s) {
		switch (c) {
		case '&': o += "&amp;"; break;
		case '<': o += "&lt;"; break;
		case '>': o += "&gt;"; break;
		case '"': o += "&quot;"; break;
		default: o += c;
		}
	}
	return o;
}

std::pair<double, double> nice_range(double lo, double hi, std::vector<double>& ticks)
{
	if (!(hi > lo)) {
		const double pad = lo == 0 ? 1 : std::abs(lo) * 0.1;
		lo -= pad;
		hi += pad;
	}
	const double raw = (hi - lo) / 5;
	const double mag = std::pow(10, std::floor(std::log10(raw)));
	double step = mag;
	for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
		if (m * mag >= raw) {
			step = m * mag;
			break;
		}
	const double a = std::floor(lo / step) * step, b = std::ceil(hi / step) * step;
	ticks.clear();
	for (double t = a; t <= b + step / 2; t += step)
		ticks.push_back(std::abs(t) < step * 1e-9 ? 0 : t);
	return {a, b};
}

// Widens an axis range at an end the data reaches by 4 % of its span, so
// no line (a CDF's last step, a curve at 1.0) hides in the frame; the
// ticks stay where nice_range() put them.
std::pair<double, double> clear_high(std::pair<double, double> axis, double hi)
{
	const double span = axis.second - axis.first;
	if (hi >= axis.second - 1e-9 * span)
		axis.second += 0.04 * span;
	return axis;
}

std::pair<double, double> clear_low(std::pair<double, double> axis, double lo)
{
	const double span = axis.second - axis.first;
	if (lo <= axis.first + 1e-9 * span)
		axis.first -= 0.04 * span;
	return axis;
}

std::pair<double, double> clear_of_frame(std::pair<double, double> axis, double lo, double hi)
{
	// each end widened by 4 % of the span nice_range() gave
	return {clear_low(axis, lo).first, clear_high(axis, hi).second};
}

std::string line_chart(const std::string& title, const std::string& xlabel, const std::vector<Panel>& panels)
{
	double xmin = INFINITY, xmax = -INFINITY;
	for (const Panel& p : panels)
		for (const Series& s : p.series)
			for (const auto& [x, y] : s.points) {
				xmin = std::min(xmin, x);
				xmax = std::max(xmax, x);
			}
	if (xmin > xmax)
		xmin = xmax = 0;
	std::vector<double> xt;
	const auto [x0, x1] = clear_of_frame(nice_range(xmin, xmax, xt), xmin, xmax);
	const double height = TOP + static_cast<double>(panels.size()) * (PANEL_H + GAP) + BOTTOM - GAP + 10;
	std::string o = header(height, title, canvas_width(panels));
	for (size_t pi = 0; pi < panels.size(); pi++) {
		const Panel& p = panels[pi];
		double ymin = INFINITY, ymax = -INFINITY;
		for (const Series& s : p.series)
			for (const auto& [x, y] : s.points) {
				ymin = std::min(ymin, y);
				ymax = std::max(ymax, y);
			}
		if (ymin > ymax)
			ymin = ymax = 0;
		std::vector<double> yt;
		const auto [y0, y1] = clear_of_frame(nice_range(ymin, ymax, yt), ymin, ymax);
		const Axes a{x0, x1, y0, y1, LEFT, TOP + static_cast<double>(pi) * (PANEL_H + GAP), WIDTH - LEFT - RIGHT, PANEL_H};
		o += "<g class=\"panel\" data-title=\"" + escape(p.title) + "\" data-x-min=\"" + num(x0) + "\" data-x-max=\"" +
		     num(x1) + "\" data-y-min=\"" + num(y0) + "\" data-y-max=\"" + num(y1) + "\">\n";
		o += text("panel-title", a.left, a.top - 6, p.title);
		o += axes(a, xt, yt, pi + 1 == panels.size());
		o += text("ylabel", 18, a.top + a.h / 2, p.ylabel,
			  " text-anchor=\"middle\" transform=\"rotate(-90 18 " + coord(a.top + a.h / 2) + ")\"");
		for (size_t si = 0; si < p.series.size(); si++) {
			const Series& s = p.series[si];
			o += "<g class=\"series\" data-name=\"" + escape(s.name) + "\" data-points=\"" +
			     std::to_string(s.points.size()) + "\">\n<polyline fill=\"none\" stroke-width=\"1.5\"" +
			     (s.downsampled ? " stroke-opacity=\"0.45\"" : "") + (s.dashed ? " stroke-dasharray=\"6 4\"" : "") +
			     " stroke=\"" + colour(si) + "\" points=\"";
			for (size_t k = 0; k < s.points.size(); k++) {
				const auto& [x, y] = s.points[k];
				if (s.step && k)
					o += coord(a.px(x)) + "," + coord(a.py(s.points[k - 1].second)) + " ";
				o += coord(a.px(x)) + "," + coord(a.py(y)) + " ";
			}
			o += "\"/>\n";
			// concentric where series share a point: the first is the widest
			const double radius = std::max(1.5, 5.0 - 0.8 * static_cast<double>(si));
			if (s.markers)
				for (const auto& [x, y] : s.points)
					o += "<circle cx=\"" + coord(a.px(x)) + "\" cy=\"" + coord(a.py(y)) + "\" r=\"" + coord(radius) +
					     "\" fill=\"none\" stroke-width=\"1.5\" stroke=\"" + colour(si) + "\"/>\n";
			o += "</g>\n";
			const double ly = a.top + 14 + 18 * static_cast<double>(si);
			o += "<line x1=\"" + coord(a.left + a.w + 12) + "\" x2=\"" + coord(a.left + a.w + 32) + "\" y1=\"" +
			     coord(ly - 4) + "\" y2=\"" + coord(ly - 4) + "\" stroke-width=\"3\"" +
			     (s.dashed ? " stroke-dasharray=\"6 4\"" : "") + " stroke=\"" + colour(si) + "\"/>\n";
			o += text("legend", a.left + a.w + 38, ly, s.name);
		}
		o += "</g>\n";
	}
	o += text("xlabel", LEFT + (WIDTH - LEFT - RIGHT) / 2, height - 12, xlabel, " text-anchor=\"middle\"");
	return o + "</svg>\n";
}

std::string bar_chart(const std::string& title, const std::string& ylabel, const std::vector<std::string>& series,
		      const std::vector<BarGroup>& groups)
{
	double ymin = 0, ymax = 0;
	for (const BarGroup& g : groups)
		for (const auto& v : g.values)
			if (v) {
				ymin = std::min(ymin, *v);
				ymax = std::max(ymax, *v);
			}
	std::vector<double> yt;
	const auto [y0, y1] = nice_range(ymin, ymax, yt);
	const double height = TOP + PANEL_H + 110;
	const double n = static_cast<double>(std::max<size_t>(groups.size(), 1));
	const Axes a{0, n, y0, y1, LEFT, TOP + 10, WIDTH - LEFT - RIGHT, PANEL_H};
	std::string o = header(height, title);
	o += "<g class=\"panel\" data-title=\"" + escape(title) + "\" data-x-min=\"0\" data-x-max=\"" + num(n) +
	     "\" data-y-min=\"" + num(y0) + "\" data-y-max=\"" + num(y1) + "\">\n";
	o += axes(a, {}, yt, false);
	o += text("ylabel", 18, a.top + a.h / 2, ylabel,
		  " text-anchor=\"middle\" transform=\"rotate(-90 18 " + coord(a.top + a.h / 2) + ")\"");
	const double gw = a.w / n, bw = gw * 0.8 / static_cast<double>(std::max<size_t>(series.size(), 1));
	for (size_t gi = 0; gi < groups.size(); gi++) {
		const BarGroup& g = groups[gi];
		const double gx = a.left + gw * static_cast<double>(gi) + gw * 0.1;
		for (size_t si = 0; si < g.values.size() && si < series.size(); si++) {
			if (!g.values[si])
				continue;
			const double v = *g.values[si];
			const double ytop = a.py(std::max(v, 0.0)), ybot = a.py(std::min(v, 0.0));
			o += "<rect class=\"bar\" data-series=\"" + escape(series[si]) + "\" data-group=\"" + escape(g.label) +
			     "\" data-value=\"" + num(v) + "\" x=\"" + coord(gx + bw * static_cast<double>(si)) + "\" y=\"" +
			     coord(ytop) + "\" width=\"" + coord(bw * 0.95) + "\" height=\"" + coord(ybot - ytop) + "\" fill=\"" +
			     colour(si) + "\"/>\n";
		}
		const double lx = gx + gw * 0.4, ly = a.top + a.h + 14;
		o += text("tick", lx, ly, g.label,
			  " text-anchor=\"end\" transform=\"rotate(-30 " + coord(lx) + " " + coord(ly) + ")\"");
	}
	for (size_t si = 0; si < series.size(); si++) {
		const double ly = a.top + 14 + 18 * static_cast<double>(si);
		o += "<rect x=\"" + coord(a.left + a.w + 12) + "\" y=\"" + coord(ly - 10) + "\" width=\"14\" height=\"10\" fill=\"" +
		     colour(si) + "\"/>\n";
		o += text("legend", a.left + a.w + 32, ly, series[si]);
	}
	return o + "</g>\n</svg>\n";
}

std::string bar_panels(const std::string& title, const std::vector<std::string>& series, const std::vector<BarPanel>& panels)
{
	// about 7 px a character at font-size 12
	size_t longest = 10;
	for (const BarPanel& p : panels)
		for (const BarGroup& g : p.groups)
			longest = std::max(longest, g.label.size());
	const double left = 20 + 7.0 * static_cast<double>(longest), plot_w = 420, legend_w = 110;
	const double width = left + plot_w + legend_w, row_h = 26, head = 30, foot = 44;
	double height = TOP;
	for (const BarPanel& p : panels)
		height += head + row_h * static_cast<double>(std::max<size_t>(p.groups.size(), 1)) + foot;
	std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
			coord(width) + "\" height=\"" + coord(height) + "\" viewBox=\"0 0 " + coord(width) + " " +
			coord(height) + "\" font-family=\"sans-serif\" font-size=\"12\">\n<title>" + escape(title) +
			"</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" +
			text("title", width / 2, 22, title, " text-anchor=\"middle\" font-size=\"15\"");
	double y = TOP;
	for (const BarPanel& p : panels) {
		double vmin = 0, vmax = 0;
		for (const BarGroup& g : p.groups)
			for (const auto& v : g.values)
				if (v) {
					vmin = std::min(vmin, *v);
					vmax = std::max(vmax, *v);
				}
		std::vector<double> xt;
		// bars start at 0: only the end their values reach needs room
		const auto [x0, x1] = vmin < 0 ? clear_of_frame(nice_range(vmin, vmax, xt), vmin, vmax)
					       : clear_high(nice_range(vmin, vmax, xt), vmax);
		const double h = row_h * static_cast<double>(std::max<size_t>(p.groups.size(), 1));
		const double top = y + head;
		const auto px = [&, x0 = x0, x1 = x1](double v) { return left + (v - x0) / (x1 - x0) * plot_w; };
		o += "<g class=\"panel\" data-title=\"" + escape(p.title) + "\" data-x-min=\"" + num(x0) + "\" data-x-max=\"" +
		     num(x1) + "\">\n";
		o += text("panel-title", left, top - 8, p.title);
		o += "<rect x=\"" + coord(left) + "\" y=\"" + coord(top) + "\" width=\"" + coord(plot_w) + "\" height=\"" +
		     coord(h) + "\" fill=\"none\" stroke=\"#444\"/>\n";
		for (double t : xt) {
			o += "<line x1=\"" + coord(px(t)) + "\" x2=\"" + coord(px(t)) + "\" y1=\"" + coord(top) + "\" y2=\"" +
			     coord(top + h) + "\" stroke=\"#ddd\"/>\n";
			o += text("tick", px(t), top + h + 14, num(t), " text-anchor=\"middle\"");
		}
		o += text("xlabel", left + plot_w / 2, top + h + 32, p.xlabel, " text-anchor=\"middle\"");
		const double bh = (row_h - 8) / static_cast<double>(std::max<size_t>(series.size(), 1));
		for (size_t gi = 0; gi < p.groups.size(); gi++) {
			const BarGroup& g = p.groups[gi];
			const double gy = top + row_h * static_cast<double>(gi) + 4;
			o += text("tick", left - 6, gy + row_h / 2, g.label, " text-anchor=\"end\"");
			for (size_t si = 0; si < g.values.size() && si < series.size(); si++) {
				if (!g.values[si])
					continue;
				const double v = *g.values[si];
				const double a = px(std::min(v, 0.0)), b = px(std::max(v, 0.0));
				o += "<rect class=\"bar\" data-series=\"" + escape(series[si]) + "\" data-group=\"" + escape(g.label) +
				     "\" data-value=\"" + num(v) + "\" x=\"" + coord(a) + "\" y=\"" + coord(gy + bh * static_cast<double>(si)) +
				     "\" width=\"" + coord(std::max(b - a, 0.5)) + "\" height=\"" + coord(bh * 0.9) + "\" fill=\"" +
				     colour(si) + "\"/>\n";
			}
		}
		for (size_t si = 0; si < series.size(); si++) {
			const double ly = top + 12 + 18 * static_cast<double>(si);
			o += "<rect x=\"" + coord(left + plot_w + 12) + "\" y=\"" + coord(ly - 10) +
			     "\" width=\"14\" height=\"10\" fill=\"" + colour(si) + "\"/>\n";
			o += text("legend", left + plot_w + 32, ly, series[si]);
		}
		o += "</g>\n";
		y += head + h + foot;
	}
	return o + "</svg>\n";
}

}  // namespace eevdf::cli::svg
