# SPDX-License-Identifier: GPL-2.0-only
"""Hostile inputs, third round (issue 38): the counts and sizes the input
controls, each refused with exit 2 naming the flag or file:line:col before
anything is built, no silent wrap, and the valid edges beside each limit.

The tables here are read by robust.py, in its two forms:
  plain cases  (name, args, rc, pattern[, stdout path])
  file cases   (name, (None, body of w.json), args, rc, pattern)
"""
import json
import re

FILE_LOC = r"w\.json:\d+(:\d+)?: "

# ---------------------------------------------------------------- traces

LINE = "a-10 [000] d..2. 1.000000: sched_wakeup: comm=b pid=11 prio=120 target_cpu=000\n"
BODY = (
    "a-10 [000] d..2. 1.000000: sched_wakeup: comm=b pid=11 prio=120 target_cpu=000\n"
    "a-10 [000] d..2. 1.004000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=R+ ==> next_comm=b next_pid=11 next_prio=120\n"
    "b-11 [000] d..2. 1.008000: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 prev_state=R+ ==> next_comm=a next_pid=10 next_prio=120\n"
    "<idle>-0 [001] d..2. 1.009000: sched_wakeup: comm=c pid=12 prio=120 target_cpu=001\n")

TRACE_COMMANDS = [
    ("stats", ["trace", "stats", "{file}"]),
    ("stats --json", ["trace", "stats", "{file}", "--json"]),
    ("compare", ["trace", "compare", "{file}", "--hz", "250"]),
    ("check", ["trace", "check", "{file}", "--hz", "250", "--slice", "3ms"]),
    ("workload", ["trace", "workload", "{file}", "-o", "-"]),
]
BAD_CPU_COUNTS = ["4294967295", "0", "8193", "99999999999999999999", "-1", "abc", "", "4 x", "1e3", "0x10",
                  "18446744073709551616", "4294967296"]


def ftrace_header(n):
    return "# tracer: nop\n# entries-in-buffer/entries-written: 4/4   #P:" + n + "\n"


def trace_count_cases():
    for v in BAD_CPU_COUNTS:
        for cname, args in TRACE_COMMANDS:
            yield (f"trace {cname}: #P:{v!r}", (None, ftrace_header(v) + BODY), args, 2,
                   r"w\.json:2:\d+: the CPU count")
            yield (f"trace {cname}: cpus={v!r}", (None, "cpus=" + v + "\n" + BODY), args, 2,
                   r"w\.json:1:6: the CPU count")
    # Valid edges: the largest count and a count with trailing spaces.
    for v in ["2", "8192", "2   "]:
        yield (f"trace stats: valid #P:{v!r}", (None, ftrace_header(v) + BODY), ["trace", "stats", "{file}"], 0, None)
        yield (f"trace stats: valid cpus={v!r}", (None, "cpus=" + v + "\n" + BODY), ["trace", "stats", "{file}"], 0,
               None)


def trace_line_cases():
    long_line = "a" * 65537 + "\n"
    for cname, args in TRACE_COMMANDS:
        yield (f"trace {cname}: a line of 65537 bytes first", (None, long_line + BODY), args, 2,
               r"w\.json:1:\d+: the line is longer than 65536 bytes")
        yield (f"trace {cname}: a line of 65537 bytes among events", (None, BODY[:len(LINE)] + long_line + BODY), args,
               2, r"w\.json:2:\d+: the line is longer than 65536 bytes")
        yield (f"trace {cname}: a 1 MB line without its end", (None, BODY + "x" * (1 << 20)), args, 2,
               r"w\.json:5:\d+: the line is longer")
        yield (f"trace {cname}: a comment line of 65537 bytes", (None, "#" + "c" * 65536 + "\n" + BODY), args, 2,
               r"w\.json:1:\d+: the line is longer")
    yield ("trace stats: a 65536-byte line is read whole (and is no trace line)", (None, "a" * 65536 + "\n" + BODY),
           ["trace", "stats", "{file}"], 2, r"w\.json:1:1: not a trace line")
    yield ("trace stats --lenient: a long line is one unparsed line", (None, long_line + BODY),
           ["trace", "stats", "{file}", "--lenient"], 0, None)
    yield ("trace stats --lenient: an 8 MB line", (None, "z" * (8 << 20) + "\n" + BODY),
           ["trace", "stats", "{file}", "--lenient"], 0, None)
    names = "".join(f"a-10 [000] d..2. 0.{i:06d}: ev_{i}: x=1\n" for i in range(2000))
    yield ("trace stats: 2000 distinct skipped event names", (None, names + BODY), ["trace", "stats", "{file}"], 0, None)
    yield ("trace stats: a comm in Latin-1 reaches --json", (None, BODY.replace("comm=b ", "comm=b\xe9 ")),
           ["trace", "stats", "{file}", "--json"], 0, None)


