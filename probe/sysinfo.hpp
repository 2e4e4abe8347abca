// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: what the running system is (kernel, HZ, preemption,
// autogroup, CPUs) and a task's /proc/<pid>/task/<tid>/sched counters.
#pragma once

#include <optional>
#include <string>

#include <sys/types.h>

#include "util.hpp"

namespace probe {

struct SysInfo {
	std::string release, version, machine;
	std::optional<long> config_hz;
	std::string config_hz_source;
	std::optional<double> measured_hz;     // from jiffies in /proc/timer_list
	std::optional<long> hz;                // what the analysis uses
	std::string hz_source;
	std::string preempt_mode;              // "" if unknown
	std::string autogroup;                 // /proc/self/autogroup
	int autogroup_enabled = -1;
	int ncpus_online = 0;
};

// measure_jiffies: always time the jiffies rate (300 ms); otherwise only
// when CONFIG_HZ cannot be read.
SysInfo gather_sysinfo(bool measure_jiffies = true);

struct ProcSched {
	bool ok = false;
	i64 sum_exec_ns = 0;      // se.sum_exec_runtime
	i64 nr_switches = 0, nr_voluntary = 0, nr_involuntary = 0;
	i64 nr_migrations = 0;
	std::optional<i64> slice_ns; // se.slice (6.15+)
	i64 policy = -1;
	i64 read_at = 0;
};

ProcSched read_proc_sched(pid_t tid);

// Time the hypervisor stole from CPU `cpu` so far (the steal column of
// /proc/stat, in USER_HZ units, so 10 ms resolution at USER_HZ=100). With
// CONFIG_PARAVIRT_TIME_ACCOUNTING, update_rq_clock_task() leaves stolen
// time out of rq->clock_task, so a task does not age while the host runs
// something else: its runs get longer in wall time by whole ticks. The
// model simulates no steal, so a measurement with steal is not comparable.
std::optional<i64> read_cpu_steal_ns(int cpu);

}  // namespace probe
