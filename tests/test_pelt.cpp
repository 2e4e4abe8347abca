// SPDX-License-Identifier: GPL-2.0-only
// PELT's sums (model/pelt.hpp, kernel/sched/pelt.c): the decay table and
// LOAD_AVG_MAX, decay_load(), and one entity's ___update_load_sum() and
// ___update_load_avg() over periods, running, waiting and blocked
// (tests/pelt_helpers.hpp gives the notation).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "pelt_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test::pelt_cases;

// ---- the constants ----

TEST_CASE("pelt: the decay table is floor((2^32 - 1) y^n) with y^32 = 1/2", "[pelt]")
{
	// Documentation/scheduler/sched-pelt.c scales by 2^32 - 1 (so that y^0
	// fits) and truncates. Entry 7 is the closest call, 0.004 below the next
	// integer, far above long double error.
	const long double y = std::pow(0.5L, 1.0L / 32);
	for (u32 n = 0; n < LOAD_AVG_PERIOD; ++n) {
		const long double exact = 4294967295.0L * std::pow(y, static_cast<long double>(n));
		CHECK(runnable_avg_yN_inv[n] == static_cast<u32>(std::floor(exact)));
	}
	// Scaling by 2^32 instead would give another table: 0xfa83b2db at n = 1.
	CHECK(static_cast<u64>(std::floor(4294967296.0L * y)) == 0xfa83b2dbULL);
	CHECK(runnable_avg_yN_inv[1] == 0xfa83b2daU);
}

TEST_CASE("pelt: LOAD_AVG_MAX is the first fixed point of max = max*q + 1024 from 1024", "[pelt]")
{
	// The generator iterates from one full period until the value repeats.
	u64 max = 1024, last = 0;
	while (max != last) {
		last = max;
		max = times_q(max) + 1024;
	}
	CHECK(max == LOAD_AVG_MAX);
	CHECK(times_q(LOAD_AVG_MAX) + 1024 == LOAD_AVG_MAX);
	CHECK(times_q(LOAD_AVG_MAX - 1) + 1024 != LOAD_AVG_MAX - 1);
	// Hence LOAD_AVG_MAX * y = LOAD_AVG_MAX - 1024, the minimum divider.
	CHECK(pelt::decay_load(LOAD_AVG_MAX, 1) == PELT_MIN_DIVIDER);
	CHECK(PELT_MIN_DIVIDER == 46718);
}

// ---- decay_load ----

TEST_CASE("pelt: decay_load halves every 32 periods, less one from the 2^32 - 1 scale", "[pelt]")
{
	// (v >> k) * (2^32 - 1) >> 32 = (v >> k) - 1 for 0 < v >> k <= 2^32.
	CHECK(pelt::decay_load(1024, 32) == 511);
	CHECK(pelt::decay_load(1024, 64) == 255);
	CHECK(pelt::decay_load(1ULL << 40, 32) == (1ULL << 39) - (1ULL << 7));
	// Within a half-life the table applies: 1024 * 0xfa83b2da >> 32 = 1002.
	CHECK(pelt::decay_load(1024, 1) == 1002);
	CHECK(pelt::decay_load(1024, 33) == pelt::decay_load(512, 1));
}

TEST_CASE("pelt: every value has decayed to 0 after LOAD_AVG_PERIOD * 63 periods", "[pelt]")
{
	const u64 top = ~0ULL;
	// 2015 periods: top >> 62 = 3, times y^31 (0x82cd8698) >> 32 = 1.
	CHECK(pelt::decay_load(top, LOAD_AVG_PERIOD * 63 - 1) == 1);
	CHECK(pelt::decay_load(top, LOAD_AVG_PERIOD * 63) == 0);
	CHECK(pelt::decay_load(top, LOAD_AVG_PERIOD * 63 + 1) == 0);
	// The cut-off comes before the collapse to 32 bits, which would read
	// 2^32 + 5 periods as 5.
	CHECK(pelt::decay_load(top, (1ULL << 32) + 5) == 0);
}

TEST_CASE("pelt: the segments of a multi-period update sum d1 y^p, the full periods and d3", "[pelt]")
{
	// One boundary: no full period in between, c2 = 47742 - 46718 - 1024 = 0.
	CHECK(pelt::accumulate_pelt_segments(1, 512, 256) == 501 + 0 + 256);
	// Two: c1 = 768*q^2 = 735, c2 = 47742 - 47742*q^2 - 1024
	// = 47742 - 45717 - 1024 = 1001 (one full period, 1024 y = 1002.06).
	CHECK(pelt::accumulate_pelt_segments(2, 768, 100) == 735 + 1001 + 100);
}

