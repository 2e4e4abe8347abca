// SPDX-License-Identifier: GPL-2.0-only
// The measured table of seed 001: "sched/doc: Update documentation for
// base_slice_ns and CONFIG_HZ relation" (Mukesh Kumar Chaurasiya, LKML
// 20 Mar 2024, tip a26979377bf3): stress-ng, 1 CPU, 4 stressor threads, 30 s.
#pragma once

#include <array>

#include "model/types.hpp"

namespace eevdf::cli {

struct Seed001Row {
	u32 hz;
	u64 slice_ms;
	double avg_run_ms;  // "avg-run (msec)"
	u64 context_switches;
};

inline constexpr std::array<Seed001Row, 12> seed001_rows = {{
	{1000, 3, 2.914, 10342},
	{1000, 6, 4.857, 6196},
	{1000, 9, 6.754, 4482},
	{1000, 12, 7.872, 3802},
	{1000, 22, 11.294, 2710},
	{1000, 32, 13.425, 2284},
	{100, 3, 9.144, 3337},
	{100, 6, 9.113, 3301},
	{100, 9, 8.991, 3315},
	{100, 12, 12.935, 2328},
	{100, 22, 16.031, 1915},
	{100, 32, 18.608, 1622},
}};

}  // namespace eevdf::cli
