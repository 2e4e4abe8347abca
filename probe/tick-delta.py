#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Why do runs of a slice that is a whole number of ticks often last one tick
more?  For every complete hog run in a trace saved with
`eevdf-probe --dump-trace FILE`, compare
  d_in  = switch-in time of this run  - tick grid point before it
  d_out = switch-out time of the same task's previous run - its tick point
(the task's deadline was set at that earlier tick; it then kept running for
d_out, so this run needs slice - d_out of execution, and it has N ticks minus
d_in).  Prints counts of run lengths (in ticks) split by d_out >= d_in.

usage: tick-delta.py TRACE [TICK_NS]
"""
import collections
import re
import sys


def main():
    path = sys.argv[1]
    tick = int(sys.argv[2]) if len(sys.argv) > 2 else 4_000_000
    lines = open(path).read().splitlines()
    hdr = lines[0]
    t0 = int(re.search(r"T0=(\d+)", hdr).group(1))
    t1 = int(re.search(r"T1=(\d+)", hdr).group(1))
    tids = {int(x) for n, x in re.findall(r"(hog\d+)=(\d+)", hdr)}
    last_out, start, res = {}, {}, []
    for line in lines[1:]:
        m = re.search(r"\s(\d+)\.(\d{6}): sched_switch:", line)
        if not m:
            continue
        ts = int(m.group(1)) * 10**9 + int(m.group(2)) * 1000
        prev = int(re.search(r"prev_pid=(\d+)", line).group(1))
        nxt = int(re.search(r"next_pid=(\d+)", line).group(1))
        d = ts % tick
        if d > tick // 2:
            d -= tick
        if prev in tids and prev in start:
            s, d_in, d_out = start.pop(prev)
            if t0 <= s and ts <= t1 and d_out is not None and abs(d_in) < 200_000 \
                    and abs(d) < 200_000:
                res.append((round((ts - s) / tick), d_in, d_out))
            last_out[prev] = d
        if nxt in tids:
            start[nxt] = (ts, d, last_out.get(nxt))
    c = collections.Counter((n, d_out >= d_in) for n, d_in, d_out in res)
    print("ticks  d_out>=d_in  d_out<d_in")
    for n in sorted({k[0] for k in c}):
        print("%5d  %11d  %10d" % (n, c[(n, True)], c[(n, False)]))


if __name__ == "__main__":
    main()
