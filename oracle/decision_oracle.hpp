// SPDX-License-Identifier: GPL-2.0-only
// The decision oracle: a second, deliberately plain implementation of the
// per-event EEVDF rules of kernel/sched/fair.c and the parts of core.c that
// call them, written from the kernel sources (not from model/), run in
// lockstep with a Simulation as an Observer. At every hook it applies the
// kernel's rule for that stimulus to its own state and compares the state
// and the decisions with the model's; the first disagreement (and the first
// of each class) is recorded with the event index, time, stimulus, field and
// both values.
//
// Design:
//  - Own per-task state (vruntime, deadline, the 64-bit vlag word, 7.x's
//    vprot word, slice, custom, weight, on_rq, sched_delayed, rel_deadline,
//    exec_start, sum_exec_runtime, prev_sum_exec_runtime, tree membership
//    and insertion order), own cfs_rq->curr, rq->curr, nr_queued,
//    need_resched, hrtick expiry and reference point v0. No incremental sums
//    and no tree.
//  - V is recomputed from scratch whenever the kernel calls avg_vruntime():
//    V = v0 + floor(S / W), S = Σ w_i (s64)(v_i - v0), W = Σ w_i over the
//    tree and curr (if on_rq), w_i = scale_load_down(weight) (7.x: the full
//    weight), in 128 bits.
//    The kernel keeps S incrementally (avg_vruntime_add/sub when entities
//    enter and leave the tree, avg_vruntime_update when v0 moves, curr's term
//    added on the fly); every one of those steps is an addition or a
//    multiplication in s64 with -fno-strict-overflow, i.e. arithmetic mod
//    2^64, and a key changes only while its entity is out of the tree. So the
//    kernel's S is congruent to the exact Σ w_i key_i mod 2^64 at all times,
//    and equal to it whenever that exact value lies in s64 (the transient
//    wraps of intermediate sums cancel). Its floor division is then exact,
//    and V does not depend on where v0 is (floor(x + k) = floor(x) + k),
//    except when nothing is queued, where V = v0 itself: so v0 is tracked by
//    the version's rule (min_vruntime; zero_vruntime at tree updates;
//    zero_vruntime pulled by avg_vruntime()), which only then matters.
//  - Overflow: a state where the exact S, S - (W - 1), a key * W of an
//    eligibility test, a lag inflation or a reweight product leaves s64 is an
//    overflow state: the kernel's value is no longer the exact one. From the
//    first such state on nothing is compared (counted in overflow_states).
//  - Eligibility exactly: S >= key * W in 128 bits (equivalently v <= V).
//  - The pick by brute force: the eligible entity with the earliest deadline
//    (wrapped), among equal deadlines the one inserted into the tree first
//    (6.8+ trees are deadline-keyed, equal keys go right), curr only if
//    strictly earlier (6.12+). v6.6 keys the tree on vruntime and walks a
//    min_deadline heap: curr is kept against a single eligible queued
//    entity on equal deadlines, but with two or more eligible queued
//    entities a deadline tie (with curr or among them) is decided by the
//    tree's shape; such a pick is "undetermined": not compared, counted, and
//    the model's choice is adopted if it is one of the tied candidates.
//  - cfs_rq_min_slice()/cfs_rq_max_slice() as true extrema. The kernel
//    reads them from the root's augments, which its rotate/copy callbacks
//    do not carry (RB_DECLARE_CALLBACKS copies min_vruntime only) and
//    6.18.17's __enqueue_entity does not reset (max_slice): once slices are
//    mixed a protection end or a clamped lag computed from them depends on
//    the tree's history; where the model's differs it is adopted
//    (undetermined_slices).
//  - Hook protocol. The model reports a wakeup after the enqueue and before
//    wakeup_preempt(), so the preemption check is applied at the next hook;
//    need_resched is compared where the model's flag is that of the
//    stimulus alone (end of a tick, an attribute change, an event). A
//    schedule needs a reason (resched, block or yield); a resched still
//    pending when the running task makes its next call (wakes a task,
//    blocks, yields, changes an attribute) is a disagreement: the kernel
//    acts on it at the return to user space of the call that set it.
//  - Periodic ticks are stimuli: none while idle or (NO_HZ_FULL) with one
//    task queued; with exact ticks (no jitter) on the grid and none
//    missing. The hrtick is predicted (hrtick_start(): at least 10 us).
//  - After a disagreement the oracle copies the model's state (resync, on by
//    default) so that later, independent disagreements can still be found.
//
// Presets (KernelPreset::name): 6.6, 6.12, 6.15, 6.18 (= 6.18.0; alias
// "6.18.0"), 6.18.2, 6.18.5, 6.18.17 (alias "6.18.y"), 6.18.33 (alias
// "6.18.39", which differs only in fork placement across CPUs), 7.1.5 (its
// full-weight sums, 64-bit __calc_delta(), vprot apart from vlag, delayed
// lag floor and hrtick are rules of their own). The oracle refuses any other
// name.
//
// The 6.18.17 preset spans .17-.32; v0 follows 6.18.22 (zero_vruntime
// pulled in update_deadline(), .17-.21 pulled it in entity_tick()), which
// changes no decision. Features a version does not have (6.6: DELAY_*,
// PLACE_REL_DEADLINE, PREEMPT_SHORT) are ignored there. One CPU only: the
// constructor refuses a Config that simulates several.
//
// Task groups (CONFIG_FAIR_GROUP_SCHED, on the presets that model them:
// 6.18.x and 7.1.5). Each group has an entity and a cfs_rq of its own, and
// every rule above runs per cfs_rq (q(), chosen with On): V, eligibility,
// the pick, placement, lag and v0 of each level. The task-level functions
// walk the hierarchy as fair.c does: enqueue_task_fair() and
// dequeue_entities() up the chain (a group entity takes the smallest slice
// below it, a delayed group entity stops the walk, a sleeping task's group
// becomes the next buddy on every level above), the pick down it level by
// level (a delayed pick dequeued and the walk restarted), put/set only the
// levels that change, the tick on every level, wake-up preemption between
// the entities of curr and the wakee that share a cfs_rq
// (find_matching_se(), an idle one of the two losing to the other), the
// PICK_BUDDY test where each release has it. A group entity's weight is
// tg->shares (on one CPU calc_group_shares() gives exactly that whenever
// the group has load, update_cfs_group.cpp derives it), so no PELT is
// needed; a cpu.weight write reweights the queued entity in the release's
// form. Where a group slice or a queued reweight's lag comes from a
// possibly stale slice augment (a cfs_rq that saw mixed slices, without
// Config::exact_tree_augments), nothing is compared from then on
// (augment_skipped): those values are read again at every renewal and
// placement, so one adoption would not do.
//
// Files: rules.hpp and rules.cpp hold a release's rules (one Rules row per
// Version); avg_vruntime.cpp, update_curr.cpp, pick_eevdf.cpp,
// place_entity.cpp, enqueue_entity.cpp, wakeup_preempt.cpp,
// reweight_entity.cpp, yield_task_fair.cpp, wake_up_new_task.cpp and
// hrtick.cpp the kernel's rules, each named after the kernel function it
// follows; lockstep.cpp, lockstep_hooks.cpp and lockstep_compare.cpp the
// protocol above; internal.hpp what they share.
//
// Conventions taken from the model, not from the kernel: a task's nice and
// custom slice (TaskSpec) are in force when it forks; the tasks' programs
// call set_user_nice()/sched_setattr() only on themselves; NEXT_BUDDY is
// off and PICK_BUDDY only ever sees a group's entity (only groups set a
// buddy); group weights are set from their creation or by the running
// task's cpu.weight write, applied at the next hook; the
// hrtimer is high resolution; ticks are the model's (NO_HZ_IDLE: none while
// idle; NO_HZ_FULL: none with at most one task queued).
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/observer.hpp"
#include "model/simulation.hpp"

