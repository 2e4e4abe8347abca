// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: the multi-CPU scenarios. Nothing is pinned: every task may
// run on every CPU, so the kernel's wake-up CPU selection and its load
// balancer decide where they run. With --isolate all of them are in one new
// session, so in one autogroup (one task group) whose nice is -20.
//
// Roles, each a thread at nice 0 (SCHED_OTHER) with the kernel's default
// slice unless --slice is given or the scenario sets a task's nice, policy
// (SCHED_IDLE) or slice (sched_setattr; a task's own slice wins over --slice):
//  * hog: spins for the whole run (never sleeps).
//  * sleeper: clock_nanosleep(TIMER_ABSTIME) to T0 + offset + k * period,
//    then spins `run` of its own CPU time (CLOCK_THREAD_CPUTIME_ID, what the
//    kernel charges it: sum_exec_runtime). Its timer slack is set to 1 ns
//    with prctl(PR_SET_TIMERSLACK), so the hrtimer expires at the requested
//    time (the default slack of 50 us would let it fire up to 50 us late).
//  * ping / pong: a futex pair. Each spins `run` of CPU time, sets the
//    partner's word and FUTEX_WAKEs it, then FUTEX_WAITs on its own word;
//    pong starts by waiting.
//  * pipe-ping / pipe-pong: the same pair, but the hand-off is a write() of
//    one byte into the partner's pipe and a blocking read() of its own.
//  * periodic: spins `run` of CPU time, then a relative clock_nanosleep() of
//    `sleep` (rt-app's run/sleep), with the default timer slack (50 us for
//    SCHED_OTHER: the hrtimer may fire that much late).
//  * forker / child: the forker spins `run`, fork()s a child process and
//    waitpid()s it; the child spins its `run` and _exit()s. The child is one
//    task of the description, made of every child process (a new pid each
//    time; the forker records them for the trace analysis).
//
// The same description goes into the JSON ("scenario") so that the model
// side (cli/probe_compare.cpp) can build the equivalent workload.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "options.hpp"
#include "util.hpp"

namespace probe {

enum class Role { Hog, Sleeper, Ping, Pong, PipePing, PipePong, Periodic, Forker, Child };
const char *role_name(Role r);

struct ScenarioTask {
	std::string name;
	Role role = Role::Hog;
	i64 period_ns = 0;   // sleeper
	i64 run_ns = 0;      // all but hog: CPU time per activation
	i64 offset_ns = 0;   // sleeper: first expected wake at T0 + offset
	int partner = -1;    // ping, pong (futex or pipe), forker, child: the other one
	i64 sleep_ns = 0;    // periodic: relative sleep after each run
	int nice = 0;
	bool idle_policy = false;       // SCHED_IDLE instead of SCHED_OTHER
	std::optional<i64> slice_ns;    // its own slice; nullopt: --slice's (or the default)
};

// Hand-off roles, which wake their partner.
inline bool is_pair(Role r)
{
	return r == Role::Ping || r == Role::Pong || r == Role::PipePing || r == Role::PipePong || r == Role::Forker ||
	       r == Role::Child;
}

struct Scenario {
	std::string name;
	std::string description;
	std::vector<ScenarioTask> tasks;
};

bool find_scenario(const std::string &name);
// The scenario called `name` with the periods and run lengths of `o` (an
// empty one if there is none of that name).
Scenario make_scenario(const std::string &name, const Options &o);
void list_scenarios(FILE *f);

}  // namespace probe