def many_pids(n):
    out, t = [], 1.0
    for i in range(n):
        p = 100 + i
        out.append(f"a-10 [000] d..2. {t:.6f}: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=R+ ==> "
                   f"next_comm=t{i} next_pid={p} next_prio=120\n")
        t += 0.0001
        out.append(f"t{i}-{p} [000] d..2. {t:.6f}: sched_switch: prev_comm=t{i} prev_pid={p} prev_prio=120 "
                   f"prev_state=R+ ==> next_comm=a next_pid=10 next_prio=120\n")
        t += 0.0001
    return "".join(out)


def trace_workload_cases():
    yield ("trace workload: 4097 tasks, more than an rt-app file holds", (None, many_pids(4097)),
           ["trace", "workload", "{file}", "-o", "-"], 2, r"w\.json: 4098 tasks to replay, more than the 4096")
    yield ("trace workload: 4095 tasks are written", (None, many_pids(4095)),
           ["trace", "workload", "{file}", "-o", "-"], 0, None)
    yield ("trace workload: 4097 tasks narrowed by --task", (None, many_pids(4097)),
           ["trace", "workload", "{file}", "-o", "-", "--task", "t1*"], 0, None)

# ---------------------------------------------------------------- schbench

SB = ["schbench", "-n", "0", "-r", "1"]


def schbench_cases():
    for opt, vals, pat in [
        ("-r", ["18446744074", "1000001", "0", "99999999999999999999", "18446744073709551615"], "-r"),
        ("-s", ["18446744073709552", "4611686018427388", "99999999999999999999"], "-s"),
        ("-m", ["4097", "10000", "0", "2147483648"], "-m"),
        ("-t", ["4097", "10000", "2147483648"], "-t"),
        ("--stress", ["1000001", "4294967296", "2147483647"], "--stress"),
    ]:
        for v in vals:
            args = [a for a in SB if opt != "-r" or a not in ("-r", "1")] + [opt, v]
            if opt == "-r":
                args = ["schbench", "-n", "0", "-r", v]
            yield (f"schbench {opt} {v}", args, 2, re.escape(opt) if opt != "-s" else r"-s|--sleeptime")
    for m, t in [("64", "64"), ("4096", "1"), ("2", "2048"), ("1", "4096")]:
        yield (f"schbench -m {m} -t {t}: m x (1 + t) past 4096", SB + ["-m", m, "-t", t], 2, r"-m|-t")
    for n, cost in [("4", "4611686018427387904ns"), ("2", "3000000000000000000ns"), ("2147483647", "3s"),
                    ("1000000", "4611686018427s")]:
        yield (f"schbench -n {n} --op-cost {cost}: a request past 2^62 ns", ["schbench", "-r", "1", "-n", n, "--op-cost", cost],
               2, r"-n|--op-cost")
    for r, w in [("30", "30"), ("40", "100"), ("30", "1000001"), ("100", "18446744073709551615")]:
        yield (f"schbench -r {r} -w {w}: nothing left to measure", ["schbench", "-n", "0", "-r", r, "-w", w], 2, r"-w")
    yield ("schbench valid edge -r 1 -w 5 (schbench drops a warm-up under 30 s)", SB + ["-m", "1", "-t", "1", "-w", "5"],
           0, None)
    yield ("schbench valid edge -m 1 -t 1 -s 0 --timer-slack 50us", SB + ["-m", "1", "-t", "1", "-s", "0"], 0, None)
    yield ("schbench valid edge --stress 0", SB + ["-m", "1", "-t", "1", "--stress", "0"], 0, None)


