#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Prints bench/run.sh's table from eevdf_bench's JSON (medians of the
repetitions) and the callgrind driver's counts.

usage: table.py bench-results.json [callgrind.txt]
"""
import json
import math
import re
import sys

NS = [2, 4, 64, 1000, 10000]


def load(path):
    with open(path) as f:
        doc = json.load(f)
    med, cv = {}, {}
    for b in doc["benchmarks"]:
        if b.get("run_type") != "aggregate":
            continue
        # Strip the min_time / real_time suffixes from the run name.
        key = re.sub(r"/(min_time:[0-9.]+|real_time)", "", b["run_name"])
        if b["aggregate_name"] == "median":
            med[key] = b
        elif b["aggregate_name"] == "cv":
            cv[key] = b
    return doc, med, cv


SHAPES = ["flat", "64", "1000", "8x8", "32x31", "4x4x4", "10x10x9"]  # bench::group_shapes()
SHAPE_DEPTH = [0, 1, 1, 2, 2, 3, 3]
SHAPE_GROUPS = [0, 64, 1000, 72, 1024, 84, 1010]


def callgrind(path):
    out = {}
    if not path:
        return out
    try:
        with open(path) as f:
            for line in f:
                # "hogs 4 events 100000 Ir 92912345"
                p = line.split()
                # "groups 64 cpus 8 shape 10x10x9 events 30000 Ir 123456"
                if len(p) == 10 and p[0] == "groups" and p[6] == "events" and p[8] == "Ir":
                    out[("groups", int(p[3]), p[5])] = int(p[9]) / int(p[7])
                    continue
                if len(p) == 6 and p[2] == "events" and p[4] == "Ir" and p[5].isdigit():
                    out[(p[0], int(p[1]))] = int(p[5]) / int(p[3])
    except FileNotFoundError:
        pass
    return out


def fmt_rate(x):
    if x >= 1e6:
        return f"{x / 1e6:.2f} M"
    if x >= 1e3:
        return f"{x / 1e3:.1f} k"
    return f"{x:.0f}"


def pct(b):
    return f"{100 * b['cpu_time']:.1f} %" if b else "-"


def main():
    doc, med, cv = load(sys.argv[1])
    cg = callgrind(sys.argv[2] if len(sys.argv) > 2 else None)
    ctx = doc["context"]
    print(f"Google Benchmark: {ctx.get('num_cpus')} CPUs at {ctx.get('mhz_per_cpu')} MHz, "
          f"load average {', '.join(f'{x:.2f}' for x in ctx.get('load_avg', []))}; "
          f"medians of {next(iter(med.values()))['repetitions']} repetitions, CPU time")
    print()

    targets = []

    print("## Simulated scheduling events per second (6.18 preset, HZ=1000, base slice 0.70 ms)")
    print()
    print("| workload | n tasks | mean queued | events/s | ns/event | cv | instructions/event (callgrind) | allocs in loop |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    events = {}
    for kind, label in ((0, "hogs"), (1, "mixed")):
        for n in NS:
            key = f"BM_Events/mixed:{kind}/n:{n}"
            b = med.get(key)
            if not b:
                continue
            eps = b["items_per_second"]
            events[(label, n)] = eps
            ir = cg.get((label, n))
            irs = f"{ir:.0f}" if ir else "-"
            print(f"| {label} | {n} | {b['queued']:.0f} | {fmt_rate(eps)} | {1e9 / eps:.1f} | {pct(cv.get(key))} | "
                  f"{irs} | {b['allocs']:.0f} |")
    print()
    # O(log n): ns/event against log2 n, least squares over n >= 4.
    for label in ("hogs", "mixed"):
        pts = [(math.log2(n), 1e9 / events[(label, n)]) for n in NS if (label, n) in events and n >= 4]
        if len(pts) >= 2:
            mx = sum(x for x, _ in pts) / len(pts)
            my = sum(y for _, y in pts) / len(pts)
            slope = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
            print(f"- {label}: ns/event ≈ {my - slope * mx:.1f} + {slope:.2f} · log2(n) (least squares, n = 4..10000)")
        irs = [(n, cg[(label, n)]) for n in NS if (label, n) in cg]
        if irs:
            print(f"  instructions/event: " + ", ".join(f"n={n}: {ir:.0f}" for n, ir in irs))
    print()

    print("## Fast pick (__pick_eevdf tree search) against the brute-force oracle, same 8 queue states, protect=false")
    print()
    print("| workload | n tasks | mean queued | fast ns/pick | brute-force ns/pick | brute/fast |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for kind, label in ((0, "hogs"), (1, "mixed")):
        for n in NS:
            f = med.get(f"BM_Pick/brute:0/mixed:{kind}/n:{n}")
            b = med.get(f"BM_Pick/brute:1/mixed:{kind}/n:{n}")
            if not f or not b:
                continue
            fn, bn = 1e9 / f["items_per_second"], 1e9 / b["items_per_second"]
            print(f"| {label} | {n} | {f['queued']:.0f} | {fn:.1f} | {bn:.1f} | {bn / fn:.1f}× |")
    print()

    print("## Seed-001 sweep: 12 configurations × 4 hogs × 30 s simulated (HZ 1000 and 100, slices 3–32 ms)")
    print()
    print("| variant | wall ms per sweep | simulated s per wall s | events/s |")
    print("| --- | ---: | ---: | ---: |")
    sweep = {}
    for m, label in ((0, "bare (no observers)"), (1, "as `eevdf slice-table` (MetricsCollector + summary)")):
        b = med.get(f"BM_Seed001Sweep/metrics:{m}")
        if not b:
            continue
        sweep[m] = b["real_time"]
        eps = b.get("items_per_second")
        print(f"| {label} | {b['real_time']:.2f} | {b['sim_s']:,.0f} | {fmt_rate(eps) if eps else '-'} |")
    print()

    print("## Memory (heap bytes held, counted by the replaced operator new)")
    print()
    print("| workload | n tasks | Simulation bytes per 1,000 tasks | its input Workload, bytes per 1,000 tasks | build time per 1,000 tasks |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind, label in ((0, "hogs"), (1, "mixed")):
        for n in (1000, 10000):
            b = med.get(f"BM_Construct/mixed:{kind}/n:{n}")
            if not b:
                continue
            print(f"| {label} | {n} | {b['sim_B_per_1k'] / 1024:.0f} KiB | {b['workload_B_per_1k'] / 1024:.0f} KiB | "
                  f"{1e9 / b['items_per_second'] * 1000 / 1000:.1f} µs |")
    print()

    print("## A million tasks (issue 18): `eevdf sim --hogs 1000000 --hz 1000 --duration 1s`, in process")
    print()
    print("| output | wall s (build, 1 s simulated, report) | peak heap MiB | output MB |")
    print("| --- | ---: | ---: | ---: |")
    million = {}
    for j, label in ((0, "table"), (1, "`--json`")):
        b = med.get(f"BM_MillionTasks/json:{j}/iterations:1")
        if not b:
            continue
        million[j] = b
        print(f"| {label} | {b['real_time']:.2f} | {b['peak_heap_MiB']:.0f} | {b['output_MB']:.0f} |")
    print()

    print("## Task groups (issue 36): 64 mixed tasks (~1.25 CPUs of load) in group trees, 6.18 preset, HZ=1000")
    print()
    print("| CPUs | tree | depth | groups | events/s | ns/event | × flat ns/event | instructions/event (callgrind) |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for cpus in (8, 64):
        flat = med.get(f"BM_GroupEvents/cpus:{cpus}/n:64/shape:0")
        for shape, name in enumerate(SHAPES):
            b = med.get(f"BM_GroupEvents/cpus:{cpus}/n:64/shape:{shape}")
            if not b:
                continue
            ns = 1e9 / b["items_per_second"]
            ratio = f"{ns / (1e9 / flat['items_per_second']):.2f}" if flat else "-"
            ir = cg.get(("groups", cpus, name))
            print(f"| {cpus} | {name} | {SHAPE_DEPTH[shape]} | {SHAPE_GROUPS[shape]:,} | {fmt_rate(b['items_per_second'])} | "
                  f"{ns:.0f} | {ratio} | {f'{ir:,.0f}' if ir else '-'} |")
    print()

    print("## Targets (issue 8)")
    print()

    def verdict(ok):
        return "met" if ok else "NOT met"

    if ("hogs", 4) in events:
        e = events[("hogs", 4)]
        print(f"- ≥ 20 M events/s with 4 hogs: {fmt_rate(e)}/s → {verdict(e >= 20e6)}")
    if ("hogs", 10000) in events:
        e = events[("hogs", 10000)]
        em = events.get(("mixed", 10000))
        print(f"- ≥ 2 M events/s with 10,000 tasks: hogs {fmt_rate(e)}/s → {verdict(e >= 2e6)}"
              + (f"; mixed {fmt_rate(em)}/s → {verdict(em >= 2e6)}" if em else ""))
    if 1 in sweep:
        print(f"- seed-001 sweep < 50 ms: {sweep[1]:.2f} ms as the CLI runs it, {sweep.get(0, float('nan')):.2f} ms bare "
              f"→ {verdict(sweep[1] < 50)}")
    for j, b in sorted(million.items()):
        label = "JSON" if j else "table"
        print(f"- 1,000,000 tasks, 1 s at HZ=1000, {label} reported, < 3 s and < 1 GiB: {b['real_time']:.2f} s, "
              f"{b['peak_heap_MiB']:.0f} MiB heap → {verdict(b['real_time'] < 3 and b['peak_heap_MiB'] < 1024)} "
              f"(issue 18; the CLI's peak RSS is printed below)")


if __name__ == "__main__":
    main()
