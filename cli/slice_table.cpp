// SPDX-License-Identifier: GPL-2.0-only
#include "cli/slice_table.hpp"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/seed001.hpp"
#include "io/values.hpp"
#include "model/metrics.hpp"
#include "model/simulation.hpp"
#include "model/workload.hpp"
#include "report/report.hpp"
#include "report/version.hpp"

namespace eevdf::cli {
namespace {

struct TableRow {
	u32 hz = 0;
	std::string slice;  // as given
	u64 base_slice_ns = 0;
	u64 runs = 0, run_sum_ns = 0, switches = 0;
	const Seed001Row* measured = nullptr;

	double avg_ms() const { return runs ? static_cast<double>(run_sum_ns) / static_cast<double>(runs) / 1e6 : 0.0; }
};

void print_markdown(const std::vector<TableRow>& rows, const TableOptions& to, const ModelOptions& mo, bool seed_scenario)
{
	std::printf("%d CPU hogs on one CPU for %s, kernel %s model (hogs only; tick jitter %s, switch cost %s)\n",
		    to.hogs, to.duration.c_str(), mo.kernel.c_str(), mo.tick_jitter.c_str(), mo.switch_cost.c_str());
	if (seed_scenario)
		std::printf("measured: seed 001, stress-ng --cpu 4 on 1 CPU, 30 s (LKML, 20 Mar 2024, tip a26979377bf3)\n");
	for (size_t i = 0; i < rows.size(); i++) {
		const TableRow& r = rows[i];
		if (i == 0 || rows[i - 1].hz != r.hz) {
			std::printf("\nOn CONFIG_HZ=%u (TICK_NSEC = %llu ns)\n\n", r.hz, static_cast<unsigned long long>(tick_nsec(r.hz)));
			std::printf("| base_slice | avg-run (msec) measured | model  | context-switches measured | model |\n");
			std::printf("| ---------- | ----------------------- | ------ | ------------------------- | ----- |\n");
		}
		char mavg[32] = "-", msw[32] = "-";
		if (r.measured) {
			std::snprintf(mavg, sizeof mavg, "%.3f", r.measured->avg_run_ms);
			std::snprintf(msw, sizeof msw, "%llu", static_cast<unsigned long long>(r.measured->context_switches));
		}
		std::printf("| %-10s | %23s | %6.3f | %25s | %5llu |\n", r.slice.c_str(), mavg, r.avg_ms(), msw,
			    static_cast<unsigned long long>(r.switches));
	}
}

void print_json(const std::vector<TableRow>& rows, const TableOptions& to, const ModelOptions& mo, u64 duration,
		bool seed_scenario)
{
	nlohmann::ordered_json doc;
	doc["eevdf"] = version_json();
	doc["hogs"] = to.hogs;
	doc["duration_ns"] = duration;
	doc["kernel"] = mo.kernel;
	doc["knobs"] = {{"tick_jitter_ns", parse_duration(mo.tick_jitter, "--tick-jitter")},
			{"switch_cost_ns", parse_duration(mo.switch_cost, "--switch-cost")}};
	doc["measured"] = seed_scenario ? nlohmann::ordered_json(
						  "seed 001, stress-ng --cpu 4 on 1 CPU, 30 s (LKML, 20 Mar 2024, tip a26979377bf3)")
					: nlohmann::ordered_json(nullptr);
	nlohmann::ordered_json arr = nlohmann::ordered_json::array();
	for (const TableRow& r : rows) {
		nlohmann::ordered_json j;
		j["hz"] = r.hz;
		j["tick_ns"] = tick_nsec(r.hz);
		j["base_slice_ns"] = r.base_slice_ns;
		j["runs"] = r.runs;
		j["avg_run_ns"] = r.runs ? r.run_sum_ns / r.runs : 0;  // floor, as the table's ms are rounded
		j["context_switches"] = r.switches;
		if (r.measured)
			j["measured"] = {{"avg_run_ms", r.measured->avg_run_ms}, {"context_switches", r.measured->context_switches}};
		arr.push_back(j);
	}
	doc["rows"] = arr;
	std::cout << doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

}  // namespace

// The model's version of seed 001's tables, beside the measured values.
int cmd_slice_table(ModelOptions mo, const TableOptions& to)
{
	const u64 duration = parse_duration(to.duration, "--duration");
	if (duration == 0)
		throw UsageError("--duration: must be positive");
	if (to.hogs < 1 || to.hogs > MAX_HOGS)
		throw UsageError("--hogs: " + std::to_string(to.hogs) + " is outside 1.." + std::to_string(MAX_HOGS));
	// Every HZ and slice is checked before anything is simulated, so a bad
	// value gives an error and no partial table.
	for (u32 hz : to.hz)
		for (const std::string& s : to.slices) {
			ModelOptions check = mo;
			check.hz = hz;
			try {
				(void)build_config(check);
			} catch (const UsageError& e) {
				throw UsageError("--hz-list " + std::to_string(hz) + ": " + e.what());
			}
			check.slice = s;
			try {
				(void)build_config(check);
			} catch (const UsageError& e) {
				throw UsageError("--slices " + s + ": " + e.what());
			}
		}
	const bool seed_scenario = to.hogs == 4 && duration == 30 * NSEC_PER_SEC;
	std::vector<TableRow> rows;
	for (u32 hz : to.hz)
		for (const std::string& s : to.slices) {
			mo.hz = hz;
			mo.slice = s;
			const Config cfg = build_config(mo);
			Simulation sim(cfg, hogs_workload(to.hogs, duration));
			MetricsCollector m;
			sim.add_observer(&m);
			sim.run();
			m.finish(sim);
			const TaskMetrics total = total_metrics(m);
			const Distribution d = summarize(total.runs);
			TableRow r{hz, s, cfg.base_slice_ns, d.count, d.sum, total.switches, nullptr};
			for (const Seed001Row& row : seed001_rows)
				if (seed_scenario && row.hz == hz && row.slice_ms * NSEC_PER_MSEC == cfg.base_slice_ns)
					r.measured = &row;
			rows.push_back(r);
		}
	if (to.json)
		print_json(rows, to, mo, duration, seed_scenario);
	else
		print_markdown(rows, to, mo, seed_scenario);
	return 0;
}

}  // namespace eevdf::cli
