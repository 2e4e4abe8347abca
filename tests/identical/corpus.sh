#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Writes the outputs of a few hundred eevdf commands into OUT_DIR, one file
# per command (its stdout, stderr, exit status and every file it wrote), so
# that two builds can be compared byte for byte:
#
#   tests/identical/corpus.sh OUT_A /path/to/old/eevdf
#   tests/identical/corpus.sh OUT_B build/cli/eevdf
#   diff -r OUT_A OUT_B        # or tests/identical/compare.sh OLD NEW
#
# A refactoring must leave every file identical (issue 34). The one thing
# normalised is the build's own identity (`git describe` in --json and in
# report headers), which names the commit and so differs by construction.
# The commands cover every subcommand, every preset, one and several CPUs,
# every output format, the realism knobs, bugs, claims, traces and the
# error paths; each runs for a short simulated time so the whole corpus
# takes about a minute.
set -u
out=$(mkdir -p "$1" && cd "$1" && pwd)
eevdf=$(command -v "$2") || { echo "corpus: $2: no such program" >&2; exit 2; }
eevdf=$(cd "$(dirname "$eevdf")" && pwd)/$(basename "$eevdf")
root=$(cd "$(dirname "$0")/../.." && pwd)
data=$root/tests/data
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0

# run NAME ARGS...: runs eevdf ARGS in an empty directory; records stdout,
# stderr, the exit status and the files the command created there.
run() {
	local name=$1; shift
	n=$((n + 1))
	local dir=$work/$name
	rm -rf "$dir"; mkdir -p "$dir"
	(cd "$dir" && timeout 120 "$eevdf" "$@" >"$work/.stdout" 2>"$work/.stderr"; echo "exit $?" >"$work/.rc")
	{
		echo "# eevdf $*"
		cat "$work/.rc"
		echo "## stdout"; cat "$work/.stdout"
		echo "## stderr"; cat "$work/.stderr"
		for f in $(cd "$dir" && find . -type f | LC_ALL=C sort); do
			echo "## file $f"; cat "$dir/$f"
		done
	} | sed -E -e "s|$eevdf|eevdf|g" -e "s|$work|<work>|g" -e "s|$root|<root>|g" -e 's/"git": ?"[^"]*"/"git":"<git>"/g' -e 's/\(git [^)]*\)/(git <git>)/g' \
		-e 's/eevdf [0-9]+\.[0-9]+\.[0-9]+ \([^)]*\)/eevdf <version>/g' >"$out/$name.txt"
	rm -rf "$dir"
}

presets=(6.6 6.12 6.15 6.18 6.18.2 6.18.5 6.18.17 6.18.33 6.18.39 7.1.5)
workloads=(
	"$data/rtapp/periodic_phases.json"
	"$data/rtapp/doc_tutorial4_pingpong.json"
	"$data/rtapp/doc_tutorial5_lock_across_run.json"
	"$data/rtapp/doc_condvar_producer_consumer.json"
	"$data/rtapp/doc_tutorial7_barrier.json"
	"$data/rtapp/custom_slice.json"
	"$data/rtapp/suspend_resume.json"
	"$root/claims/workloads/hog-then-second.json"
	"$root/claims/workloads/stress4-noise.json"
)

# ---- every preset: hogs, nice levels, custom slices, one and several CPUs
for k in "${presets[@]}"; do
	run "hogs-$k" sim --hogs 3 --kernel "$k" --hz 1000 --duration 200ms --json
	run "nice-$k" sim --hogs 3 --nice -5 --kernel "$k" --hz 250 --duration 300ms
	run "jitter-$k" sim --hogs 4 --kernel "$k" --hz 250 --tick-jitter 30us --switch-cost 3us --seed 7 \
		--duration 300ms --json
	for c in 2 4; do
		run "smp$c-$k" sim --hogs 5 --kernel "$k" --cpus "$c" --duration 300ms --json
	done
	for w in "${workloads[@]}"; do
		b=$(basename "$w" .json)
		run "wl-$b-$k" sim "$w" --kernel "$k" --duration 300ms --json
		run "wl-$b-$k-cpus3" sim "$w" --kernel "$k" --cpus 3 --llc 3 --ipi-latency 2us \
			--idle-exit-latency 20us --wakeup-irq-cost 1us --balance-cost 3us --duration 300ms --json
	done
done

# ---- features, bugs, preemption models, topology knobs
for f in -RUN_TO_PARITY -PLACE_LAG -DELAY_DEQUEUE -PREEMPT_SHORT +HRTICK -WAKEUP_PREEMPTION +NO_HZ_FULL \
	-TTWU_QUEUE -SIS_UTIL -WA_IDLE -UTIL_EST +TTWU_QUEUE_DELAYED; do
	run "feat$f" sim "$data/rtapp/periodic_phases.json" --cpus 2 --features "$f" --duration 300ms --json
