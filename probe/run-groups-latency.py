#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Wake-up waits inside task groups on the live kernel (issue 36): a
periodic task (RUN_US of CPU time every PERIOD_US, on an absolute timer) in
cpu cgroup A beside HOGS CPU hogs in cgroup B, all pinned to one CPU; and,
for contrast, the same threads all in one group. Each thread's CPU time,
run_delay (time runnable but waiting) and run count come from
/proc/<pid>/schedstat; the periodic task's wait per activation is its
run_delay over its activations. Needs root and the cgroup v1 cpu controller
at /sys/fs/cgroup/cpu. The groups are made under a child directory of our
own (eevdf-probe-<pid>, weight 1024) and removed at the end.

Usage: run-groups-latency.py [--cpu N] [--seconds S] [--runs R]
           [--run-us U] [--period-us P] [--hogs H] [--shares-a X] [--shares-b Y]
Prints one JSON document: per run and layout ("groups", "flat"), the
periodic task's activations, CPU ns and run_delay ns, and each hog's CPU ns.
"""
import argparse
import json
import os
import signal
import sys
import time

from cgroup_v1 import ROOT, write, schedstat, hog


def periodic(cpu, run_ns, period_ns, out_fd):
    """RUN of CPU time, then sleep to the next period's start (an absolute
    timer, as rt-app's "timer"); each activation is counted, and the count
    is written to out_fd when SIGTERM comes."""
    os.sched_setaffinity(0, {cpu})
    count = [0]

    def done(*_):
        os.write(out_fd, str(count[0]).encode())
        os._exit(0)

    signal.signal(signal.SIGTERM, done)
    nxt = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    while True:
        count[0] += 1
        start = time.thread_time_ns()
        while time.thread_time_ns() - start < run_ns:
            pass
        nxt += period_ns
        now = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        if nxt > now:
            time.sleep((nxt - now) / 1e9)
        else:
            nxt = now  # overran: start the next period now


def spawn_into(d, fn, *args):
    pid = os.fork()
    if pid == 0:
        write(os.path.join(d, "tasks"), os.getpid())
        fn(*args)
        os._exit(0)
    return pid


def one_run(base, a, grouped):
    da = os.path.join(base, "A" if grouped else "all")
    db = os.path.join(base, "B") if grouped else da
    for d, shares in ((da, a.shares_a), (db, a.shares_b)):
        os.makedirs(d, exist_ok=True)
        write(os.path.join(d, "cpu.shares"), shares if grouped else 1024)
    r, w = os.pipe()
    p = spawn_into(da, periodic, a.cpu, a.run_us * 1000, a.period_us * 1000, w)
    hogs = [spawn_into(db, hog, a.cpu) for _ in range(a.hogs)]
    time.sleep(0.3)  # every thread in its group and running
    p0, h0 = schedstat(p), [schedstat(h) for h in hogs]
    time.sleep(a.seconds)
    p1, h1 = schedstat(p), [schedstat(h) for h in hogs]
    os.kill(p, signal.SIGTERM)
    os.waitpid(p, 0)
    os.close(w)
    total = int(os.read(r, 64) or b"0")
    os.close(r)
    for h in hogs:
        os.kill(h, signal.SIGKILL)
        os.waitpid(h, 0)
    for d in {da, db}:
        os.rmdir(d)
    # the periodic task's activations in the window: its period count
    # (its whole life is 0.3 s longer); schedstat's run count is larger by
    # every preemption
    return {"periodic": {"cpu_ns": p1[0] - p0[0], "run_delay_ns": p1[1] - p0[1], "runs": p1[2] - p0[2],
                         "activations_total": total,
                         "activations": round(a.seconds * 1e6 / a.period_us)},
            "hogs_cpu_ns": [e[0] - s[0] for s, e in zip(h0, h1)]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--run-us", type=int, default=1000)
    ap.add_argument("--period-us", type=int, default=10000)
    ap.add_argument("--hogs", type=int, default=2)
    ap.add_argument("--shares-a", type=int, default=1024)
    ap.add_argument("--shares-b", type=int, default=1024)
    a = ap.parse_args()
    if not (1 <= a.hogs <= 16 and 10 <= a.run_us < a.period_us <= 1000000 and 0.5 <= a.seconds <= 60
            and 1 <= a.runs <= 20 and 2 <= a.shares_a <= 262144 and 2 <= a.shares_b <= 262144):
        print("run-groups-latency.py: an argument is out of range (see --help)", file=sys.stderr)
        return 2
    base = os.path.join(ROOT, f"eevdf-probe-{os.getpid()}")
    os.makedirs(base)
    runs = []
    try:
        for _ in range(a.runs):
            runs.append({"groups": one_run(base, a, True), "flat": one_run(base, a, False)})
    finally:
        for name in ("A", "B", "all"):
            d = os.path.join(base, name)
            if os.path.isdir(d):
                os.rmdir(d)
        os.rmdir(base)
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print(json.dumps({"kernel": os.uname().release, "cpu": a.cpu, "seconds": a.seconds, "run_us": a.run_us,
                      "period_us": a.period_us, "hogs": a.hogs, "shares_a": a.shares_a, "shares_b": a.shares_b,
                      "loadavg_at_end": float(load), "runs": runs}, indent=1))


if __name__ == "__main__":
    sys.exit(main())
