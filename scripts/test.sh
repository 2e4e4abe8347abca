#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Builds the project (warnings as errors) and runs the whole test suite
# through ctest; with no arguments (as CI runs it) also the unit and
# property tests under ASan+UBSan (scripts/sanitize.sh).
# Select labels with e.g. `scripts/test.sh -L unit` (no sanitizer run).
set -euo pipefail
cd "$(dirname "$0")/.."
EEVDF_CMAKE_ARGS="-DEEVDF_WERROR=ON ${EEVDF_CMAKE_ARGS:-}" bash scripts/build.sh
(cd "${BUILD_DIR:-build}" && ctest --output-on-failure -j "$(nproc)" "$@")
if [ $# -eq 0 ]; then
	bash scripts/sanitize.sh
fi
