#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Re-checks every exported obligation (SMT-LIB2) with cvc5 and (if
# installed) the z3 binary; fails if a solver disagrees with the in-process
# verdict. A solver timeout is reported, not a disagreement.
#   recheck_smt2.sh EEVDF_PROVE [TIMEOUT_S [DIR]]
# DIR: re-check DIR/verdicts.tsv, exported by an earlier --smt2 DIR run;
# otherwise export to a temporary directory first. Solver runs go
# $RECHECK_JOBS (default: the number of CPUs) at a time.
set -euo pipefail
prove=$1
limit=${2:-30}
out=$(mktemp -d)
tmp=""
trap 'rm -rf "$out" $tmp' EXIT
if [ -n "${3:-}" ] && [ -f "$3/verdicts.tsv" ]; then
	dir=$3
else
	dir=$(mktemp -d)
	tmp=$dir
	"$prove" --smt2 "$dir" --no-replay >"$dir/prove.out" || { cat "$dir/prove.out"; exit 1; }
fi
jobs=${RECHECK_JOBS:-$(nproc)}

# check FILE WANT SOLVER: one line of verdict in $out/FILE.SOLVER; exit 1 on disagreement
check() {
	local file=$1 want=$2 solver=$3 got
	if ! command -v "$solver" >/dev/null; then
		echo "$file: $solver not installed, skipped"
		return 0
	fi
	if [ "$solver" = cvc5 ]; then
		got=$(timeout $((limit + 5)) cvc5 --tlimit=$((limit * 1000)) "$dir/$file" 2>&1 | head -1 || true)
	elif head -1 "$dir/$file" | grep -q QF_NIA; then
		# the in-process strategy: sum-of-monomials normal form, then the SMT core
		sed 's/^(check-sat)$/(check-sat-using (then (using-params simplify :som true) smt))/' "$dir/$file" >"$out/z3-$file"
		got=$(timeout $((limit + 5)) z3 -T:"$limit" "$out/z3-$file" 2>&1 | head -1 || true)
	else
		got=$(timeout $((limit + 5)) z3 -T:"$limit" "$dir/$file" 2>&1 | head -1 || true)
	fi
	case "$got" in
	sat | unsat)
		if [ "$got" != "$want" ]; then
			echo "$file: $solver says $got, in-process verdict $want: DISAGREE"
			return 1
		fi
		echo "$file: $solver $got (agrees)" ;;
	unknown | timeout | "" | *interrupted*) echo "$file: $solver gave no verdict within ${limit}s (not a disagreement)" ;;
	*)
		echo "$file: $solver failed: $got"
		return 1 ;;
	esac
}
export -f check
export dir out limit

fail=0
while IFS=$'\t' read -r file want; do
	for solver in cvc5 z3; do
		printf '%s\t%s\t%s\n' "$file" "$want" "$solver"
	done
done <"$dir/verdicts.tsv" |
	xargs -P "$jobs" -L 1 bash -c 'check "$0" "$1" "$2" >"$out/$0.$2" || touch "$out/$0.$2.failed"'
cat "$out"/*.cvc5 "$out"/*.z3 2>/dev/null | sort
if compgen -G "$out/*.failed" >/dev/null; then
	fail=1
fi
exit $fail
