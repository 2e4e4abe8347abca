#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Task groups on the live kernel (issue 36): CPU hogs in cpu cgroups of
given weights, all pinned to one CPU, and each thread's CPU time from
/proc/<pid>/schedstat. Needs root and the cgroup v1 cpu controller at
/sys/fs/cgroup/cpu (this machine's layout). The groups are made under a
child directory of our own (eevdf-probe-<pid>) and removed at the end.

Usage: run-groups.py [--cpu N] [--seconds S] [--runs R] SPEC...
  SPEC is NAME:SHARES:HOGS, e.g. A:2048:1 B:1024:3; SHARES "idle" makes
  an idle group (cpu.idle 1, weight 3) instead of writing cpu.shares
Prints one JSON document: per run, per group, the CPU ns of its hogs.
"""
import argparse
import json
import os
import signal
import sys
import time

from cgroup_v1 import ROOT, write, schedstat_ns, hog


def one_run(base, specs, cpu, seconds):
    pids = {}
    for name, shares, n in specs:
        d = os.path.join(base, name)
        os.makedirs(d, exist_ok=True)
        if shares == "idle":
            write(os.path.join(d, "cpu.idle"), 1)
        else:
            write(os.path.join(d, "cpu.shares"), shares)
        pids[name] = []
        for _ in range(n):
            pid = os.fork()
            if pid == 0:
                write(os.path.join(d, "tasks"), os.getpid())
                hog(cpu)
            pids[name].append(pid)
    time.sleep(0.2)  # every hog in its group and running
    start = {p: schedstat_ns(p) for ps in pids.values() for p in ps}
    time.sleep(seconds)
    end = {p: schedstat_ns(p) for ps in pids.values() for p in ps}
    for ps in pids.values():
        for p in ps:
            os.kill(p, signal.SIGKILL)
            os.waitpid(p, 0)
    return {name: [end[p] - start[p] for p in ps] for name, ps in pids.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("spec", nargs="+")
    a = ap.parse_args()
    specs = []
    for s in a.spec:
        name, shares, n = s.split(":")
        specs.append((name, shares if shares == "idle" else int(shares), int(n)))
    base = os.path.join(ROOT, f"eevdf-probe-{os.getpid()}")
    os.makedirs(base)
    runs = []
    try:
        for _ in range(a.runs):
            runs.append(one_run(base, specs, a.cpu, a.seconds))
    finally:
        for name, _, _ in specs:
            d = os.path.join(base, name)
            if os.path.isdir(d):
                os.rmdir(d)
        os.rmdir(base)
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print(json.dumps({"kernel": os.uname().release, "cpu": a.cpu, "seconds": a.seconds,
                      "groups": [{"name": n, "shares": s, "hogs": k} for n, s, k in specs],
                      "loadavg_at_end": float(load), "runs": runs}, indent=1))


if __name__ == "__main__":
    sys.exit(main())
