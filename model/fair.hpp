// SPDX-License-Identifier: GPL-2.0-only
// struct cfs_rq and the EEVDF functions of kernel/sched/fair.c that act on it,
// and the task level of the fair class that walks the group hierarchy
// (for_each_sched_entity: model/fair_task.cpp). Function names are the
// kernel's; each cites the version whose behaviour it follows, and
// Config::preset selects the variant where versions differ.
#pragma once

#include <vector>

#include "model/config.hpp"
#include "model/sched_entity.hpp"
#include "model/timeline.hpp"
#include "model/warn.hpp"
#include "model/wrapping.hpp"

namespace eevdf {

struct TaskGroup;

// enqueue/dequeue flags (kernel/sched/sched.h), the subset a flat model uses.
enum : unsigned {
	ENQUEUE_WAKEUP = 0x01,
	ENQUEUE_RESTORE = 0x02,
	ENQUEUE_MIGRATED = 0x40,
	ENQUEUE_INITIAL = 0x80,
	ENQUEUE_DELAYED = 0x200,
	DEQUEUE_SLEEP = 0x01,
	DEQUEUE_SAVE = 0x02,
	DEQUEUE_MOVE = 0x04,
	DEQUEUE_SPECIAL = 0x10,
	DEQUEUE_MIGRATING = 0x100,  // the task is being moved by the balancer (TASK_ON_RQ_MIGRATING)
	DEQUEUE_DELAYED = 0x200,
};

// wake_flags (kernel/sched/sched.h, 6.18).
enum : unsigned {
	WF_EXEC = 0x02,
	WF_FORK = 0x04,
	WF_TTWU = 0x08,
	WF_SYNC = 0x10,
	WF_MIGRATED = 0x20,
	// The unmerged mid-2025 series (peterz/queue sched/ttwu, patch 12 "sched:
	// Add ttwu_queue support for delayed tasks"): the wake-up of a delayed
	// task, sent to its CPU's wakelist. Experimental: Feature::TTWU_QUEUE_DELAYED.
	WF_DELAYED = 0x200,
};

// sched_setattr(): sched_runtime is clamped to [0.1 ms, 100 ms] (857b158dc5e8).
inline u64 clamp_custom_slice(u64 ns)
{
	return ns < NSEC_PER_MSEC / 10 ? NSEC_PER_MSEC / 10 : (ns > NSEC_PER_MSEC * 100 ? NSEC_PER_MSEC * 100 : ns);
}

class CfsRq {
public:
	explicit CfsRq(const Config& cfg);

	// ---- rq clock: set by the core before calling in, like update_rq_clock().
	u64 clock_task = 0;
	// clock_pelt (= clock_task without frequency or capacity scaling) as
	// PELT sees it. The kernel's clocks never read 0 (they count from boot),
	// while last_update_time == 0 means "not attached"; so PELT's clock starts
	// at an origin that is a whole number of PELT periods (2^30 ns = 1024
	// periods of 2^20 ns), which keeps every period boundary where it is at 0.
	static constexpr u64 PELT_CLOCK_ORIGIN = 1ULL << 30;
	u64 pelt_now() const { return rq_root().clock_task + PELT_CLOCK_ORIGIN; }
	// TIF_NEED_RESCHED or TIF_NEED_RESCHED_LAZY on the running task; the core
	// acts on either and clears both.
	bool need_resched = false;
	// need_resched is only TIF_NEED_RESCHED_LAZY (PREEMPT_LAZY, 6.13+): no IPI
	// was sent, and the wake-up preemption check still runs.
	bool resched_lazy = false;
	// resched_curr_lazy() (core.c, 6.13+): the lazy flag under PREEMPT_LAZY
	// for a running task, the full one otherwise; nothing if either is set.
	void resched_curr_lazy();
	// resched_curr(): the full flag, on top of a lazy one too.
	void resched_curr()
	{
		rq_root().need_resched = true;
		rq_root().resched_lazy = false;
	}
	// test_tsk_need_resched(rq->curr): the full flag only (6.13 .. 7.1).
	bool test_tsk_need_resched() const { return rq_root().need_resched && !rq_root().resched_lazy; }
	// Picks that found no eligible entity (impossible unless arithmetic overflowed).
	u64 pick_failures = 0;
	// The WARN_ON_ONCE() sites of fair.c that fired here (model/warn.hpp).
	mutable Warnings warnings;  // mutable: a WARN fires in const functions too (pick_eevdf())
	// Called after a pick (at __schedule() or a 6.18.33+ wake-up) dequeued a
	// delayed entity for good: the rest of dequeue_entities(), which is the
	// core's (hrtick_update() for rq->donor).
	void (*after_delayed_dequeue)(void*) = nullptr;
	void* after_delayed_dequeue_arg = nullptr;
	// dequeue_entities()' "balance early to pull high priority tasks": a
	// dequeue that leaves only SCHED_IDLE tasks queued makes the core set
	// rq->next_balance = jiffies (6.6 .. 7.1).
	void (*became_sched_idle)(void*) = nullptr;
	void* became_sched_idle_arg = nullptr;

