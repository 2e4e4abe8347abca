# SPDX-License-Identifier: GPL-2.0-only
"""The outputs of one run on one CPU (outputs_harness.py's), each parsed
back and checked against the --json metrics and the others: JSON to its
schema, the CSV runs, ftrace to the kernel's format, perf's timehist and
latency tables, schbench's block, Chrome's trace events; and how a task's
policy is named in the JSON and the table."""
import json
import re

import ftrace_parser
import jsonschema_lite
from outputs_harness import run, test, path, validate, timehist_of_trace, WORKLOAD, FLAGS, doc, out, PIDS, CSV


@test
def a_batch_task_is_named_in_the_json_and_the_table_header():
    w = path("batch.json")
    with open(w, "w") as f:
        json.dump({"global": {"duration": 0.05}, "tasks": {
            "b": {"policy": "SCHED_BATCH", "loop": -1, "run": -1}, "n": {"loop": -1, "run": -1}}}, f)
    d = json.loads(run("sim", w, "--json").stdout)
    validate(d, "sim.schema.json")
    assert [t.get("policy") for t in d["tasks"]] == ["SCHED_BATCH", None], d["tasks"]
    assert "# task settings at start: SCHED_BATCH b" in run("sim", w).stdout


@test
def an_idle_task_is_named_in_the_json_and_the_table_header():
    w = path("idle.json")
    with open(w, "w") as f:
        json.dump({"global": {"duration": 0.05}, "tasks": {
            "i": {"policy": "SCHED_IDLE", "loop": -1, "run": -1}, "n": {"loop": -1, "run": -1}}}, f)
    d = json.loads(run("sim", w, "--json").stdout)
    validate(d, "sim.schema.json")
    assert [t.get("policy") for t in d["tasks"]] == ["SCHED_IDLE", None], d["tasks"]
    assert "# task settings at start: SCHED_IDLE i" in run("sim", w).stdout


@test
def validator_self_test():
    jsonschema_lite.self_test()


@test
def json_document_matches_its_schema():
    validate(doc, "sim.schema.json")


@test
def csv_rows_are_the_runs_of_the_json_metrics():
    assert open(path("runs.csv")).readline() == "task,pid,start_ns,end_ns,length_ns,reason,cpu\n"
    prev_end = 0
    for r in CSV:
        s, e, n = int(r["start_ns"]), int(r["end_ns"]), int(r["length_ns"])
        assert e - s == n and n >= 0 and s >= prev_end, r
        assert r["reason"] in ("R", "S", "X") and r["cpu"] == "0", r
        assert PIDS[int(r["pid"])]["name"] == r["task"], r
        prev_end = e
    for pid, t in PIDS.items():
        mine = [int(r["length_ns"]) for r in CSV if int(r["pid"]) == pid]
        assert len(mine) == t["runs"], (t["name"], len(mine), t["runs"])
        if mine:
            assert max(mine) == t["run_ns"]["max"] and min(mine) == t["run_ns"]["min"], t["name"]
        invol = sum(1 for r in CSV if int(r["pid"]) == pid and r["reason"] == "R")
        assert invol <= t["involuntary_switches"], t["name"]
    assert {r["reason"] for r in CSV} >= {"R", "S"}


