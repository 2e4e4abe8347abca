#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Builds the project and prints the model's version of seed 001's table
# (4 CPU hogs on one CPU, 30 s, slices 3-32 ms, HZ=1000 and HZ=100) beside
# the values measured on a real kernel. Extra arguments go to slice-table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
exec "${BUILD_DIR:-build}/cli/eevdf" slice-table "$@"
