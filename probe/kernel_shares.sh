# SPDX-License-Identifier: GPL-2.0-only
# Sourced by kernel_groups_test.sh and kernel_autogroup_test.sh: each hog's
# share of the hogs' CPU time on the kernel against the model's, and the
# busy test. A measurement is busy when the hogs, pinned to one CPU, got
# less than 95 % of its time over the window: foreign tasks ran there
# (run-autogroup.py's window_ns; run-groups.py's nominal --seconds, which
# the window only exceeds, so that errs towards "quiet").

# kernel_shares_compare K M LABEL: K is the probe's JSON (one run), M
# `eevdf sim --json`'s. Prints ok or FAIL with both share lists; returns 0
# when every hog's share is the model's within 0.01, 1 when not, 3 when not
# on a busy measurement.
kernel_shares_compare() {
	python3 - "$@" <<'PY'
import json, sys
k = json.load(open(sys.argv[1])); m = json.load(open(sys.argv[2]))
run = k["runs"][0]
cpu = run.get("cpu_ns", run)  # run-autogroup.py nests it; run-groups.py does not
ktot = sum(sum(v) for v in cpu.values())
kshares = [x / ktot for v in (cpu["A"], cpu["B"]) for x in v]
mtot = sum(t["cpu_ns"] for t in m["tasks"])
mshares = [t["cpu_ns"] / mtot for t in m["tasks"]]
ok = len(kshares) == len(mshares) and all(abs(a - b) <= 0.01 for a, b in zip(kshares, mshares))
window = run.get("window_ns", k["seconds"] * 1e9)
busy = ktot / window < 0.95
print(("ok" if ok else "FAIL"), sys.argv[3], "kernel", [round(x, 4) for x in kshares],
      "model", [round(x, 4) for x in mshares], "hogs' share of the CPU", round(ktot / window, 4),
      run.get("autogroups", ""))
if not ok and busy:
    print("BUSY foreign tasks took more than 5 % of the CPU during this measurement")
sys.exit(0 if ok else (3 if busy else 1))
PY
}

# kernel_shares_measure DIR LABEL PROBE...: runs PROBE (writing DIR/k.json)
# and compares it with DIR/m.json, up to three times while the disagreement
# is on a busy measurement. Returns 0 on agreement, 1 on a quiet
# disagreement; exits 77 when PROBE cannot run here (its exit 77, its
# reason on stderr, or any other failure) or when all three were busy.
# PROBE's exit 75 (run-autogroup.py: its run was busy) is a measurement.
kernel_shares_measure() {
	local dir=$1 label=$2 attempt rc
	shift 2
	for attempt in 1 2 3; do
		timeout 60 "$@" >"$dir/k.json"
		rc=$?
		[ $rc -eq 77 ] && exit 77
		[ $rc -ne 0 ] && [ $rc -ne 75 ] && { echo "skip: the probe could not run here (exit $rc)"; exit 77; }
		kernel_shares_compare "$dir/k.json" "$dir/m.json" "$label"
		rc=$?
		[ $rc -ne 3 ] && return $rc
	done
	echo "skip: $label: in all three measurements foreign tasks took more than 5 % of the CPU (a busy machine)"
	exit 77
}
