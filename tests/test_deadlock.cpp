// SPDX-License-Identifier: GPL-2.0-only
// A run that ends in a deadlock is named (report/deadlock.hpp): when every
// task still alive waits, each is listed with what it waits on; a run in
// which a task can still run or wake from a timer is none.
#include <catch2/catch.hpp>

#include "io/rtapp.hpp"
#include "report/deadlock.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::cli;
using namespace eevdf::test;

namespace {

std::optional<Deadlock> run(const char* json, u32 cpus)
{
	Workload wl = parse_rtapp(json, "d.json");
	wl.duration = 20 * MS;
	Simulation sim(make_config(*find_preset("6.18"), 1000, cpus), wl);
	DeadlockWatch watch;
	sim.add_observer(&watch);
	sim.run();
	return watch.find(sim, {1000, 1001});
}

}  // namespace

TEST_CASE("an ABBA lock order on two CPUs ends in a deadlock naming both tasks and mutexes")
{
	const auto d = run(R"({"tasks": {
		"a": {"loop": 1, "lock": "m", "run": 1000, "lock1": "n", "unlock1": "n", "unlock": "m"},
		"b": {"loop": 1, "lock": "n", "run": 1000, "lock1": "m", "unlock1": "m", "unlock": "n"}}})",
			   2);
	REQUIRE(d);
	CHECK(d->since_ns == 1 * MS);
	REQUIRE(d->waiting.size() == 2);
	CHECK(d->waiting[0].task == "a");
	CHECK(d->waiting[0].on == "mutex:n");
	CHECK(d->waiting[1].task == "b");
	CHECK(d->waiting[1].on == "mutex:m");
	CHECK(describe(*d) == "deadlock from 1.000 ms: no task can run again; waiting: 'a' (pid 1000) on mutex:n, "
			      "'b' (pid 1001) on mutex:m");
}

TEST_CASE("a wait nobody signals, once the other task has exited, is a deadlock from the exit")
{
	const auto d = run(R"({"tasks": {"a": {"loop": 1, "suspend": "s"}, "b": {"loop": 1, "run": 100}}})", 1);
	REQUIRE(d);
	CHECK(d->since_ns == 100 * US);
	REQUIRE(d->waiting.size() == 1);
	CHECK(d->waiting[0].on == "s");
}

TEST_CASE("a run whose tasks still run or sleep on a timer, or have all exited, is no deadlock")
{
	CHECK_FALSE(run(R"({"tasks": {"a": {"loop": -1, "run": 1000, "sleep": 1000}}})", 1));
	CHECK_FALSE(run(R"({"tasks": {"a": {"loop": 1, "run": 1000}}})", 1));
	CHECK_FALSE(run(R"({"tasks": {"a": {"loop": 1, "suspend": "s"}, "b": {"loop": -1, "run": 1000}}})", 1));
}
