// SPDX-License-Identifier: GPL-2.0-only
// util_est (model/pelt.hpp; fair.c's util_est_update() and friends): when a
// task's estimate samples util_avg, how it moves up and down, and the
// cfs_rq's sum of its tasks' estimates (tests/pelt_helpers.hpp gives the
// notation).
#include <catch2/catch.hpp>

#include "pelt_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test::pelt_cases;

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
