// SPDX-License-Identifier: GPL-2.0-only
#include "session.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <sys/wait.h>
#include <unistd.h>

namespace probe {

// A process group leader cannot call setsid(), so fork; the parent forwards
// termination signals and returns the child's exit status.
void isolate_session()
{
	if (getsid(0) == getpid()) {
		// Already a session leader: its autogroup may be shared with the
		// rest of the session, but we cannot make a new one.  Fine if we
		// are alone in it.
	} else {
		sigset_t sigs;
		sigemptyset(&sigs);
		for (int sg : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD})
			sigaddset(&sigs, sg);
		sigprocmask(SIG_BLOCK, &sigs, nullptr);
		std::fflush(nullptr);
		pid_t child = fork();
		if (child < 0)
			die(strf("fork: %s", strerror(errno)));
		if (child > 0) {
			for (;;) {
				int status = 0;
				pid_t w = waitpid(child, &status, WNOHANG);
				if (w == child) {
					if (WIFEXITED(status))
						std::exit(WEXITSTATUS(status));
					std::exit(kExitError);
				}
				timespec ts = to_timespec(200 * kMs);
				int sg = sigtimedwait(&sigs, nullptr, &ts);
				if (sg > 0 && sg != SIGCHLD)
					kill(child, sg);
			}
		}
		sigdelset(&sigs, SIGCHLD);
		sigprocmask(SIG_UNBLOCK, &sigs, nullptr);
		if (setsid() < 0)
			die(strf("setsid: %s", strerror(errno)));
	}
	int err = write_text("/proc/self/autogroup", "-20");
	if (err != 0)
		die(strf("--isolate: writing -20 to /proc/self/autogroup: %s%s", strerror(err),
			 err == EPERM || err == EACCES ? " (needs CAP_SYS_NICE)" : ""));
}

bool wait_until(i64 until, const sigset_t &sigs, i64 step)
{
	for (;;) {
		i64 left = until - now_ns();
		if (left <= 0)
			return true;
		timespec ts = to_timespec(std::min<i64>(left, step));
		int s = sigtimedwait(&sigs, nullptr, &ts);
		if (s > 0)
			return false;
	}
}

}  // namespace probe
