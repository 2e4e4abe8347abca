// SPDX-License-Identifier: GPL-2.0-only
// `eevdf probe ARGS...`: the live kernel beside the model (see the .cpp).
#pragma once

#include <string>
#include <vector>

namespace eevdf::cli {

// Runs eevdf-probe with ARGS (passed through as they are when they ask for
// --json or --help) and prints kernel | model | model with 30 us tick jitter.
// `--claim FILE` instead measures each row of a CPU-hog claim on this kernel
// and prints claimed | model | kernel.
int probe_side_by_side(const std::vector<std::string>& args);

}  // namespace eevdf::cli
