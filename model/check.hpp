// SPDX-License-Identifier: GPL-2.0-only
// The invariant checker: the one place that states what must hold after
// every event of the model. Unit tests, properties, fuzzers and
// `eevdf sim --check` all attach this observer.
//
// What it asserts (kernel-eevdf.md §18.3), after every event:
//  sums      avg_load, avg_vruntime, load, nr_queued, nr_delayed equal a
//            recount; no key * weight product reaches 2^62 (79f3f9bedd14)
//  tree      in-order deadlines non-decreasing, curr not in the tree, the
//            augmented min_vruntime/min_slice/max_slice and the leftmost
//            cache equal a recomputation
//  V         avg_vruntime() == floor(Σ key w / W) + v0 (650cad561cce) and
//            every entity_eligible() equals the exact test v <= V
//  pick      __pick_eevdf(protect) equals the brute-force pick for both
//            protect values, and is never NULL with a non-empty queue
//            (b01db23d5923, b6eee96843e8): at least one entity is eligible
//  lag       Σ w_i (V - v_i) lies in (-W, 0] (V is floored); every saved
//            vlag of a task off the queue is within the clamp; placement
//            with PLACE_LAG restores the saved lag within 2 ns
//  reweight  a nice change keeps the task's lag (w_old/w_new rescaled); a
//            cpu.weight write that reweights a queued group entity keeps its
//            lag (6.13-6.18.44: unless it is running, 6d71a9c61604's
//            placement counts curr in V) and its request's length, and on
//            7.x (101f3498b4bd) keeps V and the deadline's distance from V
//  vruntime  a queued task's vruntime never decreases while it stays queued
//            with the same weight (7.x: except at the wake-up of a delayed
//            task, which restores its lag at the delay); min_vruntime never
//            moves backwards
//  deadline  every queued entity has d >= v (wrapped); d > v except after a
//            reweight truncated a tiny relative deadline to 0; d - v <=
//            cdf(slice) while d was set by a placement or renewal at the
//            present weight and slice (the proofs' 0 < d - v <= vslice)
//  request   6.17+: curr's protection ends by its deadline, vprot <= d
//  others    a queued entity that is not running keeps its v and d: only
//            curr moves (unless re-placed, reweighted or migrated)
//  slices    a custom slice is within [0.1 ms, 100 ms]; others equal the base
//  clock     every event happens at the simulation's now, and now never goes
//            back from one event to the next
//  time      busy + idle == now; the CPU is idle only with nothing queued;
//            a runnable task is queued, a sleeping one only if delayed
//  tick      ticks are at least TICK_NSEC - jitter apart (each owns its grid
//            point) and at most TICK_NSEC + jitter while the tick keeps
//            running; a running tick is due within TICK_NSEC + jitter; with more
//            than one task queued a tick whose update_curr
//            renewed curr's deadline, or (6.17+) found it unprotected,
//            asks for a resched, and never with one task; NO_HZ_FULL stops
//            the tick only with at most one task queued, and a running tick
//            stays on its grid (without jitter)
//  delayed   an entity is delayed only while ineligible, is never curr after
//            a pick, and leaves (DELAY_ZERO) with vlag <= 0
//  several CPUs (each rule above holds per rq):
//  smp       a runnable task is queued on exactly one rq, or waits on exactly
//            one wakelist (not both, but for a TTWU_QUEUE_DELAYED wake-up of
//            a task still delayed there); curr's task_cpu() is its CPU; the
//            queued tasks add up to the rqs' nr_queued
//  runnable  no runnable task is lost (neither queued nor on a wakelist)
//  tg-load   each group's tg->load_avg is the sum of its cfs_rqs'
//            tg_load_avg_contrib (update_tg_load_avg() moves both by one
//            delta); and (with hierarchy) a loaded group entity weighs
//            within calc_group_shares()' clamp [MIN_SHARES, tg->shares],
//            exactly tg->shares on one CPU
//  affinity  a queued or waking task is on an allowed CPU
//  migration a task moved while queued arrives with the lag and relative
//            deadline its dequeue saved (checked as it is attached: the
//            next task attached in the same pass moves V again)
//  wakelist  ttwu_pending iff the wakelist is not empty, and then an IPI is
//            on its way
//  resched   a resched left pending on a CPU has its IPI on the way, or
//            (PREEMPT_LAZY) is a lazy one of a busy CPU, due at its next
//            event; an idle CPU with queued tasks is being sent one
//  events    each CPU's kept next event is what recomputing it gives
//  warn      no WARN_ON_ONCE() site the model shares with fair.c fired
//            (model/warn.hpp: the local checks, made where the code relies
//            on them)
//
// Incremental: sums, tree, V, eligibility, existence, lag sum and pick read
// nothing but one rq's cfs_rq and the entities queued on it (and its curr),
// so they give the same verdict until one of those bytes changes. After
// each event the checker compares those bytes (the CfsRq object, the ids of
// the tasks queued on the CPU and each one's SchedEntity, curr's) with its
// own copy from the rq's last check and re-checks only an rq that differs.
// The copy is the checker's, not the model's idea of what an event touched,
// so an rq changed behind the event loop's back is still checked at once.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/observer.hpp"
#include "model/simulation.hpp"

