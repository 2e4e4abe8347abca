#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest label `kernel`: task groups on the running kernel beside the model
# (issue 36). CPU hogs in cpu cgroups of given cpu.shares, all pinned to
# CPU 1 for 2 s (probe/run-groups.py; the groups are made under a directory
# of the probe's own and removed), against `eevdf sim` on the same groups
# below one parent group of weight 1024 (the probe's directory). Each hog's
# share of the hogs' CPU time must be the model's within 0.01: one hog in A
# against three in B at equal weight (1/2 and 1/6 each), and at 2:1 (2/3
# and 1/9 each); and one hog in an idle A (cpu.idle 1: weight 3) against
# one in B (3/1027 = 0.003 and the rest). Shares between the probe's groups do not depend on foreign
# load on the CPU (it competes with the probe's parent group as a whole),
# but its preemptions blur them: a disagreement while foreign tasks took
# more than 5 % of CPU 1 is measured again (probe/kernel_shares.sh). Skips
# (77) without root, CPU 1 or the cgroup v1 cpu controller (or when the
# probe cannot make its groups), or when three measurements in a row were
# busy.
# Usage: kernel_groups_test.sh EEVDF
set -u
eevdf=$1
here=$(dirname "$0")
. "$here/kernel_test_skip.sh"
. "$here/kernel_shares.sh"
[ -w /sys/fs/cgroup/cpu/cpu.shares ] || { echo "skip: needs the cgroup v1 cpu controller at /sys/fs/cgroup/cpu"; exit 77; }
grep -q '^[0-9]*:cpu:/$' /proc/self/cgroup 2>/dev/null || grep -q ':cpu,cpuacct:/$' /proc/self/cgroup 2>/dev/null ||
	{ echo "skip: this process is not in the root cpu cgroup"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
for spec in "1024 1 1024 3" "2048 1 1024 3" "idle 1 1024 1"; do
	set -- $spec
	a='{"shares": '$1'}'
	[ "$1" = idle ] && a='{"idle": 1}'
	cat >"$dir/w.json" <<W
{"global": {"duration": 2},
 "groups": {"/P": {"shares": 1024}, "/P/A": $a, "/P/B": {"shares": $3}},
 "tasks": {"a": {"instance": $2, "taskgroup": "/P/A", "run": -1}, "b": {"instance": $4, "taskgroup": "/P/B", "run": -1}}}
W
	"$eevdf" sim "$dir/w.json" --kernel "$(uname -r)" --hz 250 --json >"$dir/m.json" 2>/dev/null ||
		"$eevdf" sim "$dir/w.json" --kernel 6.18.39 --hz 250 --json >"$dir/m.json" || { echo "FAIL: the model refused"; exit 1; }
	kernel_shares_measure "$dir" "shares A:B $spec" \
		python3 "$here/run-groups.py" --cpu 1 --seconds 2 --runs 1 "A:$1:$2" "B:$3:$4" || fail=1
done
exit $fail