// ---- one entity ----

TEST_CASE("pelt: division by the divider through its reciprocal equals the divide for every divider", "[pelt]")
{
	// For each of the 1024 dividers: both sides of every multiple near 0,
	// near 2^31 and up to 2^32 - 1, and the 2^32 boundary where the divide
	// takes over.
	u64 checked = 0;
	for (u32 c = 0; c < 1024; c++) {
		const u64 d = PELT_MIN_DIVIDER + c;
		auto check = [&](u64 n) {
			if (div_pelt_divider(n, c) != n / d)
				FAIL("n=" << n << " d=" << d << ": " << div_pelt_divider(n, c) << " != " << n / d);
			checked++;
		};
		for (u64 q : {0ULL, 1ULL, 2ULL, (1ULL << 31) / d, 0xffffffffULL / d - 1, 0xffffffffULL / d})
			for (u64 n : {q * d, q * d + d - 1, q ? q * d - 1 : 0})
				check(n);
		check(0xffffffffULL);
		check(0x100000000ULL);
		check(~0ULL);
	}
	CHECK(checked == 1024 * 21);
}

TEST_CASE("pelt: averages move only when an update crosses a period boundary", "[pelt]")
{
	SchedAvg se;
	CHECK(pelt::update_load_avg_se(512 * UNIT_NS, se, NICE0, RUNNING) == 0);
	CHECK(se.load_sum == 512);
	CHECK(se.util_sum == 512u << 10);
	CHECK(se.period_contrib == 512);
	CHECK(se.load_avg == 0);
	CHECK(se.util_avg == 0);
}

TEST_CASE("pelt: time under 1024 ns is carried to the next update, not lost", "[pelt]")
{
	SchedAvg se;
	CHECK(pelt::update_load_avg_se(1023, se, NICE0, RUNNING) == 0);
	CHECK(se.last_update_time == 0);
	CHECK(se.load_sum == 0);
	pelt::update_load_avg_se(2047, se, NICE0, RUNNING);
	CHECK(se.last_update_time == 1024);
	CHECK(se.load_sum == 1);
}

TEST_CASE("pelt: a clock that goes backwards restarts the window without accruing", "[pelt]")
{
	SchedAvg se;
	se.last_update_time = 10 * PERIOD_NS;
	CHECK(pelt::update_load_avg_se(5 * PERIOD_NS, se, NICE0, RUNNING) == 0);
	CHECK(se.last_update_time == 5 * PERIOD_NS);
	CHECK(se.load_sum == 0);
}

TEST_CASE("pelt: a running nice-0 entity over a partial first period then 1 and 2 boundaries", "[pelt]")
{
	SchedAvg se;  // last_update_time 0, nothing accrued
	// t = 512 units: no boundary. load_sum = 512, util_sum = 512 << 10.
	pelt::update_load_avg_se(512 * UNIT_NS, se, NICE0, RUNNING);

	// t = 1280 units: delta 768 + period_contrib 512 = 1280, one boundary,
	// d1 = 1024 - 512 = 512, d3 = 256.
	//   load_sum = 512*q + (512*q + 0 + 256) = 501 + 757 = 1258
	//   util_sum = 524288*q + (757 << 10) = 513053 + 775168 = 1288221
	//   divider = 46718 + 256 = 46974
	//   load_avg = 1024 * 1258 / 46974 = 27 (27.42), util_avg = 1288221 / 46974 = 27
	REQUIRE(pelt::update_load_avg_se(1280 * UNIT_NS, se, NICE0, RUNNING) == 1);
	CHECK(times_q(512) == 501);
	CHECK(times_q(524288) == 513053);
	CHECK(se.load_sum == 1258);
	CHECK(se.util_sum == 1288221);
	CHECK(se.runnable_sum == 1288221);
	CHECK(se.period_contrib == 256);
	CHECK(se.load_avg == 27);
	CHECK(se.util_avg == 27);
	CHECK(se.runnable_avg == 27);

	// t = 3172 units: delta 1892 + 256 = 2148, two boundaries, d1 = 768,
	// d3 = 100; contrib = 735 + 1001 + 100 = 1836 (segments test above).
	//   load_sum = 1258*q^2 + 1836 = 1204 + 1836 = 3040
	//   util_sum = 1288221*q^2 + (1836 << 10) = 1233604 + 1880064 = 3113668
	//   divider = 46818: load_avg = 1024 * 3040 / 46818 = 66 (66.49),
	//   util_avg = 3113668 / 46818 = 66 (66.51)
	REQUIRE(pelt::update_load_avg_se(3172 * UNIT_NS, se, NICE0, RUNNING) == 1);
	CHECK(pelt::decay_load(1258, 2) == 1204);
	CHECK(se.load_sum == 3040);
	CHECK(se.util_sum == 3113668);
	CHECK(se.load_avg == 66);
	CHECK(se.util_avg == 66);
}

