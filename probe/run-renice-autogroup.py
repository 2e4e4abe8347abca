#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""docs/findings.md F20 on the live kernel: under one session's autogroup, is
a renice of the running task to a lower priority acted on at once?

prio_changed_fair() returns when rq->cfs.nr_queued == 1, and under
autogroup the root holds the session's one group entity however many of
its tasks run, so the model predicts no immediate resched (flat, the same
renice reschedules at once). Two hogs of this process's session (h forked,
r this process) are pinned to one CPU; r spins for a random 20-60 ms of
wall time at nice 0, renices itself to 10 while it runs, and spins on
until its own clock readings show a hole of more than 30 us (it was
switched out). The delay from the renice to that hole is recorded, N
times per run (random.Random(1): the same sequence each run). No cgroup is
made; exit 77 if autogroup is off or this process is not in the root cpu
cgroup (autogroup would not apply).

Usage: run-renice-autogroup.py [N] > result.json   (run it under setsid)
"""
import json
import os
import random
import sys
import time

CPU = 1
GAP_NS = 30_000


def root_cpu_cgroup():
	for line in open("/proc/self/cgroup"):
		_, ctrl, path = line.strip().split(":", 2)
		if "cpu" in ctrl.split(",") and path != "/":
			return False
	return True


def main():
	n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
	if open("/proc/sys/kernel/sched_autogroup_enabled").read().strip() != "1":
		print("skip: autogroup is off", file=sys.stderr)
		return 77
	if not root_cpu_cgroup():
		print("skip: not in the root cpu cgroup, autogroup does not apply", file=sys.stderr)
		return 77
	os.sched_setaffinity(0, {CPU})
	h = os.fork()
	if h == 0:
		while True:
			pass
	rng = random.Random(1)
	now = time.monotonic_ns
	delays = []
	try:
		for _ in range(n):
			os.setpriority(os.PRIO_PROCESS, 0, 0)
			t_end = now() + rng.randint(20, 60) * 1_000_000
			while now() < t_end:
				pass
			t_r = now()
			os.setpriority(os.PRIO_PROCESS, 0, 10)
			# A resched at the syscall's return switches r out before its
			# next reading: the first hole is measured from t_r itself.
			prev = t_r
			while True:
				t = now()
				if t - prev > GAP_NS:
					delays.append(prev - t_r)
					break
				prev = t
				if t - t_r > 100_000_000:
					delays.append(None)  # not switched out within 100 ms
					break
	finally:
		os.kill(h, 9)
		os.waitpid(h, 0)
	print(json.dumps({"kernel": os.uname().release, "cpu": CPU,
			  "autogroup": open("/proc/self/autogroup").read().strip(),
			  "loadavg": open("/proc/loadavg").read().split()[:3], "delays_ns": delays}))
	return 0


if __name__ == "__main__":
	sys.exit(main())
