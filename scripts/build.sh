#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Installs dependencies and builds everything into build/ (or $BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build=${BUILD_DIR:-build}
# EEVDF_CMAKE_ARGS: extra cache settings (scripts/test.sh adds -DEEVDF_WERROR=ON).
# shellcheck disable=SC2086
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo ${EEVDF_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$(nproc)"
