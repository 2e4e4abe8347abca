#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Real schbench on the running kernel, with and without stress-ng, with the
# default slice and custom slices below and above the tick (set on all of
# schbench's threads by with-slice.py). Round-robin over the rows so that
# the shared machine's load spreads over them; each run leaves schbench's
# JSON (-j) and the load average before it.
# usage: run-schbench.sh SCHBENCH OUTDIR [REPS [RUNTIME_S]]
set -eu
# As eevdf-probe --isolate: a session of its own, so one autogroup for
# schbench and stress-ng alike, at autogroup nice -20, so that other users'
# work on this shared machine (other autogroups) takes little of the CPUs.
# ISOLATE=0 runs in the caller's autogroup.
if [ "${ISOLATE:-1}" = 1 ] && [ -z "${EEVDF_SCHBENCH_ISOLATED:-}" ]; then
	EEVDF_SCHBENCH_ISOLATED=1 exec setsid -w "$0" "$@"
fi
if [ -n "${EEVDF_SCHBENCH_ISOLATED:-}" ]; then
	echo -20 >/proc/self/autogroup || echo "run-schbench.sh: cannot set the autogroup's nice (not root?)" >&2
fi
sb=${1:?usage: run-schbench.sh SCHBENCH OUTDIR [REPS [RUNTIME_S]]}
out=${2:?usage: run-schbench.sh SCHBENCH OUTDIR [REPS [RUNTIME_S]]}
reps=${3:-3}
rt=${4:-10}
here=$(dirname "$0")
mkdir -p "$out"
i=1
while [ "$i" -le "$reps" ]; do
	# the op's CPU time: -C times the 5 operations alone (no sleep, no locks)
	"$sb" -C -m 1 -t 2 -r 3 -j "$out/calibrate-$i.json" >"$out/calibrate-$i.txt" 2>&1
	for st in 0 2; do
		for sl in 0 1000000 8000000; do
			name="stress$st-slice$sl-$i"
			{ cut -d' ' -f1-3 /proc/loadavg; cat /proc/self/autogroup; } >"$out/$name.load"
			spid=
			if [ "$st" -gt 0 ]; then
				stress-ng --cpu "$st" --timeout $((rt + 3))s --quiet &
				spid=$!
				sleep 1
			fi
			"$here/with-slice.py" "$sl" "$sb" -m 1 -t 2 -r "$rt" -j "$out/$name.json" >"$out/$name.txt" 2>&1
			[ -n "$spid" ] && { kill "$spid" 2>/dev/null || true; wait "$spid" 2>/dev/null || true; }
			echo "$name: $(grep -A3 'Wakeup' "$out/$name.txt" | tr -s ' \t' ' ' | tr '\n' ' ')" >&2
		done
	done
	i=$((i + 1))
done