	// ---- state (public for the invariant checker; mutate only through methods)
	u64 load = 0;          // Σ full weights of queued entities, curr and delayed included
	u64 nr_queued = 0;     // queued entities (tasks and groups) on this cfs_rq, curr and delayed included
	u64 h_nr_queued = 0;   // tasks queued here and in every group below (h_nr_running before 6.14)
	u64 nr_delayed = 0;    // of those, delayed tasks: h_nr_queued - h_nr_runnable
	// Of those, the idle ones, delayed included (idle_h_nr_running before
	// 6.14): SCHED_IDLE tasks, and every task in an idle group below this
	// cfs_rq (an idle cfs_rq counts its own tasks by policy; the levels
	// above count all of them).
	u64 h_nr_idle = 0;
	bool idle = false;     // cfs_rq->idle: its group's cpu.idle (cfs_rq_is_idle())
	SchedEntity* next = nullptr;  // the next buddy (set_next_buddy(), PICK_BUDDY 6.14+)
	TaskGroup* tg = nullptr;  // the group this cfs_rq belongs to; nullptr: the root
	SchedEntity* tg_se = nullptr;  // tg->se[cpu_of(rq)]: the group's entity owning this cfs_rq
	// That entity's se->runnable_weight, kept here so a task's entity stays
	// small: this cfs_rq's h_nr_runnable when se_update_runnable() last ran.
	u32 se_runnable_weight = 0;
	// update_tg_load_avg(): this cfs_rq's load_avg as tg->load_avg last took
	// it, and when (sched_clock of this CPU; NEVER before the first).
	s64 tg_load_avg_contrib = 0;
	u64 last_update_tg_load_avg = ~0ULL;
	s64 avg_vruntime_sum = 0;  // cfs_rq->avg_vruntime: Σ_tree key_i * w_i
	u64 avg_load = 0;          // Σ_tree avg_weight(i): scale_load_down(w_i), or w_i on 7.x
	u64 ref_vruntime;          // min_vruntime (<= 6.18.0) or zero_vruntime (6.18.y)
	SchedEntity* curr = nullptr;
	Timeline timeline;
	// The last reweight_entity() of a queued entity here (a group entity's
	// share change), as update_curr() left it just before: what the
	// checker's "reweight" rule for group entities holds the result to.
	struct QueuedReweightSeen {
		const SchedEntity* se = nullptr;
		u64 avg_vruntime = 0, vruntime = 0, deadline = 0;
		u64 old_weight = 0;
		u64 lag_limit = 0;  // |V - v| at or past this was clamped
		bool was_curr = false;
	} last_queued_reweight;
	// rq->cfs_tasks (a flat model has one cfs_rq per rq): queued tasks, most
	// recently picked at the head; the load balancer detaches from the tail.
	SchedEntity* tasks_head = nullptr;
	SchedEntity* tasks_tail = nullptr;
	CfsRqAvg avg;  // PELT of the cfs_rq (model/pelt.hpp)

	const Config& cfg() const { return *cfg_; }

