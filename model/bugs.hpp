// SPDX-License-Identifier: GPL-2.0-only
// Historical EEVDF bugs (and plain mutations) that can be switched back
// into the model, so that the checkers can be shown to catch them. Each
// names the kernel commit that fixed it (kernel-eevdf.md §16).
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace eevdf {

enum class Bug : unsigned {
	AVG_VRUNTIME_TRUNC,   // 650cad561cce: avg_vruntime() truncated toward 0 instead of flooring
	PICK_FIRST_ELIGIBLE,  // b01db23d5923: the heap search returned an eligible entity, not the EEVD one
	STALE_AUGMENT,        // 8dafa9d0eb1a / d2929762cc3f: subtree min_vruntime not refreshed on removal
	NO_LAG_INFLATION,     // 86bfbb7ce4f6: placement without the (W + w) / W lag inflation
	NO_LAG_CLAMP,         // 1560d1f6eb6b / 6e3c0a4e1ad1: saved lag not clamped
	DELAY_ZERO_KEEPS_LAG, // 54a58a787791: a delayed entity left with its positive lag
	REWEIGHT_NO_RESCALE,  // eab03c23c2a1: a nice change kept vlag instead of rescaling w_old/w_new
	EXTRA_TICK_SLICE,     // 2ae891b82695: base slice 0.75 ms x factor (3.00 ms at >= 8 CPUs)
	ELIGIBLE_STRICT,      // mutation: eligibility tested as v < V (off by one)
	DEADLINE_FROM_OLD,    // mutation: renewal d += r/w from the old deadline, not from v
	NO_RESCHED_ON_RENEWAL,// mutation: update_curr() ignores update_deadline()'s request to reschedule
	PROTECT_FULL_SLICE,   // mutation: 6.17+ set_protect_slice() protects to the deadline, ignoring the min slice
	PREEMPT_INELIGIBLE,   // mutation: 6.12-6.16 do_preempt_short() accepts an ineligible waker
	DELAY_ZERO_REQUEUE_KEEPS, // mutation: requeue_delayed_entity() keeps v and d despite positive lag
	YIELD_KEEPS_DEADLINE, // mutation: the forfeiting yield moves v to d but leaves d where it was
	HRTICK_FROM_PICK_TIME,// mutation: hrtick_start_fair() arms slice from now, not slice - ran
	SLICE_SCALE_UNCAPPED, // mutation: the default base slice scales by 1 + ilog2(cpus) without min(cpus, 8)
	MIGRATE_DROPS_LAG,    // mutation: set_task_cpu() forgets the saved lag, so a migrated task is placed at V
	MIGRATE_DELAYED,      // 61b82dfb6b7e (6.14): can_migrate_task() let the balancer move a delayed task
	WA_IDLE_SKIPS_PREV,   // mutation: wake_affine_idle() does not return an idle prev_cpu
	MIGRATE_KEEPS_VRUNTIME, // mutation: a migrated task keeps its vruntime and deadline values on the new CPU
	NEWIDLE_BUMP,         // 155213a2aed4 (6.17), reverted by d206fbad9328: a failed newidle pass recorded as 3/2 of the max cost
	NOHZ_KICK_STATS_ONLY, // mutation: nohz_balancer_kick() never asks the idle CPUs to balance
	PREEMPT_SHORT_KEEPS_PROTECTION, // mutation: a shorter-slice waker preempts without cancelling curr's protection
	REWEIGHT_PLACE_ENTITY, // 101f3498b4bd (7.0): a queued entity's reweight saved its lag and placed it again (6d71a9c61604)
	GROUP_SLICE_BASE,      // aef6987d8954 (6.12): a group's entity kept the base slice, not the smallest slice below it
	GROUP_SLICE_STALE_TREE, // 563bc2161b94 (6.15): a queued group entity's new slice was not propagated up its tree
	GROUP_SLICE_U64_MAX,   // bbce3de72be5 (6.12): a delayed parent's dequeue left the emptied group's U64_MAX min slice in slice
	COUNT
};

struct BugInfo {
	std::string_view name;
	std::string_view commit;  // the fix, or "mutation"
	std::string_view what;
};

inline constexpr std::array<BugInfo, static_cast<unsigned>(Bug::COUNT)> bug_info = {{
	{"avg-vruntime-trunc", "650cad561cce", "avg_vruntime() divided with C truncation, so V was biased up for negative sums"},
	{"pick-first-eligible", "b01db23d5923", "pick_eevdf() could return an eligible entity without the earliest deadline"},
	{"stale-augment", "8dafa9d0eb1a", "the augmented subtree min_vruntime went stale, corrupting the heap search"},
	{"no-lag-inflation", "86bfbb7ce4f6", "place_entity() applied the saved lag without (W + w) / W, so joining shrank it"},
	{"no-lag-clamp", "1560d1f6eb6b", "saved vlag was not clamped to the slice/tick bound"},
	{"delay-zero-keeps-lag", "54a58a787791", "a delayed entity left the queue keeping its positive lag"},
	{"reweight-no-rescale", "eab03c23c2a1", "a nice change kept V - v instead of rescaling it by w_old / w_new"},
	{"extra-tick-slice", "2ae891b82695", "the 0.75 ms base slice: 3.00 ms at >= 8 CPUs often needs a 4th tick at HZ=1000"},
	{"eligible-strict", "mutation", "entity_eligible() tested v < V instead of v <= V"},
	{"deadline-from-old", "mutation", "update_deadline() renewed from the old deadline instead of the current vruntime"},
	{"no-resched-on-renewal", "mutation", "update_curr() ignored the resched that a renewed deadline asks for"},
	{"protect-full-slice", "mutation", "set_protect_slice() protected curr to its deadline, not for the queue's min slice (6.17+)"},
	{"preempt-ineligible", "mutation", "do_preempt_short() cancelled curr's protection for an ineligible shorter-slice waker (6.12-6.16)"},
	{"delay-zero-requeue-keeps", "mutation", "requeue_delayed_entity() kept the old vruntime and deadline when DELAY_ZERO found positive lag"},
	{"yield-keeps-deadline", "mutation", "the forfeiting yield set v = d but left the deadline where it was"},
	{"hrtick-from-pick-time", "mutation", "hrtick_start_fair() armed the timer a whole slice from now, not slice - ran"},
	{"slice-scale-uncapped", "mutation", "the default base slice scaled by 1 + ilog2(cpus) without capping cpus at 8"},
	{"migrate-drops-lag", "mutation", "a task changing CPU lost its saved lag and was placed at the new CPU's V (6.6's e8f331bcc270 made lag travel)"},
	{"migrate-delayed", "61b82dfb6b7e", "the load balancer moved delayed (sleeping, still queued) tasks, which adds no runnable task where it lands (6.14 refuses them)"},
	{"wa-idle-skips-prev", "mutation", "wake_affine_idle() did not prefer an idle prev_cpu, so a busy waker's CPU became the target"},
	{"migrate-keeps-vruntime", "mutation", "a task arriving on another CPU kept its vruntime and deadline instead of being placed by its lag (absolute vruntimes compared across CPUs, as before e8f331bcc270 without the min_vruntime renormalisation)"},
	{"newidle-bump", "d206fbad9328", "155213a2aed4 (6.17 .. 6.18.2) recorded a newidle pass that pulled nothing as 3/2 of the domain's max cost, capped at 500.2 us, so repeated failures close the avg_idle gate (the revert, 6.18.3 and 6.19, removes it)"},
	{"nohz-kick-stats-only", "mutation", "nohz_balancer_kick() kicked the idle CPUs only to refresh blocked load, never to balance, so a tickless idle CPU waits for its own wake-up to pull"},
	{"preempt-short-keeps-protection", "mutation", "a shorter-slice waker that wins the wake-up's pick asked for the resched without cancel_protect_slice(), so __schedule() gave the CPU back to the still protected curr"},
	{"reweight-place-entity", "101f3498b4bd", "7.x: reweighting a queued group entity (a cpu.weight write) saved its lag and re-placed it, in 6.18.44's form (6d71a9c61604 + ff38424030f9); place_entity() counts the running entity in V and W, so a running group's lag and V moved (the revert keeps V and rescales about it)"},
	{"group-slice-base", "aef6987d8954", "before 6.12 a group's entity kept the base slice whatever slices its tasks asked for, so a short-slice task in a cgroup waited behind its group's base-slice deadline"},
	{"group-slice-stale-tree", "563bc2161b94", "6.12 .. 6.14: a group entity already queued took its cfs_rq's new min slice without min_vruntime_cb_propagate(), so the augmented min_slice above it went stale"},
	{"group-slice-u64-max", "bbce3de72be5", "6.12-rc: dequeue_entities() of a delayed group entity started from its emptied cfs_rq's cfs_rq_min_slice(), U64_MAX, and kept it when the parent's dequeue was delayed in turn, so the levels above took a slice of U64_MAX (a crash on the kernel)"},
}};

inline std::optional<Bug> bug_by_name(std::string_view name)
{
	for (unsigned i = 0; i < bug_info.size(); i++)
		if (bug_info[i].name == name)
			return static_cast<Bug>(i);
	return std::nullopt;
}

class Bugs {
public:
	constexpr bool operator[](Bug b) const { return bits_ & bit(b); }
	constexpr Bugs& set(Bug b, bool on = true)
	{
		bits_ = on ? (bits_ | bit(b)) : (bits_ & ~bit(b));
		return *this;
	}
	constexpr bool any() const { return bits_ != 0; }
	constexpr bool operator==(const Bugs&) const = default;

private:
	static_assert(static_cast<unsigned>(Bug::COUNT) <= 64, "one bit per bug in a u64");
	static constexpr unsigned long long bit(Bug b) { return 1ULL << static_cast<unsigned>(b); }
	unsigned long long bits_ = 0;
};

}  // namespace eevdf
