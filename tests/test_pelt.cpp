// SPDX-License-Identifier: GPL-2.0-only
// PELT (model/pelt.hpp) against values derived by hand, or in the test from
// the kernel's recurrence, for Linux v6.18.44.
//
// Notation: a unit is 1024 ns, a period 1024 units (PERIOD_NS); q is the
// decay factor decay_load() really applies for one period,
// runnable_avg_yN_inv[1] / 2^32 = 4202935002 / 2^32 = 0.97857206..., and
// floor(x * q) is written x*q below.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "model/pelt.hpp"

using namespace eevdf;

namespace {

constexpr u64 UNIT_NS = 1024;
constexpr u64 PERIOD_NS = 1024 * UNIT_NS;  // 1048576 ns, "~1 ms"
constexpr u64 NICE0 = 1024;                // se_weight() of a nice-0 task
constexpr u64 Y_INV = runnable_avg_yN_inv[1];

u64 times_q(u64 v) { return static_cast<u64>((static_cast<u128>(v) * Y_INV) >> 32); }

constexpr EntityState RUNNING{true, true, true};
constexpr EntityState WAITING{true, true, false};
constexpr EntityState SLEEPING{false, false, false};

// A task's averages with a given util_avg/runnable_avg/util_est only.
SchedAvg task_avg(u64 util, u64 runnable, u32 util_est)
{
	SchedAvg p;
	p.last_update_time = 1;
	p.util_avg = util;
	p.runnable_avg = runnable;
	p.util_est = util_est;
	return p;
}

}  // namespace

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

// ---- the cfs_rq ----

TEST_CASE("pelt: the cfs_rq's load counts weight times time and its util time with curr", "[pelt]")
{
	// Two nice-0 tasks, one running, one full period from 0:
	// load_sum = 2048 * 1002, runnable_sum = 2 * (1002 << 10),
	// util_sum = 1002 << 10; averages at divider 46718 with load 1:
	// load_avg = 2052096 / 46718 = 43, runnable 43, util 21.
	SchedAvg cfs;
	pelt::update_load_avg_cfs_rq(PERIOD_NS, cfs, CfsRqLoad{2 * NICE_0_LOAD, 2, true});
	CHECK(cfs.load_sum == 2048 * 1002);
	CHECK(cfs.runnable_sum == 2 * (1002 << 10));
	CHECK(cfs.util_sum == 1002u << 10);
	CHECK(cfs.load_avg == 43);
	CHECK(cfs.runnable_avg == 43);
	CHECK(cfs.util_avg == 21);
}

TEST_CASE("pelt: attach adds the entity's averages exactly and aligns it to the cfs_rq's window", "[pelt]")
{
	CfsRqAvg cfs;
	cfs.avg.last_update_time = 9 * PERIOD_NS + 300 * UNIT_NS;
	cfs.avg.period_contrib = 300;
	SchedAvg a, b;
	init_entity_runnable_average(a, NICE0);
	a.util_avg = a.runnable_avg = 512;
	init_entity_runnable_average(b, 335);  // nice 5
	b.util_avg = b.runnable_avg = 100;
	attach_entity_load_avg(cfs, a, NICE0);
	attach_entity_load_avg(cfs, b, 335);

	// divider = 46718 + 300 = 47018; a.load_sum = 1024 * 47018 / 1024.
	CHECK(a.last_update_time == cfs.avg.last_update_time);
	CHECK(a.period_contrib == 300);
	CHECK(a.load_sum == 47018);
	CHECK(a.util_sum == 512u * 47018);
	CHECK(b.load_sum == 47018);
	CHECK(cfs.avg.load_avg == 1024 + 335);
	CHECK(cfs.avg.util_avg == 512 + 100);
	CHECK(cfs.avg.runnable_avg == 512 + 100);
	CHECK(cfs.avg.load_sum == 1024 * a.load_sum + 335 * b.load_sum);
	CHECK(cfs.avg.util_sum == a.util_sum + b.util_sum);
}

TEST_CASE("pelt: attach keeps a zero-load entity's load_sum at 1", "[pelt]")
{
	CfsRqAvg cfs;
	SchedAvg se;  // load_avg 0: 0 * divider <= weight
	attach_entity_load_avg(cfs, se, NICE0);
	CHECK(se.load_sum == 1);
	CHECK(cfs.avg.load_sum == NICE0);
}

