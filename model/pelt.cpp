// SPDX-License-Identifier: GPL-2.0-only
// PELT, Linux v6.18.44 (kernel/sched/pelt.c, pelt.h, fair.c). See pelt.hpp
// for the scope. Types follow the kernel's on 64-bit: unsigned long is u64,
// u32 sums wrap and truncate where the kernel's do.
#include "model/pelt.hpp"

#include <algorithm>

namespace eevdf {
namespace {

// mul_u64_u32_shr(): the full 96-bit product, shifted.
u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned shift)
{
	return static_cast<u64>((static_cast<u128>(a) * mul) >> shift);
}

// sub_positive() on a T: subtract, clamp at 0 on wrap. The subtrahend is
// converted to T first (typeof(*ptr) val), so a u64 product subtracted from a
// u32 sum is truncated to 32 bits, as in the kernel.
template <typename T>
void sub_positive(T& var, u64 val)
{
	const T v = static_cast<T>(val);
	const T res = static_cast<T>(var - v);
	var = res > var ? T{0} : res;
}

// add_positive() on a T: add a signed delta, clamp at 0 if a negative one
// wraps. The sum is taken in the wider type and truncated to T, as
// typeof(*ptr) res = var + _val does.
template <typename T>
void add_positive(T& var, s64 val)
{
	const T res = static_cast<T>(static_cast<s64>(var) + val);
	var = (val < 0 && res > var) ? T{0} : res;
}

// max_t(u32, a, b): both sides truncated to 32 bits.
u32 max_u32(u64 a, u64 b)
{
	const u32 x = static_cast<u32>(a), y = static_cast<u32>(b);
	return x > y ? x : y;
}

// lsub_positive() on an unsigned int local: min_t(unsigned int, ...).
void lsub_positive_u32(u32& var, u64 val)
{
	const u32 v = static_cast<u32>(val);
	var -= var < v ? var : v;
}

void lsub_positive_u64(u64& var, u64 val) { var -= var < val ? var : val; }

// Division by the PELT divider, exact, without a divide instruction.
//
// update_load_avg() divides three sums by get_pelt_divider() at every
// update, and a hardware divide costs tens of cycles, most of a tick's PELT
// work. The divider takes only 1024 values, d = PELT_MIN_DIVIDER + c with
// c = period_contrib < 1024, all below 2^16, so each has a reciprocal
// m = ceil(2^48 / d) = (2^48 + e) / d with 0 <= e < d, and for n < 2^32
//
//   n * m / 2^48 = n / d + n * e / (d * 2^48),  0 <= error < n / 2^48 < 2^-16.
//
// The fraction of n / d is at most 1 - 1/d and 1/d > 2^-16, so the error
// never reaches the next integer: floor(n * m / 2^48) = floor(n / d). Sums of
// 2^32 and more (weighted cfs_rq sums of many tasks) take the divide.
// tests/test_pelt.cpp checks the identity at both sides of every multiple
// of every divider near 2^32.
constexpr unsigned PELT_RECIP_SHIFT = 48;

struct PeltReciprocals {
	u64 m[1024];
};

constexpr PeltReciprocals make_pelt_reciprocals()
{
	PeltReciprocals r{};
	for (u32 c = 0; c < 1024; c++) {
		const u64 d = PELT_MIN_DIVIDER + c;
		r.m[c] = ((1ULL << PELT_RECIP_SHIFT) + d - 1) / d;
	}
	return r;
}

constexpr PeltReciprocals pelt_reciprocals = make_pelt_reciprocals();

// cap_scale(): v * s >> SCHED_CAPACITY_SHIFT in unsigned long.
u64 cap_scale(u64 v, u64 s) { return (v * s) >> SCHED_CAPACITY_SHIFT; }

}  // namespace

