#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every JSON file Debian's rt-app ships, through `eevdf sim` (issue 17).

usage: rtapp_examples_test.py EEVDF [DOC_DIR]

Each file must run (exit 0) or be refused (exit 2) for the reason
docs/cli.md ("rt-app input") gives it; a file not listed, a crash, or a
refusal for another reason fails. Exits 77 (ctest: skipped) when rt-app's
documentation is not installed (package rt-app, scripts/install-deps.sh).
"""
import glob
import os
import subprocess
import sys

# Relative to DOC_DIR: None = runs; else a substring of the refusal.
EXPECT = {
    "examples/browser-long.json": None,
    "examples/browser-short.json": None,
    "examples/mp3-long.json": None,
    "examples/mp3-short.json": None,
    "examples/video-long.json": None,    # workgen's bare "suspend" keys
    "examples/video-short.json": None,
    "examples/spreading-tasks.json": None,
    "examples/template.json": None,
    "examples/tutorial/example1.json": None,
    "examples/tutorial/example2.json": None,
    "examples/tutorial/example3.json": None,
    "examples/tutorial/example4.json": None,
    "examples/tutorial/example5.json": None,    # a mutex held across a run, contended
    "examples/tutorial/example6.json": 'the rt-app event "mem" is not supported',
    "examples/tutorial/example7.json": None,    # barriers
    "examples/tutorial/example8.json": "cpus names no CPU of the model's 2",
    "examples/cpufreq_governor_efficiency/calibration.json": "SCHED_FIFO is not modelled",
    "examples/cpufreq_governor_efficiency/dvfs.json": "SCHED_FIFO is not modelled",
    "examples/merge/global.json": 'missing the required "tasks" object',
    "examples/merge/resources.json": 'missing the required "tasks" object',
    "examples/merge/thread0.json": "tasks.thread0.exec: unknown key",
    "examples/merge/thread1.json": "tasks.thread1.exec: unknown key",
    "examples/merge/thread2.json": "tasks.thread2.exec: unknown key",
    "examples/merge/thread3.json": "tasks.thread3.exec: unknown key",
    "taskset.json": "tasks.ThreadA.exec: unknown key",
}


def main():
    eevdf = sys.argv[1]
    doc = sys.argv[2] if len(sys.argv) > 2 else "/usr/share/doc/rt-app"
    if not os.path.isdir(doc):
        print(f"{doc}: rt-app's documentation is not installed; skipped")
        return 77
    files = sorted(os.path.relpath(f, doc) for f in glob.glob(os.path.join(doc, "**", "*.json"), recursive=True))
    failures = []
    for rel in files:
        if rel not in EXPECT:
            failures.append(f"{rel}: not in the expected list (a new rt-app release?)")
            continue
        p = subprocess.run([eevdf, "sim", os.path.join(doc, rel), "--cpus", "2", "--duration", "50ms"],
                           capture_output=True, text=True, timeout=60)
        want = EXPECT[rel]
        if want is None and p.returncode != 0:
            failures.append(f"{rel}: exit {p.returncode}, expected to run: {p.stderr.strip()[:300]}")
        elif want is not None and (p.returncode != 2 or want not in p.stderr):
            failures.append(f"{rel}: exit {p.returncode}, expected exit 2 with {want!r}: {p.stderr.strip()[:300]}")
    for rel in sorted(set(EXPECT) - set(files)):
        failures.append(f"{rel}: expected but not installed")
    runs = sum(1 for r in files if EXPECT.get(r, "") is None)
    for f in failures:
        print("FAIL", f)
    print(f"{len(files)} rt-app files: {runs} run, {len(files) - runs} refused as expected" if not failures
          else f"{len(failures)} of {len(files)} rt-app files not as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
