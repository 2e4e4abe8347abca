// SPDX-License-Identifier: GPL-2.0-only
/* pingpong SCENARIO WORK_US SECONDS: fork into "ping" (parent) and "pong"
 * (child), which bounce one byte over two pipes; each side burns WORK_US of
 * thread CPU time per bounce. Ping stops after SECONDS of wall-clock time by
 * sending 'q'. Each process dumps its /proc/self/sched before exiting. */
#include "common.h"
#include <sys/prctl.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: pingpong SCENARIO WORK_US SECONDS\n");
		return 2;
	}
	long long work_ns = atoll(argv[2]) * 1000LL;
	long long end = now_ns(CLOCK_MONOTONIC) + (long long)(atof(argv[3]) * 1e9);
	int p2c[2], c2p[2];
	char b;
	if (pipe(p2c) || pipe(c2p)) {
		perror("pipe");
		return 1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		prctl(PR_SET_NAME, "pong", 0, 0, 0);
		close(p2c[1]);
		close(c2p[0]);
		while (read(p2c[0], &b, 1) == 1 && b != 'q') {
			burn_cpu_ns(work_ns);
			if (write(c2p[1], &b, 1) != 1)
				break;
		}
		dump_sched(argv[1], "pong");
		_exit(0);
	}
	prctl(PR_SET_NAME, "ping", 0, 0, 0);
	close(p2c[0]);
	close(c2p[1]);
	b = 'x';
	while (now_ns(CLOCK_MONOTONIC) < end) {
		if (write(p2c[1], &b, 1) != 1 || read(c2p[0], &b, 1) != 1)
			break;
		burn_cpu_ns(work_ns);
	}
	b = 'q';
	if (write(p2c[1], &b, 1) != 1)
		perror("write");
	waitpid(pid, NULL, 0);
	dump_sched(argv[1], "ping");
	return 0;
}
