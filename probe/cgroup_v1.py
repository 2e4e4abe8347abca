# SPDX-License-Identifier: GPL-2.0-only
"""What the cpu-cgroup probe scripts share (run-groups.py,
run-groups-smp.py, run-groups-latency.py): the cgroup v1 cpu controller's
mount on this machine, writing a cgroup file, a thread's schedstat, and a
pinned CPU hog."""
import os

ROOT = "/sys/fs/cgroup/cpu"


def write(path, value):
    with open(path, "w") as f:
        f.write(str(value))


def schedstat(pid):
    """/proc/<pid>/schedstat: CPU time (ns), run_delay (ns: runnable but
    waiting), and the number of times it ran on a CPU."""
    with open(f"/proc/{pid}/schedstat") as f:
        cpu, delay, count = f.read().split()
        return int(cpu), int(delay), int(count)


def schedstat_ns(pid):
    return schedstat(pid)[0]


def hog(cpu):
    os.sched_setaffinity(0, {cpu})
    while True:
        pass
