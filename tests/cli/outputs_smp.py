# SPDX-License-Identifier: GPL-2.0-only
"""The same outputs on two CPUs: runs per CPU that never overlap, ftrace
switches on the CPU of each run, timehist, perf sched map and Chrome's
per-CPU tracks."""
import csv
import json
import re

import ftrace_parser
from outputs_harness import run, test, path, validate, timehist_of_trace, WORKLOAD


# The same outputs on two CPUs: 3 hogs and the sleepers, so tasks share a
# CPU, wake on either and the balancer moves some.
SMP = ["--hz", "1000", "--slice", "3ms", "--cpus", "2"]
SMP_DOC = json.loads(run("sim", WORKLOAD, *SMP, "--json").stdout)
run("sim", WORKLOAD, *SMP, "--trace", path("smp.trace"), "--timehist", path("smp-th.txt"), "--csv", path("smp.csv"),
    "--chrome", path("smp-c.json"), "--map", path("smp-map.txt"))
with open(path("smp.csv"), newline="") as f:
    SMP_CSV = list(csv.DictReader(f))


@test
def smp_csv_runs_are_per_cpu_and_never_overlap_on_one():
    assert {r["cpu"] for r in SMP_CSV} == {"0", "1"}, "both CPUs run tasks"
    for cpu in ("0", "1"):
        mine = sorted((int(r["start_ns"]), int(r["end_ns"])) for r in SMP_CSV if r["cpu"] == cpu)
        for (s0, e0), (s1, e1) in zip(mine, mine[1:]):
            assert e0 <= s1, (cpu, (s0, e0), (s1, e1))
    for t in SMP_DOC["tasks"]:
        assert sum(1 for r in SMP_CSV if int(r["pid"]) == t["pid"]) == t["runs"], t["name"]


@test
def smp_ftrace_switches_carry_the_cpu_of_the_csv_runs():
    header, events = ftrace_parser.parse(open(path("smp.trace")).read())
    assert header["cpus"] == 2
    assert {e["cpu"] for e in events if e["event"] == "sched_switch"} == {0, 1}
    # a run begins with a sched_switch in on its CPU at its start
    ins = {(e["next_pid"], e["ts_us"], e["cpu"]) for e in events if e["event"] == "sched_switch"}
    for r in SMP_CSV:
        assert (int(r["pid"]), int(r["start_ns"]) // 1000, int(r["cpu"])) in ins, r


@test
def smp_timehist_is_what_perf_prints_for_the_trace():
    got = timehist_of_trace(path("smp.trace"), path("smp-th.txt"))
    assert "CPU  0 idle" in got and "CPU  1 idle" in got
    mig = {t["name"][:15]: t["migrations"] for t in SMP_DOC["tasks"]}
    summ = re.compile(r"^ *(\S+)\[\d+\] +-1 +\d+ +.* (\d+)$")
    seen = 0
    for l in got.split("\n"):
        m = summ.match(l)
        if m and m[1] in mig:
            assert int(m[2]) == mig[m[1]], (l, mig)
            seen += 1
    assert seen == len(mig), seen

@test
def smp_map_has_a_line_per_switch_and_a_column_per_cpu():
    lines = open(path("smp-map.txt")).read().rstrip("\n").split("\n")
    _, events = ftrace_parser.parse(open(path("smp.trace")).read())
    sw = [e for e in events if e["event"] == "sched_switch"]
    assert len(lines) == len(sw), (len(lines), len(sw))
    line = re.compile(r"^  ([ *])(..) ([ *])(..|  ) +(\d+\.\d{6}) secs ?(.*)$")
    short = {}
    for l, e in zip(lines, sw):
        m = line.match(l)
        assert m, l
        star = 0 if m[1] == "*" else 1
        assert (m[1] == "*") != (m[3] == "*"), l  # exactly the CPU that switched is starred
        assert star == e["cpu"] and m[5] == "%d.%06d" % divmod(e["ts_us"], 10**6), (l, e)
        if m[6]:
            code, who = m[6].split(" => ")
            short[code] = who
        # the starred column shows what the switch put on that CPU
        code = m[2] if star == 0 else m[4]
        assert short[code].rsplit(":", 1)[1] == str(e["next_pid"]), (l, e, short[code])


@test
def smp_chrome_has_a_track_per_cpu_with_its_runs():
    c = json.load(open(path("smp-c.json")))
    validate(c, "chrome.schema.json")
    procs = {e["pid"]: e["args"]["name"] for e in c["traceEvents"] if e["ph"] == "M" and e["name"] == "process_name"}
    assert "CPU 0" in procs.values() and "CPU 1" in procs.values(), procs
    cpu_pid = {v: k for k, v in procs.items()}
    for cpu in ("0", "1"):
        xs = sorted((round(e["ts"] * 1000), round((e["ts"] + e["dur"]) * 1000), e["name"])
                    for e in c["traceEvents"] if e["ph"] == "X" and e["pid"] == cpu_pid["CPU " + cpu] and "in_progress" not in e["args"])
        want = sorted((int(r["start_ns"]), int(r["end_ns"]), r["task"]) for r in SMP_CSV if r["cpu"] == cpu)
        assert xs == want, (cpu, xs[:3], want[:3])
