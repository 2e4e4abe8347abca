// SPDX-License-Identifier: GPL-2.0-only
// Per-entity load tracking (PELT) in the kernel's integer arithmetic.
//
// Mirrors Linux v6.18.44: kernel/sched/pelt.c, pelt.h, sched-pelt.h and the
// PELT parts of fair.c, on 64-bit (unsigned long = u64). Pure values: nothing
// here knows the model's CfsRq; callers pass the entity's and the cfs_rq's
// state as plain numbers.
//
// Scope (each a simplification of the kernel, see also the .cpp):
// - CONFIG_FAIR_GROUP_SCHED's PELT is here as pure functions over a cfs_rq's
//   averages: the propagation of attach, detach and removal up the tree
//   (add_tg_cfs_propagate, propagate_entity_load_avg, update_tg_cfs_*).
//   update_tg_load_avg() and the hierarchical h_load need the task_group and
//   the entity tree, so model/fair.hpp's CfsRq holds them.
// - No frequency or capacity invariance: CPU capacity and frequency scale are
//   SCHED_CAPACITY_SCALE, so clock_pelt equals clock_task (see RqClock).
// - No CONFIG_CFS_BANDWIDTH throttling: cfs_rq_clock_pelt() = rq_clock_pelt().
// - No IRQ, steal, RT, DL or HW-pressure signals (update_other_load_avgs):
//   clock_task = clock, and their util_sum is 0 unless the caller passes one.
// - Side effects without a value (cpufreq_update_util, tracepoints,
//   leaf-list maintenance) are left out.
//
// Time is ns of clock_pelt throughout.
//
// Earlier kernels, for presets that want them (not implemented here):
// - 6.6 and 6.12.0 feed cfs_rq->h_nr_running to the cfs_rq's runnable sum
//   (6.12.0 counts delayed tasks in it; 6.18 uses h_nr_runnable). 6.6's
//   se_runnable() is !!on_rq (no delayed dequeue).
// - util_est: 6.6 keeps {enqueued, ewma} per task with UTIL_EST_FASTUP, a
//   two-sided within_margin() on both fields, and _task_util_est() = max of
//   the two; 6.12 has the 6.18 single value plus a "dequeued > capacity"
//   bail-out (unreachable at capacity 1024). 6.6 calls util_est_update()
//   after the dequeue's PELT update, 6.12/6.18 before it; the enqueue and
//   dequeue conditions for delayed tasks differ between 6.12 and 6.18.
// - post_init_entity_util_avg(): 6.6 multiplies by se->load.weight (scaled
//   by 1024) instead of se_weight(), so a new task almost always gets the cap.
// - cpu_util(): 6.6 .. 6.18.39 boost first (runnable_follows_task = false).
#pragma once

#include "model/types.hpp"
#include "model/weights.hpp"

namespace eevdf {

// include/linux/sched.h: capacities use the same fixed point as weights.
inline constexpr int SCHED_CAPACITY_SHIFT = SCHED_FIXEDPOINT_SHIFT;
inline constexpr u64 SCHED_CAPACITY_SCALE = 1ULL << SCHED_CAPACITY_SHIFT;

// kernel/sched/sched-pelt.h. y is chosen so that y^LOAD_AVG_PERIOD = 1/2.
inline constexpr u32 LOAD_AVG_PERIOD = 32;
// The first fixed point, iterating from 1024, of max = max * y + 1024 with
// the multiplication done through runnable_avg_yN_inv[1] and a 32-bit shift
// exactly as decay_load() does it (checked in tests/test_pelt.cpp). The
// truncated recurrence has a band of fixed points (47742 .. 47788); the
// generator stops at the lowest.
inline constexpr u32 LOAD_AVG_MAX = 47742;
// pelt.h: the smallest divider, at period_contrib = 0. Because
// LOAD_AVG_MAX * y = LOAD_AVG_MAX - 1024 in this arithmetic, a sum that has
// always been full is LOAD_AVG_MAX - 1024 + period_contrib.
inline constexpr u32 PELT_MIN_DIVIDER = LOAD_AVG_MAX - 1024;

// runnable_avg_yN_inv[n] = floor((2^32 - 1) * y^n), n < LOAD_AVG_PERIOD. The
// kernel generates it (Documentation/scheduler/sched-pelt.c) in double with
// y = pow(0.5, 1/32) and a truncating conversion to unsigned int; the scale
// is 2^32 - 1, not 2^32, so that y^0 fits in 32 bits. These values were
// computed independently in long double and are re-derived by a unit test.
inline constexpr u32 runnable_avg_yN_inv[LOAD_AVG_PERIOD] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
};