u64 div_pelt_divider(u64 n, u32 period_contrib)
{
	if (n > 0xffffffffULL || period_contrib >= 1024)
		return n / (PELT_MIN_DIVIDER + period_contrib);
	return static_cast<u64>((static_cast<u128>(n) * pelt_reciprocals.m[period_contrib]) >> PELT_RECIP_SHIFT);
}

namespace pelt {

u64 decay_load(u64 val, u64 n)
{
	if (n > LOAD_AVG_PERIOD * 63)
		return 0;
	// y^n = 2^-(n/32) * y^(n%32): whole half-lives as shifts, the rest from
	// the table. Past 63 half-lives every u64 is gone.
	u32 local_n = static_cast<u32>(n);
	if (local_n >= LOAD_AVG_PERIOD) {
		val >>= local_n / LOAD_AVG_PERIOD;
		local_n %= LOAD_AVG_PERIOD;
	}
	return mul_u64_u32_shr(val, runnable_avg_yN_inv[local_n], 32);
}

u32 accumulate_pelt_segments(u64 periods, u32 d1, u32 d3)
{
	// The p-1 full periods between d1 and d3 sum to 1024 (y + ... + y^(p-1)),
	// which is the infinite series from 0 minus its tail from p minus the
	// y^0 term: LOAD_AVG_MAX - decay(LOAD_AVG_MAX, p) - 1024.
	const u32 c1 = static_cast<u32>(decay_load(d1, periods));
	const u32 c2 = static_cast<u32>(LOAD_AVG_MAX - decay_load(LOAD_AVG_MAX, periods) - 1024);
	const u32 c3 = d3;
	return c1 + c2 + c3;
}

u32 accumulate_sum(u64 delta, SchedAvg& sa, u64 load, u64 runnable, int running)
{
	// Without a period boundary the whole delta lies in the current period.
	u32 contrib = static_cast<u32>(delta);

	delta += sa.period_contrib;
	const u64 periods = delta / 1024;

	if (periods) {
		sa.load_sum = decay_load(sa.load_sum, periods);
		sa.runnable_sum = decay_load(sa.runnable_sum, periods);
		sa.util_sum = static_cast<u32>(decay_load(sa.util_sum, periods));

		delta %= 1024;
		// With load 0, runnable and running are 0 too (update_load_sum), so
		// contrib is never used and the kernel skips computing it.
		if (load)
			contrib = accumulate_pelt_segments(periods, 1024 - sa.period_contrib, static_cast<u32>(delta));
	}
	sa.period_contrib = static_cast<u32>(delta);

	if (load)
		sa.load_sum += load * contrib;
	if (runnable)
		sa.runnable_sum += (runnable * contrib) << SCHED_CAPACITY_SHIFT;
	if (running)
		sa.util_sum += contrib << SCHED_CAPACITY_SHIFT;

	// The kernel returns the u64 count through a u32.
	return static_cast<u32>(periods);
}

int update_load_sum(u64 now, SchedAvg& sa, u64 load, u64 runnable, int running)
{
	u64 delta = now - sa.last_update_time;
	// A clock that went backwards restarts the window.
	if (static_cast<s64>(delta) < 0) {
		sa.last_update_time = now;
		return 0;
	}

	// Units of 1024 ns; the remainder stays for the next update.
	delta >>= 10;
	if (!delta)
		return 0;
	sa.last_update_time += delta << 10;

	// A dequeued curr (or an idle cfs_rq with curr set) has no load, and
	// running and runnable are subsets of it.
	if (!load)
		runnable = running = 0;

	return accumulate_sum(delta, sa, load, runnable, running) ? 1 : 0;
}

void update_load_avg(SchedAvg& sa, u64 load)
{
	// The divider is the maximum a sum could hold at this position in the
	// period, so a series that has always been full averages to exactly its
	// weight rather than oscillating below it.
	sa.load_avg = div_pelt_divider(load * sa.load_sum, sa.period_contrib);
	sa.runnable_avg = div_pelt_divider(sa.runnable_sum, sa.period_contrib);
	sa.util_avg = div_pelt_divider(sa.util_sum, sa.period_contrib);
}

void cfs_se_util_change(SchedAvg& sa, PeltFeatures feat)
{
	if (!feat.util_est)
		return;
	if (sa.util_est & UTIL_AVG_UNCHANGED)
		sa.util_est &= ~UTIL_AVG_UNCHANGED;
}

int update_load_avg_blocked_se(u64 now, SchedAvg& se, u64 se_weight)
{
	if (update_load_sum(now, se, 0, 0, 0)) {
		update_load_avg(se, se_weight);
		return 1;
	}
	return 0;
}

int update_load_avg_se(u64 now, SchedAvg& se, u64 se_weight, EntityState st, PeltFeatures feat)
{
	if (update_load_sum(now, se, st.on_rq ? 1 : 0, st.runnable ? 1 : 0, st.running ? 1 : 0)) {
		update_load_avg(se, se_weight);
		cfs_se_util_change(se, feat);
		return 1;
	}
	return 0;
}

int update_load_avg_cfs_rq(u64 now, SchedAvg& cfs, CfsRqLoad rq)
{
	if (update_load_sum(now, cfs, scale_load_down(rq.load_weight), rq.h_nr_runnable, rq.has_curr ? 1 : 0)) {
		update_load_avg(cfs, 1);
		return 1;
	}
	return 0;
}

}  // namespace pelt

