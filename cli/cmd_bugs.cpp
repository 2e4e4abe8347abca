// SPDX-License-Identifier: GPL-2.0-only
// `eevdf bugs`: the historical EEVDF bugs that --bug switches back in, one
// line each: its name, the commit that fixed it (or "mutation"), what it did.
#include <cstdio>

#include "cli/commands.hpp"
#include "model/bugs.hpp"

namespace eevdf::cli {
namespace {

int cmd_bugs()
{
	for (const BugInfo& b : bug_info)
		std::printf("%-22s %-13s %s\n", std::string(b.name).c_str(), std::string(b.commit).c_str(),
			    std::string(b.what).c_str());
	return 0;
}

class BugsCommand : public Command {
public:
	CLI::App* add(CLI::App& app) override
	{
		auto* bugs = app.add_subcommand("bugs", "list the historical bugs that --bug can switch back in");
		bugs->footer("Example:\n  eevdf bugs\n  eevdf sim --hogs 3 --bug avg-vruntime-trunc --check\n");
		return bugs;
	}

	int run() override { return cmd_bugs(); }
};

}  // namespace

std::unique_ptr<Command> bugs_command() { return std::make_unique<BugsCommand>(); }

}  // namespace eevdf::cli
