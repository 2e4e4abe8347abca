// SPDX-License-Identifier: GPL-2.0-only
// What a run of the model is configured with: the kernel version whose code
// paths it follows, HZ, the base slice, features and the realism knobs.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/bugs.hpp"
#include "model/features.hpp"
#include "model/profile.hpp"
#include "model/types.hpp"

namespace eevdf {

struct MachineShape;  // model/topology.hpp

// Code paths that changed between kernel versions (kernel-eevdf.md §0.2, §16;
// each checked in the kernel source of the release the preset names). A
// preset selects one of each; every other difference is a Feature.
struct KernelPaths {
	// tasks_timeline's order. v6.6 keys the tree on vruntime and keeps a
	// min_deadline augment (its __pick_eevdf walks both); 2227a957e1d5 (v6.8)
	// keys it on the deadline with a min_vruntime augment.
	enum class Tree { VruntimeKeyed /* 6.6 */, DeadlineKeyed /* 6.8+ */ } tree;
	// The reference point v0 of the avg_vruntime sums, and where it moves.
	// None of this changes a decision (V and eligibility are invariant under
	// v0 while no product overflows); it decides only how far keys grow.
	enum class RefPoint {
		MinVruntime,         // 6.6 .. 6.18.3: min_vruntime, forward only
		ZeroVruntimeAtQueue, // 6.18.4 .. 6.18.16 (79f3f9bedd14): re-centred on V at every tree insert/erase
		ZeroVruntimeAtAvg,   // 6.18.17+, 7.x: avg_vruntime() pulls it to V (place, lag save, renewal)
	} ref_point;
	// How slice protection is stored and when update_curr() asks for a resched.
	enum class Protect {
		VlagStash,  // 6.6 .. 6.16: vlag == deadline marks protection; resched only on renewal
		Vprot,      // 6.17+: vprot, limited to the queue's min slice; resched at its end
	} protect;
	bool vprot_is_vlag;     // 6.17 .. 6.18.44: vprot and vlag share storage (a union; split in 7.x)
	bool did_preempt_short; // 6.12 .. 6.16: update_curr() also reschedules on did_preempt_short()
	enum class LagClamp { TwiceSlice /* <= 6.18.16 */, MaxSlicePlusTick /* 6.18.17+, 7.x */ } lag_clamp;
	bool custom_slices;            // 6.12+: sched_attr.sched_runtime sets the slice
	bool protect_only_at_pick;     // bcd74b2ffdd0 (6.18.17+): set_next_entity(first=false) keeps vprot
	// yield_task_fair(): push the deadline by a slice, or (79104becf42b,
	// v6.19, stable 6.18.2+ and 6.12.63+) forfeit the rest of the request.
	enum class Yield { PushDeadline, ForfeitVruntime } yield;
	// wake_up_new_task() activates with ENQUEUE_INITIAL (6.8+). v6.6 places
	// the child in task_fork_fair() with INITIAL but activates without it, so
	// the enqueue re-places it with a full first slice.
	bool fork_enqueue_initial;
	// An off-queue reweight rescales a relative deadline by w_old / w_new
	// (6d71a9c61604, v6.13); v6.12.0 rescales only vlag.
	bool reweight_rescales_rel_deadline;
	// check_preempt_wakeup_fair()'s shape.
	enum class WakeupPreempt {
		Pick,         // 6.6 .. 6.16: cancel protection for a shorter waker, preempt iff the pick is it
		ProtectParam, // 6.17 .. 6.18.32: pick without curr's protection for a shorter waker, else shrink it
		Actions,      // 6.18.33+, 7.x: enum actions; a fork or delayed waker does not preempt unless
		              // shorter; a delayed pick is dequeued and the pick retried; protection shrinks
		              // after every wakeup that does not preempt
	} wakeup_preempt;
	// HRTICK: v6.6 re-arms the hrtick at every pick; 6.12+ only when a
	// different task is set (a re-pick leaves it cleared by __schedule()).
	bool hrtick_rearm_on_repick;
	u64 normalized_base_slice;     // 750000 before 6.15, 700000 from 6.15