// util_est (include/linux/sched.h, fair.c), the single-value form of 6.9+.
inline constexpr int UTIL_EST_WEIGHT_SHIFT = 2;          // new sample weight 1/4
inline constexpr u32 UTIL_AVG_UNCHANGED = 0x80000000u;   // MSB: util_avg not updated since
inline constexpr u32 UTIL_EST_MARGIN = SCHED_CAPACITY_SCALE / 100;  // 10, ~1%

// struct sched_avg. *_sum are geometric series of 1024 ns units; *_avg the
// series divided by the current divider. load_sum counts time on_rq (a task's
// load_sum is not weighted; a cfs_rq's is Σ weight · load_sum), runnable_sum
// and util_sum carry << SCHED_CAPACITY_SHIFT. util_est: for a task the EWMA
// of its util_avg at sleep, with UTIL_AVG_UNCHANGED; for a cfs_rq the sum of
// its enqueued tasks' estimates.
struct SchedAvg {
	u64 last_update_time = 0;  // ns, a multiple of 1024 past the first update; 0 = not attached
	u64 load_sum = 0;
	u64 runnable_sum = 0;
	u32 util_sum = 0;
	u32 period_contrib = 0;  // 1024 ns units already in the current period, < 1024
	u64 load_avg = 0;
	u64 runnable_avg = 0;
	u64 util_avg = 0;
	u32 util_est = 0;
};

// What __update_load_avg_se() reads from the entity: load = !!on_rq,
// runnable = se_runnable(), running = (cfs_rq->curr == se). se_runnable() is
// 0 or 1 for a task and, for a group's entity, its runnable_weight: the
// h_nr_runnable of its cfs_rq as se_update_runnable() last cached it.
struct EntityState {
	bool on_rq = false;
	u32 runnable = 0;
	bool running = false;
};

// se_runnable() of a task (6.12+): a delayed-dequeue task is on_rq, so it
// keeps adding to load_sum, but it is not runnable.
constexpr EntityState task_entity_state(bool on_rq, bool sched_delayed, bool is_curr)
{
	return EntityState{on_rq, on_rq && !sched_delayed, is_curr};
}

// What __update_load_avg_cfs_rq() reads from the cfs_rq.
struct CfsRqLoad {
	u64 load_weight = 0;    // cfs_rq->load.weight (scaled: 1 << 20 per nice-0 task)
	u32 h_nr_runnable = 0;  // queued and not delayed
	bool has_curr = false;  // cfs_rq->curr != NULL
};

// sched_feat() bits that PELT reads; the 6.18 defaults.
struct PeltFeatures {
	bool util_est = true;
	bool attach_age_load = true;  // ATTACH_AGE_LOAD, for attach_entity_cfs_rq()
};

// Weights passed as `se_weight` below are se_weight() = scale_load_down(
// se->load.weight), 1024 at nice 0.
constexpr u64 se_weight_of(const LoadWeight& lw) { return scale_load_down(lw.weight); }

// get_pelt_divider() (pelt.h): the largest value a sum can hold at this
// position in the period.
constexpr u32 get_pelt_divider(const SchedAvg& sa) { return PELT_MIN_DIVIDER + sa.period_contrib; }
// n / (PELT_MIN_DIVIDER + period_contrib), exact, by reciprocal below 2^32
// (the derivation is in pelt.cpp).
u64 div_pelt_divider(u64 n, u32 period_contrib);

