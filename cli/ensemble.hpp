// SPDX-License-Identifier: GPL-2.0-only
// `eevdf sim --seeds N`: the same run under N seeds (S, S+1, ... S+N-1 from
// --seed S), in parallel, each metric reported as the median over the seeds
// with the central 95 % of the per-seed values, and the percentiles of all
// seeds' samples pooled (docs/profiles.md, "Ensembles"). Under the exact
// profile with no --tick-jitter every seed gives the same schedule (the
// seed only draws costs), which the table then shows as a zero-width range.
#pragma once

#include <string>
#include <vector>

#include "cli/sim.hpp"
#include "io/model_options.hpp"
#include "report/quantile.hpp"

namespace eevdf::cli {

// The most seeds one ensemble runs.
inline constexpr unsigned MAX_SEEDS = 10000;

// One metric over the seeds: its median, the 2.5th and 97.5th percentiles
// of the per-seed values (linear between order statistics), and the
// value over all seeds' samples pooled (where the metric is a percentile
// of samples; otherwise the mean over the seeds).
struct EnsembleMetric {
	std::string name;
	double median = 0, lo = 0, hi = 0, pooled = 0;
};

using eevdf::quantile_linear;  // report/quantile.hpp

// `per_seed`'s median and 95 % interval as EnsembleMetric `name`, with
// `pooled` as given (also `eevdf probe --scenario --seeds`'s rows).
EnsembleMetric summarise_seeds(const std::string& name, const std::vector<double>& per_seed, double pooled);

struct SweepRow;
// Every metric of the table over `rows`, one run per seed of one
// configuration (at least one row).
std::vector<EnsembleMetric> ensemble_metrics(const std::vector<SweepRow>& rows);

int cmd_ensemble(const ModelOptions& mo, const SimOptions& so, unsigned seeds, unsigned jobs);

}  // namespace eevdf::cli
