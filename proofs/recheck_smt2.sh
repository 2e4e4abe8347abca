#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Re-checks every exported obligation (SMT-LIB2) with cvc5 and (if
# installed) the z3 binary; fails if a solver disagrees with the in-process
# verdict, or gives none within the limit for a file whose obligation has no
# recheck_note saying why (measured).
#   recheck_smt2.sh EEVDF_PROVE [TIMEOUT_S [DIR]]
# DIR: re-check DIR/verdicts.tsv, exported by an earlier --smt2 DIR run;
# otherwise export to a temporary directory first. Solver runs go
# $RECHECK_JOBS (default: the number of CPUs) at a time.
set -euo pipefail
prove=$1
limit=${2:-10}
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

# check FILE WANT SOLVER [NOTE]: one line of verdict in $out/FILE.SOLVER; exit 1 on disagreement
check() {
	local file=$1 want=$2 solver=$3 note=${4:-} got
	if ! command -v "$solver" >/dev/null; then
		echo "$file: $solver not installed, skipped"
		return 0
	fi
	if [ "$solver" = cvc5 ]; then
		got=$(timeout $((limit + 5)) cvc5 --tlimit=$((limit * 1000)) "$dir/$file" 2>&1 | head -1 || true)
	elif tactic=$(sed -n 's/^; z3-tactic: //p' "$dir/$file") && [ -n "$tactic" ]; then
		# the in-process strategy, which the export names (e.g. the
		# sum-of-monomials normal form before the SMT core for QF_NIA)
		sed "s/^(check-sat)\$/(check-sat-using $tactic)/" "$dir/$file" >"$out/z3-$file"
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
	unknown | timeout | "" | *interrupted*)
		if [ -n "$note" ]; then
			echo "$file: $solver gave no verdict within ${limit}s, as measured: $note"
		elif [ -z "${RECHECK_RETRY:-}" ] && RECHECK_RETRY=1 limit=$((limit * 6)) check "$file" "$want" "$solver" >"$out/$file.$solver.retry"; then
			# A busy machine (a shared VM, a parallel build) can stretch a
			# 2 s file past the limit: a verdict that agrees within 6x the
			# limit is reported, not failed; a disagreement still fails.
			echo "$file: $solver gave no verdict within ${limit}s but agrees within $((limit * 6))s" \
				"(load average $(cut -d' ' -f1 /proc/loadavg)): $(cat "$out/$file.$solver.retry")"
		else
			echo "$file: $solver gave no verdict within ${limit}s (not a disagreement, but no note says why: FAIL)"
			return 1
		fi ;;
	*)
		echo "$file: $solver failed: $got"
		return 1 ;;
	esac
}
export -f check
export dir out limit

fail=0
while IFS=$'\t' read -r file want note; do
	for solver in cvc5 z3; do
		printf '%s\t%s\t%s\t%s\n' "$file" "$want" "$solver" "$note"
	done
done <"$dir/verdicts.tsv" |
	while IFS=$'\t' read -r file want solver note; do
		printf '%s\0%s\0%s\0%s\0' "$file" "$want" "$solver" "$note"
	done |
	xargs -0 -n 4 -P "$jobs" bash -c 'check "$0" "$1" "$2" "$3" >"$out/$0.$2" || touch "$out/$0.$2.failed"'
cat "$out"/*.cvc5 "$out"/*.z3 2>/dev/null | sort
if compgen -G "$out/*.failed" >/dev/null; then
	fail=1
fi
exit $fail
