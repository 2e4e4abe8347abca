// SPDX-License-Identifier: GPL-2.0-only
#include "scenario.hpp"

namespace probe {
namespace {

struct Def {
	const char *name;
	const char *description;
	int hogs, sleepers;
	bool pingpong;
};

// The first sleeper's first wake is 1 ms after T0 (a tick), the second's
// half a period and 0.5 ms later: with 10 ms periods on a 4 ms tick the first
// wakes 1 or 3 ms after a tick, the second 2.5 or 0.5 ms after one, neither on
// a tick (where the wake-up would race the tick's own switch).
constexpr i64 kFirstOffset = 1 * kMs;
constexpr i64 kNextOffset = 500 * kUs;

const Def kDefs[] = {
	{"2hogs", "(a) 2 CPU hogs", 2, 0, false},
	{"3hogs", "(b) 3 CPU hogs: one more than CPUs, the balancer moves them", 3, 0, false},
	{"4hogs", "(c) 4 CPU hogs", 4, 0, false},
	{"hog-sleeper", "(d) 1 CPU hog + 1 periodic sleeper", 1, 1, false},
	{"pingpong", "(e) a futex ping-pong pair", 0, 0, true},
	{"2hogs-2sleepers", "(f) 2 CPU hogs + 2 periodic sleepers half a period (+0.5 ms) apart", 2, 2, false},
	{"sleeper", "(g) 1 periodic sleeper alone: the wake-up path of an idle machine", 0, 1, false},
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
		s.tasks.push_back(ScenarioTask{strf("hog%d", i), Role::Hog, 0, 0, 0, -1});
	for (int i = 0; i < d->sleepers; ++i)
		s.tasks.push_back(ScenarioTask{strf("sleeper%d", i), Role::Sleeper, o.sleeper_period_ns,
					       o.sleeper_run_ns,
					       kFirstOffset + i * (o.sleeper_period_ns / 2 + kNextOffset), -1});
	if (d->pingpong) {
		const int a = int(s.tasks.size());
		s.tasks.push_back(ScenarioTask{"ping", Role::Ping, 0, o.pingpong_run_ns, 0, a + 1});
		s.tasks.push_back(ScenarioTask{"pong", Role::Pong, 0, o.pingpong_run_ns, 0, a});
	}
	return s;
}

void list_scenarios(FILE *f)
{
	for (const Def &d : kDefs)
		std::fprintf(f, "%-16s %s\n", d.name, d.description);
}

}  // namespace probe
