// SPDX-License-Identifier: GPL-2.0-only
#include "options.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include <sched.h>

#include "scenario.hpp"

namespace probe {

void usage(FILE *f)
{
	std::fprintf(f,
"usage: eevdf-probe [options]\n"
"  --hogs N               CPU-hog threads (default 4)\n"
"  --nices A,B,...        nice level of each hog (-20..19, one per hog;\n"
"                         default: all 0), set with sched_setattr\n"
"  --slice DUR|default    EEVDF slice set with sched_setattr(sched_runtime);\n"
"                         'default' leaves the kernel's slice (default)\n"
"  --duration DUR         measured window (default 5s; max 600s)\n"
"  --cpu K                CPU the hogs are pinned to (default 1)\n"
"  --waker PERIOD_US:RUN_US  add a periodic task on CPU K: sleeps until the\n"
"                         next period (clock_nanosleep TIMER_ABSTIME), then\n"
"                         spins RUN_US wall-clock microseconds\n"
"  --waker-slice DUR|default  slice of the waker (default: same as --slice)\n"
"  --waker-offset DUR     first expected wake is T0 + DUR (default 1ms); T0\n"
"                         is put on a multiple of the tick period\n"
"  --gap-us N             gap that ends a run (default 30)\n"
"  --irq-gap-us N         shorter gaps are counted as interrupts (default 2)\n"
"  --warmup DUR           spinning before the window opens (default 500ms)\n"
"  --trace | --no-trace   require / disable sched_switch tracing (default:\n"
"                         use tracefs if it is available)\n"
"  --isolate              run in a new session (so a new autogroup of its own)\n"
"                         and set that autogroup's nice to -20, so tasks of\n"
"                         other autogroups barely get CPU K and the load\n"
"                         balancer keeps them away; the hogs keep their own\n"
"                         nice (0 unless --nices)\n"
"  --json                 print a JSON document instead of tables\n"
"  --json-out FILE        also write the JSON document to FILE\n"
"  --dump-trace FILE      save the raw trace text (window and warm-up)\n"
"  --rtapp FILE           run rt-app FILE (rt-app in PATH) with every CPU traced\n"
"                         (sched_switch/waking/wakeup/wakeup_new/migrate_task,\n"
"                         fork, exit); needs --dump-trace FILE for the trace\n"
"  --timeout DURATION     stop rt-app (SIGTERM, then SIGKILL 2 s later) if it is\n"
"                         still running after DURATION (1s..3600s; default 600s)\n"
"multi-CPU scenarios (no pinning; with --isolate all tasks share one new\n"
"autogroup; --duration, --warmup, --slice, --isolate, --json, --json-out,\n"
"--dump-trace and --trace apply; sched_switch tracing is required):\n"
"  --scenario NAME        run scenario NAME on every online CPU\n"
"  --list-scenarios       print the scenarios and exit\n"
"  --share-window DUR     CPU share measured over windows of DUR (default 100ms)\n"
"  --sleeper PERIOD_US:RUN_US  periodic sleepers of the scenario (default\n"
"                         10000:1000; RUN_US is CPU time)\n"
"  --pingpong-run DUR     CPU time each ping-pong thread spends before waking\n"
"                         the other (default 200us)\n"
"DUR is a number with unit ns, us, ms or s (only 0 may go without one, as in eevdf sim).\n"
"Exit status: 0 ok, 2 error (usage, permissions, kernel), 130 interrupted.\n");
}

Options parse_args(int argc, char **argv)
{
	Options o;
	auto need = [&](int &i) -> std::string {
		if (i + 1 >= argc) {
			usage(stderr);
			die(strf("%s needs a value", argv[i]));
		}
		return argv[++i];
	};
	// A duration's value, refused with the flag named when it has no unit.
	auto duration = [](const std::string &flag, const std::string &v) {
		char *end = nullptr;
		const double x = std::strtod(v.c_str(), &end);
		if (end != v.c_str() && *end == '\0' && x != 0)
			die(flag + " " + v + ": no unit: write " + v + "ns, " + v + "us, " + v + "ms or " + v + "s");
		return parse_duration(v);
	};
	for (int i = 1; i < argc; ++i) {
		std::string a = argv[i];
		if (a == "--hogs") {
			if (o.pinned_only.empty())
				o.pinned_only = a;
			auto v = parse_int(need(i));
			if (!v || *v < 1 || *v > 64)
				die("--hogs must be 1..64");
			o.hogs = int(*v);
		} else if (a == "--nices") {
			if (o.pinned_only.empty())
				o.pinned_only = a;
			const std::string v = need(i);
			o.nices.clear();
			size_t pos = 0;
			while (pos <= v.size()) {
				const size_t comma = std::min(v.find(',', pos), v.size());
				auto n = parse_int(std::string_view(v).substr(pos, comma - pos));
				if (!n || *n < -20 || *n > 19)
					die("bad --nices " + v + ": each nice must be -20..19");
				o.nices.push_back(int(*n));
				pos = comma + 1;
			}
		} else if (a == "--slice") {
			std::string v = need(i);
			if (v == "default") {
				o.slice_ns.reset();
			} else {
				auto d = duration(a, v);
				if (!d || *d <= 0)
					die("bad --slice " + v);
				o.slice_ns = *d;
			}
		} else if (a == "--duration") {
			auto d = duration(a, need(i));
			if (!d || *d < 10 * kMs || *d > 600 * kSec)
				die("--duration must be 10ms..600s");
			o.duration_ns = *d;
		} else if (a == "--cpu") {
			if (o.pinned_only.empty())
				o.pinned_only = a;
			auto v = parse_int(need(i));
			if (!v || *v < 0 || *v >= CPU_SETSIZE)
				die("bad --cpu");
			o.cpu = int(*v);
		} else if (a == "--waker") {
			if (o.pinned_only.empty())
				o.pinned_only = a;
			std::string v = need(i);
			auto colon = v.find(':');
			if (colon == std::string::npos)
				die("--waker wants PERIOD_US:RUN_US");
			auto p = parse_int(v.substr(0, colon));
			auto r = parse_int(v.substr(colon + 1));
			if (!p || !r || *p <= 0 || *r < 0 || *r >= *p)
				die("--waker wants PERIOD_US:RUN_US with 0 <= RUN_US < PERIOD_US");
			// In ns the period must fit i64 with room for the window's sums.
			if (*p > 3600 * 1000000LL)
				die("--waker " + v + ": the period is above an hour (3600000000 us)");
			o.waker = true;
			o.waker_period_ns = *p * kUs;
			o.waker_run_ns = *r * kUs;
		} else if (a == "--waker-slice") {
			if (o.pinned_only.empty())
				o.pinned_only = a;
			std::string v = need(i);
			o.waker_slice_given = true;
			if (v == "default") {
				o.waker_slice_ns.reset();
			} else {
				auto d = duration(a, v);
				if (!d || *d <= 0)
					die("bad --waker-slice " + v);
				o.waker_slice_ns = *d;
			}
		} else if (a == "--waker-offset") {
			if (o.pinned_only.empty())
				o.pinned_only = a;
			auto d = duration(a, need(i));
			if (!d || *d > 10 * kSec)
				die("bad --waker-offset");
			o.waker_offset_ns = *d;
		} else if (a == "--gap-us") {
			if (o.pinned_only.empty())
				o.pinned_only = a;
			auto v = parse_int(need(i));
			if (!v || *v < 1 || *v > 100000)
				die("bad --gap-us");
			o.gap_thr_ns = *v * kUs;
		} else if (a == "--irq-gap-us") {
			if (o.pinned_only.empty())
				o.pinned_only = a;
			auto v = parse_int(need(i));
			// Below --gap-us (at most 100000) anyway; bounded here, before
			// the multiply by kUs could overflow.
			if (!v || *v < 1 || *v > 100000)
				die("bad --irq-gap-us (1..100000, below --gap-us)");
			o.irq_thr_ns = *v * kUs;
		} else if (a == "--warmup") {
			auto d = duration(a, need(i));
			if (!d || *d > 10 * kSec)
				die("bad --warmup (max 10s)");
			o.warmup_ns = *d;
		} else if (a == "--trace") {
			o.trace = Options::Trace::On;
		} else if (a == "--no-trace") {
			o.trace = Options::Trace::Off;
		} else if (a == "--isolate") {
			o.isolate = true;
		} else if (a == "--json-out") {
			o.json_out = need(i);
		} else if (a == "--dump-trace") {
			o.dump_trace = need(i);
		} else if (a == "--rtapp") {
			o.rtapp = need(i);
		} else if (a == "--timeout") {
			auto d = duration(a, need(i));
			if (!d || *d < kSec || *d > 3600 * kSec)
				die("--timeout must be 1s..3600s");
			o.rtapp_timeout_ns = *d;
		} else if (a == "--scenario") {
			o.scenario = need(i);
			if (!find_scenario(o.scenario))
				die("unknown --scenario " + o.scenario + " (see --list-scenarios)");
		} else if (a == "--list-scenarios") {
			list_scenarios(stdout);
			std::exit(0);
		} else if (a == "--share-window") {
			auto d = duration(a, need(i));
			if (!d || *d < 1 * kMs)
				die("bad --share-window (at least 1ms)");
			o.share_window_ns = *d;
		} else if (a == "--sleeper") {
			std::string v = need(i);
			auto colon = v.find(':');
			if (colon == std::string::npos)
				die("--sleeper wants PERIOD_US:RUN_US");
			auto p = parse_int(v.substr(0, colon));
			auto r = parse_int(v.substr(colon + 1));
			if (!p || !r || *p <= 0 || *r <= 0 || *r >= *p)
				die("--sleeper wants PERIOD_US:RUN_US with 0 < RUN_US < PERIOD_US");
			o.sleeper_period_ns = *p * kUs;
			o.sleeper_run_ns = *r * kUs;
		} else if (a == "--pingpong-run") {
			auto d = duration(a, need(i));
			if (!d || *d < 1 * kUs || *d > 1 * kSec)
				die("bad --pingpong-run (1us..1s)");
			o.pingpong_run_ns = *d;
		} else if (a == "--json") {
			o.json = true;
		} else if (a == "-h" || a == "--help") {
			usage(stdout);
			std::exit(0);
		} else {
			usage(stderr);
			die("unknown argument " + a);
		}
	}
	if (!o.scenario.empty() && !o.pinned_only.empty())
		die(o.pinned_only + " is for pinned runs, not --scenario");
	if (o.irq_thr_ns >= o.gap_thr_ns)
		die("--irq-gap-us must be below --gap-us");
	if (!o.nices.empty() && int(o.nices.size()) != o.hogs)
		die("--nices lists " + std::to_string(o.nices.size()) + " nice levels for " + std::to_string(o.hogs) +
		    " hogs");
	if (!o.waker_slice_given)
		o.waker_slice_ns = o.slice_ns;
	return o;
}


}  // namespace probe
