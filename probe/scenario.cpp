// SPDX-License-Identifier: GPL-2.0-only
#include "scenario.hpp"

namespace probe {
namespace {

struct Def {
	const char *name;
	const char *description;
	int hogs, sleepers;
	bool pingpong;
	// The scenario's other tasks and settings, after the hogs and sleepers.
	void (*more)(Scenario &s, const Options &o) = nullptr;
};

// The first sleeper's first wake is 1 ms after T0 (a tick), the second's
// half a period and 0.5 ms later: with 10 ms periods on a 4 ms tick the first
// wakes 1 or 3 ms after a tick, the second 2.5 or 0.5 ms after one, neither on
// a tick (where the wake-up would race the tick's own switch).
constexpr i64 kFirstOffset = 1 * kMs;
constexpr i64 kNextOffset = 500 * kUs;

// The issue-35 scenarios' fixed figures (docs/kernel-probe.md).
constexpr i64 kForkerRun = 50 * kUs;      // the parent's own work between forks
constexpr i64 kChildRun = 1 * kMs;        // each child's CPU time before it exits
constexpr i64 kPeriodicRun = 1 * kMs;     // 8-periodic: rt-app run 1000 ...
constexpr i64 kPeriodicSleep = 3 * kMs;   // ... sleep 3000
constexpr i64 kShortSlice = 300 * kUs;    // slice-hogs: one hog's custom slice
constexpr i64 kSleeperSlice = 100 * kUs;  // slice-sleeper: the sleeper's custom slice

ScenarioTask hog(const std::string &name) { return ScenarioTask{name, Role::Hog, 0, 0, 0, -1, 0, 0, false, {}}; }

void add_pair(Scenario &s, const char *a, Role ra, i64 run_a, const char *b, Role rb, i64 run_b)
{
	const int i = int(s.tasks.size());
	s.tasks.push_back(ScenarioTask{a, ra, 0, run_a, 0, i + 1, 0, 0, false, {}});
	s.tasks.push_back(ScenarioTask{b, rb, 0, run_b, 0, i, 0, 0, false, {}});
}

void pipe_pair(Scenario &s, const Options &o)
{
	add_pair(s, "ping", Role::PipePing, o.pingpong_run_ns, "pong", Role::PipePong, o.pingpong_run_ns);
}

void forks(Scenario &s, const Options &)
{
	add_pair(s, "forker", Role::Forker, kForkerRun, "child", Role::Child, kChildRun);
}

void nice_mix(Scenario &s, const Options &) { s.tasks[1].nice = 5; }

void idle_hog(Scenario &s, const Options &)
{
	ScenarioTask t = hog("idlehog");
	t.idle_policy = true;
	s.tasks.push_back(t);
}

void slice_hogs(Scenario &s, const Options &) { s.tasks[0].slice_ns = kShortSlice; }

void slice_sleeper(Scenario &s, const Options &) { s.tasks.back().slice_ns = kSleeperSlice; }

void periodic8(Scenario &s, const Options &)
{
	for (int i = 0; i < 8; ++i)
		s.tasks.push_back(
			ScenarioTask{strf("periodic%d", i), Role::Periodic, 0, kPeriodicRun, 0, -1, kPeriodicSleep, 0, false, {}});
}

const Def kDefs[] = {
	{"2hogs", "(a) 2 CPU hogs", 2, 0, false},
	{"3hogs", "(b) 3 CPU hogs: one more than CPUs, the balancer moves them", 3, 0, false},
	{"4hogs", "(c) 4 CPU hogs", 4, 0, false},
	{"hog-sleeper", "(d) 1 CPU hog + 1 periodic sleeper", 1, 1, false},
	{"pingpong", "(e) a futex ping-pong pair", 0, 0, true},
	{"2hogs-2sleepers", "(f) 2 CPU hogs + 2 periodic sleepers half a period (+0.5 ms) apart", 2, 2, false},
	{"sleeper", "(g) 1 periodic sleeper alone: the wake-up path of an idle machine", 0, 1, false},
	{"pipe-pingpong", "(h) a ping-pong pair handing off through a pipe (write, read)", 0, 0, false, pipe_pair},
	{"forks", "(i) a parent that forks a 1 ms child and waits for it, over and over", 0, 0, false, forks},
	{"nice-mix", "(j) 3 CPU hogs, the second at nice 5", 3, 0, false, nice_mix},
	{"idle-hog", "(k) 2 CPU hogs + 1 SCHED_IDLE hog", 2, 0, false, idle_hog},
	{"slice-hogs", "(l) 3 CPU hogs, the first with a 0.3 ms slice", 3, 0, false, slice_hogs},
	{"slice-sleeper", "(m) 2 CPU hogs + 1 periodic sleeper with a 0.1 ms slice", 2, 1, false, slice_sleeper},
	{"8-periodic", "(n) 8 tasks of 1 ms run, 3 ms relative sleep, default timer slack", 0, 0, false, periodic8},
};

const Def *find(const std::string &name)
{
	for (const Def &d : kDefs)
		if (name == d.name)
			return &d;
	return nullptr;
}

}  // namespace

const char *role_name(Role r)
{
	switch (r) {
	case Role::Hog:
		return "hog";
	case Role::Sleeper:
		return "sleeper";
	case Role::Ping:
		return "ping";
	case Role::Pong:
		return "pong";
	case Role::PipePing:
		return "pipe-ping";
	case Role::PipePong:
		return "pipe-pong";
	case Role::Periodic:
		return "periodic";
	case Role::Forker:
		return "forker";
	case Role::Child:
		return "child";
	}
	return "?";
}

bool find_scenario(const std::string &name) { return find(name) != nullptr; }

Scenario make_scenario(const std::string &name, const Options &o)
{
	const Def *d = find(name);
	Scenario s;
	if (!d)
		return s;
	s.name = d->name;
	s.description = d->description;
	for (int i = 0; i < d->hogs; ++i)
		s.tasks.push_back(hog(strf("hog%d", i)));
	for (int i = 0; i < d->sleepers; ++i)
		s.tasks.push_back(ScenarioTask{strf("sleeper%d", i), Role::Sleeper, o.sleeper_period_ns,
					       o.sleeper_run_ns,
					       kFirstOffset + i * (o.sleeper_period_ns / 2 + kNextOffset), -1, 0, 0,
					       false, {}});
	if (d->pingpong)
		add_pair(s, "ping", Role::Ping, o.pingpong_run_ns, "pong", Role::Pong, o.pingpong_run_ns);
	if (d->more)
		d->more(s, o);
	return s;
}

void list_scenarios(FILE *f)
{
	for (const Def &d : kDefs)
		std::fprintf(f, "%-16s %s\n", d.name, d.description);
}

}  // namespace probe
