#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest label `kernel`: autogroup on the running kernel beside the model
# (issue 36). CPU hogs in sessions of their own (setsid(): one autogroup
# each, no cgroup made), pinned to CPU 1 for 2 s (probe/run-autogroup.py),
# against `eevdf sim --autogroup on` on the same sessions (hog "a" leads a
# session, the "b" hogs stay in the workload's). Each hog's share of the
# hogs' CPU time must be the model's within 0.01: one hog against three at
# equal autogroup nice (1/2 and 1/6 each), and one hog at autogroup nice 5
# against one at 0 (335 : 1024). Skips (77) without root or CPU 1, with
# autogroup off, outside the root cpu cgroup, or when foreign tasks took
# more than 5 % of CPU 1 in the window (the machine is busy).
# Usage: kernel_autogroup_test.sh EEVDF
set -u
eevdf=$1
here=$(dirname "$0")
. "$here/kernel_test_skip.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
for spec in "0 3" "5 1"; do
	set -- $spec
	timeout 60 python3 "$here/run-autogroup.py" --cpu 1 --seconds 2 --runs 1 "A:1:$1" "B:$2" >"$dir/k.json"
	rc=$?
	[ $rc -eq 77 ] && exit 77  # the reason is on stderr
	[ $rc -eq 75 ] && { echo "skip: CPU 1 is busy (foreign tasks took more than 5 % of it)"; exit 77; }
	[ $rc -ne 0 ] && { echo "skip: the probe could not run here (exit $rc)"; exit 77; }
	cat >"$dir/w.json" <<W
{"global": {"duration": 2},
 "tasks": {"a": {"setsid": true, "autogroup_nice": $1, "run": -1}, "b": {"instance": $2, "run": -1}}}
W
	"$eevdf" sim "$dir/w.json" --kernel "$(uname -r)" --hz 250 --autogroup on --json >"$dir/m.json" 2>/dev/null ||
		"$eevdf" sim "$dir/w.json" --kernel 6.18.39 --hz 250 --autogroup on --json >"$dir/m.json" ||
		{ echo "FAIL: the model refused"; exit 1; }
	python3 - "$dir/k.json" "$dir/m.json" "$spec" <<'PY' || fail=1
import json, sys
k = json.load(open(sys.argv[1])); m = json.load(open(sys.argv[2]))
run = k["runs"][0]["cpu_ns"]
ktot = sum(sum(v) for v in run.values())
kshares = [x / ktot for v in (run["A"], run["B"]) for x in v]
mtot = sum(t["cpu_ns"] for t in m["tasks"])
mshares = [t["cpu_ns"] / mtot for t in m["tasks"]]
ok = len(kshares) == len(mshares) and all(abs(a - b) <= 0.01 for a, b in zip(kshares, mshares))
print(("ok" if ok else "FAIL"), "autogroup nice of A, B hogs:", sys.argv[3], "kernel", [round(x, 4) for x in kshares],
      "model", [round(x, 4) for x in mshares], k["runs"][0]["autogroups"])
sys.exit(0 if ok else 1)
PY
done
exit $fail
