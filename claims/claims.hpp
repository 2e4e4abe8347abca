// SPDX-License-Identifier: GPL-2.0-only
// Kernel patch claims as files, checked against the model (`eevdf check`).
// The format is documented in claims/README.md. The engine: parse_claim.cpp
// reads a claim file, evaluate.cpp runs its rows on the model,
// format_claim.cpp and claims_figure.cpp print the verdicts.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/model_options.hpp"
#include "model/types.hpp"

namespace eevdf::cli {

// A setting such as {"hz", "1000"} or {"slice", "3ms"}: what a row varies.
using Settings = std::vector<std::pair<std::string, std::string>>;

struct Metric {
	std::string name;   // mean_run_ms, p99_run_ms, context_switches, wakeup_p99_us, ...
	std::string tasks;  // tasks whose name starts with this ("" = all)
	u64 threshold = 0;  // runs_at_least / runs_at_least_fraction: run length in ns
};

struct Tolerance {
	double relative = 0, absolute = 0;
};

struct ClaimRow {
	Settings set;                      // applied over the claim's config
	Settings over;                     // non-empty: the model value is metric(set) / metric(over)
	Settings same_as;                  // non-empty: the claimed value is the model's metric(same_as)
	std::optional<double> claimed;     // none: reported only ("info")
	std::string compare = "within";    // within | at_most | at_least
	bool expect_disagree = false;      // a documented finding
	bool expect_straddle = false;      // a documented finding: the seeds' interval straddles the claim
	std::string why;                   // the explanation of a finding
	std::string label;
	std::optional<Metric> metric;      // the row's own metric (and tolerance), else the claim's
	std::optional<Tolerance> tolerance;
};

struct Claim {
	std::string file;
	std::string title, source, quote;
	std::vector<std::string> out_of_scope;  // what the claim says that the model cannot check, and why
	Settings config;                        // defaults for every row
	std::string workload_file;              // an rt-app file, relative to the claim file; or hogs
	Metric metric;
	Tolerance tolerance;
	std::vector<ClaimRow> rows;
};

// The metric a row is measured by: its own, else the claim's.
inline const Metric& metric_of_row(const Claim& c, const ClaimRow& r) { return r.metric ? *r.metric : c.metric; }

// "hz=1000 slice=3ms": settings as a row's label, and as the key of a run
// that several rows share (parse_claim.cpp).
std::string label_of(const Settings& s);

// Reads and validates a claim file; throws InputError naming file, field and value.
Claim load_claim(const std::string& path);
// The same for a claim file's text; `path` names it in errors and is where
// its workload files are looked up.
Claim parse_claim(std::string_view text, const std::string& path);

struct RowResult {
	std::string label;
	std::string metric;
	std::optional<double> claimed;
	double model = 0;
	std::string judged;   // how: "within 5 %", "at most 0.050", "exact", "-" for info rows
	std::string compare;  // within | at_most | at_least
	Tolerance tolerance;  // the one applied
	std::string verdict;  // agrees | DISAGREES | finding | AGREES, expected not to | info
	bool ok = true;       // counts toward exit status 0
	std::string why;
	// Over seeds (a "seeds" setting or eevdf check --seeds): model is the
	// median, [lo, hi] the 2.5th..97.5th percentile of the per-seed values.
	unsigned seeds = 0;
	double lo = 0, hi = 0;
	std::string violation;  // the first seed whose run broke an invariant, how to replay it
};

// The most seeds a claim row runs (as eevdf sim --seeds).
inline constexpr unsigned MAX_CLAIM_SEEDS = 10000;

// How evaluate() runs the rows: by default each claim as its file says.
struct EvaluateOptions {
	unsigned seeds = 0;             // > 0: every row over this many seeds (eevdf check --seeds)
	std::optional<u64> first_seed;  // the first of them (eevdf check --seed), else the row's seed setting or 0
	bool check_invariants = false;  // every seeded run under the invariant checker (model/check.hpp)
	std::string replay;             // the command that replays a seed, "--seeds 1 --seed S" appended
	// Calls f(i) for i in 0..n-1, perhaps in parallel; rethrows the first
	// exception. Empty: one after the other.
	std::function<void(size_t n, const std::function<void(size_t)>& f)> parallel;
};

// Runs the model for every row. Throws InputError for settings that do not
// make a valid configuration or workload (naming the row). A schbench run is
// made once per set of settings: rows that read other metrics of it share it.
// Rows over seeds are judged against the interval: "holds" when all of
// [lo, hi] satisfies the claim, "fails" when none of it does, "straddles"
// otherwise; a row without seeds is judged as before, on its one run.
std::vector<RowResult> evaluate(const Claim& c, const EvaluateOptions& o = {});

// Where [lo, hi] lies against what row `r` accepts around `claimed`:
// 1 inside it (holds), -1 outside it (fails), 0 across its edge (straddles).
int interval_verdict(const Claim& c, const ClaimRow& r, double claimed, double lo, double hi);

// Whether `value` satisfies row `r` of claim `c` against `claimed`
// (compare mode and tolerance).
bool row_agrees(const Claim& c, const ClaimRow& r, double claimed, double value);

// How a row is judged against its claimed value, in words: "within 5 %",
// "at most +0.050", "exact" (format_claim.cpp).
std::string judged_text(const std::string& compare, const Tolerance& t);

std::string format_claim(const Claim& c, const std::vector<RowResult>& rows);
std::string claims_json(const std::vector<std::pair<Claim, std::vector<RowResult>>>& all);

// Claimed and model value of every row, grouped by row.
std::string claims_figure(const std::vector<std::pair<Claim, std::vector<RowResult>>>& all);

}  // namespace eevdf::cli