@test
def ftrace_parses_to_the_kernel_format_and_agrees_with_the_csv():
    header, events = ftrace_parser.parse(open(path("t.trace")).read())
    assert header["tracer"] == "nop" and header["cpus"] == 1
    assert {e["event"] for e in events} >= {"sched_switch", "sched_wakeup", "sched_wakeup_new"}
    for e in events:
        assert e["cpu"] == 0
        if e["event"] == "sched_switch":
            assert e["prev_prio"] in (120, 125) and e["next_prio"] in (120, 125), e
    # comm is cut to 15 characters, as TASK_COMM_LEN makes it
    assert any(e.get("next_comm") == "a-very-long-tas" for e in events)
    runs = ftrace_parser.runs(events)
    got = [(pid, s, e, st) for pid, s, e, st in runs]
    want = [(int(r["pid"]), int(r["start_ns"]) // 1000, int(r["end_ns"]) // 1000, r["reason"]) for r in CSV]
    assert got == want, (got[:5], want[:5])


@test
def timehist_is_what_perf_prints_for_the_trace():
    # perf_timehist.py recomputes `perf sched timehist -S` from the run's
    # own ftrace output by perf's rules: the two must agree byte for byte.
    timehist_of_trace(path("t.trace"), path("th.txt"))


@test
def timehist_rows_are_the_csv_runs_with_comms_cut_to_15_bytes():
    lines = open(path("th.txt")).read().split("\n")
    row = re.compile(r"^ *(\d+\.\d{6}) \[(\d{4})\]  (\S.{0,29}?) +(\d+\.\d{3}) +(\d+\.\d{3}) +(\d+\.\d{3}) $")
    rows, i = [], 3
    while lines[i]:
        m = row.match(lines[i])
        assert m, lines[i]
        rows.append(m.groups())
        i += 1
    tasks = [(r[2], r[0], r[5]) for r in rows if r[2] != "<idle>"]
    want = [(f"{r['task'][:15]}[{r['pid']}]", "%d.%06d" % divmod(int(r["end_ns"]) // 1000, 10**6),
             "%d.%03d" % divmod(int(r["length_ns"]) // 1000, 1000)) for r in CSV]
    assert tasks == want, (tasks[:3], want[:3])
    assert any(t.startswith("a-very-long-tas[") for t, _, _ in tasks)  # TASK_COMM_LEN - 1
    # every task's first run waited 0: it had never been switched out
    first = {}
    for r in rows:
        first.setdefault(r[2], r[3])
    assert all(w == "0.000" for t, w in first.items() if t != "<idle>"), first


@test
def latency_table():
    lines = open(path("lat.txt")).read().split("\n")
    hdr = [l for l in lines if l.startswith("  Task")]
    assert hdr and [c.strip() for c in hdr[0].split("|")][:7] == [
        "Task", "Runtime ms", "Switches", "Avg delay ms", "Max delay ms", "Max delay start", "Max delay end"]
    row = re.compile(r"^  (\S+):(\d+) *\| +(\d+\.\d{3}) ms \| +(\d+) \| avg: +(\d+\.\d{3}) ms \| max: +(\d+\.\d{3}) ms \| "
                     r"max start: +(\d+\.\d{6}) s \| max end: +(\d+\.\d{6}) s$")
    rows = [row.match(l) for l in lines if row.match(l)]
    assert len(rows) == len(doc["tasks"])
    avgs = []
    for m in rows:
        mine = [r for r in CSV if int(r["pid"]) == int(m[2])]
        assert int(m[4]) == len(mine), m[0]
        assert abs(float(m[3]) - sum(int(r["length_ns"]) for r in mine) / 1e6) < 0.0015, m[0]
        assert float(m[8]) >= float(m[7])
        avgs.append(float(m[5]))
    assert avgs == sorted(avgs, reverse=True), "sorted by average delay"
    total = re.search(r"TOTAL: +\| +(\d+\.\d{3}) ms \| +(\d+) \|", "\n".join(lines))
    assert int(total[2]) == len(CSV)


@test
def schbench_block():
    text = open(path("sb.txt")).read()
    assert out.rstrip("\n").endswith("") and "Wakeup Latencies" not in out  # a file, not stdout
    lines = text.rstrip("\n").split("\n")
    m = re.match(r"^Wakeup Latencies percentiles \(usec\) runtime (\d+) \(s\) \((\d+) total samples\)$", lines[0])
    assert m, lines[0]
    lat = doc["summary"]["wakeup_latency_ns"]
    assert int(m[2]) == lat["count"]
    pct = re.compile(r"^\t(\* |  )(\d+\.\d)th: (\d+) +\((\d+) samples\)$")
    got = {}
    total = 0
    for l in lines[1:5]:
        p = pct.match(l)
        assert p, l
        got[p[2]] = int(p[3])
        total += int(p[4])
        assert (p[1] == "* ") == (p[2] == "99.0")
    assert got["50.0"] == lat["p50"] // 1000 and got["90.0"] == lat["p90"] // 1000 and got["99.0"] == lat["p99"] // 1000
    assert total <= lat["count"]
    mm = re.match(r"^\t  min=(\d+), max=(\d+)$", lines[5])
    assert mm and int(mm[2]) == lat["max"] // 1000
    # on stdout, after the table
    s = run("sim", WORKLOAD, *FLAGS, "--schbench").stdout
    assert s.endswith(text) and s.startswith("# eevdf model")
    run("sim", WORKLOAD, "--json", "--schbench", code=2)


@test
def chrome_json_matches_its_schema_and_the_runs():
    c = json.load(open(path("c.json")))
    validate(c, "chrome.schema.json")
    xs = [(e["tid"], round(e["ts"] * 1000), round((e["ts"] + e["dur"]) * 1000), e["args"]["prev_state"])
          for e in c["traceEvents"] if e["ph"] == "X" and "in_progress" not in e["args"]]
    assert xs == [(int(r["pid"]), int(r["start_ns"]), int(r["end_ns"]), r["reason"]) for r in CSV]
    names = {e["name"] for e in c["traceEvents"] if e["ph"] == "C"}
    for t in doc["tasks"]:
        assert f"lag {t['name']}" in names and f"deadline {t['name']}" in names
    assert "V" in names
    threads = {e["args"]["name"] for e in c["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
    assert threads == {t["name"] for t in doc["tasks"]}
    lags = [e["args"]["lag_ns"] for e in c["traceEvents"] if e["ph"] == "C" and e["name"].startswith("lag ")]
    assert max(abs(x) for x in lags) <= doc["summary"]["max_abs_lag_ns"] * 2 + 1


@test
def chrome_counters_are_one_per_time_relative_to_the_stated_origin_and_the_last_run_is_a_slice():
    c = json.loads(run("sim", "--hogs", "3", "--kernel", "6.6", "--hz", "1000", "--duration", "20500us", "--chrome", "-").stdout)
    validate(c, "chrome.schema.json")
    origin = int(c["otherData"]["vruntime_origin_ns"])
    assert origin > 2**63  # 6.6 starts min_vruntime at -2^20: raw values no viewer can plot
    ev = c["traceEvents"]
    counters = [(e["name"], e["ts"]) for e in ev if e["ph"] == "C"]
    assert len(counters) == len(set(counters)), "a counter sampled twice at one time"
    vs = [e["args"]["V_ns"] for e in ev if e["ph"] == "C" and e["name"] == "V"]
    assert vs[0] == 0 and all(abs(v) < 10**9 for v in vs), vs[:5]
    ds = [e["args"]["deadline_ns"] for e in ev if e["ph"] == "C" and e["name"].startswith("deadline ")]
    assert all(abs(d) < 10**9 for d in ds), ds[:5]
    # 3 hogs at HZ=1000 with 6.6's 3 ms ... slices end on ticks: the run at 20.5 ms is under way
    live = [e for e in ev if e["ph"] == "X" and e["args"].get("in_progress")]
    assert len(live) == 1 and round((live[0]["ts"] + live[0]["dur"]) * 1000) == 20500000, live
    assert "prev_state" not in live[0]["args"]