TEST_CASE("pelt: a delayed entity accrues load but not runnable or util", "[pelt]")
{
	// on_rq and sched_delayed: se_runnable() = 0. One full period from 0:
	// contrib = 1024*q = 1002, load_avg = 1024 * 1002 / 46718 = 21 (21.96).
	SchedAvg se;
	const EntityState delayed = task_entity_state(true, true, false);
	CHECK_FALSE(delayed.runnable);
	pelt::update_load_avg_se(PERIOD_NS, se, NICE0, delayed);
	CHECK(se.load_sum == 1002);
	CHECK(se.load_avg == 21);
	CHECK(se.runnable_sum == 0);
	CHECK(se.util_sum == 0);
}

TEST_CASE("pelt: a 100% busy entity from no history settles at load_avg 1023 and util_avg 1024", "[pelt]")
{
	// Updated on period boundaries: d1 = 1024, d3 = 0, so each step is
	// L' = L*q + 1002 and U' = U*q + (1002 << 10). L = floor(L q) + 1002 holds
	// for every L with L (1 - q) in (1001, 1002], i.e. 46715 .. 46761; rising
	// from 0 the sum stops at the first, 46715 (46715*q = 45713, 45713.99).
	// load_avg = 1024 * 46715 / 46718 = 1023 (1023.93): the kernel's converged
	// integer for a hog is 1023, one below its weight. util_sum carries 10
	// more bits and settles at 47883609 = 46718 * 1024 + 44377: util_avg 1024.
	SchedAvg se;
	for (u64 k = 1; k <= 2000; ++k)
		pelt::update_load_avg_se(k * PERIOD_NS, se, NICE0, RUNNING);
	CHECK(times_q(46715) + 1002 == 46715);
	CHECK(times_q(46714) + 1002 != 46714);
	CHECK(se.load_sum == 46715);
	CHECK(se.load_avg == 1023);
	CHECK(se.util_sum == 47883609);
	CHECK(se.util_avg == 1024);
	CHECK(se.runnable_avg == 1024);
}

TEST_CASE("pelt: a new task that runs 100% keeps its initial load_avg of 1024", "[pelt]")
{
	// init_entity_runnable_average() sets load_avg = 1024; attaching at
	// period_contrib 0 makes load_sum = 1024 * 46718 / 1024 = 46718, which is
	// itself in the fixed band (46718*q = 45716): the hog stays at 1024.
	CfsRqAvg cfs;
	cfs.avg.last_update_time = 7 * PERIOD_NS;
	SchedAvg se;
	init_entity_runnable_average(se, NICE0);
	attach_entity_load_avg(cfs, se, NICE0);
	REQUIRE(se.load_sum == 46718);
	CHECK(times_q(46718) + 1002 == 46718);
	for (u64 k = 8; k <= 2000; ++k)
		pelt::update_load_avg_se(k * PERIOD_NS, se, NICE0, RUNNING);
	CHECK(se.load_sum == 46718);
	CHECK(se.load_avg == 1024);
}

TEST_CASE("pelt: one period on, one period off settles on the 2-cycle of the recurrence", "[pelt]")
{
	// On: U' = U*q + (1002 << 10); off: U' = U*q. Iterated in the test:
	// util_sum alternates 24201074 / 23682494, util_avg 518 / 506; load_sum
	// 23607 / 23101, load_avg 517 / 506. (Real-valued: 1026048 / ((1 - q^2)
	// 46718) = 518.03 and q times that = 506.93.)
	u64 u_on = 0, u_off = 0, l_on = 0, l_off = 0;
	for (int i = 0; i < 3000; ++i) {
		u_on = times_q(u_off) + (1002 << 10);
		u_off = times_q(u_on);
		l_on = times_q(l_off) + 1002;
		l_off = times_q(l_on);
	}
	REQUIRE(u_on / PELT_MIN_DIVIDER == 518);
	REQUIRE(u_off / PELT_MIN_DIVIDER == 506);

	SchedAvg se;
	u64 now = 0;
	for (int i = 0; i < 3000; ++i) {
		now += PERIOD_NS;
		pelt::update_load_avg_se(now, se, NICE0, RUNNING);
		now += PERIOD_NS;
		pelt::update_load_avg_se(now, se, NICE0, SLEEPING);
	}
	pelt::update_load_avg_se(now + PERIOD_NS, se, NICE0, RUNNING);
	CHECK(se.util_sum == u_on);
	CHECK(se.load_sum == l_on);
	CHECK(se.util_avg == 518);
	CHECK(se.load_avg == l_on * 1024 / PELT_MIN_DIVIDER);
	pelt::update_load_avg_se(now + 2 * PERIOD_NS, se, NICE0, SLEEPING);
	CHECK(se.util_sum == u_off);
	CHECK(se.util_avg == 506);
	CHECK(se.load_avg == l_off * 1024 / PELT_MIN_DIVIDER);
}