// ---- rq clocks ----

namespace {

// _update_idle_rq_clock_pelt(): an idle rq has no work to scale, so its
// clock_pelt catches up with clock_task.
void sync_idle_rq_clock_pelt(RqClock& rq)
{
	rq.clock_pelt = rq.clock_task;
	rq.clock_idle = rq.clock;
	rq.clock_pelt_idle = rq_clock_pelt(rq);
}

}  // namespace

void update_rq_clock(RqClock& rq, u64 sched_clock, bool curr_is_idle)
{
	const s64 delta = static_cast<s64>(sched_clock - rq.clock);
	if (delta < 0)
		return;
	rq.clock += static_cast<u64>(delta);
	// update_rq_clock_task() without IRQ or steal time.
	rq.clock_task += static_cast<u64>(delta);
	update_rq_clock_pelt(rq, delta, curr_is_idle);
}

void update_rq_clock_pelt(RqClock& rq, s64 delta, bool curr_is_idle)
{
	if (curr_is_idle) {
		sync_idle_rq_clock_pelt(rq);
		return;
	}
	// Scale by CPU capacity, then by frequency; both SCHED_CAPACITY_SCALE here.
	u64 d = cap_scale(static_cast<u64>(delta), SCHED_CAPACITY_SCALE);
	d = cap_scale(d, SCHED_CAPACITY_SCALE);
	rq.clock_pelt += d;
}

void update_idle_rq_clock_pelt(RqClock& rq, u32 util_sum)
{
	// A rq whose util_sum reached (about) the maximum had no idle time at
	// full capacity either, so the idle time it is about to be credited by the
	// sync is lost rather than stolen. The bound ignores period_contrib and
	// takes LOAD_AVG_MAX off for rounding.
	constexpr u32 divider = (PELT_MIN_DIVIDER << SCHED_CAPACITY_SHIFT) - LOAD_AVG_MAX;
	if (util_sum >= divider)
		rq.lost_idle_time += rq.clock_task - rq.clock_pelt;
	sync_idle_rq_clock_pelt(rq);
}

// ---- fair.c ----

void init_entity_runnable_average(SchedAvg& se, u64 se_weight)
{
	se = SchedAvg{};
	se.load_avg = se_weight;
}

