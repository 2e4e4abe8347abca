// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: the process around the measurement: its own session and
// autogroup (--isolate), and waiting for a time while watching for
// termination signals.
#pragma once

#include <csignal>

#include "util.hpp"

namespace probe {

// --isolate: a new session gets a new autogroup (kernel/sched/autogroup.c,
// sched_autogroup_create_attach() on setsid()), whose nice is set to -20.
void isolate_session();

// Sleep until the absolute CLOCK_MONOTONIC time `until` while watching for
// the blocked termination signals, waking at least every `step` ns.
// Returns false if one arrived.
bool wait_until(i64 until, const sigset_t &sigs, i64 step = 100 * kMs);

}  // namespace probe
