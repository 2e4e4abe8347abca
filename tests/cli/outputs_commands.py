# SPDX-License-Identifier: GPL-2.0-only
"""The outputs of the other commands: sim --sweep, slice-table, check (its
success line and its rows), diff, and the version every JSON document and
--version name."""
import json
import os
import re

from outputs_harness import DATA, run, test, path, validate, PROJECT_VERSION, assert_names_version


@test
def sweep_table_json_and_determinism():
    args = ["sim", "--hogs", "3", "--duration", "300ms", "--sweep", "hz=100,1000", "--sweep", "slice=1ms..8ms"]
    p1 = run(*args, "--jobs", "1")
    p2 = run(*args, "--jobs", "3")
    body = lambda s: s.split("\n", 1)[1]
    assert body(p1.stdout) == body(p2.stdout), "same rows in the same order whatever the threads"
    assert p1.stderr == "" and p2.stderr == "", "no progress bar when stderr is not a terminal"
    rows = [l for l in p1.stdout.split("\n") if re.match(r"^\| \d", l)]
    keys = [tuple(c.strip() for c in l.split("|")[1:3]) for l in rows]
    assert keys == [(h, s) for h in ("100", "1000") for s in ("1ms", "2ms", "4ms", "8ms")], keys
    arr = json.loads(run(*args, "--json").stdout)
    assert [tuple(d["sweep"].values()) for d in arr] == keys
    for d in arr:
        d = dict(d)
        sw = d.pop("sweep")
        validate(d, "sim.schema.json")
        assert d["config"]["hz"] == int(sw["hz"])
    run("sim", "--hogs", "2", "--sweep", "slice=1ms..4ms:1ms", "--trace", path("x"), code=2)
    e = run("sim", "--hogs", "2", "--sweep", "slice=4ms..1ms", code=2).stderr
    assert "--sweep slice=4ms..1ms" in e
    s = run("sim", "--hogs", "2", "--duration", "50ms", "--sweep", "slice=1ms..4ms:1ms").stdout
    assert [l.split("|")[1].strip() for l in s.split("\n") if re.match(r"^\| \d", l)] == ["1ms", "2ms", "3ms", "4ms"]


@test
def version_flag_prints_the_project_version():
    p = run("--version")
    m = re.fullmatch(r"eevdf (\S+)( \(git (\S+)\))?\n", p.stdout)
    assert m and m[1] == PROJECT_VERSION, p.stdout
    assert p.stderr == "", p.stderr


@test
def every_json_output_names_the_version():
    assert_names_version(json.loads(run("sim", "--hogs", "1", "--duration", "10ms", "--json").stdout), "sim")
    for row in json.loads(run("sim", "--hogs", "1", "--duration", "10ms", "--sweep", "hz=100,250", "--json").stdout):
        assert_names_version(row, "sweep")
    assert_names_version(json.loads(run("schbench", "-r", "1", "-n", "0", "--json").stdout), "schbench")
    claim = os.path.join(DATA, "..", "..", "claims", "seed001-doc.json")
    for c in json.loads(run("check", claim, "--json").stdout):
        assert_names_version(c, "check")
    # the same text as --version, in one place
    git = json.loads(run("sim", "--hogs", "1", "--duration", "1ms", "--json").stdout)["eevdf"].get("git")
    assert run("--version").stdout == f"eevdf {PROJECT_VERSION}" + (f" (git {git})" if git else "") + "\n"


@test
def check_prints_one_success_line_on_stderr():
    p = run("sim", "--hogs", "2", "--cpus", "2", "--duration", "50ms", "--check", "--json")
    doc = json.loads(p.stdout)  # stdout stays one JSON document
    m = re.fullmatch(r"eevdf: --check: (\d+) events checked against (\d+) invariants \(model/check.hpp\): 0 violations\n",
                     p.stderr)
    assert m, p.stderr
    assert int(m[1]) == doc["summary"]["events"], (m[1], doc["summary"]["events"])
    names = re.search(r"INVARIANT_NAMES = \{(.*?)\};", open(os.path.join(DATA, "..", "..", "model", "check.hpp")).read(), re.S)
    assert int(m[2]) == len(re.findall(r'"[^"]+"', names[1])), m[2]
    assert run("sim", "--hogs", "2", "--duration", "50ms").stderr == ""  # only with --check
    p = run("sim", "--hogs", "2", "--duration", "50ms", "--sweep", "hz=100,1000", "--check", "--json")
    rows = json.loads(p.stdout)
    want = sum(r["summary"]["events"] for r in rows)
    assert re.search(rf"eevdf: --check: {want} events checked in 2 configurations against {m[2]} invariants", p.stderr), p.stderr