namespace eevdf::oracle {

// The releases the oracle has rules for, oldest first: rules.cpp has a row
// for each, in this order, and counts them up to the last enumerator.
enum class Version { V6_6, V6_12, V6_15, V6_18_0, V6_18_2, V6_18_5, V6_18_17, V6_18_33, V7_1_5 };

// The version a preset name follows, or nullopt (unknown to the oracle).
std::optional<Version> version_of(std::string_view preset_name);
std::string_view version_name(Version v);

struct Disagreement {
	u64 event = 0;          // Simulation::events() when it was found
	u64 t = 0;              // simulated time
	std::string stimulus;   // e.g. "wakeup of task 2 (waker 1)"
	std::string klass;      // e.g. "wakeup:deadline"
	std::string field;      // e.g. "deadline of task 2"
	std::string oracle;     // the oracle's value
	std::string model;      // the model's value
	std::string describe() const;
};

struct OracleCounters {
	u64 hooks = 0;              // hooks processed
	u64 comparisons = 0;        // state comparisons made
	u64 picks = 0;              // picks decided (schedule and wakeup preemption)
	u64 undetermined_picks = 0; // 6.6 tree-shape ties, not compared
	u64 undetermined_slices = 0; // vlag words from possibly stale min/max_slice augments, adopted
	u64 overflow_states = 0;    // hooks skipped after an s64 overflow state
	u64 augment_skipped = 0;    // hooks skipped after a group decision from a possibly stale augment
	u64 resyncs = 0;            // times the oracle adopted the model's state
};

class DecisionOracle : public Observer {
public:
	struct Options {
		bool resync = true;  // adopt the model's state after a disagreement
		size_t keep = 0;     // also keep the first `keep` disagreements of any class
	};
	struct Rules;  // a version's code paths (rules.hpp)