void post_init_entity_util_avg(SchedAvg& se, u64 se_weight, const CfsRqAvg& cfs)
{
	// Half the spare capacity; negative (no spare) when util_avg exceeds it.
	const s64 cap = static_cast<s64>(SCHED_CAPACITY_SCALE - cfs.avg.util_avg) / 2;

	if (cap > 0) {
		if (cfs.avg.util_avg != 0) {
			se.util_avg = cfs.avg.util_avg * se_weight;
			se.util_avg /= cfs.avg.load_avg + 1;
			if (se.util_avg > static_cast<u64>(cap))
				se.util_avg = static_cast<u64>(cap);
		} else {
			se.util_avg = static_cast<u64>(cap);
		}
	}
	se.runnable_avg = se.util_avg;
}

void enqueue_load_avg(CfsRqAvg& cfs, const SchedAvg& se, u64 se_weight)
{
	cfs.avg.load_avg += se.load_avg;
	cfs.avg.load_sum += se_weight * se.load_sum;
}

void dequeue_load_avg(CfsRqAvg& cfs, const SchedAvg& se, u64 se_weight)
{
	sub_positive(cfs.avg.load_avg, se.load_avg);
	sub_positive(cfs.avg.load_sum, se_weight * se.load_sum);
	// Keep the sum no lower than the average needs at the smallest divider.
	cfs.avg.load_sum = max_u32(cfs.avg.load_sum, cfs.avg.load_avg * PELT_MIN_DIVIDER);
}

int update_cfs_rq_load_avg(u64 now, CfsRqAvg& cfs, CfsRqLoad rq)
{
	SchedAvg& sa = cfs.avg;
	int decayed = 0;

	if (cfs.removed.nr) {
		const u32 divider = get_pelt_divider(sa);
		const u64 removed_load = cfs.removed.load_avg;
		const u64 removed_util = cfs.removed.util_avg;
		const u64 removed_runnable = cfs.removed.runnable_avg;
		cfs.removed = CfsRqAvg::Removed{};

		// Each sum loses avg * divider, but an entity's sum can exceed its
		// share of the cfs_rq's by rounding, so every sum is kept at least at
		// avg * PELT_MIN_DIVIDER (the smallest divider since the last sync).
		// The comparisons are u32, as the kernel's max_t(u32, ...).
		sub_positive(sa.load_avg, removed_load);
		sub_positive(sa.load_sum, removed_load * divider);
		sa.load_sum = max_u32(sa.load_sum, sa.load_avg * PELT_MIN_DIVIDER);

		sub_positive(sa.util_avg, removed_util);
		sub_positive(sa.util_sum, removed_util * divider);
		sa.util_sum = max_u32(sa.util_sum, sa.util_avg * PELT_MIN_DIVIDER);

		sub_positive(sa.runnable_avg, removed_runnable);
		sub_positive(sa.runnable_sum, removed_runnable * divider);
		sa.runnable_sum = max_u32(sa.runnable_sum, sa.runnable_avg * PELT_MIN_DIVIDER);

		// removed_runnable is removed_load unweighted: it estimates the
		// load_sum that left, for the group's entity above.
		add_tg_cfs_propagate(cfs, -static_cast<s64>(removed_runnable * divider) >> SCHED_CAPACITY_SHIFT);

		decayed = 1;
	}

	decayed |= pelt::update_load_avg_cfs_rq(now, sa, rq);
	return decayed;
}

void attach_entity_load_avg(CfsRqAvg& cfs, SchedAvg& se, u64 se_weight)
{
	// The entity adopts the cfs_rq's window (same clock, same position in the
	// period), and its sums are rebuilt from its averages at that divider.
	// load_sum is unweighted, so it is divided back by the weight, and kept
	// at least 1 so that a tiny load does not vanish.
	const u32 divider = get_pelt_divider(cfs.avg);

	se.last_update_time = cfs.avg.last_update_time;
	se.period_contrib = cfs.avg.period_contrib;

	se.util_sum = static_cast<u32>(se.util_avg * divider);
	se.runnable_sum = se.runnable_avg * divider;
	se.load_sum = se.load_avg * divider;
	if (se_weight < se.load_sum)
		se.load_sum /= se_weight;
	else
		se.load_sum = 1;

	enqueue_load_avg(cfs, se, se_weight);
	cfs.avg.util_avg += se.util_avg;
	cfs.avg.util_sum += se.util_sum;
	cfs.avg.runnable_avg += se.runnable_avg;
	cfs.avg.runnable_sum += se.runnable_sum;

	add_tg_cfs_propagate(cfs, static_cast<s64>(se.load_sum));
}

