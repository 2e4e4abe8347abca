#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Add a profile's resched_delay and resched_delay_busy from traced probe runs.

A timer's interrupt that wakes a task onto its own CPU leaves __schedule()
to the interrupt's exit (the idle loop's exit on an idle CPU, the return to
user space on a busy one): sched_waking -> sched_switch of such a wake-up.
`eevdf calibrate` measures a timer's whole lateness (expiry -> the task's
own code) without a trace and puts it all before try_to_wake_up() as
timer_delay; this script moves the part a trace sees after sched_waking into
resched_delay(_busy) and takes its median off timer_delay(_busy), so that the
model's whole lateness stays what calibrate measured.

    eevdf-probe --scenario sleeper --duration 3s --isolate --json-out S1.json   # idle CPU (x3)
    eevdf-probe --scenario hog-sleeper ...                                      # idle CPU beside a hog
    eevdf-probe --scenario slice-sleeper ...                                    # busy CPU, the sleeper preempts
    probe/resched-delay.py PROFILE.json RUN.json... [-o OUT.json]

Each run's per-task `latency_waking_local_{idle,busy}_q101_ns` (101
quantiles of sched_waking -> sched_switch for wake-ups on the waker's own
CPU, smp_report.cpp) are pooled with equal weight per run of at least 100
wake-ups (points of 1 ms and more dropped: such a wake-up waited for the
running task, it did not preempt it), and the pool's 101 quantiles are
written. Exit 2 on bad input.
"""
import argparse
import json
import os
import sys


def quantiles101(v):
    v = sorted(v)
    out = []
    for i in range(101):
        p = min(max(i / 100.0, 0.001), 0.999)
        out.append(v[min(len(v) - 1, int(p * (len(v) - 1) + 0.5))])
    return out


def fail(msg):
    print("resched-delay.py: " + msg, file=sys.stderr)
    sys.exit(2)


def pooled(runs, key):
    pool = []
    for path, d in runs:
        for t in d.get("tasks", []):
            w = t.get("wakeups", {})
            q = w.get(key)
            if q is None:
                continue
            if not isinstance(q, list) or len(q) != 101 or not all(isinstance(x, int) and x >= 0 for x in q):
                fail("%s: task %s: %s: expected 101 quantiles (ns), got %r" % (path, t.get("name"), key, q))
            # a task with a handful of wake-ups of this kind (a sleeper that
            # once woke beside a busy CPU) says little
            idle = w.get("target_idle", 0)
            n = idle if "idle" in key else w.get("count", 0) - idle
            if n >= 100:
                # a wake-up that waited out the running task's slice was no
                # resched at the interrupt's exit: the tail past 1 ms goes
                pool += [x for x in q if x < 1000000]
    return quantiles101(pool) if pool else None


def ns_list(q):
    return {"empirical": ["%dns" % x for x in q]}


def shifted(dist, by, path, key):
    if not isinstance(dist, dict) or "empirical" not in dist:
        fail("%s: %s: expected an empirical distribution to shift, got %r" % (path, key, dist))
    out = []
    for s in dist["empirical"]:
        if not isinstance(s, str) or not s.endswith("ns") or not s[:-2].isdigit():
            fail("%s: %s: expected \"<n>ns\" quantiles, got %r" % (path, key, s))
        out.append("%dns" % max(0, int(s[:-2]) - by))
    return {"empirical": out}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("profile")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("-o", "--out", help="write here (default: over PROFILE)")
    a = ap.parse_args()
    try:
        prof = json.load(open(a.profile))
    except (OSError, ValueError) as e:
        fail("%s: %s" % (a.profile, e))
    if "resched_delay" in prof or "resched_delay_busy" in prof:
        fail("%s: resched_delay: already set (start from calibrate's profile)" % a.profile)
    runs = []
    for p in a.runs:
        try:
            runs.append((p, json.load(open(p))))
        except (OSError, ValueError) as e:
            fail("%s: %s" % (p, e))
    idle = pooled(runs, "latency_waking_local_idle_q101_ns")
    busy = pooled(runs, "latency_waking_local_busy_q101_ns")
    if idle is None or busy is None:
        fail("no run has >= 100 local wake-ups onto an %s CPU (run sleeper and slice-sleeper)" %
             ("idle" if idle is None else "busy"))
    if "timer_delay" not in prof:
        fail("%s: timer_delay: missing (the lateness to take resched_delay out of)" % a.profile)
    # a file without timer_delay_busy delivers to busy CPUs as to idle
    # ones (io/profile.cpp): shift a copy, written after timer_delay
    if "timer_delay_busy" not in prof:
        prof = {k2: v2 for k, v in prof.items()
                for k2, v2 in ([(k, v), ("timer_delay_busy", v)] if k == "timer_delay" else [(k, v)])}
    out = {}
    for k, v in prof.items():
        if k == "timer_delay":
            v = shifted(v, idle[50], a.profile, k)
        elif k == "timer_delay_busy":
            v = shifted(v, busy[50], a.profile, k)
        elif k == "measured":
            v = dict(v)
            v["command"] = v.get("command", "") + "; probe/resched-delay.py over " + \
                ", ".join(sorted({d.get("scenario", {}).get("name", "?") for _, d in runs})) + \
                " (%d traced runs)" % len(runs)
        out[k] = v
        if k == "timer_delay_busy":
            out["resched_delay"] = ns_list(idle)
            out["resched_delay_busy"] = ns_list(busy)
    # one key per line, as calibrate writes it
    lines = ["{"]
    items = list(out.items())
    for i, (k, v) in enumerate(items):
        lines.append("  %s: %s%s" % (json.dumps(k), json.dumps(v, separators=(", ", ": ")),
                                     "," if i + 1 < len(items) else ""))
    lines.append("}")
    text = "\n".join(lines) + "\n"
    dst = a.out or a.profile
    tmp = dst + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, dst)
    print("resched_delay p50 %d ns p90 %d ns; resched_delay_busy p50 %d ns p90 %d ns; timer_delay(_busy) less "
          "%d / %d ns" % (idle[50], idle[90], busy[50], busy[90], idle[50], busy[50]))


if __name__ == "__main__":
    main()
