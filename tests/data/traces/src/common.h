/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared helpers for the trace-recording workload programs. */
#ifndef TRACES_COMMON_H
#define TRACES_COMMON_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline long long now_ns(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Busy-spin until `ns` nanoseconds of this thread's CPU time have been used. */
static inline void burn_cpu_ns(long long ns)
{
	long long end = now_ns(CLOCK_THREAD_CPUTIME_ID) + ns;
	volatile unsigned long x = 0;
	while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 100; i++)
			x += i;
}

/* Copy /proc/self/sched to <dir>/<scenario>.<comm>.<pid>.sched. */
static inline void dump_sched(const char *scenario, const char *comm)
{
	char path[512], buf[8192];
	const char *dir = getenv("SCHED_DIR") ? getenv("SCHED_DIR") : "/tmp/traces-work";
	snprintf(path, sizeof(path), "%s/%s.%s.%d.sched", dir, scenario, comm, (int)getpid());
	FILE *in = fopen("/proc/self/sched", "r");
	FILE *out = fopen(path, "w");
	if (!in || !out) {
		perror("dump_sched");
		exit(1);
	}
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	fclose(out);
}
#endif
