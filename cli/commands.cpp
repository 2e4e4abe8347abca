// SPDX-License-Identifier: GPL-2.0-only
// The table of eevdf's commands, and the command-line pieces several of
// them share: the model's options and the SVG file check.
#include "cli/commands.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "model/config.hpp"
#include "model/cpumask.hpp"

namespace eevdf::cli {

std::vector<std::unique_ptr<Command>> commands()
{
	std::vector<std::unique_ptr<Command>> c;
	c.push_back(sim_command());
	c.push_back(schbench_command());
	c.push_back(slice_table_command());
	c.push_back(plot_command());
	c.push_back(presets_command());
	c.push_back(bugs_command());
	c.push_back(check_command());
	c.push_back(diff_command());
	c.push_back(trace_command());
	c.push_back(probe_command());
	c.push_back(prove_command());
	c.push_back(calibrate_command());
	c.push_back(profiles_command());
	return c;
}

namespace {

// --kernel's help: every preset by name, from the presets themselves, so a
// new release cannot be left out; "6.18 (= 6.18.0)" where find_preset()
// also takes the name with ".0".
std::string kernel_help()
{
	std::string s = "kernel preset (eevdf presets lists them): ";
	for (const KernelPreset& p : kernel_presets()) {
		const std::string name(p.name), zero = name + ".0";
		s += (&p == &kernel_presets().front() ? "" : ", ") + name;
		if (std::count(name.begin(), name.end(), '.') == 1 && find_preset(zero) == &p)
			s += " (= " + zero + ")";
	}
	return s;
}

// A CPU count that is given must be 1..MAX_CPUS: 0 is not "the default"
// once written out (--llc 0, --online-cpus 0), and a count past the model's
// CPUs scales nothing further. (Not digits: CLI11's conversion refuses it.)
CLI::Validator cpu_count()
{
	return CLI::Validator(
		[](std::string& v) -> std::string {
			if (v.empty() || v.size() > 20 || v.find_first_not_of("0123456789") != std::string::npos)
				return "";
			if (v.size() > 3 || std::stoul(v) < 1 || std::stoul(v) > MAX_CPUS)
				return v + " is outside 1.." + std::to_string(MAX_CPUS);
			return "";
		},
		"");  // no description: the help line stays as it was
}

}  // namespace

void add_model_options(CLI::App* app, ModelOptions& o)
{
	app->add_option("--kernel", o.kernel, kernel_help())->capture_default_str();
	app->add_option("--hz", o.hz, "CONFIG_HZ; TICK_NSEC = (1e9 + HZ/2) / HZ")->capture_default_str();
	app->add_option("--cpus", o.cpus, "CPUs to simulate (1.." + std::to_string(MAX_CPUS) + ")")->capture_default_str();
	app->add_option("--online-cpus", o.online_cpus,
			"online CPUs for the default base slice 0.70 ms x (1 + ilog2(min(N, 8))); default --cpus "
			"(--cpus 1 --online-cpus 8: one CPU of an 8-CPU machine)")
		->check(cpu_count());
	app->add_option("--llc", o.llc, "CPUs per last-level cache (MC domain); default all")->check(cpu_count());
	app->add_option("--topology", o.topology,
			"machine shape: a preset (x86-2s-smt2, epyc-1s-nps2, power10-lpar, power9-lpar, vm-2vcpu), sysfs[:DIR] (this machine's "
			"/sys/devices/system) or cpus=N,smt=N,cluster=N,llc=N,node=N,distance=D,reclaim=D; docs/cli.md");
	app->add_flag("--skew-tick", o.skew_tick, "boot option skew_tick=1: CPU c ticks c (TICK_NSEC/2)/cpus later");
	app->add_option("--autogroup", o.autogroup,
			"on|off: sysctl_sched_autogroup_enabled; on puts every task outside a cpu cgroup in its "
			"session's autogroup (one CPU, 6.18+ presets; docs/cli.md \"Task groups\")")
		->capture_default_str();
	app->add_option("--preempt", o.preempt,
			"preemption model none|voluntary|full|lazy (CONFIG_PREEMPT_*); default: the preset's "
			"(lazy on 7.1.5, none before)");
	app->add_option("--ipi-latency", o.ipi_latency, "IPI send -> handler on the target")->capture_default_str();
	app->add_option("--idle-exit-latency", o.idle_exit_latency, "added when an IPI wakes an idle CPU")
		->capture_default_str();
	app->add_option("--wakeup-irq-cost", o.wakeup_irq_cost,
			"time a wakelist IPI handler takes on a busy target, charged to its task")
		->capture_default_str();
	app->add_option("--balance-cost", o.balance_cost,
			"sched_clock cost of one newidle balance pass, for its cost gates (no simulated time); "
			"default: 2us, or 0 when the --profile draws a balance_cost; 0: free");
	app->add_option("--slice", o.slice, "base slice (debugfs base_slice_ns), e.g. 3ms; default: the preset's");
	app->add_option("--features", o.features, "sched features to switch, e.g. +HRTICK,-RUN_TO_PARITY or NO_DELAY_DEQUEUE");
	app->add_option("--tick-phase", o.tick_phase, "ticks fire at t = PHASE (mod TICK_NSEC)")->capture_default_str();
	app->add_option("--tick-jitter", o.tick_jitter, "each tick arrives early by up to DUR (seeded uniform)")
		->capture_default_str();
	app->add_option("--switch-cost", o.switch_cost, "time from a pick until the next task runs; charged to it")
		->capture_default_str();
	app->add_option("--seed", o.seed, "seed of the tick jitter and of the profile's draws")->capture_default_str();
	app->add_option("--profile", o.profile,
			"machine profile: exact (every cost fixed), a built-in name or a FILE.json; see docs/profiles.md")
		->capture_default_str();
	app->add_option("--bug", o.bugs, "switch a historical EEVDF bug back in (repeatable); see 'eevdf bugs'");
}

namespace {

// eevdf draws SVG only: a file name that asks for another image format
// (x.png) is refused rather than filled with SVG.
std::string svg_file_name(std::string& path)
{
	static const char* const other[] = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".pdf", ".eps", ".ps"};
	std::string lower = path;
	for (char& c : lower)
		c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
	for (const char* ext : other) {
		const std::string e = ext;
		if (lower.size() >= e.size() && lower.compare(lower.size() - e.size(), e.size(), e) == 0)
			return "'" + path + "': eevdf writes SVG only, not " + e.substr(1) + "; name it .svg (then e.g. rsvg-convert -o " +
			       path + " FILE.svg)";
	}
	return "";
}

}  // namespace

CLI::Validator svg_file() { return CLI::Validator(svg_file_name, "FILE.svg"); }

}  // namespace eevdf::cli