TEST_CASE("pelt: 1 ms on, 1 ms off stays within the band of a 50% square wave", "[pelt]")
{
	// A continuous EWMA with half-life 32 periods of a square wave with
	// phases of a = 1e6 / 2^20 periods swings between A_min = y^a / (1 + y^a)
	// and A_max = 1 / (1 + y^a) (506.71 .. 517.29 of 1024). PELT weighs the
	// current period by 1 and period k back by y^k, which differs from the
	// continuous weight by a factor in [m, m / y] for some m, so its average
	// of a 0/1 signal lies in [A y / (A y + 1 - A), A / (A + (1 - A) y)]
	// evaluated at A_min and A_max: 501.17 .. 522.83. The integer arithmetic
	// adds at most: a divider 0.1% below 1024 y / (1 - y) (46718 vs 46764:
	// x1.001 on top), and below, the truncated contrib (< 1 unit per update,
	// < 1.1 util over the series) plus the final floor (< 1).
	const double y = std::pow(0.5, 1.0 / 32);
	const double ya = std::pow(y, 1e6 / static_cast<double>(PERIOD_NS));
	const double a_min = ya / (1 + ya), a_max = 1 / (1 + ya);
	const double lo = 1024 * a_min * y / (a_min * y + 1 - a_min) - 1.1 - 1;
	const double hi = 1024 * a_max / (a_max + (1 - a_max) * y) * (46764.3 / 46718);
	REQUIRE(lo > 499);
	REQUIRE(hi < 524);

	SchedAvg se;
	u64 now = 0, lowest = ~0ULL, highest = 0;
	for (int i = 0; i < 4000; ++i) {
		now += 1'000'000;
		pelt::update_load_avg_se(now, se, NICE0, RUNNING);
		if (i > 1000)
			highest = std::max(highest, se.util_avg);
		now += 1'000'000;
		pelt::update_load_avg_se(now, se, NICE0, SLEEPING);
		if (i > 1000)
			lowest = std::min(lowest, se.util_avg);
	}
	CHECK(static_cast<double>(lowest) >= lo);
	CHECK(static_cast<double>(highest) <= hi);
	CHECK(lowest < highest);
}

TEST_CASE("pelt: a blocked entity halves in 32 periods", "[pelt]")
{
	// The settled hog: load_sum 46715, util_sum 47883609, at a boundary.
	// 32 periods blocked: sums become (s >> 1) - 1 (decay_load test):
	//   load_sum 23357 - 1 = 23356, load_avg = 1024 * 23356 / 46718 = 511
	//   util_sum 23941804 - 1 = 23941803, util_avg = 23941803 / 46718 = 512
	SchedAvg se;
	se.last_update_time = 100 * PERIOD_NS;
	se.load_sum = 46715;
	se.util_sum = 47883609;
	se.runnable_sum = 47883609;
	REQUIRE(pelt::update_load_avg_blocked_se(132 * PERIOD_NS, se, NICE0) == 1);
	CHECK(se.load_sum == 23356);
	CHECK(se.load_avg == 511);
	CHECK(se.util_sum == 23941803);
	CHECK(se.util_avg == 512);
	CHECK(se.runnable_avg == 512);
}

TEST_CASE("pelt: a blocked entity has fully decayed after LOAD_AVG_PERIOD * 63 periods", "[pelt]")
{
	SchedAvg se;
	se.load_sum = 46715;
	se.util_sum = 47883609;
	se.runnable_sum = 1ULL << 40;
	se.load_avg = se.util_avg = se.runnable_avg = 1023;
	pelt::update_load_avg_blocked_se(LOAD_AVG_PERIOD * 63 * PERIOD_NS, se, NICE0);
	CHECK(load_avg_is_decayed(se));
	CHECK(se.load_avg == 0);
	CHECK(se.util_avg == 0);
	CHECK(se.runnable_avg == 0);
}
