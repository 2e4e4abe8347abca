#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# End-to-end checks of the eevdf command line: results, exit codes, outputs.
# Usage: cli_test.sh EEVDF_BINARY TEST_DATA_DIR
set -u
eevdf=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
pass=0

check() {  # check NAME COMMAND...: the command must succeed
	local name=$1; shift
	if "$@"; then pass=$((pass + 1)); else echo "FAIL: $name"; failures=$((failures + 1)); fi
}

expect_exit() {  # expect_exit CODE PATTERN ARGS...: exit status and a stderr pattern
	local code=$1 pattern=$2; shift 2
	"$eevdf" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" -ne "$code" ] || ! grep -q -- "$pattern" "$tmp/err"; then
		echo "FAIL: eevdf $* -> exit $rc (want $code), stderr: $(cat "$tmp/err")"
		failures=$((failures + 1))
	else
		pass=$((pass + 1))
	fi
}

json_mean_run_ms() {
	python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.3f" % (d["summary"]["run_ns"]["mean"]/1e6))'
}

# The seeds' claim: ~3 ms runs at HZ=1000 and ~10 ms at HZ=100 with a 3 ms slice.
m=$("$eevdf" sim --hogs 4 --hz 1000 --slice 3ms --duration 30s --json | json_mean_run_ms)
check "4 hogs HZ=1000 slice 3ms average 3.000 ms (got $m)" [ "$m" = "3.000" ]
m=$("$eevdf" sim --hogs 4 --hz 100 --slice 3ms --duration 30s --json | json_mean_run_ms)
check "4 hogs HZ=100 slice 3ms average 10.000 ms (got $m)" [ "$m" = "10.000" ]

# The JSON document has the documented shape.
"$eevdf" sim --hogs 2 --hz 250 --duration 1s --json >"$tmp/doc.json"
check "json schema" python3 - "$tmp/doc.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in ["kernel", "hz", "tick_ns", "base_slice_ns", "features", "seed", "knobs", "cpus"]:
    assert k in d["config"], k
assert d["config"]["tick_ns"] == 4000000 and d["config"]["base_slice_ns"] == 700000
names = [t["name"] for t in d["tasks"]]
assert names == ["hog-0", "hog-1"], names
for obj in d["tasks"] + [d["summary"]]:
    for k in ["cpu_ns", "runs", "run_ns", "switches", "involuntary_switches", "wakeup_latency_ns", "max_abs_lag_ns"]:
        assert k in obj, k
    assert set(obj["run_ns"]) == {"count", "mean", "min", "p50", "p90", "p99", "max"}
    assert set(obj["wakeup_latency_ns"]) == {"count", "p50", "p90", "p99", "max"}
assert d["summary"]["cpu_ns"] == 1000000000
PY

# --trace writes kernel-format sched_switch / sched_wakeup lines.
"$eevdf" sim --hogs 2 --hz 1000 --slice 3ms --duration 20ms --trace "$tmp/t.trace" >/dev/null
check "trace lines parse" python3 - "$tmp/t.trace" <<'PY'
import re, sys
line_re = re.compile(r'^ {0,16}\S.{0,15}-(\d+) +\[(\d{3})\] [dX.][Nn.][hHsS.][0-9.][0-9.] +(\d+)\.(\d{6}): (sched_switch|sched_wakeup|sched_wakeup_new): (.*)$')
sw = re.compile(r'^prev_comm=(\S+) prev_pid=(\d+) prev_prio=(\d+) prev_state=([RSX]) ==> next_comm=(\S+) next_pid=(\d+) next_prio=(\d+)$')
switches = []
for l in open(sys.argv[1]):
    if l.startswith('#'):
        continue
    m = line_re.match(l.rstrip('\n'))
    assert m, l
    if m.group(5) == 'sched_switch':
        s = sw.match(m.group(6))
        assert s, l
        switches.append((int(m.group(3)) * 10**6 + int(m.group(4)), s.group(2), s.group(6)))
# 2 hogs, 3 ms slice: switches at 0, 2, 4, 7, 10, 13, 16, 19 ms
times = [t for t, _, _ in switches]
assert times == [0, 2000, 4000, 7000, 10000, 13000, 16000, 19000], times
PY

