#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run the measurement matrix of docs/kernel-probe.md (about 75 s of CPU-bound
# work on one CPU).  usage: run-matrix.sh PROBE_BINARY [OUTDIR]
# Environment: CPU (default 1), ISOLATE=0 to run without --isolate.
set -eu
probe=${1:?usage: run-matrix.sh PROBE_BINARY [OUTDIR]}
out=${2:-/tmp/eevdf-probe-results}
cpu=${CPU:-1}
iso=--isolate
[ "${ISOLATE:-1}" = 0 ] && iso=
mkdir -p "$out"
run() {
	name=$1
	shift
	echo "== $name: $probe $*" >&2
	"$probe" "$@" $iso --json-out "$out/$name.json" >"$out/$name.txt"
}
for s in 1 2 3 4 6 8 12 16 32; do
	run "slice-$s" --hogs 4 --slice "${s}ms" --duration 5s --cpu "$cpu"
done
run slice-default --hogs 4 --slice default --duration 5s --cpu "$cpu"
run waker --hogs 3 --slice 3ms --duration 5s --cpu "$cpu" --waker 10000:1000
run waker-default-slice --hogs 3 --slice 3ms --duration 5s --cpu "$cpu" \
	--waker 10000:1000 --waker-slice default
echo "results in $out" >&2
