# SPDX-License-Identifier: GPL-2.0-only
"""What the checks of eevdf's outputs (outputs_test.py and the outputs_*.py
it runs) share: the eevdf binary and test data from the command line, a
temporary directory, `run` and the `@test` decorator, which runs a check as
it is defined (so importing a module runs its checks, in order) and records
a failure without stopping; the JSON schemas, perf's timehist recomputed
from a trace, the project's version; and one simulation on one CPU with
every output, which several modules read back."""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

import ftrace_parser
import jsonschema_lite
import perf_timehist

EEVDF, DATA = sys.argv[1], sys.argv[2]
TMP = tempfile.mkdtemp()
SVG = "{http://www.w3.org/2000/svg}"
failures = []


def run(*args, code=0, env=None):
    p = subprocess.run([EEVDF, *args], capture_output=True, text=True, env=env)
    if p.returncode != code:
        raise AssertionError(f"eevdf {' '.join(args)} exited {p.returncode}, want {code}: {p.stderr}")
    return p


def test(fn):
    try:
        fn()
        print(f"ok   {fn.__name__}")
    except Exception as e:  # report every failure, not just the first
        failures.append(fn.__name__)
        print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}")
    return fn


def path(name):
    return os.path.join(TMP, name)


def schema(name):
    return json.load(open(os.path.join(DATA, "cli", name)))


def validate(doc, name):
    errs = jsonschema_lite.errors(doc, schema(name))
    assert not errs, "\n".join(errs[:10])


def timehist_of_trace(trace, timehist):
    """Asserts that `timehist` is what perf_timehist.py computes from `trace`
    (byte for byte, the first differing line in the message); returns it."""
    header, events = ftrace_parser.parse(open(trace).read())
    want = perf_timehist.timehist(events, header["cpus"])
    got = open(timehist).read()
    assert got == want, next((f"line {i + 1}:\n got {g!r}\nwant {w!r}" for i, (g, w) in
                              enumerate(zip(got.split("\n"), want.split("\n"))) if g != w), "lengths differ")
    return got


# The version CMakeLists.txt declares: `eevdf --version` names it, and so
# does every JSON document (sim, sweep, schbench, check, slice-table, diff), with the git
# describe of the checkout when built from one.
PROJECT_VERSION = re.search(r"project\(eevdf VERSION (\S+)",
                            open(os.path.join(DATA, "..", "..", "CMakeLists.txt")).read())[1]


def assert_names_version(doc, where):
    assert doc.get("eevdf", {}).get("version") == PROJECT_VERSION, (where, doc.get("eevdf"))
    git = doc["eevdf"].get("git")
    assert git is None or re.fullmatch(r"[0-9a-f]{7,}(-dirty)?|\S+-g[0-9a-f]+(-dirty)?", git), (where, git)


# One simulation with every output: 3 hogs (one niced) and a sleeper, so
# runs end in R and S and there are wakeups.
WORKLOAD = path("w.json")
with open(WORKLOAD, "w") as f:
    json.dump({"global": {"duration": 0.2}, "tasks": {
        "hog": {"instance": 2, "loop": -1, "run": -1},
        "sleeper": {"loop": -1, "run": 1500, "sleep": 3500},
        "a-very-long-task-name": {"loop": -1, "priority": 5, "run": 2000, "sleep": 1000}}}, f)
FLAGS = ["--hz", "1000", "--slice", "3ms"]
doc = json.loads(run("sim", WORKLOAD, *FLAGS, "--json").stdout)
out = run("sim", WORKLOAD, *FLAGS, "--trace", path("t.trace"), "--timehist", path("th.txt"), "--latency",
          path("lat.txt"), "--csv", path("runs.csv"), "--chrome", path("c.json"), "--svg-lag", path("lag.svg"),
          "--schbench=" + path("sb.txt")).stdout
PIDS = {t["pid"]: t for t in doc["tasks"]}
with open(path("runs.csv"), newline="") as f:
    CSV = list(csv.DictReader(f))
