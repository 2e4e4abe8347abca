// SPDX-License-Identifier: GPL-2.0-only
// A multi-CPU scenario: its threads start unpinned at a gate, spin through
// the warm-up, and are measured over [T0, T1) by a trace of every allowed
// CPU (sched_switch, sched_waking, sched_wakeup, sched_migrate_task,
// local_timer_entry) and by their own CLOCK_MONOTONIC timestamps.
#include "scenario_run.hpp"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include "scenario.hpp"
#include "session.hpp"
#include "smp_analysis.hpp"
#include "smp_report.hpp"
#include "sysinfo.hpp"
#include "tracefs.hpp"
#include "workers.hpp"

namespace probe {

// The forker's children are at least this far apart (its own work, the fork
// and the child's run): the size of the buffer of their pids.
constexpr i64 kChildMinNs = 100 * kUs;

int run_scenario(int argc, char **argv)
{
	const Options &o = g_opt;
	const Scenario sc = make_scenario(o.scenario, o);
	if (o.trace == Options::Trace::Off)
		die("--scenario measures from sched_switch: it cannot run with --no-trace");

	cpu_set_t allowed;
	CPU_ZERO(&allowed);
	if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
		die(strf("sched_getaffinity: %s", strerror(errno)));
	std::vector<int> cpus;
	for (int c = 0; c < CPU_SETSIZE; ++c)
		if (CPU_ISSET(c, &allowed))
			cpus.push_back(c);
	const int ncpus = cpus.back() + 1;

	SysInfo si = gather_sysinfo(false);

	sigset_t sigs;
	sigemptyset(&sigs);
	for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
		sigaddset(&sigs, s);
	pthread_sigmask(SIG_BLOCK, &sigs, nullptr);

	// A per-CPU buffer of 2 MiB per second traced: a ping-pong pair at
	// 200 us makes about 10 000 events per second per CPU (~0.7 MB/s).
	Tracer tracer;
	const double traced_s = double(o.duration_ns + o.warmup_ns) / kSec + 1;
	const long kb = long(std::clamp(traced_s * 2048, 4096.0, 65536.0));
	if (!tracer.setup(cpus, kb,
			  {"sched/sched_switch", "sched/sched_waking", "sched/sched_wakeup", "sched/sched_migrate_task"}))
		die("--scenario needs sched_switch tracing: " + tracer.note);

	const size_t n = sc.tasks.size();
	std::vector<SmpTask> tasks(n);
	for (size_t i = 0; i < n; ++i) {
		SmpTask &t = tasks[i];
		t.idx = int(i);
		t.spec = sc.tasks[i];
		t.slice_ns = t.spec.slice_ns ? t.spec.slice_ns : o.slice_ns;
		if (t.spec.partner >= 0)
			t.partner = &tasks[size_t(t.spec.partner)];
		size_t acts = 16;
		if (t.spec.role == Role::Sleeper)
			acts += size_t(o.duration_ns / t.spec.period_ns);
		else if (t.spec.role != Role::Hog)
			acts += size_t(o.duration_ns / std::max<i64>(t.spec.run_ns, 1));
		t.lat.init(acts);
		t.acts.init(acts);
		if (t.spec.role == Role::Forker)
			t.children.init(size_t((o.duration_ns + o.warmup_ns + kSec) / kChildMinNs) + 16);
		if (t.spec.role == Role::PipePing || t.spec.role == Role::PipePong) {
			int fds[2];
			if (pipe2(fds, O_CLOEXEC) != 0)
				die(strf("pipe2: %s", strerror(errno)));
			t.pipe_r = fds[0];
			t.pipe_w = fds[1];
		}
	}
	// The child role has no thread of its own: the forker's children are it.
	auto has_thread = [](const SmpTask &t) { return t.spec.role != Role::Child; };
	int nthreads = 0;
	for (const auto &t : tasks)
		nthreads += has_thread(t);

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
		for (auto &t : tasks)
			for (int fd : {t.pipe_r, t.pipe_w})
				if (fd >= 0)
					close(fd);
		return code;
	};
	for (size_t i = 0; i < n; ++i) {
		if (!has_thread(tasks[i]))
			continue;
		try {
			threads.emplace_back(smp_task_main, &tasks[i]);
		} catch (const std::exception &e) {
			std::fprintf(stderr, "eevdf-probe: error: cannot create thread: %s\n", e.what());
			g_abort = true;
			g_stop = true;
			return finish(kExitError);
		}
	}
	{
		std::unique_lock<std::mutex> lk(g_gate.m);
		g_gate.cv.wait(lk, [&] { return g_gate.ready == nthreads; });
	}
	bool bad = false;
	for (auto &t : tasks)
		if (t.err) {
			std::fprintf(stderr, "eevdf-probe: error: %s: %s failed: %s (errno %d)%s\n", t.spec.name.c_str(),
				     t.err_what.c_str(), strerror(t.err), t.err,
				     t.err == EPERM ? " - need root or CAP_SYS_NICE" : "");
			bad = true;
		}
	for (auto &t : tasks) {
		if (bad)
			break;
		if (!has_thread(t))
			continue;
		t.setup = read_proc_sched(t.tid);
		if (!t.setup.ok) {
			std::fprintf(stderr, "eevdf-probe: error: cannot read /proc/self/task/%d/sched\n", int(t.tid.load()));
			bad = true;
		} else if (t.slice_ns && t.setup.slice_ns && *t.setup.slice_ns != *t.slice_ns) {
			std::fprintf(stderr, "eevdf-probe: error: %s: asked for slice %" PRId64 " ns, se.slice shows %" PRId64
					     " ns\n", t.spec.name.c_str(), *t.slice_ns, *t.setup.slice_ns);
			bad = true;
		}
	}
	if (bad) {
		g_abort = true;
		return finish(kExitError);
	}
	if (!tracer.on()) {
		std::fprintf(stderr, "eevdf-probe: error: cannot switch tracing on\n");
		g_abort = true;
		return finish(kExitError);
	}

