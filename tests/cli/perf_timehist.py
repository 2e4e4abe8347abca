# SPDX-License-Identifier: GPL-2.0-only
"""`perf sched timehist -S` recomputed from an ftrace text trace, written
from tools/perf/builtin-sched.c (timehist_sched_switch_event(),
timehist_update_runtime_stats(), timehist_print_sample(),
print_thread_runtime(), timehist_print_summary()) and util/stat.c, not from
eevdf's writer: the oracle `eevdf sim --timehist` is compared with, byte for
byte, on the trace the same run wrote (`--trace`).

Where it differs from perf, on purpose:
- perf keeps "no time yet" as 0, so an event at timestamp 0 (a simulation
  starts there; a real trace never does) reads as none; here it is None.
- perf knows nothing of a CPU before its first sched_switch and prints that
  switch's prev with run time 0; a simulation starts every CPU idle at time
  0, which the oracle is told (`start_ns`), so that run is measured from 0.
- a zero-length idle run (a task blocks and the next is picked at the same
  instant, two switches at one timestamp, which a simulation produces and a
  kernel hardly does) is not printed or counted; perf prints it with run
  time 0.000. Its switch still counts as the idle task's last switch out.
- the migrations column counts sched_migrate_task events (perf does with
  -M, which also prints a row per migration; eevdf prints none).
- a task is terminated when switched out with prev_state X (perf: its exit
  record; it prints the "Terminated tasks" section, as perf did before the
  exited-thread rework)."""
import math
import struct

COMM_WIDTH = 30


def sched_time(ns, width):
    return "%*d.%03d " % (width, ns // 1000000, ns % 1000000 // 1000)


def f32(x):
    """perf keeps the relative stddev in a float."""
    return struct.unpack("f", struct.pack("f", x))[0]


class Stats:
    def __init__(self):
        self.n, self.mean, self.m2, self.min, self.max = 0, 0.0, 0.0, 2**64 - 1, 0

    def update(self, v):
        self.n += 1
        delta = v - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (v - self.mean)
        self.max = max(self.max, v)
        self.min = min(self.min, v)

    def rel_stddev(self):
        if self.n < 2:
            return 0.0
        sd = math.sqrt(self.m2 / (self.n - 1) / self.n)
        return 100.0 * sd / self.mean if self.mean else 0.0


class Thread:
    def __init__(self, comm, pid):
        self.comm, self.pid = comm, pid
        self.stats, self.total = Stats(), 0
        self.last_time = self.ready_to_run = None
        self.last_state = None
        self.migrations, self.dead = 0, False


def commstr(t):
    return t.comm if t.pid == 0 else f"{t.comm}[{t.pid}]"


def timehist(events, ncpus, start_ns=0):
    out = []
    out.append("%15s %6s  %-*s  %9s  %9s  %9s" % ("time", "cpu", COMM_WIDTH, "task name", "wait time", "sch delay", "run time"))
    out.append("%15s %-6s  %-*s  %9s  %9s  %9s" % ("", "", COMM_WIDTH, "[tid/pid]", "(msec)", "(msec)", "(msec)"))
    out.append("%s %s  %s  %s  %s  %s" % ("-" * 15, "-" * 6, "-" * COMM_WIDTH, "-" * 9, "-" * 9, "-" * 9))
    threads, order = {}, []  # order: first seen, as perf's thread list is keyed by tid
    idle = [Thread("<idle>", 0) for _ in range(ncpus)]
    prev_time = [start_ns] * ncpus  # every CPU idle from the start
    hist_start = hist_end = None

    def thread(pid, comm):
        if pid not in threads:
            threads[pid] = Thread(comm, pid)
            order.append(pid)
        return threads[pid]

    for e in events:
        t = e["ts_us"] * 1000
        if e["event"] in ("sched_wakeup", "sched_wakeup_new"):
            th = thread(e["pid"], e["comm"])
            if th.ready_to_run is None:
                th.ready_to_run = t
            continue
        if e["event"] == "sched_migrate_task":
            thread(e["pid"], e["comm"]).migrations += 1
            continue
        if e["event"] != "sched_switch":
            continue
        c = e["cpu"]
        prev = idle[c] if e["prev_pid"] == 0 else thread(e["prev_pid"], e["prev_comm"])
        state = e["prev_state"][0]
        tprev = prev_time[c]
        if tprev is not None and not (prev.pid == 0 and t == tprev):
            dt_run = t - tprev
            dt_delay = tprev - prev.ready_to_run if prev.ready_to_run is not None else 0
            dt_wait = tprev - prev.last_time if prev.last_time is not None else 0
            prev.stats.update(dt_run)
            prev.total += dt_run
            out.append("%15s [%04d]  %-*s " % ("%d.%06d" % divmod(t // 1000, 10**6), c, COMM_WIDTH, commstr(prev))
                       + sched_time(dt_wait, 6) + sched_time(dt_delay, 6) + sched_time(dt_run, 6))
        if hist_start is None:
            hist_start = t
        hist_end = t
        prev.last_time, prev.last_state = t, state
        prev.ready_to_run = t if state == "R" else None
        if state == "X":
            prev.dead = True
        prev_time[c] = t
        if e["next_pid"] != 0:
            thread(e["next_pid"], e["next_comm"])

    out.append("")
    out.append("Runtime summary")
    out.append("%*s  parent   sched-in     run-time    min-run     avg-run     max-run  stddev  migrations" % (COMM_WIDTH, "comm"))
    out.append("%*s            (count)       (msec)     (msec)      (msec)      (msec)       %%" % (COMM_WIDTH, ""))
    out.append("-" * 117)
    totals = {"tasks": 0, "sched": 0, "run": 0}

    def row(th):
        totals["tasks"] += 1
        totals["sched"] += th.stats.n
        totals["run"] += th.total
        out.append("%*s   %5d  %9d " % (COMM_WIDTH, commstr(th), -1, th.stats.n) + sched_time(th.total, 8)
                   + sched_time(th.stats.min, 6) + " " + sched_time(int(th.stats.mean), 6) + " "
                   + sched_time(th.stats.max, 6) + "  %5.2f   %5d" % (f32(th.stats.rel_stddev()), th.migrations))

    by_pid = sorted(order)
    for p in by_pid:
        if threads[p].stats.n and not threads[p].dead:
            row(threads[p])
    running = totals["tasks"]
    if not running:
        out.append("<no still running tasks>")
    out.append("")
    out.append("Terminated tasks:")
    for p in by_pid:
        if threads[p].stats.n and threads[p].dead:
            row(threads[p])
    if totals["tasks"] == running:
        out.append("<no terminated tasks>")
    hist = (hist_end - hist_start) if hist_start is not None else 0
    out.append("")
    out.append("Idle stats:")
    for c in range(ncpus):
        r = idle[c]
        if r.stats.n:
            totals["sched"] += r.stats.n
            out.append("    CPU %2d idle for " % c + sched_time(r.total, 6) + " msec  (%6.2f%%)" % (100.0 * r.total / hist if hist else 0.0))
        else:
            out.append("    CPU %2d idle entire time window" % c)
    out.append("")
    out.append("    Total number of unique tasks: %d" % totals["tasks"])
    out.append("Total number of context switches: %d" % totals["sched"])
    out.append("           Total run time (msec): " + sched_time(totals["run"], 2))
    out.append("    Total scheduling time (msec): " + sched_time(hist, 2) + " (x %d)" % ncpus)
    return "\n".join(out) + "\n"
