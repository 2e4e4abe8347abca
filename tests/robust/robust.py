#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Hostile inputs against every command of eevdf (issue 19).

Usage: robust.py EEVDF_BINARY REPO_DIR [--list] [--only SUBSTRING]

Each case runs eevdf in a fresh directory under a time limit and states
what must happen:
  - a rejection: exit 2, and stderr names the place (a flag, or the file
    with its line and column or its field), never a crash or a hang;
  - a valid edge: exit 0;
and, whatever the outcome, no file is left behind that the run did not
produce whole (no temporary files, no partial outputs after an error).
The cases are generated from tables below, so the corpus grows by adding a
row; `--list` prints them.
"""
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import round3  # noqa: E402  (the third round's tables, issue 38)

TIMEOUT_S = 20
REPO = "."

# ---------------------------------------------------------------- case tables

# Values no time-valued flag may accept, and the part of the message that
# must name what was wrong.
BAD_DURATIONS = [
    "", "abc", "-1ms", "1e400", "nan", "inf", "3 ms", "3parsec", "1.5.3ms",
    "18446744073709551616", "18446744073709551616ns", "18446744073.709551617s",
    "99999999999999999999s", "0x10ms", "+-3ms", "ms", "5", "2.5",  # a bare number has no unit
]
BAD_COUNTS = ["", "abc", "1e400", "nan", "18446744073709551616", "1.5", "0x", " 3", "3 "]
# Negative values are bad only where the flag is unsigned (nice is signed),
# and 2^32 + 2 only where it must fit 32 bits (a seed is 64-bit).
BAD_UNSIGNED = ["-1"]
BAD_32BIT = ["4294967298"]

SIM_DURATION_FLAGS = ["--duration", "--slice", "--tick-phase", "--tick-jitter", "--switch-cost",
                      "--ipi-latency", "--idle-exit-latency", "--wakeup-irq-cost", "--balance-cost",
                      "--custom-slice"]
SIM_COUNT_FLAGS = ["--hz", "--cpus", "--online-cpus", "--llc", "--seed", "--hogs", "--nice", "--jobs"]


def sim_flag_cases():
    base = ["sim", "--hogs", "2", "--duration", "10ms"]
    for flag in SIM_DURATION_FLAGS:
        for v in BAD_DURATIONS:
            if flag == "--duration":
                args = ["sim", "--hogs", "2", flag, v]
            else:
                args = base + [flag, v]
            yield (f"sim {flag} {v!r}", args, 2, re.escape(flag))
    for flag in SIM_COUNT_FLAGS:
        bad = BAD_COUNTS + ([] if flag == "--nice" else BAD_UNSIGNED) + ([] if flag == "--seed" else BAD_32BIT)
        for v in bad:
            args = (["sim", "--duration", "10ms", flag, v] if flag == "--hogs" else base + [flag, v])
            yield (f"sim {flag} {v!r}", args, 2, re.escape(flag))
    for flag, v in [("--kernel", "9.9"), ("--kernel", ""), ("--features", "+NO_SUCH"), ("--features", "++"),
                    ("--preempt", "sometimes"), ("--bug", "no-such-bug"), ("--pin", "0-"), ("--pin", "7"),
                    ("--pin", "3-1"), ("--sweep", "hz"), ("--sweep", "hz="), ("--sweep", "nosuch=1"),
                    ("--sweep", "hz=100..50"), ("--sweep", "hogs=4294967298")]:
        yield (f"sim {flag} {v!r}", base + [flag, v], 2, re.escape(flag))
    # Contradictions and limits the model states.
    yield ("sim --llc not dividing --cpus", base + ["--cpus", "6", "--llc", "4"], 2, "--llc")
    yield ("sim --cpus above 256", base + ["--cpus", "257"], 2, "--cpus")
    # Machine shapes (issue 37): sizes that do not nest, a node split, keys
    # repeated or unknown, a node distance out of range; the largest SMT
    # shape and a 256-CPU machine of 8 nodes run.
    for spec, want in [("cpus=8,smt=3", "smt 3"), ("cpus=8,smt=2,cluster=3", "cluster"),
                       ("cpus=8,smt=4,cluster=2", "do not divide"), ("cpus=8,smt=0", "smt 0"),
                       ("cpus=8,smt=4294967297", "smt"), ("cpus=8,cluster=4,llc=2", "do not divide"),
                       ("cpus=8,smt=2,node=4,distance=10", "numa distance 10"),
                       ("cpus=8,smt=2,node=3", "do not divide"), ("cpus=8,smt=2,smt=4", "given twice"),
                       ("cpus=8,threads=2", "threads")]:
        yield (f"sim --topology {spec}", ["sim", "--hogs", "2", "--duration", "10ms", "--topology", spec], 2,
               re.escape(want))
    yield ("sim valid edge --topology cpus=256,smt=8,cluster=32", ["sim", "--hogs", "4", "--duration", "10ms",
           "--topology", "cpus=256,smt=8,cluster=32"], 0, None)
    for spec, want in [("/dev/zero", "more than 1 MiB"), ("missing.json", "cannot open the topology file"),
                       (".", None)]:
        yield (f"sim --topology file {spec}", ["sim", "--hogs", "2", "--duration", "10ms", "--topology", spec], 2,
               re.escape(want) if want else None)
    yield ("sim --topology a node distance above 254", ["sim", "--hogs", "4", "--duration",
           "10ms", "--topology", "cpus=256,smt=2,llc=16,node=32,distance=255"], 2, "numa distance 255")
    yield ("sim valid edge --topology cpus=256,smt=2,llc=16,node=32,distance=254", ["sim", "--hogs", "300", "--duration",
           "10ms", "--topology", "cpus=256,smt=2,llc=16,node=32,distance=254"], 0, None)
    yield ("sim --hz above 100000", base + ["--hz", "100001"], 2, "--hz")
    yield ("sim --hogs above 1000000", ["sim", "--duration", "10ms", "--hogs", "1000001"], 2, r"--hogs: 1000001 is outside 1\.\.1000000")
    yield ("sim a flag twice", base + ["--hz", "100", "--hz", "250"], (0, 2), None)
    yield ("sim an unknown flag", base + ["--no-such-flag"], 2, "no-such-flag")
    yield ("sim no workload and no --hogs", ["sim"], 2, None)
    yield ("sim a workload file that does not exist", ["sim", "missing.json"], 2, "missing.json")
    yield ("sim a directory as the workload", ["sim", "."], 2, None)
    yield ("sim /dev/zero as the workload", ["sim", "/dev/zero"], 2, "/dev/zero")
    # Valid edges: the smallest and largest accepted values run.
    for extra in [["--hz", "1"], ["--hz", "100000"], ["--cpus", "256"], ["--slice", "1ns"], ["--tick-jitter", "0"],
                  ["--seed", "18446744073709551615"], ["--nice", "-20"], ["--nice", "19"]]:
        args = ["sim", "--hogs", "3", "--duration", "10ms"] + extra
        yield (f"sim valid edge {' '.join(extra)}", args, 0, None)
    for extra in [["--duration", "1ns"], ["--duration", "0.000000001s"]]:
        args = ["sim", "--hogs", "2"] + extra
        yield (f"sim valid edge {' '.join(extra)}", args, 0, None)


def corrupt_json_cases(kind, path, run_args, loc_re):
    """Truncations, byte damage and hostile values in a valid JSON file."""
    text = open(path).read()
    name = os.path.basename(path)
    n = len(text)
    for k in range(1, 12):
        cut = n * k // 12
        yield (f"{kind} {name} cut at {cut}", ("file", text[:cut]), run_args, 2, loc_re)
    for pos in range(3, n, max(1, n // 10)):
        for b in ["\x00", "}", "\"", "\n\n{"]:
            damaged = text[:pos] + b + text[pos + 1:]
            yield (f"{kind} {name} byte {pos} -> {b!r}", ("file", damaged), run_args, (0, 1, 2), loc_re)


def hostile_value_cases(kind, doc, paths, run_args, loc_re, finite_rc=(0, 2)):
    """Replace each numeric leaf with values no reader may take silently:
    a non-finite number is always refused; the others may be valid where
    the field allows them (then the run's own status: 0, or 1 for a claim
    that disagrees)."""
    for p in paths:
        for v in [-1, 1e400, 18446744073709551616, "3", None, [], {}, True, 0.5, 1e300]:
            d = json.loads(json.dumps(doc))
            node = d
            for key in p[:-1]:
                node = node[key]
            node[p[-1]] = v
            body = json.dumps(d).replace("Infinity", "1e400")
            rc = 2 if v == 1e400 else finite_rc
            yield (f"{kind} {'.'.join(map(str, p))} = {v!r}", ("file", body), run_args, rc, loc_re)


RTAPP_DOC = {"global": {"duration": 1},
             "tasks": {"a": {"loop": -1, "run": 1000, "sleep": 2000},
                       "b": {"instance": 2, "loop": 3, "run": 500, "timer": {"ref": "t", "period": 4000}}}}
RTAPP_PATHS = [("global", "duration"), ("tasks", "a", "run"), ("tasks", "a", "sleep"), ("tasks", "a", "loop"),
               ("tasks", "b", "instance"), ("tasks", "b", "timer", "period"), ("tasks", "b", "loop")]


def rtapp_cases(repo):
    run = ["sim", "{file}", "--duration", "20ms"]
    loc = r"w\.json(:\d+:\d+)?: "
    yield from hostile_value_cases("rt-app", RTAPP_DOC, RTAPP_PATHS, run, loc)
    for f in ["tutorial_simple.json", "periodic_phases.json", "suspend_resume.json",
              "doc_tutorial5_lock_across_run.json"]:
        yield from corrupt_json_cases("rt-app", os.path.join(repo, "tests/data/rtapp", f), run, loc)
    deep = "[" * 100000
    yield ("rt-app nested 100000 deep", ("file", '{"tasks": ' + deep), run, 2, loc)
    yield ("rt-app a name with a newline", ("file", json.dumps({"tasks": {"a\nb": {"run": 10}}})), run, 2, loc)
    yield ("rt-app a name with a NUL", ("file", json.dumps({"tasks": {"a\u0000b": {"run": 10}}})), run, 2, loc)
    yield ("rt-app 10^9 instances", ("file", json.dumps({"tasks": {"a": {"instance": 10**9, "run": 10}}})),
           run, 2, loc)
    yield ("rt-app an empty file", ("file", ""), run, 2, loc)
    yield ("rt-app 1.1 million values", ("file", '{"junk": [' + ",".join(["1"] * 1100000) + '], "tasks": {}}'),
           run, 2, loc)
    yield ("rt-app not an object", ("file", "[1, 2]"), run, 2, loc)
    yield ("rt-app no tasks", ("file", '{"global": {"duration": 1}}'), run, 2, loc)
    for what, ev in [("lock of a number", {"lock": 3}), ("lock of an object", {"lock": {}}),
                     ("wait with a numeric mutex", {"wait": {"ref": "c", "mutex": 1}}),
                     ("wait without a ref", {"wait": {"mutex": "m"}}),
                     ("signal of a list", {"signal": ["c"]})]:
        yield (f"rt-app {what}", ("file", json.dumps({"tasks": {"a": {"run": 10, **ev}}})), run, 2, loc)
    yield ("rt-app a mutex locked twice", ("file", '{"tasks": {"a": {"lock": "m", "run": 10, "lock": "m"}}}'),
           run, 2, loc)
    # Valid edges: glibc's normal mutex does not check its owner, and a
    # signal with no waiter is lost; both run.
    yield ("rt-app unlock of a free mutex", ("file", json.dumps({"tasks": {"a": {"unlock": "m", "run": 10}}})),
           run, 0, None)
    yield ("rt-app a signal nobody waits for", ("file", json.dumps({"tasks": {"a": {"signal": "c", "run": 10}}})),
           run, 0, None)


def claim_cases(repo):
    run = ["check", "{file}"]
    loc = r"w\.json(:\d+:\d+)?: "
    for f in ["seed000-hz-runs.json", "seed004-nohz.json"]:
        yield from corrupt_json_cases("claim", os.path.join(repo, "claims", f), run, loc)
    doc = json.load(open(os.path.join(repo, "claims", "seed004-nohz.json")))
    paths = []
    for key in ("config", "tolerance"):
        if isinstance(doc.get(key), dict):
            for k, v in doc[key].items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    paths.append((key, k))
    for i, row in enumerate(doc.get("rows", [])):
        for k, v in row.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                paths.append(("rows", i, k))
    yield from hostile_value_cases("claim", doc, paths[:8], run, loc, finite_rc=(0, 1, 2))


def output_cases():
    sim = ["sim", "--hogs", "2", "--duration", "10ms"]
    for flag in ["--csv", "--trace", "--timehist", "--latency", "--map", "--chrome", "--svg-lag"]:
        yield (f"sim {flag} into a missing directory", sim + [flag, "no/such/dir/out"], 2, re.escape("no/such/dir"))
        yield (f"sim {flag} onto a directory", sim + [flag, "."], 2, None)
        yield (f"sim {flag} to a full device", sim + [flag, "{full}"], 2, re.escape(flag))
    yield ("sim two outputs to one file", sim + ["--csv", "x.out", "--trace", "x.out"], 2, "x.out")
    yield ("sim --json to a full stdout", sim + ["--json"], 2, None, "/dev/full")
    yield ("sim the table to a full stdout", sim, 2, None, "/dev/full")


def other_command_cases():
    for args, rc, pat in [
        (["slice-table", "--hz-list", "0"], 2, "--hz"),
        (["slice-table", "--hz-list", ""], 2, "--hz-list"),
        (["slice-table", "--hz-list", "abc"], 2, "--hz-list"),
        (["slice-table", "--slices", "0ms"], 2, "--slices"),
        (["slice-table", "--slices", "abc"], 2, "--slices"),
        (["slice-table", "--hogs", "-1"], 2, "--hogs"),
        (["slice-table", "--duration", "-1s"], 2, "--duration"),
        (["schbench", "-m", "0", "-n", "0", "-r", "1"], 2, "-m"),
        (["schbench", "-m", "-1", "-n", "0", "-r", "1"], 2, "-m"),
        (["schbench", "-t", "-2", "-n", "0", "-r", "1"], 2, "-t"),
        (["schbench", "-r", "0", "-n", "0"], 2, "-r"),
        (["schbench", "-r", "abc", "-n", "0"], 2, "-r"),
        (["schbench", "-s", "abc", "-n", "0", "-r", "1"], 2, "-s"),
        (["schbench", "-n", "5", "-r", "1"], 2, "--op-cost"),
        (["schbench", "-n", "0", "-r", "1", "--op-cost", "abc"], 2, "--op-cost"),
        (["schbench", "-n", "0", "-r", "1", "--msg-cost", "0"], 2, "--msg-cost"),
        (["schbench", "-n", "0", "-r", "1", "--stress", "-1"], 2, "--stress"),
        (["schbench", "-n", "0", "-r", "1", "--with", "missing.json"], 2, "missing.json"),
        (["schbench", "-n", "0", "-r", "1", "-M", "0-3"], 2, "-M"),
        (["check"], 2, None),
        (["check", "missing.json"], 2, "missing.json"),
        (["check", "/dev/null"], 2, "/dev/null"),
        (["plot"], 2, None),
        (["plot", "runs", "--hz", "abc", "-o", "x.svg"], 2, "--hz"),
        (["plot", "runs", "-o", "no/such/dir/x.svg"], 2, "no/such/dir"),
        # Where eevdf-prove is not built (a build without proofs/) the
        # refusal names the missing prover instead.
        (["prove", "--timeout", "abc"], 2, ("--timeout", "cannot find eevdf-prove")),
        (["prove", "--seed", "abc"], 2, ("--seed", "cannot find eevdf-prove")),
        (["no-such-command"], 2, "no-such-command"),
        (["bugs", "--no-such-flag"], 2, "no-such-flag"),
        (["presets", "extra"], 2, None),
        (["--version", "extra"], 2, "extra"),
        (["plot", "sweep", "--sweep", "hz=100", "--metric", "run", "-o", "s.svg"], 2, "--metric"),
        (["plot", "sweep", "--sweep", "hz=100", "--metric", "", "-o", "s.svg"], 2, "--metric"),
        (["plot", "sweep", "-o", "s.svg"], 2, "--sweep"),
        (["plot", "sweep", "--sweep", "hz=100", "-o", "s.png"], 2, "SVG only"),
        (["plot", "sweep", "--sweep", "hz=100", "--x", "cpus", "-o", "s.svg"], 2, "--x"),
        (["sim", "--hogs", "1", "--duration", "10ms", "--from", "1ms"], 2, "--svg-lag"),
        (["sim", "--hogs", "1", "--duration", "10ms", "--svg-lag", "l.svg", "--to", "0"], 2, "--to"),
        (["sim", "--hogs", "1", "--duration", "10ms", "--svg-lag", "l.svg", "--from", "abc"], 2, "--from"),
        (["diff", "missing.json", "missing.json"], 2, "missing.json"),
        (["diff", "/dev/null", "/dev/null"], 2, "/dev/null"),
        (["diff", "a.json"], 2, "b"),
        (["diff", "a.json", "b.json", "--threshold", "-1"], 2, "--threshold"),
        (["diff", "a.json", "b.json", "--threshold", "nan"], 2, "--threshold"),
        (["sim", "--hogs", "1", "--duration", "10ms", "--duration", "20ms"], 2, "--duration was given 2 times"),
        (["sim", "--hogs", "1", "--duration", "10ms", "--trace", "-", "--csv", "-"], 2, "--csv -"),
        (["sim", "--hogs", "1", "--duration", "10ms", "--trace", "-", "--json"], 2, "--trace -"),
        (["sim", "--hogs", "1", "--duration", "10ms", "--svg-lag", "x.png"], 2, "SVG only"),
        (["plot", "runs", "-o", "x.jpeg"], 2, "SVG only"),
        (["check", "claims/seed001-doc.json", "--svg", "-", "--json"], 2, "--svg -"),
        (["sim", "--version"], 2, "--version"),
    ]:
        if isinstance(pat, tuple):
            pat = "|".join(re.escape(p) for p in pat)
        elif pat:
            pat = re.escape(pat)
        yield (f"{args[0]} {' '.join(args[1:])}", args, rc, pat)


def probe_cases():
    """The live-kernel probe's arguments: refused before any hog starts or
    any trace instance is made (where eevdf-probe is not built, the refusal
    names the missing probe instead)."""
    bad = [("--hogs", "abc"), ("--hogs", "0"), ("--hogs", "65"), ("--hogs", "-1"), ("--hogs", ""),
           ("--duration", "-1s"), ("--duration", "0"), ("--duration", "601s"), ("--duration", "abc"),
           ("--duration", "1e400"), ("--slice", "1e400"), ("--slice", "abc"), ("--slice", "-3ms"),
           ("--nices", "0,abc"), ("--nices", "20"), ("--nices", "-21"), ("--cpu", "-1"), ("--cpu", "abc"),
           ("--waker", "9223372036854775807:0"), ("--waker", "abc"), ("--waker", "1000:"),
           ("--waker", ":10"), ("--waker", "10:1000"), ("--waker-offset", "-1ms"), ("--gap-us", "-5"),
           ("--irq-gap-us", "abc"), ("--warmup", "1e400"), ("--scenario", "no-such-scenario"),
           ("--share-window", "0"), ("--sleeper", "0:0"), ("--pingpong-run", "abc"), ("--no-such-flag", "1"),
           ("--slice", "3"), ("--duration", "5"), ("--warmup", "100")]  # a bare number has no unit
    for flag, v in bad:
        args = ["probe", flag, v] if v else ["probe", flag]
        pat = "|".join(re.escape(x) for x in (flag, "cannot find eevdf-probe"))
        yield (f"probe {flag} {v!r}", args, 2, pat)


def alias_cases(repo):
    """An output that is an input (directly or through a symlink) is refused
    and the input is left as it was."""
    w = open(os.path.join(repo, "tests/data/rtapp/tutorial_simple.json")).read()
    c = open(os.path.join(repo, "claims/seed004-nohz.json")).read()
    for flag in ["--trace", "--csv", "--timehist", "--latency", "--map", "--chrome", "--svg-lag", "--counterexample"]:
        yield (f"sim {flag} onto its own workload", ("file", w), ["sim", "{file}", "--duration", "10ms", flag, "w.json"],
               (0, 2) if flag == "--counterexample" else 2, re.escape(flag) if flag != "--counterexample" else None)
    yield ("sim --csv onto its workload through a symlink", ("file", w),
           ["sim", "{file}", "--duration", "10ms", "--csv", "{link}"], 2, "--csv")
    yield ("plot runs -o onto its workload", ("file", w), ["plot", "runs", "{file}", "--duration", "10ms", "-o", "w.json"],
           2, "--output")
    yield ("check --svg onto the claim file", ("file", c), ["check", "{file}", "--svg", "w.json"], 2, "--svg")
    yield ("check --svg onto the claim's workload", ("file", c), ["check", "{file}", "--svg", "workloads/one-hog.json"],
           2, "--svg")



# A valid two-CPU ftrace trace for the trace commands, and hostile ones.
GOOD_TRACE = (
    "# tracer: nop\n# entries-in-buffer/entries-written: 4/4   #P:2\n"
    "a-10 [000] d..2. 1.000000: sched_wakeup: comm=b pid=11 prio=120 target_cpu=000\n"
    "a-10 [000] d..2. 1.004000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=R+ ==> next_comm=b next_pid=11 next_prio=120\n"
    "b-11 [000] d..2. 1.008000: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 prev_state=R+ ==> next_comm=a next_pid=10 next_prio=120\n"
    "<idle>-0 [001] d..2. 1.009000: sched_wakeup: comm=c pid=12 prio=120 target_cpu=001\n")
PINNED_CPU1 = (
    "<idle>-0 [000] d..2. 1.000000: sched_wakeup: comm=x pid=13 prio=120 target_cpu=000\n"
    "c-12 [001] d..2. 1.002000: sched_switch: prev_comm=c prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n")


def trace_cases(repo):
    line = "a-10 [000] d..2. 1.000000: sched_wakeup: comm=b pid=11 prio=120 target_cpu=000\n"
    for name, body, args, rc, pat in [
        ("trace stats: not a trace line", "hello\n", ["trace", "stats", "{file}"], 2, r"w\.json:1:1: not a trace line"),
        ("trace stats: a bad pid", line.replace("pid=11", "pid=x"), ["trace", "stats", "{file}"], 2, r"w\.json:1:\d+: pid"),
        ("trace stats: an empty file", "", ["trace", "stats", "{file}"], 2, r"w\.json: no sched_switch"),
        ("trace stats: only comments", "# tracer: nop\n", ["trace", "stats", "{file}"], 2, r"no sched_switch"),
        ("trace stats: time goes back", line.replace("1.000000", "2.000000") + line, ["trace", "stats", "{file}"], 2,
         r"w\.json:2:1: timestamp goes back"),
        ("trace stats: a 16-character comm", line.replace("comm=b", "comm=abcdefghijklmnop"), ["trace", "stats", "{file}"], 2,
         r"w\.json:1:\d+: comm must be 1 to 15"),
        ("trace stats: a timestamp past 2^62 ns", line.replace("1.000000", "99999999999999999999.000000"),
         ["trace", "stats", "{file}"], 2, r"w\.json:1:\d+: timestamp"),
        ("trace stats: ten decimals", line.replace("1.000000", "1.0000000000"), ["trace", "stats", "{file}"], 2,
         r"w\.json:1:\d+: timestamp"),
        ("trace stats: CPU 99999", line.replace("[000]", "[99999]"), ["trace", "stats", "{file}"], 2, r"CPU out of range"),
        ("trace stats: target_cpu 99999", line.replace("target_cpu=000", "target_cpu=99999"), ["trace", "stats", "{file}"],
         2, r"target_cpu out of range"),
        ("trace stats: a LOST marker of CPU 99999", line + "CPU:99999 [LOST 3 EVENTS]\n", ["trace", "stats", "{file}"],
         2, r"w\.json:2:\d+: CPU out of range"),
        ("trace stats: a NUL in a comm", line.replace("comm=b", "comm=b\0c"), ["trace", "stats", "{file}"], 2,
         r"w\.json:1:\d+: comm holds a control character"),
        ("trace stats: an event name with a quote", "a-10 [000] 1.000000: x\"y: z\n", ["trace", "stats", "{file}"], 2,
         r"not an event name"),
        ("trace stats: a bad prev_state", GOOD_TRACE.replace("prev_state=R+ ==> next_comm=b", "prev_state=Q ==> next_comm=b"),
         ["trace", "stats", "{file}"], 2, r"w\.json:4:\d+: prev_state"),
        ("trace stats: lenient counts it", "hello\n" + GOOD_TRACE, ["trace", "stats", "{file}", "--lenient"], 0, None),
        ("trace stats: valid", GOOD_TRACE, ["trace", "stats", "{file}", "--json", "--hz", "250"], 0, None),
        ("trace stats: --hz 5", GOOD_TRACE, ["trace", "stats", "{file}", "--hz", "5"], 2, r"--hz"),
        ("trace stats: --from abc", GOOD_TRACE, ["trace", "stats", "{file}", "--from", "abc"], 2, r"--from"),
        ("trace stats: --to before --from", GOOD_TRACE, ["trace", "stats", "{file}", "--from", "2ms", "--to", "1ms"], 2, r"--to"),
        ("trace stats: --task matching nothing", GOOD_TRACE, ["trace", "stats", "{file}", "--task", "zzz"], 2, r"--task"),
        ("trace stats: a missing file", GOOD_TRACE, ["trace", "stats", "missing.trace"], 2, r"missing\.trace: cannot open"),
        ("trace stats: a directory", GOOD_TRACE, ["trace", "stats", "workloads"], 2, r"workloads: is a directory"),
        ("trace stats: no trace", GOOD_TRACE, ["trace", "stats"], 2, r"trace"),
        ("trace: no subcommand", GOOD_TRACE, ["trace"], 2, None),
        ("trace check: no --hz", GOOD_TRACE, ["trace", "check", "{file}"], 2, r"--hz"),
        ("trace check: --jitter a whole tick", GOOD_TRACE, ["trace", "check", "{file}", "--hz", "250", "--jitter", "4ms"], 2,
         r"--jitter"),
        ("trace check: --slice 0", GOOD_TRACE, ["trace", "check", "{file}", "--hz", "250", "--slice", "0ns"], 2, r"--slice"),
        ("trace check: --tolerance abc", GOOD_TRACE, ["trace", "check", "{file}", "--hz", "250", "--tolerance", "abc"], 2,
         r"--tolerance"),
        # A file without a CPU-count header takes the CPUs it shows (issue 44);
        # stdin, which cannot be read twice, still needs one (cli_test.sh).
        ("trace check: no CPU count header", line, ["trace", "check", "{file}", "--hz", "250"], 0, None),
        ("trace check: --kernel 9.9", GOOD_TRACE, ["trace", "check", "{file}", "--hz", "250", "--kernel", "9.9"], 2, r"--kernel"),
        ("trace check: --task-slice without =", GOOD_TRACE, ["trace", "check", "{file}", "--hz", "250", "--task-slice", "a"], 2,
         r"--task-slice"),
        ("trace check: --task-slice a=0", GOOD_TRACE, ["trace", "check", "{file}", "--hz", "250", "--task-slice", "a=0ns"], 2,
         r"--task-slice"),
        ("trace check: --task-slice a=abc", GOOD_TRACE, ["trace", "check", "{file}", "--hz", "250", "--task-slice", "a=abc"], 2,
         r"--task-slice"),
        ("trace check: valid", GOOD_TRACE, ["trace", "check", "{file}", "--hz", "250", "--json"], 0, None),
        ("trace check: a run past its bound", GOOD_TRACE, ["trace", "check", "{file}", "--hz", "1000", "--slice", "1ms"], 1, None),
        ("trace workload: no -o", GOOD_TRACE, ["trace", "workload", "{file}"], 2, r"-o"),
        ("trace workload: -o into a missing directory", GOOD_TRACE, ["trace", "workload", "{file}", "-o", "no/such/dir/w2.json"],
         2, r"no/such/dir"),
        ("trace workload: -o onto the trace", GOOD_TRACE, ["trace", "workload", "{file}", "-o", "{file}"], 2, r"w\.json"),
        ("trace workload: -o onto the trace by a symlink", GOOD_TRACE, ["trace", "workload", "{file}", "-o", "{link}"], 2,
         r"link\.json"),
        ("trace workload: --task matching nothing", GOOD_TRACE, ["trace", "workload", "{file}", "-o", "-", "--task", "zzz"], 2,
         r"--task"),
        ("trace workload: valid", GOOD_TRACE, ["trace", "workload", "{file}", "-o", "-"], 0, None),
        ("trace compare: no --hz", GOOD_TRACE, ["trace", "compare", "{file}"], 2, r"--hz"),
        ("trace compare: a task of CPU 1 on 1 CPU", PINNED_CPU1, ["trace", "compare", "{file}", "--hz", "250", "--cpus", "1"],
         2, r"--cpus"),
        ("trace compare: --threshold abc", GOOD_TRACE, ["trace", "compare", "{file}", "--hz", "250", "--threshold", "abc"], 2,
         r"--threshold"),
        ("trace compare: valid", GOOD_TRACE, ["trace", "compare", "{file}", "--hz", "250"], 0, None),
        ("sim --trace-waking without --trace", GOOD_TRACE, ["sim", "--hogs", "1", "--duration", "1ms", "--trace-waking"], 2,
         r"--trace-waking"),
    ]:
        yield name, (None, body), args, rc, pat

TOPOLOGY_DOC = {"cpus": 8, "smt": 2, "node": 4, "distance": 21}


def topology_cases(repo):
    """A topology file (--topology w.json): every hostile value of every key
    is refused naming the file; so is every truncation."""
    run = ["sim", "--hogs", "2", "--duration", "10ms", "--topology", "{file}"]
    loc = r"w\.json(:\d+:\d+)?: "
    yield from hostile_value_cases("topology", TOPOLOGY_DOC, [(k,) for k in TOPOLOGY_DOC], run, loc, finite_rc=2)
    text = json.dumps(TOPOLOGY_DOC)
    for cut in range(1, len(text)):
        yield (f"topology w.json cut at {cut}", ("file", text[:cut]), run, 2, loc)


def all_cases(repo):
    cases = []
    for gen in (sim_flag_cases(), output_cases(), other_command_cases(), probe_cases(), round3.plain_cases()):
        for c in gen:
            name, args, rc, pat = c[:4]
            stdout = c[4] if len(c) > 4 else None
            cases.append({"name": name, "file": None, "args": args, "rc": rc, "pat": pat, "stdout": stdout})
    for gen in (rtapp_cases(repo), claim_cases(repo), alias_cases(repo), trace_cases(repo), topology_cases(repo),
                round3.file_cases(repo)):
        for name, (_, body), args, rc, pat in gen:
            cases.append({"name": name, "file": body, "args": args, "rc": rc, "pat": pat, "stdout": None})
    return cases


# ---------------------------------------------------------------- running


def run_case(eevdf, case):
    work = tempfile.mkdtemp(prefix="eevdf-robust-")
    try:
        # A full device of our own where we may make one (root), so that a
        # writer that renamed over its output could never replace the
        # system's /dev/full; else /dev/full itself, which a non-root
        # writer cannot replace.
        full = "/dev/full"
        if os.geteuid() == 0:
            full = os.path.join(work, "full")
            os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        if case["file"] is not None:
            os.symlink("w.json", os.path.join(work, "link.json"))
        args = [a.replace("{file}", "w.json").replace("{full}", full).replace("{link}", "link.json")
                for a in case["args"]]
        if case["file"] is not None:
            with open(os.path.join(work, "w.json"), "w") as f:
                f.write(case["file"])
        # Claim files name their workloads relative to themselves (a copy:
        # a writer that got past its checks must not reach the repository).
        shutil.copytree(os.path.join(REPO, "claims", "workloads"), os.path.join(work, "workloads"))
        before = set(os.listdir(work))
        out = open(case["stdout"], "w") if case["stdout"] else subprocess.PIPE
        try:
            cmd, limit = [eevdf] + args, TIMEOUT_S
            if args and args[0] == round3.AS_2G:
                cmd, limit = ["prlimit", "--as=2147483648", eevdf] + args[1:], round3.AS_2G_TIMEOUT_S
            p = subprocess.run(cmd, cwd=work, stdout=out, stderr=subprocess.PIPE, timeout=limit,
                               stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return f"hang: no exit within {limit} s"
        finally:
            if case["stdout"]:
                out.close()
        rc = p.returncode
        err = p.stderr.decode("utf-8", "replace")
        if rc < 0 or rc >= 128:
            sig = -rc if rc < 0 else rc - 128
            return f"crash: signal {sig} ({signal.Signals(sig).name if sig in signal.valid_signals() else '?'}); stderr: {err[-300:]}"
        want = case["rc"] if isinstance(case["rc"], tuple) else (case["rc"],)
        if rc not in want:
            return f"exit {rc}, want {'/'.join(map(str, want))}; stderr: {err[-300:]}"
        if rc == 2:
            if not err.strip():
                return "exit 2 with nothing on stderr"
            if case["pat"] and not re.search(case["pat"], err):
                return f"exit 2, but stderr does not name {case['pat']!r}: {err[-300:]}"
        # No command writes its input.
        if case["file"] is not None and open(os.path.join(work, "w.json")).read() != case["file"]:
            return "the input file was changed"
        left = set(os.listdir(work)) - before
        if rc != 0 and left:
            return f"exit {rc} left files behind: {sorted(left)}"
        stray = [f for f in left if ".tmp" in f or f.startswith(".")]
        if stray:
            return f"temporary files left behind: {stray}"
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_signal_case(eevdf, sig, when):
    """A signal while the outputs are written (`when` = "write": as soon as
    a temporary appears) or while the model runs ("run"): the process dies
    of it, and no temporary and no partial output is left."""
    work = tempfile.mkdtemp(prefix="eevdf-robust-")
    try:
        p = subprocess.Popen([eevdf, "sim", "--hogs", "4", "--hz", "1000", "--duration", "600s",
                              "--csv", "big.csv", "--trace", "big.trace"], cwd=work,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = TIMEOUT_S * 100
        if when == "write":
            while p.poll() is None and deadline > 0 and not any(".eevdf-" in f for f in os.listdir(work)):
                deadline -= 1
                subprocess.run(["sleep", "0.001"])
            if p.poll() is not None:
                return "it finished before a temporary appeared: nothing was tested"
        else:
            subprocess.run(["sleep", "0.05"])
            if p.poll() is not None or os.listdir(work):
                return "it was no longer simulating after 50 ms: nothing was tested"
        p.send_signal(sig)
        try:
            rc = p.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            p.kill()
            return f"no exit within {TIMEOUT_S} s of {signal.Signals(sig).name}"
        if rc != -sig:
            return f"exit {rc}, want death by {signal.Signals(sig).name}"
        left = os.listdir(work)
        if left:
            return f"left behind: {sorted(left)}"
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)


SIGNAL_CASES = [(sig, when) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
                for when in ("run", "write")]


def run_kill_case(eevdf):
    """SIGKILL while the outputs are written leaves a temporary (it cannot
    be caught); the next run writing into that directory removes it."""
    work = tempfile.mkdtemp(prefix="eevdf-robust-")
    try:
        p = subprocess.Popen([eevdf, "sim", "--hogs", "4", "--hz", "1000", "--duration", "600s",
                              "--csv", "big.csv"], cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # The outputs' temporaries: the spools' are unlinked as soon as they
        # are made (a SIGKILL leaves nothing of them); the named one that
        # is renamed at the end lasts while the output is copied into it.
        # Seen twice in a row, it is that one.
        deadline, seen = TIMEOUT_S * 2000, 0
        while p.poll() is None and deadline > 0 and seen < 2:
            deadline -= 1
            seen = seen + 1 if any(".eevdf-" in f for f in os.listdir(work)) else 0
            time.sleep(0.0002)
        if p.poll() is not None:
            return "it finished before a temporary appeared: nothing was tested"
        p.kill()
        p.wait()
        if not any(".eevdf-" in f for f in os.listdir(work)):
            return "no temporary after SIGKILL: nothing was tested"
        q = subprocess.run([eevdf, "sim", "--hogs", "1", "--duration", "1ms", "--csv", "small.csv"], cwd=work,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=TIMEOUT_S)
        if q.returncode != 0:
            return f"the next run exited {q.returncode}: {q.stderr.decode()[-300:]}"
        left = sorted(set(os.listdir(work)) - {"small.csv"})
        if left:
            return f"the next run left the killed run's files: {left}"
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    global REPO
    eevdf, repo = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    REPO = repo
    cases = all_cases(repo)
    if "--list" in sys.argv:
        for c in cases:
            print(c["name"])
        return 0
    if os.environ.get("ASAN_OPTIONS") is not None:
        # AddressSanitizer's shadow memory needs terabytes of address space:
        # the runs under `prlimit --as=2G` are for the plain build.
        cases = [c for c in cases if not (c["args"] and c["args"][0] == round3.AS_2G)]
    if "--only" in sys.argv:
        sub = sys.argv[sys.argv.index("--only") + 1]
        cases = [c for c in cases if sub in c["name"]]
    failures = 0
    for c in cases:
        why = run_case(eevdf, c)
        if why:
            failures += 1
            print(f"FAIL {c['name']}: {why}")
    signals = [] if "--only" in sys.argv else SIGNAL_CASES
    for sig, when in signals:
        why = run_signal_case(eevdf, sig, when)
        if why:
            failures += 1
            print(f"FAIL {signal.Signals(sig).name} while it {'writes' if when == 'write' else 'runs'}: {why}")
    if "--only" not in sys.argv:
        why = run_kill_case(eevdf)
        if why:
            failures += 1
            print(f"FAIL SIGKILL while it writes, then a second run: {why}")
    total = len(cases) + len(signals) + (0 if "--only" in sys.argv else 1)
    print(f"{total - failures} of {total} hostile cases handled")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