# Bad usage and bad input: exit 2 with a message naming the flag or file.
expect_exit 2 "--slice" sim --hogs 2 --slice 3h
expect_exit 2 "--kernel" sim --hogs 2 --kernel 9.9
expect_exit 2 "--features" sim --hogs 2 --features +NOPE
expect_exit 2 "--preempt: 'fast'" sim --hogs 2 --preempt fast
expect_exit 2 "--preempt: lazy does not exist in the kernel of preset 6.12" sim --hogs 2 --kernel 6.12 --preempt lazy
expect_exit 2 "--preempt: none is not offered" sim --hogs 2 --kernel 7.1.5 --preempt none
"$eevdf" sim --hogs 3 --cpus 2 --kernel 7.1.5 --duration 100ms --json >"$tmp/p.json"
check "7.1.5 runs PREEMPT_LAZY by default and says so" grep -q '"preempt": "lazy"' "$tmp/p.json"
"$eevdf" sim --hogs 3 --cpus 2 --kernel 6.18.39 --duration 100ms --json >"$tmp/p.json"
check "6.18.39 (PREEMPT_NONE) records no preemption model" bash -c "! grep -q preempt '$tmp/p.json'"
expect_exit 2 "--tick-jitter" sim --hogs 2 --hz 1000 --tick-jitter 2ms
expect_exit 2 "exactly one" sim
# trace check on a trace without a CPU-count header (perf script's): the
# CPUs it shows give the default slice (issue 44); stdin cannot be read twice.
"$eevdf" trace check "$data/traces/hogs3.perf-script" --hz 250 >"$tmp/tc.txt"
check "trace check perf script: 2 CPUs seen" grep -q "r = 1400000 ns (6.18's default for 2 CPUs, as many as the trace shows" "$tmp/tc.txt"
expect_exit 2 "the trace on stdin does not say how many CPUs" trace check - --hz 250 <"$data/traces/hogs3.perf-script"

# schbench's own option names (options.c), and its unmodelled options
# refused by name with the reason (issue 44).
"$eevdf" schbench -m 1 -t 2 -r 1 -n 0 --sleep_usec 50 --message-cpus auto --cpus 2 >"$tmp/sb.txt"
check "schbench --sleep_usec --message-cpus" grep -q "average rps" "$tmp/sb.txt"
expect_exit 2 "schbench option -F (--cache_footprint) is not modelled: .*--op-cost" schbench -m 1 -t 2 -r 1 -n 0 -F 128
expect_exit 2 "schbench option -C (--calibrate) is not modelled" schbench -m 1 -t 2 -r 1 -n 0 -C
expect_exit 2 "schbench option -R (--rps) is not modelled" schbench -m 1 -t 2 -r 1 -n 0 --rps 100
expect_exit 2 "schbench option -P (--pin) is not modelled" schbench -m 1 -t 2 -r 1 -n 0 --pin ccx
expect_exit 2 "schbench option -j FILE" schbench -m 1 -t 2 -r 1 -n 0 -j out.json

# --topology (issue 37): an LLC-only shape runs exactly as --cpus/--llc; SMT
# cores and clusters run (two hogs fork onto two cores, not onto two threads
# of one; onto two clusters); NUMA nodes print their domains and run (forks
# stay on the parent's node while idle CPUs differ by at most two).
"$eevdf" sim --hogs 3 --cpus 4 --llc 2 --duration 200ms --json >"$tmp/llc.json"
"$eevdf" sim --hogs 3 --topology cpus=4,llc=2 --duration 200ms --json >"$tmp/topo.json"
check "--topology cpus=4,llc=2 = --cpus 4 --llc 2" cmp -s "$tmp/llc.json" "$tmp/topo.json"
"$eevdf" sim --topology x86-2s-smt2 --print-domains >"$tmp/domains.txt"
check "--print-domains x86-2s-smt2: SMT, MC and NUMA on CPU 63" python3 - "$tmp/domains.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
names = [l.split(":", 1)[1] for l in lines if l.startswith("cpu63/") and "/name:" in l]
assert names == ["SMT", "MC", "NUMA"], names
assert "   domain-2: span=0-63 level=NUMA" in lines
PY
"$eevdf" sim --hogs 4 --topology x86-2s-smt2 --duration 100ms --json >"$tmp/numa.json"
check "--topology x86-2s-smt2: three hogs on node 0, the fourth forks onto node 1 (CPU 32)" python3 - "$tmp/numa.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
busy = [c["cpu"] for c in r["cpus"] if c["busy_ns"] > 0]
assert busy == [0, 2, 4, 32], busy
cfg = r["config"]
assert (cfg["node_size"], cfg["numa_distance"], cfg["reclaim_distance"]) == (32, 21, 30), cfg
PY
printf '{"name": "2s", "cpus": 64, "smt": 2, "llc": 32, "node": 32, "distance": 21}' >"$tmp/2s.json"
"$eevdf" sim --topology "$tmp/2s.json" --print-domains >"$tmp/domains-file.txt"
check "--topology FILE.json: the file's machine is x86-2s-smt2's" cmp -s "$tmp/domains.txt" "$tmp/domains-file.txt"
printf '{"cpus": 8, "cores": 4}' >"$tmp/bad-topology.json"
expect_exit 2 "bad-topology.json:1:13: cores: unknown key" sim --hogs 2 --topology "$tmp/bad-topology.json"
"$eevdf" sim --hogs 4 --topology cpus=64,smt=2,node=32,distance=31 --duration 100ms >"$tmp/far.txt"
check "--topology ...,distance=31: beyond node_reclaim_distance the fourth hog stays on node 0 (CPU 6)" \
	grep -q "^# cpu 6: busy 100.000 ms" "$tmp/far.txt"
