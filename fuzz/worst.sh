#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# fuzz/worst.sh [--dir DIR] [--kernel VER] [+FLAG|-FLAG]...
# The worst lag, service error, wakeup latency and, on several CPUs, starved
# idle time and cross-CPU spread of service fuzz_worst has found over
# every flag combination matching the filters, in units of R = largest slice
# + TICK_NSEC (permille) and in ns, with the command that replays each:
#   fuzz/worst.sh -DELAY_DEQUEUE        "how bad can lag get with DELAY_DEQUEUE off?"
set -euo pipefail
dir=${EEVDF_WORST_DIR:-$(cd "$(dirname "$0")/.." && pwd)/build-libfuzzer/worst}
kernel="" filters=()
while (($#)); do
	case $1 in
	--dir) dir=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	*) filters+=("$1"); shift ;;
	esac
done
for metric in lag service latency starved xcpu; do
	best="" best_v=-1
	for txt in "$dir"/*/"$metric".txt; do
		[[ -f $txt ]] || continue
		feats=$(sed -n 's/^features //p' "$txt")
		[[ -z $kernel || $(sed -n 's/^kernel //p' "$txt") == "$kernel" ]] || continue
		ok=1
		for f in "${filters[@]}"; do [[ ",$feats," == *",$f,"* ]] || ok=0; done
		((ok)) || continue
		v=$(sed -n 's/^permille //p' "$txt")
		((v > best_v)) && best_v=$v best=$txt
	done
	if [[ -z $best ]]; then
		echo "$metric: nothing recorded for these filters in $dir"
		continue
	fi
	echo "$metric: $(awk '/^permille/{p=$2}/^value_ns/{v=$2}/^R_ns/{r=$2}END{printf "%.3f R = %d ns (R = %d ns)", p/1000, v, r}' "$best")"
	sed -n 's/^kernel /  kernel /p; s/^features /  features /p; s/^replay: /  replay: /p' "$best"
done