def schbench_claim(line):
    return json.dumps({
        "claim": "c", "source": {"seed": "000"}, "out_of_scope": [],
        "config": {"kernel": "6.12", "duration": "1s"}, "metric": {"name": "schbench_wakeup_p99_us"},
        "tolerance": {"absolute": 0.05},
        "rows": [{"label": "x", "set": {"cpus": 1, "schbench": line}, "claimed": 1}]}, indent=1)


def schbench_claim_cases():
    for line, pat in [
        ("-m 4097 -t 1", r"schbench -m"), ("-m 1 -t 4097", r"schbench -t"), ("-m 64 -t 64 -n 0", r"schbench -m 64 -t 64"),
        ("-m 1 -t 1 -s 18446744073709552", r"schbench -s"), ("-m 1 -t 1 --stress 1000001", r"--stress"),
        ("-m 1 -t 1 -n 4 --op-cost 4611686018427387904ns", r"schbench -n 4"),
        ("-m 1 -t 1 -n 2147483648 --op-cost 1ns", r"schbench -n"),
        ("-m 1 -t 1 -w 1000001", r"schbench -w"), ("-m 1 -t 1 -n 0 -w 1", r"-w"),
        ("-m 99999999999999999999", r"schbench -m"), ("-m 1 -t 1 --op-cost 4611686018427387905ns", r"--op-cost"),
    ]:
        yield (f"claim schbench line {line!r}", (None, schbench_claim(line)), ["check", "{file}"], 2, pat)

# ---------------------------------------------------------------- CPUs, lists, sweeps

SIM = ["sim", "--hogs", "2", "--duration", "10ms"]


def cpu_cases():
    for flag, vals in [("--online-cpus", ["0", "257", "4294967295", "99999", "18446744073709551615"]),
                       ("--llc", ["0", "257", "4294967295", "99999"])]:
        for v in vals:
            for cmd in (SIM, SB + ["-m", "1", "-t", "1"], ["plot", "runs", "-o", "x.svg"]):
                yield (f"{cmd[0]} {flag} {v}", cmd + [flag, v], 2, re.escape(flag))
    for v in ["0,", ",0", "0,,1", ",", "0-", "-1", "0-256", "256", "0,256", "1-0", "0--1", "0;1", "0 1", "00000000000000000000256",
              "18446744073709551616", "0-18446744073709551615"]:
        yield (f"sim --pin {v!r}", SIM + ["--pin", v], 2, r"--pin")
    for v in ["0,0", "0-1,1", "00", "1,0"]:
        yield (f"sim valid edge --cpus 2 --pin {v}", SIM + ["--cpus", "2", "--pin", v], 0, None)
    for v in ["1", "256"]:
        yield (f"sim valid edge --online-cpus {v}", ["sim", "--hogs", "2", "--duration", "10ms", "--online-cpus", v], 0, None)
    yield ("sim valid edge --cpus 4 --llc 2", SIM + ["--cpus", "4", "--llc", "2"], 0, None)


def list_cases():
    for cmd, flag, vals in [
        (["slice-table", "--duration", "100ms"], "--slices", ["3ms,,6ms", ",3ms", "3ms,", ",", ",,"]),
        (["slice-table", "--duration", "100ms"], "--hz-list", ["100,,250", ",100", "100,", ","]),
        (["plot", "runs", "-o", "x.svg", "--duration", "10ms"], "--slices", ["3ms,,6ms", ",3ms", "3ms,"]),
        (["plot", "runs", "-o", "x.svg", "--duration", "10ms"], "--hz", ["100,,250", ",100", "100,"]),
    ]:
        for v in vals:
            yield (f"{cmd[0]} {flag} {v!r}", cmd + [flag, v], 2, re.escape(flag))
            yield (f"{cmd[0]} {flag}={v!r}", cmd + [f"{flag}={v}"], 2, re.escape(flag))