// ---- kernel/sched/pelt.c and pelt.h. The kernel names begin with two or
// three underscores, which C++ reserves; here they live in eevdf::pelt
// without them. ----
namespace pelt {

// decay_load(): val * y^n, 0 beyond LOAD_AVG_PERIOD * 63 periods.
u64 decay_load(u64 val, u64 n);
// __accumulate_pelt_segments(): d1 y^p + 1024 Σ_{n=1}^{p-1} y^n + d3.
u32 accumulate_pelt_segments(u64 periods, u32 d1, u32 d3);
// accumulate_sum(): decay the sums over the crossed periods and add this
// update's contribution; returns the number of periods crossed (as u32).
u32 accumulate_sum(u64 delta, SchedAvg& sa, u64 load, u64 runnable, int running);
// ___update_load_sum(): 1 iff a period boundary was crossed.
int update_load_sum(u64 now, SchedAvg& sa, u64 load, u64 runnable, int running);
// ___update_load_avg(): *_avg = *_sum / divider (load_avg also × load).
void update_load_avg(SchedAvg& sa, u64 load);

// cfs_se_util_change(): util_avg moved, so clear UTIL_AVG_UNCHANGED.
void cfs_se_util_change(SchedAvg& sa, PeltFeatures feat = {});

// __update_load_avg_blocked_se(): decay only (load = runnable = running = 0).
int update_load_avg_blocked_se(u64 now, SchedAvg& se, u64 se_weight);
// __update_load_avg_se().
int update_load_avg_se(u64 now, SchedAvg& se, u64 se_weight, EntityState st, PeltFeatures feat = {});
// __update_load_avg_cfs_rq(): load = scale_load_down(load.weight),
// runnable = h_nr_runnable, running = curr != NULL; averages with load 1.
int update_load_avg_cfs_rq(u64 now, SchedAvg& cfs, CfsRqLoad rq);

}  // namespace pelt

// ---- struct rq clocks (core.c update_rq_clock, pelt.h). ----
//
// clock_pelt advances by the running delta scaled by capacity and frequency,
// and is synced to clock_task whenever the rq goes idle; lost_idle_time
// collects the idle time a fully busy rq could not have had. With both scales
// at 1024, cap_scale(delta, 1024) = delta (for delta < 2^54 ns, the kernel's
// own product limit), so clock_pelt moves exactly with clock_task, every
// sync is a no-op and lost_idle_time only ever adds clock_task - clock_pelt =
// 0: rq_clock_pelt() = clock_task = clock. The logic is kept anyway so that a
// model with real rq clocks drives PELT through the same steps.
struct RqClock {
	u64 clock = 0;
	u64 clock_task = 0;  // = clock: no IRQ or steal time accounting
	u64 clock_pelt = 0;
	u64 lost_idle_time = 0;
	u64 clock_idle = 0;       // rq_clock() at the last idle sync
	u64 clock_pelt_idle = 0;  // rq_clock_pelt() at the last idle sync
};

// update_rq_clock() with sched_clock_cpu() = sched_clock: a backwards step is
// ignored. curr_is_idle = is_idle_task(rq->curr).
void update_rq_clock(RqClock& rq, u64 sched_clock, bool curr_is_idle);
// update_rq_clock_pelt().
void update_rq_clock_pelt(RqClock& rq, s64 delta, bool curr_is_idle);
// update_idle_rq_clock_pelt() (set_next_task_idle): util_sum is
// rq->cfs.avg.util_sum + avg_rt.util_sum + avg_dl.util_sum, summed in u32.
void update_idle_rq_clock_pelt(RqClock& rq, u32 util_sum);
// rq_clock_pelt(); also cfs_rq_clock_pelt() without bandwidth control.
constexpr u64 rq_clock_pelt(const RqClock& rq) { return rq.clock_pelt - rq.lost_idle_time; }

