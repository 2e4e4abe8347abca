#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest label `kernel`: autogroup on the running kernel beside the model
# (issue 36). CPU hogs in sessions of their own (setsid(): one autogroup
# each, no cgroup made), pinned to CPU 1 for 2 s (probe/run-autogroup.py),
# against `eevdf sim --autogroup on` on the same sessions (hog "a" leads a
# session, the "b" hogs stay in the workload's). Each hog's share of the
# hogs' CPU time must be the model's within 0.01: one hog against three at
# equal autogroup nice (1/2 and 1/6 each), and one hog at autogroup nice 5
# against one at 0 (335 : 1024). A disagreement while foreign tasks took
# more than 5 % of CPU 1 in the window is measured again
# (probe/kernel_shares.sh). Skips (77) without root or CPU 1, with autogroup
# off, outside the root cpu cgroup, or when three measurements in a row
# were busy.
# Usage: kernel_autogroup_test.sh EEVDF
set -u
eevdf=$1
here=$(dirname "$0")
. "$here/kernel_test_skip.sh"
. "$here/kernel_shares.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
for spec in "0 3" "5 1"; do
	set -- $spec
	cat >"$dir/w.json" <<W
{"global": {"duration": 2},
 "tasks": {"a": {"setsid": true, "autogroup_nice": $1, "run": -1}, "b": {"instance": $2, "run": -1}}}
W
	"$eevdf" sim "$dir/w.json" --kernel "$(uname -r)" --hz 250 --autogroup on --json >"$dir/m.json" 2>/dev/null ||
		"$eevdf" sim "$dir/w.json" --kernel 6.18.39 --hz 250 --autogroup on --json >"$dir/m.json" ||
		{ echo "FAIL: the model refused"; exit 1; }
	kernel_shares_measure "$dir" "autogroup nice of A, B hogs: $spec" \
		python3 "$here/run-autogroup.py" --cpu 1 --seconds 2 --runs 1 "A:1:$1" "B:$2" || fail=1
done
exit $fail
