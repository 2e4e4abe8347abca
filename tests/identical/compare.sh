#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs the output corpus (corpus.sh) with two eevdf binaries and diffs the
# results: exit 0 when every output is byte-identical, 1 with the diff.
#   tests/identical/compare.sh OLD_EEVDF NEW_EEVDF [KEEP_DIR]
set -u
old=$1
new=$2
keep=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
dir=${keep:-$(mktemp -d)}
[ -n "$keep" ] || trap 'rm -rf "$dir"' EXIT
bash "$here/corpus.sh" "$dir/old" "$old" || exit 2
bash "$here/corpus.sh" "$dir/new" "$new" || exit 2
if diff -r "$dir/old" "$dir/new"; then
	echo "identical: $(ls "$dir/old" | wc -l) command outputs byte-identical" >&2
	exit 0
fi
exit 1
