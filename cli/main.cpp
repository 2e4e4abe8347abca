// SPDX-License-Identifier: GPL-2.0-only
// eevdf: the command-line front end of the model.
//
// Exit status: 0 success; 2 bad usage or input (the message names the flag,
// file or field); 1 the model violated one of its own invariants.
#include <CLI/CLI.hpp>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "claims/claims.hpp"
#include "cli/companion.hpp"
#include "cli/diff.hpp"
#include "cli/probe_compare.hpp"
#include "cli/schbench_cmd.hpp"
#include "cli/sim.hpp"
#include "cli/slice_table.hpp"
#include "cli/sweep.hpp"
#include "cli/trace_cmd.hpp"
#include "cli/write_file.hpp"
#include "io/input_error.hpp"
#include "io/model_options.hpp"
#include "io/rtapp.hpp"
#include "io/values.hpp"
#include "model/check.hpp"
#include "model/cpumask.hpp"
#include "model/metrics.hpp"
#include "model/simulation.hpp"
#include "report/plots.hpp"
#include "report/report.hpp"
#include "report/version.hpp"

namespace eevdf::cli {
namespace {

void add_model_options(CLI::App* app, ModelOptions& o)
{
	app->add_option("--kernel", o.kernel, "kernel preset (eevdf presets lists them): 6.6, 6.12, 6.15, 6.18 (= 6.18.0), 6.18.2, 6.18.5, 6.18.17, 6.18.33, 6.18.39")->capture_default_str();
	app->add_option("--hz", o.hz, "CONFIG_HZ; TICK_NSEC = (1e9 + HZ/2) / HZ")->capture_default_str();
	app->add_option("--cpus", o.cpus, "CPUs to simulate (1.." + std::to_string(MAX_CPUS) + ")")->capture_default_str();
	app->add_option("--online-cpus", o.online_cpus,
			"online CPUs for the default base slice 0.70 ms x (1 + ilog2(min(N, 8))); default --cpus "
			"(--cpus 1 --online-cpus 8: one CPU of an 8-CPU machine)");
	app->add_option("--llc", o.llc, "CPUs per last-level cache (MC domain); default all");
	app->add_flag("--skew-tick", o.skew_tick, "boot option skew_tick=1: CPU c ticks c (TICK_NSEC/2)/cpus later");
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
			"sched_clock cost of one load-balance pass, for the newidle gate (no simulated time)")
		->capture_default_str();
	app->add_option("--slice", o.slice, "base slice (debugfs base_slice_ns), e.g. 3ms; default: the preset's");
	app->add_option("--features", o.features, "sched features to switch, e.g. +HRTICK,-RUN_TO_PARITY or NO_DELAY_DEQUEUE");
	app->add_option("--tick-phase", o.tick_phase, "ticks fire at t = PHASE (mod TICK_NSEC)")->capture_default_str();
	app->add_option("--tick-jitter", o.tick_jitter, "each tick arrives early by up to DUR (seeded uniform)")
		->capture_default_str();
	app->add_option("--switch-cost", o.switch_cost, "time from a pick until the next task runs; charged to it")
		->capture_default_str();
	app->add_option("--seed", o.seed, "seed of the tick jitter")->capture_default_str();
	app->add_option("--bug", o.bugs, "switch a historical EEVDF bug back in (repeatable); see 'eevdf bugs'");
}

// What a check reads: the claim files and the workload files they name.
std::vector<std::string> claim_inputs(const std::vector<std::pair<Claim, std::vector<RowResult>>>& all)
{
	std::vector<std::string> in;
	for (const auto& [c, rows] : all) {
		in.push_back(c.file);
		const std::string dir = std::filesystem::path(c.file).parent_path().string();
		auto add = [&](const std::string& w) {
			if (!w.empty())
				in.push_back((std::filesystem::path(dir) / w).string());
		};
		add(c.workload_file);
		for (const auto& [k, v] : c.config)
			if (k == "workload")
				add(v);
		for (const ClaimRow& r : c.rows)
			for (const auto& [k, v] : r.set)
				if (k == "workload")
					add(v);
	}
	return in;
}

int cmd_check(const std::vector<std::string>& files, bool as_json, const std::string& svg_out)
{
	if (svg_out == "-" && as_json)
		throw UsageError("--svg -: the standard output already carries --json; write one of them to a file");
	std::vector<std::pair<Claim, std::vector<RowResult>>> all;
	for (const std::string& f : files) {
		Claim c = load_claim(f);
		std::vector<RowResult> rows = evaluate(c);
		all.emplace_back(std::move(c), std::move(rows));
	}
	bool ok = true;
	for (const auto& [c, rows] : all)
		for (const RowResult& r : rows)
			ok = ok && r.ok;
	if (!svg_out.empty())
		write_file_atomic(svg_out, claims_figure(all), "--svg", claim_inputs(all));
	if (svg_out == "-")  // the figure is the whole of stdout; the exit status still says
		return ok ? 0 : 1;
	if (as_json) {
		std::cout << claims_json(all);
	} else {
		for (size_t i = 0; i < all.size(); i++)
			std::cout << (i ? "\n" : "") << format_claim(all[i].first, all[i].second);
		std::cout << "\n" << (ok ? "every row agrees with its claim or is a documented finding\n"
					 : "some rows disagree (DISAGREES, or AGREES where a finding was expected)\n");
	}
	return ok ? 0 : 1;
}

struct PlotOptions {
	std::vector<u32> hz{1000, 100};
	std::vector<std::string> slices{"3ms", "6ms"};
	int hogs = 4;
	std::string workload;
	std::string duration = "2s";
	std::string output;
};

// The run-length distribution of every HZ x slice configuration, as an SVG CDF.
int cmd_plot_runs(ModelOptions mo, const PlotOptions& po)
{
	SimOptions so;
	so.workload = po.workload;
	so.hogs = po.workload.empty() ? po.hogs : 0;
	so.duration = po.duration;
	std::vector<std::pair<std::string, std::vector<u64>>> runs;
	for (u32 hz : po.hz)
		for (const std::string& slice : po.slices) {
			mo.hz = hz;
			mo.slice = slice;
			Simulation sim(build_config(mo), build_workload(so));
			MetricsCollector m;
			sim.add_observer(&m);
			sim.run();
			m.finish(sim);
			runs.emplace_back("HZ=" + std::to_string(hz) + " slice=" + slice, total_metrics(m).runs.values());
		}
	// the file's name, not its path: a title says what ran, not where it lives
	const std::string what = po.workload.empty() ? std::to_string(po.hogs) + " CPU hogs"
						     : std::filesystem::path(po.workload).filename().string();
	write_file_atomic(po.output,
			  runs_figure(runs, "Run lengths, " + what + ", " + po.duration + ", kernel " + mo.kernel), "--output",
			  po.workload.empty() ? std::vector<std::string>{} : std::vector<std::string>{po.workload});
	return 0;
}

int cmd_bugs()
{
	for (const BugInfo& b : bug_info)
		std::printf("%-22s %-13s %s\n", std::string(b.name).c_str(), std::string(b.commit).c_str(),
			    std::string(b.what).c_str());
	return 0;
}

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

// Every value given on the command line, checked once before a command
// runs: none empty or padded with spaces (an optional value, --schbench's,
// may be empty), and an unsigned one (CLI11's UINT) only digits within 64
// bits, so that "-1" or 2^64 cannot wrap or saturate into a valid-looking
// number.
void check_given_values(const CLI::App& sub)
{
	for (const CLI::Option* o : sub.get_options()) {
		if (!o->count() || o->get_type_size() == 0)
			continue;  // not given, or a flag
		const std::string name = o->get_name();
		for (const std::string& v : o->results()) {
			if (v.empty()) {
				if (o->get_expected_min() == 0)
					continue;
				throw UsageError(name + ": an empty value");
			}
			if (std::isspace(static_cast<unsigned char>(v.front())) || std::isspace(static_cast<unsigned char>(v.back())))
				throw UsageError(name + ": '" + v + "' has spaces around it");
			if (o->get_type_name() == "UINT" &&
			    (v.find_first_not_of("0123456789") != std::string::npos || v.size() > 20 ||
			     (v.size() == 20 && v > "18446744073709551615")))
				throw UsageError(name + ": '" + v + "' is not an unsigned integer (0 .. 18446744073709551615)");
		}
	}
}

// The first argument names a command; an unknown one is named back.
void check_command_name(const CLI::App& app, int argc, char** argv)
{
	if (argc < 2 || argv[1][0] == '-')
		return;
	std::string known;
	for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
		if (sub->get_name() == argv[1])
			return;
		known += (known.empty() ? "" : ", ") + sub->get_name();
	}
	throw UsageError(std::string("unknown command '") + argv[1] + "' (the commands: " + known + ")");
}

