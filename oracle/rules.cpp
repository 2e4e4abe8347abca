// SPDX-License-Identifier: GPL-2.0-only
// A release's rules: the preset names the oracle knows (version_of(),
// version_name()), one Rules row per Version (rules_for()), and the
// sched_feat()s a release has (DecisionOracle::feat()).
#include "oracle/internal.hpp"

#include <cstddef>
#include <iterator>

namespace eevdf::oracle {

std::optional<Version> version_of(std::string_view n)
{
	if (n == "6.6")
		return Version::V6_6;
	if (n == "6.12")
		return Version::V6_12;
	if (n == "6.15")
		return Version::V6_15;
	if (n == "6.18" || n == "6.18.0")
		return Version::V6_18_0;
	if (n == "6.18.2")
		return Version::V6_18_2;
	if (n == "6.18.5")
		return Version::V6_18_5;
	if (n == "6.18.17" || n == "6.18.y")
		return Version::V6_18_17;
	if (n == "6.18.33" || n == "6.18.39")  // 6.18.39 differs only in fork placement across CPUs
		return Version::V6_18_33;
	if (n == "7.1.5")
		return Version::V7_1_5;
	return std::nullopt;
}

std::string_view version_name(Version v)
{
	switch (v) {
	case Version::V6_6: return "6.6";
	case Version::V6_12: return "6.12";
	case Version::V6_15: return "6.15";
	case Version::V6_18_0: return "6.18.0";
	case Version::V6_18_2: return "6.18.2";
	case Version::V6_18_5: return "6.18.5";
	case Version::V6_18_17: return "6.18.17";
	case Version::V6_18_33: return "6.18.33";
	case Version::V7_1_5: return "7.1.5";
	}
	return "?";
}

// ---- the table: each release as the delta from the release before it
//
// A new release: its enumerator last in Version (decision_oracle.hpp), its
// names in version_of() and version_name(), and a row below copied from the
// release before, with each field it changes set beside the commit that
// changed it. A new field goes into Rules (rules.hpp) and RULES_6_6.

namespace {

using Rules = DecisionOracle::Rules;
using Ref = Rules::Ref;
using Preempt = Rules::Preempt;

// v6.6.0: the first EEVDF (147f3efaa241), every field named.
constexpr Rules RULES_6_6 = {
	.vruntime_tree = true,
	.ref = Ref::MinVruntime,
	.stash = true,
	.did_preempt_short = false,
	.custom_slices = false,
	.v612_code = false,
	.lag_clamp_max_slice = false,
	.protect_first_only = false,
	.yield_forfeit = false,
	.yield_min_vruntime = false,
	.fork_initial = false,
	.rel_deadline_613 = false,
	.preempt = Preempt::V66,
	.hrtick_every_pick = true,
	.avg_in_update_deadline = false,
	.normalized_slice = 750000,
	.calc_div = false,
	.full_weight = false,
	.vprot_split = false,
	.delayed_floor = false,
	.hrtick_v7 = false,
	.buddy = Rules::Buddy::None,
	.short_clears_buddy = false,
	.queued_reweight = Rules::QueuedReweight::KeepVruntime,
	.cfs_group_always = true,
	.empty_group_keeps = false,
	.break_keeps_slice = false,  // no delayed entities
	.slice_tree_stale = false,   // no min_slice augment
};

// v6.12.0: the tree keyed by deadline and the 6.12 "Complete EEVDF" series.
constexpr Rules RULES_6_12 = [] {
	Rules r = RULES_6_6;
	r.vruntime_tree = false;     // 2227a957e1d5: the tree keyed by deadline
	r.did_preempt_short = true;  // 85e511df3cec (PREEMPT_SHORT)
	r.custom_slices = true;      // 857b158dc5e8
	r.v612_code = true;          // 152e11f6df29 (DELAY_DEQUEUE), 85e511df3cec, PLACE_REL_DEADLINE
	r.fork_initial = true;       // 6.8: wake_up_new_task() passes ENQUEUE_INITIAL
	r.preempt = Preempt::V612;   // 85e511df3cec: a shorter wakee cancels curr's protection
	r.hrtick_every_pick = false; // 6.12: armed in __set_next_task_fair(first), for a new task only
	r.cfs_group_always = false;  // eab03c23c2a1 (6.7): update_cfs_group() returns at an unchanged share
	r.queued_reweight = Rules::QueuedReweight::ReweightEevdf; // eab03c23c2a1 (6.7)
	r.break_keeps_slice = true;  // aef6987d8954 (6.12) as 6.12.0 has it; bbce3de72be5 (6.15)
	r.slice_tree_stale = true;   // aef6987d8954 (6.12); 563bc2161b94 (6.15)
	return r;
}();

// v6.15 (no stored source: 6.12.0 with its commits). f553741ac8c0 (6.15,
// a SCHED_IDLE curr's protection cancelled) is idle_curr_preempted()'s.
constexpr Rules RULES_6_15 = [] {
	Rules r = RULES_6_12;
	r.rel_deadline_613 = true;   // 6d71a9c61604 (6.13): an off-queue reweight rescales d - v
	r.normalized_slice = 700000; // 2ae891b82695 (6.15): 0.70 ms
	r.buddy = Rules::Buddy::InPickNextEntity; // 2a77e4be12cb (6.14): PICK_BUDDY in pick_next_entity()
	r.queued_reweight = Rules::QueuedReweight::PlaceEntity; // 6d71a9c61604 (6.13)
	r.empty_group_keeps = true;  // 66951e4860d3 (6.13)
	r.break_keeps_slice = false; // bbce3de72be5 (6.15)
	r.slice_tree_stale = false;  // 563bc2161b94 (6.15)
	return r;
}();

// v6.18.0 (= 6.18-rc5): the 6.17 RUN_TO_PARITY series (74eec63661d4,
// 052c3d87c82e, 0b9ca2dcabc3, 9de74a9850b9).
constexpr Rules RULES_6_18_0 = [] {
	Rules r = RULES_6_15;
	r.stash = false;                   // 74eec63661d4: vprot; 0b9ca2dcabc3: resched at its end
	r.did_preempt_short = false;       // 9de74a9850b9
	r.preempt = Preempt::ProtectParam; // the series: a shorter wakee picks without curr's protection
	return r;
}();

// 6.18.2 .. 6.18.3 (stable backport of 79104becf42b, v6.19).
constexpr Rules RULES_6_18_2 = [] {
	Rules r = RULES_6_18_0;
	r.yield_forfeit = true;      // 79104becf42b
	r.yield_min_vruntime = true; // 79104becf42b on min_vruntime
	return r;
}();

// 6.18.5 .. 6.18.16: zero_vruntime (79f3f9bedd14, 6.18.4).
constexpr Rules RULES_6_18_5 = [] {
	Rules r = RULES_6_18_2;
	r.ref = Ref::ZeroAtTreeOps;   // 79f3f9bedd14
	r.yield_min_vruntime = false; // 79f3f9bedd14: no update_min_vruntime() left
	return r;
}();

// 6.18.17 .. 6.18.32. The row follows 6.18.22's placement of the
// zero_vruntime pull (in update_deadline(); 6.18.17-.21 pulled it in
// entity_tick()): the two differ only in v0, which decides nothing while
// anything is queued.
constexpr Rules RULES_6_18_17 = [] {
	Rules r = RULES_6_18_5;
	r.ref = Ref::ZeroAtAvg;          // b3d99f43c72b
	r.lag_clamp_max_slice = true;    // 6e3c0a4e1ad1
	r.protect_first_only = true;     // bcd74b2ffdd0
	r.avg_in_update_deadline = true; // 6.18.22
	r.queued_reweight = Rules::QueuedReweight::PlaceEntityRelVprot; // ff38424030f9
	return r;
}();

// 6.18.33 .. 6.18.44 (6.18.39 differs only in fork placement across CPUs).
constexpr Rules RULES_6_18_33 = [] {
	Rules r = RULES_6_18_17;
	r.preempt = Preempt::Actions; // e837456fdca8 (stable backport)
	r.buddy = Rules::Buddy::InPickEevdf; // e837456fdca8: the buddy test moved into __pick_eevdf()
	return r;
}();

// v7.1.5 (fair.c, core.c); the commits as kernel-eevdf.md §16.6 names them.
constexpr Rules RULES_7_1_5 = [] {
	Rules r = RULES_6_18_33;
	r.calc_div = true;      // 7.1 "Use full weight to __calc_delta()"
	r.full_weight = true;   // 7.1 "Increase weight bits for avg_vruntime" (a3f4a6cd5449, peterz's queue)
	r.vprot_split = true;   // 7.0 "Separate se->vlag from se->vprot" (80390ead2080)
	r.delayed_floor = true; // "Prevent negative lag increase during delayed dequeue" (059258b0d424, tip)
	r.hrtick_v7 = true;     // the 2026 hrtick rework ("Fix HRTICK duration", "Limit hrtick work", ...)
	r.buddy = Rules::Buddy::InPickEevdfProtect;           // __pick_eevdf(): "PICK_BUDDY && protect"
	r.short_clears_buddy = true;                          // wakeup_preempt_fair(): clear_buddies() on SHORT
	r.queued_reweight = Rules::QueuedReweight::PreserveV; // 101f3498b4bd
	return r;
}();

struct Row {
	Version version;
	Rules rules;
};

// One row per version, each checked against that version's source.
constexpr Row ROWS[] = {
	{Version::V6_6, RULES_6_6},
	{Version::V6_12, RULES_6_12},
	{Version::V6_15, RULES_6_15},
	{Version::V6_18_0, RULES_6_18_0},
	{Version::V6_18_2, RULES_6_18_2},
	{Version::V6_18_5, RULES_6_18_5},
	{Version::V6_18_17, RULES_6_18_17},
	{Version::V6_18_33, RULES_6_18_33},
	{Version::V7_1_5, RULES_7_1_5},
};

// rules_for() indexes the table by the enumerator: a row for each, in order
// (V7_1_5 is the last enumerator).
constexpr bool rows_in_version_order()
{
	for (size_t i = 0; i < std::size(ROWS); i++)
		if (ROWS[i].version != static_cast<Version>(i))
			return false;
	return true;
}
static_assert(std::size(ROWS) == static_cast<size_t>(Version::V7_1_5) + 1, "one row per Version");
static_assert(rows_in_version_order(), "the rows in the order of Version's enumerators");

// Fields that only make sense together, one fact each: a row that
// contradicts itself does not compile.
template <class Fact>
constexpr bool every_row(Fact fact)
{
	for (const Row& row : ROWS)
		if (!fact(row.rules))
			return false;
	return true;
}
static_assert(every_row([](const Rules& r) { return r.vruntime_tree == !r.v612_code; }),
	      "only 6.6 keys the tree on vruntime, and 6.6 has none of the 6.12 code");
static_assert(every_row([](const Rules& r) { return r.vruntime_tree == (r.preempt == Preempt::V66); }),
	      "6.6's wake-up preemption goes with 6.6's tree");
static_assert(every_row([](const Rules& r) { return !r.did_preempt_short || r.stash; }),
	      "update_curr()'s did_preempt_short() resched only where protection is the vlag stash");
static_assert(every_row([](const Rules& r) { return !r.stash || (!r.protect_first_only && !r.vprot_split); }),
	      "vprot set only at a pick, or split from vlag, only where protection is vprot");
static_assert(every_row([](const Rules& r) {
		      return !r.yield_min_vruntime || (r.yield_forfeit && r.ref == Ref::MinVruntime);
	      }),
	      "yield's update_min_vruntime() follows the forfeit, and only while v0 is min_vruntime");
static_assert(every_row([](const Rules& r) { return !r.avg_in_update_deadline || r.ref == Ref::ZeroAtAvg; }),
	      "update_deadline() calls avg_vruntime() only where that pulls zero_vruntime");

}  // namespace

const DecisionOracle::Rules* rules_for(Version v)
{
	const size_t i = static_cast<size_t>(v);
	return i < std::size(ROWS) ? &ROWS[i].rules : nullptr;
}

// A sched_feat() that the version has: 6.6 has no DELAY_DEQUEUE,
// DELAY_ZERO, PLACE_REL_DEADLINE or PREEMPT_SHORT code, so flipping them
// there changes nothing.
bool DecisionOracle::feat(Feature f) const
{
	switch (f) {
	case Feature::PLACE_REL_DEADLINE:
	case Feature::PREEMPT_SHORT:
	case Feature::DELAY_DEQUEUE:
	case Feature::DELAY_ZERO:
		if (!rules_->v612_code)
			return false;
		break;
	default:
		break;
	}
	return cfg_.features[f];
}

}  // namespace eevdf::oracle