// ---- kernel/sched/fair.c, the root cfs_rq's PELT state. ----
struct CfsRqAvg {
	// avg.util_est is the cfs_rq's estimate: the sum of _task_util_est() of its
	// enqueued tasks (6.6's cfs_rq->avg.util_est.enqueued).
	SchedAvg avg;
	// Averages of tasks that left while this rq was not locked
	// (remove_entity_load_avg), subtracted at the next update.
	struct Removed {
		u64 load_avg = 0;
		u64 util_avg = 0;
		u64 runnable_avg = 0;
		int nr = 0;
	} removed;
	// update_cfs_rq_h_load() cache, refreshed once per jiffy. The kernel's
	// cfs_rq starts zeroed while jiffies start at INITIAL_JIFFIES, so its
	// first call always refreshes; the model's jiffies start at 0, hence the
	// "never" value here.
	u64 h_load = 0;
	u64 last_h_load_update = ~0ULL;  // no jiffy yet: the first task_h_load() refreshes h_load
	// CONFIG_FAIR_GROUP_SCHED: load attached, detached or removed here since
	// the group's entity last took it in (add_tg_cfs_propagate()): the
	// unweighted runnable sum to add to the entity, and whether to look.
	// The root's are set too, as the kernel's are, and never read.
	s64 prop_runnable_sum = 0;
	bool propagate = false;
};

// update_load_avg() flags.
inline constexpr int UPDATE_TG = 0x1;
inline constexpr int SKIP_AGE_LOAD = 0x2;
inline constexpr int DO_ATTACH = 0x4;
inline constexpr int DO_DETACH = 0x8;

// init_entity_runnable_average() of a task: all zero but load_avg = weight,
// so that a new task looks heavy until it has history.
void init_entity_runnable_average(SchedAvg& se, u64 se_weight);
// post_init_entity_util_avg() of a fair task (wake_up_new_task, before the
// first enqueue): util_avg from the cfs_rq's util per unit load, capped at
// half the spare capacity; runnable_avg = util_avg.
void post_init_entity_util_avg(SchedAvg& se, u64 se_weight, const CfsRqAvg& cfs);

// enqueue_load_avg() / dequeue_load_avg(): the entity's load in the sums.
void enqueue_load_avg(CfsRqAvg& cfs, const SchedAvg& se, u64 se_weight);
void dequeue_load_avg(CfsRqAvg& cfs, const SchedAvg& se, u64 se_weight);

// update_cfs_rq_load_avg(): fold in `removed`, then age the cfs_rq. Returns
// 1 if anything changed (the kernel's "decayed").
int update_cfs_rq_load_avg(u64 now, CfsRqAvg& cfs, CfsRqLoad rq);

// attach_entity_load_avg() / detach_entity_load_avg(): call after
// update_cfs_rq_load_avg() at the same now.
void attach_entity_load_avg(CfsRqAvg& cfs, SchedAvg& se, u64 se_weight);
void detach_entity_load_avg(CfsRqAvg& cfs, SchedAvg& se, u64 se_weight);

// The cfs_rq a group's entity owns (group_cfs_rq(se)), as PELT reads it;
// avg == nullptr for a task.
struct GroupCfsRq {
	CfsRqAvg* avg = nullptr;
	u64 load_weight = 0;  // gcfs_rq->load.weight (scaled)
};

// update_load_avg(cfs_rq, se, flags) with now = cfs_rq_clock_pelt(). `st` is
// the entity's state and `rq` the cfs_rq's at the call (the kernel reads them
// from the structures); `g` the group cfs_rq of a group's entity, whose
// pending propagation it takes in. Returns true where the kernel calls
// update_tg_load_avg(cfs_rq): after an attach or a detach, or after a
// change with UPDATE_TG (the caller does it: it needs the task_group).
bool update_load_avg(CfsRqAvg& cfs, SchedAvg& se, u64 now, u64 se_weight, EntityState st, CfsRqLoad rq,
		     int flags, PeltFeatures feat = {}, GroupCfsRq g = {});

