#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""End-to-end checks of eevdf's outputs: every file is parsed back (ftrace
with a parser written to the kernel's format, JSON against a schema, the
perf/schbench/CSV layouts by their documented formats, SVG as XML) and
cross-checked against the others and the --json metrics. The checks are in
outputs_*.py by what they check; importing a module runs its checks
(outputs_harness.py's @test), and this script reports how many failed.
Usage: outputs_test.py EEVDF TEST_DATA_DIR"""
import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from outputs_harness import failures  # noqa: E402
import outputs_one_cpu  # noqa: E402,F401
import outputs_smp  # noqa: E402,F401
import outputs_svg  # noqa: E402,F401
import outputs_commands  # noqa: E402,F401
import outputs_rtapp  # noqa: E402,F401
import outputs_options  # noqa: E402,F401
import outputs_adjustments  # noqa: E402,F401
import outputs_probe  # noqa: E402,F401

print(f"outputs: {len(failures)} failed")
sys.exit(1 if failures else 0)
