#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# with-slice.py SLICE CMD [ARGS...]: run CMD with an EEVDF custom slice, the
# way to try a slice on a kernel whose debugfs base_slice_ns is refused
# (lockdown). SLICE is a duration (3ms, 700us, 1.5ms) or a bare number of ns;
# 0 = the default slice. sched_setattr(SCHED_OTHER, sched_runtime=SLICE) on
# this process, then exec: the kernel copies se.custom_slice into every
# thread and child CMD creates (sched_fork() resets it only with
# SCHED_RESET_ON_FORK), so all of schbench's threads run with the slice.
# 6.12+ kernels; they clamp the slice to 0.1-100 ms. Exit 2 on bad usage.
import ctypes, os, re, struct, sys

UNITS = {"ns": 1, "us": 1000, "ms": 1000000, "s": 1000000000}


def duration_ns(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(ns|us|ms|s)?", text)
    if not m:
        return None
    return int(round(float(m.group(1)) * UNITS[m.group(2) or "ns"]))


if len(sys.argv) < 3:
    print("usage: with-slice.py SLICE CMD [ARGS...]   (SLICE: 3ms, 700us, or ns; 0 = default)", file=sys.stderr)
    sys.exit(2)
slice_ns = duration_ns(sys.argv[1])
if slice_ns is None or slice_ns >= 1 << 63:
    print("with-slice.py: SLICE '%s' is not a duration (3ms, 700us, 1500000)" % sys.argv[1], file=sys.stderr)
    sys.exit(2)
SYS_sched_setattr = {"x86_64": 314, "aarch64": 274}.get(os.uname().machine)
if slice_ns:
    if SYS_sched_setattr is None:
        print("with-slice.py: no sched_setattr number for %s" % os.uname().machine, file=sys.stderr)
        sys.exit(2)
    # struct sched_attr (SCHED_ATTR_SIZE_VER1, 56 bytes): size, policy,
    # flags, nice, priority, runtime, deadline, period, util_min, util_max
    attr = struct.pack("=IIQiIQQQII", 56, 0, 0, 0, 0, slice_ns, 0, 0, 0, 0)
    buf = ctypes.create_string_buffer(attr, len(attr))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.syscall(SYS_sched_setattr, 0, buf, 0) != 0:
        print("with-slice.py: sched_setattr(sched_runtime=%d): %s" % (slice_ns, os.strerror(ctypes.get_errno())),
              file=sys.stderr)
        sys.exit(1)
try:
    os.execvp(sys.argv[2], sys.argv[2:])
except OSError as e:
    print("with-slice.py: %s: %s" % (sys.argv[2], e.strerror), file=sys.stderr)
    sys.exit(127)
