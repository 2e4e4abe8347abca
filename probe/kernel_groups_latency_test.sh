#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest label `kernel`: wake-up waits inside task groups on the running
# kernel beside the model (issue 36; docs/kernel-probe.md "Wake-up waits
# inside groups", findings F21). probe/run-groups-latency.py runs a
# periodic task (1 ms every 10 ms, an absolute timer) beside two CPU hogs,
# all pinned to CPU 1 for 3 s, first with the task in group A and the hogs
# in group B (equal cpu.shares), then all three in one group; its wait per
# activation is its schedstat run_delay over its 300 periods. The model
# runs the same files (probe/results/groups-latency-20261207/model-*.json)
# with --kernel 6.18.39 --cpus 2 --hz 250, exact and calibrated
# (vm-6.18.44-hz250, seeds 1-3, their median). Checked:
#  - flat: the kernel's wait lies between the calibrated and the exact
#    model's, widened by 15 % each way (measured 1731-2049 us against 1765-1804
#    calibrated and 2000 exact);
#  - grouped: on the kernel and in the model (exact and calibrated) the
#    wait is below 0.6 of the flat wait: the task's own group entity is
#    picked against B's entity, not queued behind two hogs (measured: kernel
#    13-969 us, bimodal with the timer's phase against the tick, F21; model
#    750 exact, 725-733 calibrated).
# A measurement is busy when the three threads got less than 95 % of CPU 1
# in either layout; a disagreement on a busy one is measured again, and
# three busy ones in a row skip (77), as do no root, CPU 1 or cgroup v1.
# Usage: kernel_groups_latency_test.sh EEVDF
set -u
eevdf=$1
here=$(dirname "$0")
. "$here/kernel_test_skip.sh"
[ -w /sys/fs/cgroup/cpu/cpu.shares ] || { echo "skip: needs the cgroup v1 cpu controller at /sys/fs/cgroup/cpu"; exit 77; }
grep -q '^[0-9]*:cpu:/$' /proc/self/cgroup 2>/dev/null || grep -q ':cpu,cpuacct:/$' /proc/self/cgroup 2>/dev/null ||
	{ echo "skip: this process is not in the root cpu cgroup"; exit 77; }
data="$here/results/groups-latency-20261207"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for layout in flat groups; do
	"$eevdf" sim "$data/model-$layout.json" --cpus 2 --hz 250 --kernel 6.18.39 --json >"$dir/m-$layout-exact.json" ||
		{ echo "FAIL: the model refused $layout"; exit 1; }
	for seed in 1 2 3; do
		"$eevdf" sim "$data/model-$layout.json" --cpus 2 --hz 250 --kernel 6.18.39 \
			--profile vm-6.18.44-hz250 --seed $seed --json >"$dir/m-$layout-$seed.json" ||
			{ echo "FAIL: the model refused $layout (seed $seed)"; exit 1; }
	done
done
for attempt in 1 2 3; do
	timeout 30 python3 "$here/run-groups-latency.py" --cpu 1 --seconds 3 --runs 1 >"$dir/k.json"
	rc=$?
	# PermissionError and friends exit 1 before any measurement; a probe that
	# ran and then broke (a traceback after its output began) is a failure.
	[ $rc -eq 0 ] || [ -s "$dir/k.json" ] || { echo "skip: the probe could not run here (exit $rc)"; exit 77; }
	[ $rc -eq 0 ] || { echo "FAIL: the probe broke mid-run (exit $rc)"; exit 1; }
	python3 - "$dir" <<'PY'
import json, os, statistics, sys
d = sys.argv[1]
k = json.load(open(os.path.join(d, "k.json")))
run = k["runs"][0]
periods = k["activations"] if "activations" in k else run["groups"]["periodic"]["activations"]

def kernel(layout):
    r = run[layout]
    return r["periodic"]["run_delay_ns"] / r["periodic"]["activations"] / 1000

def busy(layout):
    r = run[layout]
    used = r["periodic"]["cpu_ns"] + sum(r["hogs_cpu_ns"])
    return used / (k["seconds"] * 1e9) < 0.95

def model(layout, which):
    m = json.load(open(os.path.join(d, f"m-{layout}-{which}.json")))
    p = next(t for t in m["tasks"] if t["name"] == "p")
    return p["run_delay_ns"] / periods / 1000

kf, kg = kernel("flat"), kernel("groups")
ef, eg = model("flat", "exact"), model("groups", "exact")
cf = statistics.median(model("flat", s) for s in (1, 2, 3))
cg = statistics.median(model("groups", s) for s in (1, 2, 3))
checks = [
    ("flat wait: kernel between the calibrated and exact model, +-15 %",
     0.85 * min(cf, ef) <= kf <= 1.15 * max(cf, ef)),
    ("grouped wait below 0.6 of flat: kernel", kg < 0.6 * kf),
    ("grouped wait below 0.6 of flat: model exact", eg < 0.6 * ef),
    ("grouped wait below 0.6 of flat: model calibrated", cg < 0.6 * cf),
]
print(f"wait per activation (us): kernel flat {kf:.0f} groups {kg:.0f} "
      f"({'low' if kg < 300 else 'high'} mode, F21); model exact flat {ef:.0f} groups {eg:.0f}; "
      f"calibrated flat {cf:.0f} groups {cg:.0f}; kernel {k['kernel']}, load {k['loadavg_at_end']}")
ok = True
for name, good in checks:
    print(("ok  " if good else "FAIL"), name)
    ok &= good
is_busy = busy("flat") or busy("groups")
if not ok and is_busy:
    print("BUSY: foreign tasks took more than 5 % of CPU 1 during this measurement")
sys.exit(0 if ok else (3 if is_busy else 1))
PY
	rc=$?
	[ $rc -ne 3 ] && exit $rc
done
echo "skip: in all three measurements foreign tasks took more than 5 % of CPU 1 (a busy machine)"
exit 77
