#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Autogroup on the live kernel (issue 36): CPU hogs in sessions of their
own (setsid(), so each session is an autogroup, kernel/sched/autogroup.c),
all pinned to one CPU, and each hog's CPU time from /proc/<pid>/schedstat.
No cgroup is made: autogroup applies only to tasks of the root cpu cgroup,
so the probe refuses to run (exit 77) when it is not in it, or when
/proc/sys/kernel/sched_autogroup_enabled is 0.

Each SPEC is NAME:HOGS[:NICE]: a child calls setsid(), writes NICE (default
0) to /proc/self/autogroup, and forks HOGS - 1 more hogs that inherit its
session; then all spin. A run is "busy" when the hogs got less than
--min-share of the CPU's time over the window (foreign tasks ran there);
the summary's ranges are over the quiet runs.

Usage: run-autogroup.py [--cpu N] [--seconds S] [--runs R] SPEC...
  e.g. run-autogroup.py A:1 B:3        run-autogroup.py A:1:5 B:1
Prints one JSON document.
"""
import argparse
import json
import os
import signal
import sys
import time


def schedstat_ns(pid):
    with open(f"/proc/{pid}/schedstat") as f:
        return int(f.read().split()[0])


def cpu_cgroup():
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, ctrl, path = line.rstrip("\n").split(":", 2)
            if "cpu" in ctrl.split(","):
                return path
    return None  # no v1 cpu controller: the v2 line decides


def spin(cpu):
    os.sched_setaffinity(0, {cpu})
    while True:
        pass


def session(cpu, hogs, nice, ready):
    """A new session (and autogroup) of `hogs` hogs; reports their pids."""
    os.setsid()
    with open("/proc/self/autogroup", "w") as f:
        f.write(str(nice))
    pids = [os.getpid()]
    for _ in range(hogs - 1):
        pid = os.fork()
        if pid == 0:
            spin(cpu)
        pids.append(pid)
    os.write(ready, (" ".join(map(str, pids)) + "\n").encode())
    os.close(ready)
    spin(cpu)


def one_run(specs, cpu, seconds):
    pids, leaders = {}, []
    for name, hogs, nice in specs:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            session(cpu, hogs, nice, w)
        os.close(w)
        with os.fdopen(r) as f:
            pids[name] = [int(p) for p in f.readline().split()]
        leaders.append(pid)
    time.sleep(0.2)  # every hog forked and running
    groups = {}
    for name, ps in pids.items():
        with open(f"/proc/{ps[0]}/autogroup") as f:
            groups[name] = f.read().strip()  # "/autogroup-<id> nice <n>"
        for p in ps[1:]:
            with open(f"/proc/{p}/autogroup") as f:
                assert f.read().strip() == groups[name], "a hog is not in its session's autogroup"
    t0 = time.monotonic_ns()
    start = {p: schedstat_ns(p) for ps in pids.values() for p in ps}
    time.sleep(seconds)
    end = {p: schedstat_ns(p) for ps in pids.values() for p in ps}
    window = time.monotonic_ns() - t0
    for ps in pids.values():
        for p in ps:
            os.kill(p, signal.SIGKILL)
    for ps in pids.values():
        for p in ps:
            try:
                os.waitpid(p, 0)
            except ChildProcessError:
                pass  # a session's extra hogs are its leader's children
    cpu_ns = {name: [end[p] - start[p] for p in ps] for name, ps in pids.items()}
    return {"window_ns": window, "autogroups": groups, "cpu_ns": cpu_ns,
            "hogs_share_of_cpu": sum(sum(v) for v in cpu_ns.values()) / window}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--min-share", type=float, default=0.95,
                    help="a run whose hogs got less of the CPU is busy (foreign load)")
    ap.add_argument("spec", nargs="+")
    a = ap.parse_args()
    specs = []
    for s in a.spec:
        f = s.split(":")
        specs.append((f[0], int(f[1]), int(f[2]) if len(f) > 2 else 0))
    with open("/proc/sys/kernel/sched_autogroup_enabled") as f:
        if f.read().strip() != "1":
            print("skip: sched_autogroup_enabled is 0 here", file=sys.stderr)
            return 77
    cg = cpu_cgroup()
    if cg not in (None, "/"):
        print(f"skip: this process is in cpu cgroup {cg}, not the root: autogroup does not apply",
              file=sys.stderr)
        return 77
    runs = [one_run(specs, a.cpu, a.seconds) for _ in range(a.runs)]
    for r in runs:
        r["busy"] = r["hogs_share_of_cpu"] < a.min_share
        tot = sum(sum(v) for v in r["cpu_ns"].values())
        r["session_shares"] = {n: sum(v) / tot for n, v in r["cpu_ns"].items()}
        r["hog_shares"] = {n: [x / tot for x in v] for n, v in r["cpu_ns"].items()}
    quiet = [r for r in runs if not r["busy"]]
    summary = {}
    for name, _, _ in specs:
        s = [r["session_shares"][name] for r in quiet]
        h = [x for r in quiet for x in r["hog_shares"][name]]
        summary[name] = {"session_share": [min(s), max(s)] if s else None,
                         "hog_share": [min(h), max(h)] if h else None}
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print(json.dumps({"kernel": os.uname().release, "cpu": a.cpu, "seconds": a.seconds,
                      "sessions": [{"name": n, "hogs": k, "autogroup_nice": c} for n, k, c in specs],
                      "min_share": a.min_share, "quiet_runs": len(quiet),
                      "loadavg_at_end": float(load), "summary": summary, "runs": runs}, indent=1))
    return 0 if quiet else 75


if __name__ == "__main__":
    sys.exit(main())
