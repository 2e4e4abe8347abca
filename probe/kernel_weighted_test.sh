#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest label `kernel`: unequal weights on the running kernel beside the
# model. Two hogs at nice -10 and 0 with a 3 ms custom slice on CPU 1 for
# 2 s. The heavy hog is re-picked for several requests in a row (the
# run_weighted obligation bounds it; docs/proofs.md): the median run of each
# hog (from sched_switch, merged across foreign interruptions) must be the
# model's within 5 %, and the heavy hog's p90 run must reach the model's
# (the 10-tick runs happen). Skips (77) where the kernel or permissions do
# not allow the measurement.
# The heavy hog's p99 is printed, not asserted: on 6.18.44-fc-v1045 it is
# 44-84 ms against the model's 40 ms in about half of the runs. Those are
# runs during which the host stole the CPU: clock_task leaves steal out
# (CONFIG_PARAVIRT_TIME_ACCOUNTING), so the heavy hog needs more wall-clock
# ticks to pass the light one (a CI run saw the median move from 9 to 10
# ticks, 3 times in a row). A measurement whose CPU lost more than 1 % of
# the window to steal (/proc/stat) is printed and not compared; the model
# simulates no steal (docs/kernel-probe.md, "Caveats"). Noise pulls the
# kernel away from the model, never onto it, so up to 3 measurements are
# made, each printed, and the test passes at the first that agrees; if all
# 3 had steal, it skips (77).
# Usage: kernel_weighted_test.sh EEVDF_PROBE EEVDF
set -u
probe=$1
eevdf=$2
. "$(dirname "$0")/kernel_test_skip.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
measure() {
if ! timeout 30 "$probe" --hogs 2 --nices -10,0 --slice 3ms --duration 2s --cpu 1 --isolate --json >"$dir/k.json" 2>/dev/null; then
	echo "skip: the probe could not measure here (exit $?)"
	exit 77
fi
}
cat >"$dir/w.json" <<'W'
{"global": {"duration": 10, "default_policy": "SCHED_OTHER"},
 "tasks": {"heavy": {"priority": -10, "dl-runtime": 3000, "loop": -1, "run": 1000000},
           "light": {"priority": 0, "dl-runtime": 3000, "loop": -1, "run": 1000000}}}
W
compare() {
python3 - "$dir/k.json" "$eevdf" "$dir/w.json" <<'PY'
import json, subprocess, sys
k = json.load(open(sys.argv[1]))
if not k["config"].get("traced"):
    print("skip: no sched_switch tracing here"); sys.exit(77)
hz, cpus = k["kernel"]["hz"], k["kernel"]["cpus_online"]
steal, window = k["noise"].get("steal_ns"), k["config"]["duration_ns"]
print(f"host steal on CPU {k['config']['cpu']}: " + ("unknown" if steal is None else f"{steal/1e6:.0f} ms"))
hogs = [t for t in k["tasks"] if t["role"] == "hog"]
if [t["nice"] for t in hogs] != [-10, 0]:
    print("the probe did not report the nice levels it was given"); sys.exit(1)
# both hogs are pinned to one CPU: one CPU simulated, the base slice of all online
m = json.loads(subprocess.check_output([sys.argv[2], "sim", sys.argv[3], "--hz", str(hz), "--cpus", "1", "--online-cpus", str(cpus),
                                        "--json"]))
model = {t["name"]: t["run_ns"] for t in m["tasks"]}
ok = True
def field_of(t, field):
    return t["trace_runs_merged"].get(field + "_ns")
for (name, field), t in zip([("heavy", "p50"), ("light", "p50")], hogs):
    kern, mod = field_of(t, field), model[name][field]
    if kern is None:
        print(f"nice {t['nice']}: no whole run on the kernel"); ok = False; continue
    err = abs(kern - mod) / mod
    print(f"nice {t['nice']:>3}: {field} run kernel {kern/1e6:.3f} ms, model {mod/1e6:.3f} ms, {100*err:.1f} % apart")
    ok = ok and err <= 0.05
p90 = field_of(hogs[0], "p90")
if p90 is not None:
    reach = p90 >= 0.95 * model["heavy"]["p90"]
    print(f"nice -10: p90 run kernel {p90/1e6:.3f} ms, model {model['heavy']['p90']/1e6:.3f} ms, "
          f"{'reaches' if reach else 'falls short of'} it")
    ok = ok and reach
p99 = field_of(hogs[0], "p99")
if p99 is not None:
    print(f"nice -10: p99 run kernel {p99/1e6:.3f} ms, model {model['heavy']['p99']/1e6:.3f} ms (not asserted)")
print(f"kernel {k['kernel']['release']} HZ={hz}")
if not ok and steal is not None and steal > window // 100:
    print("not comparable: the host stole more than 1 % of the window"); sys.exit(3)
sys.exit(0 if ok else 1)
PY
}
stolen=0
for attempt in 1 2 3; do
	echo "measurement $attempt:"
	measure
	compare
	rc=$?
	[ $rc -eq 3 ] && { stolen=$((stolen + 1)); continue; }
	[ $rc -eq 1 ] || exit $rc
done
if [ $stolen -eq 3 ]; then
	echo "skip: the host stole CPU time in all 3 measurements"
	exit 77
fi
echo "no steal-free measurement of 3 agreed with the model within 5 %"
exit 1
