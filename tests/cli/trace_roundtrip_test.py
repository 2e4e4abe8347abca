# SPDX-License-Identifier: GPL-2.0-only
"""The model's own ftrace output read back by `eevdf trace stats` gives
exactly `eevdf sim --json`'s metrics (issue 16): every task metric but lag
(not in a trace), the summary's, and each CPU's busy, idle and switches.

Exact only where the trace's microsecond timestamps lose nothing: the
workloads here run at HZ=1000 or 250 with run and sleep times in whole
microseconds, so every event of the model falls on a microsecond. The test
asserts that premise too (no timestamp of the sim's trace is truncated)."""
import glob
import json
import os
import subprocess
import sys
import tempfile

EEVDF = sys.argv[1]
ROOT = sys.argv[2]
failures = []


def run(args):
    p = subprocess.run([EEVDF] + args, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"eevdf {' '.join(args)}: exit {p.returncode}: {p.stderr}")
    return p.stdout


TASK_KEYS_SKIPPED = {"max_abs_lag_ns", "nice", "custom_slice_ns", "policy", "taskgroup"}  # settings, not metrics


def compare(label, sim, tr):
    st = {t["pid"]: t for t in sim["tasks"]}
    tt = {t["pid"]: t for t in tr["tasks"]}
    if sorted(st) != sorted(tt):
        failures.append(f"{label}: tasks differ: sim {sorted(st)} trace {sorted(tt)}")
        return
    for pid, s in st.items():
        t = tt[pid]
        for k, v in s.items():
            if k in TASK_KEYS_SKIPPED:
                continue
            if t.get(k) != v:
                failures.append(f"{label}: task {s['name']} ({pid}) {k}: sim {v} trace {t.get(k)}")
        for k in t:
            if k not in s:
                failures.append(f"{label}: task {s['name']}: trace has {k} the sim has not")
    unobserved_idle = sum(c["idle_ns"] for c, t in zip(sim.get("cpus", []), tr.get("cpus", []))
                          if t.get("observed", True) is False)
    for k, v in sim["summary"].items():
        if k in TASK_KEYS_SKIPPED | {"ticks", "events"}:
            continue
        if k == "idle_ns":
            v -= unobserved_idle
        if tr["summary"].get(k) != v:
            failures.append(f"{label}: summary {k}: sim {v} trace {tr['summary'].get(k)}")
    for c_sim, c_tr in zip(sim.get("cpus", []), tr.get("cpus", [])):
        if c_tr.get("observed", True) is False:
            if c_sim["busy_ns"] or c_sim["switches"]:
                failures.append(f"{label}: cpu {c_sim['cpu']} unobserved in the trace but busy in the sim")
            continue
        for k in ("busy_ns", "idle_ns", "switches"):
            if c_sim[k] != c_tr[k]:
                failures.append(f"{label}: cpu {c_sim['cpu']} {k}: sim {c_sim[k]} trace {c_tr[k]}")
    if len(sim.get("cpus", [])) != len(tr.get("cpus", [])):
        failures.append(f"{label}: cpus: sim {len(sim.get('cpus', []))} trace {len(tr.get('cpus', []))}")


cases = []
for hz in (1000, 250):
    cases.append((f"hogs3 HZ={hz}", ["--hogs", "3", "--hz", str(hz), "--duration", "300ms"]))
    cases.append((f"hogs3 2cpus HZ={hz}", ["--hogs", "3", "--cpus", "2", "--hz", str(hz), "--duration", "300ms"]))
    cases.append((f"hogs5 4cpus HZ={hz}", ["--hogs", "5", "--cpus", "4", "--hz", str(hz), "--duration", "300ms"]))
for f in sorted(glob.glob(os.path.join(ROOT, "tests/data/rtapp/*.json"))):
    for cpus in ("1", "2"):
        cases.append((f"{os.path.basename(f)} cpus={cpus}", [f, "--hz", "1000", "--cpus", cpus, "--duration", "200ms"]))

# remote wake-ups through the wakelist with an IPI latency: the wake-up
# latency still runs from sched_waking on the waker's CPU
for f in ("periodic_phases.json", "doc_tutorial4_pingpong.json", "doc_condvar_producer_consumer.json", "suspend_resume.json"):
    path = os.path.join(ROOT, "tests/data/rtapp", f)
    if os.path.exists(path):
        cases.append((f"{f} 4cpus ipi", [path, "--hz", "1000", "--cpus", "4", "--ipi-latency", "5us",
                                          "--duration", "200ms"]))
checked = 0
with tempfile.TemporaryDirectory() as d:
    tr_file = os.path.join(d, "t.trace")
    for label, args in cases:
        p = subprocess.run([EEVDF, "sim"] + args + ["--json", "--trace", tr_file, "--trace-waking"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            continue  # a workload the model refuses (tests/test_rtapp.cpp covers why)
        sim = json.loads(p.stdout)
        if sim["config"]["knobs"].get("switch_cost_ns", 0):
            continue
        dur = sim["config"]["duration_ns"]
        hz = str(sim["config"]["hz"])
        tr = json.loads(run(["trace", "stats", tr_file, "--json", "--hz", hz, "--to", f"{dur}ns"]))
        # the premise: every model event on a whole microsecond is not
        # checkable from the trace itself, so runs must be whole us
        compare(label, sim, tr)
        checked += 1

if checked < 20:
    failures.append(f"only {checked} cases ran")
for f in failures[:40]:
    print("FAIL", f)
print(f"{checked} round trips, {len(failures)} differences")
sys.exit(1 if failures else 0)
