// SPDX-License-Identifier: GPL-2.0-only
#include "cli/slice_table.hpp"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/ensemble.hpp"
#include "cli/seed001.hpp"
#include "cli/sweep.hpp"
#include "io/profile.hpp"
#include "io/values.hpp"
#include "model/metrics.hpp"
#include "model/simulation.hpp"
#include "model/workload.hpp"
#include "report/report.hpp"
#include "report/version.hpp"
#include "report/run_budget.hpp"

namespace eevdf::cli {
namespace {

struct TableRow {
	u32 hz = 0;
	std::string slice;  // as given
	u64 base_slice_ns = 0;
	u64 runs = 0, run_sum_ns = 0, switches = 0;
	const Seed001Row* measured = nullptr;
	// With --seeds: each seed's avg-run (ms) and switches, seed S first.
	std::vector<double> avg_ms_seeds, switches_seeds;

	double avg_ms() const { return runs ? static_cast<double>(run_sum_ns) / static_cast<double>(runs) / 1e6 : 0.0; }
};

// "median [lo..hi]" of the per-seed values, `decimals` after the point.
std::string interval_cell(const std::vector<double>& v, int decimals)
{
	char b[96];
	std::snprintf(b, sizeof b, "%.*f [%.*f..%.*f]", decimals, quantile_linear(v, 0.5), decimals,
		      quantile_linear(v, 0.025), decimals, quantile_linear(v, 0.975));
	return b;
}

// The seeds' table: the model's cells are the median over the seeds and,
// in brackets, where 95 % of the seeds fall, so that a measured figure can
// be read against the model's spread as LKML tables of repeated runs give
// it (mean or median, then the range).
void print_markdown_seeds(const std::vector<TableRow>& rows, const TableOptions& to, const ModelOptions& mo)
{
	std::printf("model: profile %s, %u seeds (%llu..%llu): median [2.5th..97.5th percentile of the seeds]\n",
		    find_profile(mo.profile).name.c_str(), to.seeds, static_cast<unsigned long long>(mo.seed),
		    static_cast<unsigned long long>(mo.seed + to.seeds - 1));
	std::vector<std::string> avg, sw;
	size_t aw = 22, sww = 22;
	for (const TableRow& r : rows) {
		avg.push_back(interval_cell(r.avg_ms_seeds, 3));
		sw.push_back(interval_cell(r.switches_seeds, 0));
		aw = std::max(aw, avg.back().size());
		sww = std::max(sww, sw.back().size());
	}
	const int AW = static_cast<int>(aw), SW = static_cast<int>(sww);
	for (size_t i = 0; i < rows.size(); i++) {
		const TableRow& r = rows[i];
		if (i == 0 || rows[i - 1].hz != r.hz) {
			std::printf("\nOn CONFIG_HZ=%u (TICK_NSEC = %llu ns)\n\n", r.hz,
				    static_cast<unsigned long long>(tick_nsec(r.hz)));
			std::printf(
				"| base_slice | avg-run (msec) measured | %-*s | context-switches measured | %-*s |\n",
				AW, "model", SW, "model");
			std::printf("| ---------- | ----------------------- | %s | ------------------------- | %s |\n",
				    std::string(aw, '-').c_str(), std::string(sww, '-').c_str());
		}
		char mavg[32] = "-", msw[32] = "-";
		if (r.measured) {
			std::snprintf(mavg, sizeof mavg, "%.3f", r.measured->avg_run_ms);
			std::snprintf(msw, sizeof msw, "%llu",
				      static_cast<unsigned long long>(r.measured->context_switches));
		}
		std::printf("| %-10s | %23s | %*s | %25s | %*s |\n", r.slice.c_str(), mavg, AW, avg[i].c_str(), msw, SW,
			    sw[i].c_str());
	}
}

void print_markdown(const std::vector<TableRow>& rows, const TableOptions& to, const ModelOptions& mo, bool seed_scenario)
{
	std::printf("%d CPU hogs on one CPU for %s, kernel %s model (hogs only; tick jitter %s, switch cost %s)\n",
		    to.hogs, to.duration.c_str(), mo.kernel.c_str(), mo.tick_jitter.c_str(), mo.switch_cost.c_str());
	if (seed_scenario)
		std::printf("measured: seed 001, stress-ng --cpu 4 on 1 CPU, 30 s (LKML, 20 Mar 2024, tip a26979377bf3)\n");
	if (to.ensemble) {
		print_markdown_seeds(rows, to, mo);
		return;
	}
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
		if (to.ensemble) {
			auto iv = [](const std::vector<double>& v) {
				return nlohmann::ordered_json{{"median", quantile_linear(v, 0.5)},
							      {"lo", quantile_linear(v, 0.025)},
							      {"hi", quantile_linear(v, 0.975)}};
			};
			j["seeds"] = {{"avg_run_ms", iv(r.avg_ms_seeds)}, {"context_switches", iv(r.switches_seeds)}};
		}
		arr.push_back(j);
	}
	if (to.ensemble)
		doc["ensemble"] = {
			{"seeds", to.seeds},
			{"first_seed", mo.seed},
			{"profile", find_profile(mo.profile).name},
			{"interval", "2.5th..97.5th percentile of the per-seed values"},
			{"rows", "runs, avg_run_ns and context_switches are the first seed's; seeds has the ensemble"}};
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
	const unsigned seeds = to.ensemble ? to.seeds : 1;
	if (to.ensemble && (to.seeds < 1 || to.seeds > MAX_SEEDS))
		throw UsageError("--seeds: " + std::to_string(to.seeds) + " is not 1.." + std::to_string(MAX_SEEDS));
	if (to.ensemble && mo.seed > ~u64{0} - seeds)
		throw UsageError("--seeds: --seed " + std::to_string(mo.seed) + " + " + std::to_string(seeds) +
				 " seeds passes 2^64");
	const size_t cells = to.hz.size() * to.slices.size();
	if (to.ensemble && (cells > MAX_TABLE_RUNS || cells * seeds > MAX_TABLE_RUNS))
		throw UsageError("--seeds " + std::to_string(seeds) + " x " + std::to_string(cells) +
				 " cells: more than " + std::to_string(MAX_TABLE_RUNS) +
				 " runs (docs/cli.md, 'Limits'); give fewer HZ values, slices or seeds");
	std::vector<TableRow> rows;
	std::vector<ModelOptions> cell_mo;
	for (u32 hz : to.hz)
		for (const std::string& s : to.slices) {
			mo.hz = hz;
			mo.slice = s;
			cell_mo.push_back(mo);
			TableRow r;
			r.hz = hz;
			r.slice = s;
			r.base_slice_ns = build_config(mo).base_slice_ns;
			for (const Seed001Row& row : seed001_rows)
				if (seed_scenario && row.hz == hz && row.slice_ms * NSEC_PER_MSEC == r.base_slice_ns)
					r.measured = &row;
			rows.push_back(r);
		}
	// Run k is cell k / seeds under seed S + k % seeds; each writes only
	// its own slot, so the table does not depend on --jobs.
	struct Run {
		u64 runs = 0, run_sum_ns = 0, switches = 0;
	};
	std::vector<Run> runs(rows.size() * seeds);
	auto run = [&](size_t k) {
		ModelOptions m = cell_mo[k / seeds];
		m.seed += k % seeds;
		Simulation sim(build_config(m), hogs_workload(to.hogs, duration));
		MetricsCollector mc;
		sim.add_observer(&mc);
		run_bounded(sim);
		mc.finish(sim);
		const TaskMetrics total = total_metrics(mc);
		const Distribution d = summarize(total.runs);
		runs[k] = {d.count, d.sum, total.switches};
	};
	if (to.ensemble)
		run_parallel(runs.size(), to.jobs, run);
	else
		for (size_t k = 0; k < runs.size(); k++)
			run(k);
	for (size_t i = 0; i < rows.size(); i++) {
		TableRow& r = rows[i];
		const Run& first = runs[i * seeds];
		r.runs = first.runs;
		r.run_sum_ns = first.run_sum_ns;
		r.switches = first.switches;
		for (unsigned j = 0; j < seeds; j++) {
			const Run& x = runs[i * seeds + j];
			r.avg_ms_seeds.push_back(
				x.runs ? static_cast<double>(x.run_sum_ns) / static_cast<double>(x.runs) / 1e6 : 0.0);
			r.switches_seeds.push_back(static_cast<double>(x.switches));
		}
	}
	if (to.json)
		print_json(rows, to, mo, duration, seed_scenario);
	else
		print_markdown(rows, to, mo, seed_scenario);
	return 0;
}

}  // namespace eevdf::cli
