// SPDX-License-Identifier: GPL-2.0-only
// Reading an input file whole, with a bound: a workload or claim file is a
// few KB, so anything past the bound (or a device that never ends, such as
// /dev/zero) is refused before it is held in memory.
#pragma once

#include <cstddef>
#include <string>

namespace eevdf {

inline constexpr std::size_t MAX_INPUT_BYTES = 64u << 20;  // 64 MiB

// The file's bytes; throws InputError naming the file and `what` it should
// be when it cannot be read or holds more than `limit` bytes.
std::string read_input_file(const std::string& path, const std::string& what, std::size_t limit = MAX_INPUT_BYTES);

}  // namespace eevdf
