// SPDX-License-Identifier: GPL-2.0-only
// eevdf's commands as one table (commands.cpp). Each command's file
// (cli/cmd_*.cpp) adds its subcommand with its options, help and examples to
// the command line and runs it when the arguments choose it; main() only
// parses, checks the values given and calls the chosen command.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <vector>

#include "io/model_options.hpp"

namespace eevdf::cli {

class Command {
public:
	virtual ~Command() = default;
	// Adds the subcommand, with its options, help and footer, to `app`.
	virtual CLI::App* add(CLI::App& app) = 0;
	// Runs what the parsed arguments chose; the exit status. Throws
	// UsageError, InputError or WorkloadError for a bad value (exit 2).
	virtual int run() = 0;
	// The model options the command's flags fill: fuzz_cli_args stops after
	// building each into a Config instead of running the command.
	virtual std::vector<const ModelOptions*> model_options() const { return {}; }
	// probe and prove hand their arguments to another program: main()
	// checks none of their values.
	virtual bool passes_arguments_through() const { return false; }
};

// Every command, in the order `eevdf --help` lists them.
std::vector<std::unique_ptr<Command>> commands();

std::unique_ptr<Command> sim_command();          // cmd_sim.cpp
std::unique_ptr<Command> schbench_command();     // cmd_schbench.cpp
std::unique_ptr<Command> slice_table_command();  // cmd_slice_table.cpp
std::unique_ptr<Command> plot_command();         // cmd_plot.cpp
std::unique_ptr<Command> presets_command();      // cmd_presets.cpp
std::unique_ptr<Command> bugs_command();         // cmd_bugs.cpp
std::unique_ptr<Command> check_command();        // cmd_check.cpp
std::unique_ptr<Command> diff_command();         // cmd_diff.cpp
std::unique_ptr<Command> trace_command();        // cmd_trace.cpp
std::unique_ptr<Command> probe_command();        // cmd_probe.cpp
std::unique_ptr<Command> prove_command();        // cmd_prove.cpp
std::unique_ptr<Command> calibrate_command();    // cmd_calibrate.cpp
std::unique_ptr<Command> profiles_command();     // cmd_calibrate.cpp

// The model's options (--kernel, --hz, --cpus, ...), shared by the commands
// that run the model.
void add_model_options(CLI::App* app, ModelOptions& o);

// The check of an SVG file's name (--svg, --svg-lag, plot's -o): eevdf
// draws SVG only (svg_file_name() in commands.cpp).
CLI::Validator svg_file();

}  // namespace eevdf::cli