def sweep_cases():
    for specs, pat in [
        (["seed=1..10000:1", "hz=1..10000:1"], r"more than 10000 configurations"),
        (["seed=1..200:1", "hz=100..150:1"], r"more than 10000 configurations"),
        (["seed=1..10001:1"], r"more than 10000 values"),
        (["seed=1..6000:1,1..6000:1"], r"more than 10000 values"),
        (["seed=1..18446744073709551615:1"], r"--sweep"),
        (["seed=9223372036854775807..9223372036854775808"], r"--sweep"),
        (["slice=1ns..4611686018427387904ns:1ns"], r"--sweep"),
    ]:
        args = ["sim", "--hogs", "1", "--duration", "1ms"]
        for s in specs:
            args += ["--sweep", s]
        yield (f"sim --sweep {' '.join(specs)}", args, 2, pat)
    for specs in (["seed=1..9223372036854775807:9223372036854775806"], ["seed=9223372036854775807..9223372036854775807"],
                  ["seed=4611686018427387904..9223372036854775807"], ["slice=1ms..4611686018427387904ns"]):
        args = ["sim", "--hogs", "1", "--duration", "1ms"]
        for s in specs:
            args += ["--sweep", s]
        # The doubling range of slices is 43 configurations of 1 ms: quick.
        yield (f"sim valid edge --sweep {' '.join(specs)}", args, 0, None)
    for v in ["1025", "4294967296", "99999999999"]:
        yield (f"sim --sweep --jobs {v}", ["sim", "--hogs", "1", "--duration", "1ms", "--sweep", "seed=1,2", "--jobs", v], 2,
               r"--jobs")

# ---------------------------------------------------------------- run sizes


def size_cases():
    yield ("sim --hz 100000 --duration 100000s: 10^10 ticks", ["sim", "--hogs", "1", "--hz", "100000", "--duration",
                                                              "100000s"], 2, r"ticks.*--duration")
    yield ("sim --cpus 256 --duration 20000s: 5 x 10^9 ticks", ["sim", "--hogs", "1", "--cpus", "256", "--hz", "1000",
                                                               "--duration", "20000s"], 2, r"ticks")
    yield ("sim --duration 2^62 ns", ["sim", "--hogs", "1", "--duration", "4611686018427387904ns"], 2, r"ticks|--duration")
    yield ("sim --hogs 200000 --cpus 256: tasks x CPUs", ["sim", "--hogs", "200000", "--cpus", "256", "--duration", "1ms"],
           2, r"--cpus")
    yield ("schbench -m 64 -t 63 --cpus 256 --stress 200000", SB + ["-m", "64", "-t", "63", "--cpus", "256", "--stress",
                                                                     "200000"], 2, r"--cpus|CPUs")

# ---------------------------------------------------------------- rt-app

RUN = ["sim", "{file}", "--duration", "20ms"]


def rtapp(task):
    return json.dumps({"tasks": {"t": task}})


