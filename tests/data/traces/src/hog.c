// SPDX-License-Identifier: GPL-2.0-only
/* hog SCENARIO SECONDS: busy loop for SECONDS of wall-clock time, then dump
 * /proc/self/sched to $SCHED_DIR/SCENARIO.hog.PID.sched and exit. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: hog SCENARIO SECONDS\n");
		return 2;
	}
	long long end = now_ns(CLOCK_MONOTONIC) + (long long)(atof(argv[2]) * 1e9);
	volatile unsigned long x = 0;
	while (now_ns(CLOCK_MONOTONIC) < end)
		for (int i = 0; i < 1000; i++)
			x += i;
	dump_sched(argv[1], "hog");
	return 0;
}