void detach_entity_load_avg(CfsRqAvg& cfs, SchedAvg& se, u64 se_weight)
{
	dequeue_load_avg(cfs, se, se_weight);
	sub_positive(cfs.avg.util_avg, se.util_avg);
	sub_positive(cfs.avg.util_sum, se.util_sum);
	cfs.avg.util_sum = max_u32(cfs.avg.util_sum, cfs.avg.util_avg * PELT_MIN_DIVIDER);

	sub_positive(cfs.avg.runnable_avg, se.runnable_avg);
	sub_positive(cfs.avg.runnable_sum, se.runnable_sum);
	cfs.avg.runnable_sum = max_u32(cfs.avg.runnable_sum, cfs.avg.runnable_avg * PELT_MIN_DIVIDER);

	add_tg_cfs_propagate(cfs, -static_cast<s64>(se.load_sum));
}

bool update_load_avg(CfsRqAvg& cfs, SchedAvg& se, u64 now, u64 se_weight, EntityState st, CfsRqLoad rq,
		     int flags, PeltFeatures feat, GroupCfsRq g)
{
	// An attached entity is aged with the cfs_rq; last_update_time == 0 means
	// it migrated here (or is new) and is attached below instead.
	if (se.last_update_time && !(flags & SKIP_AGE_LOAD))
		pelt::update_load_avg_se(now, se, se_weight, st, feat);

	int decayed = update_cfs_rq_load_avg(now, cfs, rq);
	if (g.avg)
		decayed |= propagate_entity_load_avg(cfs, se, se_weight, g);
	// cfs_rq_util_change() (cpufreq) has no value to model.

	if (!se.last_update_time && (flags & DO_ATTACH)) {
		attach_entity_load_avg(cfs, se, se_weight);
		return true;
	}
	if (flags & DO_DETACH) {
		detach_entity_load_avg(cfs, se, se_weight);
		return true;
	}
	return decayed && (flags & UPDATE_TG);
}

// ---- CONFIG_FAIR_GROUP_SCHED: what a group's cfs_rq passes up
//
// A group's entity ge is aged like any entity, but its averages must also
// follow what joins or leaves its cfs_rq grq at once: a task attached to
// grq adds its load there now, and the parent should see it now, not
// after the entity's own slow series catches up. So grq notes each change
// (add_tg_cfs_propagate()) and the next update of ge copies grq's util and
// runnable averages into ge (they are not weighted, so they compose:
// ge->avg.util_avg = grq->avg.util_avg), and the parent cfs_rq takes the
// difference. Load cannot be copied: ge's load_avg is ge's weight times
// how runnable grq is, and runnable is no sum over tasks (two tasks each
// runnable 2/3 of the time make grq runnable between 2/3 and 1). Added load
// is taken to overlap least (runnable sums add, capped at the divider);
// removed load, to have been spread evenly over grq's weight
// (grq->avg.load_sum / grq load); and never below the running sum.