TEST_CASE("pelt: detach right after attach restores the cfs_rq", "[pelt]")
{
	CfsRqAvg cfs;
	cfs.avg.last_update_time = 3 * PERIOD_NS;
	SchedAvg se;
	init_entity_runnable_average(se, NICE0);
	post_init_entity_util_avg(se, NICE0, cfs);
	attach_entity_load_avg(cfs, se, NICE0);
	REQUIRE(cfs.avg.util_avg == 512);
	detach_entity_load_avg(cfs, se, NICE0);
	CHECK(cfs.avg.load_avg == 0);
	CHECK(cfs.avg.load_sum == 0);
	CHECK(cfs.avg.util_avg == 0);
	CHECK(cfs.avg.util_sum == 0);
	CHECK(cfs.avg.runnable_avg == 0);
	CHECK(cfs.avg.runnable_sum == 0);
}

TEST_CASE("pelt: entities aged with their cfs_rq never exceed it, and trail it by a bounded rounding", "[pelt]")
{
	// Entities updated at the same instants share the window and the
	// contributions, so the cfs_rq's sums differ from the entities' total only
	// by floors: decay(a + b) >= decay(a) + decay(b) and decay(w x) >= w
	// decay(x). The excess E obeys E' < q E + n w (load) or q E + n (util), so
	// E < n w / (1 - q) in load_sum, i.e. < n w / ((1 - q) 46718) = 4.09 in
	// load_avg for n = 4, w = 1024; summing n floored averages loses < n more.
	// The kernel's "+1" remark (update_cfs_rq_load_avg) is about entities
	// synced on their own, which this excludes.
	constexpr int n = 4;
	CfsRqAvg cfs;
	SchedAvg se[n];
	u64 now = 5 * PERIOD_NS + 123 * UNIT_NS;
	CfsRqLoad rq;
	for (auto& s : se) {
		init_entity_runnable_average(s, NICE0);
		post_init_entity_util_avg(s, NICE0, cfs);
		update_load_avg(cfs, s, now, NICE0, SLEEPING, rq, UPDATE_TG | DO_ATTACH);
		rq.load_weight += NICE_0_LOAD;
		rq.h_nr_runnable += 1;
	}
	rq.has_curr = true;
	const double slack = n * 1024.0 / ((1.0 - static_cast<double>(Y_INV) / 4294967296.0) * PELT_MIN_DIVIDER);
	REQUIRE(slack < 4.1);
	for (int step = 0; step < 3000; ++step) {
		now += 1'000'000 + static_cast<u64>(step % 7) * 37'000;
		for (int i = 0; i < n; ++i)
			update_load_avg(cfs, se[i], now, NICE0, task_entity_state(true, false, i == step % n), rq, UPDATE_TG);
		u64 load = 0, util = 0, runnable = 0;
		for (const auto& s : se) {
			load += s.load_avg;
			util += s.util_avg;
			runnable += s.runnable_avg;
		}
		INFO("step " << step);
		REQUIRE(cfs.avg.load_avg >= load);
		REQUIRE(static_cast<double>(cfs.avg.load_avg - load) < n + slack);
		REQUIRE(cfs.avg.util_avg >= util);
		REQUIRE(cfs.avg.util_avg - util <= n);
		REQUIRE(cfs.avg.runnable_avg >= runnable);
		REQUIRE(cfs.avg.runnable_avg - runnable <= n);
	}
}

TEST_CASE("pelt: update_load_avg attaches only an entity without last_update_time", "[pelt]")
{
	CfsRqAvg cfs;
	const u64 now = 4 * PERIOD_NS;
	SchedAvg fresh;
	init_entity_runnable_average(fresh, NICE0);
	update_load_avg(cfs, fresh, now, NICE0, SLEEPING, CfsRqLoad{}, UPDATE_TG | DO_ATTACH);
	CHECK(cfs.avg.load_avg == 1024);
	CHECK(fresh.last_update_time == cfs.avg.last_update_time);
	// Already attached: DO_ATTACH ages it and adds nothing.
	update_load_avg(cfs, fresh, now, NICE0, SLEEPING, CfsRqLoad{}, UPDATE_TG | DO_ATTACH);
	CHECK(cfs.avg.load_avg == 1024);
}