	// Throws std::invalid_argument if the preset is not one the oracle knows.
	explicit DecisionOracle(const Config& cfg) : DecisionOracle(cfg, Options{}) {}
	DecisionOracle(const Config& cfg, Options opt);

	void on_switch(const Simulation&, u64 t, int prev, int next, bool prev_runnable, u64 run_start) override;
	void on_wakeup(const Simulation&, u64 t, int task, int waker, bool new_task) override;
	void on_block(const Simulation&, u64 t, int task, bool delayed, bool exited) override;
	void on_reweight(const Simulation&, u64 t, int task, s64 vlag, u64 old_weight) override;
	void on_tick(const Simulation&, u64 t, bool hrtick) override;
	void on_schedule(const Simulation&, u64 t, int prev, int next) override;
	void on_yield(const Simulation&, u64 t, int task) override;
	void on_attr(const Simulation&, u64 t, int task) override;
	void on_event(const Simulation&, u64 t) override;
	void on_group_reweight(const Simulation&, u64 t, u32 cpu, size_t group) override;
	void on_group_shares(const Simulation&, u64 t, size_t group) override;
	void on_move_group(const Simulation&, u64 t, int task) override;

	bool agreed() const { return !first_.has_value(); }
	const std::optional<Disagreement>& first() const { return first_; }
	// The first disagreement of each class, in the order found.
	const std::vector<Disagreement>& classes() const { return classes_; }
	const std::vector<Disagreement>& all() const { return all_; }
	const OracleCounters& counters() const { return counters_; }
	Version version() const { return version_; }

