// SPDX-License-Identifier: GPL-2.0-only
// `eevdf sim` on the command line: its options, help and examples. One run
// is cli/sim.cpp's; with --sweep, every combination is cli/sweep.cpp's.
#include <iostream>

#include "cli/commands.hpp"
#include "cli/sim.hpp"
#include "cli/ensemble.hpp"
#include "cli/sweep.hpp"
#include "io/values.hpp"
#include "io/topology_spec.hpp"
#include "io/topology_sysfs.hpp"
#include "model/topology.hpp"

namespace eevdf::cli {
namespace {

// The model numbers CPUs core by core; a machine read from sysfs that
// numbers its SMT siblings apart is renumbered, and stderr says how.
void note_cpu_numbering(const std::string& spec)
{
	const SysfsTopology t = read_sysfs_topology(sysfs_root(spec), "--topology " + spec);
	std::string map;
	bool same = true;
	for (size_t k = 0; k < t.machine_cpu.size(); k++) {
		same = same && t.machine_cpu[k] == k;
		map += (k ? "," : "") + std::to_string(t.machine_cpu[k]);
	}
	if (!same)
		std::cerr << "eevdf: --topology " << spec << ": model CPUs 0.." << t.machine_cpu.size() - 1
			  << " are this machine's CPUs " << map << "\n";
}

class SimCommand : public Command {
public:
	CLI::App* add(CLI::App& app) override
	{
		sim = app.add_subcommand("sim", "simulate a workload on one or more CPUs and report run lengths, switches, latency and lag");
		sim->footer("Examples:\n"
			    "  eevdf sim --hogs 4 --hz 1000 --slice 3ms --duration 30s\n"
			    "  eevdf sim workload.json --hz 250 --kernel 6.12 --json\n"
			    "  eevdf sim --hogs 2 --hz 1000 --slice 3ms --tick-jitter 20us --trace out.trace\n"
			    "  eevdf sim --hogs 3 --duration 1s --timehist th.txt --latency lat.txt --csv runs.csv --schbench\n"
			    "  eevdf sim --hogs 2 --duration 100ms --chrome trace.json --svg-lag lag.svg\n"
			    "  eevdf sim --hogs 3 --cpus 2 --duration 50ms --map map.txt --timehist th.txt\n"
			    "  eevdf sim --hogs 4 --duration 5s --sweep hz=100,250,1000 --sweep slice=1ms..32ms\n"
			    "Exit status: 0 success; 1 the model broke an invariant; 2 bad usage or input.\n"
			    "Limits (exit 2 beyond each): any time 2^62 ns (146 years); an input file 64 MiB and 2^20 JSON\n"
			    "values; 4096 threads; --cpus 256; --hogs 1000000; --hz 1..100000. Percentiles are exact up to\n"
			    "131072 distinct values per task, then within 0.1 % (and say so). docs/cli.md, 'Limits'.\n"
			    "Formats and layouts: docs/cli.md.\n");
		sim->add_option("workload", so.workload, "rt-app JSON workload file");
		sim->add_option("--hogs", so.hogs, "N CPU hogs (stress-ng --cpu N) instead of a workload file");
		sim->add_option("--nice", so.nice, "nice of the hogs");
		sim->add_option("--pin", so.pin, "CPU list the hogs may run on, e.g. 0 or 0-3 (sched_setaffinity); default all");
		sim->add_option("--custom-slice", so.custom_slice, "sched_setattr(sched_runtime) slice of the hogs (6.12+)");
		sim->add_option("--duration", so.duration, "simulated time (default: the workload's, or 10s for --hogs)");
		sim->add_flag("--json", so.json, "print one JSON document instead of the table");
		sim->add_option("--trace", so.trace, "write the schedule as ftrace text (sched_switch, sched_wakeup) to FILE");
		sim->add_flag("--trace-waking", so.trace_waking, "with --trace: also sched_waking lines (the waker's CPU), for 'eevdf trace stats'");
		sim->add_option("--timehist", so.timehist, "write 'perf sched timehist -S' rows and summary to FILE");
		sim->add_option("--latency", so.latency, "write a 'perf sched latency'-style table to FILE");
		sim->add_option("--schbench", so.schbench,
				"schbench-style wakeup-latency percentiles: after the table, or to FILE with --schbench=FILE")
			->expected(0, 1);
		sim->add_option("--csv", so.csv, "write one CSV row per run (task,pid,start_ns,end_ns,length_ns,reason,cpu) to FILE");
		sim->add_option("--map", so.map, "write a 'perf sched map'-style chart (a column per CPU, a line per switch) to FILE");
		sim->add_option("--chrome", so.chrome, "write Chrome JSON (run slices; lag, deadline and V counters) to FILE");
		sim->add_option("--svg-lag", so.svg_lag, "write an SVG figure of lag and v - V over time per task to FILE")->check(svg_file());
		sim->add_option("--from", so.svg_from, "start of the --svg-lag figure's time window (default 0)");
		sim->add_option("--to", so.svg_to, "end of the --svg-lag figure's time window (default: the end)");
		sim->add_option("--sweep", sweeps,
				"KEY=VALUES: run every combination (repeatable); VALUES: a,b,c | A..B (doubling) | A..B:STEP")
			->allow_extra_args(false);
		sim->add_option("--jobs", jobs, "threads for --sweep and --seeds (default: all cores)");
		sim->add_option("--seeds", seeds,
				"run N seeds (--seed S, S+1, ...) in parallel; each metric as the median and 95% interval "
				"over the seeds (1..10000; see docs/profiles.md)");
		sim->add_flag("--print-domains", print_domains_,
			      "print the machine's sched domains and groups (debugfs sched/domains lines, then the "
			      "sched_verbose boot log) and exit");
		sim->add_flag("--check", so.check, "check every invariant after every event; exit 1 on a violation");
		sim->add_option("--counterexample", so.counterexample, "where --check writes the violating workload")
			->capture_default_str();
		add_model_options(sim, mo);
		return sim;
	}

	int run() override
	{
		if (print_domains_) {
			const Topology topo(machine_shape(mo));
			if (!sysfs_root(mo.topology).empty())
				note_cpu_numbering(mo.topology);
			std::cout << print_domains(topo);
			return 0;
		}
		so.want_schbench = sim->count("--schbench") > 0;
		if (so.want_schbench && so.schbench.empty())
			so.schbench = "-";
		if (!sweeps.empty() && !so.map.empty())
			throw UsageError("--map writes one schedule; it cannot be combined with --sweep "
					 "(run 'eevdf sim' once for the configuration you want to see)");
		const bool ensemble = sim->count("--seeds") > 0;
		if (ensemble && !sweeps.empty())
			return cmd_sweep_ensemble(mo, so, sweeps, seeds, jobs);
		if (ensemble)
			return cmd_ensemble(mo, so, seeds, jobs);
		if (!sweeps.empty())
			return cmd_sweep(mo, so, sweeps, jobs);
		return cmd_sim(mo, so);
	}

	std::vector<const ModelOptions*> model_options() const override { return {&mo}; }

private:
	CLI::App* sim = nullptr;
	ModelOptions mo;
	SimOptions so;
	std::vector<std::string> sweeps;
	unsigned jobs = 0;
	unsigned seeds = 0;
	bool print_domains_ = false;
};

}  // namespace

std::unique_ptr<Command> sim_command() { return std::make_unique<SimCommand>(); }

}  // namespace eevdf::cli