// add_tg_cfs_propagate(): runnable_sum (unweighted, in load_sum units) to
// be taken into the group's entity at its next update.
inline void add_tg_cfs_propagate(CfsRqAvg& cfs, s64 runnable_sum)
{
	cfs.propagate = true;
	cfs.prop_runnable_sum += runnable_sum;
}
// propagate_entity_load_avg(): a group's entity `se` on `cfs` takes in what
// its cfs_rq `g` propagates (util and runnable copied, load estimated by
// update_tg_cfs_load()), passes the runnable sum on up, and returns 1 if
// anything was pending.
int propagate_entity_load_avg(CfsRqAvg& cfs, SchedAvg& se, u64 se_weight, GroupCfsRq g);
// skip_blocked_update(): a blocked group entity with no load, no util and
// nothing pending needs no update.
constexpr bool skip_blocked_update(const SchedAvg& se, const CfsRqAvg& g)
{
	return !se.load_avg && !se.util_avg && !g.propagate;
}

// attach_entity_cfs_rq() / detach_entity_cfs_rq() (switched_to/from_fair,
// cgroup moves) of a task that is not queued.
void attach_entity_cfs_rq(CfsRqAvg& cfs, SchedAvg& se, u64 now, u64 se_weight, EntityState st, CfsRqLoad rq,
			  PeltFeatures feat = {});
void detach_entity_cfs_rq(CfsRqAvg& cfs, SchedAvg& se, u64 now, u64 se_weight, EntityState st, CfsRqLoad rq,
			  PeltFeatures feat = {});

// reweight_entity(), PELT part: the entity's load leaves the sums, its
// load_avg is recomputed from load_sum at the new weight, and it re-enters.
void reweight_entity_load_avg(CfsRqAvg& cfs, SchedAvg& se, u64 old_se_weight, u64 new_se_weight);

// sync_entity_load_avg(): decay a blocked entity to the cfs_rq's last update.
void sync_entity_load_avg(const CfsRqAvg& cfs, SchedAvg& se, u64 se_weight);
// remove_entity_load_avg(): sync, then queue the averages in cfs.removed.
void remove_entity_load_avg(CfsRqAvg& cfs, SchedAvg& se, u64 se_weight);

// migrate_se_pelt_lag() (CONFIG_NO_HZ_COMMON, no bandwidth): when the source
// CPU is idle its clock may be stale, so the blocked entity is decayed to an
// estimate of now: clock_pelt_idle + (sched_clock_now - clock_idle), or to
// the cfs_rq's last update if that is later.
void migrate_se_pelt_lag(SchedAvg& se, u64 se_weight, const CfsRqAvg& src, const RqClock& src_clock,
			 bool src_curr_is_idle, u64 sched_clock_now);
// migrate_task_rq_fair() composes these: if the task is not being migrated
// while queued, remove_entity_load_avg() then migrate_se_pelt_lag(); in all
// cases last_update_time = 0, so the next enqueue attaches (DO_ATTACH).

// load_avg_is_decayed() without the WARN.
constexpr bool load_avg_is_decayed(const SchedAvg& sa)
{
	return !sa.load_sum && !sa.util_sum && !sa.runnable_sum;
}

// ---- Readers. ----
constexpr u64 cfs_rq_load_avg(const CfsRqAvg& cfs) { return cfs.avg.load_avg; }
constexpr u64 cfs_rq_runnable_avg(const CfsRqAvg& cfs) { return cfs.avg.runnable_avg; }
constexpr u64 task_util(const SchedAvg& p) { return p.util_avg; }
constexpr u64 task_runnable(const SchedAvg& p) { return p.runnable_avg; }
// _task_util_est(): the estimate without the flag.
constexpr u64 task_util_est_raw(const SchedAvg& p) { return p.util_est & ~UTIL_AVG_UNCHANGED; }
constexpr u64 task_util_est(const SchedAvg& p)
{
	return task_util(p) > task_util_est_raw(p) ? task_util(p) : task_util_est_raw(p);
}

