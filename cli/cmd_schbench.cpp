// SPDX-License-Identifier: GPL-2.0-only
// `eevdf schbench` on the command line: schbench's own options (getopt's
// last-value-wins), then the model's; the run is cli/schbench_cmd.cpp's.
#include <map>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/schbench_cmd.hpp"
#include "io/values.hpp"

namespace eevdf::cli {
namespace {

// schbench's options (masoncl/schbench options.c) that the model does not
// run, each with what it does there and what to do here.
struct UnmodelledOption {
	std::string names;        // CLI11's "-F,--cache_footprint"
	std::string names_shown;  // "-F (--cache_footprint)"
	bool takes_value;
	std::string why;
};

const std::vector<UnmodelledOption>& unmodelled_schbench_options()
{
	static const std::vector<UnmodelledOption> v{
		{"-F,--cache_footprint", "-F (--cache_footprint)", true,
		 "it sizes the matrix each operation walks (256 KB), and the model has no caches: an operation's CPU time "
		 "is --op-cost (schbench -C on the machine measures it); leave -F out"},
		{"-C,--calibrate", "-C (--calibrate)", false,
		 "it times schbench's work loop on the machine; the model's operation takes --op-cost, so run `schbench "
		 "-C` on the real machine and give its per-operation time as --op-cost"},
		{"-R,--rps", "-R (--rps)", true,
		 "requests-per-second mode (a paced request stream) is not modelled; the model runs schbench's default "
		 "mode, each worker requesting again after its sleep"},
		{"-A,--auto-rps", "-A (--auto-rps)", true,
		 "growing the request rate to a CPU utilisation target is not modelled (nor -R's paced mode)"},
		{"-p,--pipe", "-p (--pipe)", true,
		 "the pipe test (a transfer of N bytes per hand-off) is not modelled; `perf bench sched pipe`-like "
		 "hand-offs can be written as an rt-app file of two tasks"},
		{"-W,--worker-cpus", "-W (--worker-cpus)", true,
		 "pinning the workers is not modelled beyond -M auto (message thread i on CPU i, workers anywhere)"},
		{"-P,--pin", "-P (--pin)", true,
		 "CCX-aware pinning needs a topology the simulator does not run yet (docs/model.md, \"Topology\")"},
		{"-z,--zerotime", "-z (--zerotime)", true,
		 "zeroing the statistics every N seconds is not modelled: the model prints one report over -r seconds "
		 "after -w"},
		{"-j", "-j FILE (schbench's --json FILE)", true,
		 "schbench's JSON file is not written; the model's --json (no file) prints its JSON document on "
		 "stdout"},
		{"-J,--jobname", "-J (--jobname)", true, "it names a job in schbench's JSON file (-j), which is not written"},
	};
	return v;
}

class SchbenchCommand : public Command {
public:
	CLI::App* add(CLI::App& app) override
	{
		sb = app.add_subcommand("schbench", "run schbench's command line on the model and print schbench's blocks");
		add_model_options(sb, sb_mo);
		sb->footer("schbench's own options (masoncl/schbench; getopt: a repeated option's last value wins), then the\n"
			   "model's. The protocol (futex hand-offs, LIFO batches, -M auto pinning) is schbench's; the work\n"
			   "is fixed CPU time (docs/schbench.md).\n"
			   "Examples:\n"
			   "  eevdf schbench -m 4 -t 60 -n 0 -L -M auto -r 2 --cpus 40 --llc 8 --hz 1000\n"
			   "  eevdf schbench -m 1 -t 4 -n 5 --op-cost 200us -r 5 --cpus 2 --json\n"
			   "  eevdf schbench -m 1 -t 2 -n 5 --op-cost 765us -r 5 --cpus 2 --stress 2 --profile vm-6.18.44-hz250 --seeds 20\n"
			   "Exit status: 0; 2 on a bad option, naming it.\n");
		auto last = CLI::MultiOptionPolicy::TakeLast;
		sb->add_option("-m,--message-threads", sbo.message_threads, "message threads")->multi_option_policy(last)->capture_default_str();
		sb->add_option("-t,--threads", sbo.workers, "workers per message thread (default: ceil(CPUs / m))")->multi_option_policy(last);
		sb->add_option("-r,--runtime", sbo.runtime_s, "seconds to run")->multi_option_policy(last)->capture_default_str();
		sb->add_option("-s,--sleep_usec,--sleeptime", sbo.sleep_us, "usleep() per request, in usec")->multi_option_policy(last)->capture_default_str();
		sb->add_option("-n,--operations", sbo.operations, "matrix operations per request")->multi_option_policy(last)->capture_default_str();
		sb->add_option("-w,--warmuptime", sbo.warmup_s, "seconds before recording (0 for runs under 30 s, as schbench)")->multi_option_policy(last);
		sb->add_option("-i,--intervaltime", sbo.interval_s, "schbench's interim report interval; the model prints only the final report")->multi_option_policy(last);
		sb->add_option("-M,--message-cpus", sbo.pin, "auto: message thread i on CPU i (workers on every CPU, as schbench does)")->multi_option_policy(last);
		sb->add_flag("-L,--no-locking", sbo.no_locking, "no per-CPU lock (the model never takes one)");
		sb->add_option("--op-cost", sbo.op_cost, "CPU time of one matrix operation (needed when -n > 0)");
		sb->add_option("--timer-slack", sbo.timer_slack, "added to each usleep (timer_slack_ns)")->capture_default_str();
		sb->add_option("--msg-cost", sbo.msg_cost, "a message thread's CPU time per batch")->capture_default_str();
		sb->add_option("--worker-cost", sbo.worker_cost, "a worker's CPU time per request besides the operations")->capture_default_str();
		sb->add_option("--stress", sbo.stress, "stress-ng --cpu N beside it: N CPU hogs");
		sb->add_option("--schbench-slice", sbo.schbench_slice,
			       "custom slice (sched_setattr sched_runtime) of schbench's threads, e.g. 2ms; the kernel clamps it to 0.1-100 ms");
		sb->add_option("--stress-slice", sbo.stress_slice, "custom slice of the stress-ng hogs");
		sb->add_option("--with", sbo.with,
			       "an rt-app file whose tasks run beside schbench's, e.g. stress-ng --cpu N as N rt-app hogs "
			       "(repeatable; its global duration is not used: -r decides)");
		sb->add_flag("--json", sbo.json, "print one JSON document");
		// schbench's options the model does not run: accepted by name, then
		// refused in run() with what they do and what to do instead.
		for (const UnmodelledOption& u : unmodelled_schbench_options())
			unmodelled_.emplace_back(&u, u.takes_value ? sb->add_option(u.names, unmodelled_values_[u.names])->group("")
								   : sb->add_flag(u.names, unmodelled_flags_[u.names])->group(""));
		sb->add_option("--seeds", sbo.seeds,
			       "run N seeds (--seed S, S+1, ...) in parallel; each figure as the median and 95% interval "
			       "over the seeds, beside the pooled samples' percentile (1..10000; docs/profiles.md)");
		sb->add_option("--jobs", sbo.jobs, "threads for --seeds (default: all cores)");
		return sb;
	}

	int run() override
	{
		for (const auto& [u, opt] : unmodelled_)
			if (opt->count())
				throw UsageError("schbench option " + u->names_shown + " is not modelled: " + u->why);
		sbo.ensemble = sb->count("--seeds") > 0;
		return cmd_schbench(sb_mo, sbo);
	}

	std::vector<const ModelOptions*> model_options() const override { return {&sb_mo}; }

private:
	std::map<std::string, std::string> unmodelled_values_;
	std::map<std::string, bool> unmodelled_flags_;
	std::vector<std::pair<const UnmodelledOption*, CLI::Option*>> unmodelled_;
	CLI::App* sb = nullptr;
	SchbenchCmdOptions sbo;
	ModelOptions sb_mo;
};

}  // namespace

std::unique_ptr<Command> schbench_command() { return std::make_unique<SchbenchCommand>(); }

}  // namespace eevdf::cli
