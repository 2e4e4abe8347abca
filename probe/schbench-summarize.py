#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Real schbench (probe/run-schbench.sh's JSON) beside `eevdf schbench` on
# the same rows, the model exact and with a machine profile over N seeds.
# usage: schbench-summarize.py EEVDF DIR [--op-cost US] [--seeds N] [--profile P] [--runtime S]
# (markdown tables on stdout; the op cost from DIR's calibrate-*.json unless given)
import argparse, glob, json, os, re, statistics, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

ap = argparse.ArgumentParser()
ap.add_argument("eevdf"); ap.add_argument("dir")
ap.add_argument("--op-cost", type=int, default=0,
                help="us per matrix operation (default: from the calibrate-*.json runs, schbench -C: request p50 / 5)")
ap.add_argument("--seeds", type=int, default=20)
ap.add_argument("--profile", default="vm-6.18.44-hz250")
ap.add_argument("--runtime", type=int, default=10)
a = ap.parse_args()

rows = {}
for f in sorted(glob.glob(os.path.join(a.dir, "stress*-slice*-*.json"))):
    m = re.match(r"stress(\d+)-slice(\d+)-(\d+)\.json", os.path.basename(f))
    d = json.load(open(f))["int"]
    rows.setdefault((int(m[1]), int(m[2])), []).append(d)

cal = [json.load(open(f))["int"]["request_latency_pct50.0"] / 5
       for f in sorted(glob.glob(os.path.join(a.dir, "calibrate-*.json")))]
if not a.op_cost:
    if not cal:
        sys.exit("schbench-summarize.py: no calibrate-*.json in %s; give --op-cost" % a.dir)
    a.op_cost = int(round(statistics.median(cal)))
print(f"op cost {a.op_cost} us (schbench -C: {', '.join('%.0f' % c for c in cal)} us per op)\n")

def model(stress, slice_ns, profile, seed):
    cmd = [a.eevdf, "schbench", "-m", "1", "-t", "2", "-n", "5", "--op-cost", f"{a.op_cost}us",
           "-r", str(a.runtime), "--cpus", "2", "--hz", "250", "--kernel", "6.18.39",
           "--stress", str(stress), "--profile", profile, "--seed", str(seed), "--json"]
    if slice_ns:
        cmd += ["--schbench-slice", f"{slice_ns}ns"]
    d = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    w = d["wakeup_latency_us"]
    return {"p50": w["p50"], "p90": w["p90"], "p99": w["p99"], "rps": d["average_rps"]}

def interval(v):
    """median and the 95 % interval of the median's order statistics over v"""
    s = sorted(v); n = len(s)
    return statistics.median(s), s[int(0.025 * (n - 1))], s[int(round(0.975 * (n - 1)))]

res = {}
with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
    for key in rows:
        exact = ex.submit(model, key[0], key[1], "exact", 0)
        seeded = [ex.submit(model, key[0], key[1], a.profile, s) for s in range(1, a.seeds + 1)]
        res[key] = (exact, seeded)

def kstat(key, m):
    v = [r[f"wakeup_latency_pct{m}"] for r in rows[key]]
    return min(v), statistics.median(v), max(v)

print(f"| stress-ng | slice | metric | kernel min–max (median), {len(next(iter(rows.values())))} runs | model exact | model {a.profile}: median [2.5–97.5 % of {a.seeds} seeds] |")
print("|---|---|---|---|---|---|")
med = {}
for key in sorted(rows):
    exact = res[key][0].result(); seeded = [f.result() for f in res[key][1]]
    for m, km in (("p50", "50.0"), ("p90", "90.0"), ("p99", "99.0")):
        lo, md, hi = kstat(key, km)
        sm, slo, shi = interval([s[m] for s in seeded])
        med[(key, m)] = (md, exact[m], sm)
        print(f"| {'on' if key[0] else 'off'} | {key[1] / 1e6 if key[1] else 'default'} | wake-up {m} (us) | {lo}–{hi} ({md}) | {exact[m]} | {sm} [{slo}–{shi}] |")
print()
print("| ratio of wake-up p99 | kernel (medians) | model exact | model profile (medians) | profile within 25 % |")
print("|---|---|---|---|---|")
for num, den, what in (((2, 0), (0, 0), "stress-ng on / off (default slice)"),
                       ((2, 1000000), (2, 0), "1 ms / default slice, stress-ng on"),
                       ((2, 8000000), (2, 0), "8 ms / default slice, stress-ng on"),
                       ((0, 1000000), (0, 0), "1 ms / default slice, stress-ng off"),
                       ((0, 8000000), (0, 0), "8 ms / default slice, stress-ng off")):
    if (num, "p99") not in med or (den, "p99") not in med:
        continue
    k = med[(num, "p99")][0] / med[(den, "p99")][0]
    e = med[(num, "p99")][1] / max(1, med[(den, "p99")][1])
    p = med[(num, "p99")][2] / max(1, med[(den, "p99")][2])
    print(f"| {what} | {k:.2f} | {e:.2f} | {p:.2f} | {'yes' if abs(p / k - 1) <= 0.25 else 'no'} |")