def rtapp_cases():
    for key in ("util_min", "util_max"):
        for v in ["-1", "1025", "1e400", "\"x\"", "2.5", "99999999999999999999", "null", "[]", "true", "-0.5"]:
            body = '{"tasks": {"t": {"' + key + '": ' + v + ', "run": 10}}}'
            yield (f"rt-app {key} {v}", (None, body), RUN, 2, FILE_LOC + r"tasks\.t\." + key)
            body = '{"tasks": {"t": {"phases": {"p": {"' + key + '": ' + v + ', "run": 10}}}}}'
            yield (f"rt-app phase {key} {v}", (None, body), RUN, 2, FILE_LOC + r"tasks\.t\.phases\.p\." + key)
        for v in ["0", "1024", "512"]:
            yield (f"rt-app valid edge {key} {v}", (None, rtapp({key: int(v), "run": 10})), RUN, 0, None)
    yield ("rt-app util_min above util_max", (None, rtapp({"util_min": 600, "util_max": 500, "run": 10})), RUN, 2,
           r"util_min 600 is above util_max 500")
    yield ("rt-app util_max below util_min", (None, rtapp({"util_max": 1, "util_min": 2, "run": 10})), RUN, 2,
           r"util_min 2 is above util_max 1")
    # A mutex a thread holds at the end of an iteration and locks again.
    for what, task in [
        ("task loop", {"loop": -1, "lock": "m", "run": 100}),
        ("task loop 2", {"loop": 2, "lock": "m", "run": 100}),
        ("phase loop", {"phases": {"p": {"loop": 2, "lock": "m", "run": 100}}}),
        ("later phase", {"loop": 1, "phases": {"a": {"lock": "m", "run": 100}, "b": {"lock": "m", "run": 100}}}),
        ("after a wait", {"loop": -1, "lock": "m", "wait": {"ref": "c", "mutex": "m"}, "run": 100}),
        ("second of two", {"loop": -1, "lock": "m", "lock1": "n", "unlock": "m", "run": 100}),
    ]:
        yield (f"rt-app relock across the {what}", (None, rtapp(task)), RUN, 2, r"still held")
    for what, task in [
        ("unlocked each loop", {"loop": -1, "lock": "m", "run": 100, "unlock": "m"}),
        ("held to the end", {"loop": 1, "lock": "m", "run": 100}),
        ("unlocked in a later phase", {"loop": -1, "phases": {"a": {"lock": "m", "run": 100},
                                                              "b": {"unlock": "m", "run": 100}}}),
        ("after a forever phase", {"loop": 1, "phases": {"a": {"loop": -1, "run": 100},
                                                         "b": {"lock": "m", "run": 100}}}),
    ]:
        yield (f"rt-app valid edge: a mutex {what}", (None, rtapp(task)), RUN, 0, None)
    # A resource's name with a control character would forge a line of
    # the deadlock report on stderr: refused where it is written.
    for c in ["\n", "\r", "\t", "\u0000", "\u001b", "\u007f"]:
        n = "m" + c + "x"
        for what, task, key in [
            ("lock", {"lock": n, "run": 10, "unlock": n}, r"lock"),
            ("unlock", {"unlock": n, "run": 10}, r"unlock"),
            ("barrier", {"barrier": n, "run": 10}, r"barrier"),
            ("suspend", {"suspend": n, "run": 10}, r"suspend"),
            ("resume", {"resume": n, "run": 10}, r"resume"),
            ("signal", {"signal": n, "run": 10}, r"signal"),
            ("wait ref", {"lock": "m", "wait": {"ref": n, "mutex": "m"}, "unlock": "m"}, r"wait\.ref"),
            ("wait mutex", {"lock": n, "wait": {"ref": "c", "mutex": n}, "unlock": n}, r"lock"),
            ("timer ref", {"timer": {"ref": n, "period": 1000}, "run": 10}, r"timer\.ref"),
        ]:
            yield (f"rt-app {what} name {c!r}", (None, rtapp(task)), RUN, 2,
                   FILE_LOC + r"tasks\.t\." + key + r": the name .* has a control character")
    for n in ["m x", "m\u00e9", "m:1", "unique", "a" * 4096]:
        yield (f"rt-app valid edge: a mutex named {n[:16]!r}", (None, rtapp({"lock": n, "run": 10, "unlock": n})), RUN,
               0, None)
    # Named resources: 65537 timers (each a ref) is one past the limit.
    timers = ", ".join(f'"timer{i}": {{"ref": "r{i}", "period": 1000}}' for i in range(65537))
    yield ("rt-app 65537 named resources", (None, '{"tasks": {"t": {' + timers + '}}}'), RUN, 2,
           FILE_LOC + r".*more than 65536 resources")

