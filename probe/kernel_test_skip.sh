# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the kernel-label tests: exits 77 (ctest: skipped) where the
# running system cannot be measured (not Linux, no CPU 1, not root for
# tracefs, sched_setattr and negative nice, no python3 for the comparison).
[ "$(uname -s)" = Linux ] || { echo "skip: not Linux"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "skip: needs CPU 1"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root for tracefs and sched_setattr"; exit 77; }
command -v python3 >/dev/null || { echo "skip: needs python3"; exit 77; }
