# SPDX-License-Identifier: GPL-2.0-only
"""rt-app's example files: the documentation's examples run or name the key
the model refuses, and every runnable example's timehist is perf's."""
import os
import subprocess

from outputs_harness import EEVDF, DATA, run, test, path, timehist_of_trace


@test
def rtapp_documentation_examples_run_or_name_the_key():
    d = os.path.join(DATA, "rtapp")
    for f in ("doc_tutorial4_pingpong.json", "doc_condvar_producer_consumer.json", "doc_sync_broad.json",
              "doc_tutorial7_barrier.json", "doc_signal_two_waiters.json"):
        run("sim", os.path.join(d, f), "--duration", "100ms", "--check")
    run("sim", os.path.join(d, "doc_tutorial5_lock_across_run.json"), "--cpus", "2", "--duration", "1s", "--check")
    for f, key in (("doc_tutorial6_mem_iorun.json", "tasks.thread0.mem"),):
        e = run("sim", os.path.join(d, f), code=2).stderr
        assert f in e and key in e, e


@test
def timehist_is_what_perf_prints_for_every_runnable_rtapp_example():
    d = os.path.join(DATA, "rtapp")
    checked = 0
    for f in sorted(os.listdir(d)):
        for cpus in ("1", "3"):
            t, th = path("ex.trace"), path("ex.th")
            p = subprocess.run([EEVDF, "sim", os.path.join(d, f), "--duration", "300ms", "--cpus", cpus, "--trace", t,
                                "--timehist", th], capture_output=True, text=True)
            if p.returncode == 2:  # a file the model refuses (bad_*, and what it cannot express)
                continue
            assert p.returncode == 0, (f, p.stderr)
            timehist_of_trace(t, th)
            checked += 1
    assert checked >= 15, checked  # 17 on 2026-12-02: each runnable file on 1 and 3 CPUs
