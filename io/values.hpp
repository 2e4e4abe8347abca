// SPDX-License-Identifier: GPL-2.0-only
// Parsing of command-line values: durations and feature lists.
// A claim file's settings are read with the same (claims/), hence
// namespace cli.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/features.hpp"
#include "model/types.hpp"

namespace eevdf::cli {

// A bad command-line value; the message names the flag and the value.
struct UsageError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

// "3ms", "2.8ms", "750us", "30s", "1000000ns" or a bare number of ns.
u64 parse_duration(std::string_view text, std::string_view flag);

// "0-3,6" -> {0,1,2,3,6} (the kernel's cpulist_parse()); UsageError naming
// `flag` for an empty or malformed list or a CPU past MAX_CPUS - 1.
std::vector<u32> parse_cpu_list(const std::string& text, const std::string& flag);

// "+HRTICK,-RUN_TO_PARITY" applied to `base`; names are case-insensitive.
Features apply_feature_list(Features base, std::string_view list, std::string_view flag);

}  // namespace eevdf::cli
