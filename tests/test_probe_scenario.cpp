// SPDX-License-Identifier: GPL-2.0-only
// `eevdf probe --scenario` (cli/probe_scenario.cpp): the model rebuilds each
// scenario of the probe from the JSON the probe wrote (tests/data/probe/
// scenario-*.json, one 1 s run each on the development VM), and with
// --seeds a row is within when the kernel's value and the model's interval
// over the seeds overlap.
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli/probe_table.hpp"

using namespace eevdf;
using eevdf::cli::probe::ranges_overlap;
using eevdf::cli::probe::scenario_workload;

namespace {

constexpr u64 T0 = 504 * NSEC_PER_MSEC;

Workload rebuilt(const std::string& scenario)
{
	std::ifstream in(std::string(EEVDF_TEST_DATA) + "/probe/scenario-" + scenario + ".json");
	REQUIRE(in);
	const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
	return scenario_workload(nlohmann::json::parse(text), T0);
}

const std::vector<Event>& program(const Workload& wl, size_t task)
{
	REQUIRE(task < wl.tasks.size());
	REQUIRE(wl.tasks[task].phases.size() == 1);
	return wl.tasks[task].phases[0].events;
}

bool is(const Event& e, Event::Kind k, u64 ns) { return e.kind == k && e.ns == ns; }

}  // namespace

TEST_CASE("the model's window ends where the probe's does: T0 plus the probe's duration")
{
	CHECK(rebuilt("nice-mix").duration == T0 + NSEC_PER_SEC);
}

TEST_CASE("pipe-pingpong is the futex pair's program: run, post the partner's word, wait on its own")
{
	const Workload wl = rebuilt("pipe-pingpong");
	REQUIRE(wl.tasks.size() == 2);
	const auto& ping = program(wl, 0);
	const auto& pong = program(wl, 1);
	REQUIRE(ping.size() == 3);
	REQUIRE(pong.size() == 3);
	CHECK(is(ping[0], Event::Kind::Run, 200 * NSEC_PER_USEC));
	CHECK(ping[1].kind == Event::Kind::FutexPost);
	CHECK(ping[2].kind == Event::Kind::FutexWait);
	CHECK(pong[0].kind == Event::Kind::FutexWait);  // pong waits first
	CHECK(ping[1].ref == pong[0].ref);  // ping's write wakes pong's read
	CHECK(pong[2].ref == ping[2].ref);
	CHECK(ping[1].ref != ping[2].ref);  // a word each, as the probe's pipe each
	CHECK(wl.tasks[0].delay == NSEC_PER_MSEC);  // pong is waiting before ping hands off
}

TEST_CASE("forks is a hand-off to a child that runs 1 ms, the parent running 50 us between")
{
	const Workload wl = rebuilt("forks");
	REQUIRE(wl.tasks.size() == 2);
	CHECK(wl.tasks[0].name == "forker");
	CHECK(wl.tasks[1].name == "child");
	CHECK(is(program(wl, 0)[0], Event::Kind::Run, 50 * NSEC_PER_USEC));
	CHECK(program(wl, 0)[1].kind == Event::Kind::FutexPost);
	CHECK(program(wl, 1)[0].kind == Event::Kind::FutexWait);
	CHECK(is(program(wl, 1)[1], Event::Kind::Run, NSEC_PER_MSEC));
}

TEST_CASE("nice-mix's second hog runs at nice 5, the others at nice 0")
{
	const Workload wl = rebuilt("nice-mix");
	REQUIRE(wl.tasks.size() == 3);
	CHECK(wl.tasks[0].nice == 0);
	CHECK(wl.tasks[1].nice == 5);
	CHECK(wl.tasks[2].nice == 0);
	for (const TaskSpec& t : wl.tasks)
		CHECK(is(t.phases[0].events[0], Event::Kind::Run, RUN_FOREVER));
}

TEST_CASE("idle-hog's third hog is SCHED_IDLE, the two others SCHED_OTHER")
{
	const Workload wl = rebuilt("idle-hog");
	REQUIRE(wl.tasks.size() == 3);
	CHECK(wl.tasks[0].policy == Policy::Normal);
	CHECK(wl.tasks[1].policy == Policy::Normal);
	CHECK(wl.tasks[2].policy == Policy::Idle);
}

TEST_CASE("slice-hogs gives its first hog a 0.3 ms custom slice and the others the base slice")
{
	const Workload wl = rebuilt("slice-hogs");
	REQUIRE(wl.tasks.size() == 3);
	CHECK(wl.tasks[0].custom_slice == 300 * NSEC_PER_USEC);
	CHECK(wl.tasks[1].custom_slice == 0);
	CHECK(wl.tasks[2].custom_slice == 0);
}

TEST_CASE("slice-sleeper's sleeper has a 0.1 ms slice and its 10 ms timer beside two hogs")
{
	const Workload wl = rebuilt("slice-sleeper");
	REQUIRE(wl.tasks.size() == 3);
	CHECK(wl.tasks[2].custom_slice == 100 * NSEC_PER_USEC);
	CHECK(is(program(wl, 2)[0], Event::Kind::Timer, 10 * NSEC_PER_MSEC));
	CHECK(is(program(wl, 2)[1], Event::Kind::Run, NSEC_PER_MSEC));
	CHECK(wl.tasks[0].custom_slice == 0);
}

TEST_CASE("8-periodic is eight tasks of 1 ms run and a relative 3 ms sleep, all starting together")
{
	const Workload wl = rebuilt("8-periodic");
	REQUIRE(wl.tasks.size() == 8);
	for (size_t i = 0; i < 8; i++) {
		const auto& p = program(wl, i);
		REQUIRE(p.size() == 2);
		CHECK(is(p[0], Event::Kind::Run, NSEC_PER_MSEC));
		CHECK(is(p[1], Event::Kind::Sleep, 3 * NSEC_PER_MSEC));  // relative: not an absolute Timer
		CHECK(wl.tasks[i].delay == 0);
	}
}

TEST_CASE("a kernel value inside the model's interval over the seeds is within")
{
	CHECK(ranges_overlap(5, 5, 4, 6));
	CHECK(ranges_overlap(4, 4, 4, 6));  // closed at both ends
	CHECK(ranges_overlap(6, 6, 4, 6));
}

TEST_CASE("a kernel value outside the model's interval is not within")
{
	CHECK_FALSE(ranges_overlap(3.9, 3.9, 4, 6));
	CHECK_FALSE(ranges_overlap(6.1, 6.1, 4, 6));
}

TEST_CASE("the exact model's zero-width interval is within only where it equals the kernel's value")
{
	CHECK(ranges_overlap(2, 2, 2, 2));
	CHECK_FALSE(ranges_overlap(2.001, 2.001, 2, 2));
}

TEST_CASE("a kernel range over runs is within when it overlaps the model's interval at all")
{
	CHECK(ranges_overlap(1, 3, 2.5, 9));  // overlapping ends
	CHECK(ranges_overlap(1, 9, 4, 5));  // the model's inside the kernel's
	CHECK_FALSE(ranges_overlap(1, 3, 3.5, 9));
}
