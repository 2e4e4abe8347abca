// SPDX-License-Identifier: GPL-2.0-only
// `eevdf probe ARGS...`: its help; the arguments go to eevdf-probe and the
// comparison with the model is cli/probe_compare.cpp's.
#include "cli/commands.hpp"
#include "cli/probe_compare.hpp"

namespace eevdf::cli {
namespace {

class ProbeCommand : public Command {
public:
	CLI::App* add(CLI::App& app) override
	{
		probe = app.add_subcommand("probe", "measure the live kernel (eevdf-probe) and print it beside the model");
		probe->footer("Runs eevdf-probe (built from probe/) found next to eevdf, in ../probe/ of a build tree or in\n"
			      "PATH (or $EEVDF_PROBE) with these arguments, then the same scenario (hogs, custom slice, the\n"
			      "periodic waker, the kernel's HZ, CPU count and version) in the model, and prints\n"
			      "kernel | model | model with the calibrated 30 us tick jitter. Needs root on a real kernel.\n"
			      "With --json the probe's own JSON is printed instead.\n"
			      "Examples:\n  eevdf probe --hogs 4 --slice 3ms --duration 5s --cpu 1 --isolate\n"
			      "  eevdf probe --hogs 3 --slice 3ms --duration 5s --waker 10000:1000\n"
			      "  eevdf probe --claim claims/x.json   # a claim's hog rows on this kernel\n"
			      "  eevdf probe --scenario forks --duration 3s   # unpinned (eevdf-probe --list-scenarios)\n"
			      "  eevdf probe --scenario 8-periodic --kernel-json F --profile vm-6.18.44-hz250 --seeds 20\n"
			      "      # a saved run beside the model's median and 95 % interval over 20 seeds\n"
			      "  eevdf probe -- --help   # the probe's own help\n"
			      "Exit status: 0; the probe's own status when it fails; 2 if it cannot be found or run.\n");
		probe->prefix_command();
		return probe;
	}

	int run() override { return probe_side_by_side(probe->remaining()); }

	bool passes_arguments_through() const override { return true; }

private:
	CLI::App* probe = nullptr;
};

}  // namespace

std::unique_ptr<Command> probe_command() { return std::make_unique<ProbeCommand>(); }

}  // namespace eevdf::cli
