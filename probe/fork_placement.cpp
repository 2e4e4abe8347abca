// SPDX-License-Identifier: GPL-2.0-only
// eevdf-fork-placement: where the running kernel starts a forked child.
//
// The probe's "forks" scenario in miniature, on an otherwise idle machine:
// the parent spins 50 us of CPU time, fork()s, and the child reports the CPU
// it first runs on through a pipe, spins CHILD_US of CPU time and _exit()s;
// the parent blocks in read() for the report, then in waitpid(). Mainline's
// fork path (wake_up_new_task -> select_task_rq_fair with SD_BALANCE_FORK ->
// sched_balance_find_dst_cpu) compares the parent's CPU, busy with the
// parent (idle_cpus 0), with an idle one (idle_cpus 1) as two groups with
// spare capacity and picks the one with more idle CPUs: the child starts on
// another CPU whenever one is idle. The count of children that start on the
// parent's CPU says whether this kernel does that.
//
// Usage: eevdf-fork-placement [CHILDREN [CHILD_US]] (default 1000, 1000)
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace {

long long cpu_ns()
{
	timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

void spin_cpu(long long ns)
{
	const long long start = cpu_ns();
	while (cpu_ns() - start < ns) {
	}
}

long arg(int argc, char** argv, int i, long def, long max)
{
	if (argc <= i)
		return def;
	char* end = nullptr;
	errno = 0;
	const long v = std::strtol(argv[i], &end, 10);
	if (errno || *end || v < 1 || v > max) {
		std::fprintf(stderr, "eevdf-fork-placement: argument %d: '%s' is not an integer in 1..%ld\n", i, argv[i],
			     max);
		std::exit(2);
	}
	return v;
}

}  // namespace

int main(int argc, char** argv)
{
	const long children = arg(argc, argv, 1, 1000, 100000);
	const long child_us = arg(argc, argv, 2, 1000, 1000000);
	long local = 0, remote = 0, parent_moved = 0;
	for (long i = 0; i < children; i++) {
		spin_cpu(50000);
		const int parent_cpu = sched_getcpu();
		int fds[2];
		if (pipe(fds)) {
			std::perror("eevdf-fork-placement: pipe");
			return 1;
		}
		const pid_t pid = fork();
		if (pid == 0) {
			const int c = sched_getcpu();
			if (write(fds[1], &c, sizeof c) != static_cast<ssize_t>(sizeof c))
				_exit(1);
			spin_cpu(child_us * 1000LL);
			_exit(0);
		}
		if (pid < 0) {
			std::perror("eevdf-fork-placement: fork");
			return 1;
		}
		int child_cpu = -1;
		const bool got = read(fds[0], &child_cpu, sizeof child_cpu) == static_cast<ssize_t>(sizeof child_cpu);
		close(fds[0]);
		close(fds[1]);
		int status = 0;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
		}
		if (!got) {
			std::fprintf(stderr, "eevdf-fork-placement: child %ld did not report its CPU\n", i);
			return 1;
		}
		(child_cpu == parent_cpu ? local : remote)++;
		parent_moved += sched_getcpu() != parent_cpu;
	}
	std::printf("children %ld (%ld us of CPU time each): started on the parent's CPU %ld, on another CPU %ld; "
		    "the parent on another CPU after waitpid() %ld times\n",
		    children, child_us, local, remote, parent_moved);
	return 0;
}