// `eevdf --version` stands alone: CLI11 would print the version and ignore
// whatever follows. (After a command, --version is an unknown option.)
void check_version_alone(int argc, char** argv)
{
	if (argc > 2 && std::strcmp(argv[1], "--version") == 0)
		throw UsageError(std::string("--version takes no other arguments (it was given with '") + argv[2] + "')");
}

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

// sim's --schbench takes its FILE only as --schbench=FILE: a bare
// --schbench becomes --schbench=- (the block after the table), so the next
// word stays what it is (`--schbench w.json` must not write over the
// workload). CLI11 takes the arguments reversed.
std::vector<std::string> sim_schbench_value_after_equals(int argc, char** argv)
{
	std::vector<std::string> args;
	for (int i = argc - 1; i >= 1; i--) {
		const bool bare = argc > 1 && std::strcmp(argv[1], "sim") == 0 && std::strcmp(argv[i], "--schbench") == 0;
		args.push_back(bare ? "--schbench=-" : argv[i]);
	}
	return args;
}

// CLI11 says "--duration: At Most 1 required but received 2" for a flag
// given twice; say which values it was given and what to do instead.
std::string parse_error_text(const CLI::ParseError& e, int argc, char** argv)
{
	const std::string what = e.what();
	const std::string mark = ": At Most 1 required but received ";
	const size_t at = what.find(mark);
	if (at == std::string::npos || what.rfind("--", 0) != 0)
		return what;
	const std::string flag = what.substr(0, at);
	std::string values;
	int n = 0;
	for (int i = 1; i < argc; i++) {
		const std::string a = argv[i];
		std::string v;
		if (a == flag && i + 1 < argc)
			v = argv[++i];
		else if (a.rfind(flag + "=", 0) == 0)
			v = a.substr(flag.size() + 1);
		else
			continue;
		values += (n++ ? ", '" : "'") + v + "'";
	}
	return flag + " was given " + std::to_string(n ? n : 2) + " times" + (n ? " (" + values + ")" : "") +
	       "; it takes one value: give it once";
}

