// SPDX-License-Identifier: GPL-2.0-only
// RapidCheck generators of workloads and configurations. Every generated time
// is a whole number of microseconds, so any counterexample can be written as
// an rt-app file and replayed with `eevdf sim`.
#pragma once

#include <ostream>
#include <rapidcheck.h>

#include "model/config.hpp"
#include "model/workload.hpp"

namespace eevdf::props {

// Any preset, HZ (the four common ones or any in 100..1500), CPU count,
// feature flags flipped at random, realism knobs and seed.
rc::Gen<Config> gen_config();

// 1-10 task groups mixing hogs, periodic sleepers, rt-app timers, suspend/resume
// pairs, nice changes, yields and custom-slice changes, with random nice,
// custom slices and arrival times; 0.1-2 s long.
rc::Gen<Workload> gen_workload();

// Several CPUs: any preset and HZ on 2-8 simulated CPUs (all online), one
// LLC or LLCs of a divisor's size, skew_tick, every feature (the SMP ones
// and the experimental TTWU_QUEUE_DELAYED included) flipped at random, the
// one-CPU knobs and the SMP ones (IPI and idle-exit latency, wake-up IRQ
// cost, balance cost).
rc::Gen<Config> gen_smp_config();

// gen_workload() with affinity: each task keeps every CPU or gets a random
// non-empty subset of `cpus` (as rt-app's "cpus").
rc::Gen<Workload> gen_smp_workload(u32 cpus);

// gen_config() over every preset (all model task groups), half of the time
// with exact augmented min/max slices (Config::exact_tree_augments).
rc::Gen<Config> gen_group_config();

// gen_workload() in task groups: 1-6 groups up to 6 levels deep with any
// cpu.weight, each task in the root or in one of them.
rc::Gen<Workload> gen_group_workload();
// The same on several CPUs (with gen_smp_config()): gen_smp_workload()
// put in random groups as above.
rc::Gen<Workload> gen_smp_group_workload(u32 cpus);

// For --autogroup on: gen_workload() or gen_group_workload(), a third of
// the tasks leading a session of their own (setsid), half of those with an
// autogroup nice.
rc::Gen<Workload> gen_autogroup_workload();

// n equal-nice CPU hogs forked at t=0.
Workload equal_hogs(int n, int nice, u64 duration);

}  // namespace eevdf::props

namespace eevdf {
// How RapidCheck prints a counterexample.
void showValue(const Workload& w, std::ostream& os);
void showValue(const Config& c, std::ostream& os);
}  // namespace eevdf
