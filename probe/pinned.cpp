// SPDX-License-Identifier: GPL-2.0-only
// The pinned run: hogs (and a waker) on one CPU, measured by their spin gaps
// and by sched_switch on that CPU.
#include "pinned.hpp"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <thread>
#include <vector>

#include <sched.h>

#include "analysis.hpp"
#include "report.hpp"
#include "session.hpp"
#include "sysinfo.hpp"
#include "tracefs.hpp"
#include "workers.hpp"

namespace probe {

int run_pinned(int argc, char **argv)
{
	const Options &o = g_opt;

	// The CPU must exist and be allowed to us.
	cpu_set_t allowed;
	CPU_ZERO(&allowed);
	if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
		die(strf("sched_getaffinity: %s", strerror(errno)));
	if (!CPU_ISSET(o.cpu, &allowed))
		die(strf("CPU %d is not online or not in this process's affinity mask", o.cpu));

	SysInfo si = gather_sysinfo();

	// Keep the main thread off the probed CPU.
	{
		cpu_set_t rest = allowed;
		CPU_CLR(o.cpu, &rest);
		if (CPU_COUNT(&rest) > 0) {
			if (sched_setaffinity(0, sizeof rest, &rest) != 0)
				die(strf("sched_setaffinity(main): %s", strerror(errno)));
		} else {
			std::fprintf(stderr, "eevdf-probe: warning: only CPU %d is available; the "
					     "main thread shares it (it sleeps)\n", o.cpu);
		}
	}

	// Termination signals are taken synchronously by the main thread only.
	sigset_t sigs;
	sigemptyset(&sigs);
	for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
		sigaddset(&sigs, s);
	pthread_sigmask(SIG_BLOCK, &sigs, nullptr);

	Tracer tracer;
	if (o.trace != Options::Trace::Off) {
		if (!tracer.setup(o.cpu, o.duration_ns + o.warmup_ns) &&
		    o.trace == Options::Trace::On)
			die("--trace: " + tracer.note);
	} else {
		tracer.note = "disabled with --no-trace";
	}

	// Tasks and their preallocated buffers (touched now, not while measuring).
	const int ntasks = o.hogs + (o.waker ? 1 : 0);
	std::vector<Task> tasks(static_cast<size_t>(ntasks));
	const double secs = double(o.duration_ns) / kSec;
	for (int i = 0; i < ntasks; ++i) {
		Task &t = tasks[size_t(i)];
		t.idx = i;
		t.is_waker = o.waker && i == o.hogs;
		t.name = t.is_waker ? "waker" : strf("hog%d", i);
		t.slice_ns = t.is_waker ? o.waker_slice_ns : o.slice_ns;
		t.nice = !t.is_waker && !o.nices.empty() ? o.nices[size_t(i)] : 0;
		// ~300 gaps/s per task were seen in a VM; overflow is reported.
		t.gaps.init(size_t(std::clamp(5000.0 * secs, 50000.0, 1000000.0)));
		t.irqs.init(size_t(std::clamp(20000.0 * secs, 100000.0, 1000000.0)));
		if (t.is_waker) {
			size_t acts = size_t(o.duration_ns / o.waker_period_ns + 16);
			t.lat.init(acts);
			t.acts.init(acts);
		}
	}

	std::vector<std::thread> threads;
	auto finish = [&](int code) {
		{
			std::lock_guard<std::mutex> lk(g_gate.m);
			g_gate.open = true;
		}
		g_gate.cv.notify_all();
		for (auto &th : threads)
			if (th.joinable())
				th.join();
		tracer.teardown();
		return code;
	};
	for (int i = 0; i < ntasks; ++i) {
		try {
			threads.emplace_back(task_main, &tasks[size_t(i)]);
		} catch (const std::exception &e) {
			std::fprintf(stderr, "eevdf-probe: error: cannot create thread: %s\n", e.what());
			g_abort = true;
			g_stop = true;
			return finish(kExitError);
		}
	}
	{
		std::unique_lock<std::mutex> lk(g_gate.m);
		g_gate.cv.wait(lk, [&] { return g_gate.ready == ntasks; });
	}

	// Setup errors: sched_setattr / affinity.
	bool bad = false;
	for (auto &t : tasks)
		if (t.err) {
			std::fprintf(stderr, "eevdf-probe: error: %s: %s failed: %s (errno %d)%s\n",
				     t.name.c_str(), t.err_what.c_str(), strerror(t.err), t.err,
				     t.err == EPERM ? " - need root or CAP_SYS_NICE"
				     : t.err == EINVAL ? " - kernel rejected the attributes" : "");
			bad = true;
		}
	// The slice must show in /proc (6.15+ prints se.slice).
	for (auto &t : tasks) {
		if (bad)
			break;
		t.setup = read_proc_sched(t.tid);
		if (!t.setup.ok) {
			std::fprintf(stderr, "eevdf-probe: error: cannot read /proc/self/task/%d/sched "
					     "(CONFIG_SCHED_DEBUG?)\n", int(t.tid.load()));
			bad = true;
		} else if (t.setup.policy != -1 && t.setup.policy != SCHED_OTHER) {
			std::fprintf(stderr, "eevdf-probe: error: %s has policy %" PRId64 ", not "
					     "SCHED_OTHER\n", t.name.c_str(), t.setup.policy);
			bad = true;
		} else if (!t.setup.slice_ns) {
			std::fprintf(stderr, "eevdf-probe: warning: %s: no se.slice in /proc (kernel "
					     "before 6.15?); cannot verify the slice\n", t.name.c_str());
		} else if (t.slice_ns && *t.setup.slice_ns != *t.slice_ns) {
			std::fprintf(stderr, "eevdf-probe: error: %s: asked for slice %" PRId64 " ns, "
					     "se.slice shows %" PRId64 " ns (the kernel clamps to "
					     "0.1..100 ms; older kernels ignore sched_runtime)\n",
				     t.name.c_str(), *t.slice_ns, *t.setup.slice_ns);
			bad = true;
		}
	}
	if (bad) {
		g_abort = true;
		return finish(kExitError);
	}

	if (tracer.active && !tracer.on()) {
		tracer.note = "cannot switch tracing on";
		tracer.teardown();
	}
	const i64 start = now_ns();
	g_plan.t0 = start + o.warmup_ns;
	// On NO_HZ kernels the tick fires at multiples of TICK_NSEC of
	// CLOCK_MONOTONIC; start the window on one so that the waker's phase
	// relative to the tick is fixed.
	if (si.hz && *si.hz > 0) {
		const i64 tick = kSec / *si.hz;
		g_plan.t0 = (g_plan.t0 / tick + 1) * tick;
	}
	g_plan.t1 = g_plan.t0 + o.duration_ns;
	g_plan.tend = g_plan.t1 + 500 * kMs;
	{
		std::lock_guard<std::mutex> lk(g_gate.m);
		g_gate.open = true;
	}
	g_gate.cv.notify_all();

	bool ok = wait_until(g_plan.t0, sigs);
	std::optional<i64> steal0, steal1;
	if (ok) {
		for (auto &t : tasks)
			t.st0 = read_proc_sched(t.tid);
		steal0 = read_cpu_steal_ns(o.cpu);
		ok = wait_until(g_plan.t1, sigs);
	}
	if (ok) {
		for (auto &t : tasks)
			t.st1 = read_proc_sched(t.tid);
		steal1 = read_cpu_steal_ns(o.cpu);
	}
	if (!ok)
		g_stop = true;
	g_tail_done = true;
	for (auto &th : threads)
		th.join();
	threads.clear();
	tracer.off();
	std::string trace_text = ok ? tracer.read_trace() : std::string();
	tracer.teardown();
	if (!ok) {
		std::fprintf(stderr, "eevdf-probe: interrupted; threads stopped, trace instance "
				     "removed\n");
		return kExitInterrupted;
	}

	if (!o.dump_trace.empty() && !trace_text.empty()) {
		std::ofstream out(o.dump_trace);
		out << "# eevdf-probe window T0=" << g_plan.t0 << " T1=" << g_plan.t1
		    << " ns CLOCK_MONOTONIC; tids:";
		for (auto &t : tasks)
			out << ' ' << t.name << '=' << t.tid.load();
		out << '\n' << trace_text;
		if (!out)
			std::fprintf(stderr, "eevdf-probe: warning: cannot write %s\n",
				     o.dump_trace.c_str());
	}

	Report r;
	for (int i = 0; i < argc; ++i)
		r.command += (i ? " " : "") + std::string(argv[i]);
	r.si = si;
	r.opt = o;
	r.plan = g_plan;
	r.tasks = &tasks;
	r.trace_note = tracer.note;
	if (steal0 && steal1)
		r.steal_ns = *steal1 - *steal0;
	analyse(r, trace_text);
	if (o.json)
		std::fputs(make_json(r).c_str(), stdout);
	else
		print_text(r);
	if (!o.json_out.empty()) {
		std::ofstream out(o.json_out);
		out << make_json(r);
		if (!out)
			std::fprintf(stderr, "eevdf-probe: warning: cannot write %s\n",
				     o.json_out.c_str());
	}
	return 0;
}

}  // namespace probe