// util_est_enqueue() / util_est_dequeue(): the task's estimate in and out of
// the root cfs_rq's. util_est_update(): at a sleep dequeue, fold util_avg into
// the task's EWMA (6.18 calls it before dequeue_entities(), i.e. before the
// dequeue's own PELT update).
void util_est_enqueue(CfsRqAvg& cfs, const SchedAvg& p, PeltFeatures feat = {});
void util_est_dequeue(CfsRqAvg& cfs, const SchedAvg& p, PeltFeatures feat = {});
void util_est_update(SchedAvg& p, bool task_sleep, PeltFeatures feat = {});

// update_cfs_rq_h_load() for the root cfs_rq: h_load = load_avg, at most once
// per jiffy (CfsRq::update_cfs_rq_h_load() walks a group's path down from
// here). task_h_load() (CONFIG_FAIR_GROUP_SCHED):
// load_avg * h_load / (cfs load_avg + 1). With h_load = cfs load_avg = L
// that is p - ceil(p / (L + 1)): p - 1 for 0 < p <= L, p - 2 for
// L < p <= 2 (L + 1) (a task whose load exceeds the root's, e.g. after a
// remove), and off by more once h_load is a jiffy stale. Without
// CONFIG_FAIR_GROUP_SCHED it is p.load_avg itself.
void update_cfs_rq_h_load(CfsRqAvg& cfs, u64 jiffies);
u64 task_h_load(CfsRqAvg& cfs, const SchedAvg& p, u64 jiffies);

// cpu_load(), cpu_runnable(), and the _without() forms for a task whose
// averages may be in this CPU's (task_on_cpu = task_cpu(p) == cpu). The
// _without() forms work in unsigned int, as the kernel's locals do.
constexpr u64 cpu_load(const CfsRqAvg& cfs) { return cfs_rq_load_avg(cfs); }
constexpr u64 cpu_runnable(const CfsRqAvg& cfs) { return cfs_rq_runnable_avg(cfs); }
u64 cpu_load_without(CfsRqAvg& cfs, const SchedAvg& p, bool task_on_cpu, u64 jiffies);
// Its last step, for a task whose task_h_load() the caller computed (a task
// in a group): the root's load_avg less p_h_load, in unsigned int.
u64 cpu_load_less(const CfsRqAvg& cfs, u64 p_h_load);
u64 cpu_runnable_without(const CfsRqAvg& cfs, const SchedAvg& p, bool task_on_cpu);

// The task argument of cpu_util(cpu, p, dst_cpu, boost).
struct UtilTask {
	const SchedAvg* p = nullptr;     // NULL: no task
	bool task_on_cpu = false;        // task_cpu(p) == cpu
	bool dst_is_cpu = false;         // dst_cpu == cpu (requires p)
	bool queued_or_current = false;  // task_on_rq_queued(p) || current == p
};

// cpu_util(): the CFS utilisation of a CPU, as if p moved to dst_cpu, capped
// at the capacity. runnable_follows_task selects the boost form: true is
// 6.18.40+ (runnable_avg gets p's runnable_avg added or removed like
// util_avg, then the max is taken); false is 6.6 .. 6.18.39 (the max of
// util_avg and the CPU's runnable_avg is taken first and p's util_avg added
// to or removed from that). The two differ only with boost and a task, which
// in 6.18 only EAS (eenv_pd_max_util) asks for.
u64 cpu_util(const CfsRqAvg& cfs, UtilTask t, bool boost, bool runnable_follows_task = true,
	     PeltFeatures feat = {});
inline u64 cpu_util_cfs(const CfsRqAvg& cfs, PeltFeatures feat = {}) { return cpu_util(cfs, {}, false, true, feat); }
inline u64 cpu_util_cfs_boost(const CfsRqAvg& cfs, bool runnable_follows_task = true, PeltFeatures feat = {})
{
	return cpu_util(cfs, {}, true, runnable_follows_task, feat);
}
// cpu_util_without(): p is ignored unless task_on_cpu and p is attached.
u64 cpu_util_without(const CfsRqAvg& cfs, const SchedAvg& p, bool task_on_cpu, bool queued_or_current,
		     PeltFeatures feat = {});

}  // namespace eevdf
