// SPDX-License-Identifier: GPL-2.0-only
// `eevdf presets`: every kernel preset, what it follows, the commits since
// the preset before it, and its defaults.
#include <cstdio>

#include "cli/commands.hpp"
#include "model/config.hpp"

namespace eevdf::cli {
namespace {

int cmd_presets()
{
	for (const KernelPreset& p : kernel_presets()) {
		Config cfg = make_config(p, 250, 1);
		const std::string preempt =
			cfg.preempt != Preempt::None ? "; preempt " + std::string(preempt_name(cfg.preempt)) : "";
		std::printf("%-7s %s\n        commits since the preset before: %s\n"
			    "        default base slice (1 CPU) %llu ns; features %s%s\n",
			    std::string(p.name).c_str(), std::string(p.description).c_str(), std::string(p.commits).c_str(),
			    static_cast<unsigned long long>(cfg.base_slice_ns), features_string(p.features).c_str(),
			    preempt.c_str());
	}
	return 0;
}

class PresetsCommand : public Command {
public:
	CLI::App* add(CLI::App& app) override
	{
		auto* presets = app.add_subcommand("presets", "list the kernel presets and their defaults");
		presets->footer("Example:\n  eevdf presets\n");
		return presets;
	}

	int run() override { return cmd_presets(); }
};

}  // namespace

std::unique_ptr<Command> presets_command() { return std::make_unique<PresetsCommand>(); }

}  // namespace eevdf::cli