TEST_CASE("pelt: update_load_avg with DO_DETACH removes the entity after ageing both", "[pelt]")
{
	CfsRqAvg cfs;
	SchedAvg se;
	init_entity_runnable_average(se, NICE0);
	update_load_avg(cfs, se, 2 * PERIOD_NS, NICE0, SLEEPING, CfsRqLoad{}, DO_ATTACH);
	const CfsRqLoad one{NICE_0_LOAD, 1, true};
	update_load_avg(cfs, se, 40 * PERIOD_NS, NICE0, RUNNING, one, DO_DETACH);
	CHECK(se.last_update_time == 40 * PERIOD_NS);
	CHECK(se.load_avg > 0);
	CHECK(cfs.avg.load_avg == 0);
	CHECK(cfs.avg.util_avg == 0);
	CHECK(cfs.avg.runnable_avg == 0);
}

TEST_CASE("pelt: SKIP_AGE_LOAD leaves the entity's averages as they were", "[pelt]")
{
	CfsRqAvg cfs;
	SchedAvg se;
	init_entity_runnable_average(se, NICE0);
	update_load_avg(cfs, se, PERIOD_NS, NICE0, SLEEPING, CfsRqLoad{}, DO_ATTACH);
	const SchedAvg before = se;
	update_load_avg(cfs, se, 50 * PERIOD_NS, NICE0, SLEEPING, CfsRqLoad{}, SKIP_AGE_LOAD);
	CHECK(se.last_update_time == before.last_update_time);
	CHECK(se.load_sum == before.load_sum);
	CHECK(cfs.avg.last_update_time == 50 * PERIOD_NS);
}

TEST_CASE("pelt: removed load leaves the cfs_rq at its next update, sums kept above avg * 46718", "[pelt]")
{
	// The cfs_rq holds one blocked task at load 1024, util 512; 10 periods
	// later the task is removed (synced to the cfs_rq's last update, not now).
	CfsRqAvg cfs;
	cfs.avg.last_update_time = 10 * PERIOD_NS;
	SchedAvg se;
	init_entity_runnable_average(se, NICE0);
	se.util_avg = se.runnable_avg = 512;
	attach_entity_load_avg(cfs, se, NICE0);
	SchedAvg other;
	init_entity_runnable_average(other, NICE0);
	other.util_avg = other.runnable_avg = 300;
	attach_entity_load_avg(cfs, other, NICE0);
	update_cfs_rq_load_avg(20 * PERIOD_NS, cfs, CfsRqLoad{});
	remove_entity_load_avg(cfs, se, NICE0);
	CHECK(se.last_update_time == 20 * PERIOD_NS);
	CHECK(cfs.removed.nr == 1);
	CHECK(cfs.removed.util_avg == se.util_avg);

	const u64 util_before = cfs.avg.util_avg;
	CHECK(update_cfs_rq_load_avg(20 * PERIOD_NS, cfs, CfsRqLoad{}) == 1);
	CHECK(cfs.removed.nr == 0);
	CHECK(cfs.avg.util_avg == util_before - se.util_avg);
	CHECK(cfs.avg.util_sum >= cfs.avg.util_avg * PELT_MIN_DIVIDER);
	CHECK(cfs.avg.load_sum >= cfs.avg.load_avg * PELT_MIN_DIVIDER);
	CHECK(cfs.avg.runnable_sum >= cfs.avg.runnable_avg * PELT_MIN_DIVIDER);
}

TEST_CASE("pelt: removing more than the cfs_rq holds clamps at 0", "[pelt]")
{
	CfsRqAvg cfs;
	cfs.avg.load_avg = 100;
	cfs.avg.load_sum = 100 * 46718;
	cfs.removed = CfsRqAvg::Removed{500, 0, 0, 1};
	update_cfs_rq_load_avg(0, cfs, CfsRqLoad{});
	CHECK(cfs.avg.load_avg == 0);
	CHECK(cfs.avg.load_sum == 0);
}