def deadlock_cases():
    """Deadlocked workloads run to their end (rt-app's threads would hang)
    and say so; the check that the message names the waits is
    tests/test_deadlock.cpp's."""
    for what, doc, cpus in [
        ("ABBA", {"a": {"loop": 1, "lock": "m", "run": 1000, "lock1": "n", "unlock1": "n", "unlock": "m"},
                  "b": {"loop": 1, "lock": "n", "run": 1000, "lock1": "m", "unlock1": "m", "unlock": "n"}}, "2"),
        ("a barrier the other thread left", {"a": {"loop": 2, "barrier": "x", "run": 100},
                                             "b": {"loop": 1, "barrier": "x", "run": 100}}, "1"),
        ("a wait nobody signals", {"a": {"loop": 1, "lock": "m", "wait": {"ref": "c", "mutex": "m"}, "unlock": "m"}},
         "1"),
        ("a suspend nobody resumes", {"a": {"loop": 1, "suspend": "s"}, "b": {"loop": 1, "run": 100}}, "1"),
        # Partial: a third thread runs on beside the waiters.
        ("ABBA beside a running thread", {"a": {"loop": -1, "lock": "m", "run": 1000, "lock1": "n", "unlock1": "n",
                                                "unlock": "m"},
                                          "b": {"loop": -1, "lock": "n", "run": 1000, "lock1": "m", "unlock1": "m",
                                                "unlock": "n"},
                                          "c": {"loop": -1, "run": 1000, "sleep": 1000}}, "2"),
        ("a barrier left while another runs", {"a": {"loop": -1, "barrier": "x", "run": 100},
                                               "b": {"loop": 2, "barrier": "x", "run": 100},
                                               "c": {"loop": -1, "run": 1000, "sleep": 1000}}, "1"),
        ("a suspend no running thread resumes", {"a": {"loop": 1, "suspend": "s"}, "b": {"loop": -1, "run": 1000}},
         "1"),
        ("a waiter queued behind an ABBA", {"a": {"loop": -1, "lock": "m", "run": 1000, "lock1": "n", "unlock1": "n",
                                                  "unlock": "m"},
                                            "b": {"loop": -1, "lock": "n", "run": 1000, "lock1": "m", "unlock1": "m",
                                                  "unlock": "n"},
                                            "c": {"loop": -1, "sleep": 3000, "lock": "m", "unlock": "m"},
                                            "d": {"loop": -1, "run": 500, "sleep": 500}}, "4"),
    ]:
        for extra in ([], ["--json"]):
            yield (f"rt-app valid edge: {what} ends in a deadlock {' '.join(extra)}", (None, json.dumps({"tasks": doc})),
                   RUN + ["--cpus", cpus] + extra, 0, None)


# ---------------------------------------------------------------- claims


def claim_cases(repo):
    import os
    text = open(os.path.join(repo, "claims", "seed004-nohz.json")).read()
    doc = json.loads(text)
    # Each top-level key given a second time, at the front of the object.
    for key in doc:
        dup = "{" + json.dumps(key) + ": " + json.dumps(doc[key]) + ", " + text.lstrip()[1:]
        yield (f"claim {key} given twice", (None, dup), ["check", "{file}"], 2, FILE_LOC + re.escape(key) + r".*given twice")
    for key in ("config", "metric", "tolerance"):
        if isinstance(doc.get(key), dict) and doc[key]:
            inner = next(iter(doc[key]))
            d = json.dumps(doc, indent=1)
            first = json.dumps(key) + ": {"
            i = d.index(first) + len(first)
            dup = d[:i] + json.dumps(inner) + ": " + json.dumps(doc[key][inner]) + ", " + d[i:]
            yield (f"claim {key}.{inner} given twice", (None, dup), ["check", "{file}"], 2,
                   re.escape(key + "." + inner) + r".*given twice")


# ---------------------------------------------------------------- diff


def sim_doc():
    return {"config": {"kernel": "6.18"},
            "tasks": [{"name": "a", "pid": 1, "cpu_ns": 5, "runs": 1}, {"name": "b", "pid": 2, "cpu_ns": 6, "runs": 2}],
            "summary": {"cpu_ns": 11, "runs": 3}}


