// SPDX-License-Identifier: GPL-2.0-only
// What the load-balancer tests (tests/test_balance_*.cpp) share: a
// recorder of migrations, the configuration, a task that runs once, and a
// CPU's statistics for the pure steps. Their cases test model/balance*.cpp
// against Linux v6.18.44 fair.c, each case's expected behaviour derived by
// hand from the kernel's rules in its comment, on the full Simulation with
// 2 or 4 CPUs, and the pure steps on constructed numbers.
//
// Set-ups avoid depending on where CPU selection puts a task: pinned tasks
// (TaskSpec::cpus), hogs whose long-run pattern does not depend on the start,
// and forks onto an idle CPU 0 while every other CPU is busy, which the
// kernel's sched_balance_find_dst_group() and the prev_cpu placeholder both
// keep on CPU 0 (the local group is idler than any busy one).
#pragma once

#include <string>
#include <vector>

#include "model/balance.hpp"
#include "sim_helpers.hpp"

namespace eevdf::test::balance_cases {

using lb::GroupType;
using lb::MigrationType;
using lb::SgLbStats;

struct Migration {
	u64 t;
	int task;
	u32 from, to;
	u32 cpu;  // the CPU whose event moved it
};

struct MigrationRecorder : Observer {
	std::vector<Migration> migrations;
	void on_migrate(const Simulation& s, u64 t, int task, u32 from, u32 to) override
	{
		migrations.push_back({t, task, from, to, s.event_cpu()});
	}
};

// The running 6.18.44's preset, NI_RANDOM off so that every newidle pass
// runs (NI_RANDOM throws a seeded die; its own behaviour is not under test).
inline Config smp(u32 hz, u32 cpus, u32 llc = 0)
{
	Config c = make_config(*find_preset("6.18.33"), hz, cpus);
	c.llc_size = llc;
	c.features.set(Feature::NI_RANDOM, false);
	return c;
}

// A task that runs `ns` of CPU once, then sleeps for good.
inline TaskSpec runs_then_sleeps(std::string name, u64 ns)
{
	return task(std::move(name), {run(ns), sleep(1'000'000 * MS)}, 1);
}

inline SgLbStats cpu_stats(u32 nr, u64 util, u64 runnable, u64 load = 0)
{
	SgLbStats s;
	s.sum_nr_running = s.sum_h_nr_running = nr;
	s.group_util = util;
	s.group_runnable = runnable;
	s.group_load = load;
	s.group_capacity = 1024;
	s.group_weight = 1;
	s.idle_cpus = nr == 0 ? 1 : 0;
	return s;
}

}  // namespace eevdf::test::balance_cases
