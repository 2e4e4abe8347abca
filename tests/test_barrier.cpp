// SPDX-License-Identifier: GPL-2.0-only
// rt-app's barrier (issue 17): every thread that names it meets there; the
// last to arrive broadcasts and goes on, the others wait for it. Schedules
// worked out by hand from rt-app.c's rtapp_barrier and the kernel's rules.
#include <catch2/catch.hpp>

#include "io/rtapp.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

// One thread per CPU, each running r ms then meeting at "b", then sleeping 5 ms.
Workload three_at_a_barrier()
{
	return parse_rtapp(R"({"tasks": {
		"t0": {"loop": -1, "run": 1000, "barrier": "b", "sleep": 5000},
		"t1": {"loop": -1, "run": 3000, "barrier": "b", "sleep": 5000},
		"t2": {"loop": -1, "run": 2000, "barrier": "b", "sleep": 5000}}})",
			   "barrier.json");
}

}  // namespace

TEST_CASE("the last thread to reach a barrier wakes the others; it goes on, they go on after it")
{
	const Config cfg = make_config(*find_preset("6.18"), 1000, 3);
	const Recorder r = simulate(cfg, three_at_a_barrier(), 20 * MS);
	// t1 arrives last, at 3 ms (and 11, 19): it broadcasts and sleeps at once.
	// t0 and t2 wait from 1 ms and 2 ms, run at 3 ms just to sleep, and all
	// three wake together 5 ms after the broadcast: rounds of 8 ms.
	CHECK(r.switch_outs(1) == std::vector<u64>{3 * MS, 11 * MS, 19 * MS});
	CHECK(r.switch_outs(0) == std::vector<u64>{1 * MS, 3 * MS, 9 * MS, 11 * MS, 17 * MS, 19 * MS});
	CHECK(r.switch_outs(2) == std::vector<u64>{2 * MS, 3 * MS, 10 * MS, 11 * MS, 18 * MS, 19 * MS});
	CHECK(r.switch_ins(0) == std::vector<u64>{0, 3 * MS, 8 * MS, 11 * MS, 16 * MS, 19 * MS});
}

TEST_CASE("a barrier named by one thread only never waits: it is always the last to arrive")
{
	const Config cfg = config("6.18", 1000);
	const Recorder r = simulate(cfg, parse_rtapp(R"({"tasks": {"solo": {"loop": -1, "run": 1000, "barrier": "b",
		"sleep": 1000}}})", "solo.json"), 10 * MS);
	CHECK(r.switch_outs(0) == std::vector<u64>{1 * MS, 3 * MS, 5 * MS, 7 * MS, 9 * MS});
}

TEST_CASE("a resume of the barrier's name does not release a thread waiting at the barrier")
{
	const Config cfg = make_config(*find_preset("6.18"), 1000, 2);
	// w waits at "b" for a second user that never arrives; r resumes "b".
	const Recorder r = simulate(cfg, parse_rtapp(R"({"tasks": {
		"w": {"loop": 1, "run": 1000, "barrier": "b", "run1": 1000},
		"x": {"loop": 1, "run": 50000, "barrier": "b"},
		"r": {"loop": -1, "run": 1000, "resume": "b", "sleep": 1000}}})", "res.json"), 10 * MS);
	CHECK(r.switch_outs(0) == std::vector<u64>{1 * MS});  // still waiting at 10 ms
}

TEST_CASE("barrier events are written back as rt-app reads them")
{
	const Workload w = three_at_a_barrier();
	CHECK(parse_rtapp(to_rtapp_json(w), "back.json") == w);
}
