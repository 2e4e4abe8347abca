// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: units, clocks, formatting, small file and number helpers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <time.h>

namespace probe {

using i64 = std::int64_t;
using u64 = std::uint64_t;

constexpr i64 kUs = 1000;
constexpr i64 kMs = 1000 * kUs;
constexpr i64 kSec = 1000 * kMs;

constexpr int kExitError = 2;
constexpr int kExitInterrupted = 130;

inline i64 now_ns()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return i64(ts.tv_sec) * kSec + ts.tv_nsec;
}

timespec to_timespec(i64 ns);
std::string strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string ms3(i64 ns);
[[noreturn]] void die(const std::string &msg);
std::optional<std::string> read_text(const std::string &path);
// Returns 0 or an errno value.
int write_text(const std::string &path, const std::string &text);
bool exists(const std::string &path);
// "1.5ms", "500us", "5s", "100ns"; a bare number has unit default_unit.
// A duration with unit ns, us, ms or s; only 0 may go without one.
std::optional<i64> parse_duration(std::string_view text);
std::optional<i64> parse_int(std::string_view text);

}  // namespace probe
