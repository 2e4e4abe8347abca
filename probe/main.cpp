// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: measure how the running kernel's fair scheduler (EEVDF) cuts
// CPU time between tasks, so that the eevdf reference model can be compared
// with a real kernel.  Two kinds of run:
//
//  * pinned (the default): CPU hogs and a periodic waker pinned to one CPU,
//    measured two independent ways.  Spin gaps: every hog spins on
//    clock_gettime(CLOCK_MONOTONIC) and records each gap longer than a
//    threshold; a hog's on-CPU intervals are the stretches between its gaps
//    (works everywhere, needs no privileges beyond sched_setattr() and
//    affinity).  sched_switch trace: if tracefs is usable, a private trace
//    instance records sched_switch, sched_wakeup and local_timer_entry on
//    the probed CPU with trace_clock=mono, which is the ground truth for
//    switch times and for where the ticks are.
//  * --rtapp FILE: rt-app itself running FILE, every CPU traced; the trace
//    goes to --dump-trace, for `eevdf probe --rtapp` to read (rtapp_run.hpp).
//  * --scenario NAME: unpinned tasks (hogs, periodic sleepers, a futex
//    ping-pong pair) on every CPU, measured from sched_switch, sched_waking,
//    sched_wakeup and sched_migrate_task on all CPUs (scenario.hpp).
//
// Standalone: Linux, C++20, pthreads.  See probe/README.md.
#include "options.hpp"
#include "pinned.hpp"
#include "rtapp_run.hpp"
#include "scenario_run.hpp"
#include "session.hpp"
#include "workers.hpp"

int main(int argc, char **argv)
{
	using namespace probe;
	g_opt = parse_args(argc, argv);
	if (g_opt.isolate)
		isolate_session();
	if (!g_opt.rtapp.empty())
		return run_rtapp(argc, argv);
	if (!g_opt.scenario.empty())
		return run_scenario(argc, argv);
	return run_pinned(argc, argv);
}
