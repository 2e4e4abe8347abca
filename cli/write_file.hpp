// SPDX-License-Identifier: GPL-2.0-only
// A command's output file (--output, --trace, --svg, ...), or the standard
// output for "-".
#pragma once

#include <string>
#include <vector>

namespace eevdf::cli {

// Writes `text` to `path` whole or not at all: a temporary file renamed over
// it. `flag` names the option in the error.
// Whole or not at all (io/output_file.hpp); refuses a path that is one of
// the run's `inputs`. Throws UsageError naming the flag and path.
void write_file_atomic(const std::string& path, const std::string& text, const std::string& flag,
		       const std::vector<std::string>& inputs = {});

}  // namespace eevdf::cli
