#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Builds the project and runs the whole test suite through ctest.
# Select labels with e.g. `scripts/test.sh -L unit`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j "$(nproc)" "$@"