	// ---- several CPUs (smp.md; each checked in the release's source)
	// sched_balance_newidle()'s cost tracking: 155213a2aed4 (6.17 ..
	// 6.18.2) bumps max_newidle_lb_cost by half when a pass pulls nothing
	// (capped at migration_cost + 200 ns); 6.18.3 reverts it.
	bool newidle_bump_on_failure;
	// 6.14+ (c2a295bffeaf, 61b82dfb6b7e): the balancer counts runnable, not
	// delayed, tasks, and moves a delayed task only under migrate_load.
	bool lb_skips_delayed;
	// 6.15+ (873199d27bb2): a task ineligible on its cfs_rq is not pulled to a
	// busy dst while nr_balance_failed == 0.
	bool lb_prefers_eligible;
	// 6.16+ (aa3ee4f0b754): wake_affine_idle()'s sync test leaves delayed
	// tasks out of this_rq->nr_running.
	bool wa_idle_sync_minus_delayed;
	// 6.18.39+: update_sg_wakeup_stats() sums only the group's CPUs in
	// p->cpus_ptr (fork/exec placement).
	bool wakeup_stats_allowed_only;

	// ---- 7.x mainline (each read in v7.1.5's fair.c)
	// __calc_delta() on 64-bit: (delta * weight) / lw->weight in u64
	// instead of the inverse-weight multiply and shift.
	bool calc_delta_divides;
	// avg_vruntime_weight(): the avg_vruntime sums, V, placement and
	// eligibility weigh entities by the full load.weight, not
	// scale_load_down() of it, and vruntime_eligible() compares in 128 bits
	// (PARANOID_AVG's sum_shift, off by default, is not modelled).
	bool avg_full_weight;
	// update_entity_lag() of a delayed entity: its lag is kept at least what
	// it was when the dequeue was delayed (saved then), DELAY_ZERO caps it at
	// 0, and requeue_delayed_entity() re-places the entity whenever that
	// changed its lag; finish_delayed_dequeue_entity() is gone.
	bool delayed_lag_floor;
	// The 7.x hrtick (core.c hrtick_start(), hrtick_schedule_exit();
	// fair.c hrtick_start_fair(), hrtick_update()): armed for the real time
	// to the virtual deadline, w (deadline - vruntime) / NICE_0_LOAD; not
	// cancelled when __schedule() starts, where starts are only noted and
	// the last one is armed at its exit (a CPU going idle cancels); an armed
	// timer is kept if the new expiry is within 5 us; hrtick_update() only
	// from enqueue and only while none is armed. HRTICK is on by default
	// (CONFIG_HRTIMER_REARM_DEFERRED, which x86 has).
	bool hrtick_rework;
	// NI_RATE (on by default): every 1024 newidle calls the success ratio
	// also counts the time since the last such update, (sched_clock delta)
	// >> 22, capped at 1024, and NI_RANDOM no longer skips at ratio 1024.
	// Not a --features switch here.
	bool newidle_rate;
	// CONFIG_PREEMPT_LAZY exists (6.13+), and is the default preemption
	// model (7.x on x86: ARCH_HAS_PREEMPT_LAZY, PREEMPT_NONE gone).
	bool has_preempt_lazy;
	bool preempt_lazy_default;
	// update_rq_avg_idle() from put_prev_task_idle(): avg_idle takes a
	// sample at every switch away from the idle task (rq_clock then minus
	// idle_stamp, which only newidle balancing sets; 0 if it did not),
	// instead of in ttwu_do_activate() when idle_stamp is set.
	bool avg_idle_at_idle_exit;
	// util_est_update() runs inside update_load_avg() (UPDATE_UTIL_EST),
	// after the dequeue's ageing, for a sleep that delays or dequeues; not
	// at the final dequeue of a delayed task.
	bool util_est_after_ageing;

	// ---- SCHED_IDLE (each read in the release's fair.c and core.c)
	// set_load_weight() reweights a SCHED_IDLE task through reweight_task()
	// (6.11+); v6.6 stores weight 3 and returns, so a nice change of an idle
	// task touches nothing of its entity.
	bool idle_policy_reweights;
	// v6.6 check_preempt_wakeup(): the "idle curr, non-idle wakee" preemption
	// comes before the WAKEUP_PREEMPTION test, and the batch/idle waker's
	// return with it, both before find_matching_se(); 6.12+ test the matched
	// entities' idleness first and the waking task's policy after it.
	bool idle_preempt_first;
	// f553741ac8c0 (v6.15, stable 6.14.2): that preemption also cancels the
	// idle curr's slice protection, so the pick after it cannot hand the CPU
	// back to the idle task under RUN_TO_PARITY.
	bool idle_preempt_cancels_protect;
	// v7.1 choose_idle_cpu(): a CPU running only SCHED_IDLE tasks is taken
	// as idle only for a wakee that is not SCHED_IDLE.
	bool sched_idle_skips_idle_wakee;

