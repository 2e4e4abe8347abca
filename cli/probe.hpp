// SPDX-License-Identifier: GPL-2.0-only
// `eevdf probe ARGS...`: runs the live-kernel probe eevdf-probe (probe/),
// found next to the eevdf executable, in ../probe/ of a build tree, or in
// PATH, with the arguments passed through.
#pragma once

#include <string>
#include <vector>

namespace eevdf::cli {

// The probe binary's path, or "" when there is none.
std::string find_probe();

// Replaces this process with the probe; returns 2 (with a message) only if it cannot.
int exec_probe(const std::vector<std::string>& args);

}  // namespace eevdf::cli
