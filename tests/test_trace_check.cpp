// SPDX-License-Identifier: GPL-2.0-only
// The proved run bounds applied to hand-written traces: which runs meet
// which bound's preconditions, and a run past its bound reported with its
// timestamps.
#include <catch2/catch.hpp>

#include <sstream>

#include "trace/run_check.hpp"

using namespace eevdf;
using namespace eevdf::trace;

namespace {

// HZ=250, r = 1.4 ms: the equal bound is r + T - 1 + (1 us resolution - 1) = 5 400 998 ns.
const RunBoundParams P{1400000, 4000000, 0, 0};

RunCheck check(const std::string& text)
{
	std::istringstream in(text);
	Reader r(in, "t.trace");
	RunChecker c(P);
	Event e;
	while (r.next(e))
		c.add(e, r.stats());
	return c.finish(r.stats());
}

std::string sw(const char* ts, const char* prev, int ppid, int pprio, const char* state, const char* next, int npid, int nprio,
	       int cpu = 0)
{
	char b[400];
	std::snprintf(b, sizeof b,
		      "%s-%d [%03d] %s: sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s "
		      "next_pid=%d next_prio=%d\n",
		      prev, ppid, cpu, ts, prev, ppid, pprio, state, next, npid, nprio);
	return b;
}

// A wake-up line printed on `cpu` while `ctx` ("COMM-PID") runs there.
std::string wake(const char* ts, const char* comm, int pid, int prio, int target, const char* ctx = "<idle>-0", int cpu = 0)
{
	char b[200];
	std::snprintf(b, sizeof b, "%s [%03d] %s: sched_wakeup: comm=%s pid=%d prio=%d target_cpu=%03d\n", ctx, cpu, ts,
		      comm, pid, prio, target);
	return b;
}

}  // namespace

TEST_CASE("two nice-0 hogs taking turns of one tick meet the equal bound")
{
	const RunCheck rc = check(wake("1.000000", "a", 10, 120, 0) + wake("1.000000", "b", 11, 120, 0) +
				  sw("1.000000", "swapper/0", 0, 120, "R", "a", 10, 120) +
				  sw("1.004000", "a", 10, 120, "R+", "b", 11, 120) +
				  sw("1.008000", "b", 11, 120, "R+", "a", 10, 120) +
				  sw("1.012000", "a", 10, 120, "R+", "b", 11, 120));
	// run_whole_equal: r + 2T + 2J - 1, re-picks included; the first
	// request alone, run_length: r + T + J - 1 (+ 999 ns of resolution).
	CHECK(rc.equal_bound == 9400998);
	CHECK(rc.request_bound == 5400998);
	CHECK(rc.runs == 3);
	CHECK(rc.checked_equal == 3);
	CHECK(rc.violations.empty());
	CHECK(rc.closest_length == 4000000);
}

TEST_CASE("a nice-0 run past r + 2T + 2J - 1 while another nice-0 task waits is a violation, with its timestamps")
{
	const RunCheck rc = check(wake("1.000000", "a", 10, 120, 0) + wake("1.000000", "b", 11, 120, 0) +
				  sw("1.000000", "swapper/0", 0, 120, "R", "a", 10, 120) +
				  sw("1.009401", "a", 10, 120, "R+", "b", 11, 120));
	REQUIRE(rc.violations.size() == 1);
	const RunViolation& v = rc.violations[0];
	CHECK(v.kind == BoundKind::Equal);
	CHECK(v.comm == "a");
	CHECK(v.start == 1000000000);
	CHECK(v.end == 1009401000);
	CHECK(v.bound == 9400998);
	CHECK(v.waiting_prios == std::vector<int>{120});
}

TEST_CASE("a nice-0 run past one request but within the whole-run bound holds, and is counted as longer")
{
	const RunCheck rc = check(wake("1.000000", "a", 10, 120, 0) + wake("1.000000", "b", 11, 120, 0) +
				  sw("1.000000", "swapper/0", 0, 120, "R", "a", 10, 120) +
				  sw("1.005401", "a", 10, 120, "R+", "b", 11, 120));
	CHECK(rc.violations.empty());
	CHECK(rc.longer_than_request == 1);
}

TEST_CASE("a run with no other task waiting at its pick is not checked: it may run until one comes")
{
	const RunCheck rc = check(wake("1.000000", "a", 10, 120, 0) + sw("1.000000", "swapper/0", 0, 120, "R", "a", 10, 120) +
				  wake("1.050000", "b", 11, 120, 0, "a-10") + sw("1.050000", "a", 10, 120, "R+", "b", 11, 120));
	CHECK(rc.runs == 1);
	CHECK(rc.checked_equal == 0);
	CHECK(rc.violations.empty());
	CHECK(rc.skipped.size() == 1);
}