	// ---- the hierarchy (CONFIG_FAIR_GROUP_SCHED). A group's cfs_rq on a
	// CPU reaches that CPU's rq state (its clock, resched flags, cfs_tasks,
	// WARN sites, the core's callbacks) through the CPU's root cfs_rq, which
	// holds it: rq_of(cfs_rq). The root cfs_rq is its own.
	void attach_to_rq(CfsRq* root) { rq_cfs_ = root; }
	CfsRq& rq_root() { return rq_cfs_ ? *rq_cfs_ : *this; }
	const CfsRq& rq_root() const { return rq_cfs_ ? *rq_cfs_ : *this; }
	bool is_root() const { return rq_cfs_ == nullptr; }
	// cfs_rq_of(se): the cfs_rq se is queued on (its parent's my_q, or the root).
	CfsRq& cfs_rq_of(const SchedEntity* se) { return se->parent ? *se->parent->my_q : rq_root(); }
	// rq->curr of the fair class: curr of the root, and below a group's
	// entity the curr of the group's cfs_rq, down to the task (nullptr:
	// the idle task runs).
	SchedEntity* curr_task() const
	{
		SchedEntity* se = curr;
		while (se && se->my_q)
			se = se->my_q->curr;
		return se;
	}
	// PELT and util_est feed only CPU selection and the load balancer. With
	// one CPU nothing reads them, so the model does not compute them there:
	// the schedule is the same, and a third of the event cost goes.
	bool tracks_load() const { return cfg_->cpus > 1; }
	// sched_idle_rq(): tasks are queued and all are SCHED_IDLE (the rq has
	// only fair tasks, so rq->nr_running is the root's h_nr_queued).
	bool sched_idle_rq() const { return h_nr_queued && h_nr_queued == h_nr_idle; }

	// ---- V and eligibility (fair.c, 6.6 - 6.18)
	s64 entity_key(const SchedEntity* se) const { return wrapped_diff(se->vruntime, ref_vruntime); }
	// The weight an entity has in the avg_vruntime sums: scale_load_down()
	// up to 6.18, the full load.weight from 7.0 (avg_vruntime_weight()).
	s64 avg_weight(const SchedEntity* se) const
	{
		return static_cast<s64>(paths_->avg_full_weight ? se->load.weight : scale_load_down(se->load.weight));
	}
	// calc_delta_fair() in the preset's __calc_delta.
	u64 vdelta(u64 delta, LoadWeight& lw) const { return calc_delta_fair(delta, lw, paths_->calc_delta_divides); }
	u64 avg_vruntime() const;
	bool vruntime_eligible(u64 vruntime) const;
	// vruntime_eligible() with its two sums taken once, for a pick that
	// tests many entities against the same V.
	struct Eligibility {
		s64 avg;   // Σ key_i w_i, curr included
		s64 wsum;  // Σ w_i, curr included
		u64 ref;   // v0
		bool strict;  // Bug::ELIGIBLE_STRICT
		bool wide;    // 7.x: the product in 128 bits (key * W overflows s64 at full weights)
		bool operator()(u64 vruntime) const
		{
			const s64 key = wrapped_diff(vruntime, ref);
			if (wide) {
				const s128 rhs = static_cast<s128>(key) * wsum;
				return strict ? avg > rhs : avg >= rhs;
			}
			const s64 rhs = static_cast<s64>(static_cast<u64>(key) * static_cast<u64>(wsum));
			return strict ? avg > rhs : avg >= rhs;
		}
	};
	Eligibility eligibility() const;
	bool entity_eligible(const SchedEntity* se) const { return vruntime_eligible(se->vruntime); }
	u64 cfs_rq_min_slice() const;
	u64 cfs_rq_max_slice() const;

	// ---- accounting
	void update_curr();  // charge curr up to clock_task; may renew its deadline and ask for a resched
	bool update_deadline(SchedEntity* se);

	// ---- slice protection (RUN_TO_PARITY)
	bool protect_slice(const SchedEntity* se) const;
	// 6.17+: where se's protection ends (se->vprot); meaningless before.
	u64 protect_end(const SchedEntity* se) const { return vprot_of(se); }
	void set_protect_slice(SchedEntity* se);
	void update_protect_slice(SchedEntity* se);
	void cancel_protect_slice(SchedEntity* se);

	// ---- picking (pick_next_entity() also takes the buddy on 6.14 .. 6.18.32)
	SchedEntity* pick_eevdf_protect(bool protect) const;  // __pick_eevdf()
	SchedEntity* pick_eevdf_66() const;                   // v6.6's, over its vruntime-keyed tree
	SchedEntity* pick_eevdf() const { return pick_eevdf_protect(true); }
	// pick_next_entity(): nullptr after it finally dequeued a delayed pick
	// (or when the pick failed: pick_failures counts those).
	SchedEntity* pick_next_entity(bool protect = true);
	void set_next_entity(SchedEntity* se, bool first);
	void put_prev_entity(SchedEntity* prev);

