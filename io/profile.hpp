// SPDX-License-Identifier: GPL-2.0-only
// Machine profiles as files (docs/profiles.md): the JSON a profile is
// written in, read back with every mistake an InputError naming the file,
// line, column and field; and the profiles built in by name.
//
//   {
//     "eevdf_profile": 1,
//     "name": "vm-6.18.44-hz250",
//     "measured": {"kernel": "6.18.44", "hz": 250, "cpus": 2,
//                  "date": "2026-12-05", "command": "eevdf calibrate ...",
//                  "steal_ppm": 1200},                     host steal meanwhile
//     "switch_cost": "3us",                                    fixed
//     "tick_jitter": {"uniform": ["0ns", "20us"]},             least, greatest
//     "ipi_latency": {"normal": {"mean": "12us", "sd": "4us"}},
//     "timer_delay": {"empirical": ["2us", "5us", "9us", "40us"]},  idle CPU
//     "timer_delay_busy": "8us",            busy CPU; absent: timer_delay's
//     "timer_slack": "50us",                                   a duration only
//     "burst_scale": {"normal": {"mean": 1.0, "sd": 0.08}},    multipliers: numbers
//     ...
//   }
//
// Durations are strings with a unit ("3us"), as on the command line;
// multipliers (burst_scale, run_scale) are plain numbers, read exactly to
// 6 decimal places (ppm). Every cost not named is 0 (exact).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/profile.hpp"

namespace eevdf {

// Quantiles one empirical distribution may list.
inline constexpr std::size_t MAX_PROFILE_QUANTILES = 1001;
// A profile file is a few KB; more is refused before it is read.
inline constexpr std::size_t MAX_PROFILE_BYTES = 1u << 20;

// Throws InputError "FILE:LINE:COL: field: what is wrong".
Profile parse_profile(std::string_view text, const std::string& filename);

// The profile a --profile value names: a built-in name, else a file.
// Throws InputError (an unreadable or bad file) naming it.
Profile find_profile(const std::string& name_or_file);

// The built-in profiles' names, "exact" first.
std::vector<std::string> builtin_profile_names();

// The profile as the JSON parse_profile() reads back to the same Profile.
std::string profile_json(const Profile& p);

}  // namespace eevdf
