# SPDX-License-Identifier: GPL-2.0-only
"""eevdf probe: eevdf-probe is found and gets the arguments, and its JSON
(here from a fake probe) is printed beside the model's values."""
import json
import os
import subprocess

from outputs_harness import EEVDF, DATA, run, test, path


@test
def probe_is_found_and_gets_the_arguments():
    env = dict(os.environ, PATH="/nonexistent")
    env.pop("EEVDF_PROBE", None)
    exe_dir = os.path.dirname(os.path.realpath(EEVDF))
    if not any(os.path.exists(os.path.join(exe_dir, p, "eevdf-probe")) for p in (".", "../probe")):
        e = run("probe", "--hogs", "1", code=2, env=env).stderr
        assert "cannot find eevdf-probe" in e, e
    fake = path("eevdf-probe")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\necho \"probe:$*\"\nexit 7\n")
    os.chmod(fake, 0o755)
    env["EEVDF_PROBE"] = fake
    p = subprocess.run([EEVDF, "probe", "--hogs", "2", "--json", "x y"], capture_output=True, text=True, env=env)
    assert p.returncode == 7 and p.stdout == "probe:--hogs 2 --json x y\n", (p.returncode, p.stdout, p.stderr)
    # after "--" every argument is the probe's, --help too (its own help, not eevdf's)
    p = subprocess.run([EEVDF, "probe", "--", "--help"], capture_output=True, text=True, env=env)
    assert p.returncode == 7 and p.stdout == "probe:--help\n", (p.returncode, p.stdout, p.stderr)


def fake_probe_printing(canned, name):
    """An eevdf-probe stand-in that prints `canned` as its JSON; the env that selects it."""
    fake = path(name)
    with open(fake, "w") as f:
        f.write("#!/bin/sh\ncat <<'EOF'\n" + json.dumps(canned) + "\nEOF\n")
    os.chmod(fake, 0o755)
    return dict(os.environ, EEVDF_PROBE=fake)


@test
def probe_prints_the_kernel_beside_the_model():
    # A fake probe reports a kernel that ran 4 hogs with a 3 ms slice at
    # HZ=250: the model's column must be `eevdf sim`'s for that scenario.
    canned = {"kernel": {"release": "6.18.44-test", "hz": 250, "cpus_online": 2},
              "config": {"hogs": 4, "slice_ns": 3000000, "duration_ns": 1000000000, "traced": True},
              "hogs": {"trace": {"runs_merged": {"count": 250, "mean_ns": 4000000, "p50_ns": 4000000,
                                                  "p90_ns": 4000000, "p99_ns": 4100000}}}}
    env = fake_probe_printing(canned, "eevdf-probe-json")
    p = subprocess.run([EEVDF, "probe", "--hogs", "4", "--slice", "3ms"], capture_output=True, text=True, env=env)
    assert p.returncode == 0, (p.returncode, p.stderr)
    rows = {r.split("|")[1].strip(): [c.strip() for c in r.split("|")[2:5]] for r in p.stdout.splitlines() if r.startswith("| ")}
    sim = json.loads(run("sim", "--hogs", "4", "--hz", "250", "--cpus", "1", "--online-cpus", "2", "--custom-slice", "3ms",
                         "--duration", "1s", "--json").stdout)["summary"]["run_ns"]
    assert rows["hog runs"][0] == "250", rows
    assert rows["hog runs"][1] == str(sim["count"]), (rows, sim)
    assert rows["hog run mean (ms)"][1] == "%.3f" % (sim["mean"] / 1e6), (rows, sim)
    assert "model preset 6.18" in p.stdout, p.stdout
    # A claim's rows on the (fake) kernel: the HZ=250 row is measured, the
    # HZ=1000 row is skipped with the reason.
    p = subprocess.run([EEVDF, "probe", "--claim", os.path.join(DATA, "claims", "probe_hz250.json")],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, (p.returncode, p.stderr)
    rows = [[c.strip() for c in r.split("|")[1:]] for r in p.stdout.splitlines() if r.startswith("| hz")]
    assert rows[0][:5] == ["hz=250", "4.000", "4.000", "4.000", "agrees"], rows
    assert rows[1][3] == "-" and "skipped: a row for HZ=1000; this kernel runs HZ=250" in rows[1][5], rows



@test
def probe_prints_a_row_per_hog_at_its_nice_level():
    # A fake probe reports hogs at nice -10 and 0 (3 ms slices, HZ=250): each
    # hog's model cell must be `eevdf sim`'s for that task, and a hog with no
    # whole run on the kernel prints so instead of failing.
    canned = {"kernel": {"release": "6.18.44-test", "hz": 250, "cpus_online": 2},
              "config": {"hogs": 2, "nices": [-10, 0], "slice_ns": 3000000, "duration_ns": 1000000000, "traced": True},
              "tasks": [{"name": "hog0", "role": "hog", "nice": -10,
                         "trace_runs_merged": {"count": 20, "mean_ns": 33000000, "p99_ns": 40000000, "max_ns": 41000000}},
                        {"name": "hog1", "role": "hog", "nice": 0, "trace_runs_merged": {"count": 0}}],
              "hogs": {"trace": {"runs_merged": {"count": 20, "mean_ns": 33000000, "p50_ns": 36000000,
                                                  "p90_ns": 40000000, "p99_ns": 40000000}}}}
    env = fake_probe_printing(canned, "eevdf-probe-nices")
    p = subprocess.run([EEVDF, "probe", "--hogs", "2", "--nices", "-10,0"], capture_output=True, text=True, env=env)
    assert p.returncode == 0, (p.returncode, p.stderr)
    assert "2 hogs at nice -10,0" in p.stdout, p.stdout
    rows = {r.split("|")[1].strip(): [c.strip() for c in r.split("|")[2:5]] for r in p.stdout.splitlines() if r.startswith("| ")}
    wl = path("nices.json")
    with open(wl, "w") as f:
        json.dump({"global": {"duration": 1, "default_policy": "SCHED_OTHER"},
                   "tasks": {"heavy": {"priority": -10, "dl-runtime": 3000, "loop": -1, "run": 1000000},
                             "light": {"priority": 0, "dl-runtime": 3000, "loop": -1, "run": 1000000}}}, f)
    sim = {t["name"]: t["run_ns"] for t in json.loads(run("sim", wl, "--hz", "250", "--cpus", "1", "--online-cpus", "2", "--json").stdout)["tasks"]}
    h = sim["heavy"]
    assert rows["hog0 (nice -10) mean / p99 / max"][0] == "33.000 / 40.000 / 41.000", rows
    assert rows["hog0 (nice -10) mean / p99 / max"][1] == "%.3f / %.3f / %.3f" % (h["mean"] / 1e6, h["p99"] / 1e6, h["max"] / 1e6), (rows, h)
    assert rows["hog1 (nice 0) mean / p99 / max"][0] == "no whole run", rows
