// SPDX-License-Identifier: GPL-2.0-only
// The proved statements about single decisions (docs/proofs.md, O6 and O7)
// fed to the model itself: each property draws states that meet the
// statement's premises, including keys far outside what a schedule reaches
// and the overflow region beyond the precondition, builds them as a CfsRq
// (model/cfs_rq_state.hpp), and checks the statement's conclusion on the
// model's own decision. Where a premise does not hold the state is only
// tagged; the TEST_CASEs keep what happens there as regression cases.
//
// The statements about runs and waits (O1-O5, O8) are fed to the model by
// the run-length, lag, weighted and wake-up properties of test_props.cpp
// (the table in docs/proofs.md says which).
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include "model/cfs_rq_state.hpp"
#include "model/pick_oracle.hpp"
#include "model/weights.hpp"

using namespace eevdf;

namespace {

// Keys (v - v0) from a region: a schedule's (|k| < 2^20), far (2^40), the
// edge of overflow for 8 nice -20 entities (2^46) and anything (the whole
// s64 range, mostly overflowing).
s64 key_in(int region)
{
	static const u64 mag[] = {1ULL << 20, 1ULL << 40, 1ULL << 46, 1ULL << 62};
	const u64 m = mag[region];
	return static_cast<s64>(*rc::gen::inRange<u64>(0, 2 * m)) - static_cast<s64>(m);
}

// The no-overflow precondition: every |k_i| * W < 2^63 (then Σ k_i w_i
// cannot wrap either, and eligibility is the exact test).
bool no_overflow(const CfsRq& rq, const std::vector<const SchedEntity*>& q)
{
	s128 W = 0, kmax = 0;
	for (const SchedEntity* se : q) {
		W += rq.avg_weight(se);
		const s128 k = rq.entity_key(se);
		kmax = std::max(kmax, k < 0 ? -k : k);
	}
	return kmax * W < (static_cast<s128>(1) << 63);
}

std::vector<const SchedEntity*> queued(const CfsRqState& st)
{
	std::vector<const SchedEntity*> q;
	for (size_t i = 0; i < st.tree_size(); i++)
		q.push_back(st.tree_entity(i));
	if (st.curr() && st.curr()->on_rq)
		q.push_back(st.curr());
	return q;
}

const KernelPreset& deadline_tree_preset()
{
	static const char* names[] = {"6.12", "6.15", "6.18", "6.18.39", "7.1.5"};
	return *find_preset(*rc::gen::element(names[0], names[1], names[2], names[3], names[4]));
}

int any_nice(bool nice0) { return nice0 ? 0 : *rc::gen::inRange(-20, 20); }

// A queue of 1-8 entities (tree and curr), keys from one region, deadlines
// within +-2^61 of the first (ties on purpose).
struct Drawn {
	Config cfg;
	u64 v0 = 0;
	std::vector<EntitySpec> tree;
	bool has_curr = false, curr_on_rq = false;
	EntitySpec curr;
};

Drawn draw_queue(int max_n, bool nice0)
{
	Drawn d;
	d.cfg = make_config(deadline_tree_preset(), 250);
	d.cfg.exact_tree_augments = true;
	d.v0 = *rc::gen::arbitrary<u64>();
	const int region = *rc::gen::inRange(0, 4);
	const int n = *rc::gen::inRange(1, max_n + 1);
	d.has_curr = *rc::gen::inRange(0, 3) != 0;
	d.curr_on_rq = d.has_curr && *rc::gen::inRange(0, 4) != 0;
	const int ntree = d.has_curr && d.curr_on_rq ? n - 1 : n;
	const u64 d0 = d.v0 + static_cast<u64>(key_in(region));
	auto ent = [&]() {
		EntitySpec e;
		e.nice = any_nice(nice0);
		e.vruntime = d.v0 + static_cast<u64>(key_in(region));
		e.deadline = *rc::gen::inRange(0, 5) == 0 && !d.tree.empty()
				     ? d.tree.back().deadline
				     : d0 + static_cast<u64>(static_cast<s64>(*rc::gen::inRange<u64>(0, 1ULL << 62)) - (1LL << 61));
		e.slice = d.cfg.base_slice_ns;
		return e;
	};
	for (int i = 0; i < ntree; i++)
		d.tree.push_back(ent());
	if (d.has_curr) {
		d.curr = ent();
		d.curr.vprot = d.curr.vruntime + static_cast<u64>(key_in(0));
	}
	return d;
}

}  // namespace

