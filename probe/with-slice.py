#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# with-slice.py SLICE_NS CMD [ARGS...]: run CMD with an EEVDF custom slice.
# sched_setattr(SCHED_OTHER, sched_runtime=SLICE_NS) on this process, then
# exec: the kernel copies se.custom_slice into every thread CMD creates
# (sched_fork() resets it only with SCHED_RESET_ON_FORK), so all of
# schbench's threads run with the slice. SLICE_NS 0 = the default slice.
import ctypes, os, struct, sys

SYS_sched_setattr = {"x86_64": 314, "aarch64": 274}[os.uname().machine]
if len(sys.argv) < 3:
    sys.exit("usage: with-slice.py SLICE_NS CMD [ARGS...]")
slice_ns = int(sys.argv[1])
if slice_ns:
    # struct sched_attr (SCHED_ATTR_SIZE_VER1, 56 bytes): size, policy,
    # flags, nice, priority, runtime, deadline, period, util_min, util_max
    attr = struct.pack("=IIQiIQQQII", 56, 0, 0, 0, 0, slice_ns, 0, 0, 0, 0)
    buf = ctypes.create_string_buffer(attr, len(attr))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.syscall(SYS_sched_setattr, 0, buf, 0) != 0:
        sys.exit("with-slice.py: sched_setattr(sched_runtime=%d): %s" % (slice_ns, os.strerror(ctypes.get_errno())))
os.execvp(sys.argv[2], sys.argv[2:])
