// SPDX-License-Identifier: GPL-2.0-only
#include "report/plots.hpp"

#include <algorithm>

#include "report/svg.hpp"

namespace eevdf::cli {
namespace {

constexpr size_t MAX_POINTS = 3000;  // per series

// Downsampling that keeps what a reader looks for: the points are cut into
// buckets of k and each bucket keeps its first, lowest, highest and last
// point in time order (so 30 s of a hog's lag sawtooth keeps every peak and
// trough instead of every k-th, aliased, sample).
void thin(svg::Series& s)
{
	if (s.points.size() <= MAX_POINTS)
		return;
	s.downsampled = true;
	const size_t k = (s.points.size() * 4 + MAX_POINTS - 1) / MAX_POINTS;
	std::vector<std::pair<double, double>> out;
	for (size_t b = 0; b < s.points.size(); b += k) {
		const size_t e = std::min(b + k, s.points.size());
		size_t lo = b, hi = b;
		for (size_t i = b; i < e; i++) {
			if (s.points[i].second < s.points[lo].second)
				lo = i;
			if (s.points[i].second > s.points[hi].second)
				hi = i;
		}
		size_t keep[4] = {b, std::min(lo, hi), std::max(lo, hi), e - 1};
		for (size_t j = 0; j < 4; j++)
			if (out.empty() || out.back() != s.points[keep[j]])
				out.push_back(s.points[keep[j]]);
	}
	s.points = std::move(out);
}

double ms(double ns) { return ns / 1e6; }

// Adds `s` to `p`. A curve identical to an earlier one would hide under it:
// its legend says which, and it is drawn dashed over it.
void add_marking_coincident(svg::Panel& p, svg::Series s)
{
	for (const svg::Series& earlier : p.series)
		if (earlier.points == s.points) {
			s.name += " (= " + earlier.name + ")";
			s.dashed = true;
			break;
		}
	p.series.push_back(std::move(s));
}

}  // namespace

std::string lag_figure(const Recorder& r, const std::string& title, u64 from, u64 to)
{
	const auto in = [from, to](u64 t) { return t >= from && (to == 0 || t < to); };
	svg::Panel lag{"lag per task: w (V - v) / NICE_0_LOAD", "lag (ms)", {}};
	svg::Panel vr{"v - V per task (> 0: ahead of its CPU's V)", "v - V (virtual ms)", {}};
	for (size_t i = 0; i < r.samples.size() && i < r.names.size(); i++) {
		svg::Series l{r.names[i], {}, false}, v{r.names[i], {}, false};
		for (const Sample& s : r.samples[i]) {
			if (!in(s.t))
				continue;
			l.points.emplace_back(ms(static_cast<double>(s.t)), ms(static_cast<double>(s.lag_ns)));
			v.points.emplace_back(ms(static_cast<double>(s.t)), ms(static_cast<double>(s.v_minus_V)));
		}
		thin(l);
		thin(v);
		lag.series.push_back(std::move(l));
		vr.series.push_back(std::move(v));
	}
	for (svg::Panel* p : {&lag, &vr})
		for (const svg::Series& x : p->series)
			if (x.downsampled) {
				p->title += " [downsampled: bucket extremes; zoom with --from/--to]";
				break;
			}
	return svg::line_chart(title, "time (ms)", {lag, vr});
}

std::string runs_figure(const std::vector<std::pair<std::string, std::vector<u64>>>& runs, const std::string& title)
{
	svg::Panel p{"fraction of runs no longer than x", "fraction of runs", {}};
	for (const auto& [label, values] : runs) {
		std::vector<u64> v = values;
		std::sort(v.begin(), v.end());
		svg::Series s{label, {}, true};
		if (!v.empty())
			s.points.emplace_back(0.0, 0.0);
		for (size_t i = 0; i < v.size(); i++)
			if (i + 1 == v.size() || v[i + 1] != v[i])  // one point per distinct length
				s.points.emplace_back(ms(static_cast<double>(v[i])),
						      static_cast<double>(i + 1) / static_cast<double>(v.size()));
		thin(s);
		add_marking_coincident(p, std::move(s));
	}
	return svg::line_chart(title, "run length (ms)", {p});
}

std::string sweep_figure(const std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>>& lines,
			 const std::string& title, const std::string& xlabel, const std::string& ylabel)
{
	svg::Panel p{ylabel + " per configuration", ylabel, {}};
	for (const auto& [label, pts] : lines) {
		svg::Series s{label, pts, false};
		s.markers = true;  // each point is a configuration that ran
		add_marking_coincident(p, std::move(s));
	}
	return svg::line_chart(title, xlabel, {p});
}

}  // namespace eevdf::cli
