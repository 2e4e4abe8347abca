#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest label `kernel`: unequal weights on the running kernel beside the
# model. Two hogs at nice -10 and 0 with a 3 ms custom slice on CPU 1 for
# 2 s. The heavy hog is re-picked for several requests in a row (the
# run_weighted obligation bounds it; docs/proofs.md): its p99 run (from
# sched_switch, merged across foreign interruptions) must be the model's
# within 5 %, and the nice-0 hog's median run too. Skips (77) where the
# kernel or permissions do not allow the measurement.
# Usage: kernel_weighted_test.sh EEVDF_PROBE EEVDF
set -u
probe=$1
eevdf=$2
. "$(dirname "$0")/kernel_test_skip.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if ! timeout 30 "$probe" --hogs 2 --nices -10,0 --slice 3ms --duration 2s --cpu 1 --isolate --json >"$dir/k.json" 2>/dev/null; then
	echo "skip: the probe could not measure here (exit $?)"
	exit 77
fi
cat >"$dir/w.json" <<'W'
{"global": {"duration": 10, "default_policy": "SCHED_OTHER"},
 "tasks": {"heavy": {"priority": -10, "dl-runtime": 3000, "loop": -1, "run": 1000000},
           "light": {"priority": 0, "dl-runtime": 3000, "loop": -1, "run": 1000000}}}
W
python3 - "$dir/k.json" "$eevdf" "$dir/w.json" <<'PY'
import json, subprocess, sys
k = json.load(open(sys.argv[1]))
if not k["config"].get("traced"):
    print("skip: no sched_switch tracing here"); sys.exit(77)
hz, cpus = k["kernel"]["hz"], k["kernel"]["cpus_online"]
hogs = [t for t in k["tasks"] if t["role"] == "hog"]
if [t["nice"] for t in hogs] != [-10, 0]:
    print("the probe did not report the nice levels it was given"); sys.exit(1)
m = json.loads(subprocess.check_output([sys.argv[2], "sim", sys.argv[3], "--hz", str(hz), "--cpus", str(cpus), "--json"]))
model = {t["name"]: t["run_ns"] for t in m["tasks"]}
ok = True
for (name, field), t in zip([("heavy", "p99"), ("light", "p50")], hogs):
    kern = t["trace_runs_merged"].get(field + "_ns")
    mod = model[name][field]
    if kern is None:
        print(f"nice {t['nice']}: no whole run on the kernel"); ok = False; continue
    err = abs(kern - mod) / mod
    print(f"nice {t['nice']:>3}: {field} run kernel {kern/1e6:.3f} ms, model {mod/1e6:.3f} ms, {100*err:.1f} % apart")
    ok = ok and err <= 0.05
print(f"kernel {k['kernel']['release']} HZ={hz}")
sys.exit(0 if ok else 1)
PY