	// ---- the task level, called on the root cfs_rq (model/fair_task.cpp):
	// each walks the task's entity and the group entities above it.
	// pick_next_task_fair(): pick down the levels (pick_task_fair(),
	// restarting while a pick finally dequeues a delayed entity), then put
	// prev's levels back and set next's, up to the group they share. nullptr:
	// nothing to run (or a failed pick).
	SchedEntity* pick_next_task_fair();
	void put_prev_task_fair(SchedEntity* prev);            // every level of prev
	void set_next_task_fair(SchedEntity* se, bool first);  // every level of se, bottom up
	// util_est on the root around the walks. ENQUEUE_DELAYED requeues a
	// delayed task in place. false: the task stays queued, delayed.
	void enqueue_task_fair(SchedEntity* se, unsigned flags);
	bool dequeue_task_fair(SchedEntity* se, unsigned flags);
	// dequeue_entities(): false when se (a task) was only delayed.
	bool dequeue_entities(SchedEntity* se, unsigned flags);
	void task_tick_fair(bool queued);
	// detach_entity_cfs_rq() of a task off the queue (task_change_group_fair(),
	// on the cfs_rq it leaves): its load out of this cfs_rq's averages.
	void detach_entity_cfs_rq(SchedEntity* se) { update_load_avg(se, DO_DETACH); }
	// se_is_idle(): a SCHED_IDLE task, or the entity of an idle group.
	static bool se_is_idle(const SchedEntity* se) { return se->my_q ? se->my_q->idle : se->idle_policy; }
	// set_next_buddy(): se and its group entities become their cfs_rqs' next.
	void set_next_buddy(SchedEntity* se);
	// clear_buddies() on the cfs_rq se is queued on: se stops being the
	// buddy (__clear_buddies_next(): and its group entities while they are
	// theirs). Inline: without groups nothing is ever the buddy.
	void clear_buddies(SchedEntity* se)
	{
		if (next == se) [[unlikely]]
			clear_buddies_next(se);
	}
	void clear_buddies_next(SchedEntity* se);

	// ---- queueing
	void place_entity(SchedEntity* se, unsigned flags);
	bool update_entity_lag(SchedEntity* se);  // true: se->vlag != V - vruntime (clamped)
	void enqueue_entity(SchedEntity* se, unsigned flags);
	bool dequeue_entity(SchedEntity* se, unsigned flags);  // false: delayed, still queued
	void requeue_delayed_entity(SchedEntity* se);

	// ---- events
	// On the root: the woken task against rq->curr, compared at the level of
	// the group they share (find_matching_se()).
	void check_preempt_wakeup_fair(SchedEntity* pse, unsigned wake_flags);
	void entity_tick(bool queued);  // this level's curr
	void yield_task_fair();
	void reweight_entity(SchedEntity* se, const LoadWeight& lw);
	// __sched_group_set_shares() on this CPU: the group's entity and every
	// one above it take their shares (update_cfs_group()), queued or not.
	void update_group_shares(SchedEntity* group_se);
	// update_cfs_group(): a group entity takes its share (one CPU:
	// tg->shares); nothing for a task.
	void update_cfs_group(SchedEntity* se)
	{
		if (se->my_q) [[unlikely]]
			update_group_entity_shares(se);
	}
	void update_group_entity_shares(SchedEntity* se);
	// calc_group_shares() of this group cfs_rq (model/update_cfs_group.cpp).
	u64 calc_group_shares() const;
	// update_tg_load_avg(): fold this cfs_rq's load_avg change into
	// tg->load_avg, only past 1/64 of the last (6.7+: at most once per ms).
	void update_tg_load_avg();
	// PELT's runnable count: h_nr_runnable (6.13+), h_nr_running (6.12,
	// delayed tasks included: KernelPaths::pelt_runnable_skips_delayed).
	u32 pelt_runnable() const
	{
		return static_cast<u32>(h_nr_queued - (paths_->pelt_runnable_skips_delayed ? nr_delayed : 0));
	}
	// se_update_runnable(): a group's entity caches its cfs_rq's count.
	static void se_update_runnable(SchedEntity* se)
	{
		if (se->my_q)
			se->my_q->se_runnable_weight = se->my_q->pelt_runnable();
	}
	// update_cfs_rq_h_load() of this cfs_rq and every one above it (top
	// down, at most once per jiffy each), then task_h_load() of a task
	// queued or last queued here: the task's load as the root sees it.
	void update_cfs_rq_h_load(u64 jiffies);
	// This cfs_rq's step of __update_blocked_fair(); true: load or util left.
	bool update_blocked_averages();

