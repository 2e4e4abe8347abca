#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Builds the model, the command and the unit and property tests with
# AddressSanitizer and UndefinedBehaviorSanitizer (any report is fatal)
# into build-asan/ (or $ASAN_BUILD_DIR), and runs the unit, props and
# robust labels there: every end-to-end CLI test and every hostile input
# (bar the prlimit --as runs, which ASan's shadow memory cannot fit) then
# runs the sanitized eevdf.
# scripts/test.sh runs this after the main suite when given no label. No
# -Werror here: GCC 12 warns maybe-uninitialized inside libstdc++'s regex
# under ASan (a false positive); the main build checks the warnings.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build=${ASAN_BUILD_DIR:-build-asan}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEEVDF_WERROR=OFF \
	-DEEVDF_SANITIZE=address,undefined -DEEVDF_SKIP_PARTS="fuzz;bench;proofs" >/dev/null
cmake --build "$build" -j "$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -L 'unit|props|robust' "$@"
