#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Installs the build and test dependencies from Debian 12 packages (as root).
# Skips apt entirely when everything is already installed.
set -euo pipefail

packages=(
	cmake make g++
	catch2                 # Catch2 v2.13, which rapidcheck/catch.h expects
	librapidcheck-dev
	libz3-dev z3 cvc5
	clang-14 libclang-rt-14-dev   # libFuzzer
	nlohmann-json3-dev libcli11-dev
	libbenchmark-dev
	rt-app                 # its example workloads (tests/cli/rtapp_examples_test.py)
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages: ${missing[*]}; run as root or install them" >&2
	exit 2
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
