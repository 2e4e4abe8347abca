// SPDX-License-Identifier: GPL-2.0-only
// `eevdf diff` on the command line: two runs and the threshold; the
// comparison is cli/diff.cpp's.
#include "cli/commands.hpp"
#include "cli/diff.hpp"

namespace eevdf::cli {
namespace {

class DiffCommand : public Command {
public:
	CLI::App* add(CLI::App& app) override
	{
		auto* diff = app.add_subcommand("diff", "two 'eevdf sim --json' runs side by side, per task, the differences flagged");
		diff->footer("Examples:\n  eevdf sim --hogs 3 --kernel 6.6 --json > a.json; eevdf sim --hogs 3 --kernel 6.18 --json > b.json\n"
			     "  eevdf diff a.json b.json\n  eevdf diff a.json b.json --threshold 0.05 --json\n"
			     "Tasks are matched by name; config keys that differ are listed first.\n"
			     "Exit status: 0 no metric differs (beyond --threshold); 1 some do; 2 a bad file.\n");
		diff->add_option("a", dfo.a, "the first run (eevdf sim --json)")->required();
		diff->add_option("b", dfo.b, "the second run")->required();
		diff->add_option("--threshold", dfo.threshold, "flag a metric when |B - A| > THRESHOLD x |A| (default 0: any change)")
			->capture_default_str();
		diff->add_flag("--json", dfo.json, "print one JSON document");
		return diff;
	}

	int run() override { return cmd_diff(dfo); }

private:
	DiffOptions dfo;
};

}  // namespace

std::unique_ptr<Command> diff_command() { return std::make_unique<DiffCommand>(); }

}  // namespace eevdf::cli
