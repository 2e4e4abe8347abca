// SPDX-License-Identifier: GPL-2.0-only
// `eevdf trace stats|check|workload|compare` on the command line: the
// options each reads a kernel trace with; the commands are cli/trace_*.cpp.
#include "cli/commands.hpp"
#include "cli/trace_cmd.hpp"
#include "io/values.hpp"

namespace eevdf::cli {
namespace {

class TraceCommand : public Command {
public:
	CLI::App* add(CLI::App& app) override
	{
		auto* trace_cmd = app.add_subcommand("trace", "read a kernel scheduler trace: measure it, check the proved bounds, replay it");
		trace_cmd->require_subcommand(1);
		trace_cmd->footer("TRACE is ftrace text (/sys/kernel/tracing/trace, trace_pipe), 'trace-cmd report' or 'perf script'\n"
				  "output of the sched_switch, sched_wakeup(_new), sched_waking and sched_migrate_task events;\n"
				  "'-' reads stdin. docs/trace.md says what is measured and what is inferred.\n");
		auto add_trace_common = [&](CLI::App* c) {
			c->add_option("trace", tro.file, "the trace file ('-': stdin)")->required();
			c->add_option("--task", tro.tasks, "only tasks whose comm matches the glob (or whose pid is N); repeatable");
			c->add_option("--from", tro.from, "start of the window, after the trace's first event (default 0)");
			c->add_option("--to", tro.to, "end of the window, after the first event (default: the last event)");
			c->add_flag("--lenient", tro.lenient, "count lines that cannot be parsed instead of refusing the trace");
		};
		tr_stats = trace_cmd->add_subcommand("stats", "per task and in total the metrics of 'eevdf sim', measured on the trace");
		tr_stats->footer("Examples:\n  eevdf trace stats /sys/kernel/tracing/trace --task 'stress-ng*' --hz 250\n"
				 "  trace-cmd report | eevdf trace stats - --json\n"
				 "--json writes the schema of 'eevdf sim --json' (no lag: a trace cannot show it), so\n"
				 "'eevdf diff' compares a trace with a simulation. Exit status: 0; 2 a bad trace or flag.\n");
		add_trace_common(tr_stats);
		tr_stats->add_option("--hz", tro.hz, "CONFIG_HZ of the traced kernel: adds the run histogram in ticks");
		tr_stats->add_flag("--json", tro.json, "print one JSON document (the schema of 'eevdf sim --json')");

		tr_check = trace_cmd->add_subcommand("check", "the proved run bounds applied to the trace's runs; exit 1 when one is broken");
		tr_check->footer("Examples:\n  eevdf trace check /sys/kernel/tracing/trace --hz 250\n"
				 "  eevdf trace check hogs.trace --hz 1000 --slice 3ms --task 'stress-ng*'\n"
				 "Each run is checked against the bound whose preconditions the trace shows (docs/trace.md):\n"
				 "'equal' (run_length) for nice-0 tasks sharing a CPU, 'weighted' (run_weighted) for 2..4 tasks\n"
				 "at the proved nice levels; the others are counted as not checked, with the reason.\n"
				 "Exit status: 0 every checked run is within its bound; 1 some run is not; 2 a bad trace or flag.\n");
		add_trace_common(tr_check);
		tr_check->add_option("--hz", tro.hz, "CONFIG_HZ of the traced kernel (required)");
		tr_check->add_option("--kernel", tro.kernel, "the traced kernel's version, for its default base slice")->capture_default_str();
		tr_check->add_option("--cpus", tro.cpus, "the traced machine's CPUs, for the default base slice (default: the trace's header)");
		tr_check->add_option("--slice", tro.slice, "the base slice (debugfs base_slice_ns); default: the kernel's for the CPU count");
		tr_check->add_option("--task-slice", tro.task_slices, "GLOB=DUR: the custom slice (sched_setattr) of the tasks whose comm matches; repeatable");
		tr_check->add_option("--jitter", tro.jitter, "ticks may come this much early (J)")->capture_default_str();
		tr_check->add_option("--tolerance", tro.tolerance, "added to every bound (resched to switch: irq exit)")->capture_default_str();
		tr_check->add_flag("--json", tro.json, "print one JSON document");

		tr_workload = trace_cmd->add_subcommand("workload", "the trace's tasks as an rt-app workload: their CPU bursts and sleeps in order");
		tr_workload->footer("Examples:\n  eevdf trace workload hogs.trace --task 'hog*' -o hogs.json && eevdf sim hogs.json --cpus 2\n"
				    "Each sleep is a timed sleep of the length the trace shows (with --resume, one ended by another\n"
				    "replayed task becomes suspend/resume); docs/trace.md says what is inferred.\n"
				    "Exit status: 0; 2 a bad trace or flag.\n");
		tr_workload->add_option("trace", tro.file, "the trace file ('-': stdin)")->required();
		tr_workload->add_option("-o,--output", tro.output, "the rt-app file to write ('-': stdout)")->required();
		tr_workload->add_option("--task", tro.tasks, "only tasks whose comm matches the glob (or whose pid is N); repeatable");
		tr_workload->add_flag("--resume", tro.resume, "a wake-up by another replayed task as suspend/resume (rt-app loses one that comes early)");
		tr_workload->add_flag("--no-affinity", tro.no_affinity, "no \"cpus\" from the CPUs each task ran on");
		tr_workload->add_flag("--lenient", tro.lenient, "count lines that cannot be parsed instead of refusing the trace");

		tr_compare = trace_cmd->add_subcommand("compare", "the trace beside the model running its workload, metric by metric");
		tr_compare->footer("Examples:\n  eevdf trace compare hogs.trace --hz 250 --task 'hog*'\n"
				   "  eevdf trace compare app.trace --hz 1000 --kernel 6.6 --cpus 2\n"
				   "The workload is what 'eevdf trace workload' writes; --cpus defaults to the trace's CPU count.\n"
				   "Exit status: 0; 2 a bad trace or flag.\n");
		add_model_options(tr_compare, tr_mo);
		tr_compare->add_option("trace", tro.file, "the trace file ('-': stdin)")->required();
		tr_compare->add_option("--task", tro.tasks, "only tasks whose comm matches the glob (or whose pid is N); repeatable");
		tr_compare->add_flag("--resume", tro.resume, "a wake-up by another replayed task as suspend/resume (rt-app loses one that comes early)");
		tr_compare->add_flag("--no-affinity", tro.no_affinity, "no \"cpus\" from the CPUs each task ran on");
		tr_compare->add_option("--threshold", tro.threshold, "flag a metric when it differs by more than this fraction")->capture_default_str();
		tr_compare->add_flag("--lenient", tro.lenient, "count lines that cannot be parsed instead of refusing the trace");
		return trace_cmd;
	}

	int run() override
	{
		if (*tr_stats)
			return cmd_trace_stats(tro);
		if (*tr_check)
			return cmd_trace_check(tro);
		if (*tr_workload)
			return cmd_trace_workload(tro);
		if (*tr_compare) {
			if (tr_compare->count("--cpus") == 0)
				tr_mo.cpus = 0;  // the trace's
			tro.hz = tr_mo.hz;
			if (tr_compare->count("--hz") == 0)
				throw UsageError("--hz: required (CONFIG_HZ to simulate, normally the traced kernel's)");
			return cmd_trace_compare(tro, tr_mo);
		}
		return 2;
	}

	// None for the dry run: trace compare's --cpus and --hz are settled
	// from the trace and its own checks when it runs.

private:
	TraceOptions tro;
	ModelOptions tr_mo;
	CLI::App *tr_stats = nullptr, *tr_check = nullptr, *tr_workload = nullptr, *tr_compare = nullptr;
};

}  // namespace

std::unique_ptr<Command> trace_command() { return std::make_unique<TraceCommand>(); }

}  // namespace eevdf::cli
