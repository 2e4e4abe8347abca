// SPDX-License-Identifier: GPL-2.0-only
// The code paths of fair.c and core.c that differ between the releases the
// oracle follows, one field each (DecisionOracle::Rules), and the row of a
// release (rules_for(), rules.cpp). Private to oracle/.
#pragma once

#include "oracle/decision_oracle.hpp"

namespace eevdf::oracle {

struct DecisionOracle::Rules {
	bool vruntime_tree;          // 6.6: vruntime-keyed tree, min_deadline heap walk
	enum class Ref { MinVruntime, ZeroAtTreeOps, ZeroAtAvg } ref;
	bool stash;                  // 6.6-6.16: protection is vlag == deadline
	bool did_preempt_short;      // 6.12-6.16: update_curr() resched on did_preempt_short()
	bool custom_slices;          // 6.12+: se->custom_slice
	bool v612_code;              // 6.12+: DELAY_*, PLACE_REL_DEADLINE, PREEMPT_SHORT, nr_queued == 1 pick
	bool lag_clamp_max_slice;    // 6.18.17+ (6e3c0a4e1ad1): clamp to max_slice + TICK_NSEC
	bool protect_first_only;     // 6.18.17+ (bcd74b2ffdd0): set_protect_slice() only when first
	bool yield_forfeit;          // 6.18.2+ (79104becf42b): vruntime = deadline if eligible
	bool yield_min_vruntime;     // 6.18.2/.3: ... followed by update_min_vruntime()
	bool fork_initial;           // 6.8+: wake_up_new_task() passes ENQUEUE_INITIAL
	bool rel_deadline_613;       // 6.13+ (6d71a9c61604): off-queue reweight rescales d - v
	enum class Preempt { V66, V612, ProtectParam, Actions } preempt;
	bool hrtick_every_pick;      // 6.6: pick_next_task_fair() re-arms even for a re-pick
	bool avg_in_update_deadline; // 6.18.22+: update_deadline() calls avg_vruntime()
	u64 normalized_slice;        // normalized_sysctl_sched_base_slice
	// 7.x (v7.1.5 fair.c, core.c):
	bool calc_div;               // 64-bit __calc_delta(): (delta * weight) / lw->weight
	bool full_weight;            // avg_vruntime_weight(): load.weight; vruntime_eligible() in __int128
	bool vprot_split;            // se->vprot is not se->vlag's union partner
	bool delayed_floor;          // update_entity_lag(): a delayed entity's lag >= its lag at the delay
	bool hrtick_v7;              // hrtick to the virtual deadline, deferred inside __schedule()
	// Groups (only their entities set a buddy, so flat runs never read these):
	// where PICK_BUDDY (2a77e4be12cb, 6.14) tests cfs_rq->next.
	enum class Buddy { None, InPickNextEntity, InPickEevdf, InPickEevdfProtect } buddy;
	bool short_clears_buddy;     // 7.x: a PREEMPT_WAKEUP_SHORT preemption clears curr's buddy
	// reweight_entity() of a queued entity: v kept, d - v rescaled (6.6.0),
	// lag saved and re-placed (6d71a9c61604, 6.13), also keeping curr's
	// protection relative (ff38424030f9, 6.18.17+), or V preserved
	// (101f3498b4bd, 7.x).
	// reweight_eevdf() (eab03c23c2a1, 6.7 .. 6.12): v and d rescaled about V.
	enum class QueuedReweight { KeepVruntime, ReweightEevdf, PlaceEntity, PlaceEntityRelVprot, PreserveV } queued_reweight;
	bool cfs_group_always;       // 6.6.0: update_cfs_group() reweights at an unchanged share too
	bool empty_group_keeps;      // 6.13+ (66951e4860d3): update_cfs_group() skips an empty group
	bool break_keeps_slice;      // 6.12: dequeue_entities() keeps `slice` at a delayed break (bbce3de72be5)
	bool slice_tree_stale;       // 6.12: a queued entity's new slice is not propagated (563bc2161b94)
};

// The rules of a release.
const DecisionOracle::Rules* rules_for(Version v);

}  // namespace eevdf::oracle
