// SPDX-License-Identifier: GPL-2.0-only
// `eevdf check`: kernel patch claims (claim files, claims/README.md) run on
// the model by the claims engine and printed as a table per claim, one JSON
// document or an SVG of claimed-vs-model bars.
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>

#include "claims/claims.hpp"
#include "cli/activity.hpp"
#include "cli/commands.hpp"
#include "cli/ensemble.hpp"
#include "cli/sweep.hpp"
#include "cli/write_file.hpp"
#include "io/values.hpp"

namespace eevdf::cli {
namespace {

// What a check reads: the claim files and the workload files they name.
std::vector<std::string> claim_inputs(const std::vector<std::pair<Claim, std::vector<RowResult>>>& all)
{
	std::vector<std::string> in;
	for (const auto& [c, rows] : all) {
		in.push_back(c.file);
		const std::string dir = std::filesystem::path(c.file).parent_path().string();
		auto add = [&](const std::string& w) {
			if (!w.empty())
				in.push_back((std::filesystem::path(dir) / w).string());
		};
		add(c.workload_file);
		for (const auto& [k, v] : c.config)
			if (k == "workload")
				add(v);
		for (const ClaimRow& r : c.rows)
			for (const auto& [k, v] : r.set)
				if (k == "workload")
					add(v);
	}
	return in;
}

static_assert(MAX_CLAIM_SEEDS == MAX_SEEDS, "a claim's seeds and --seeds have one limit");

// --seeds N (0: as each claim file says), --seed S, --jobs J.
struct SeedOptions {
	bool given = false;
	unsigned seeds = 0;
	std::optional<u64> first_seed;
	unsigned jobs = 0;
};

int cmd_check(const std::vector<std::string>& files, bool as_json, const std::string& svg_out, const SeedOptions& so)
{
	if (svg_out == "-" && as_json)
		throw UsageError("--svg -: the standard output already carries --json; write one of them to a file");
	if (so.given && (so.seeds < 1 || so.seeds > MAX_SEEDS))
		throw UsageError("--seeds: " + std::to_string(so.seeds) + " is not 1.." + std::to_string(MAX_SEEDS));
	if (so.first_seed && !so.given)
		throw UsageError("--seed " + std::to_string(*so.first_seed) +
				 ": the first of --seeds N; give --seeds too");
	if (so.jobs > MAX_JOBS)
		throw UsageError("--jobs: " + std::to_string(so.jobs) + " is outside 0.." + std::to_string(MAX_JOBS) +
				 " (0: every core)");
	std::vector<std::pair<Claim, std::vector<RowResult>>> all;
	for (const std::string& f : files) {
		set_activity("reading a claim file");
		Claim c = load_claim(f);
		set_activity("running a claim's configurations");
		EvaluateOptions eo;
		// With --seeds every seed runs under the invariant checker: each
		// must pass, and the first that does not is named with its replay.
		eo.seeds = so.given ? so.seeds : 0;
		eo.first_seed = so.first_seed;
		eo.check_invariants = so.given;
		eo.replay = "eevdf check " + f;
		eo.parallel = [&](size_t n, const std::function<void(size_t)>& work) {
			run_parallel(n, so.jobs, work);
		};
		std::vector<RowResult> rows = evaluate(c, eo);
		for (const RowResult& r : rows)
			if (!r.violation.empty())
				std::cerr << "eevdf: " << f << ": " << (r.label.empty() ? "row" : r.label) << ": "
					  << r.violation << "\n";
		all.emplace_back(std::move(c), std::move(rows));
	}
	bool ok = true;
	for (const auto& [c, rows] : all)
		for (const RowResult& r : rows)
			ok = ok && r.ok;
	if (!svg_out.empty())
		write_file_atomic(svg_out, claims_figure(all), "--svg", claim_inputs(all));
	if (svg_out == "-")  // the figure is the whole of stdout; the exit status still says
		return ok ? 0 : 1;
	if (as_json) {
		std::cout << claims_json(all);
	} else {
		for (size_t i = 0; i < all.size(); i++)
			std::cout << (i ? "\n" : "") << format_claim(all[i].first, all[i].second);
		std::cout << "\n" << (ok ? "every row agrees with its claim or is a documented finding\n"
					 : "some rows disagree (DISAGREES, or AGREES where a finding was expected)\n");
	}
	return ok ? 0 : 1;
}

class CheckCommand : public Command {
public:
	CLI::App* add(CLI::App& app) override
	{
		auto* check = app.add_subcommand("check", "check kernel patch claims (claim files) against the model");
		check->footer(
			"Examples:\n  eevdf check claims/*.json\n  eevdf check claims/seed001-avgrun.json --json\n"
			"  eevdf check claims/seed001-avgrun.json --svg avgrun.svg\n"
			"  eevdf check claims/seed000-schbench-vm.json --seeds 40 --seed 100\n"
			"Exit status: 0 every row agrees or is a documented finding; 1 a row disagrees; 2 a bad file.\n"
			"The format is in claims/README.md.\n");
		check->add_option("files", claim_files, "claim files")->required();
		check->add_flag("--json", check_json, "print one JSON document");
		check->add_option("--svg", check_svg, "write the claimed-vs-model bars of every row as SVG to FILE")->check(svg_file());
		check->add_option(
			"--seeds", seed_opts.seeds,
			"judge every row over N seeds (--seed S, S+1, ...), each run under the invariant checker: "
			"holds, fails or straddles the claim over the 95% interval (1..10000; docs/claims.md)");
		check->add_option("--seed", first_seed,
				  "the first of --seeds N (default: each row's seed setting, else 0)");
		check->add_option("--jobs", seed_opts.jobs, "threads for the seeds (default: all cores)");
		cmd = check;
		return check;
	}

	int run() override
	{
		seed_opts.given = cmd->count("--seeds") > 0;
		if (cmd->count("--seed"))
			seed_opts.first_seed = first_seed;
		return cmd_check(claim_files, check_json, check_svg, seed_opts);
	}

private:
	CLI::App* cmd = nullptr;
	SeedOptions seed_opts;
	u64 first_seed = 0;
	std::vector<std::string> claim_files;
	bool check_json = false;
	std::string check_svg;
};

}  // namespace

std::unique_ptr<Command> check_command() { return std::make_unique<CheckCommand>(); }

}  // namespace eevdf::cli
