#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# ctest label `kernel`: eevdf-probe --rtapp never waits on rt-app forever.
# probe/rtapp/forever_cpu0.json has a task in a run that never ends
# ("run": -1), so rt-app never reaches its 1 s duration; with --timeout 2s
# the probe stops it (SIGTERM, then SIGKILL), says so, reports
# "timed_out": true and exits 1, well inside 30 s, leaving no rt-app.
# Skips (77) without root, tracefs or rt-app.
# Usage: kernel_rtapp_timeout_test.sh EEVDF_PROBE
set -u
probe=$1
command -v rt-app >/dev/null || { echo "skip: rt-app is not installed"; exit 77; }
. "$(dirname "$0")/kernel_test_skip.sh"
out=$(mktemp)
trap 'rm -f "$out" "$out.err" "$out.trace"' EXIT
file="$(dirname "$0")/rtapp/forever_cpu0.json"
start=$(date +%s)
timeout 60 "$probe" --rtapp "$file" --dump-trace "$out.trace" --timeout 2s >"$out" 2>"$out.err"
rc=$?
took=$(( $(date +%s) - start ))
cat "$out" "$out.err"
if [ "$rc" = 3 ]; then echo "skip: tracing is not available"; exit 77; fi
fail=0
[ "$rc" = 1 ] || { echo "FAIL: exit status $rc, expected 1"; fail=1; }
[ "$took" -le 30 ] || { echo "FAIL: took $took s"; fail=1; }
grep -q '"timed_out":true' "$out" || { echo "FAIL: no \"timed_out\": true"; fail=1; }
grep -q 'still running after --timeout 2 s' "$out.err" || { echo "FAIL: no message"; fail=1; }
if pgrep -f "rt-app $file" >/dev/null; then echo "FAIL: rt-app still runs"; pkill -9 -f "rt-app $file"; fail=1; fi
exit $fail