check "--topology ...,distance=31: the header names the nodes" grep -q "llc=32, node=32, distance=31, reclaim=30" "$tmp/far.txt"
"$eevdf" sim --hogs 2 --topology cpus=8,smt=2,cluster=4 --duration 100ms >"$tmp/cls.txt"
check "--topology cpus=8,smt=2,cluster=4: the second hog forks into the other cluster (CPU 4)" \
	grep -q "^# cpu 4: busy 100.000 ms" "$tmp/cls.txt"
"$eevdf" sim --hogs 2 --topology cpus=4,smt=2 --duration 100ms >"$tmp/smt.txt"
check "--topology cpus=4,smt=2: the hogs fork onto CPUs 0 and 2" \
	grep -q "^# cpu 2: busy 100.000 ms" "$tmp/smt.txt"
check "--topology cpus=4,smt=2: the header names the cores" grep -q "cpus=4, smt=2, llc=4" "$tmp/smt.txt"
"$eevdf" sim --hogs 2 --cpus 4 --duration 100ms >"$tmp/flat.txt"
check "--cpus 4 (no SMT): the hogs fork onto CPUs 0 and 1" grep -q "^# cpu 1: busy 100.000 ms" "$tmp/flat.txt"
expect_exit 2 "unknown key 'socket'" sim --hogs 2 --topology cpus=8,socket=2
expect_exit 2 "--llc: with --topology" sim --hogs 2 --topology cpus=4 --llc 2
expect_exit 2 "--topology sysfs:$tmp/none: $tmp/none/cpu/online: cannot read it" sim --topology "sysfs:$tmp/none" --print-domains
expect_exit 2 "bad_lock.json:8:6: tasks.thread0.phases.p0.lock1: mutex \"mutex0\" is already held" sim "$data/rtapp/bad_lock.json"
expect_exit 2 "no-such-file.json" sim "$tmp/no-such-file.json"
expect_exit 2 "never ends" sim "$data/cli/forever.json"
expect_exit 2 "eevdf" sim --hogs 2 --bogus-flag
expect_exit 2 "--op-cost" schbench -n 5 -r 1 --cpus 2
expect_exit 2 "only 'auto'" schbench -n 0 -M 0-3 -r 1 --cpus 2
expect_exit 2 "-m: 0" schbench -m 0 -n 0 -r 1