	// ---- task groups (CONFIG_FAIR_GROUP_SCHED; docs/model.md "Task groups")
	// The hierarchy walks as 6.14 .. 7.1 do them (h_nr_runnable and
	// set_delayed(), a group entity's slice from the min slice below it, an
	// emptied group keeping its weight), 6.12.0's and 6.6.0's (the switches
	// below), for every preset.
	//
	// v6.12.0 dequeue_entities() (bbce3de72be5, 6.15, fixed both): a group
	// entity's dequeue starts `slice` at its own cfs_rq's min slice, and a
	// delayed break leaves `slice` as it was, so the delayed entity and the
	// levels above whose curr it is take 0 (a task's dequeue) or that min
	// slice; 6.15 takes the delayed entity's cfs_rq's min slice there.
	bool delayed_break_keeps_slice;
	// A queued group entity's new slice is not propagated into its tree
	// (563bc2161b94, 6.15, added min_vruntime_cb_propagate() there): the
	// min_slice augments above it keep the old value.
	bool group_slice_tree_stale;
	// PELT's runnable counts leave delayed tasks out (h_nr_delayed,
	// 76f2f783294d, 6.13): a cfs_rq's runnable is h_nr_queued minus its
	// delayed tasks, a group entity's runnable_weight likewise. v6.12.0
	// counts them (h_nr_running); on one CPU PELT decides nothing.
	bool pelt_runnable_skips_delayed;
	// PICK_BUDDY (2a77e4be12cb, 6.14): cfs_rq->next is picked first if it
	// is eligible. Only groups set a buddy: a task's sleep makes its group's
	// entity the buddy on every level above (set_next_buddy()). Where the
	// test sits decides whether the wake-up preemption's pick sees it:
	enum class PickBuddy {
		None,                // before 6.14
		InPickNextEntity,    // 6.14 .. 6.18.32: pick_next_entity() only; the wake-up calls __pick_eevdf()
		InPickEevdf,         // 6.18.33 .. 6.18.44 (e837456fdca8): __pick_eevdf(), every pick
		InPickEevdfProtect,  // 7.x: __pick_eevdf() when protect is true (not a short-slice wake-up)
	} pick_buddy;
	// 7.x: a short-slice wake-up preemption also clears curr's buddy.
	bool short_preempt_clears_buddy;
	// reweight_entity() of a queued entity (a group entity's share change):
	// KeepVruntime (6.6.0: v stays, d - v rescaled, the node updated in
	// place), ReweightEevdf (eab03c23c2a1, 6.7 .. 6.12: v and d rescaled
	// about V, the vlag stash untouched), PlaceEntity (6d71a9c61604, 6.13: save the lag, re-place),
	// PlaceEntityRelVprot (ff38424030f9, 6.18.17+: and keep curr's
	// protection), PreserveV (101f3498b4bd, 7.x).
	enum class QueuedReweight {
		KeepVruntime,
		ReweightEevdf,
		PlaceEntity,
		PlaceEntityRelVprot,
		PreserveV
	} queued_reweight;
	// update_cfs_group() reweights even when the share is unchanged (6.6.0;
	// eab03c23c2a1, 6.7, returns then), so a group entity that is its
	// level's curr has that level's update_curr() run at every enqueue or
	// dequeue below it.
	bool update_cfs_group_always;
	// An emptied group keeps its entity's weight (66951e4860d3, 6.13);
	// before, update_cfs_group() reweights it from its load_avg.
	bool empty_group_keeps_weight;
	// update_tg_load_avg() at most once per ms per cfs_rq (1528c661c24b,
	// 6.7); 6.6.0 folds every change past 1/64.
	bool tg_load_ratelimit;
};

struct KernelPreset {
	std::string_view name;
	std::string_view description;  // what it follows, and what separates it from its predecessor
	std::string_view commits;      // the commits that separate it from the preset before it
	KernelPaths paths;
	Features features;  // the features.h defaults of that version
};

const std::vector<KernelPreset>& kernel_presets();
// The features that exist in the release the preset follows (its
// features.h, plus the two tick options); flipping any other has no kernel
// meaning. TTWU_QUEUE_DELAYED, never merged, is offered on the 6.18 presets.
Features available_features(const KernelPreset& p);

// By name, or by an alias ("6.18.0" for "6.18"); nullptr if unknown.
const KernelPreset* find_preset(std::string_view name);
// Why a name that once was a preset no longer is, or nullptr.
const char* retired_preset(std::string_view name);
inline constexpr std::string_view DEFAULT_PRESET = "6.18";
// The preset whose code a running kernel of this release (uname -r) follows:
// the newest preset at or before it; nullptr before 6.6.
const KernelPreset* preset_for_release(std::string_view release);

// What one newidle sched_balance_rq() pass costs by default, in ns of
// sched_clock. The kernel measures it (sched_balance_newidle(): domain_cost
// is a sched_clock_cpu() delta, 6.6 .. 7.1.5) and it is never 0; with 0 no
// newidle success is ever recorded (update_newidle_cost() updates the
// statistics only for a nonzero cost), so under NI_RANDOM (6.18.5+) the
// success ratio decays and newidle balancing fades to ~2 passes in 1024,
// which no kernel does. 2 us is the cost the shipped profile of this
// project's machine assumes (profiles/vm-6.18.44-hz250.json, docs/
// profiles.md): a pass over a domain of a few CPUs (rq locks, group
// statistics, a detach) takes microseconds. The periodic balance measures
// no cost (sched_balance_domains() only decays max_newidle_lb_cost), so
// nothing else is charged. `--balance-cost 0` keeps a free newidle pass.
inline constexpr u64 DEFAULT_BALANCE_COST = 2000;

// Realism knobs: all zero by default but balance_cost (a fixed cost, so the
// default model stays exact).
struct Knobs {
	u64 tick_phase = 0;   // ticks fire at t > 0 with t = tick_phase (mod TICK_NSEC)
	u64 tick_jitter = 0;  // each tick arrives early by u, uniform in [0, tick_jitter] (seeded, per CPU)
	u64 switch_cost = 0;  // from a pick until the next task runs its own code; charged to it
	// Several CPUs:
	u64 ipi_latency = 0;        // an IPI's send -> its handler on the target
	u64 idle_exit_latency = 0;  // added when the IPI wakes an idle (halted) CPU
	u64 wakeup_irq_cost = 0;    // CPU time a wakelist IPI's handler takes on the target (IRQ time)
	// What one newidle sched_balance_rq() pass costs (its sched_clock delta),
	// for sched_balance_newidle()'s cost gates; 0: balancing is free.
	u64 balance_cost = DEFAULT_BALANCE_COST;
};

// The kernel's preemption model (CONFIG_PREEMPT_*). The model's tasks run in
// user space, where NONE, VOLUNTARY and FULL act alike: a resched is acted on
// at the next return from interrupt or system call. LAZY differs for a busy
// remote CPU: resched_curr_lazy() sets TIF_NEED_RESCHED_LAZY there without an
// IPI, so the CPU acts at its next interrupt (its tick promotes the request).
enum class Preempt { None, Voluntary, Full, Lazy };
std::string_view preempt_name(Preempt p);
std::optional<Preempt> preempt_by_name(std::string_view name);

struct Config {
	const KernelPreset* preset = nullptr;
	Preempt preempt = Preempt::None;  // the preset's default model (make_config)
	Features features;      // preset defaults with the user's +A,-B applied
	u32 hz = 250;
	u64 tick_ns = 0;        // TICK_NSEC of hz
	u32 cpus = 1;           // CPUs simulated
	u32 online_cpus = 1;    // scales the default base slice like update_sysctl(); >= cpus
	u32 llc_size = 0;       // CPUs per LLC (a divisor of cpus); 0 = all in one
	u32 smt = 1;            // CPUs per core: SMT siblings (a divisor of the LLC); 1 = none
	u32 cluster = 0;        // CPUs per cluster (SD_CLUSTER; cores within, dividing the LLC); 0 = none
	u32 node = 0;           // CPUs per NUMA node (LLCs within, dividing cpus); 0 = one node
	u32 numa_distance = 20; // node_distance() between two nodes, with several
	u32 reclaim_distance = 30;  // node_reclaim_distance (32 on AMD Zen)
	bool skew_tick = false; // boot option skew_tick=1: CPU c ticks c (TICK_NSEC/2)/cpus later
	// sysctl_sched_autogroup_enabled (CONFIG_SCHED_AUTOGROUP): every task of
	// the root cpu cgroup runs in its session's autogroup (model/autogroup.hpp).
	// Off in the model unless asked for, so that flat runs stay flat.
	bool autogroup = false;
	u64 base_slice_ns = 0;  // sysctl_sched_base_slice (debugfs base_slice_ns)
	Knobs knobs;
	// The machine's variability (model/profile.hpp): exact (every cost 0)
	// unless a profile is given; each cost adds to its knob above.
	Profile profile;
	u64 seed = 0;           // for the tick jitter
	// The reference point v0 at boot; the kernel uses -(1 << 20) so that
	// u64 wrap-around happens within the first millisecond.
	u64 vruntime_origin = static_cast<u64>(-(1LL << 20));
	// CPU c's cfs_rq starts at vruntime_origin + c * vruntime_origin_step.
	// The kernel starts every CPU at the same value (0 here); the
	// properties move CPUs apart to show that no decision compares
	// vruntimes of different CPUs.
	u64 vruntime_origin_step = 0;
	Bugs bugs;  // historical bugs switched back in (none by default)
	bool exact_tree_augments = false;  // the model's own fix: exact min/max_slice (docs/findings.md F9)
};

// The default base slice: normalized x (1 + ilog2(min(cpus, 8))).
u64 default_base_slice(const KernelPreset& preset, u32 cpus);

// A complete configuration for `preset` at `hz` on `cpus` CPUs (all online)
// with every default filled in (Bug::EXTRA_TICK_SLICE brings back the
// 0.75 ms normalized base slice).
Config make_config(const KernelPreset& preset, u32 hz, u32 cpus = 1, Bugs bugs = {});
// One CPU of a machine with `online_cpus` CPUs online: the base slice is
// scaled for all of them, the model simulates the one (the tasks pinned to
// it). What the one-CPU model's `--cpus N` meant before several CPUs.
Config make_config_one_of(const KernelPreset& preset, u32 hz, u32 online_cpus, Bugs bugs = {});
// How early a tick can arrive at most: the knob's uniform jitter plus the
// profile's largest draw (each tick still lands after the one before).
// The balance_cost knob a run gets unless told: the profile's balance_cost
// draw is the cost when it has one, DEFAULT_BALANCE_COST otherwise, so that
// the shipped profile's 2 us is not charged twice.
inline u64 default_balance_cost(const Profile& p) { return p.balance_cost.is_zero() ? DEFAULT_BALANCE_COST : 0; }
inline u64 tick_jitter_max(const Config& cfg) { return cfg.knobs.tick_jitter + cfg.profile.tick_jitter.max(); }
// The LLC size in force: cfg.llc_size, or every CPU.
inline u32 llc_size_of(const Config& cfg) { return cfg.llc_size ? cfg.llc_size : cfg.cpus; }
// The machine the Config describes: cores of cfg.smt siblings, in
// clusters of cfg.cluster CPUs, in LLCs of llc_size_of(cfg), in nodes of
// cfg.node CPUs (one node when 0).
MachineShape machine_shape_of(const Config& cfg);
// Whether the machine has several NUMA nodes.
inline bool several_nodes(const Config& cfg) { return cfg.node && cfg.node < cfg.cpus; }

// The `eevdf sim` flags that reproduce `cfg` (for replayable reports).
std::string command_line_flags(const Config& cfg);

// A one-line description of what is in force, e.g. for report headers.
std::string describe(const Config& cfg);
// "+A,-B,..." for every feature, or only the one-CPU ones (smp = false).
std::string features_string(const Features& f, bool smp = true);

}  // namespace eevdf
