#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Fails when docs/bugzoo.md differs from what `bugzoo` prints now, or when
# `bugzoo` finds an expectation of the bug × detector table
# (props/bug_detectors.cpp) that its output does not show (exit status 1,
# the expectations named on stderr).
set -euo pipefail
bugzoo=$1 doc=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
"$bugzoo" >"$out" || status=$?
if ! diff -u "$doc" "$out"; then
	echo "docs/bugzoo.md is out of date: regenerate it with $bugzoo > $doc" >&2
	exit 1
fi
if [ "$status" -ne 0 ]; then
	echo "bugzoo exited with status $status: the table's expectations above are not met" >&2
	exit 1
fi
