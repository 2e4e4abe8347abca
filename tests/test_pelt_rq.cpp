// SPDX-License-Identifier: GPL-2.0-only
// PELT seen from a CPU (model/pelt.hpp): fair.c's readers of a CPU's
// averages (cpu_util and its boost forms, cpu_util_without, task_h_load,
// cpu_load_without, cpu_runnable_without) and the rq's clock_pelt
// (pelt.h's update_rq_clock_pelt, the lost idle time, a migrating task's
// decay to the estimated now) (tests/pelt_helpers.hpp gives the notation).
#include <catch2/catch.hpp>

#include "pelt_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test::pelt_cases;

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
	CHECK(task_h_load(cfs, p, 7) == 511);  // 1024 * 2048 / 4097 (stale h_load)
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