	// The leaf cfs_rq list (CONFIG_FAIR_GROUP_SCHED; fair.c of 6.18.44 and
	// 7.1.5 alike): a cfs_rq (a group's or the root) joins its CPU's list
	// when an enqueue gives it its first entity (enqueue_entity(),
	// nr_queued == 1), and __update_blocked_fair() ages only the cfs_rqs on
	// it, front to back, dropping each one it finds fully decayed, so idle
	// groups cost the balancer nothing. The order is the kernel's: a cfs_rq
	// whose parent is listed goes just before it, the root at the tail, and
	// a branch whose parent is not listed yet is built at tmp_alone_branch
	// (the enqueue adds it bottom up). Siblings thus keep the order they
	// joined in, which matters: each child's step updates the parent's
	// tg->load_avg contribution, and the 1 ms ratelimit lets only the first
	// through. Returns true when the branch is connected (list_add_leaf_cfs_rq()).
	bool list_add_leaf_cfs_rq();
	void list_del_leaf_cfs_rq();
	void leaf_link_after(CfsRq* prev);
	// cfs_rq_is_decayed(): no load queued, every PELT sum 0, no child on
	// the list (child_cfs_rq_on_list(): the entry before this one, or
	// tmp_alone_branch if it is not listed, is a child), nothing in
	// tg->load_avg.
	bool cfs_rq_is_decayed() const;
	bool child_cfs_rq_on_list() const;
	bool on_list = false;
	// The list itself is intrusive, as the kernel's list_head: each listed
	// cfs_rq links to its neighbours (nullptr: the head), and the root
	// holds the ends and tmp_alone_branch, the entry after which a branch
	// not yet connected grows (nullptr: the head, as after every enqueue).
	// Adding, removing and the child test are O(1), with no allocation.
	CfsRq* leaf_prev = nullptr;
	CfsRq* leaf_next = nullptr;
	CfsRq* leaf_first = nullptr;  // the root's: head->next
	CfsRq* leaf_last = nullptr;   // the root's: head->prev
	CfsRq* tmp_alone_branch = nullptr;
	u64 task_h_load(const SchedEntity* p, u64 jiffies);