# eevdf schbench prints schbench's blocks; a repeated -t takes the last
# value as getopt does (2 message threads x 3 workers = 6 workers here). The
# RPS block has a sample for the starting round and one per second.
"$eevdf" schbench -m 2 -t 9 -t 3 -n 0 -r 2 --cpus 2 >"$tmp/sb.txt"
check "schbench: the wake-up block" grep -q "^Wakeup Latencies percentiles (usec) runtime 2 (s)" "$tmp/sb.txt"
check "schbench: the request block" grep -q "^Request Latencies percentiles (usec) runtime 2 (s)" "$tmp/sb.txt"
check "schbench: the RPS block, the start and one sample per second" grep -q "^RPS percentiles (requests) runtime 2 (s) (3 total samples)" "$tmp/sb.txt"
check "schbench: the average rps" grep -qE "^average rps: [0-9]+\.[0-9]{2}$" "$tmp/sb.txt"
w=$("$eevdf" schbench -m 2 -t 9 -t 3 -n 0 -r 2 --cpus 2 --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["schbench"]["workers_per_message_thread"], d["rps"]["count"])')
check "schbench: -t 9 -t 3 is 3 workers per message thread, 3 RPS samples (got $w)" [ "$w" = "3 3" ]
# Per-task samples in bounded memory: 180 000 jittered runs per hog have
# more distinct lengths than a task keeps, so the percentiles are bucketed
# and say so (within 2^-10), while count, min, max and mean stay exact.
w=$("$eevdf" sim --hogs 2 --hz 1000 --tick-jitter 300us --duration 400s --json | python3 -c 'import json,sys; d=json.load(sys.stdin)["tasks"][0]["run_ns"]; print(d.get("percentiles_within_relative"), d["count"] > 170000)')
check "sim: bucketed percentiles are marked with their precision (got $w)" [ "$w" = "0.0009765625 True" ]
"$eevdf" sim --hogs 2 --hz 1000 --tick-jitter 300us --duration 400s >"$tmp/approx.txt"
check "sim: the table names the tasks whose percentiles are approximate" grep -q "^# percentiles approximate .* for: hog-0, hog-1$" "$tmp/approx.txt"
w=$("$eevdf" sim --hogs 2 --hz 1000 --duration 10s --json | python3 -c 'import json,sys; print("percentiles_within_relative" in json.load(sys.stdin)["tasks"][0]["run_ns"])')
check "sim: exact percentiles carry no precision mark (got $w)" [ "$w" = "False" ]

# A probe scenario whose wake-ups were never followed by a traced switch-in
# has no latency percentiles ({"count": 0}): the comparison reports the row
# as not measured (it read the missing keys, undefined behaviour, before).
"$eevdf" probe --scenario sleeper --duration 1s --kernel-json "$data/probe/sleeper-untraced-wakeups.json" >"$tmp/probe.txt" 2>"$tmp/probe.err"
check "probe replay: a scenario without latency samples compares (exit $?)" grep -q "wake-up latency p50 (us) .* not measured on the kernel's side" "$tmp/probe.txt"

# A run with a bug switched in says so in the header and the JSON config;
# a clean run's header and config carry no such mark.
"$eevdf" sim --hogs 2 --duration 10ms --bug eligible-strict >"$tmp/bug.txt" 2>/dev/null
check "sim --bug: the header names the bug" grep -q "^# eevdf model: .*BUGS SWITCHED IN: eligible-strict" "$tmp/bug.txt"
w=$("$eevdf" sim --hogs 2 --duration 10ms --bug eligible-strict --bug stale-augment --json 2>/dev/null | python3 -c 'import json,sys; print(",".join(json.load(sys.stdin)["config"]["bugs"]))')
check "sim --bug: the JSON config lists the bugs (got $w)" [ "$w" = "stale-augment,eligible-strict" ]
"$eevdf" sim --hogs 2 --duration 10ms >"$tmp/clean.txt"
check "sim: a clean run's header has no bug mark" bash -c "! grep -q BUGS '$tmp/clean.txt'"

# stress-ng through rt-app: --with a file of eight rt-app hogs named as
# --stress names them runs the same workload, so the blocks are identical.
stress_ng="$data/../../claims/workloads/stress-ng-cpu-8.json"
"$eevdf" schbench -m 1 -t 4 -n 0 -r 2 --cpus 4 --stress 8 >"$tmp/sb-stress.txt"
"$eevdf" schbench -m 1 -t 4 -n 0 -r 2 --cpus 4 --with "$stress_ng" >"$tmp/sb-with.txt"
check "schbench --with: the file's tasks are named in the header" grep -q "^# with .*stress-ng-cpu-8.json: 8 tasks beside schbench's$" "$tmp/sb-with.txt"
check "schbench --with stress-ng-cpu-8.json prints what --stress 8 prints" \
	cmp -s "$tmp/sb-stress.txt" <(grep -v "^# with " "$tmp/sb-with.txt")
w=$("$eevdf" schbench -m 1 -t 4 -n 0 -r 2 --cpus 4 --with "$stress_ng" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["schbench"]["with"][0]["tasks"])')
check "schbench --with: the JSON records the file and its 8 tasks (got $w)" [ "$w" = "8" ]
expect_exit 2 "stress-ng-cpu-8.json: task 'stress-0' is already in the workload" \
	schbench -m 1 -n 0 -r 1 --cpus 2 --stress 1 --with "$stress_ng"
