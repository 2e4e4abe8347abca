// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: the pinned run (g_opt without --scenario).
#pragma once

namespace probe {

// Measures, reports and returns the exit status.
int run_pinned(int argc, char **argv);

}  // namespace probe