	// The kernel's pre-pick step for curr (pick_task_fair(): update_curr if curr is queued).
	void update_curr_if_queued()
	{
		if (curr && curr->on_rq)
			update_curr();
	}

private:
	void avg_vruntime_add(const SchedEntity* se);
	void avg_vruntime_sub(const SchedEntity* se);
	void avg_vruntime_update(s64 delta);
	void update_min_vruntime();
	void update_zero_vruntime();
	void enqueue_in_tree(SchedEntity* se);    // __enqueue_entity()
	void dequeue_from_tree(SchedEntity* se);  // __dequeue_entity()
	void finish_delayed_dequeue_entity(SchedEntity* se);
	// set_delayed() / clear_delayed() (6.14+): a delayed task stops counting
	// as runnable on every level above it; a group entity changes nothing.
	void set_delayed(SchedEntity* se);
	void clear_delayed(SchedEntity* se);
	void check_preempt_matched(SchedEntity* pse, SchedEntity* se, const SchedEntity* p, unsigned wake_flags);
	void yield_entity(SchedEntity* se);
	void switch_group_levels(SchedEntity* prev, SchedEntity* se);
	// A walk's step on a group's entity queued here: its new slice, and
	// the tree's augmented min/max slice above it (fair_queue.cpp).
	void set_group_slice(SchedEntity* se, u64 slice);
	void propagate_slice(SchedEntity* se);
	void reweight_entity_queued(SchedEntity* se, const LoadWeight& lw);
	void reweight_entity_queued_66(SchedEntity* se, const LoadWeight& lw);  // 6.6.0: v kept
	void reweight_eevdf(SchedEntity* se, const LoadWeight& lw);             // 6.7 .. 6.12: v, d about V
	void util_est_sample(SchedEntity* se);
	// update_load_avg(cfs_rq, se, flags) at clock_task (= clock_pelt here).
	void update_load_avg(SchedEntity* se, int flags);
	void list_add_task(SchedEntity* se);
	void list_del_task(SchedEntity* se);
	void list_move_task_head(SchedEntity* se);
	bool did_preempt_short(const SchedEntity* curr) const;
	bool do_preempt_short(const SchedEntity* pse, const SchedEntity* se) const;
	bool preempt_idle_curr(const SchedEntity* pse, SchedEntity* se);
	void wakeup_preempt_pick(SchedEntity* pse, SchedEntity* se);
	void wakeup_preempt_protect_param(SchedEntity* pse, SchedEntity* se);
	void wakeup_preempt_actions(SchedEntity* pse, SchedEntity* se, unsigned wake_flags);
	u64& vprot_of(SchedEntity* se) const;
	u64 vprot_of(const SchedEntity* se) const;
	u64 lag_limit(SchedEntity* se) const;
	s64 entity_lag(u64 avruntime, SchedEntity* se) const;
	bool feat(Feature f) const { return cfg_->features[f]; }
	bool buddy_in_pick_eevdf(bool protect) const
	{
		return paths_->pick_buddy == KernelPaths::PickBuddy::InPickEevdf ||
		       (paths_->pick_buddy == KernelPaths::PickBuddy::InPickEevdfProtect && protect);
	}
	bool bug(Bug b) const { return cfg_->bugs[b]; }

	Warnings& warn() const { return rq_root().warnings; }

	const Config* cfg_;
	const KernelPaths* paths_;
	CfsRq* rq_cfs_ = nullptr;  // the CPU's root cfs_rq; nullptr: this is it
};

// ---- inline: small functions on every pick's path, defined here so the
// files of the fair class (fair*.cpp) share them without a call each.

inline CfsRq::Eligibility CfsRq::eligibility() const
{
	Eligibility e{avg_vruntime_sum, static_cast<s64>(avg_load), ref_vruntime, bug(Bug::ELIGIBLE_STRICT),
		      paths_->avg_full_weight};

	if (curr && curr->on_rq) {
		e.avg = wadd(e.avg, wmul(entity_key(curr), avg_weight(curr)));
		e.wsum += avg_weight(curr);
	}
	return e;
}

inline u64& CfsRq::vprot_of(SchedEntity* se) const
{
	// 6.17 / 6.18.0 keep vprot in a union with vlag (split by 80390ead2080).
	if (paths_->vprot_is_vlag)
		return reinterpret_cast<u64&>(se->vlag);
	return se->vprot;
}

inline u64 CfsRq::vprot_of(const SchedEntity* se) const
{
	return paths_->vprot_is_vlag ? static_cast<u64>(se->vlag) : se->vprot;
}

inline bool CfsRq::protect_slice(const SchedEntity* se) const
{
	if (paths_->protect == KernelPaths::Protect::VlagStash)
		return static_cast<u64>(se->vlag) == se->deadline;
	return wrapped_diff(vprot_of(se), se->vruntime) > 0;
}
// list_add() at the head, list_del(), list_move() to the head.
inline void CfsRq::list_add_task(SchedEntity* se)
{
	se->group_prev = nullptr;
	se->group_next = tasks_head;
	if (tasks_head)
		tasks_head->group_prev = se;
	else
		tasks_tail = se;
	tasks_head = se;
}

inline void CfsRq::list_del_task(SchedEntity* se)
{
	(se->group_prev ? se->group_prev->group_next : tasks_head) = se->group_next;
	(se->group_next ? se->group_next->group_prev : tasks_tail) = se->group_prev;
	se->group_prev = se->group_next = nullptr;
}

inline void CfsRq::list_move_task_head(SchedEntity* se)
{
	if (tasks_head == se)
		return;
	list_del_task(se);
	list_add_task(se);
}

}  // namespace eevdf