	// A one-line summary: agreement or the first disagreement, plus counters.
	std::string report() const;
	// The oracle's own state, one line per task (for replays).
	std::string dump() const;

private:
	struct Ent {
		bool forked = false, exited = false;
		LoadWeight load;
		int nice = 0;
		u64 vruntime = 0, deadline = 0;
		u64 lagword = 0;  // se->vlag; also the 6.6-6.16 deadline stash and the 6.17 .. 6.18.y vprot (one word)
		u64 protword = 0; // 7.x: se->vprot, a field of its own
		u64 slice = 0;
		bool custom = false;
		bool idle = false;    // SCHED_IDLE: weight 3, se_is_idle()
		bool normal = true;   // normal_policy(): neither SCHED_BATCH nor SCHED_IDLE
		bool on_rq = false, delayed = false, rel_deadline = false;
		bool in_tree = false;
		u64 seq = 0;  // tree insertion order
		u64 exec_start = 0, sum_exec = 0, prev_sum_exec = 0;
		// The vlag word was last computed from cfs_rq_min_slice() or
		// cfs_rq_max_slice() while slices were mixed: the kernel reads
		// those from augments its rotations leave stale (shape-dependent).
		bool slice_augment_dependent = false;
		// The hierarchy: the cfs_rq this entity queues on (0: rq->cfs, g + 1:
		// group g's), the group cfs_rq it owns (-1: a task), its parent
		// entity (IDLE: none) and depth (0 on rq->cfs).
		int cfs = 0, my_q = -1, parent = IDLE, depth = 0;
		s64 vlag() const { return static_cast<s64>(lagword); }
	};
	// A cfs_rq: rq->cfs (index 0) or a group's (index g + 1).
	struct Q {
		int curr = IDLE;      // cfs_rq->curr
		int next = IDLE;      // cfs_rq->next (the PICK_BUDDY buddy)
		int se = IDLE;        // the group entity owning it (IDLE: rq->cfs)
		bool idle = false;    // cfs_rq_is_idle(): its group's cpu.idle
		u64 nr_queued = 0;    // entities queued here (curr and delayed ones included)
		u64 h_nr_queued = 0;  // tasks queued here and below
		u64 v0 = 0;           // min_vruntime / zero_vruntime
		u64 seen_slice = 0;          // the slice of the first entity put into the tree
		u64 min_seen_slice = ~0ULL;  // the smallest slice an entity in the tree had
		bool slices_mixed = false;   // some entity in the tree had another slice
	};
	// Runs the code between its construction and destruction on cfs_rq q
	// (the functions below act on the current cfs_rq, q()).
	class On {
	public:
		On(DecisionOracle& o, int q) : o_(o), saved_(o.cq_) { o.cq_ = q; }
		~On() { o_.cq_ = saved_; }
		On(const On&) = delete;
		On& operator=(const On&) = delete;
	private:
		DecisionOracle& o_;
		int saved_;
	};
	struct Pick {
		int chosen = IDLE;               // the entity, IDLE for none
		std::vector<int> tied;           // non-empty: undetermined among these (6.6)
	};

	// ---- hook plumbing (lockstep.cpp, lockstep_hooks.cpp, lockstep_compare.cpp)
	enum class Hook { Wakeup, Block, Reweight, Attr, Yield, Tick, Schedule, Event };
	bool begin(const Simulation& sim, u64 t, std::string stimulus, bool program_side, Hook hook);
	void apply_pending_wakeup(const Simulation& sim, Hook next);
	void end(const Simulation& sim, bool compare_resched);
	void disagree(const Simulation& sim, const std::string& klass, const std::string& field, const std::string& o,
		      const std::string& m);
	void compare(const Simulation& sim, bool compare_resched);
	void resync(const Simulation& sim);
	// The model's entity i (a task, or group i - ntasks_'s on CPU 0), its
	// cfs_rq qi, and the oracle's index of a model entity.
	const SchedEntity& model_se(const Simulation& sim, size_t i) const;
	const CfsRq& model_cfs_rq(const Simulation& sim, size_t qi) const;
	int model_id(const SchedEntity* se) const;
	std::string who_se(int i) const;
	void check_timers_before(const Simulation& sim, u64 t);
	void note_tick_need(u64 t);
	const Event* attr_event(const Simulation& sim, int task) const;

	// ---- V, eligibility, reference point (avg_vruntime.cpp)
	u64 avg_w(const Ent& e) const;
	void sums(s128& S, s128& W) const;
	void need_s64(s128 x);
	// div_s64(x * w_old, w_new) of a reweight: truncated, an s64 overflow noted.
	s64 wscale(s64 x, u64 old_w, u64 new_w);
	u64 v_now();
	u64 avg_vruntime();
	bool vruntime_eligible(u64 v);
	bool entity_eligible(const Ent& e) { return vruntime_eligible(e.vruntime); }
	void update_min_vruntime();
	void tree_insert(Ent& e);
	void tree_erase(Ent& e);
	u64 cfs_rq_min_slice() const;
	u64 cfs_rq_max_slice() const;
	void note_slice(u64 slice);
	u64 cdf(u64 delta, const Ent& e) const;