TEST_CASE("pelt: 6.18 compares the clamped load_sum in 32 bits", "[pelt]")
{
	// dequeue_load_avg: max_t(u32, load_sum, load_avg * 46718). With ~90
	// nice-0 tasks the sum passes 2^32 and the comparison truncates it:
	//   4447836160 - 1024 * 46715 = 4400000000 -> u32 105032704
	//   (91024 - 1024) * 46718 = 4204620000 (fits)
	// so load_sum becomes 4204620000, not 4400000000: 4.4% of the CPU's
	// load is gone at the next update. (7.1 compares in the field's type.)
	CfsRqAvg cfs;
	cfs.avg.load_sum = 4'447'836'160ULL;
	cfs.avg.load_avg = 91'024;
	SchedAvg se;
	se.load_sum = 46715;
	se.load_avg = 1024;
	dequeue_load_avg(cfs, se, NICE0);
	CHECK(cfs.avg.load_avg == 90'000);
	CHECK(cfs.avg.load_sum == 4'204'620'000ULL);
}

TEST_CASE("pelt: reweight recomputes load_avg from load_sum at the new weight", "[pelt]")
{
	// load_sum 46715 at divider 46718: nice 0 -> nice 5 (335):
	// load_avg = 335 * 46715 / 46718 = 334 (334.98).
	CfsRqAvg cfs;
	SchedAvg se;
	se.load_sum = 46715;
	se.load_avg = 1023;
	enqueue_load_avg(cfs, se, NICE0);
	reweight_entity_load_avg(cfs, se, NICE0, 335);
	CHECK(se.load_avg == 334);
	CHECK(cfs.avg.load_avg == 334);
	CHECK(cfs.avg.load_sum == 335 * 46715);
}

// ---- new tasks ----

TEST_CASE("pelt: new tasks get half the spare capacity: 512, 256, 128, 64", "[pelt]")
{
	// util_avg = cfs util * 1024 / (cfs load + 1), capped at (1024 - cfs util) / 2:
	// 512 * 1024 / 1025 = 511 > 256; 768 * 1024 / 2049 = 383 > 128; ...
	CfsRqAvg cfs;
	cfs.avg.last_update_time = PERIOD_NS;
	const u64 expect[] = {512, 256, 128, 64};
	u64 util = 0;
	for (u64 e : expect) {
		SchedAvg se;
		init_entity_runnable_average(se, NICE0);
		post_init_entity_util_avg(se, NICE0, cfs);
		CHECK(se.util_avg == e);
		CHECK(se.runnable_avg == e);
		update_load_avg(cfs, se, PERIOD_NS, NICE0, SLEEPING, CfsRqLoad{}, UPDATE_TG | DO_ATTACH);
		util += e;
		CHECK(cfs.avg.util_avg == util);
	}
}

TEST_CASE("pelt: a new task's util follows the cfs_rq's util per load when under the cap", "[pelt]")
{
	CfsRqAvg cfs;
	cfs.avg.util_avg = 100;
	cfs.avg.load_avg = 2047;
	SchedAvg se;
	init_entity_runnable_average(se, NICE0);
	post_init_entity_util_avg(se, NICE0, cfs);
	CHECK(se.util_avg == 100 * 1024 / 2048);  // 50 < cap 462
}

TEST_CASE("pelt: a new task on a saturated cfs_rq gets no util", "[pelt]")
{
	CfsRqAvg cfs;
	cfs.avg.util_avg = 1100;  // over capacity: (1024 - 1100) / 2 < 0
	cfs.avg.load_avg = 3072;
	SchedAvg se;
	init_entity_runnable_average(se, NICE0);
	post_init_entity_util_avg(se, NICE0, cfs);
	CHECK(se.util_avg == 0);
	CHECK(se.load_avg == 1024);
}

// ---- util_est ----

TEST_CASE("pelt: util_est's first sample is util_avg, flagged unchanged", "[pelt]")
{
	SchedAvg p = task_avg(300, 300, 0);
	util_est_update(p, true);
	CHECK(p.util_est == (300 | UTIL_AVG_UNCHANGED));
	CHECK(task_util_est_raw(p) == 300);
}

TEST_CASE("pelt: util_est takes no sample while util_avg has not been updated", "[pelt]")
{
	SchedAvg p = task_avg(100, 100, 300 | UTIL_AVG_UNCHANGED);
	util_est_update(p, true);
	CHECK(p.util_est == (300 | UTIL_AVG_UNCHANGED));
}

TEST_CASE("pelt: an entity update that crosses a boundary clears UTIL_AVG_UNCHANGED", "[pelt]")
{
	SchedAvg se;
	se.util_est = 300 | UTIL_AVG_UNCHANGED;
	pelt::update_load_avg_se(500 * UNIT_NS, se, NICE0, RUNNING);
	CHECK(se.util_est == (300 | UTIL_AVG_UNCHANGED));  // no boundary
	pelt::update_load_avg_se(PERIOD_NS, se, NICE0, RUNNING);
	CHECK(se.util_est == 300);
	SchedAvg off;
	off.util_est = 300 | UTIL_AVG_UNCHANGED;
	pelt::update_load_avg_se(PERIOD_NS, off, NICE0, RUNNING, PeltFeatures{false, true});
	CHECK(off.util_est == (300 | UTIL_AVG_UNCHANGED));
}

TEST_CASE("pelt: util_est jumps up to a larger util_avg", "[pelt]")
{
	SchedAvg p = task_avg(700, 700, 300);
	util_est_update(p, true);
	CHECK(task_util_est_raw(p) == 700);
}

TEST_CASE("pelt: util_est keeps its value when util_avg is within the 1% margin below", "[pelt]")
{
	SchedAvg p = task_avg(291, 291, 300);  // 300 - 291 = 9 < 10
	util_est_update(p, true);
	CHECK(p.util_est == (300 | UTIL_AVG_UNCHANGED));
	SchedAvg q = task_avg(290, 290, 300);  // 10: (1200 - 10) >> 2 = 297
	util_est_update(q, true);
	CHECK(task_util_est_raw(q) == 297);
}

TEST_CASE("pelt: util_est moves a quarter of the way down", "[pelt]")
{
	SchedAvg p = task_avg(200, 200, 400);  // (4 * 400 - 200) >> 2 = 350
	util_est_update(p, true);
	CHECK(p.util_est == (350 | UTIL_AVG_UNCHANGED));
}

TEST_CASE("pelt: util_est keeps its value when the task waited more than the margin", "[pelt]")
{
	SchedAvg waited = task_avg(200, 211, 400);  // 200 + 10 < 211
	util_est_update(waited, true);
	CHECK(task_util_est_raw(waited) == 400);
	SchedAvg not_quite = task_avg(200, 210, 400);
	util_est_update(not_quite, true);
	CHECK(task_util_est_raw(not_quite) == 350);
}

TEST_CASE("pelt: util_est samples only at a sleep and only with UTIL_EST", "[pelt]")
{
	SchedAvg p = task_avg(200, 200, 400);
	util_est_update(p, false);
	CHECK(p.util_est == 400);
	util_est_update(p, true, PeltFeatures{false, true});
	CHECK(p.util_est == 400);
}

TEST_CASE("pelt: the cfs_rq's util_est is the sum of its enqueued tasks', clamped at 0", "[pelt]")
{
	CfsRqAvg cfs;
	const SchedAvg p = task_avg(0, 0, 350 | UTIL_AVG_UNCHANGED);
	const SchedAvg q = task_avg(0, 0, 100);
	util_est_enqueue(cfs, p);
	util_est_enqueue(cfs, q);
	CHECK(cfs.avg.util_est == 450);
	util_est_dequeue(cfs, p);
	CHECK(cfs.avg.util_est == 100);
	util_est_dequeue(cfs, p);
	CHECK(cfs.avg.util_est == 0);
	util_est_enqueue(cfs, q, PeltFeatures{false, true});
	CHECK(cfs.avg.util_est == 0);
}

TEST_CASE("pelt: task_util_est is the larger of util_avg and the estimate", "[pelt]")
{
	CHECK(task_util_est(task_avg(500, 0, 300 | UTIL_AVG_UNCHANGED)) == 500);
	CHECK(task_util_est(task_avg(200, 0, 300 | UTIL_AVG_UNCHANGED)) == 300);
}

// ---- CPU-level readers ----

TEST_CASE("pelt: the two cpu_util boost forms differ when a task leaves a CPU", "[pelt]")
{
	// CPU util 600, runnable 900; p (on it, moving away) util 300, runnable 500.
	// 6.6 .. 6.18.39: max(600, 900) - 300 = 600. 6.18.40+: max(300, 400) = 400.
	CfsRqAvg cfs;
	cfs.avg.util_avg = 600;
	cfs.avg.runnable_avg = 900;
	const SchedAvg p = task_avg(300, 500, 0);
	const UtilTask leaving{&p, true, false, false};
	CHECK(cpu_util(cfs, leaving, true, false) == 600);
	CHECK(cpu_util(cfs, leaving, true, true) == 400);
	CHECK(cpu_util(cfs, leaving, false, false) == 300);
	CHECK(cpu_util(cfs, leaving, false, true) == 300);
}

TEST_CASE("pelt: the two cpu_util boost forms differ when a task arrives on a CPU", "[pelt]")
{
	// CPU util 200, runnable 300; p util 100, runnable 400, moving here.
	// Old: max(200, 300) + 100 = 400. New: max(300, 700) = 700.
	CfsRqAvg cfs;
	cfs.avg.util_avg = 200;
	cfs.avg.runnable_avg = 300;
	const SchedAvg p = task_avg(100, 400, 0);
	const UtilTask arriving{&p, false, true, false};
	CHECK(cpu_util(cfs, arriving, true, false) == 400);
	CHECK(cpu_util(cfs, arriving, true, true) == 700);
}

TEST_CASE("pelt: the cpu_util boost forms agree without a task", "[pelt]")
{
	CfsRqAvg cfs;
	cfs.avg.util_avg = 200;
	cfs.avg.runnable_avg = 300;
	CHECK(cpu_util_cfs_boost(cfs, false) == 300);
	CHECK(cpu_util_cfs_boost(cfs, true) == 300);
	CHECK(cpu_util_cfs(cfs) == 200);
}

TEST_CASE("pelt: cpu_util takes the larger of util and util_est, capped at capacity", "[pelt]")
{
	CfsRqAvg cfs;
	cfs.avg.util_avg = 100;
	cfs.avg.util_est = 300;
	CHECK(cpu_util_cfs(cfs) == 300);
	CHECK(cpu_util_cfs(cfs, PeltFeatures{false, true}) == 100);
	// A task waking here adds its estimate; one queued here (dst -1) leaves it.
	const SchedAvg p = task_avg(50, 50, 200 | UTIL_AVG_UNCHANGED);
	CHECK(cpu_util(cfs, UtilTask{&p, false, true, false}, false) == 500);
	CHECK(cpu_util(cfs, UtilTask{&p, true, false, true}, false) == 100);
	cfs.avg.util_avg = 1500;
	CHECK(cpu_util_cfs(cfs) == SCHED_CAPACITY_SCALE);
}

TEST_CASE("pelt: cpu_util_without ignores a task that is elsewhere or not attached", "[pelt]")
{
	CfsRqAvg cfs;
	cfs.avg.util_avg = 600;
	cfs.avg.util_est = 400;
	SchedAvg p = task_avg(250, 250, 150);
	CHECK(cpu_util_without(cfs, p, true, true) == 350);  // max(600-250, 400-150)
	CHECK(cpu_util_without(cfs, p, false, true) == 600);
	p.last_update_time = 0;
	CHECK(cpu_util_without(cfs, p, true, true) == 600);
}

TEST_CASE("pelt: task_h_load at the root is load_avg * root load / (root load + 1)", "[pelt]")
{
	CfsRqAvg cfs;
	cfs.avg.load_avg = 2048;
	SchedAvg p;
	p.load_avg = 1024;
	CHECK(task_h_load(cfs, p, 100) == 1023);  // 2097152 / 2049 = 1023.5
	CfsRqAvg small;
	small.avg.load_avg = 700;  // the task's load above the root's
	CHECK(task_h_load(small, p, 100) == 1022);  // 716800 / 701 = 1022.5
}

TEST_CASE("pelt: the root's h_load is refreshed once per jiffy", "[pelt]")
{
	CfsRqAvg cfs;
	cfs.avg.load_avg = 2048;
	SchedAvg p;
	p.load_avg = 1024;
	CHECK(task_h_load(cfs, p, 7) == 1023);
	cfs.avg.load_avg = 4096;
	CHECK(task_h_load(cfs, p, 7) == 511);   // 1024 * 2048 / 4097 (stale h_load)
	CHECK(task_h_load(cfs, p, 8) == 1023);  // 1024 * 4096 / 4097
}

TEST_CASE("pelt: cpu_load_without subtracts task_h_load, not load_avg", "[pelt]")
{
	// 3072 - 1024 * 3072 / 3073 = 3072 - 1023 = 2049.
	CfsRqAvg cfs;
	cfs.avg.load_avg = 3072;
	SchedAvg p;
	p.last_update_time = PERIOD_NS;
	p.load_avg = 1024;
	CHECK(cpu_load_without(cfs, p, true, 1) == 2049);
	CHECK(cpu_load_without(cfs, p, false, 1) == 3072);
	p.last_update_time = 0;
	CHECK(cpu_load_without(cfs, p, true, 1) == 3072);
}

TEST_CASE("pelt: cpu_runnable_without subtracts the task's runnable_avg", "[pelt]")
{
	CfsRqAvg cfs;
	cfs.avg.runnable_avg = 1500;
	SchedAvg p = task_avg(0, 600, 0);
	CHECK(cpu_runnable_without(cfs, p, true) == 900);
	CHECK(cpu_runnable_without(cfs, p, false) == 1500);
	p.runnable_avg = 2000;
	CHECK(cpu_runnable_without(cfs, p, true) == 0);
}

// ---- the rq clocks ----

TEST_CASE("pelt: at full capacity clock_pelt is clock_task and no idle time is lost", "[pelt]")
{
	// The lost-idle test fires at util_sum >= (46718 << 10) - 47742 = 47791490;
	// a settled hog's util_sum (47883609) passes it, yet clock_task -
	// clock_pelt is 0, so nothing is lost.
	RqClock rq;
	update_rq_clock(rq, 1'000'000, false);
	update_rq_clock(rq, 2'500'000, false);
	CHECK(rq.clock_pelt == rq.clock_task);
	update_idle_rq_clock_pelt(rq, 47'883'609);
	CHECK(rq.lost_idle_time == 0);
	CHECK(rq.clock_pelt_idle == 2'500'000);
	update_rq_clock(rq, 9'000'000, true);
	update_rq_clock(rq, 9'700'000, false);
	CHECK(rq.clock == 9'700'000);
	CHECK(rq.clock_task == rq.clock);
	CHECK(rq_clock_pelt(rq) == rq.clock);
}

TEST_CASE("pelt: a backwards sched_clock leaves the rq clocks alone", "[pelt]")
{
	RqClock rq;
	update_rq_clock(rq, 5'000'000, false);
	update_rq_clock(rq, 4'000'000, false);
	CHECK(rq.clock == 5'000'000);
	CHECK(rq_clock_pelt(rq) == 5'000'000);
}

TEST_CASE("pelt: a busy clock step of 2^54 ns wraps in cap_scale until the next idle sync", "[pelt]")
{
	// (delta * 1024) >> 10 in 64 bits: 2^54 * 1024 = 2^64 = 0.
	RqClock rq;
	update_rq_clock(rq, 1ULL << 54, false);
	CHECK(rq.clock_task == 1ULL << 54);
	CHECK(rq.clock_pelt == 0);
	update_rq_clock(rq, (1ULL << 54) + 1, true);
	CHECK(rq.clock_pelt == rq.clock_task);
}

TEST_CASE("pelt: a task migrating off an idle CPU is decayed to the estimated now", "[pelt]")
{
	// The source went idle at 25 periods with its cfs_rq last updated at 20;
	// sched_clock reads 52 periods: now = clock_pelt_idle + (52 - 25) = 52,
	// 32 periods after the entity's last update, so the settled hog halves
	// (load_avg 511, see the blocked test).
	CfsRqAvg src;
	src.avg.last_update_time = 20 * PERIOD_NS;
	RqClock clk;
	clk.clock_idle = 25 * PERIOD_NS;
	clk.clock_pelt_idle = 25 * PERIOD_NS;
	SchedAvg se;
	se.last_update_time = 20 * PERIOD_NS;
	se.load_sum = 46715;
	se.util_sum = 47883609;
	se.runnable_sum = 47883609;

	SchedAvg idle_src = se;
	migrate_se_pelt_lag(idle_src, NICE0, src, clk, true, 52 * PERIOD_NS);
	CHECK(idle_src.last_update_time == 52 * PERIOD_NS);
	CHECK(idle_src.load_avg == 511);

	// A busy source's clock is trusted: nothing happens.
	SchedAvg busy_src = se;
	migrate_se_pelt_lag(busy_src, NICE0, src, clk, false, 52 * PERIOD_NS);
	CHECK(busy_src.last_update_time == 20 * PERIOD_NS);

	// The cfs_rq updated after the rq went idle: its time is used as is.
	src.avg.last_update_time = 30 * PERIOD_NS;
	SchedAvg later = se;
	migrate_se_pelt_lag(later, NICE0, src, clk, true, 52 * PERIOD_NS);
	CHECK(later.last_update_time == 30 * PERIOD_NS);
}