// pick_spec, and item 4 of issue 20: the statement is proved for 2-3
// nice-0 entities; the model is held to it here for 1-8 entities at any
// nice level, on every deadline-keyed preset.
TEST_CASE("pick_spec holds on the model: without key*weight overflow the pick is the earliest eligible deadline", "[props]")
{
	rc::prop("pick_spec", [] {
		const Drawn d = draw_queue(8, *rc::gen::arbitrary<bool>());
		CfsRqState st(d.cfg, d.v0, 0, d.tree);
		if (d.has_curr)
			st.set_curr(d.curr, d.curr_on_rq);
		const CfsRq& rq = st.rq();
		const std::vector<const SchedEntity*> q = queued(st);
		bool any = false;
		for (const SchedEntity* se : q)
			any = any || rq.entity_eligible(se);
		if (!no_overflow(rq, q)) {
			RC_TAG("outside the precondition (key * W overflows)");
			return;
		}
		RC_TAG(q.size() <= 3 ? "2-3 entities (the proved range)" : "4-8 entities");
		RC_ASSERT(any);  // eligible_exists_int
		const SchedEntity* p0 = rq.pick_eevdf_protect(false);
		RC_ASSERT(p0 != nullptr);
		RC_ASSERT(rq.entity_eligible(p0));
		for (const SchedEntity* se : q)
			if (rq.entity_eligible(se))
				RC_ASSERT(wrapped_diff(se->deadline, p0->deadline) >= 0);
		RC_ASSERT(picks_agree(rq, p0, pick_eevdf_bruteforce(rq, false)));
		const SchedEntity* p1 = rq.pick_eevdf_protect(true);
		RC_ASSERT(p1 != nullptr);
		RC_ASSERT(picks_agree(rq, p1, pick_eevdf_bruteforce(rq, true)));
	});
}

// eligible_exists_int and lag_sum_rounding_int: any keys, any weights of the
// nice table, 1-8 entities, no overflow.
TEST_CASE("eligible_exists_int and lag_sum_rounding_int hold on the model's avg_vruntime and eligibility", "[props]")
{
	rc::prop("eligible exists, lag sum in (-W, 0]", [] {
		const Drawn d = draw_queue(8, false);
		CfsRqState st(d.cfg, d.v0, 0, d.tree);
		if (d.has_curr)
			st.set_curr(d.curr, d.curr_on_rq);
		const CfsRq& rq = st.rq();
		const std::vector<const SchedEntity*> q = queued(st);
		if (!no_overflow(rq, q)) {
			RC_TAG("outside the precondition (key * W overflows)");
			return;
		}
		bool any = false;
		s128 W = 0, L = 0;
		const u64 V = rq.avg_vruntime();
		for (const SchedEntity* se : q) {
			any = any || rq.entity_eligible(se);
			W += rq.avg_weight(se);
			L += static_cast<s128>(rq.avg_weight(se)) * wrapped_diff(V, se->vruntime);
		}
		RC_ASSERT(any);
		RC_ASSERT(-W < L);
		RC_ASSERT(L <= 0);
	});
}

