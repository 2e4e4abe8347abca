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

// Runs eevdf-probe at `path` with `args` + --json (its stderr passes
// through); its exit status, its stdout in `out`.
int run_probe(const std::string& path, const std::vector<std::string>& args, std::string& out);

// The preset whose code a kernel release "6.18.44-..." runs.
std::string preset_for(const std::string& release);

// `eevdf probe --claim FILE` (cli/probe_claim.cpp).
int probe_claim(const std::string& file);

// `eevdf probe --scenario NAME ...` (cli/probe_scenario.cpp).
int probe_scenario(std::vector<std::string> args);

// `eevdf probe --rtapp FILE [--task GLOB]... [--threshold R]`: rt-app runs
// FILE on the live kernel under tracing (eevdf-probe --rtapp), the model
// runs FILE, and each task's metrics print side by side (cli/probe_rtapp.cpp).
int probe_rtapp(const std::vector<std::string>& args);

}  // namespace eevdf::cli
