// SPDX-License-Identifier: GPL-2.0-only
// PREEMPT_LAZY (6.13+) and the fair class: resched_curr_lazy() sets only
// TIF_NEED_RESCHED_LAZY on a running task, and check_preempt_wakeup_fair()
// returns early only on the full TIF_NEED_RESCHED (test_tsk_need_resched(),
// 6.18.44 and 7.1.5), so a wake-up with a lazy request pending still runs
// update_curr(), the pick and the protection updates.
#include <catch2/catch.hpp>

#include "model/fair.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

// A cfs_rq driven by hand (as in test_fidelity.cpp) under a chosen
// preemption model.
struct LazyRq {
	Config cfg;
	CfsRq cfs;
	std::vector<SchedEntity> se;

	LazyRq(std::string_view preset, Preempt preempt, std::vector<u64> slices)
		: cfg(with_preempt(config(preset, 1000, 3 * MS), preempt)), cfs(cfg), se(slices.size())
	{
		for (size_t i = 0; i < se.size(); i++) {
			se[i].id = static_cast<int>(i);
			se[i].load = task_load_weight(0);
			se[i].custom_slice = slices[i] != cfg.base_slice_ns;
			se[i].slice = slices[i];
		}
	}
	static Config with_preempt(Config c, Preempt p)
	{
		c.preempt = p;
		return c;
	}
	void at(u64 t) { cfs.clock_task = t; }
	void wake(size_t i) { cfs.enqueue_entity(&se[i], ENQUEUE_WAKEUP); }
	SchedEntity* pick()
	{
		SchedEntity* next = cfs.pick_next_task_fair();
		cfs.need_resched = false;
		cfs.resched_lazy = false;
		return next;
	}

	// test_fidelity.cpp 4b: d blocks delayed at 2 and c runs, protected to
	// 3; at 4.5 d is eligible again and w wakes with a 1 ms slice (placed
	// at 2.25, deadline 3.25). 6.18.33's wakeup pick chooses d, dequeues it
	// for good, picks again and preempts c for w.
	void to_wakeup_of_w()
	{
		at(0);
		wake(0);
		wake(1);
		REQUIRE(pick() == &se[0]);
		at(2 * MS);
		REQUIRE_FALSE(cfs.dequeue_entity(cfs.curr, DEQUEUE_SLEEP));  // delayed
		REQUIRE(pick() == &se[1]);
		at(4500 * US);
		wake(2);
	}
};

}  // namespace

TEST_CASE("resched_curr_lazy sets only the lazy flag of a running task under PREEMPT_LAZY", "[preempt_lazy]")
{
	LazyRq lazy("6.18.33", Preempt::Lazy, {3 * MS, 3 * MS});
	lazy.at(0);
	lazy.wake(0);
	lazy.wake(1);
	REQUIRE(lazy.pick() == &lazy.se[0]);
	lazy.cfs.resched_curr_lazy();
	CHECK(lazy.cfs.need_resched);
	CHECK(lazy.cfs.resched_lazy);
	CHECK_FALSE(lazy.cfs.test_tsk_need_resched());
	lazy.cfs.resched_curr();  // a full request on top of the lazy one
	CHECK(lazy.cfs.test_tsk_need_resched());

	LazyRq full("6.18.33", Preempt::Full, {3 * MS, 3 * MS});
	full.at(0);
	full.wake(0);
	full.wake(1);
	REQUIRE(full.pick() == &full.se[0]);
	full.cfs.resched_curr_lazy();
	CHECK(full.cfs.test_tsk_need_resched());
}

TEST_CASE("resched_curr_lazy always sets the full flag of an idle CPU", "[preempt_lazy]")
{
	LazyRq rq("6.18.33", Preempt::Lazy, {3 * MS});
	REQUIRE(rq.cfs.curr == nullptr);
	rq.cfs.resched_curr_lazy();
	CHECK(rq.cfs.test_tsk_need_resched());
}

TEST_CASE("a pending lazy resched does not end the wake-up preemption check", "[preempt_lazy]")
{
	LazyRq rq("6.18.33", Preempt::Lazy, {3 * MS, 3 * MS, 1 * MS});  // d, c, w
	rq.to_wakeup_of_w();
	rq.cfs.resched_curr_lazy();  // e.g. an earlier remote wake-up's, no IPI sent
	REQUIRE(rq.cfs.resched_lazy);
	rq.cfs.check_preempt_wakeup_fair(&rq.se[2], WF_TTWU);
	CHECK_FALSE(rq.se[0].on_rq);  // the pick dequeued d for good
	CHECK_FALSE(rq.cfs.protect_slice(&rq.se[1]));  // and preempted c for w
	CHECK(rq.cfs.need_resched);
}

TEST_CASE("a pending full resched ends the wake-up preemption check", "[preempt_lazy]")
{
	LazyRq rq("6.18.33", Preempt::Lazy, {3 * MS, 3 * MS, 1 * MS});  // d, c, w
	rq.to_wakeup_of_w();
	rq.cfs.resched_curr();
	rq.cfs.check_preempt_wakeup_fair(&rq.se[2], WF_TTWU);
	CHECK(rq.se[0].on_rq);
	CHECK(rq.se[0].sched_delayed);
	CHECK(rq.cfs.protect_slice(&rq.se[1]));
}
