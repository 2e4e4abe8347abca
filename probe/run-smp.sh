#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Repeated runs of the multi-CPU scenarios (docs/kernel-probe.md, "Several
# CPUs"), round-robin so that the shared machine's load spreads over all of
# them. Each run leaves the probe's JSON (NAME-I.json) and the table beside
# the model at the time (NAME-I.txt, NAME-I.table.json). SCENARIOS (the
# environment) may name a subset; by default every scenario of the probe.
# usage: run-smp.sh EEVDF OUTDIR [REPS [DURATION]]   (EEVDF_PROBE may name the probe)
set -eu
eevdf=${1:?usage: run-smp.sh EEVDF OUTDIR [REPS [DURATION]]}
out=${2:?usage: run-smp.sh EEVDF OUTDIR [REPS [DURATION]]}
reps=${3:-6}
duration=${4:-3s}
scenarios=${SCENARIOS:-2hogs 3hogs 4hogs hog-sleeper pingpong 2hogs-2sleepers sleeper pipe-pingpong forks nice-mix idle-hog slice-hogs slice-sleeper 8-periodic}
mkdir -p "$out"
i=1
while [ "$i" -le "$reps" ]; do
	for s in $scenarios; do
		echo "== $s $i: $eevdf probe --scenario $s --duration $duration" >&2
		"$eevdf" probe --scenario "$s" --duration "$duration" --json-out "$out/$s-$i.json" \
			--table-json "$out/$s-$i.table.json" >"$out/$s-$i.txt"
	done
	i=$((i + 1))
done
echo "results in $out; summary: probe/smp-summarize.py $eevdf $out [--markdown]" >&2