namespace eevdf {

// The names a violation reports (CheckFailure::invariant), one per rule or
// part of a rule above; `eevdf sim --check` counts them in its success line
// and a unit test keeps the list equal to the names check.cpp uses.
inline constexpr std::array<std::string_view, 34> INVARIANT_NAMES = {
	"V", "affinity", "clock", "deadline", "delayed", "eligibility", "events", "existence",
	"hierarchy", "idle", "lag clamp", "lag sum", "migration", "min_vruntime", "nohz", "others",
	"overflow", "pick", "placement", "request", "resched", "reweight", "runnable", "slice",
	"smp", "sums", "tg-load", "tick", "time", "tree", "vruntime", "waiting", "wakelist", "warn"
};

struct CheckFailure {
	u64 event = 0;          // index of the event after which it failed
	u64 t = 0;              // simulated time
	std::string invariant;  // short name, e.g. "pick"
	std::string detail;     // what was expected and found
	std::string state;      // the run queue, one line per task
};

struct InvariantViolation : std::logic_error {
	explicit InvariantViolation(CheckFailure f);
	CheckFailure failure;
};

class InvariantChecker : public Observer {
public:
	void on_event(const Simulation& sim, u64 t) override;
	void on_tick(const Simulation& sim, u64 t, bool hrtick) override;
	void on_block(const Simulation& sim, u64 t, int task, bool delayed, bool exited) override;
	void on_wakeup(const Simulation& sim, u64 t, int task, int waker, bool new_task) override;
	void on_reweight(const Simulation& sim, u64 t, int task, s64 vlag, u64 old_weight) override;
	void on_group_reweight(const Simulation& sim, u64 t, u32 cpu, size_t group) override;
	void on_attr(const Simulation& sim, u64 t, int task) override;
	// A move to another group re-queues the task there, as an attribute
	// change does: its vruntime and deadline are placed on the new level.
	void on_move_group(const Simulation& sim, u64 t, int task) override { on_attr(sim, t, task); }
	void on_migrate(const Simulation& sim, u64 t, int task, u32 from, u32 to) override;
	void on_attach(const Simulation& sim, u64 t, int task) override;
	void on_yield(const Simulation& sim, u64 t, int task) override;

	u64 events_checked() const { return events_; }
	// Run queues given the per-rq checks (sums .. pick) so far; the others
	// were byte-identical to their last check.
	u64 rq_checks() const { return rq_checks_; }

private:
	[[noreturn]] void fail(const Simulation& sim, u64 t, const char* invariant, const std::string& detail) const;
	void ensure(const Simulation& sim);
	void bucket_by_cpu(const Simulation& sim);
	bool rq_unchanged(const Simulation& sim, u32 cpu);
	struct RqWalk;
	RqWalk walk_rq(const Simulation& sim, const CfsRq& cfs, u32 cpu) const;
	void check_sums(const Simulation& sim, u64 t, u32 cpu, const RqWalk& w) const;
	void check_tree(const Simulation& sim, u64 t, const CfsRq& cfs, const RqWalk& w) const;
	void check_v_and_pick(const Simulation& sim, u64 t, const CfsRq& cfs, const RqWalk& w) const;
	// With task groups: every cfs_rq of the CPU, its counts over the
	// hierarchy, and each group entity's weight and queue state.
	void check_group_rqs(const Simulation& sim, u64 t, u32 cpu);
	void check_leaf_list(const Simulation& sim, u64 t, u32 cpu);
	void check_tasks(const Simulation& sim, u64 t);
	void check_time(const Simulation& sim, u64 t, u32 cpu) const;
	// Records curr's path and each level's sum_exec_runtime (PerCpu::path).
	void remember_curr_path(const Simulation& sim, u32 cpu);