TEST_CASE("a run whose only waiting task was pulled to another CPU is not checked")
{
	const RunCheck rc = check(wake("1.000000", "a", 10, 120, 0) + wake("1.000000", "b", 11, 120, 0) +
				  sw("1.000000", "swapper/0", 0, 120, "R", "a", 10, 120) +
				  "x-1 [001] 1.001000: sched_migrate_task: comm=b pid=11 prio=120 orig_cpu=0 dest_cpu=1\n" +
				  sw("1.001000", "swapper/1", 0, 120, "R", "b", 11, 120, 1) +
				  sw("1.090000", "a", 10, 120, "S", "swapper/0", 0, 120));
	CHECK(rc.checked_equal == 0);
	CHECK(rc.violations.empty());
	CHECK(rc.skipped.begin()->first.find("left during it") != std::string::npos);
}

TEST_CASE("a nice -10 run beside a nice-0 task is held to the weighted bound, not the equal one")
{
	const RunCheck rc = check(wake("1.000000", "h", 10, 110, 0) + wake("1.000000", "b", 11, 120, 0) +
				  sw("1.000000", "swapper/0", 0, 120, "R", "h", 10, 110) +
				  sw("1.012000", "h", 10, 110, "R+", "b", 11, 120));
	CHECK(rc.checked_weighted == 1);
	CHECK(rc.violations.empty());  // 12 ms is past the equal bound but within the weighted one
	CHECK(rc.closest_bound == weighted_run_bound(-10, {0}, P, 1000));
}

TEST_CASE("a run cut by a missing sched_switch is not checked")
{
	// a runs from 1 ms; at 1.002 ms a line shows b running on CPU 0 with
	// no switch to it, then b switches out at 1.010 ms
	const RunCheck rc = check(wake("1.000000", "a", 10, 120, 0) + wake("1.000000", "b", 11, 120, 0) +
				  sw("1.000000", "swapper/0", 0, 120, "R", "a", 10, 120) +
				  wake("1.002000", "c", 12, 120, 1, "b-11") + sw("1.010000", "b", 11, 120, "R+", "a", 10, 120));
	CHECK(rc.missed_switches == 1);
	CHECK(rc.runs == 0);
	CHECK(rc.violations.empty());
}

TEST_CASE("the weighted bound reads run_weighted's L_c in real time")
{
	// nice 0 among one nice-0 task: U = r + T - 1 = 5 399 999, W = 2048,
	// W_o = w_c = 1024: L_c = U + 2048 * 1024 U / (1024 * 1024) = 3U =
	// 16 199 997 ns; + 2^-15 of it (494) + one ns per tick (4) + 2 for the
	// truncation of calc_delta_fair, + 999 for the microsecond timestamps.
	CHECK(weighted_run_bound(0, {0}, P, 1000) == 16199997 + 494 + 4 + 2 + 999);
}

TEST_CASE("nice levels outside run_weighted's cases get no weighted bound")
{
	CHECK(weighted_run_bound(5, {0}, P, 1) == 0);
	CHECK(weighted_run_bound(0, {0, 0, 0, 0}, P, 1) == 0);
	CHECK(weighted_run_bound(-10, {0, 0, 0}, P, 1) == 0);  // n = 4 was proved without -10
	CHECK(weighted_run_bound(-10, {0, 0}, P, 1) > 0);
}

TEST_CASE("with per-task slices the equal bound takes the CPU's common slice, and unequal slices are not checked")
{
	const std::string text = wake("1.000000", "a", 10, 120, 0) + wake("1.000000", "b", 11, 120, 0) +
				 sw("1.000000", "swapper/0", 0, 120, "R", "a", 10, 120) +
				 sw("1.008000", "a", 10, 120, "R+", "b", 11, 120);
	auto run = [&](u64 slice_a, u64 slice_b) {
		std::istringstream in(text);
		Reader r(in, "t.trace");
		RunChecker c(P);
		c.slices([&](const std::string& comm, int) { return comm == "a" ? slice_a : slice_b; });
		Event e;
		while (r.next(e))
			c.add(e, r.stats());
		return c.finish(r.stats());
	};
	// both 8 ms: 8 + 2 x 4 - 1 ms + 999 ns (run_whole_equal); the 8 ms run holds
	const RunCheck same = run(8000000, 8000000);
	CHECK(same.checked_equal == 1);
	CHECK(same.violations.empty());
	CHECK(same.closest_bound == 8000000 + 2 * 4000000 - 1 + 999);
	// a 8 ms, b the base slice: outside the theorem
	const RunCheck mixed = run(8000000, 0);
	CHECK(mixed.checked_equal == 0);
	CHECK(mixed.skipped.begin()->first.find("unequal slices") == 0);
}
