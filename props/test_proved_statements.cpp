// SPDX-License-Identifier: GPL-2.0-only
// The proved statements about single decisions (docs/proofs.md, O6 and O7)
// fed to the model itself: each property draws states that meet the
// statement's premises, including keys far outside what a schedule reaches
// and the overflow region beyond the precondition, builds them as a CfsRq
// (model/cfs_rq_state.hpp), and checks the statement's conclusion on the
// model's own decision. Where a premise does not hold the state is only
// tagged; the TEST_CASEs keep what happens there as regression cases.
// The properties themselves are in props/proved_statements.cpp, so that the
// bug zoo and the mutation tests run them with bugs switched in.
//
// The statements about requests and runs (O1-O4, O7's wait, O8) are fed
// to simulations here too; the lag and weighted bounds (O5) by
// test_props.cpp's properties 4 and 8 (docs/proofs.md has the table).
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include "model/balance.hpp"
#include "model/cfs_rq_state.hpp"
#include "model/topology.hpp"
#include "props/proved_statements.hpp"

using namespace eevdf;
using namespace eevdf::props::proved;

TEST_CASE("pick_spec holds on the model: without key*weight overflow the pick is the earliest eligible deadline", "[props]")
{
	rc::prop("pick_spec", pick_spec());
}

TEST_CASE("eligible_exists_int and lag_sum_rounding_int hold on the model's avg_vruntime and eligibility", "[props]")
{
	rc::prop("eligible exists, lag sum in (-W, 0]", eligible_exists_and_lag_sum());
}

TEST_CASE("wakeup_short_preempts holds on the model: a shorter-slice waker meeting Cond preempts and is picked, and only then", "[props]")
{
	rc::prop("wakeup_short_preempts", wakeup_short_preempts());
}

TEST_CASE("repick_equal_weights_int holds on the model: a renewed curr with another entity not ahead is not re-picked", "[props]")
{
	rc::prop("repick_equal_weights_int", repick_equal_weights());
}

// Outside the precondition the model's search does what the kernel's does:
// with key * W wrapping, a subtree's min_vruntime can test ineligible while
// an entity inside it is eligible, and __pick_eevdf returns NULL (the kernel
// then dereferences it; the model counts a pick failure, and the checker's
// sums rule stops such states at 2^62). Four nice-0 entities inserted in
// this order make the tree root = #2, left = #0 with #3 as its right child,
// right = #1; found by a random search over overflowing keys (issue 20).
TEST_CASE("outside the no-overflow precondition the pick can be NULL while an entity is eligible (regression)", "[props]")
{
	const Config cfg = make_config(*find_preset("6.18"), 250);
	const u64 v0 = 12939314443523497478ULL;
	const s64 keys[] = {-14447431604117753, 19418130000459996, -5900765667079729, -6462053846410624};
	const s64 dkeys[] = {-14447431301574298, 19418130191893063, -5900764793470621, -6462053673980398};
	std::vector<EntitySpec> tree;
	for (int i = 0; i < 4; i++) {
		EntitySpec e;
		e.vruntime = v0 + static_cast<u64>(keys[i]);
		e.deadline = v0 + static_cast<u64>(dkeys[i]);
		e.slice = cfg.base_slice_ns;
		tree.push_back(e);
	}
	CfsRqState st(cfg, v0, 0, tree);
	const CfsRq& rq = st.rq();
	REQUIRE(rq.timeline.root() == st.tree_entity(2));
	REQUIRE(st.tree_entity(3)->rb_parent == st.tree_entity(0));
	CHECK_FALSE(no_overflow(rq, queued(st)));
	CHECK(rq.entity_eligible(st.tree_entity(3)));
	CHECK_FALSE(rq.entity_eligible(st.tree_entity(0)));  // the left subtree's min_vruntime
	CHECK(rq.pick_eevdf_protect(false) == nullptr);
}

TEST_CASE("wakeup_waker_picked holds on the model: an eligible waker with the earliest deadline is the next pick", "[props]")
{
	rc::prop("wakeup_waker_picked", wakeup_waker_picked());
}

TEST_CASE("run_length and wakeup_wait_bound and nohz_enqueue_bound and no_extra_tick_2p8ms hold on simulated requests", "[props]")
{
	rc::prop("requests end within r + TICK + J - 1", request_bounds());
}

TEST_CASE("hog_runs_whole_ticks holds on the model: equal hogs on exact ticks run whole ticks", "[props]")
{
	rc::prop("runs are whole ticks", hog_runs_whole_ticks());
}

TEST_CASE("on several CPUs the IPIs a busy CPU takes do not lengthen its requests beyond run_length's bound", "[props][smp]")
{
	rc::prop("requests under remote wake-ups", smp_request_bounds());
}

// lb_hogs_pct_rule: the flat LLC of two busy CPUs running only nice-0 hogs
// with converged PELT (load and runnable 1024 per hog, util 1024), n_b >
// n_l >= 2 (n_b <= 1024): the less loaded CPU's periodic balance finds an
// imbalance iff 100 n_b > 117 n_l, and then migrate_load by at least 512.
// On the model's own decision (lb::find_src_group_decide()).
TEST_CASE("lb_hogs_pct_rule holds on the model's balance decision", "[props][smp]")
{
	rc::prop("lb_hogs_pct_rule", [] {
		const u32 nl = *rc::gen::inRange<u32>(2, 1024);
		const u32 nb = *rc::gen::inRange<u32>(nl + 1, 1025);
		lb::SdLbStats sds = lb::two_cpu_lb_stats(converged_hog_group(nl, 117), converged_hog_group(nb, 117));
		lb::ImbalanceEnv env{CPU_NOT_IDLE, SD_SHARE_LLC, 117, lb::MigrationType::load, 0};
		const bool found = lb::find_src_group_decide(env, sds);
		RC_ASSERT(found == (100 * nb > 117 * nl));
		if (found) {
			RC_ASSERT(env.migration_type == lb::MigrationType::load);
			RC_ASSERT(env.imbalance >= 512);
		}
		RC_TAG(found ? "imbalance found" : "balanced");
	});
}