	struct Track {
		bool queued = false;
		bool delayed = false;
		u64 weight = 0;
		u64 slice = 0;
		bool custom = false;
		u64 vruntime = 0;
		s64 saved_vlag = 0;
		bool has_saved_vlag = false;
		u32 cpu = 0;
		bool requeued = false;         // a sched_setattr or nice change re-queued it this event
		bool migrated_queued = false;  // moved while queued (balancer, affinity) this event
		s64 rel_deadline = 0;          // d - v when last queued, or the saved relative deadline
		u64 deadline = 0;
		bool was_curr = false;         // running after the last event
		bool attr_changed = false;     // sched_setattr / nice change this event
		bool yielded = false;          // sched_yield() this event
		bool woken_queued = false;     // woken while still queued (delayed): may be re-placed in place
		bool moved = false;            // set_task_cpu() this event (it may have come back)
		// d - v <= cdf(slice) applies: d was last set by a placement or a
		// renewal at the task's present weight and slice (not rescaled by a
		// reweight, kept across a slice change, or pushed by a 6.6 yield).
		bool request_exact = false;
	};
	// What the per-rq checks read, as bytes: the CfsRq, the ids of the
	// tasks queued on the CPU with their SchedEntity, curr's if it is off
	// the queue (extra_id).
	struct RqBytes {
		bool valid = false;
		int extra_id = -1;
		std::array<unsigned char, sizeof(CfsRq)> cfs{};
		std::vector<int> ids;
		std::vector<unsigned char> se;
	};
	struct PerCpu {
		u64 ref = 0;        // min_vruntime seen last
		u64 last_tick = 0;
		bool ticks_seen = false;
		int last_curr = -1;     // curr's id after the last event
		// Every level's curr on its path (the task first, then its group
		// entities) with its sum_exec_runtime then: a tick that accounts
		// curr nothing asks for nothing, and update_curr()
		// returns on a level whose curr it charges nothing, so a tick
		// decides nothing there (a group entity can be charged up to the
		// tick's instant by another update_curr() at that level alone).
		std::array<const SchedEntity*, MAX_GROUP_DEPTH + 1> path{};
		std::array<u64, MAX_GROUP_DEPTH + 1> path_sum{};
		std::array<u64, MAX_GROUP_DEPTH + 1> path_weight{};  // and its weight
		bool resched_waiting = false;  // need_resched left set after the last event, for an IPI
		bool tick_continuous = false;  // the tick ran at every event since the last tick
		u64 curr_pick_weight = 0;      // curr's weight when it was picked
		bool curr_changed = false;     // curr was reweighted or given a new slice since its pick
		RqBytes checked;               // the rq's bytes at its last per-rq check
	};
	std::vector<Track> track_;
	std::vector<u32> on_list_;  // check_tasks()' scratch: wakelists each task is on (no allocation per event)
	std::vector<u32> in_queue_; // and the wait queues (futex, condition, barrier) each task is in
	std::vector<PerCpu> cpu_;
	// This event's queued tasks by CPU: ids queued_[queued_start_[c] ..
	// queued_start_[c + 1]) are on_rq with task_cpu() == c, in id order.
	std::vector<int> queued_;
	std::vector<u32> queued_start_;
	std::vector<u32> fill_;             // bucket_by_cpu()'s scratch
	u64 queued_elsewhere_ = 0;          // on_rq tasks whose task_cpu() is no CPU
	bool started_ = false;
	u64 events_ = 0;
	u64 rq_checks_ = 0;
	u64 last_t_ = 0;  // the previous event's time: the clock never goes back
};

// The state of the run queue as text, one line per task (for reports).
std::string describe_state(const Simulation& sim);

}  // namespace eevdf
