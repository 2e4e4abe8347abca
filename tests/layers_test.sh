#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The layers of docs/architecture.md hold: each folder includes only from
# the folders it may depend on, so model/ stays at the bottom and no
# library reaches up into the command line.
# Usage: layers_test.sh SOURCE_DIR
set -u
cd "$1" || exit 2
status=0
allow() {  # allow FOLDER ALLOWED...: FOLDER's sources include only from ALLOWED
	local dir=$1; shift
	local pattern
	pattern=$(printf '%s|' "$@")
	pattern=${pattern%|}
	local bad
	bad=$(grep -Hn '#include "[a-z_]*/' "$dir"/*.cpp "$dir"/*.hpp 2>/dev/null |
		grep -Ev "#include \"($pattern)/")
	if [ -n "$bad" ]; then
		echo "FAIL: $dir/ may include only from $*:"
		echo "$bad"
		status=1
	fi
}
allow model model
allow io io model
allow trace trace io model
allow report report model io
allow claims claims report io model
allow oracle oracle model
allow proofs proofs model io
allow props props model io report oracle
allow bench bench model io report cli
allow fuzz fuzz props model io oracle trace claims report
[ $status -eq 0 ] && echo "layers: every folder includes only from below it"
exit $status
