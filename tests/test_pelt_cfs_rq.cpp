// SPDX-License-Identifier: GPL-2.0-only
// PELT on the cfs_rq (model/pelt.hpp; fair.c's update_load_avg() and its
// helpers): the cfs_rq's own sums, attach and detach of an entity, removed
// load, reweight, and a new task's initial util (post_init_entity_util_avg)
// (tests/pelt_helpers.hpp gives the notation).
#include <catch2/catch.hpp>

#include "pelt_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test::pelt_cases;

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
			update_load_avg(cfs, se[i], now, NICE0, task_entity_state(true, false, i == step % n), rq,
					UPDATE_TG);
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
