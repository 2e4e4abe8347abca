// SPDX-License-Identifier: GPL-2.0-only
// Simulation::run_until()'s limits: a time, the workload's duration, and a
// number of events (the workload fuzzer's budget, fuzz/genome.hpp). A
// limited run is the whole run's prefix, and running on resumes it.
#include <catch2/catch.hpp>

#include "model/check.hpp"
#include "model/simulation.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

// Three sleepers and a hog on two CPUs: wake-ups, IPIs, ticks and
// migrations, so an event budget can stop the run inside any of them.
Workload dense()
{
	Workload wl = workload({hog("h"), task("s1", {run(90 * US), sleep(40 * US)}),
				task("s2", {run(30 * US), sleep(170 * US)}), task("s3", {run(400 * US), sleep(10 * US)})});
	wl.duration = 200 * MS;
	return wl;
}

Config two_cpus() { return make_config(*find_preset("6.18"), 1000, 2); }

// The unlimited run: what every limited one is compared with.
struct Whole {
	Recorder rec;
	std::vector<u64> event_times;  // of each event, in order
	u64 events = 0, end = 0;
	Whole()
	{
		Simulation sim(two_cpus(), dense());
		rec.each_event = [this](const Simulation&, u64 t) { event_times.push_back(t); };
		sim.add_observer(&rec);
		sim.run();
		events = sim.events();
		end = sim.now();
	}
};

}  // namespace

TEST_CASE("run_until stops at its max_events-th event, at that event's instant")
{
	const Whole whole;
	REQUIRE(whole.events > 3000);

	for (u64 budget : {1ULL, 17ULL, 1000ULL, 2999ULL}) {
		Simulation sim(two_cpus(), dense());
		sim.run_until(sim.end_time(), budget);
		CHECK(sim.events() == budget);
		CHECK(sim.now() == whole.event_times[budget - 1]);
		CHECK_FALSE(sim.finished());
	}
}

TEST_CASE("a run stopped by its event budget is the whole run's prefix, and resumes into it")
{
	const Whole whole;
	Simulation sim(two_cpus(), dense());
	Recorder part;
	InvariantChecker check;
	sim.add_observer(&part);
	sim.add_observer(&check);
	sim.run_until(sim.end_time(), 2000);
	const size_t k = part.switches.size();
	REQUIRE(k > 100);
	CHECK(std::equal(part.switches.begin(), part.switches.end(), whole.rec.switches.begin()));
	// Run on to the end: the same run as without the stop, every event checked.
	sim.run();
	CHECK(part.switches == whole.rec.switches);
	CHECK(part.wakeups == whole.rec.wakeups);
	CHECK(sim.events() == whole.events);
	CHECK(check.events_checked() == whole.events);
}

TEST_CASE("a budget larger than the run's events changes nothing")
{
	const Whole whole;
	Simulation sim(two_cpus(), dense());
	Recorder r;
	sim.add_observer(&r);
	sim.run_until(sim.end_time(), whole.events + 1);
	CHECK(sim.finished());
	CHECK(sim.now() == whole.end);
	CHECK(r.switches == whole.rec.switches);
}