expect_exit 2 "missing.json" schbench -m 1 -n 0 -r 1 --cpus 2 --with "$tmp/missing.json"
"$eevdf" sim --help >/dev/null
check "--help exits 0" [ $? -eq 0 ]

# Claims: a bad file exits 2 naming file, line and field; a false claim exits 1.
expect_exit 2 "bad_metric.json:4:22: metric.name" check "$data/claims/bad_metric.json"
expect_exit 2 "cannot open the claim file" check "$tmp/missing-claim.json"
expect_exit 2 "/dev/zero: refused: more than 64 MiB" sim /dev/zero --duration 10ms
expect_exit 2 "/dev/zero: refused: more than 64 MiB" check /dev/zero
expect_exit 2 "bad_schbench.json: .*schbench -p: not an option" check "$data/claims/bad_schbench.json"
expect_exit 2 "bad_schbench_warmup.json: .*schbench -w: the warm-up must end before the duration" check "$data/claims/bad_schbench_warmup.json"
expect_exit 2 "bad_row_metric.json:5:45: rows\[0\].metric.name" check "$data/claims/bad_row_metric.json"
"$eevdf" check "$data/claims/row_metric.json" >"$tmp/out" 2>&1
check "a row with its own metric and tolerance is judged by them" grep -qE "\| hog-0's share +\| cpu_share +\| .* \| within 0.010 \| agrees" "$tmp/out"
check "a row's own tolerance rejects what the claim's would accept" grep -q "hog-0's share is not 0.45 .* finding" "$tmp/out"
"$eevdf" check "$data/claims/disagrees.json" >"$tmp/out" 2>&1
rc=$?
check "a false claim exits 1 (got $rc)" [ "$rc" -eq 1 ]
check "a false claim is reported as DISAGREES" grep -q "DISAGREES" "$tmp/out"

# Hostile numbers (issue 19): an error naming the flag and value, exit 2, no crash.
expect_exit 2 "\-\-hz: 0 is outside" slice-table --hz-list 250,0 --slices 3ms --duration 10ms
check "slice-table prints nothing before a bad HZ" [ ! -s "$tmp/out" ]
if "$eevdf" prove --list >/dev/null 2>&1; then
	expect_exit 2 "\-\-timeout: 'abc' is not a whole number" prove --timeout abc
	expect_exit 2 "\-\-seed: 'x' is not a whole number" prove --seed x --check-encoding 5
	# an --smt2 file that cannot be written is an error, not a silent loss
	: >"$tmp/afile"
	expect_exit 2 "cannot write '$tmp/afile/sub/pick_spec.smt2'" prove --smt2 "$tmp/afile/sub" pick_spec
fi
expect_exit 2 "too large (the limit is 2^62 ns" sim --hogs 2 --duration 18446744073.709551617s
expect_exit 2 "too large; the limit is 4611686018427387" sim "$data/rtapp/huge_run.json"
if "$eevdf" probe --help >/dev/null 2>&1; then
	expect_exit 2 "the period is above an hour" probe --waker 9223372036854775807:0
fi
printf '#!/bin/sh\necho not json\n' >"$tmp/fakeprobe"
chmod +x "$tmp/fakeprobe"
EEVDF_PROBE="$tmp/fakeprobe" expect_exit 2 "the probe's output is not the JSON it prints" probe --claim "$data/claims/disagrees.json"

# An unwritable trace path fails cleanly and leaves nothing behind.
expect_exit 2 "cannot write" sim --hogs 2 --duration 10ms --trace "$tmp/no/such/dir/t.trace"
# Several outputs are whole or not at all together: one that cannot be
# written leaves none of them (nor a .tmp), and nothing on stdout.
expect_exit 2 "^eevdf: --csv: cannot write '$tmp/no/such/dir/r.csv'" sim --hogs 2 --duration 10ms \
	--trace "$tmp/set.trace" --timehist "$tmp/set.th" --csv "$tmp/no/such/dir/r.csv"
