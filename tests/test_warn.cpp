// SPDX-License-Identifier: GPL-2.0-only
// The model's WARN_ON_ONCE() sites (model/warn.hpp): each fires when what
// fair.c states there does not hold, stays silent on the kernel's own paths,
// and the invariant checker fails the run that fired one.
#include <catch2/catch.hpp>

#include <string>

#include "model/cfs_rq_state.hpp"
#include "model/check.hpp"
#include "model/simulation.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;

namespace {
const Config& cfg618()
{
	static const Config c = test::config("6.18", 1000);
	return c;
}
}  // namespace

TEST_CASE("update_entity_lag() warns for an entity that is not queued")
{
	CfsRqState st(cfg618(), 0, 0, {{.vruntime = 100, .deadline = 200, .slice = 700000}});
	SchedEntity* off = st.make_entity({.vruntime = 50, .deadline = 90, .slice = 700000});
	CHECK_FALSE(st.rq().warnings.any());
	st.rq().update_entity_lag(off);
	CHECK(st.rq().warnings.fired(Warn::UPDATE_ENTITY_LAG_NOT_QUEUED));
	CHECK(st.rq().warnings.count() == 1);
}

TEST_CASE("update_entity_lag() of a queued entity does not warn")
{
	CfsRqState st(cfg618(), 0, 0, {{.vruntime = 100, .deadline = 200, .slice = 700000}});
	st.rq().update_entity_lag(st.tree_entity(0));
	CHECK_FALSE(st.rq().warnings.any());
}

TEST_CASE("put_prev_entity() warns when prev is not curr")
{
	CfsRqState st(cfg618(), 0, 0, {{.vruntime = 100, .deadline = 200, .slice = 700000}});
	SchedEntity* other = st.make_entity({.vruntime = 50, .deadline = 90, .slice = 700000});
	st.rq().put_prev_entity(other);
	CHECK(st.rq().warnings.fired(Warn::PUT_PREV_NOT_CURR));
}

TEST_CASE("set_next_entity() warns while another entity is curr")
{
	CfsRqState st(cfg618(), 0, 0, {{.vruntime = 100, .deadline = 200, .slice = 700000}});
	st.set_curr({.vruntime = 100, .deadline = 150, .slice = 700000}, true);
	SchedEntity* off = st.make_entity({.vruntime = 50, .deadline = 90, .slice = 700000});
	st.rq().set_next_entity(off, true);
	CHECK(st.rq().warnings.fired(Warn::SET_NEXT_WITH_CURR));
}

TEST_CASE("requeue_delayed_entity() warns for an entity that is not delayed")
{
	CfsRqState st(cfg618(), 0, 0, {{.vruntime = 100, .deadline = 200, .slice = 700000}});
	st.rq().nr_delayed = 1;  // the count it will take one from
	st.rq().requeue_delayed_entity(st.tree_entity(0));
	CHECK(st.rq().warnings.fired(Warn::REQUEUE_NOT_DELAYED));
	CHECK_FALSE(st.rq().warnings.fired(Warn::REQUEUE_NOT_QUEUED));
}

TEST_CASE("a whole schedule of sleepers and hogs fires no warning on any preset")
{
	for (const KernelPreset& p : kernel_presets()) {
		Workload wl = test::mixed_pick_workload();  // sleepers, timers, nice changes, a yield, hogs
		wl.duration = 200 * test::MS;
		Simulation sim(make_config(p, 1000, 2), wl);
		sim.run();
		for (u32 cpu = 0; cpu < sim.nr_cpus(); cpu++) {
			INFO(p.name << " cpu " << cpu);
			CHECK_FALSE(sim.cfs_rq(cpu).warnings.any());
		}
	}
}

namespace {
// What a model bug that broke a site's condition would leave behind: the
// site recorded on CPU 0's cfs_rq at the first event with a task running.
struct FireWarning : Observer {
	bool done = false;
	void on_event(const Simulation& sim, u64) override
	{
		if (done || !sim.cfs_rq(0).curr)
			return;
		done = true;
		CfsRq& cfs = const_cast<CfsRq&>(sim.cfs_rq(0));
		cfs.warnings.on(Warn::PUT_PREV_NOT_CURR, true);
	}
};
}  // namespace

TEST_CASE("the checker fails a run in which a WARN_ON_ONCE site fired, naming the site")
{
	Workload wl = test::workload({test::hog("a"), test::hog("b")});
	wl.duration = 20 * test::MS;
	Simulation sim(cfg618(), wl);
	FireWarning bug;
	InvariantChecker checker;
	sim.add_observer(&bug);
	sim.add_observer(&checker);
	try {
		sim.run();
		FAIL("the checker did not fail");
	} catch (const InvariantViolation& v) {
		CHECK(v.failure.invariant == "warn");
		CHECK(v.failure.detail.find("put_prev_entity(): cfs_rq->curr != prev") != std::string::npos);
	}
}
