#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# `eevdf probe --scenario NAME --kernel-json FILE` on the saved probe runs of
# the issue-35 scenarios (tests/data/probe/scenario-*.json): each compares
# without a kernel, and --profile/--seeds turn the model column into a
# median with its 95 % interval over the seeds, reproducibly.
# Usage: probe_scenarios_test.sh EEVDF_BINARY TEST_DATA_DIR
set -u
eevdf=$1
data=$2/probe
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
pass=0

check() {  # check NAME COMMAND...: the command must succeed
	local name=$1; shift
	if "$@"; then pass=$((pass + 1)); else echo "FAIL: $name"; failures=$((failures + 1)); fi
}

for s in pipe-pingpong forks nice-mix idle-hog slice-hogs slice-sleeper 8-periodic; do
	"$eevdf" probe --scenario "$s" --kernel-json "$data/scenario-$s.json" >"$tmp/$s.txt" 2>"$tmp/$s.err"
	check "$s: compares from the saved JSON (exit $?: $(cat "$tmp/$s.err"))" grep -q "^scenario $s: " "$tmp/$s.txt"
	check "$s: the table has a share row" grep -q "| share  " "$tmp/$s.txt"
done

# Every row of the ensemble has median inside [lo, hi] and says whether the
# kernel's value is within; the count printed is the JSON's.
f="$data/scenario-8-periodic.json"
"$eevdf" probe --scenario 8-periodic --kernel-json "$f" --profile vm-6.18.44-hz250 --seeds 6 \
	--table-json "$tmp/a.json" >"$tmp/a.txt"
check "--seeds: exit 0" [ $? -eq 0 ]
w=$(python3 - "$tmp/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ok = d["profile"] == "vm-6.18.44-hz250" and d["seeds"] == 6
n = k = 0
for r in d["rows"]:
    if r["model_median"] is not None:
        ok = ok and r["model_lo"] <= r["model_median"] <= r["model_hi"] and r["model_seeds"] == 6
    if r["within"] is not None:
        n += 1
        k += r["within"]
        ok = ok and r["within"] == (r["model_lo"] <= r["kernel"] <= r["model_hi"])
ok = ok and (k, n) == (d["rows_within"], d["rows_compared"])
print("ok" if ok else "bad", k, n)
PY
)
check "--seeds: lo <= median <= hi, within = kernel in [lo, hi] (got $w)" [ "${w%% *}" = "ok" ]
check "--seeds: the summary line counts the JSON's rows" grep -q "^rows within: ${w#ok }" <(sed 's#/# #' "$tmp/a.txt")
"$eevdf" probe --scenario 8-periodic --kernel-json "$f" --profile vm-6.18.44-hz250 --seeds 6 \
	--table-json "$tmp/b.json" >"$tmp/b.txt"
check "--seeds: the same seeds give the same bytes" cmp -s "$tmp/a.txt" "$tmp/b.txt"
check "--seeds: the same seeds give the same table JSON" cmp -s "$tmp/a.json" "$tmp/b.json"

# The calibrated profile breaks the exact model's perfect rotation: its
# seeds differ, so some row's interval has width.
w=$(python3 -c 'import json,sys; print(any(r["model_lo"] is not None and r["model_lo"] < r["model_hi"] for r in json.load(open(sys.argv[1]))["rows"]))' "$tmp/a.json")
check "--profile vm-6.18.44-hz250: the seeds differ (got $w)" [ "$w" = "True" ]

# The exact profile with one seed is the plain comparison's model column.
"$eevdf" probe --scenario nice-mix --kernel-json "$data/scenario-nice-mix.json" --table-json "$tmp/plain.json" >/dev/null
"$eevdf" probe --scenario nice-mix --kernel-json "$data/scenario-nice-mix.json" --profile exact --seeds 1 \
	--table-json "$tmp/exact.json" >/dev/null
w=$(python3 - "$tmp/plain.json" "$tmp/exact.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["rows"]
e = json.load(open(sys.argv[2]))["rows"]
print(len(p) == len(e) and all(a["model"] == b["model_median"] == b["model_lo"] == b["model_hi"] for a, b in zip(p, e)))
PY
)
check "--profile exact --seeds 1: the plain model column, a zero-width interval (got $w)" [ "$w" = "True" ]

"$eevdf" probe --scenario nice-mix --kernel-json "$data/scenario-nice-mix.json" --seeds 0 >/dev/null 2>"$tmp/err"
rc=$?
check "--seeds 0: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "--seeds 0: says the range" grep -q -- "--seeds: 0 is not 1..10000" "$tmp/err"
"$eevdf" probe --scenario nice-mix --kernel-json "$data/scenario-nice-mix.json" --profile "$tmp/missing.json" \
	>/dev/null 2>"$tmp/err"
rc=$?
check "--profile missing file: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "--profile missing file: names the flag" grep -q -- "--profile" "$tmp/err"

echo "$pass passed, $failures failed"
[ "$failures" -eq 0 ]
