// SPDX-License-Identifier: GPL-2.0-only
/* sleeper SCENARIO RUN_US SLEEP_US SECONDS: loop { burn RUN_US of thread CPU
 * time; clock_nanosleep(CLOCK_MONOTONIC, relative) SLEEP_US } until SECONDS of
 * wall-clock time have passed, then dump /proc/self/sched and exit. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: sleeper SCENARIO RUN_US SLEEP_US SECONDS\n");
		return 2;
	}
	long long run_ns = atoll(argv[2]) * 1000LL;
	long long sleep_ns = atoll(argv[3]) * 1000LL;
	long long end = now_ns(CLOCK_MONOTONIC) + (long long)(atof(argv[4]) * 1e9);
	struct timespec ts = { sleep_ns / 1000000000LL, sleep_ns % 1000000000LL };
	while (now_ns(CLOCK_MONOTONIC) < end) {
		burn_cpu_ns(run_ns);
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	}
	dump_sched(argv[1], "sleeper");
	return 0;
}
