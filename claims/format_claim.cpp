// SPDX-License-Identifier: GPL-2.0-only
// A claim's verdicts as a person reads them (a table per claim, its notes and
// what is out of scope) and as one JSON document.
#include "claims/claims.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "report/version.hpp"

namespace eevdf::cli {
namespace {

std::string fmt(double x)
{
	char b[32];
	if (std::fabs(x) >= 1000 || x == std::floor(x))
		std::snprintf(b, sizeof b, "%.0f", x);
	else
		std::snprintf(b, sizeof b, "%.3f", x);
	return b;
}

std::string tolerance_text(const Tolerance& t)
{
	std::string tol;
	if (t.relative) {
		char b[32];
		std::snprintf(b, sizeof b, "%g %%", t.relative * 100);
		tol = b;
	}
	if (t.absolute)
		tol += (tol.empty() ? "" : " or ") + fmt(t.absolute);
	return tol.empty() ? std::string("0 (exact)") : tol;
}

// One format for a row's claimed and model values: whole numbers when both
// are whole or either is 1000 or more, else 3 decimals for both.
std::string fmt_pair(double x, const std::optional<double>& other)
{
	const auto whole = [](double v) { return v == std::floor(v); };
	const bool big = std::fabs(x) >= 1000 || (other && std::fabs(*other) >= 1000);
	const bool ints = whole(x) && (!other || whole(*other));
	char b[40];
	std::snprintf(b, sizeof b, big || ints ? "%.0f" : "%.3f", x);
	return b;
}

std::string delta_of(const std::optional<double>& claimed, double model)
{
	if (!claimed)
		return "-";
	char b[32];
	if (*claimed != 0)
		std::snprintf(b, sizeof b, "%+.1f %%", 100.0 * (model - *claimed) / std::fabs(*claimed));
	else
		std::snprintf(b, sizeof b, "%+.3f", model - *claimed);
	return b;
}

}  // namespace

// How a row is judged against its claimed value, in words.
std::string judged_text(const std::string& compare, const Tolerance& t)
{
	const std::string tol = tolerance_text(t);
	const bool exact = t.relative == 0 && t.absolute == 0;
	if (compare == "at_most")
		return exact ? "at most" : "at most +" + tol;
	if (compare == "at_least")
		return exact ? "at least" : "at least -" + tol;
	return exact ? "exact" : "within " + tol;
}

std::string format_claim(const Claim& c, const std::vector<RowResult>& rows)
{
	std::string s = "claim:  " + c.title + "\n";
	if (!c.source.empty())
		s += "source: " + c.source + "\n";
	if (!c.quote.empty())
		s += "quote:  \"" + c.quote + "\"\n";
	s += "model:  " + label_of(c.config) + (c.workload_file.empty() ? "" : " workload=" + c.workload_file) +
	     "; metric " + c.metric.name + (c.metric.tasks.empty() ? "" : " of tasks " + c.metric.tasks + "*");
	s += "; tolerance " + tolerance_text(c.tolerance) + "\n\n";
	size_t w = 3, mw = 6, jw = 6, vw = 23;
	bool seeded = false;
	for (const RowResult& r : rows) {
		w = std::max(w, r.label.size());
		mw = std::max(mw, r.metric.size());
		jw = std::max(jw, r.judged.size());
		vw = std::max(vw, r.verdict.size());
		seeded = seeded || r.seeds;
	}
	// Rows over seeds add a column: the 2.5th..97.5th percentile of the
	// per-seed values, which the verdict judges (model is their median).
	std::vector<std::string> ivs;
	size_t iw = 13;
	for (const RowResult& r : rows) {
		ivs.push_back(r.seeds ? fmt_pair(r.lo, r.claimed) + " .. " + fmt_pair(r.hi, r.claimed) : "-");
		iw = std::max(iw, ivs.back().size());
	}
	const int W = static_cast<int>(w), MW = static_cast<int>(mw), JW = static_cast<int>(jw),
		  VW = static_cast<int>(vw), IW = static_cast<int>(iw);
	char line[1024];
	const std::string iv_head = seeded ? " | " + std::string("95 % of seeds") + std::string(iw - 13, ' ') : "";
	std::snprintf(line, sizeof line, "| %-*s | %-*s | %10s | %10s%s | %9s | %-*s | %-*s |\n", W, "row", MW,
		      "metric", "claimed", seeded ? "median" : "model", iv_head.c_str(), "delta", JW, "judged", VW,
		      "verdict");
	s += line;
	s += "| " + std::string(w, '-') + " | " + std::string(mw, '-') + " | ---------- | ---------- | " +
	     (seeded ? std::string(iw, '-') + " | " : "") + "--------- | " + std::string(jw, '-') + " | " +
	     std::string(vw, '-') + " |\n";
	for (size_t i = 0; i < rows.size(); i++) {
		const RowResult& r = rows[i];
		const std::string claimed = r.claimed ? fmt_pair(*r.claimed, r.model) : "-";
		const std::string model = fmt_pair(r.model, r.claimed);
		char iv[256] = "";
		if (seeded)
			std::snprintf(iv, sizeof iv, " | %-*s", IW, ivs[i].c_str());
		std::snprintf(line, sizeof line, "| %-*s | %-*s | %10s | %10s%s | %9s | %-*s | %-*s |\n", W,
			      r.label.c_str(), MW, r.metric.c_str(), claimed.c_str(), model.c_str(), iv,
			      delta_of(r.claimed, r.model).c_str(), JW, r.judged.c_str(), VW, r.verdict.c_str());
		s += line;
	}
	bool notes = false;
	for (const RowResult& r : rows)
		if (!r.why.empty() &&
		    (r.verdict == "finding" || r.verdict.rfind("finding:", 0) == 0 || r.verdict == "info" || !r.ok)) {
			if (!notes)
				s += "\n";
			notes = true;
			s += "- " + r.label + ": " + r.why + "\n";
		}
	for (const RowResult& r : rows)
		if (!r.violation.empty())
			s += "- " + (r.label.empty() ? std::string("row") : r.label) + ": " + r.violation + "\n";
	for (const std::string& o : c.out_of_scope)
		s += "- out of scope: " + o + "\n";
	return s;
}

std::string claims_json(const std::vector<std::pair<Claim, std::vector<RowResult>>>& all)
{
	nlohmann::ordered_json doc = nlohmann::ordered_json::array();
	for (const auto& [c, rows] : all) {
		nlohmann::ordered_json j;
		j["eevdf"] = version_json();
		j["file"] = c.file;
		j["claim"] = c.title;
		j["source"] = c.source;
		j["metric"] = c.metric.name;
		nlohmann::ordered_json rs = nlohmann::ordered_json::array();
		for (const RowResult& r : rows) {
			nlohmann::ordered_json x;
			x["row"] = r.label;
			x["metric"] = r.metric;
			x["claimed"] = r.claimed ? nlohmann::ordered_json(*r.claimed) : nlohmann::ordered_json(nullptr);
			x["model"] = r.model;
			x["judged"] = {{"compare", r.compare}, {"relative", r.tolerance.relative}, {"absolute", r.tolerance.absolute},
				       {"text", r.judged}};
			if (r.seeds)  // model is the median; the verdict judges [lo, hi]
				x["seeds"] = {{"count", r.seeds},
					      {"lo", r.lo},
					      {"hi", r.hi},
					      {"interval", "2.5th..97.5th percentile"}};
			x["verdict"] = r.verdict;
			x["ok"] = r.ok;
			if (!r.violation.empty())
				x["violation"] = r.violation;
			if (!r.why.empty())
				x["why"] = r.why;
			rs.push_back(x);
		}
		j["rows"] = rs;
		j["out_of_scope"] = c.out_of_scope;
		doc.push_back(j);
	}
	return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace eevdf::cli
