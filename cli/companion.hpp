// SPDX-License-Identifier: GPL-2.0-only
// Companion programs that `eevdf` runs with the arguments passed through:
// `eevdf probe` (eevdf-probe, the live-kernel probe in probe/) and
// `eevdf prove` (eevdf-prove, the Z3 obligations in proofs/). They are
// separate programs so that the model's command does not depend on Z3 or
// on Linux tracing; each is found via its environment variable, next to the
// eevdf executable, in ../SUBDIR/ of a build tree, or in PATH.
#pragma once

#include <string>
#include <vector>

namespace eevdf::cli {

struct Companion {
	const char* name;    // the executable
	const char* env;     // overrides the search
	const char* subdir;  // its directory in a build tree
	const char* target;  // its CMake target
};

inline constexpr Companion PROBE{"eevdf-probe", "EEVDF_PROBE", "probe", "eevdf-probe"};
inline constexpr Companion PROVER{"eevdf-prove", "EEVDF_PROVE", "proofs", "eevdf-prove"};
inline constexpr Companion CALIBRATOR{"eevdf-calibrate", "EEVDF_CALIBRATE", "probe", "eevdf-calibrate"};

// The program's path, or "" when there is none.
std::string find_companion(const Companion& c);

// Runs the program at `path` (argv[0] `name`) with `args`, its stderr
// passing through; fills `out` with its stdout. If eevdf dies, the program
// is sent SIGTERM. Returns its exit status (2 when it cannot run).
int capture_program(const std::string& path, const char* name, const std::vector<std::string>& args, std::string& out);

// Runs the program with `args`, its standard output passed through this
// process's (a pipe, so that a write that fails there, /dev/full or a full
// disk, is exit 2 as for eevdf's own output: the companion cannot tell).
// Returns its exit status, or 2 with a message when it cannot be found or
// run or its output cannot be written; dies of the signal it died of.
int exec_companion(const Companion& c, const std::vector<std::string>& args);

}  // namespace eevdf::cli
