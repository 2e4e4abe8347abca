// SPDX-License-Identifier: GPL-2.0-only
#include "cli/plots.hpp"

#include <algorithm>

#include "cli/svg.hpp"

namespace eevdf::cli {
namespace {

constexpr size_t MAX_POINTS = 3000;  // per series; longer series keep every k-th point and the last

void thin(svg::Series& s)
{
	if (s.points.size() <= MAX_POINTS)
		return;
	const size_t k = (s.points.size() + MAX_POINTS - 1) / MAX_POINTS;
	std::vector<std::pair<double, double>> out;
	for (size_t i = 0; i < s.points.size(); i += k)
		out.push_back(s.points[i]);
	if (out.back() != s.points.back())
		out.push_back(s.points.back());
	s.points = std::move(out);
}

double ms(double ns) { return ns / 1e6; }

}  // namespace

std::string lag_figure(const Recorder& r, const std::string& title)
{
	svg::Panel lag{"lag per task: w (V - v) / NICE_0_LOAD", "lag (ms)", {}};
	svg::Panel vr{"vruntime per task, and V", "vruntime - V(0) (virtual ms)", {}};
	const u64 v0 = r.v_samples.empty() ? 0 : r.v_samples.front().v;
	const auto rel = [v0](u64 v) { return static_cast<double>(static_cast<s64>(v - v0)); };
	for (size_t i = 0; i < r.samples.size() && i < r.names.size(); i++) {
		svg::Series l{r.names[i], {}, false}, v{r.names[i], {}, false};
		for (const Sample& s : r.samples[i]) {
			l.points.emplace_back(ms(static_cast<double>(s.t)), ms(static_cast<double>(s.lag_ns)));
			v.points.emplace_back(ms(static_cast<double>(s.t)), ms(rel(s.vruntime)));
		}
		thin(l);
		thin(v);
		lag.series.push_back(std::move(l));
		vr.series.push_back(std::move(v));
	}
	svg::Series V{"V", {}, false};
	for (const auto& [t, v] : r.v_samples)
		V.points.emplace_back(ms(static_cast<double>(t)), ms(rel(v)));
	thin(V);
	vr.series.push_back(std::move(V));
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
		p.series.push_back(std::move(s));
	}
	return svg::line_chart(title, "run length (ms)", {p});
}

std::string claims_figure(const std::vector<std::pair<Claim, std::vector<RowResult>>>& all)
{
	std::vector<svg::BarGroup> groups;
	std::string title, metric;
	for (const auto& [c, rows] : all) {
		title = all.size() == 1 ? c.title : "claims against the model";
		metric = metric.empty() || metric == c.metric.name ? c.metric.name : "value";
		for (const RowResult& r : rows) {
			const std::string verdict = r.verdict == "agrees" ? "" : " [" + r.verdict + "]";
			groups.push_back({(all.size() == 1 ? "" : c.title + ": ") + r.label + verdict, {r.claimed, r.model}});
		}
	}
	return svg::bar_chart(title, metric, {"claimed", "model"}, groups);
}

}  // namespace eevdf::cli
