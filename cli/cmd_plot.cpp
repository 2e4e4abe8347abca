// SPDX-License-Identifier: GPL-2.0-only
// `eevdf plot runs|sweep`: figures as SVG. plot runs draws the run-length
// distribution of each HZ x slice configuration (here); plot sweep draws one
// metric of a sweep (cli/sweep.cpp).
#include <filesystem>

#include "cli/commands.hpp"
#include "cli/sim.hpp"
#include "cli/sweep.hpp"
#include "cli/write_file.hpp"
#include "model/metrics.hpp"
#include "model/simulation.hpp"
#include "report/plots.hpp"
#include "report/report.hpp"
#include "report/run_budget.hpp"

namespace eevdf::cli {
namespace {

struct PlotOptions {
	std::vector<u32> hz{1000, 100};
	std::vector<std::string> slices{"3ms", "6ms"};
	int hogs = 4;
	std::string workload;
	std::string duration = "2s";
	std::string output;
};

// The run-length distribution of every HZ x slice configuration, as an SVG CDF.
int cmd_plot_runs(ModelOptions mo, const PlotOptions& po)
{
	SimOptions so;
	so.workload = po.workload;
	so.hogs = po.workload.empty() ? po.hogs : 0;
	so.duration = po.duration;
	std::vector<std::pair<std::string, std::vector<u64>>> runs;
	for (u32 hz : po.hz)
		for (const std::string& slice : po.slices) {
			mo.hz = hz;
			mo.slice = slice;
			Simulation sim(build_config(mo), build_workload(so));
			MetricsCollector m;
			sim.add_observer(&m);
			run_bounded(sim);
			m.finish(sim);
			runs.emplace_back("HZ=" + std::to_string(hz) + " slice=" + slice, total_metrics(m).runs.values());
		}
	// the file's name, not its path: a title says what ran, not where it lives
	const std::string what = po.workload.empty() ? std::to_string(po.hogs) + " CPU hogs"
						     : std::filesystem::path(po.workload).filename().string();
	write_file_atomic(po.output,
			  runs_figure(runs, "Run lengths, " + what + ", " + po.duration + ", kernel " + mo.kernel), "--output",
			  po.workload.empty() ? std::vector<std::string>{} : std::vector<std::string>{po.workload});
	return 0;
}

class PlotCommand : public Command {
public:
	CLI::App* add(CLI::App& app) override
	{
		auto* plot = app.add_subcommand("plot", "draw figures as SVG (no GUI needed)");
		plot->require_subcommand(1);
		plot_runs = plot->add_subcommand("runs", "the run-length distribution (CDF) of each HZ x slice configuration");
		plot_runs->footer("Examples:\n  eevdf plot runs --hz 1000,100 --slices 3ms,6ms -o runs.svg\n"
				  "  eevdf plot runs workload.json --hz 250 --slices 1ms,4ms --duration 5s -o runs.svg\n");
		plot_runs->add_option("workload", po.workload, "rt-app JSON workload file (default: --hogs)");
		plot_runs->add_option("--hogs", po.hogs, "CPU hogs when no workload file is given")->capture_default_str();
		plot_runs->add_option("--slices", po.slices, "base slices")->delimiter(',');
		plot_runs->add_option("--duration", po.duration, "simulated time per configuration")->capture_default_str();
		plot_runs->add_option("-o,--output", po.output, "the SVG file to write")->required()->check(svg_file());
		add_model_options(plot_runs, plot_mo);
		plot_runs->remove_option(plot_runs->get_option("--hz"));
		plot_runs->remove_option(plot_runs->get_option("--slice"));
		plot_runs->add_option("--hz", po.hz, "HZ values, comma-separated")->delimiter(',');

		plot_sweep = plot->add_subcommand("sweep", "one metric of a sweep against one swept key, a line per value of the others");
		plot_sweep->footer("Examples:\n  eevdf plot sweep --hogs 4 --duration 5s --sweep hz=100,250,1000 --sweep slice=1ms..32ms -o s.svg\n"
				   "  eevdf plot sweep --hogs 2 --sweep kernel=6.6,6.18 --sweep hz=100..1000:300 --metric switches -o k.svg\n"
				   "The metrics are the sweep table's columns; --x defaults to the last --sweep's key.\n");
		plot_sweep->add_option("workload", psw_so.workload, "rt-app JSON workload file (default: --hogs)");
		plot_sweep->add_option("--hogs", psw_so.hogs, "CPU hogs when no workload file is given");
		plot_sweep->add_option("--duration", psw_so.duration, "simulated time per configuration");
		plot_sweep->add_option("--sweep", psw.specs, "KEY=VALUES to sweep (repeatable), as for eevdf sim --sweep")->required();
		plot_sweep->add_option("--metric", psw.metric,
				       "mean_run_ms, p99_run_ms, runs, switches, involuntary, wake_p99_us or max_lag_us")
			->capture_default_str();
		plot_sweep->add_option("--x", psw.x, "the swept key on the x axis (default: the last --sweep's)");
		plot_sweep->add_option("--jobs", psw.jobs, "parallel simulations (default: all cores)");
		plot_sweep->add_option("-o,--output", psw.output, "the SVG file to write")->required()->check(svg_file());
		add_model_options(plot_sweep, psw_mo);
		return plot;
	}

	int run() override
	{
		if (*plot_runs)
			return cmd_plot_runs(plot_mo, po);
		if (*plot_sweep) {
			if (psw_so.workload.empty() && psw_so.hogs == 0)
				psw_so.hogs = 4;
			return cmd_plot_sweep(psw_mo, psw_so, psw);
		}
		return 2;
	}

	std::vector<const ModelOptions*> model_options() const override { return {&plot_mo, &psw_mo}; }

private:
	CLI::App *plot_runs = nullptr, *plot_sweep = nullptr;
	ModelOptions plot_mo;
	PlotOptions po;
	ModelOptions psw_mo;
	SimOptions psw_so;
	PlotSweepOptions psw;
};

}  // namespace

std::unique_ptr<Command> plot_command() { return std::make_unique<PlotCommand>(); }

}  // namespace eevdf::cli
