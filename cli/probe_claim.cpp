// SPDX-License-Identifier: GPL-2.0-only
// `eevdf probe --claim FILE`: a claim's CPU-hog rows measured on the live
// kernel by eevdf-probe, beside the claimed and the model's values.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "claims/claims.hpp"
#include "cli/companion.hpp"
#include "cli/probe_compare.hpp"
#include "cli/probe_table.hpp"
#include "io/values.hpp"

namespace eevdf::cli {
namespace {

using nlohmann::json;
using probe::num;

constexpr u64 MAX_PROBE_NS = 5 * NSEC_PER_SEC;  // a claim row is measured for at most 5 s

std::string setting(const Settings& s, const std::string& key)
{
	std::string v;
	for (const auto& [k, x] : s)
		if (k == key)
			v = x;  // later settings override earlier ones
	return v;
}

// The probe's JSON field for a claim's run-length metric; nullptr for a
// metric the probe does not measure.
const char* probe_run_field(const std::string& metric)
{
	return metric == "mean_run_ms"  ? "mean_ns"
	       : metric == "p50_run_ms" ? "p50_ns"
	       : metric == "p90_run_ms" ? "p90_ns"
	       : metric == "p99_run_ms" ? "p99_ns"
	       : metric == "max_run_ms" ? "max_ns"
					: nullptr;
}

// The metric in ms from the probe's runs (sched_switch if it traced, else
// the spin method).
double kernel_metric(const json& k, const char* field)
{
	const bool traced = k["config"].value("traced", false);
	return k["hogs"][traced ? "trace" : "spin"]["runs_merged"][field].get<double>() / 1e6;
}

}  // namespace

// `eevdf probe --claim FILE`: each row of a hog claim measured on this kernel
// beside the claim and the model. Rows for another HZ, ratio rows, rt-app
// workloads and metrics the probe does not measure are listed as skipped.
int probe_claim(const std::string& file)
{
	const Claim c = load_claim(file);
	const std::vector<RowResult> model = evaluate(c);
	const std::string path = find_companion(PROBE);
	if (path.empty())
		return exec_companion(PROBE, {});  // reports what is missing
	u32 kernel_hz = 0;
	std::string kernel_release;
	std::printf("claim:  %s\nmetric: %s; each row measured by eevdf-probe for at most 5 s on CPU 1\n\n", c.title.c_str(),
		    c.metric.name.c_str());
	std::printf("| %-40s | %10s | %10s | %10s | %-9s | %s\n", "row", "claimed", "model", "kernel", "kernel is", "note");
	for (size_t i = 0; i < c.rows.size(); i++) {
		const ClaimRow& r = c.rows[i];
		Settings all = c.config;
		all.insert(all.end(), r.set.begin(), r.set.end());
		const std::string hz = setting(all, "hz");
		std::string why;
		double kernel = 0;
		if (!r.over.empty() || !r.same_as.empty())
			why = "a ratio or comparison row";
		else if (!c.workload_file.empty() || !setting(all, "workload").empty())
			why = "the probe runs CPU hogs (and a periodic waker) only";
		else if (!probe_run_field(metric_of_row(c, r).name))
			why = "the probe does not measure " + metric_of_row(c, r).name;
		else if (kernel_hz && !hz.empty() && std::to_string(kernel_hz) != hz)
			why = "a row for HZ=" + hz + "; this kernel runs HZ=" + std::to_string(kernel_hz);
		if (why.empty()) {
			std::string slice = setting(all, "custom_slice");
			if (slice.empty())
				slice = setting(all, "slice");
			const std::string hogs = setting(all, "hogs").empty() ? "4" : setting(all, "hogs");
			u64 duration = MAX_PROBE_NS;
			if (const std::string d = setting(all, "duration"); !d.empty())
				duration = std::min(duration, parse_duration(d, "duration"));
			std::string out;
			const int rc = run_probe(path,
						 {"--hogs", hogs, "--slice", slice.empty() ? "default" : slice, "--duration",
						  std::to_string(duration) + "ns", "--cpu", "1", "--isolate"},
						 out);
			if (rc != 0)
				return rc;
			try {
				const json k = json::parse(out);
				kernel_hz = k["kernel"]["hz"].get<u32>();
				kernel_release = k["kernel"]["release"].get<std::string>();
				if (!hz.empty() && std::to_string(kernel_hz) != hz)
					why = "a row for HZ=" + hz + "; this kernel runs HZ=" + std::to_string(kernel_hz);
				else
					kernel = kernel_metric(k, probe_run_field(metric_of_row(c, r).name));
			} catch (const std::exception& e) {
				std::cerr << "eevdf: probe --claim: " << c.file << ": rows[" << i << "] (" << r.label
					  << "): the probe's output is not the JSON it prints: " << e.what() << "\n";
				return 2;
			}
		}
		const RowResult& m = model[i];
		const std::string claimed = m.claimed ? num(*m.claimed) : "-";
		if (!why.empty()) {
			std::printf("| %-40s | %10s | %10s | %10s | %-9s | skipped: %s\n", m.label.c_str(), claimed.c_str(),
				    num(m.model).c_str(), "-", "-", why.c_str());
			continue;
		}
		const char* verdict = m.claimed ? (row_agrees(c, r, *m.claimed, kernel) ? "agrees" : "DISAGREES") : "info";
		std::printf("| %-40s | %10s | %10s | %10s | %-9s |\n", m.label.c_str(), claimed.c_str(),
			    num(m.model).c_str(), num(kernel).c_str(), verdict);
	}
	if (!kernel_release.empty())
		std::printf("\nkernel %s, HZ=%u\n", kernel_release.c_str(), kernel_hz);
	return 0;
}

}  // namespace eevdf::cli