check "a failed output set leaves no file behind" [ ! -e "$tmp/set.trace" -a ! -e "$tmp/set.trace.tmp" -a ! -e "$tmp/set.th" -a ! -e "$tmp/set.th.tmp" ]
check "a failed output set prints no report" [ ! -s "$tmp/out" ]
expect_exit 2 "'$tmp/same' is also the file of --trace" sim --hogs 2 --duration 10ms --trace "$tmp/same" --csv "$tmp/same"
check "two outputs to one file write neither" [ ! -e "$tmp/same" ]
"$eevdf" sim --hogs 2 --duration 10ms --trace "$tmp/ok.trace" --csv "$tmp/ok.csv" >/dev/null
check "a good output set writes every file" [ -s "$tmp/ok.trace" -a -s "$tmp/ok.csv" -a ! -e "$tmp/ok.csv.tmp" ]

# Machine profiles and ensembles (docs/profiles.md).
cat >"$tmp/noisy.json" <<'JSON'
{"eevdf_profile": 1, "name": "noisy", "timer_slack": "50us",
 "switch_cost": {"uniform": ["1us", "9us"]}, "burst_scale": {"normal": {"mean": 1, "sd": 0.1}},
 "timer_delay": {"empirical": ["0ns", "5us", "20us", "200us"]}}
JSON
"$eevdf" sim --hogs 3 --duration 200ms --profile "$tmp/noisy.json" --seed 5 --json >"$tmp/n1.json"
"$eevdf" sim --hogs 3 --duration 200ms --profile "$tmp/noisy.json" --seed 5 --json >"$tmp/n2.json"
check "the same profile and seed give the same bytes" cmp -s "$tmp/n1.json" "$tmp/n2.json"
check "a profile run's JSON names its profile" grep -q '"name": "noisy"' "$tmp/n1.json"
"$eevdf" sim --hogs 3 --cpus 2 --duration 200ms --profile vm-6.18.44-hz250 --json >"$tmp/vm.json"
check "a profile run's JSON, built-in profile included, matches the schema" python3 - "$tmp/n1.json" "$tmp/vm.json" <<PY
import json, sys
sys.path.insert(0, "$(dirname "$0")")
import jsonschema_lite
schema = json.load(open("$data/cli/sim.schema.json"))
for f in sys.argv[1:]:
    errs = jsonschema_lite.errors(json.load(open(f)), schema)
    assert not errs, (f, errs[:3])
    assert "profile" in json.load(open(f))["config"], f
PY
"$eevdf" sim --hogs 3 --duration 200ms --seed 5 --json >"$tmp/e.json"
check "an exact run's JSON has no profile" sh -c "! grep -q '\"profile\"' '$tmp/e.json'"
pp="$data/rtapp/doc_tutorial4_pingpong.json"  # runs of 10 ms handed back and forth: the bursts vary
"$eevdf" sim "$pp" --duration 200ms --profile "$tmp/noisy.json" --seeds 6 --jobs 1 --json >"$tmp/s1.json"
"$eevdf" sim "$pp" --duration 200ms --profile "$tmp/noisy.json" --seeds 6 --jobs 2 --json >"$tmp/s2.json"
check "an ensemble's output does not depend on --jobs" cmp -s "$tmp/s1.json" "$tmp/s2.json"
check "an ensemble under a noisy profile has a spread" python3 - "$tmp/s1.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
assert m["mean_run_ms"]["lo"] < m["mean_run_ms"]["hi"], m["mean_run_ms"]
assert m["mean_run_ms"]["lo"] <= m["mean_run_ms"]["median"] <= m["mean_run_ms"]["hi"]
PY
check "an exact one-CPU ensemble has zero-width intervals" python3 - <<PY
import json, subprocess
m = json.loads(subprocess.check_output(["$eevdf", "sim", "--hogs", "3", "--duration", "200ms", "--seeds", "4", "--json"]))["metrics"]
for k, v in m.items():
    assert v["lo"] == v["hi"] == v["median"], (k, v)
PY
expect_exit 2 "--seeds: 0 is not 1..10000" sim --hogs 2 --seeds 0

