#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Builds the benchmarks in Release (CMake: -O3 -DNDEBUG) in their own build directory, runs
# them with repetitions, counts instructions per event under callgrind, runs
# the allocation test, and prints the table that docs/performance.md records.
#
#   bench/run.sh                 full run (5 repetitions, medians; ~2 min on 2 cores)
#   bench/run.sh --quick         3 repetitions, shorter callgrind runs
#   bench/run.sh --no-callgrind  skip valgrind
#   BENCH_BUILD_DIR=dir          build somewhere else (default: build-bench)
#
# Raw results stay in the build directory: bench-results.json (Google
# Benchmark's JSON) and callgrind.txt.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BENCH_BUILD_DIR:-$root/build-bench}"
args="$*"
reps=5
cg_events=100000
callgrind=1
for a in "$@"; do
	case "$a" in
	--quick) reps=3; cg_events=30000 ;;
	--no-callgrind) callgrind=0 ;;
	*) echo "usage: bench/run.sh [--quick] [--no-callgrind]" >&2; exit 2 ;;
	esac
done
if ! command -v valgrind >/dev/null; then
	echo "bench/run.sh: valgrind not found, skipping instruction counts" >&2
	callgrind=0
fi

mkdir -p "$build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >"$build/configure.log" 2>&1 ||
	{ cat "$build/configure.log" >&2; exit 1; }
targets=(eevdf_bench alloc_tests eevdf)
[ "$callgrind" = 1 ] && targets+=(eevdf_callgrind)
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" >"$build/build.log" 2>&1 ||
	{ tail -50 "$build/build.log" >&2; exit 1; }

echo "== allocation test" >&2
if "$build/bench/alloc_tests" >"$build/alloc_tests.log" 2>&1; then
	alloc_result="PASS: $(grep -E "^(All tests passed|test cases)" "$build/alloc_tests.log" | tail -1)"
else
	alloc_result="FAIL (see $build/alloc_tests.log)"
fi
echo "$alloc_result" >&2

echo "== benchmarks ($reps repetitions)" >&2
"$build/bench/eevdf_bench" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
	--benchmark_out="$build/bench-results.json" --benchmark_out_format=json >&2

: >"$build/callgrind.txt"
if [ "$callgrind" = 1 ]; then
	echo "== callgrind ($cg_events events each)" >&2
	tmp="$(mktemp -d)"
	for cfg in "hogs 2" "hogs 4" "hogs 64" "hogs 1000" "hogs 10000" "mixed 2" "mixed 4" "mixed 64" "mixed 1000" "mixed 10000"; do
		set -- $cfg
		line="$(valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$tmp/cg.out" \
			"$build/bench/eevdf_callgrind" "$1" "$2" "$cg_events" 2>/dev/null)"
		ir="$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$tmp/cg.out")"
		echo "$line Ir $ir" | tee -a "$build/callgrind.txt" >&2
	done
	# Task groups (issue 36): 64 mixed tasks on 8 CPUs in each tree of
	# bench::group_shapes(): flat, depth 1-3 with ~64 or ~1,000 groups.
	for shape in 0 1 2 3 4 5 6; do
		line="$(valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$tmp/cg.out" \
			"$build/bench/eevdf_callgrind" groups 64 "$cg_events" 8 "$shape" 2>/dev/null)"
		ir="$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$tmp/cg.out")"
		echo "$line Ir $ir" | tee -a "$build/callgrind.txt" >&2
	done
	rm -rf "$tmp"
fi

# The scale target as a user meets it: the CLI's wall time and peak RSS
# (the whole process, which the in-process heap count does not see).
echo "== a million tasks through the CLI (3 runs each)" >&2
scale=""
[ -x /usr/bin/time ] || scale="- (skipped: /usr/bin/time, Debian package time, is not installed)"$'\n'
for out in table json; do
	[ -x /usr/bin/time ] || break
	flag=""; [ "$out" = json ] && flag="--json"
	runs=""
	for i in 1 2 3; do
		r="$( { /usr/bin/time -f "%e %M" "$build/cli/eevdf" sim --hogs 1000000 --hz 1000 --duration 1s $flag >/dev/null; } 2>&1 | tail -1)"
		runs="$runs${runs:+, }${r% *} s ${r#* } KiB"
	done
	scale="$scale- \`eevdf sim --hogs 1000000 --hz 1000 --duration 1s${flag:+ $flag} >/dev/null\`: $runs"$'\n'
done
echo -n "$scale" >&2

echo >&2
echo "# eevdf performance, $(date -u +%Y-%m-%d), $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "# $(uname -m), $(nproc) CPUs: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1); $(c++ --version | head -1)"
echo "# command: bench/run.sh${args:+ $args}"
echo
python3 "$root/bench/table.py" "$build/bench-results.json" "$build/callgrind.txt"
echo
echo "Allocation test (alloc_tests): $alloc_result"
echo
echo "A million tasks through the CLI (wall s, peak RSS; /usr/bin/time):"
echo -n "$scale"
