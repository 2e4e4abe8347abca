// SPDX-License-Identifier: GPL-2.0-only
#include "rtapp_run.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>

#include "json.hpp"
#include "options.hpp"
#include "session.hpp"
#include "sysinfo.hpp"
#include "tracefs.hpp"
#include "workers.hpp"

namespace probe {

int run_rtapp(int, char **)
{
	const Options &o = g_opt;
	if (o.dump_trace.empty()) {
		std::fprintf(stderr, "eevdf-probe: --rtapp needs --dump-trace FILE for the trace\n");
		return 2;
	}
	if (access(o.rtapp.c_str(), R_OK) != 0) {
		std::fprintf(stderr, "eevdf-probe: --rtapp %s: %s\n", o.rtapp.c_str(), strerror(errno));
		return 2;
	}
	const SysInfo si = gather_sysinfo(false);
	std::vector<int> cpus;
	for (int c = 0; c < si.ncpus_online; c++)
		cpus.push_back(c);
	Tracer tracer;
	if (!tracer.setup(cpus, 16384,
			  {"sched/sched_switch", "sched/sched_waking", "sched/sched_wakeup", "sched/sched_wakeup_new",
			   "sched/sched_migrate_task", "sched/sched_process_fork", "sched/sched_process_exit"})) {
		std::fprintf(stderr, "eevdf-probe: --rtapp: tracing is not available: %s\n", tracer.note.c_str());
		return 3;
	}
	// SIGINT/SIGTERM end rt-app too; the instance is removed on every path.
	sigset_t sigs;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &sigs, nullptr);
	if (!tracer.on()) {
		tracer.teardown();
		std::fprintf(stderr, "eevdf-probe: --rtapp: cannot switch tracing on\n");
		return 3;
	}
	const i64 t0 = now_ns();
	const pid_t pid = fork();
	if (pid == 0) {
		sigprocmask(SIG_UNBLOCK, &sigs, nullptr);
		// rt-app's log lines go to stderr, away from the probe's JSON
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execlp("rt-app", "rt-app", o.rtapp.c_str(), static_cast<char *>(nullptr));
		std::fprintf(stderr, "eevdf-probe: cannot run rt-app: %s (install the rt-app package)\n", strerror(errno));
		_exit(127);
	}
	int status = 0;
	bool interrupted = false, timed_out = false;
	// SIGTERM, then SIGKILL if rt-app has not gone 2 s later: a thread in
	// a run that never ends (rt-app's "run": -1) does not look at signals.
	auto stop = [&] {
		kill(pid, SIGTERM);
		const i64 deadline = now_ns() + 2 * kSec;
		while (waitpid(pid, &status, WNOHANG) == 0) {
			if (now_ns() >= deadline) {
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				break;
			}
			const timespec ts{0, 20 * kMs};
			nanosleep(&ts, nullptr);
		}
	};
	for (;;) {
		const pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid || w < 0)
			break;
		if (now_ns() - t0 >= o.rtapp_timeout_ns) {
			stop();
			timed_out = true;
			break;
		}
		if (!wait_until(now_ns() + 50 * kMs, sigs, 50 * kMs)) {
			stop();
			interrupted = true;
			break;
		}
	}
	const i64 t1 = now_ns();
	tracer.off();
	const std::string text = interrupted ? std::string() : tracer.read_trace();
	tracer.teardown();
	if (interrupted) {
		std::fprintf(stderr, "eevdf-probe: interrupted; rt-app stopped, trace instance removed\n");
		return 130;
	}
	std::ofstream out(o.dump_trace);
	out << text;
	out.close();
	if (!out) {
		std::fprintf(stderr, "eevdf-probe: cannot write %s\n", o.dump_trace.c_str());
		return 2;
	}
	const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (timed_out)
		std::fprintf(stderr,
			     "eevdf-probe: --rtapp: rt-app was still running after --timeout %.0f s and was stopped "
			     "(a task with \"run\": -1 never lets rt-app reach its duration)\n",
			     double(o.rtapp_timeout_ns) / kSec);
	Json j;
	j.obj();
	j.key("probe").v("eevdf-probe --rtapp");
	j.key("kernel").obj();
	j.key("release").v(si.release);
	j.key("hz").opt(si.hz);
	j.key("cpus_online").v(si.ncpus_online);
	j.key("preempt").v(si.preempt_mode);
	j.end_obj();
	j.key("rtapp").obj();
	j.key("file").v(o.rtapp);
	j.key("exit_status").v(rc);
	j.key("timed_out").v(timed_out);
	j.key("wall_ns").v(t1 - t0);
	j.end_obj();
	j.key("trace").v(o.dump_trace);
	j.end_obj();
	std::printf("%s\n", j.text().c_str());
	return rc == 0 && !timed_out ? 0 : 1;
}

}  // namespace probe