// What was printed must have reached stdout: a full disk or /dev/full fails
// here, after the last write, with exit 2.
int checked_stdout(int rc)
{
	std::cout.flush();
	if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
		std::cerr << "eevdf: cannot write the standard output: " << std::strerror(errno) << "\n";
		return 2;
	}
	return rc;
}

}  // namespace
}  // namespace eevdf::cli

// Built a second time as fuzz_cli_args (fuzz/): EEVDF_CLI_FUZZ renames
// main and stops after every value was parsed and checked and the model's
// configuration built, so that any argument list runs in microseconds.
#ifdef EEVDF_CLI_FUZZ
#define EEVDF_MAIN eevdf_cli_main
constexpr bool DRY_RUN = true;
#else
#define EEVDF_MAIN main
constexpr bool DRY_RUN = false;
#endif

int EEVDF_MAIN(int argc, char** argv)
{
	using namespace eevdf::cli;
	CLI::App app{"eevdf: a checked reference model of the Linux EEVDF scheduler with a periodic tick"};
	app.require_subcommand(1);
	app.set_version_flag("--version", version_line(), "print the version (and git describe of the checkout it was built from) and exit");

	ModelOptions mo;
	SimOptions so;
	std::vector<std::string> sweeps;
	unsigned jobs = 0;
	auto* sim = app.add_subcommand("sim", "simulate a workload on one or more CPUs and report run lengths, switches, latency and lag");
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
	const CLI::Validator svg_file(svg_file_name, "FILE.svg");
	sim->add_option("--svg-lag", so.svg_lag, "write an SVG figure of lag and v - V over time per task to FILE")->check(svg_file);
	sim->add_option("--from", so.svg_from, "start of the --svg-lag figure's time window (default 0)");
	sim->add_option("--to", so.svg_to, "end of the --svg-lag figure's time window (default: the end)");
	sim->add_option("--sweep", sweeps,
			"KEY=VALUES: run every combination (repeatable); VALUES: a,b,c | A..B (doubling) | A..B:STEP")
		->allow_extra_args(false);
	sim->add_option("--jobs", jobs, "threads for --sweep (default: all cores)");
	sim->add_flag("--check", so.check, "check every invariant after every event; exit 1 on a violation");
	sim->add_option("--counterexample", so.counterexample, "where --check writes the violating workload")
		->capture_default_str();
	add_model_options(sim, mo);

	ModelOptions to_mo;
	TableOptions to;
	SchbenchCmdOptions sbo;
	ModelOptions sb_mo;
	auto* sb = app.add_subcommand("schbench", "run schbench's command line on the model and print schbench's blocks");
	add_model_options(sb, sb_mo);
	sb->footer("schbench's own options (masoncl/schbench; getopt: a repeated option's last value wins), then the\n"
		   "model's. The protocol (futex hand-offs, LIFO batches, -M auto pinning) is schbench's; the work\n"
		   "is fixed CPU time (docs/schbench.md).\n"
		   "Examples:\n"
		   "  eevdf schbench -m 4 -t 60 -n 0 -L -M auto -r 2 --cpus 40 --llc 8 --hz 1000\n"
		   "  eevdf schbench -m 1 -t 4 -n 5 --op-cost 200us -r 5 --cpus 2 --json\n"
		   "Exit status: 0; 2 on a bad option, naming it.\n");
	auto last = CLI::MultiOptionPolicy::TakeLast;
	sb->add_option("-m,--message-threads", sbo.message_threads, "message threads")->multi_option_policy(last)->capture_default_str();
	sb->add_option("-t,--threads", sbo.workers, "workers per message thread (default: ceil(CPUs / m))")->multi_option_policy(last);
	sb->add_option("-r,--runtime", sbo.runtime_s, "seconds to run")->multi_option_policy(last)->capture_default_str();
	sb->add_option("-s,--sleeptime", sbo.sleep_us, "usleep() per request, in usec")->multi_option_policy(last)->capture_default_str();
	sb->add_option("-n,--operations", sbo.operations, "matrix operations per request")->multi_option_policy(last)->capture_default_str();
	sb->add_option("-w,--warmuptime", sbo.warmup_s, "seconds before recording (0 for runs under 30 s, as schbench)")->multi_option_policy(last);
	sb->add_option("-i,--intervaltime", sbo.interval_s, "schbench's interim report interval; the model prints only the final report")->multi_option_policy(last);
	sb->add_option("-M,--pin", sbo.pin, "auto: message thread i on CPU i (workers on every CPU, as schbench does)")->multi_option_policy(last);
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

	auto* table = app.add_subcommand("slice-table", "seed 001's avg-run and context-switch table: model beside measured");
	table->footer("Examples:\n  eevdf slice-table            # 4 hogs, 30 s, HZ=1000 and 100, slices 3..32 ms\n"
		      "  eevdf slice-table --hz-list 250 --slices 1ms,2ms --duration 5s\n");
	table->add_option("--hz-list", to.hz, "HZ values")->delimiter(',')->capture_default_str();
	table->add_option("--slices", to.slices, "base slices")->delimiter(',');
	table->add_option("--hogs", to.hogs, "CPU hogs")->capture_default_str();
	table->add_option("--duration", to.duration, "simulated time per row")->capture_default_str();
	table->add_flag("--json", to.json, "print one JSON document instead of the markdown tables");
	add_model_options(table, to_mo);
	table->remove_option(table->get_option("--hz"));
	table->remove_option(table->get_option("--slice"));

	ModelOptions plot_mo;
	PlotOptions po;
	auto* plot = app.add_subcommand("plot", "draw figures as SVG (no GUI needed)");
	plot->require_subcommand(1);
	auto* plot_runs = plot->add_subcommand("runs", "the run-length distribution (CDF) of each HZ x slice configuration");
	plot_runs->footer("Examples:\n  eevdf plot runs --hz 1000,100 --slices 3ms,6ms -o runs.svg\n"
			  "  eevdf plot runs workload.json --hz 250 --slices 1ms,4ms --duration 5s -o runs.svg\n");
	plot_runs->add_option("workload", po.workload, "rt-app JSON workload file (default: --hogs)");
	plot_runs->add_option("--hogs", po.hogs, "CPU hogs when no workload file is given")->capture_default_str();
	plot_runs->add_option("--slices", po.slices, "base slices")->delimiter(',');
	plot_runs->add_option("--duration", po.duration, "simulated time per configuration")->capture_default_str();
	plot_runs->add_option("-o,--output", po.output, "the SVG file to write")->required()->check(svg_file);
	add_model_options(plot_runs, plot_mo);
	plot_runs->remove_option(plot_runs->get_option("--hz"));
	plot_runs->remove_option(plot_runs->get_option("--slice"));
	plot_runs->add_option("--hz", po.hz, "HZ values, comma-separated")->delimiter(',');

	ModelOptions psw_mo;
	SimOptions psw_so;
	PlotSweepOptions psw;
	auto* plot_sweep = plot->add_subcommand("sweep", "one metric of a sweep against one swept key, a line per value of the others");
	plot_sweep->footer("Examples:\n  eevdf plot sweep --hogs 4 --duration 5s --sweep hz=100,250,1000 --sweep slice=1ms..32ms -o s.svg\n"
			   "  eevdf plot sweep --hogs 2 --sweep kernel=6.6,6.18 --sweep hz=100..1000:300 --metric switches -o k.svg\n"
			   "The metrics are the sweep table's columns; --x defaults to the last --sweep's key.\n");
	plot_sweep->add_option("workload", psw_so.workload, "rt-app JSON workload file (default: --hogs)");
	plot_sweep->add_option("--hogs", psw_so.hogs, "CPU hogs when no workload file is given");
	plot_sweep->add_option("--duration", psw_so.duration, "simulated time per configuration");
	plot_sweep->add_option("--sweep", psw.specs, "KEY=VALUES to sweep (repeatable), as for eevdf sim --sweep")->required();
	plot_sweep->add_option("--metric", psw.metric,
			       "mean_run_ms, p99_run_ms, runs, switches, involuntary, wake_p99_us or max_lag_us")
		->capture_default_str();
	plot_sweep->add_option("--x", psw.x, "the swept key on the x axis (default: the last --sweep's)");
	plot_sweep->add_option("--jobs", psw.jobs, "parallel simulations (default: all cores)");
	plot_sweep->add_option("-o,--output", psw.output, "the SVG file to write")->required()->check(svg_file);
	add_model_options(plot_sweep, psw_mo);

	auto* presets = app.add_subcommand("presets", "list the kernel presets and their defaults");
	presets->footer("Example:\n  eevdf presets\n");
	auto* bugs = app.add_subcommand("bugs", "list the historical bugs that --bug can switch back in");
	bugs->footer("Example:\n  eevdf bugs\n  eevdf sim --hogs 3 --bug avg-vruntime-trunc --check\n");
	std::vector<std::string> claim_files;
	bool check_json = false;
	std::string check_svg;
	auto* check = app.add_subcommand("check", "check kernel patch claims (claim files) against the model");
	check->footer("Examples:\n  eevdf check claims/*.json\n  eevdf check claims/seed001-avgrun.json --json\n"
		      "  eevdf check claims/seed001-avgrun.json --svg avgrun.svg\n"
		      "Exit status: 0 every row agrees or is a documented finding; 1 a row disagrees; 2 a bad file.\n"
		      "The format is in claims/README.md.\n");
	check->add_option("files", claim_files, "claim files")->required();
	check->add_flag("--json", check_json, "print one JSON document");
	check->add_option("--svg", check_svg, "write the claimed-vs-model bars of every row as SVG to FILE")->check(svg_file);

	DiffOptions dfo;
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

	TraceOptions tro;
	ModelOptions tr_mo;
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
	auto* tr_stats = trace_cmd->add_subcommand("stats", "per task and in total the metrics of 'eevdf sim', measured on the trace");
	tr_stats->footer("Examples:\n  eevdf trace stats /sys/kernel/tracing/trace --task 'stress-ng*' --hz 250\n"
			 "  trace-cmd report | eevdf trace stats - --json\n"
			 "--json writes the schema of 'eevdf sim --json' (no lag: a trace cannot show it), so\n"
			 "'eevdf diff' compares a trace with a simulation. Exit status: 0; 2 a bad trace or flag.\n");
	add_trace_common(tr_stats);
	tr_stats->add_option("--hz", tro.hz, "CONFIG_HZ of the traced kernel: adds the run histogram in ticks");
	tr_stats->add_flag("--json", tro.json, "print one JSON document (the schema of 'eevdf sim --json')");

	auto* tr_check = trace_cmd->add_subcommand("check", "the proved run bounds applied to the trace's runs; exit 1 when one is broken");
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

	auto* tr_workload = trace_cmd->add_subcommand("workload", "the trace's tasks as an rt-app workload: their CPU bursts and sleeps in order");
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

	auto* tr_compare = trace_cmd->add_subcommand("compare", "the trace beside the model running its workload, metric by metric");
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

	auto* probe = app.add_subcommand("probe", "measure the live kernel (eevdf-probe) and print it beside the model");
	probe->footer("Runs eevdf-probe (built from probe/) found next to eevdf, in ../probe/ of a build tree or in\n"
		      "PATH (or $EEVDF_PROBE) with these arguments, then the same scenario (hogs, custom slice, the\n"
		      "periodic waker, the kernel's HZ, CPU count and version) in the model, and prints\n"
		      "kernel | model | model with the calibrated 30 us tick jitter. Needs root on a real kernel.\n"
		      "With --json the probe's own JSON is printed instead.\n"
		      "Examples:\n  eevdf probe --hogs 4 --slice 3ms --duration 5s --cpu 1 --isolate\n"
		      "  eevdf probe --hogs 3 --slice 3ms --duration 5s --waker 10000:1000\n"
		      "  eevdf probe --claim claims/x.json   # a claim's hog rows on this kernel\n"
		      "  eevdf probe -- --help   # the probe's own help\n"
		      "Exit status: 0; the probe's own status when it fails; 2 if it cannot be found or run.\n");
	probe->prefix_command();

	auto* prove = app.add_subcommand("prove", "decide the Z3 proof obligations (eevdf-prove) with these arguments");
	prove->footer("Runs eevdf-prove (built from proofs/) found next to eevdf, in ../proofs/ of a build tree or in\n"
		      "PATH (or $EEVDF_PROVE), passing every argument through (docs/proofs.md).\n"
		      "Examples:\n  eevdf prove --list\n  eevdf prove run_length run_length_tight\n"
		      "  eevdf prove --smt2 out/          # export every query as SMT-LIB2\n"
		      "Exit status: 0 when every obligation expected to hold is PROVED and every expected refutation is\n"
		      "REFUTED (and replays); 1 otherwise; 2 if eevdf-prove cannot be found or run.\n");
	prove->prefix_command();

	// `eevdf probe -- ARGS` and `eevdf prove -- ARGS` hand ARGS to the
	// companion untouched (CLI11 would still act on a --help among them).
	if (argc >= 3 && std::strcmp(argv[2], "--") == 0 &&
	    (std::strcmp(argv[1], "probe") == 0 || std::strcmp(argv[1], "prove") == 0)) {
		const std::vector<std::string> rest(argv + 3, argv + argc);
		if (DRY_RUN)
			return 0;
		try {
			return checked_stdout(std::strcmp(argv[1], "probe") == 0 ? probe_side_by_side(rest)
										 : exec_companion(PROVER, rest));
		} catch (const UsageError& e) {
			std::cerr << "eevdf: " << e.what() << "\n";
			return 2;
		}
	}
	try {
		check_version_alone(argc, argv);
		check_command_name(app, argc, argv);
	} catch (const UsageError& e) {
		std::cerr << "eevdf: " << e.what() << "\n";
		return 2;
	}
	try {
		app.name(argv[0]);  // as parse(argc, argv) would, for the usage lines
		app.parse(sim_schbench_value_after_equals(argc, argv));
	} catch (const CLI::CallForHelp& e) {
		return app.exit(e);
	} catch (const CLI::CallForAllHelp& e) {
		return app.exit(e);
	} catch (const CLI::CallForVersion& e) {
		return app.exit(e);
	} catch (const CLI::ParseError& e) {
		std::cerr << "eevdf: " << parse_error_text(e, argc, argv) << "\nRun 'eevdf --help' or 'eevdf COMMAND --help'.\n";
		return 2;
	}

	// The command the arguments chose; its exit status.
	auto run_command = [&]() -> int {
		if (*sim) {
			so.want_schbench = sim->count("--schbench") > 0;
			if (so.want_schbench && so.schbench.empty())
				so.schbench = "-";
			if (!sweeps.empty() && !so.map.empty())
				throw UsageError("--map writes one schedule; it cannot be combined with --sweep "
						 "(run 'eevdf sim' once for the configuration you want to see)");
			if (!sweeps.empty())
				return cmd_sweep(mo, so, sweeps, jobs);
			return cmd_sim(mo, so);
		}
		if (*sb)
			return cmd_schbench(sb_mo, sbo);
		if (*table)
			return cmd_slice_table(to_mo, to);
		if (*plot_runs)
			return cmd_plot_runs(plot_mo, po);
		if (*plot_sweep) {
			if (psw_so.workload.empty() && psw_so.hogs == 0)
				psw_so.hogs = 4;
			return cmd_plot_sweep(psw_mo, psw_so, psw);
		}
		if (*presets)
			return cmd_presets();
		if (*bugs)
			return cmd_bugs();
		if (*check)
			return cmd_check(claim_files, check_json, check_svg);
		if (*diff)
			return cmd_diff(dfo);
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
		if (*probe)
			return probe_side_by_side(probe->remaining());
		if (*prove)
			return exec_companion(PROVER, prove->remaining());
		return 2;
	};
	try {
		for (const CLI::App* sub : app.get_subcommands())
			if (sub != probe && sub != prove)
				check_given_values(*sub);
		if (DRY_RUN) {
			for (const ModelOptions* m : {&mo, &sb_mo, &to_mo, &plot_mo, &psw_mo})
				(void)build_config(*m);
			return 0;
		}
		return checked_stdout(run_command());
	} catch (const UsageError& e) {
		std::cerr << "eevdf: " << e.what() << "\n";
		return 2;
	} catch (const eevdf::InputError& e) {
		std::cerr << "eevdf: " << e.what() << "\n";
		return 2;
	} catch (const eevdf::WorkloadError& e) {
		std::cerr << "eevdf: " << e.what() << "\n";
		return 2;
	}
}

