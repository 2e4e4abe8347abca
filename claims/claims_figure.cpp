// SPDX-License-Identifier: GPL-2.0-only
// `eevdf check --svg`: a claim's claimed and model values as bars
// (report/svg.hpp), one panel per claim and metric.
#include "claims/claims.hpp"

#include <filesystem>

#include "report/svg.hpp"

namespace eevdf::cli {

std::string claims_figure(const std::vector<std::pair<Claim, std::vector<RowResult>>>& all)
{
	// One panel per claim and metric: every panel has its own value axis,
	// so ticks per second and run lengths in ms are never on one scale.
	std::vector<svg::BarPanel> panels;
	for (const auto& [c, rows] : all) {
		const std::string file = std::filesystem::path(c.file).filename().string();
		for (const RowResult& r : rows) {
			auto it = panels.begin();
			const std::string title = file + ": " + r.metric;
			while (it != panels.end() && it->title != title)
				++it;
			if (it == panels.end()) {
				panels.push_back({title, r.metric, {}});
				it = panels.end() - 1;
			}
			const std::string verdict = r.verdict == "agrees" ? "" : " [" + r.verdict + "]";
			it->groups.push_back({r.label + verdict, {r.claimed, r.model}});
		}
	}
	const std::string title = all.size() == 1 ? all.front().first.title : "claims against the model";
	return svg::bar_panels(title.size() > 110 ? title.substr(0, 107) + "..." : title, {"claimed", "model"}, panels);
}

}  // namespace eevdf::cli
