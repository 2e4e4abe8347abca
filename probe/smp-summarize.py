#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Mean and spread of the multi-CPU scenarios over repeated runs.

usage: smp-summarize.py EEVDF DIR [--markdown]

DIR holds NAME-I.json from `eevdf-probe --scenario NAME --json` (run-smp.sh).
Each is compared with the model as it is now (`eevdf probe --scenario NAME
--kernel-json FILE`, so the same kernel data can be set against a newer
model); per scenario and row this prints the kernel's mean, standard
deviation, min and max over the runs and the model's value.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

SCENARIOS = ["2hogs", "3hogs", "4hogs", "hog-sleeper", "pingpong", "2hogs-2sleepers", "sleeper"]


def tables(eevdf, d, name):
    files = sorted((f for f in os.listdir(d) if re.fullmatch(re.escape(name) + r"-\d+\.json", f)),
                   key=lambda f: int(f.rsplit("-", 1)[1].split(".")[0]))
    out = []
    for f in files:
        with tempfile.NamedTemporaryFile(suffix=".json") as t:
            subprocess.run([eevdf, "probe", "--scenario", name, "--kernel-json", os.path.join(d, f),
                            "--table-json", t.name], check=True, stdout=subprocess.DEVNULL)
            out.append(json.load(open(t.name)))
    return out


def fmt(x):
    return "-" if x is None else f"{x:.3f}"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    eevdf, d = sys.argv[1], sys.argv[2]
    md = "--markdown" in sys.argv[3:]
    for name in SCENARIOS:
        ts = tables(eevdf, d, name)
        if not ts:
            continue
        foreign = [t["kernel_foreign"] for t in ts]
        print(f"\n{'### ' if md else '== '}{name}: {len(ts)} runs, model preset {ts[0]['preset']}, "
              f"{ts[0]['model_balance_attempts']} model balance attempts; outside tasks took "
              f"{100 * min(foreign):.1f}..{100 * max(foreign):.1f} % of the CPUs\n")
        if md:
            print("| task / CPU | metric | kernel mean | sd | min | max | model | tolerance |")
            print("|---|---|---|---|---|---|---|---|")
        for i, r in enumerate(ts[0]["rows"]):
            ks = [t["rows"][i]["kernel"] for t in ts if t["rows"][i]["kernel"] is not None]
            ms = sorted({fmt(t["rows"][i]["model"]) for t in ts})
            tol = " or ".join(([f"±{r['tolerance_abs']:g}"] if r["tolerance_abs"] else []) +
                         ([f"±{100 * r['tolerance_rel']:g} %"] if r["tolerance_rel"] else []))
            tol += " (asserted)" if r["asserted"] else ""
            if ks:
                mean, sd = statistics.mean(ks), statistics.pstdev(ks)
                cells = [f"{mean:.3f}", f"{sd:.3f}", f"{min(ks):.3f}", f"{max(ks):.3f}"]
            else:
                cells = ["-"] * 4
            if md:
                print(f"| {r['scope']} | {r['metric']} | " + " | ".join(cells) + f" | {'/'.join(ms)} | {tol} |")
            else:
                print(f"  {r['scope']:<20} {r['metric']:<34} " + " ".join(f"{c:>9}" for c in cells) +
                      f"  model {'/'.join(ms):>9}  {tol}")


if __name__ == "__main__":
    main()
