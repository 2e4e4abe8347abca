// SPDX-License-Identifier: GPL-2.0-only
// Writing an output file whole or not at all: the text goes to PATH.tmp,
// which is renamed over PATH only once it is complete, so a reader never
// sees half a file and a failed write leaves the old one in place.
#pragma once

#include <string>

namespace eevdf {

// Returns false (and leaves no PATH.tmp behind) when the file cannot be
// written.
bool write_output_file(const std::string& path, const std::string& text);

}  // namespace eevdf
