// SPDX-License-Identifier: GPL-2.0-only
// schbench (masoncl/schbench) as a workload: its message and worker threads
// with their futex protocol, from schbench's own options. What is exact and
// what is fixed CPU work is in docs/schbench.md.
//
//   message thread i:  loop { word m_i = BLOCKED; splice list_i and fpost
//                             each worker's word, most recent first;
//                             run msg_cost; fwait(m_i) }
//   worker j of i:     loop { word w_ij = BLOCKED; push w_ij on list_i;
//                             fpost(m_i); fwait(w_ij);
//                             usleep(sleep) -> sleep + timer slack;
//                             operations * op_cost + worker_cost of CPU }
//
// A worker's wake-up latency, as schbench measures it, runs from the fpost
// of its word (the message thread's batch) to its fwait's return.
#pragma once

#include <string>
#include <vector>

#include "model/workload.hpp"

namespace eevdf {

struct SchbenchOptions {
	int message_threads = 1;     // -m
	int workers = 0;             // -t, per message thread; 0 = ceil(cpus / m), schbench's default
	u64 runtime_ns = 30 * NSEC_PER_SEC;  // -r
	u64 sleep_ns = 100 * NSEC_PER_USEC;  // -s (usec): usleep() in each request
	int operations = 5;          // -n: matrix multiplications per request
	u64 op_cost_ns = 0;          // CPU time of one operation (the model's; no default: machine-dependent)
	bool no_locking = false;     // -L: no per-CPU lock (the model never takes it)
	bool pin_auto = false;       // -M auto: message thread i on CPU i; workers on every CPU (schbench's quirk)
	u64 timer_slack_ns = 50 * NSEC_PER_USEC;  // the hrtimer slack of a SCHED_OTHER usleep()
	u64 msg_cost_ns = 1 * NSEC_PER_USEC;      // a message thread's splice and futex syscalls, per batch
	u64 worker_cost_ns = 2 * NSEC_PER_USEC;   // a worker's futex and usleep syscalls, per request
	int stress = 0;              // stress-ng --cpu N beside it: N nice-0 hogs "stress-K", forked at 0
	u64 warmup_ns = 0;           // -w (seconds): nothing recorded before it (not part of the workload)
	u64 schbench_slice_ns = 0;   // sched_setattr(sched_runtime) of every schbench thread; 0 = none
	u64 stress_slice_ns = 0;     // the same for the stress-ng hogs
};

// What schbench's options may ask for, checked before anything is built:
// message threads and their workers m x (1 + t) together, the stressors
// (as --hogs), the runtime (a per-second sample each) and a request's work
// -n x --op-cost + --worker-cost (within 2^62 ns, as every time).
inline constexpr long long MAX_SCHBENCH_THREADS = 4096;
inline constexpr long long MAX_SCHBENCH_STRESS = 1000000;
inline constexpr u64 MAX_SCHBENCH_RUNTIME_S = 1000000;

// The tasks: message threads "msg-I", then their workers "worker-I-J", then
// the stress-ng hogs "stress-K"; refs
// "m-I" (a message thread's word), "list-I", "w-I-J" (a worker's word).
// Throws cli::UsageError naming the option for options beyond the limits.
Workload schbench_workload(const SchbenchOptions& o, u32 cpus);

// A schbench command line as a claim file gives it ("-m 1 -t 8 -n 5
// --op-cost 400us --stress 8"): schbench's -m -t -s -n -M auto -L and the
// model's --op-cost --worker-cost --msg-cost --timer-slack --stress
// --schbench-slice --stress-slice, and -w
// (schbench's warm-up: the claim's metrics leave it out), a
// repeated option's last value winning. The runtime is the claim's
// duration. Throws std::invalid_argument naming the option and value.
SchbenchOptions parse_schbench_command(const std::string& args);

// Workers per message thread once the default is resolved.
int schbench_workers(const SchbenchOptions& o, u32 cpus);

}  // namespace eevdf
