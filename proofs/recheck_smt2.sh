#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Exports every default obligation as SMT-LIB2 and re-checks each file with
# cvc5 and (if installed) the z3 binary; fails if a solver disagrees with
# the in-process verdict. A solver timeout is reported, not a disagreement.
#   recheck_smt2.sh EEVDF_PROVE [TIMEOUT_S]
set -euo pipefail
#   recheck_smt2.sh EEVDF_PROVE TIMEOUT_S DIR   (re-checks DIR, exported by an earlier --smt2 DIR run)
prove=$1
limit=${2:-30}
if [ -n "${3:-}" ] && [ -f "$3/verdicts.tsv" ]; then
	dir=$3
else
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
	"$prove" --smt2 "$dir" --no-replay >"$dir/prove.out" || { cat "$dir/prove.out"; exit 1; }
fi
fail=0
while IFS=$'\t' read -r file want; do
	for solver in cvc5 z3; do
		command -v "$solver" >/dev/null || { echo "$file: $solver not installed, skipped"; continue; }
		if [ "$solver" = cvc5 ]; then
			got=$(timeout $((limit + 5)) cvc5 --tlimit=$((limit * 1000)) "$dir/$file" 2>&1 | head -1 || true)
		elif head -1 "$dir/$file" | grep -q QF_NIA; then
			# the in-process strategy: sum-of-monomials normal form, then the SMT core
			sed 's/^(check-sat)$/(check-sat-using (then (using-params simplify :som true) smt))/' "$dir/$file" >"$dir/z3-$file"
			got=$(timeout $((limit + 5)) z3 -T:"$limit" "$dir/z3-$file" 2>&1 | head -1 || true)
		else
			got=$(timeout $((limit + 5)) z3 -T:"$limit" "$dir/$file" 2>&1 | head -1 || true)
		fi
		case "$got" in
		sat | unsat)
			if [ "$got" != "$want" ]; then
				echo "$file: $solver says $got, in-process verdict $want: DISAGREE"
				fail=1
			else
				echo "$file: $solver $got (agrees)"
			fi ;;
		unknown | timeout | "" | *interrupted*) echo "$file: $solver gave no verdict within ${limit}s (not a disagreement)" ;;
		*) echo "$file: $solver failed: $got"; fail=1 ;;
		esac
	done
done <"$dir/verdicts.tsv"
exit $fail