	// ---- fair.c and core.c (rules.cpp, update_curr.cpp, pick_eevdf.cpp, place_entity.cpp,
	// enqueue_entity.cpp, wakeup_preempt.cpp, reweight_entity.cpp, yield_task_fair.cpp,
	// wake_up_new_task.cpp, hrtick.cpp)
	bool feat(Feature f) const;
	Q& q() { return qs_[static_cast<size_t>(cq_)]; }
	const Q& q() const { return qs_[static_cast<size_t>(cq_)]; }
	Ent& ent(int i) { return ents_[static_cast<size_t>(i)]; }
	Ent* cur() { return q().curr == IDLE ? nullptr : &ent(q().curr); }
	int id_of(const Ent& e) const { return static_cast<int>(&e - ents_.data()); }
	// resched_curr(): TIF_NEED_RESCHED. resched_curr_lazy() (fair.c's, 6.13+):
	// under PREEMPT_LAZY, for a running task, TIF_NEED_RESCHED_LAZY, which
	// the wake-up preemption's test_tsk_need_resched() does not see.
	void resched_curr()
	{
		need_resched_ = true;
		resched_lazy_ = false;
	}
	void resched_curr_lazy()
	{
		if (need_resched_)
			return;
		need_resched_ = true;
		resched_lazy_ = cfg_.preempt == Preempt::Lazy && running_ != IDLE;
	}
	void update_curr();
	bool update_deadline(Ent& e);
	bool did_preempt_short(Ent& c);
	bool do_preempt_short(Ent& pse, Ent& se);
	// The word slice protection lives in: vlag's (a union up to 6.18.y) or,
	// from 7.0, vprot's own.
	u64& prot(Ent& e) const;
	u64 prot(const Ent& e) const;
	bool protect_slice(const Ent& e) const { return wrapped_diff(prot(e), e.vruntime) > 0; }
	void set_protect_slice(Ent& e);
	void update_protect_slice(Ent& e);
	void cancel_protect_slice(Ent& e);
	Pick pick_eevdf(bool protect);
	Pick pick_eevdf_66();
	bool update_entity_lag(Ent& e);  // true: vlag != V - v
	void place_entity(Ent& e, unsigned flags);
	void enqueue_entity(Ent& e, unsigned flags);
	bool dequeue_entity(Ent& e, unsigned flags);
	void requeue_delayed_entity(Ent& e);
	void set_next_entity(Ent& e, bool first);
	void put_prev_entity(Ent& e);
	void reweight_off_queue(Ent& e, const LoadWeight& lw);
	void hrtick_start_fair(Ent& e, bool current);
	void hrtick_update();
	void hrtick_clear();
	// 7.x (core.c): starts inside __schedule() are noted and the last armed
	// at its exit; an armed timer within 5 us of a new expiry is kept;
	// hrtick_update() only from enqueue, only with none armed.
	void hrtick_update_enqueued();
	void hrtick_start(u64 delay);
	void hrtick_cond_restart(u64 at);
	void hrtick_schedule_exit(bool idle);
	bool idle_curr_preempted(Ent& se, const Ent& pse);
	void check_preempt_wakeup_fair(int pse, unsigned wake_flags);
	void wakeup_preempt(const Simulation& sim, int p, unsigned wake_flags);
	int pick_next_task(const Simulation& sim, int model_next);
	int pick_next_task_66(const Simulation& sim, int model_next);  // v6.6 pick_next_task_fair()
	void switch_levels(int prev, int next);  // put prev's levels, set next's
	int resolve(const Simulation& sim, const Pick& p, int model_choice, const char* what);
	void yield_task_fair();
	// model_vlag: the model's lag saved at the dequeue, adopted if the
	// oracle's depended on a possibly stale max_slice augment.
	void set_user_nice(Ent& e, int nice, const s64* model_vlag);
	void sched_setattr_runtime(Ent& e, u64 runtime, const s64* model_vlag);
	void adopt_saved_lag(Ent& e, const s64* model_vlag);
	void prio_changed_fair(const Simulation& sim, Ent& e, int old_prio);
	void fork_task(const Simulation& sim, int task);

