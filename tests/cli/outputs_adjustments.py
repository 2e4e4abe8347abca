# SPDX-License-Identifier: GPL-2.0-only
"""Settings the kernel clamps or ignores, said three times: a warning on
stderr, "# adjusted:" in the table header and "adjustments" in --json
config; a task's nice and custom slice are recorded with it."""
import json
import os

from outputs_harness import DATA, run, test, validate


@test
def a_clamped_custom_slice_is_warned_recorded_and_applied_as_the_kernel_does():
    p = run("sim", "--hogs", "3", "--custom-slice", "200ms", "--duration", "50ms", "--json")
    doc = json.loads(p.stdout)
    validate(doc, "sim.schema.json")
    assert doc["config"]["adjustments"] == [{"setting": "custom_slice", "first_task": "hog-0", "tasks": 3,
                                             "given_ns": 200000000, "applied_ns": 100000000,
                                             "why": "the kernel clamps sched_runtime to 0.1-100 ms"}], doc["config"]
    assert [t["custom_slice_ns"] for t in doc["tasks"]] == [100000000] * 3
    want = "custom slice 200 ms of hog-0 and 2 more tasks applied as 100 ms: the kernel clamps sched_runtime to 0.1-100 ms"
    assert p.stderr == f"eevdf: warning: {want}\n", p.stderr
    table = run("sim", "--hogs", "3", "--custom-slice", "200ms", "--duration", "50ms").stdout.splitlines()
    assert table[1] == f"# adjusted: {want}", table[:3]
    assert table[2] == "# task settings at start: slice 100 ms hog-0 .. hog-2 (3 tasks)", table[:3]
    # 100 ms exactly is applied as given: no adjustment
    p = run("sim", "--hogs", "3", "--custom-slice", "100ms", "--duration", "50ms", "--json")
    assert p.stderr == "" and "adjustments" not in json.loads(p.stdout)["config"]


@test
def a_custom_slice_on_a_preset_without_custom_slices_is_a_recorded_no_op():
    p = run("sim", "--hogs", "2", "--custom-slice", "2ms", "--kernel", "6.6", "--duration", "50ms", "--json")
    doc = json.loads(p.stdout)
    validate(doc, "sim.schema.json")
    [a] = doc["config"]["adjustments"]
    assert a["applied_ns"] is None and a["tasks"] == 2 and "6.6 has no custom slices" in a["why"], a
    assert all("custom_slice_ns" not in t for t in doc["tasks"])
    assert "not applied: kernel 6.6 has no custom slices" in p.stderr, p.stderr
    # and it is a no-op: the schedule is the one without the flag
    plain = json.loads(run("sim", "--hogs", "2", "--kernel", "6.6", "--duration", "50ms", "--json").stdout)
    assert doc["tasks"] == plain["tasks"] and doc["summary"] == plain["summary"]


@test
def nice_is_recorded_per_task_and_a_default_run_records_nothing():
    doc = json.loads(run("sim", "--hogs", "2", "--nice", "5", "--duration", "20ms", "--json").stdout)
    assert [t.get("nice") for t in doc["tasks"]] == [5, 5]
    table = run("sim", "--hogs", "2", "--nice", "5", "--duration", "20ms").stdout.splitlines()
    assert table[1] == "# task settings at start: nice 5 hog-0, hog-1 (2 tasks)", table[:2]
    doc = json.loads(run("sim", "--hogs", "2", "--duration", "20ms", "--json").stdout)
    assert all("nice" not in t and "custom_slice_ns" not in t for t in doc["tasks"])
    assert run("sim", "--hogs", "2", "--duration", "20ms").stdout.splitlines()[1].startswith("# simulated")


@test
def schbench_warns_and_records_a_clamped_slice():
    p = run("schbench", "-r", "1", "-n", "0", "--schbench-slice", "50us", "--json")
    [a] = json.loads(p.stdout)["adjustments"]
    assert a["given_ns"] == 50000 and a["applied_ns"] == 100000 and a["first_task"] == "msg-0", a
    assert "eevdf: warning: custom slice 0.05 ms of msg-0" in p.stderr, p.stderr
    assert "# adjusted: custom slice 0.05 ms of msg-0" in run("schbench", "-r", "1", "-n", "0", "--schbench-slice", "50us").stdout


@test
def a_phase_sched_runtime_the_kernel_ignores_is_recorded_once_per_task_and_value():
    # custom_slice.json: thread0 starts with a 10 ms slice, thread1's phase sets 0.3 ms
    p = run("sim", os.path.join(DATA, "rtapp", "custom_slice.json"), "--kernel", "6.6", "--duration", "20ms", "--json")
    got = [(a["setting"], a["first_task"], a["tasks"], a["given_ns"], a["applied_ns"])
           for a in json.loads(p.stdout)["config"]["adjustments"]]
    assert got == [("custom_slice", "thread0", 1, 10000000, None), ("sched_runtime", "thread1", 1, 300000, None)], got
    assert p.stderr.count("eevdf: warning:") == 2, p.stderr
    # on 6.18 both are within 0.1-100 ms: nothing to say
    p = run("sim", os.path.join(DATA, "rtapp", "custom_slice.json"), "--duration", "20ms", "--json")
    assert "warning" not in p.stderr and "adjustments" not in json.loads(p.stdout)["config"], p.stderr


@test
def rtapp_settings_without_effect_on_the_fair_class_are_listed_once_on_stderr():
    p = run("sim", os.path.join(DATA, "rtapp", "custom_slice.json"), "--duration", "20ms")
    lines = [l for l in p.stderr.splitlines() if "ignored" in l]
    assert len(lines) == 1 and "global.calibration" in lines[0] and "global.gnuplot" in lines[0], p.stderr