@test
def slice_table_json_has_the_markdown_rows_and_the_measured_values():
    args = ["slice-table", "--hz-list", "1000,100", "--slices", "3ms,12ms", "--duration", "30s"]
    md = run(*args).stdout
    doc = json.loads(run(*args, "--json").stdout)
    assert_names_version(doc, "slice-table")
    assert doc["hogs"] == 4 and doc["duration_ns"] == 30 * 10**9 and doc["measured"].startswith("seed 001")
    assert [(r["hz"], r["base_slice_ns"]) for r in doc["rows"]] == [(1000, 3000000), (1000, 12000000), (100, 3000000), (100, 12000000)]
    cells = re.findall(r"^\| (\S+) +\| +(\S+) \| +(\S+) \| +(\S+) \| +(\S+) \|$", md, re.M)
    cells = [c for c in cells if c[0] != "base_slice" and not c[0].startswith("-")]
    assert len(cells) == 4, cells
    for r, (slice_, mavg, avg, msw, sw) in zip(doc["rows"], cells):
        assert float(avg) == round(r["avg_run_ns"] / 1e6, 3) or abs(float(avg) - r["avg_run_ns"] / 1e6) < 0.0006, (avg, r)
        assert int(sw) == r["context_switches"], (sw, r)
        assert float(mavg) == r["measured"]["avg_run_ms"] and int(msw) == r["measured"]["context_switches"], (mavg, r)
    # outside the seed's scenario nothing is "measured"
    doc = json.loads(run("slice-table", "--hz-list", "250", "--slices", "3ms", "--duration", "1s", "--json").stdout)
    assert doc["measured"] is None and "measured" not in doc["rows"][0]


@test
def each_check_row_says_how_it_is_judged_and_shows_both_values_alike():
    f = os.path.join(DATA, "claims", "row_metric.json")
    [c] = json.loads(run("check", f, "--json").stdout)
    judged = [r["judged"] for r in c["rows"]]
    assert judged[0] == {"compare": "within", "relative": 0.05, "absolute": 0, "text": "within 5 %"}, judged[0]
    assert judged[1]["text"] == "within 0.010" and judged[1]["absolute"] == 0.01, judged[1]
    rows = re.findall(r"^\| (.+?) +\| (\S+) +\| +(\S+) \| +(\S+) \| +(\S+ ?%?) \| (.+?) +\| (.+?) +\|$",
                      run("check", f).stdout, re.M)
    rows = [r for r in rows if r[0] != "row" and not r[0].startswith("-")]
    assert [r[1] for r in rows] == [r["metric"] for r in c["rows"]], rows
    assert [r[5] for r in rows] == [j["text"] for j in judged], rows
    for r in rows:  # claimed and model in one format: both whole or both with 3 decimals
        assert ("." in r[2]) == ("." in r[3]), r