def diff_cases():
    args = ["diff", "{file}", "{file}"]
    for where, field in (("tasks[0]", "cpu_ns"), ("tasks[1]", "runs"), ("summary", "cpu_ns"), ("summary", "runs")):
        for v in ["1e400", "-1e400", "1e999999"]:
            doc = sim_doc()
            node = doc["summary"] if where == "summary" else doc["tasks"][int(where[6])]
            node[field] = "@@"
            body = json.dumps(doc).replace('"@@"', v)
            yield (f"diff {where}.{field} = {v}", (None, body), args, 2,
                   FILE_LOC + re.escape(where + "." + field) + r": expected a finite")
    for c in ["\n", "\t", "\r", "\x01", "\x1b", "\x7f", "\x00"]:
        doc = sim_doc()
        doc["tasks"][0]["name"] = "a" + c + "b"
        yield (f"diff a task name with byte {ord(c)}", (None, json.dumps(doc)), args, 2,
               r"tasks\[0\]\.name: holds a control character")
    doc = sim_doc()
    doc["tasks"][1]["name"] = "a"
    yield ("diff valid edge: two tasks named a, told apart by pid", (None, json.dumps(doc)), args, 0, None)
    del doc["tasks"][1]["pid"]
    yield ("diff two tasks named a, one without a pid", (None, json.dumps(doc)), args, 2, r"appears twice")
    doc = sim_doc()
    doc["tasks"][1]["name"] = "a"
    doc["tasks"][1]["pid"] = 1
    yield ("diff two tasks named a with one pid", (None, json.dumps(doc)), args, 2, r"a:1' appears twice")
    for v in ["1e29", "1e30", "1.7e308", "-1e300"]:
        d = json.dumps(sim_doc()).replace('"cpu_ns": 5', f'"cpu_ns": {v}', 1)
        yield (f"diff valid edge cpu_ns = {v}", (None, d), args, 0, None)
    doc = sim_doc()
    doc["tasks"][0]["name"] = "n" * 5000
    yield ("diff valid edge: a 5000-byte task name", (None, json.dumps(doc)), args, 0, None)

# ---------------------------------------------------------------- full stdout


def full_stdout_cases():
    for args in (["--help"], ["--version"], ["sim", "--help"], ["schbench", "--help"], ["trace", "--help"],
                 ["trace", "stats", "--help"], ["presets"], ["bugs"], ["prove", "--list"], ["prove", "--help"],
                 ["slice-table", "--duration", "100ms"], ["probe", "--help"]):
        yield (f"{' '.join(args)} into a full stdout", args, 2, r"cannot write|cannot find|No space", "/dev/full")


# ---------------------------------------------------------------- memory ceiling

# robust.py runs a case whose arguments start with this under
# `prlimit --as=2G`: the command completes or exits 2 saying why, never
# dies of SIGABRT (std::bad_alloc) or SIGSEGV.
AS_2G = "@prlimit-as-2G"
AS_2G_TIMEOUT_S = 120  # a million tasks take seconds to build on a loaded machine
CEILING_RC = (0, 2)
CEILING_PAT = r"out of memory|beyond|more than|outside|cannot find"


