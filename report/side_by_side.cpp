// SPDX-License-Identifier: GPL-2.0-only
#include "report/side_by_side.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "report/metrics_json.hpp"

namespace eevdf::cli {
namespace {

std::string fixed(double v, int prec)
{
	char b[64];
	std::snprintf(b, sizeof b, "%.*f", prec, v);
	return b;
}

struct Row {
	const char* name;
	double kernel, model;
	int prec;
};

std::vector<Row> rows(const TaskMetrics& k, const TaskMetrics& m)
{
	const Distribution kr = summarize(k.runs), mr = summarize(m.runs);
	const Distribution kw = summarize(k.wakeup_latency), mw = summarize(m.wakeup_latency);
	auto d = [](u64 v, double scale) { return static_cast<double>(v) / scale; };
	return {
		{"cpu_ms", d(k.cpu_ns, 1e6), d(m.cpu_ns, 1e6), 3},
		{"runs", d(kr.count, 1), d(mr.count, 1), 0},
		{"run_mean_ms", mean(kr) / 1e6, mean(mr) / 1e6, 3},
		{"run_p50_ms", d(kr.p50, 1e6), d(mr.p50, 1e6), 3},
		{"run_p99_ms", d(kr.p99, 1e6), d(mr.p99, 1e6), 3},
		{"run_max_ms", d(kr.max, 1e6), d(mr.max, 1e6), 3},
		{"switches", d(k.switches, 1), d(m.switches, 1), 0},
		{"involuntary", d(k.involuntary_switches, 1), d(m.involuntary_switches, 1), 0},
		{"wake_p50_us", d(kw.p50, 1e3), d(mw.p50, 1e3), 1},
		{"wake_p99_us", d(kw.p99, 1e3), d(mw.p99, 1e3), 1},
		{"migrations", d(k.migrations, 1), d(m.migrations, 1), 0},
		{"run_delay_ms", d(k.run_delay_ns, 1e6), d(m.run_delay_ns, 1e6), 3},
	};
}

bool differs(const Row& r, double threshold)
{
	const double a = r.kernel, b = r.model;
	if (a == b)
		return false;
	const double scale = std::max(std::fabs(a), std::fabs(b));
	return std::fabs(b - a) > threshold * scale;
}

}  // namespace

std::string percent(double fraction) { return fixed(fraction * 100, 0) + "%"; }

size_t write_side_by_side(std::ostream& os, const std::string& title, const TaskMetrics& k, const TaskMetrics& m,
			  double threshold)
{
	char line[256];
	os << "\n" << title << "\n";
	std::snprintf(line, sizeof line, "  %-14s %12s %12s %9s\n", "metric", "kernel", "model", "diff");
	os << line;
	size_t flagged = 0;
	for (const Row& r : rows(k, m)) {
		const bool f = differs(r, threshold);
		flagged += f;
		const std::string pct = r.kernel != 0 ? fixed((r.model - r.kernel) / std::fabs(r.kernel) * 100, 1) + "%" : "-";
		std::snprintf(line, sizeof line, "  %-14s %12s %12s %9s%s\n", r.name, fixed(r.kernel, r.prec).c_str(),
			      fixed(r.model, r.prec).c_str(), pct.c_str(), f ? " *" : "");
		os << line;
	}
	return flagged;
}

}  // namespace eevdf::cli