namespace {

void update_tg_cfs_util(CfsRqAvg& cfs, SchedAvg& se, const CfsRqAvg& g)
{
	const s64 delta_avg = static_cast<s64>(g.avg.util_avg - se.util_avg);
	if (!delta_avg)
		return;
	// cfs's period_contrib serves for se too: they are updated together.
	const u32 divider = get_pelt_divider(cfs.avg);
	se.util_avg = g.avg.util_avg;
	const u32 new_sum = static_cast<u32>(se.util_avg * divider);
	const s64 delta_sum = static_cast<s64>(new_sum) - static_cast<s64>(se.util_sum);
	se.util_sum = new_sum;
	add_positive(cfs.avg.util_avg, delta_avg);
	add_positive(cfs.avg.util_sum, delta_sum);
	cfs.avg.util_sum = max_u32(cfs.avg.util_sum, cfs.avg.util_avg * PELT_MIN_DIVIDER);
}

void update_tg_cfs_runnable(CfsRqAvg& cfs, SchedAvg& se, const CfsRqAvg& g)
{
	const s64 delta_avg = static_cast<s64>(g.avg.runnable_avg - se.runnable_avg);
	if (!delta_avg)
		return;
	const u32 divider = get_pelt_divider(cfs.avg);
	se.runnable_avg = g.avg.runnable_avg;
	const u32 new_sum = static_cast<u32>(se.runnable_avg * divider);  // u32 new_sum, as the kernel's
	const s64 delta_sum = static_cast<s64>(new_sum) - static_cast<s64>(se.runnable_sum);
	se.runnable_sum = new_sum;
	add_positive(cfs.avg.runnable_avg, delta_avg);
	add_positive(cfs.avg.runnable_sum, delta_sum);
	cfs.avg.runnable_sum = max_u32(cfs.avg.runnable_sum, cfs.avg.runnable_avg * PELT_MIN_DIVIDER);
}

void update_tg_cfs_load(CfsRqAvg& cfs, SchedAvg& se, u64 se_weight, GroupCfsRq g)
{
	s64 runnable_sum = g.avg->prop_runnable_sum;
	if (!runnable_sum)
		return;
	g.avg->prop_runnable_sum = 0;

	const u32 divider = get_pelt_divider(cfs.avg);
	if (runnable_sum >= 0) {
		runnable_sum += static_cast<s64>(se.load_sum);
		runnable_sum = std::min<s64>(runnable_sum, divider);
	} else {
		u64 load_sum = 0;
		if (scale_load_down(g.load_weight))
			load_sum = g.avg->avg.load_sum / scale_load_down(g.load_weight);
		runnable_sum = static_cast<s64>(std::min(se.load_sum, load_sum));
	}
	const s64 running_sum = static_cast<s64>(se.util_sum >> SCHED_CAPACITY_SHIFT);
	runnable_sum = std::max(runnable_sum, running_sum);

	const u64 load_sum = se_weight * static_cast<u64>(runnable_sum);
	const u64 load_avg = load_sum / divider;
	const s64 delta_avg = static_cast<s64>(load_avg - se.load_avg);
	if (!delta_avg)
		return;
	const s64 delta_sum = static_cast<s64>(load_sum) - static_cast<s64>(se_weight * se.load_sum);

	se.load_sum = static_cast<u64>(runnable_sum);
	se.load_avg = load_avg;
	add_positive(cfs.avg.load_avg, delta_avg);
	add_positive(cfs.avg.load_sum, delta_sum);
	cfs.avg.load_sum = max_u32(cfs.avg.load_sum, cfs.avg.load_avg * PELT_MIN_DIVIDER);
}

}  // namespace

int propagate_entity_load_avg(CfsRqAvg& cfs, SchedAvg& se, u64 se_weight, GroupCfsRq g)
{
	if (!g.avg->propagate)
		return 0;
	g.avg->propagate = false;
	add_tg_cfs_propagate(cfs, g.avg->prop_runnable_sum);
	update_tg_cfs_util(cfs, se, *g.avg);
	update_tg_cfs_runnable(cfs, se, *g.avg);
	update_tg_cfs_load(cfs, se, se_weight, g);
	return 1;
}

void attach_entity_cfs_rq(CfsRqAvg& cfs, SchedAvg& se, u64 now, u64 se_weight, EntityState st, CfsRqLoad rq,
			  PeltFeatures feat)
{
	update_load_avg(cfs, se, now, se_weight, st, rq, feat.attach_age_load ? 0 : SKIP_AGE_LOAD, feat);
	attach_entity_load_avg(cfs, se, se_weight);
}