def ceiling_cases():
    for args in (
        ["sim", "--hogs", "1000000", "--duration", "10ms"],
        ["sim", "--hogs", "1000000", "--cpus", "32", "--duration", "1ms"],
        ["sim", "--hogs", "1000000", "--duration", "2ms", "--csv", "x.csv", "--trace", "t.trace"],
        ["sim", "--hogs", "2000", "--cpus", "16", "--duration", "2ms", "--check"],
        ["sim", "--hogs", "100000", "--duration", "1ms", "--sweep", "seed=1..8:1", "--jobs", "8"],
        ["schbench", "-n", "0", "-r", "1", "-m", "64", "-t", "62", "--stress", "1000000"],
        ["slice-table", "--hogs", "100000", "--duration", "10ms"],
        ["plot", "runs", "--hogs", "100000", "--duration", "1ms", "-o", "x.svg"],
        # The other commands: each one completes (or says why not) within 2G.
        ["sim", "--hogs", "20000", "--duration", "20ms", "--chrome", "c.json", "--timehist", "t.txt", "--map", "m.txt"],
        ["sim", "--hogs", "1000000", "--duration", "1ms", "--json"],
        ["schbench", "-n", "0", "-r", "1", "-m", "64", "-t", "63", "--cpus", "256", "--json"],
        ["slice-table", "--hogs", "1000", "--duration", "10ms", "--seeds", "64", "--slices", "1ms,3ms"],
        ["presets"],
        ["bugs"],
        ["prove", "--list"],
        ["probe", "--help"],
        ["calibrate", "--help"],
    ):
        yield (f"under 2G of address space: {' '.join(args)}", [AS_2G] + args, CEILING_RC, CEILING_PAT)


def ceiling_file_cases(repo):
    import os
    for claim in ("seed004-nohz.json", "seed001-avgrun.json"):
        text = open(os.path.join(repo, "claims", claim)).read()
        yield (f"under 2G of address space: check {claim}", (None, text), [AS_2G, "check", "{file}"], (0, 1, 2),
               CEILING_PAT)
    # diff of two documents of 100,000 tasks (the JSON reader's 2^20
    # values are about 200,000 such tasks).
    doc = sim_doc()
    doc["tasks"] = [{"name": f"t{i}", "pid": i, "cpu_ns": i, "runs": 1} for i in range(100000)]
    yield ("under 2G of address space: diff of 100000 tasks", (None, json.dumps(doc)),
           [AS_2G, "diff", "{file}", "{file}"], CEILING_RC, CEILING_PAT)
    doc["tasks"] = [{"name": f"t{i}", "pid": i, "cpu_ns": i, "runs": 1} for i in range(300000)]
    yield ("under 2G of address space: diff past the reader's 2^20 values", (None, json.dumps(doc)),
           [AS_2G, "diff", "{file}", "{file}"], 2, FILE_LOC + r".*2\^20|1048576")
    body = "# tracer: nop\n# entries-in-buffer/entries-written: 1/1   #P:8192\n" + many_pids(4097)
    for cname, args in TRACE_COMMANDS:
        rc = (0, 2) if cname == "check" else 2  # check keeps no per-task state per CPU
        yield (f"under 2G of address space: trace {cname} of 4097 pids on 8192 CPUs", (None, body), [AS_2G] + args, rc,
               r"w\.json:\d+: .*task-CPU pairs|4098 tasks to replay")


def probe_cases():
    """eevdf-probe's counts: refused before they are multiplied (UBSan found
    --irq-gap-us's signed overflow); where the probe is not built, the
    refusal names the missing probe."""
    for flag, v in [("--irq-gap-us", "9223372036854775807"), ("--irq-gap-us", "100001"), ("--irq-gap-us", "0"),
                    ("--irq-gap-us", "-9223372036854775808"), ("--gap-us", "9223372036854775807"),
                    ("--gap-us", "100001"), ("--hogs", "4294967297"), ("--cpu", "4294967296"),
                    ("--duration", "18446744073709551616ns"), ("--waker", "18446744073709551616:1")]:
        yield (f"probe {flag} {v}", ["probe", flag, v], 2, "|".join(re.escape(x) for x in (flag, "cannot find eevdf-probe")))


def plain_cases():
    for gen in (schbench_cases(), cpu_cases(), list_cases(), sweep_cases(), size_cases(), full_stdout_cases(),
                probe_cases(), ceiling_cases()):
        yield from gen


def file_cases(repo):
    for gen in (trace_count_cases(), trace_line_cases(), trace_workload_cases(), schbench_claim_cases(),
                rtapp_cases(), deadlock_cases(), claim_cases(repo), diff_cases(), ceiling_file_cases(repo)):
        yield from gen
