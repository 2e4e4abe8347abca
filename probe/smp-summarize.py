#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The multi-CPU scenarios over repeated runs beside the model, exact and
calibrated.

usage: smp-summarize.py EEVDF DIR [--markdown] [--profile NAME] [--seeds N]

DIR holds NAME-I.json from `eevdf-probe --scenario NAME --json` (run-smp.sh).
Each is compared with the model as it is now (`eevdf probe --scenario NAME
--kernel-json FILE`, so the same kernel data can be set against a newer
model); per scenario and row this prints the kernel's mean, standard
deviation and range (min..max over the runs), the exact model's value, and
the model under the machine profile (default vm-6.18.44-hz250, 20 seeds:
`--profile NAME --seeds N`) as the median with its 95 % interval over the
seeds. A row is within when the kernel's range and the model's interval
overlap (the exact model's is its one value); the counts close each
scenario and the whole summary.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

SCENARIOS = ["2hogs", "3hogs", "4hogs", "hog-sleeper", "pingpong", "2hogs-2sleepers", "sleeper", "pipe-pingpong",
             "forks", "nice-mix", "idle-hog", "slice-hogs", "slice-sleeper", "8-periodic"]


def table(eevdf, name, path, extra=()):
    with tempfile.NamedTemporaryFile(suffix=".json") as t:
        subprocess.run([eevdf, "probe", "--scenario", name, "--kernel-json", path, "--table-json", t.name,
                        *extra], check=True, stdout=subprocess.DEVNULL)
        return json.load(open(t.name))


def runs(d, name):
    return sorted((f for f in os.listdir(d) if re.fullmatch(re.escape(name) + r"-\d+\.json", f)),
                  key=lambda f: int(f.rsplit("-", 1)[1].split(".")[0]))


def fmt(x):
    return "-" if x is None else f"{x:.3f}"


def overlap(klo, khi, mlo, mhi):
    # cli/probe_table.hpp, ranges_overlap()
    return klo <= mhi and mlo <= khi


def arg(flag, default):
    a = sys.argv[3:]
    return a[a.index(flag) + 1] if flag in a and a.index(flag) + 1 < len(a) else default


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    eevdf, d = sys.argv[1], sys.argv[2]
    md = "--markdown" in sys.argv[3:]
    profile, seeds = arg("--profile", "vm-6.18.44-hz250"), arg("--seeds", "20")
    total = {"exact": [0, 0], "calibrated": [0, 0]}
    for name in SCENARIOS:
        files = runs(d, name)
        if not files:
            continue
        ts = [table(eevdf, name, os.path.join(d, f)) for f in files]
        # The model's side depends on the run's configuration only, the
        # same in every run: one ensemble serves them all.
        cal = table(eevdf, name, os.path.join(d, files[0]), ["--profile", profile, "--seeds", seeds])
        cal_rows = {(r["scope"], r["metric"]): r for r in cal["rows"]}
        foreign = [t["kernel_foreign"] for t in ts]
        print(f"\n{'### ' if md else '== '}{name}: {len(ts)} runs, model preset {ts[0]['preset']}, "
              f"{ts[0]['model_balance_attempts']} model balance attempts; outside tasks took "
              f"{100 * min(foreign):.1f}..{100 * max(foreign):.1f} % of the CPUs; calibrated: profile "
              f"{cal['profile']}, {cal['seeds']} seeds\n")
        if md:
            print("| task / CPU | metric | kernel mean | sd | kernel min..max | model exact | calibrated median "
                  "| calibrated 95 % | within exact / calibrated |")
            print("|---|---|---|---|---|---|---|---|---|")
        count = {"exact": [0, 0], "calibrated": [0, 0]}
        for i, r in enumerate(ts[0]["rows"]):
            ks = [t["rows"][i]["kernel"] for t in ts if t["rows"][i]["kernel"] is not None]
            ms = sorted({fmt(t["rows"][i]["model"]) for t in ts})
            c = cal_rows.get((r["scope"], r["metric"]), {})
            verdicts = []
            for kind, lo, hi in (("exact", r["model"], r["model"]),
                                 ("calibrated", c.get("model_lo"), c.get("model_hi"))):
                if ks and lo is not None:
                    ok = overlap(min(ks), max(ks), lo, hi)
                    count[kind][0] += ok
                    count[kind][1] += 1
                    verdicts.append("yes" if ok else "no")
                else:
                    verdicts.append("-")
            if ks:
                cells = [f"{statistics.mean(ks):.3f}", f"{statistics.pstdev(ks):.3f}",
                         f"{min(ks):.3f}..{max(ks):.3f}"]
            else:
                cells = ["-"] * 3
            cells += ["/".join(ms), fmt(c.get("model_median")),
                      f"{fmt(c.get('model_lo'))}..{fmt(c.get('model_hi'))}", " / ".join(verdicts)]
            if md:
                print(f"| {r['scope']} | {r['metric']} | " + " | ".join(cells) + " |")
            else:
                print(f"  {r['scope']:<20} {r['metric']:<34} " + " ".join(f"{x:>13}" for x in cells))
        for kind in count:
            total[kind][0] += count[kind][0]
            total[kind][1] += count[kind][1]
        print(f"\nrows within the kernel's range: exact {count['exact'][0]}/{count['exact'][1]}, "
              f"calibrated {count['calibrated'][0]}/{count['calibrated'][1]}")
    print(f"\nall scenarios, rows within the kernel's range: exact {total['exact'][0]}/{total['exact'][1]}, "
          f"calibrated ({profile}, {seeds} seeds) {total['calibrated'][0]}/{total['calibrated'][1]}")


if __name__ == "__main__":
    main()