// wakeup_short_preempts (6.18 defaults: PREEMPT_SHORT, RUN_TO_PARITY,
// WAKEUP_PREEMPTION): the waker P, just enqueued, next to curr and two
// other entities, nice 0, any slices and clock.
TEST_CASE("wakeup_short_preempts holds on the model: a shorter-slice waker meeting Cond preempts and is picked, and only then", "[props]")
{
	rc::prop("wakeup_short_preempts", [] {
		Config cfg = make_config(*find_preset(*rc::gen::element("6.18", "6.18.39")), 250);
		cfg.exact_tree_augments = true;
		const u64 v0 = *rc::gen::arbitrary<u64>();
		const int region = *rc::gen::inRange(0, 4);
		auto ent = [&](u64 d0) {
			EntitySpec e;
			e.vruntime = v0 + static_cast<u64>(key_in(region));
			e.deadline = *rc::gen::inRange(0, 4) == 0 ? d0 : e.vruntime + *rc::gen::inRange<u64>(1, 1ULL << 24);
			e.custom_slice = *rc::gen::arbitrary<bool>();
			e.slice = e.custom_slice ? *rc::gen::inRange<u64>(100000, 100000001) : cfg.base_slice_ns;
			return e;
		};
		EntitySpec c = ent(0);
		c.exec_start = *rc::gen::inRange<u64>(0, 1ULL << 40);
		c.vprot = c.vruntime + static_cast<u64>(key_in(0));
		const EntitySpec b0 = ent(c.deadline), b1 = ent(c.deadline), p = ent(c.deadline);
		const u64 clock = c.exec_start + *rc::gen::inRange<u64>(0, 20000000);
		CfsRqState st(cfg, v0, clock, {b0, b1, p});
		SchedEntity* curr = st.set_curr(c, true);
		SchedEntity* P = st.tree_entity(2);
		CfsRq& rq = st.rq();
		rq.update_curr();  // the wakeup's own update_curr: the state its pick sees
		rq.need_resched = false;
		std::vector<const SchedEntity*> q = queued(st);
		bool deadlines_close = true;
		for (const SchedEntity* se : q)
			deadlines_close = deadlines_close && std::abs(wrapped_diff(se->deadline, curr->deadline)) <= (1LL << 61);
		if (!no_overflow(rq, q) || !deadlines_close) {
			RC_TAG("outside the precondition");
			return;
		}
		const bool shorter = P->slice < curr->slice;
		bool cond = shorter && rq.entity_eligible(P);
		for (size_t i = 0; i < 2; i++)
			if (rq.entity_eligible(st.tree_entity(i)))
				cond = cond && wrapped_diff(P->deadline, st.tree_entity(i)->deadline) < 0;
		if (rq.entity_eligible(curr))
			cond = cond && wrapped_diff(curr->deadline, P->deadline) >= 0;
		const SchedEntity* wake_pick = rq.pick_eevdf_protect(!shorter);
		rq.check_preempt_wakeup_fair(P, WF_TTWU);
		RC_TAG(cond ? "Cond holds" : "Cond fails");
		if (cond) {
			RC_ASSERT(rq.need_resched);
			RC_ASSERT(rq.pick_eevdf() == P);  // __schedule() at the same clock
		}
		if (shorter && wake_pick == P)
			RC_ASSERT(cond);
	});
}

// repick_equal_weights_int: equal weights (any common nice), n = 2-6, curr
// just renewed at a tick (v_c >= d_old, d_c = v_c + vslice, protection over),
// the others 0 < d_j - v_j <= vslice, one of them not ahead of curr.
TEST_CASE("repick_equal_weights_int holds on the model: a renewed curr with another entity not ahead is not re-picked", "[props]")
{
	rc::prop("repick_equal_weights_int", [] {
		Config cfg = make_config(deadline_tree_preset(), 250);
		cfg.base_slice_ns = *rc::gen::inRange<u64>(100000, 100000001);
		const int nice = *rc::gen::inRange(-20, 20), n = *rc::gen::inRange(2, 7);
		const u64 v0 = *rc::gen::arbitrary<u64>();
		const int region = *rc::gen::inRange(0, 4);
		LoadWeight lw = task_load_weight(nice);
		const u64 vs = calc_delta_fair(cfg.base_slice_ns, lw, cfg.preset->paths.calc_delta_divides);
		EntitySpec c;
		c.nice = nice;
		c.vruntime = v0 + static_cast<u64>(key_in(region));
		c.deadline = c.vruntime + vs;
		c.vprot = c.vruntime - *rc::gen::inRange<u64>(0, 1ULL << 20);  // vprot <= d_old <= v_c
		c.slice = cfg.base_slice_ns;
		std::vector<EntitySpec> tree;
		for (int j = 1; j < n; j++) {
			EntitySpec e;
			e.nice = nice;
			e.vruntime = j == 1 ? c.vruntime - *rc::gen::inRange<u64>(0, 1ULL << 24) : v0 + static_cast<u64>(key_in(region));
			e.deadline = e.vruntime + *rc::gen::inRange<u64>(1, vs + 1);
			e.slice = cfg.base_slice_ns;
			tree.push_back(e);
		}
		CfsRqState st(cfg, v0, 0, tree);
		SchedEntity* curr = st.set_curr(c, true);
		if (!no_overflow(st.rq(), queued(st))) {
			RC_TAG("outside the precondition");
			return;
		}
		RC_ASSERT(st.rq().pick_eevdf() != curr);
	});
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