	const i64 start = now_ns();
	g_plan.t0 = start + o.warmup_ns;
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

	// The main thread is unpinned too: it wakes only at T0 and T1 (no
	// periodic poll), so it takes a few microseconds of the window.
	const i64 forever = 3600 * kSec;
	bool ok = wait_until(g_plan.t0, sigs, forever);
	if (ok) {
		for (auto &t : tasks)
			if (has_thread(t))
				t.st0 = read_proc_sched(t.tid);
		ok = wait_until(g_plan.t1, sigs, forever);
	}
	if (ok)
		for (auto &t : tasks)
			if (has_thread(t))
				t.st1 = read_proc_sched(t.tid);
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
		std::fprintf(stderr, "eevdf-probe: interrupted; threads stopped, trace instance removed\n");
		return kExitInterrupted;
	}
	if (!o.dump_trace.empty()) {
		std::ofstream out(o.dump_trace);
		out << "# eevdf-probe scenario " << sc.name << " window T0=" << g_plan.t0 << " T1=" << g_plan.t1
		    << " ns CLOCK_MONOTONIC; tids:";
		for (auto &t : tasks)
			out << ' ' << t.spec.name << '=' << t.tid.load();
		out << '\n' << trace_text;
		if (!out)
			std::fprintf(stderr, "eevdf-probe: warning: cannot write %s\n", o.dump_trace.c_str());
	}

	SmpReport r;
	for (int i = 0; i < argc; ++i)
		r.command += (i ? " " : "") + std::string(argv[i]);
	r.si = si;
	r.opt = o;
	r.plan = g_plan;
	r.scenario = sc;
	r.cpus = cpus;
	r.tasks = &tasks;
	std::vector<int> tids;
	for (auto &t : tasks)
		tids.push_back(int(t.tid.load()));
	// Every child process the forker made is the child task.
	std::vector<std::pair<int, int>> more;
	for (auto &t : tasks)
		if (t.spec.role == Role::Forker)
			for (int pid : t.children)
				more.push_back({pid, t.spec.partner});
	std::vector<int> own{int(getpid())};
	if (o.isolate)
		own.push_back(int(getppid()));  // the --isolate parent, waiting for us
	const TraceData td = parse_trace(trace_text);
	r.a = analyse_smp(td, tids, own, ncpus, g_plan.t0, g_plan.t1, o.share_window_ns, more);
	const std::string json = make_smp_json(r);
	if (o.json)
		std::fputs(json.c_str(), stdout);
	else
		print_smp_text(r);
	if (!o.json_out.empty()) {
		std::ofstream out(o.json_out);
		out << json;
		if (!out)
			std::fprintf(stderr, "eevdf-probe: warning: cannot write %s\n", o.json_out.c_str());
	}
	return 0;
}

}  // namespace probe