done
for b in $("$eevdf" bugs 2>/dev/null | awk 'NR>1 && $1 ~ /^[a-z]/ {print $1}' | sort -u); do
	run "bug-$b" sim "$data/rtapp/periodic_phases.json" --cpus 2 --bug "$b" --duration 200ms --json
done
for p in none voluntary full lazy; do
	run "preempt-$p" sim "$data/rtapp/doc_tutorial4_pingpong.json" --cpus 2 --preempt "$p" --duration 300ms
done
run skew sim --hogs 9 --cpus 4 --llc 2 --skew-tick --tick-phase 1ms --duration 300ms --json
run online sim --hogs 3 --online-cpus 8 --duration 200ms --json
run pin sim --hogs 3 --cpus 4 --pin 1,2 --duration 200ms --json
run custom sim --hogs 3 --custom-slice 5ms --hz 100 --duration 500ms --json
run check1 sim "$data/rtapp/periodic_phases.json" --cpus 2 --duration 200ms --check
run check2 sim "$root/claims/workloads/stress4-noise.json" --duration 200ms --check --kernel 6.6
run million sim --hogs 2000 --hz 1000 --duration 20ms

# ---- output formats
fmt=(--trace t.trace --timehist th.txt --latency lat.txt --schbench=sb.txt --csv runs.csv --map map.txt
	--chrome c.json --svg-lag lag.svg)
run fmt1 sim "$data/rtapp/periodic_phases.json" --duration 100ms "${fmt[@]}"
run fmt2 sim "$data/rtapp/doc_tutorial4_pingpong.json" --cpus 2 --duration 100ms "${fmt[@]}"
run fmt3 sim --hogs 3 --duration 100ms --svg-lag lag.svg --from 20ms --to 60ms --json
run fmt-stdout sim --hogs 2 --duration 40ms --trace -
run sweep1 sim --hogs 4 --sweep hz=100,250,1000 --sweep slice=1ms..8ms --duration 200ms --jobs 2
run sweep2 sim --hogs 4 --sweep hz=100,1000 --duration 200ms --json --jobs 2
run sweep3 sim "$data/rtapp/periodic_phases.json" --cpus 2 --sweep seed=1..3:1 --tick-jitter 20us \
	--duration 100ms --jobs 1

# ---- other commands
run presets presets
run bugs bugs
run slice-table slice-table --hz-list 1000,100 --slices 3ms,12ms --hogs 4 --duration 2s
run slice-table-json slice-table --hz-list 250 --slices 1ms,4ms --duration 1s --json
run plot-runs plot runs --hz 1000,100 --slices 3ms,12ms --duration 1s -o runs.svg
run plot-sweep plot sweep --hogs 3 --sweep hz=100,250,1000 --duration 500ms -o sweep.svg
run schbench1 schbench -m 1 -t 2 -r 1 --op-cost 500us --cpus 2
run schbench2 schbench -m 2 -t 4 -r 1 --op-cost 300us --cpus 4 --stress 4 --json
run schbench3 schbench -m 1 -t 2 -r 1 -n 0 --cpus 2 --schbench-slice 2ms --stress 2 --stress-slice 3ms
for c in "$root"/claims/*.json; do
	run "claim-$(basename "$c" .json)" check "$c"
done
run claims-json check "$root/claims/seed001-doc.json" "$root/claims/commit-2ae891b.json" --json
for c in "$data"/claims/*.json; do
	run "claimdata-$(basename "$c" .json)" check "$c"
done
"$eevdf" sim --hogs 3 --duration 200ms --json >"$work/a.json" 2>/dev/null
"$eevdf" sim --hogs 3 --duration 200ms --hz 1000 --json >"$work/b.json" 2>/dev/null
run diff diff "$work/a.json" "$work/b.json"
run diff-json diff "$work/a.json" "$work/b.json" --json --threshold 0.01

# ---- traces in
for t in "$data"/traces/*.ftrace "$data"/traces/*.trace_pipe; do
	b=$(basename "$t")
	run "trace-stats-$b" trace stats "$t" --hz 250
	run "trace-check-$b" trace check "$t" --hz 250
	run "trace-compare-$b" trace compare "$t" --hz 250
	run "trace-workload-$b" trace workload "$t" -o wl.json
done
"$eevdf" sim --hogs 3 --cpus 2 --duration 200ms --trace "$work/m.trace" --trace-waking >/dev/null 2>&1
run trace-model trace stats "$work/m.trace" --hz 250 --json

# ---- bad input: each must exit 2 naming what is wrong
run err-slice sim --hogs 2 --slice 3h
run err-kernel sim --hogs 2 --kernel 5.0
run err-feature sim --hogs 2 --features +NOPE
run err-file sim /nonexistent.json
for f in "$data"/rtapp/bad_*.json; do
	run "err-$(basename "$f" .json)" sim "$f"
done
run err-cpus sim --hogs 2 --cpus 0
run err-sub nosuchcommand
run help --help
run sim-help sim --help
echo "corpus: $n commands into $out" >&2
