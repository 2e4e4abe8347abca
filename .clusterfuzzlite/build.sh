#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0-only
# ClusterFuzzLite / OSS-Fuzz build: the six libFuzzer targets of fuzz/, with
# their seed corpora, dictionaries and .options, into $OUT.
cmake -S "$SRC/eevdf" -B build -DCMAKE_BUILD_TYPE=Release \
	-DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
	-DEEVDF_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" -DEEVDF_SKIP_PARTS="props;proofs;bench;probe"
targets="fuzz_workload fuzz_differential fuzz_rtapp_parser fuzz_worst fuzz_claim_parser fuzz_cli_args fuzz_trace_reader"
cmake --build build -j "$(nproc)" --target $targets
for t in $targets; do
	cp "build/fuzz/$t" "$OUT/"
	(cd "$SRC/eevdf/fuzz/corpus/$t" && zip -q -r "$OUT/${t}_seed_corpus.zip" .)
	[ -f "$SRC/eevdf/fuzz/$t.dict" ] && cp "$SRC/eevdf/fuzz/$t.dict" "$OUT/"
	[ -f "$SRC/eevdf/fuzz/$t.options" ] && cp "$SRC/eevdf/fuzz/$t.options" "$OUT/"
done
