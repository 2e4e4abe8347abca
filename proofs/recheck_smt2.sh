#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Exports every default obligation as SMT-LIB2 and re-checks each file with
# cvc5 and (if installed) the z3 binary; fails if a solver disagrees with
# the in-process verdict. A solver timeout is reported, not a disagreement.
#   recheck_smt2.sh EEVDF_PROVE [TIMEOUT_S]
set -euo pipefail
prove=$1
limit=${2:-30}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$prove" --smt2 "$dir" --no-replay >"$dir/prove.out" || { cat "$dir/prove.out"; exit 1; }
fail=0
while IFS=$'\t' read -r file want; do
	for solver in cvc5 z3; do
		command -v "$solver" >/dev/null || { echo "$file: $solver not installed, skipped"; continue; }
		if [ "$solver" = cvc5 ]; then
			got=$(timeout $((limit + 5)) cvc5 --tlimit=$((limit * 1000)) "$dir/$file" 2>&1 | head -1 || true)
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
		unknown | timeout | "") echo "$file: $solver gave no verdict within ${limit}s (not a disagreement)" ;;
		*) echo "$file: $solver failed: $got"; fail=1 ;;
		esac
	done
done <"$dir/verdicts.tsv"
exit $fail
