// SPDX-License-Identifier: GPL-2.0-only
// What the probe comparisons (cli/probe_*.cpp) share, internal to them:
// numbers as their tables print them, and the multi-CPU scenario's figures
// of each side (probe_scenario.cpp) and the rows that judge them
// (probe_scenario_rows.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/types.hpp"
#include "model/workload.hpp"

namespace eevdf::cli::probe {

// "12.345": nanoseconds as milliseconds, three decimals.
std::string ms(double ns);
// "1.234": three decimals.
std::string num(double x);

// One side's figures, the rows of the table.
struct ScFig {
	std::string name, role;
	double share = 0, main_cpu = 0, migr_per_s = 0;
	std::optional<double> run_p50_ms;
	double win_min = 0, win_max = 0;
	u64 wakes = 0;
	std::optional<double> lat_p50_us, lat_p90_us;
	double on_prev = 0, target_idle = 0;
};

struct ScSide {
	std::vector<ScFig> tasks;
	std::vector<double> cpu_busy;  // per CPU, busiest first
	std::optional<double> mig_gap_p50_ms;
	double migr_per_s = 0;
	double foreign = 0;            // kernel: share of the CPUs that foreign tasks took
	u64 balance_attempts = 0;      // model: sched_balance_rq() calls
};

// A metric's tolerance: kernel and model agree when |k - m| <= max(abs,
// rel * |k|). `asserted`: the tolerance is justified by the spread of
// repeated kernel runs (docs/kernel-probe.md, "Several CPUs") and the ctest
// kernel_smp_vs_model fails on a disagreement; the other rows are printed.
struct Tol {
	double abs = 0, rel = 0;
	bool asserted = false;
};

struct Row {
	std::string scope, metric;
	std::optional<double> kernel, model;
	Tol tol;
	std::string unit, why;  // why: the mechanism when they differ
	bool agrees() const
	{
		if (!kernel || !model)
			return kernel.has_value() == model.has_value();
		return std::fabs(*kernel - *model) <= std::max(tol.abs, tol.rel * std::fabs(*kernel)) + 1e-12;
	}
};

// The table of a scenario: kernel against model, metric by metric, each
// with its tolerance and, where they differ, why.
std::vector<Row> scenario_rows(const std::string& scenario, const ScSide& k, const ScSide& m);

// The workload the model runs for a probe's scenario JSON `k` (its
// "scenario" and "config"), the window starting at `t0` (probe_scenario.cpp).
Workload scenario_workload(const nlohmann::json& k, u64 t0);

// With --seeds: a row is within when the kernel's value, or its range over
// runs [klo, khi], and the model's interval over the seeds [mlo, mhi]
// overlap (both closed: a zero-width interval of the exact model is within
// when it equals the kernel's value).
inline bool ranges_overlap(double klo, double khi, double mlo, double mhi) { return klo <= mhi && mlo <= khi; }

}  // namespace eevdf::cli::probe