@test
def diff_puts_two_runs_side_by_side_and_flags_what_differs():
    a, b, c = path("d-a.json"), path("d-b.json"), path("d-c.json")
    open(a, "w").write(run("sim", "--hogs", "3", "--kernel", "6.6", "--duration", "1s", "--json").stdout)
    open(b, "w").write(run("sim", "--hogs", "3", "--kernel", "6.18", "--duration", "1s", "--json").stdout)
    open(c, "w").write(run("sim", "--hogs", "4", "--kernel", "6.18", "--duration", "1s", "--json").stdout)
    same = run("diff", a, a)
    assert same.stdout.endswith(" 0 of 44 metrics differ\n") and "# config: the same" in same.stdout, same.stdout[-200:]
    p = run("diff", a, b, "--json", code=1)
    d = json.loads(p.stdout)
    assert_names_version(d, "diff")
    keys = {x["key"]: (x["a"], x["b"]) for x in d["config_differs"]}
    assert keys["kernel"] == ('"6.6"', '"6.18"') and keys["features.PREEMPT_SHORT"] == ("false", "true"), keys
    da, db = json.load(open(a)), json.load(open(b))
    by = {(m["task"], m["metric"]): m for m in d["metrics"]}
    for ta, tb in zip(da["tasks"], db["tasks"]):
        m = by[(ta["name"], "runs")]
        assert (m["a"], m["b"]) == (ta["runs"], tb["runs"]) and m["differs"] == (ta["runs"] != tb["runs"]), m
        m = by[(ta["name"], "run_p99_ns")]
        assert (m["a"], m["b"]) == (ta["run_ns"]["p99"], tb["run_ns"]["p99"]), m
    assert by[("total", "switches")]["a"] == da["summary"]["switches"]
    assert d["differing"] == sum(m["differs"] for m in d["metrics"]) > 0
    # a threshold flags only the larger changes: hog cpu_ns moves 1.2 %, runs 50 %
    loose = json.loads(run("diff", a, b, "--threshold", "0.05", "--json", code=1).stdout)
    lb = {(m["task"], m["metric"]): m["differs"] for m in loose["metrics"]}
    assert not lb[("hog-0", "cpu_ns")] and lb[("hog-0", "runs")], lb
    # a task only one run has is listed with "-" on the other side
    t = run("diff", b, c, code=1).stdout
    assert re.search(r"^hog-3 +cpu_ns +- +\d+ +- \*$", t, re.M), t
    e = run("diff", a, os.path.join(DATA, "rtapp", "tutorial_simple.json"), code=2).stderr
    assert "tutorial_simple.json:" in e and "not an 'eevdf sim --json' document" in e, e


@test
def sim_json_lists_groups_with_their_share_of_the_cpu():
    # groups_two.json: /A holds one hog, /B three, equal weights, 2 s at HZ=250
    # on 7.1.5 (also the schema's newest preset): each group gets half.
    doc = json.loads(run("sim", os.path.join(DATA, "rtapp", "groups_two.json"),
                         "--kernel", "7.1.5", "--hz", "250", "--json").stdout)
    validate(doc, "sim.schema.json")
    groups = {g["path"]: g for g in doc["groups"]}
    assert set(groups) == {"/A", "/B"}, groups
    for g in groups.values():
        assert g["shares"] == 1024 and g["cpu_weight"] == 100, g
        assert abs(g["share"] - 0.5) <= 0.004, g  # within a tick of 2 s
    assert [t.get("taskgroup") for t in doc["tasks"]] == ["/A", "/B", "/B", "/B"]
    flat = json.loads(run("sim", "--hogs", "2", "--duration", "50ms", "--json").stdout)
    assert "groups" not in flat and all("taskgroup" not in t for t in flat["tasks"])


@test
def sim_json_lists_autogroups_with_their_ids():
    # autogroup_two.json: hog "a" leads a session of its own (setsid), the
    # three "b" hogs stay in the workload's: with --autogroup on, each
    # session's autogroup gets half; off, the file runs flat.
    f = os.path.join(DATA, "rtapp", "autogroup_two.json")
    doc = json.loads(run("sim", f, "--kernel", "6.18.39", "--autogroup", "on", "--json").stdout)
    validate(doc, "sim.schema.json")
    assert doc["config"]["autogroup"] is True
    groups = {g["path"]: g for g in doc["groups"]}
    assert set(groups) == {"/autogroup-1", "/autogroup-2"}, groups
    assert groups["/autogroup-1"]["autogroup_id"] == 1 and groups["/autogroup-2"]["autogroup_id"] == 2
    for g in groups.values():
        assert abs(g["share"] - 0.5) <= 0.004, g  # within a tick of 2 s
    assert [t.get("autogroup_id") for t in doc["tasks"]] == [2, 1, 1, 1]
    off = json.loads(run("sim", f, "--kernel", "6.18.39", "--json").stdout)
    assert "groups" not in off and "autogroup" not in off["config"]
    assert all("autogroup_id" not in t for t in off["tasks"])