# --seeds with --sweep: every sweep point an ensemble, the product bounded.
"$eevdf" sim "$pp" --duration 200ms --profile "$tmp/noisy.json" --sweep hz=100,1000 --seeds 4 --json >"$tmp/sw1.json"
"$eevdf" sim "$pp" --duration 200ms --profile "$tmp/noisy.json" --sweep hz=100,1000 --seeds 4 --json --jobs 1 >"$tmp/sw2.json"
check "a sweep of ensembles does not depend on --jobs" cmp -s "$tmp/sw1.json" "$tmp/sw2.json"
check "a sweep of ensembles gives each point the ensemble of its own seeds" python3 - "$eevdf" "$pp" "$tmp/noisy.json" "$tmp/sw1.json" <<'PY'
import json, subprocess, sys
eevdf, pp, prof, f = sys.argv[1:]
d = json.load(open(f))
assert d["ensemble"]["seeds"] == 4 and [p["sweep"]["hz"] for p in d["points"]] == ["100", "1000"], d["ensemble"]
for p in d["points"]:
    alone = json.loads(subprocess.check_output([eevdf, "sim", pp, "--duration", "200ms", "--profile", prof,
                                                "--hz", p["sweep"]["hz"], "--seeds", "4", "--json"]))["metrics"]
    assert p["metrics"] == alone, (p["sweep"], p["metrics"]["mean_run_ms"], alone["mean_run_ms"])
PY
expect_exit 2 "--seeds 30 x 901 sweep configurations: more than 10000 runs" sim --hogs 2 --seeds 30 --sweep hz=100..1000:1
expect_exit 2 "--seeds: the seed is swept (--sweep seed=1,2)" sim --hogs 2 --seeds 3 --sweep seed=1,2
expect_exit 2 "--seeds: 0 is not 1..10000" sim --hogs 2 --seeds 0 --sweep hz=100,250

# schbench --seeds: the same figures for the same seeds, whatever the threads.
sb=(schbench -m 1 -t 2 -n 5 --op-cost 765us -r 2 --cpus 2 --hz 250 --stress 2 --profile vm-6.18.44-hz250)
"$eevdf" "${sb[@]}" --seeds 6 --json >"$tmp/sb1.json"
"$eevdf" "${sb[@]}" --seeds 6 --json --jobs 1 >"$tmp/sb2.json"
check "schbench --seeds: byte-identical for the same seeds and profile, on 1 or all threads" cmp -s "$tmp/sb1.json" "$tmp/sb2.json"
check "schbench --seeds: each figure is the median over the seeds' own runs" python3 - "$eevdf" "$tmp/sb1.json" "${sb[@]}" <<'PY'
import json, statistics, subprocess, sys
eevdf, f, *sb = sys.argv[1:]
m = json.load(open(f))["metrics"]
p99 = [json.loads(subprocess.check_output([eevdf] + sb + ["--seed", str(s), "--json"]))["wakeup_latency_us"]["p99"] for s in range(6)]
assert m["wakeup_p99_us"]["median"] == statistics.median(p99), (m["wakeup_p99_us"], p99)
assert min(p99) <= m["wakeup_p99_us"]["lo"] <= m["wakeup_p99_us"]["hi"] <= max(p99), (m["wakeup_p99_us"], p99)
assert m["wakeup_p99_us"]["lo"] < m["wakeup_p99_us"]["hi"], "the calibrated profile spreads the p99"
PY
"$eevdf" schbench -m 1 -t 2 -r 1 --op-cost 500us --cpus 2 --seeds 3 >"$tmp/sbx.txt"
check "schbench --seeds under the exact profile says that every seed is one run" grep -q "every seed gave the same figures (the exact profile" "$tmp/sbx.txt"
expect_exit 2 "--seeds: 0 is not 1..10000" schbench -m 1 -t 2 -r 1 --op-cost 500us --seeds 0
expect_exit 2 "--seeds: 10001 is not 1..10000" schbench -m 1 -t 2 -r 1 --op-cost 500us --seeds 10001
expect_exit 2 "seeds passes 2^64" schbench -m 1 -t 2 -r 1 --op-cost 500us --seed 18446744073709551615 --seeds 2
expect_exit 2 "--seeds = x" schbench -m 1 -t 2 -r 1 --op-cost 500us --seeds x

# slice-table --seeds: cells as median [95 % interval].
st=(slice-table --hz-list 250 --slices 1ms,3ms --duration 1s --profile "$tmp/noisy.json")
"$eevdf" "${st[@]}" --seeds 5 --json >"$tmp/st1.json"
"$eevdf" "${st[@]}" --seeds 5 --json --jobs 1 >"$tmp/st2.json"
check "slice-table --seeds: byte-identical on 1 or all threads" cmp -s "$tmp/st1.json" "$tmp/st2.json"
check "slice-table --seeds: a row's plain figures are its first seed's, the seeds object its ensemble" python3 - "$eevdf" "$tmp/st1.json" "${st[@]}" <<'PY'
import json, subprocess, sys
eevdf, f, *st = sys.argv[1:]
d = json.load(open(f))
one = json.loads(subprocess.check_output([eevdf] + st + ["--json"]))
for a, b in zip(d["rows"], one["rows"]):
    assert a["context_switches"] == b["context_switches"] and a["avg_run_ns"] == b["avg_run_ns"], (a, b)
    s = a["seeds"]["context_switches"]
    assert s["lo"] <= s["median"] <= s["hi"], s
