#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# fuzz/run.sh [SECONDS] [TARGET...]
# Builds the libFuzzer targets with clang++-14 (-fsanitize=fuzzer plus
# $EEVDF_FUZZ_SANITIZE, default address,undefined; `none` for a campaign that
# wants throughput: about 4x the executions without the sanitizers' checks,
# docs/performance.md) into $EEVDF_FUZZ_BUILD (default build-libfuzzer/, or
# build-libfuzzer-nosan/ without sanitizers), then fuzzes
# each TARGET (default: all six) for SECONDS (default 10) from its checked-in
# corpus, dictionary and .options. New corpus entries go to
# $EEVDF_FUZZ_BUILD/corpus/TARGET, counterexamples to
# $EEVDF_FUZZ_BUILD/counterexamples, worst cases to $EEVDF_WORST_DIR (default
# $EEVDF_FUZZ_BUILD/worst). Exits 77 (ctest: skipped) without clang++-14.
# A long campaign: fuzz/run.sh 3600 fuzz_workload   (docs/fuzzing.md)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-10}
shift || true
targets=${*:-fuzz_workload fuzz_differential fuzz_rtapp_parser fuzz_worst fuzz_claim_parser fuzz_cli_args fuzz_trace_reader}
cxx=${EEVDF_FUZZ_CXX:-clang++-14}
if ! command -v "$cxx" >/dev/null; then
	echo "fuzz/run.sh: $cxx not found; skipping the libFuzzer run" >&2
	exit 77
fi
sanitize=${EEVDF_FUZZ_SANITIZE:-address,undefined}
if [[ $sanitize == none ]]; then
	build=${EEVDF_FUZZ_BUILD:-$root/build-libfuzzer-nosan}
	flags="-fsanitize=fuzzer-no-link"
elif [[ $sanitize =~ ^[a-z,]+$ ]]; then
	build=${EEVDF_FUZZ_BUILD:-$root/build-libfuzzer}
	flags="-fsanitize=$sanitize -fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link"
else
	echo "fuzz/run.sh: EEVDF_FUZZ_SANITIZE=$sanitize: expected none or a list such as address,undefined" >&2
	exit 2
fi
cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCMAKE_CXX_FLAGS="$flags" \
	-DEEVDF_FUZZ_ENGINE=-fsanitize=fuzzer -DEEVDF_SKIP_PARTS="props;proofs;bench" >/dev/null
# shellcheck disable=SC2086
cmake --build "$build" -j "$(nproc)" --target $targets >/dev/null
export EEVDF_FUZZ_OUT=${EEVDF_FUZZ_OUT:-$build/counterexamples}
export EEVDF_WORST_DIR=${EEVDF_WORST_DIR:-$build/worst}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for t in $targets; do
	work=$build/corpus/$t
	mkdir -p "$work" "$build/artifacts"
	opts=()
	if [[ -f $root/fuzz/$t.options ]]; then
		while IFS='=' read -r k v; do
			k=${k// /} v=${v// /}
			[[ -n $k && $k != \[* && $k != \#* ]] && opts+=("-$k=$v")
		done <"$root/fuzz/$t.options"
	fi
	[[ -f $root/fuzz/$t.dict ]] && opts+=("-dict=$root/fuzz/$t.dict")
	log=$build/$t.log
	if ! "$build/fuzz/$t" "${opts[@]}" -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$build/artifacts/$t-" "$work" "$root/fuzz/corpus/$t" >"$log" 2>&1; then
		status=1
		tail -n 40 "$log"
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	echo "$t: ${runs:-?} runs in ${secs} s ($(( ${runs:-0} / secs )) exec/s), corpus $(ls "$work" | wc -l) new files"
done
# The command line itself under the same sanitizers: the hostile-input
# corpus (tests/robust/robust.py) against an ASan+UBSan eevdf and
# eevdf-probe (which eevdf finds beside it in ../probe/), so that a memory
# error or undefined behaviour on any rejected input fails too.
if [[ -z ${EEVDF_FUZZ_SKIP_CLI:-} && $sanitize != none ]]; then
	cmake --build "$build" -j "$(nproc)" --target eevdf eevdf-probe >/dev/null
	# Sanitizer reports exit 98/99, which no case expects.
	export ASAN_OPTIONS=detect_leaks=0:exitcode=99
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98
	if ! python3 "$root/tests/robust/robust.py" "$build/cli/eevdf" "$root" >"$build/robust.log" 2>&1; then
		status=1
		grep -v '^$' "$build/robust.log" | tail -n 40
	fi
	echo "eevdf under ASan+UBSan: $(tail -n 1 "$build/robust.log")"
fi
exit $status