	// ---- the hierarchy (CONFIG_FAIR_GROUP_SCHED; enqueue_task_fair.cpp,
	// update_cfs_group.cpp, pick_eevdf.cpp, wakeup_preempt.cpp)
	void build_hierarchy(const Simulation& sim);
	int group_se(size_t g) const { return static_cast<int>(ntasks_ + g); }
	bool se_is_idle(const Ent& e) const { return e.my_q < 0 ? e.idle : qs_[static_cast<size_t>(e.my_q)].idle; }
	u64 min_slice_of(int cfs);  // cfs_rq_min_slice() of another cfs_rq
	void set_group_slice(Ent& e, u64 slice, int from);
	void enqueue_task_fair(int task, unsigned flags);
	int dequeue_entities(int se, unsigned flags);  // -1: the task was delayed
	void put_prev_task_fair(int task);
	void set_next_task_fair(int task, bool first);
	void set_next_buddy(int se);
	void clear_buddies(int cfs, int se);
	void find_matching_se(int& se, int& pse) const;
	int pick_next_entity(const Simulation& sim, int model_next, bool protect);
	void task_tick_fair(bool queued);
	void sync_group_shares(const Simulation& sim);
	void update_cfs_group(Ent& e);
	void reweight_queued(Ent& e, const LoadWeight& lw);
	void reweight_eevdf(Ent& e, const LoadWeight& lw, bool is_curr);  // 6.7 .. 6.12
	void note_stale_lag_clamp(bool dependent);

	const Config cfg_;
	Version version_;
	const Rules* rules_;
	Options opt_;

	std::vector<Ent> ents_;
	// Tasks first (ids as the model's), then one entity per group (group g:
	// ntasks_ + g); qs_[0] is rq->cfs, qs_[g + 1] group g's cfs_rq.
	std::vector<Q> qs_;
	int cq_ = 0;          // the cfs_rq the code runs on (On)
	size_t ntasks_ = 0;
	std::vector<u64> tg_shares_;  // tg->shares per group, as last applied
	int running_ = IDLE;  // rq->curr (IDLE: the idle task)
	u64 seq_ = 0;
	u64 now_ = 0;
	bool need_resched_ = false;
	bool resched_lazy_ = false;  // need_resched_ is only the lazy flag
	u64 hrtick_at_ = ~0ULL;
	bool hrtick_cleared_by_block_ = false;
	bool in_schedule_ = false, hrtick_pending_ = false;
	u64 hrtick_delay_ = 0;
	bool overflow_ = false;
	bool started_ = false;
	// A group slice or a queued reweight's lag from a possibly stale slice
	// augment: nothing is compared from then on (augment_skipped).
	bool stale_augment_ = false;
	u64 last_tick_ = 0;
	bool tick_seen_ = false;
	u64 tick_needed_since_ = ~0ULL;

	// the stimulus being processed, for reports
	std::string stimulus_;
	u64 t_ = 0;
	u64 event_ = 0;
	bool undetermined_now_ = false;
	// The model reports a wakeup (on_wakeup) after the enqueue and before
	// wakeup_preempt(): the preemption check is applied at the next hook.
	struct PendingWakeup {
		int task = IDLE;
		unsigned wake_flags = 0;
		bool hrtick_update = false;  // enqueue_task_fair() ended with hrtick_update()
		std::string stimulus;
	} pending_;
	bool schedule_requested_ = false;  // a block or yield calls schedule() itself
	// set_user_nice() done at on_reweight, awaiting its on_attr
	int nice_done_at_reweight_ = IDLE;
	s64 saved_vlag_ = 0;
	u64 saved_old_weight_ = 0;
	int saved_old_prio_ = 0;

	u64 disagreements_ = 0, disagreements_at_begin_ = 0;
	OracleCounters counters_;
	std::optional<Disagreement> first_;
	std::vector<Disagreement> classes_;
	std::vector<Disagreement> all_;
	std::map<std::string, size_t> class_index_;
};

}  // namespace eevdf::oracle