void detach_entity_cfs_rq(CfsRqAvg& cfs, SchedAvg& se, u64 now, u64 se_weight, EntityState st, CfsRqLoad rq,
			  PeltFeatures feat)
{
	// A task forked but not yet woken, or woken but not yet enqueued, was
	// never attached.
	if (!se.last_update_time)
		return;
	update_load_avg(cfs, se, now, se_weight, st, rq, 0, feat);
	detach_entity_load_avg(cfs, se, se_weight);
}

void reweight_entity_load_avg(CfsRqAvg& cfs, SchedAvg& se, u64 old_se_weight, u64 new_se_weight)
{
	dequeue_load_avg(cfs, se, old_se_weight);
	se.load_avg = (new_se_weight * se.load_sum) / get_pelt_divider(se);
	enqueue_load_avg(cfs, se, new_se_weight);
}

void sync_entity_load_avg(const CfsRqAvg& cfs, SchedAvg& se, u64 se_weight)
{
	pelt::update_load_avg_blocked_se(cfs.avg.last_update_time, se, se_weight);
}

void remove_entity_load_avg(CfsRqAvg& cfs, SchedAvg& se, u64 se_weight)
{
	sync_entity_load_avg(cfs, se, se_weight);
	++cfs.removed.nr;
	cfs.removed.util_avg += se.util_avg;
	cfs.removed.load_avg += se.load_avg;
	cfs.removed.runnable_avg += se.runnable_avg;
}

void migrate_se_pelt_lag(SchedAvg& se, u64 se_weight, const CfsRqAvg& src, const RqClock& src_clock,
			 bool src_curr_is_idle, u64 sched_clock_now)
{
	if (load_avg_is_decayed(se))
		return;
	// Only an idle source is likely to have a stale clock.
	if (!src_curr_is_idle)
		return;

	// Without bandwidth control the throttled time is 0.
	u64 now = src_clock.clock_pelt_idle;
	const u64 lut = src.avg.last_update_time;
	if (now < lut)
		now = lut;
	else
		now += sched_clock_now - src_clock.clock_idle;

	pelt::update_load_avg_blocked_se(now, se, se_weight);
}

// ---- util_est ----

void util_est_enqueue(CfsRqAvg& cfs, const SchedAvg& p, PeltFeatures feat)
{
	if (!feat.util_est)
		return;
	cfs.avg.util_est += static_cast<u32>(task_util_est_raw(p));
}

void util_est_dequeue(CfsRqAvg& cfs, const SchedAvg& p, PeltFeatures feat)
{
	if (!feat.util_est)
		return;
	u32 enqueued = cfs.avg.util_est;
	const u32 est = static_cast<u32>(task_util_est_raw(p));
	enqueued -= enqueued < est ? enqueued : est;
	cfs.avg.util_est = enqueued;
}

void util_est_update(SchedAvg& p, bool task_sleep, PeltFeatures feat)
{
	if (!feat.util_est)
		return;
	// Only a completed activation is a sample (not a migration or a save).
	if (!task_sleep)
		return;

	u32 ewma = p.util_est;
	// util_avg has not moved since the last sample: nothing new to learn.
	if (ewma & UTIL_AVG_UNCHANGED)
		return;

	const u32 dequeued = static_cast<u32>(task_util(p));

	if (ewma <= dequeued) {
		// Increases are taken at once; the average only smooths decreases.
		ewma = dequeued;
	} else {
		const u32 last_ewma_diff = ewma - dequeued;
		// Within ~1%, or the task waited for the CPU (its runnable exceeds its
		// running by more than the margin, so util understates its need):
		// keep the estimate.
		if (last_ewma_diff >= UTIL_EST_MARGIN && !(dequeued + UTIL_EST_MARGIN < task_runnable(p))) {
			// ewma + (dequeued - ewma) / 4, computed as (4 ewma - diff) / 4.
			ewma <<= UTIL_EST_WEIGHT_SHIFT;
			ewma -= last_ewma_diff;
			ewma >>= UTIL_EST_WEIGHT_SHIFT;
		}
	}
	p.util_est = ewma | UTIL_AVG_UNCHANGED;
}