PY
"$eevdf" "${st[@]}" --seeds 5 >"$tmp/st.txt"
check "slice-table --seeds: the markdown cells read median [lo..hi]" grep -Eq '\| +[0-9.]+ \[[0-9.]+\.\.[0-9.]+\] \|' "$tmp/st.txt"
expect_exit 2 "--seeds: 0 is not 1..10000" slice-table --seeds 0
expect_exit 2 "--seeds 3000 x 4 cells: more than 10000 runs" slice-table --hz-list 250,1000 --slices 1ms,2ms --seeds 3000

# check --seeds: rows judged against the interval; each seed under the invariant checker.
"$eevdf" check "$data/../../claims/seed000-schbench-vm.json" >"$tmp/cv1.txt"
"$eevdf" check "$data/../../claims/seed000-schbench-vm.json" --jobs 1 >"$tmp/cv2.txt"
check "a claim over seeds: byte-identical on 1 or all threads" cmp -s "$tmp/cv1.txt" "$tmp/cv2.txt"
check "a claim over seeds says in its verdict what it judged" grep -q "holds over the 95 % interval of 20 seeds" "$tmp/cv1.txt"
cat >"$tmp/bugclaim.json" <<'JSON'
{ "claim": "three hogs share one CPU", "config": {"kernel": "6.18", "cpus": 1, "hogs": 3, "duration": "200ms", "bug": "eligible-strict"},
  "metric": {"name": "mean_run_ms"}, "tolerance": {"relative": 0.5}, "rows": [{"label": "hogs", "set": {}, "claimed": 3}] }
JSON
expect_exit 1 "hogs: seed 5 broke invariant 'eligibility' .*replay: eevdf check .*bugclaim.json --seeds 1 --seed 5" check "$tmp/bugclaim.json" --seeds 3 --seed 5
check "without --seeds a claim runs without the invariant checker, as before" sh -c '"$0" check "$1" >/dev/null' "$eevdf" "$tmp/bugclaim.json"
expect_exit 2 "--seeds: 0 is not 1..10000" check "$tmp/bugclaim.json" --seeds 0
expect_exit 2 "--seed 4: the first of --seeds N; give --seeds too" check "$tmp/bugclaim.json" --seed 4
sed 's/"hogs": 3,/"hogs": 3, "seeds": 0,/' "$tmp/bugclaim.json" >"$tmp/badseeds.json"
expect_exit 2 "config.seeds: expected an integer in 1..10000, got 0" check "$tmp/badseeds.json"
expect_exit 2 "--profile: no built-in profile 'nosuch'" sim --hogs 2 --profile nosuch
printf '{"eevdf_profile": 1, "name": "x", "bogus": 1}' >"$tmp/bad-profile.json"
expect_exit 2 "bad-profile.json:1:44: bogus: unknown key" sim --hogs 2 --profile "$tmp/bad-profile.json"
printf '{"eevdf_profile": 1, "name": "j", "tick_jitter": "1ms"}' >"$tmp/jumpy.json"
expect_exit 2 "tick jitter up to" sim --hogs 2 --hz 1000 --profile "$tmp/jumpy.json"

# probe --rtapp refuses a file with task groups when the rt-app in PATH does
# not know "taskgroup" (Debian's 1.0 ignores it and would run them flat);
# before anything runs on the kernel.
mkdir -p "$tmp/oldrtapp"
printf '#!/bin/sh\necho "rt-app 1.0"\n' >"$tmp/oldrtapp/rt-app"
chmod +x "$tmp/oldrtapp/rt-app"
PATH="$tmp/oldrtapp:$PATH" expect_exit 2 "does not know the key (Debian's rt-app 1.0 ignores it)" probe --rtapp "$data/rtapp/groups_two.json"

echo "cli: $pass passed, $failures failed"
[ "$failures" -eq 0 ]
