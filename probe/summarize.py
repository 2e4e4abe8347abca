#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Markdown tables from the JSON files written by run-matrix.sh.

usage: summarize.py OUTDIR
"""
import json
import pathlib
import sys


def ms(ns):
    return "%.3f" % (ns / 1e6) if ns is not None else "-"


def main():
    d = pathlib.Path(sys.argv[1])
    runs = []
    for p in sorted(d.glob("*.json")):
        runs.append((p.stem, json.loads(p.read_text())))

    def key(item):
        s = item[1]["config"]["slice_ns"]
        return (0 if item[1]["config"].get("waker") is None else 1,
                s if s is not None else -1, item[0])

    runs.sort(key=key)
    print("| case | slice | runs | mean | p50 | p90 | p99 | max | nr_invol | se.slice |"
          " at tick | foreign ms | no-switch gaps |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, j in runs:
        h = j["hogs"]
        t = h.get("trace", h["spin"])["runs"]
        slices = sorted({x["se_slice_ns"] for x in j["tasks"] if x["role"] == "hog"})
        tk = j["ticks"]
        at = "%d/%d" % (tk.get("hog_preemptions_at_tick", 0), tk.get("hog_preemptions", 0))
        n = j["noise"]
        print("| %s | %s | %d | %s | %s | %s | %s | %s | %d | %s | %s | %s | %d |" % (
            name,
            ms(j["config"]["slice_ns"]) if j["config"]["slice_ns"] else "default",
            t["count"], ms(t.get("mean_ns")), ms(t.get("p50_ns")), ms(t.get("p90_ns")),
            ms(t.get("p99_ns")), ms(t.get("max_ns")), h["nr_involuntary_switches"],
            ",".join(ms(s) for s in slices), at, ms(n.get("foreign_ns", 0)),
            n.get("spin_gaps_without_switch", 0)))
    print()
    print("spin method (no tracing), same runs:")
    print()
    print("| case | runs | mean | p50 | p99 | max | merged runs | merged p50 |"
          " on one tick grid | gaps: other hog / none / partly |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, j in runs:
        s = j["hogs"]["spin"]
        r, m = s["runs"], s["runs_merged"]
        tk, n = j["ticks"], j["noise"]
        print("| %s | %d | %s | %s | %s | %s | %d | %s | %s | %d / %d / %d |" % (
            name, r["count"], ms(r.get("mean_ns")), ms(r.get("p50_ns")), ms(r.get("p99_ns")),
            ms(r.get("max_ns")), m["count"], ms(m.get("p50_ns")),
            "%d/%d" % (tk.get("spin_switches_on_grid", 0), tk.get("spin_switches", 0)),
            n["spin_gaps_known"], n["spin_gaps_foreign"], n["spin_gaps_mixed"]))
    print()
    print("histograms (trace, hog runs, 1 ms buckets: from_ms:count):")
    print()
    for name, j in runs:
        h = j["hogs"].get("trace", j["hogs"]["spin"])["histogram"]
        print("- %s: %s" % (name, " ".join("%d:%d" % (b["from_ms"], b["count"]) for b in h)))
    for name, j in runs:
        w = j.get("waker")
        if not w:
            continue
        print()
        print("waker %s (slice %s): activations %d, skipped periods %d" % (
            name, ms(j["config"]["waker"]["slice_ns"]) if j["config"]["waker"]["slice_ns"]
            else "default", w["activations"], w["periods_skipped"]))
        for k in ("latency_spin", "latency_trace"):
            if k in w:
                l = w[k]
                print("  %s: n=%d p50 %s p90 %s p99 %s max %s ms" % (
                    k, l["count"], ms(l.get("p50_ns")), ms(l.get("p90_ns")),
                    ms(l.get("p99_ns")), ms(l.get("max_ns"))))
        if "hog_runs_ended_by_waker" in w:
            print("  hog runs ended by the waker: %d" % w["hog_runs_ended_by_waker"])


if __name__ == "__main__":
    main()
