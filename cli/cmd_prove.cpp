// SPDX-License-Identifier: GPL-2.0-only
// `eevdf prove ARGS...`: its help; every argument goes to eevdf-prove (the
// Z3 obligations in proofs/, cli/companion.hpp).
#include "cli/commands.hpp"
#include "cli/companion.hpp"

namespace eevdf::cli {
namespace {

class ProveCommand : public Command {
public:
	CLI::App* add(CLI::App& app) override
	{
		prove = app.add_subcommand("prove", "decide the Z3 proof obligations (eevdf-prove) with these arguments");
		prove->footer("Runs eevdf-prove (built from proofs/) found next to eevdf, in ../proofs/ of a build tree or in\n"
			      "PATH (or $EEVDF_PROVE), passing every argument through (docs/proofs.md).\n"
			      "Examples:\n  eevdf prove --list\n  eevdf prove run_length run_length_tight\n"
			      "  eevdf prove --smt2 out/          # export every query as SMT-LIB2\n"
			      "Exit status: 0 when every obligation expected to hold is PROVED and every expected refutation is\n"
			      "REFUTED (and replays); 1 otherwise; 2 if eevdf-prove cannot be found or run.\n");
		prove->prefix_command();
		return prove;
	}

	int run() override { return exec_companion(PROVER, prove->remaining()); }

	bool passes_arguments_through() const override { return true; }

private:
	CLI::App* prove = nullptr;
};

}  // namespace

std::unique_ptr<Command> prove_command() { return std::make_unique<ProveCommand>(); }

}  // namespace eevdf::cli