// ---- readers ----

void update_cfs_rq_h_load(CfsRqAvg& cfs, u64 jiffies)
{
	// The root has no parent entity: its h_load is its load_avg, and there is
	// nothing below it to walk.
	if (cfs.last_h_load_update == jiffies)
		return;
	cfs.h_load = cfs_rq_load_avg(cfs);
	cfs.last_h_load_update = jiffies;
}

u64 task_h_load(CfsRqAvg& cfs, const SchedAvg& p, u64 jiffies)
{
	update_cfs_rq_h_load(cfs, jiffies);
	return (p.load_avg * cfs.h_load) / (cfs_rq_load_avg(cfs) + 1);
}

u64 cpu_load_without(CfsRqAvg& cfs, const SchedAvg& p, bool task_on_cpu, u64 jiffies)
{
	if (!task_on_cpu || !p.last_update_time)
		return cpu_load(cfs);
	return cpu_load_less(cfs, task_h_load(cfs, p, jiffies));
}

u64 cpu_load_less(const CfsRqAvg& cfs, u64 p_h_load)
{
	u32 load = static_cast<u32>(cfs.avg.load_avg);
	lsub_positive_u32(load, p_h_load);
	return load;
}

u64 cpu_runnable_without(const CfsRqAvg& cfs, const SchedAvg& p, bool task_on_cpu)
{
	if (!task_on_cpu || !p.last_update_time)
		return cpu_runnable(cfs);
	u32 runnable = static_cast<u32>(cfs.avg.runnable_avg);
	lsub_positive_u32(runnable, p.runnable_avg);
	return runnable;
}

u64 cpu_util(const CfsRqAvg& cfs, UtilTask t, bool boost, bool runnable_follows_task, PeltFeatures feat)
{
	const SchedAvg* p = t.p;
	const bool add_task = p && !t.task_on_cpu && t.dst_is_cpu;
	const bool sub_task = p && t.task_on_cpu && !t.dst_is_cpu;
	u64 util = cfs.avg.util_avg;

	if (runnable_follows_task) {
		// 6.18.40+: util and runnable each see p arrive or leave.
		if (add_task)
			util += task_util(*p);
		else if (sub_task)
			lsub_positive_u64(util, task_util(*p));
		if (boost) {
			u64 runnable = cfs.avg.runnable_avg;
			if (add_task)
				runnable += p->runnable_avg;
			else if (sub_task)
				lsub_positive_u64(runnable, p->runnable_avg);
			util = util > runnable ? util : runnable;
		}
	} else {
		// 6.6 .. 6.18.39: boost first, then p's util_avg on the boosted value.
		if (boost) {
			const u64 runnable = cfs.avg.runnable_avg;
			util = util > runnable ? util : runnable;
		}
		if (sub_task)
			lsub_positive_u64(util, task_util(*p));
		else if (add_task)
			util += task_util(*p);
	}

	if (feat.util_est) {
		// A waking p is not in the estimate yet; a running or queued p is.
		u64 util_est = cfs.avg.util_est;
		if (p && t.dst_is_cpu)
			util_est += task_util_est_raw(*p);
		else if (p && t.queued_or_current)
			lsub_positive_u64(util_est, task_util_est_raw(*p));
		util = util > util_est ? util : util_est;
	}

	return util < SCHED_CAPACITY_SCALE ? util : SCHED_CAPACITY_SCALE;
}

u64 cpu_util_without(const CfsRqAvg& cfs, const SchedAvg& p, bool task_on_cpu, bool queued_or_current,
		     PeltFeatures feat)
{
	UtilTask t;
	if (task_on_cpu && p.last_update_time)
		t = UtilTask{&p, true, false, queued_or_current};
	return cpu_util(cfs, t, false, true, feat);
}

}  // namespace eevdf
