// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: the run of a multi-CPU scenario (g_opt.scenario).
#pragma once

namespace probe {

// Measures, reports and returns the exit status.
int run_scenario(int argc, char **argv);

}  // namespace probe
