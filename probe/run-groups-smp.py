#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Task groups on several CPUs on the live kernel (issue 36, stage 2): CPU
hogs in cpu cgroups, each pinned to a CPU list or free, and each thread's
CPU time from /proc/<pid>/schedstat. Needs root and the cgroup v1 cpu
controller at /sys/fs/cgroup/cpu. The groups are made under a child
directory of our own (eevdf-probe-smp-<pid>, shares 1024, itself a group
at depth 1) and removed at the end.

Usage: run-groups-smp.py [--seconds S] [--runs R] --group NAME:SHARES... HOG...
  HOG is NAME:GROUP:CPUS, CPUS a list like 0 or 0,1 or "all"
Prints one JSON document: per run, per hog, its CPU ns and the window ns.
"""
import argparse
import json
import os
import signal
import time

from cgroup_v1 import ROOT, write, schedstat_ns


def one_run(base, groups, hogs, seconds):
    for name, shares in groups:
        d = os.path.join(base, name)
        os.makedirs(d, exist_ok=True)
        write(os.path.join(d, "cpu.shares"), shares)
    pids = []
    for name, group, cpus in hogs:
        pid = os.fork()
        if pid == 0:
            write(os.path.join(base, group, "tasks"), os.getpid())
            if cpus is not None:
                os.sched_setaffinity(0, cpus)
            while True:
                pass
        pids.append(pid)
    time.sleep(0.5)  # let PELT and the balancer settle
    t0 = time.monotonic_ns()
    start = [schedstat_ns(p) for p in pids]
    time.sleep(seconds)
    end = [schedstat_ns(p) for p in pids]
    window = time.monotonic_ns() - t0
    for p in pids:
        os.kill(p, signal.SIGKILL)
        os.waitpid(p, 0)
    return {"window_ns": window,
            "hogs": {h[0]: e - s for h, s, e in zip(hogs, start, end)}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--group", action="append", default=[])
    ap.add_argument("hog", nargs="+")
    a = ap.parse_args()
    groups = [(g.split(":")[0], int(g.split(":")[1])) for g in a.group]
    hogs = []
    for h in a.hog:
        name, group, cpus = h.split(":")
        hogs.append((name, group, None if cpus == "all" else {int(c) for c in cpus.split(",")}))
    base = os.path.join(ROOT, f"eevdf-probe-smp-{os.getpid()}")
    os.makedirs(base)
    runs = []
    try:
        for _ in range(a.runs):
            runs.append(one_run(base, groups, hogs, a.seconds))
    finally:
        for name, _ in groups:
            try:
                os.rmdir(os.path.join(base, name))
            except OSError:
                pass
        os.rmdir(base)
    print(json.dumps({"groups": groups, "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
