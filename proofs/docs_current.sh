#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Fails unless the statements table of DOC (between its BEGIN/END markers)
# is what `eevdf-prove --list --markdown` prints today.
#   docs_current.sh EEVDF_PROVE DOC
set -u
want=$(mktemp)
trap 'rm -f "$want"' EXIT
sed -n '/^<!-- BEGIN eevdf-prove --list --markdown -->$/,/^<!-- END eevdf-prove --list --markdown -->$/p' "$2" |
	sed '1d;$d' >"$want"
if [ ! -s "$want" ]; then
	echo "$2: no statements block (BEGIN/END eevdf-prove --list --markdown markers)"
	exit 1
fi
"$1" --list --markdown | diff -u "$want" - && exit 0
echo "$2 is stale: regenerate its block with eevdf-prove --list --markdown"
exit 1
