// SPDX-License-Identifier: GPL-2.0-only
// `eevdf slice-table` on the command line: its HZ and slice lists in place
// of the model's --hz and --slice; the table is cli/slice_table.cpp's.
#include "cli/commands.hpp"
#include "cli/slice_table.hpp"

namespace eevdf::cli {
namespace {

class SliceTableCommand : public Command {
public:
	CLI::App* add(CLI::App& app) override
	{
		table = app.add_subcommand("slice-table", "seed 001's avg-run and context-switch table: model beside measured");
		table->footer("Examples:\n  eevdf slice-table            # 4 hogs, 30 s, HZ=1000 and 100, slices 3..32 ms\n"
			      "  eevdf slice-table --hz-list 250 --slices 1ms,2ms --duration 5s\n"
			      "  eevdf slice-table --hz-list 250 --slices 1ms,3ms --duration 5s --profile vm-6.18.44-hz250 --seeds 20\n");
		table->add_option("--hz-list", to.hz, "HZ values")->delimiter(',')->capture_default_str();
		table->add_option("--slices", to.slices, "base slices")->delimiter(',');
		table->add_option("--hogs", to.hogs, "CPU hogs")->capture_default_str();
		table->add_option("--duration", to.duration, "simulated time per row")->capture_default_str();
		table->add_flag("--json", to.json, "print one JSON document instead of the markdown tables");
		table->add_option("--seeds", to.seeds,
				  "run every cell under N seeds (--seed S, S+1, ...) in parallel; the model's figures as "
				  "median [95% interval] (1..10000; at most 10000 runs in all)");
		table->add_option("--jobs", to.jobs, "threads for --seeds (default: all cores)");
		add_model_options(table, to_mo);
		table->remove_option(table->get_option("--hz"));
		table->remove_option(table->get_option("--slice"));
		return table;
	}

	int run() override
	{
		to.ensemble = table->count("--seeds") > 0;
		return cmd_slice_table(to_mo, to);
	}

	std::vector<const ModelOptions*> model_options() const override { return {&to_mo}; }

private:
	CLI::App* table = nullptr;
	ModelOptions to_mo;
	TableOptions to;
};

}  // namespace

std::unique_ptr<Command> slice_table_command() { return std::make_unique<SliceTableCommand>(); }

}  // namespace eevdf::cli
