// SPDX-License-Identifier: GPL-2.0-only
// A run that ends in a deadlock is named (report/deadlock.hpp): when every
// task still alive waits, each is listed with what it waits on and who
// holds the mutex it waits for; when only some wait on what no task that
// can still run releases, those are listed as a partial deadlock; a run in
// which every waiter may still be released is none.
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
	return watch.find(sim, {1000, 1001, 1002});
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
	CHECK_FALSE(d->partial);
	CHECK(d->waiting[0].held_by == "b");
	CHECK(d->waiting[1].held_by == "a");
	CHECK(describe(*d) == "deadlock from 1.000 ms: no task can run again; waiting: 'a' (pid 1000) on mutex:n "
			      "held by 'b' (pid 1001), 'b' (pid 1001) on mutex:m held by 'a' (pid 1000)");
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
}

TEST_CASE("an ABBA lock order while a third task runs on is a partial deadlock naming the holders")
{
	const auto d = run(R"({"tasks": {
		"a": {"loop": -1, "lock": "m", "run": 1000, "lock1": "n", "unlock1": "n", "unlock": "m"},
		"b": {"loop": -1, "lock": "n", "run": 1000, "lock1": "m", "unlock1": "m", "unlock": "n"},
		"c": {"loop": -1, "run": 1000, "sleep": 1000}}})",
			   2);
	REQUIRE(d);
	CHECK(d->partial);
	CHECK(d->since_ns == 1 * MS);
	REQUIRE(d->waiting.size() == 2);
	CHECK(describe(*d) == "deadlock from 1.000 ms: 2 of 3 tasks can never run again (the others run on); waiting: "
			      "'a' (pid 1000) on mutex:n held by 'b' (pid 1001), 'b' (pid 1001) on mutex:m held by "
			      "'a' (pid 1000)");
}

TEST_CASE("a barrier a thread has left, while another runs on, is a partial deadlock of its waiter")
{
	const auto d = run(R"({"tasks": {"a": {"loop": -1, "barrier": "x", "run": 100},
		"b": {"loop": 2, "barrier": "x", "run": 100}, "c": {"loop": -1, "run": 1000, "sleep": 1000}}})",
			   1);
	REQUIRE(d);
	CHECK(d->partial);
	REQUIRE(d->waiting.size() == 1);
	CHECK(d->waiting[0].task == "a");
	CHECK(d->waiting[0].on == "x");
	CHECK_FALSE(d->waiting[0].held_by);
}

TEST_CASE("a suspend no running task's program resumes is a partial deadlock")
{
	const auto d = run(R"({"tasks": {"a": {"loop": 1, "suspend": "s"}, "b": {"loop": -1, "run": 1000}}})", 1);
	REQUIRE(d);
	CHECK(d->partial);
	REQUIRE(d->waiting.size() == 1);
	CHECK(d->waiting[0].on == "s");
}

TEST_CASE("a waiter behind a deadlocked holder is part of the deadlock")
{
	const auto d = run(R"({"tasks": {
		"a": {"loop": -1, "lock": "m", "run": 1000, "lock1": "n", "unlock1": "n", "unlock": "m"},
		"b": {"loop": -1, "lock": "n", "run": 1000, "lock1": "m", "unlock1": "m", "unlock": "n"},
		"c": {"loop": -1, "sleep": 3000, "lock": "m", "unlock": "m"}}})",
			   3);
	REQUIRE(d);
	REQUIRE(d->waiting.size() == 3);
	CHECK(d->waiting[2].task == "c");
	CHECK(d->waiting[2].held_by == "a");
}

TEST_CASE("waiters a running task may still release are no deadlock")
{
	// A contended mutex, a barrier every thread comes back to, a suspend
	// another task resumes on each of its loops.
	CHECK_FALSE(run(R"({"tasks": {
		"a": {"loop": -1, "lock": "m", "run": 3000, "unlock": "m", "sleep": 10},
		"b": {"loop": -1, "lock": "m", "run": 3000, "unlock": "m", "sleep": 10},
		"c": {"loop": -1, "barrier": "x", "run": 100, "sleep": 5000},
		"d": {"loop": -1, "barrier": "x", "run": 100},
		"e": {"loop": -1, "suspend": "s", "run": 10},
		"f": {"loop": -1, "run": 1000, "resume": "s", "sleep": 3000}}})",
			2));
}
