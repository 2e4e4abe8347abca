#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Fails when docs/bugzoo.md differs from what `bugzoo` prints now.
set -euo pipefail
bugzoo=$1 doc=$2
if ! diff -u "$doc" <("$bugzoo"); then
	echo "docs/bugzoo.md is out of date: regenerate it with $bugzoo > $doc" >&2
	exit 1
fi
