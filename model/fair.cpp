// SPDX-License-Identifier: GPL-2.0-only
// EEVDF on one cfs_rq, after kernel/sched/fair.c (v6.6 .. v7.1, see fair.hpp):
// V and eligibility, the tree's sums, update_curr() and slice protection.
// The rest of the cfs_rq's functions are split by concept:
//   fair_pick.cpp     __pick_eevdf(), pick_next_entity(), set_next/put_prev
//   fair_queue.cpp    place_entity(), lag, enqueue/dequeue, delayed dequeue
//   fair_wakeup.cpp   check_preempt_wakeup_fair() in each release's shape
//   fair_events.cpp   entity_tick(), yield_task_fair(), reweight_entity()
//
// Lag and the virtual clock. With weights w_i, the ideal (fluid) service of a
// runnable entity grows as w_i dV, so its lag is lag_i = w_i (V - v_i), and
// Σ lag_i = 0 forces
//
//             Σ w_i v_i
//        V = ---------  = v0 + Σ (v_i - v0) w_i / W,     W = Σ w_i.
//                W
//
// The kernel keeps Σ key_i w_i and W, with key_i = (s64)(v_i - v0), relative
// to a reference point v0 that tracks V, so the products stay small
// (min_vruntime up to 6.18.0; zero_vruntime after 79f3f9bedd14). The sums
// hold the entities in the tree; curr, which is out of the tree while it
// runs, is added on the fly. V is floored, and an entity is eligible when
// lag_i >= 0, i.e. v_i <= V, which is tested exactly as
// Σ key_j w_j >= (v_i - v0) W without dividing.
//
// Signed arithmetic wraps (the kernel builds with -fno-strict-overflow);
// model/wrapping.hpp makes that explicit so an overflow here behaves as it
// would in the kernel instead of being undefined.
#include "model/fair.hpp"
#include "model/wrapping.hpp"

namespace eevdf {

CfsRq::CfsRq(const Config& cfg)
	: ref_vruntime(cfg.vruntime_origin),
	  timeline(cfg.preset->paths, cfg.exact_tree_augments),
	  cfg_(&cfg), paths_(&cfg.preset->paths)
{
	timeline.stale_augment_on_erase = cfg.bugs[Bug::STALE_AUGMENT];
}

// ---------------------------------------------------------------- V

void CfsRq::avg_vruntime_add(const SchedEntity* se)
{
	avg_vruntime_sum = wadd(avg_vruntime_sum, wmul(entity_key(se), avg_weight(se)));
	avg_load += static_cast<u64>(avg_weight(se));
}

void CfsRq::avg_vruntime_sub(const SchedEntity* se)
{
	avg_vruntime_sum = wsub(avg_vruntime_sum, wmul(entity_key(se), avg_weight(se)));
	avg_load -= static_cast<u64>(avg_weight(se));
}

// v0 += delta moves every key by -delta.
void CfsRq::avg_vruntime_update(s64 delta)
{
	avg_vruntime_sum = wsub(avg_vruntime_sum, wmul(static_cast<s64>(avg_load), delta));
}

u64 CfsRq::avg_vruntime() const
{
	s64 avg = avg_vruntime_sum;
	s64 wsum = static_cast<s64>(avg_load);

	if (curr && curr->on_rq) {
		avg = wadd(avg, wmul(entity_key(curr), avg_weight(curr)));
		wsum += avg_weight(curr);
	}
	if (wsum) {
		// C division truncates toward zero; shifting a negative sum by
		// load - 1 first makes it a floor (650cad561cce).
		if (avg < 0 && !bug(Bug::AVG_VRUNTIME_TRUNC))
			avg = wsub(avg, wsum - 1);
		avg = div_s64(avg, wsum);
	}
	return ref_vruntime + static_cast<u64>(avg);
}

bool CfsRq::vruntime_eligible(u64 vruntime) const { return eligibility()(vruntime); }

// 6.6 .. 6.18.0: v0 = min_vruntime, which only moves forward, to the least
// of curr's and the tree's vruntimes.
void CfsRq::update_min_vruntime()
{
	const SchedEntity* root = timeline.root();
	const SchedEntity* c = (curr && curr->on_rq) ? curr : nullptr;
	u64 vruntime = ref_vruntime;

	if (c)
		vruntime = c->vruntime;
	if (root)
		vruntime = c ? min_vruntime(vruntime, root->min_vruntime) : root->min_vruntime;

	const s64 delta = wrapped_diff(vruntime, ref_vruntime);
	if (delta > 0) {
		avg_vruntime_update(delta);
		ref_vruntime = vruntime;
	}
}

// 79f3f9bedd14 (v6.19, 6.18.4+): v0 = zero_vruntime, re-centred on V.
// Re-centring changes no decision (V and every eligibility test are
// invariant under it); it keeps key * weight far from overflow. 6.18.4 ..
// 6.18.16 re-centre at every tree insert and erase; from 6.18.17 (and in
// 7.x) avg_vruntime() itself pulls v0 along, so it moves where the kernel
// calls avg_vruntime(): placement, lag saving and deadline renewal.
void CfsRq::update_zero_vruntime()
{
	const u64 v = avg_vruntime();
	avg_vruntime_update(wrapped_diff(v, ref_vruntime));
	ref_vruntime = v;
}

u64 CfsRq::cfs_rq_min_slice() const
{
	u64 min_slice = ~0ULL;
	if (curr && curr->on_rq)
		min_slice = curr->slice;
	if (const SchedEntity* root = timeline.root())
		min_slice = root->min_slice < min_slice ? root->min_slice : min_slice;
	return min_slice;
}

u64 CfsRq::cfs_rq_max_slice() const
{
	u64 max_slice = 0;
	if (curr && curr->on_rq)
		max_slice = curr->slice;
	if (const SchedEntity* root = timeline.root())
		max_slice = root->max_slice > max_slice ? root->max_slice : max_slice;
	return max_slice;
}

// ---------------------------------------------------------------- tree

void CfsRq::enqueue_in_tree(SchedEntity* se)
{
	avg_vruntime_add(se);
	if (paths_->ref_point == KernelPaths::RefPoint::ZeroVruntimeAtQueue)
		update_zero_vruntime();
	timeline.insert(se);
}

void CfsRq::dequeue_from_tree(SchedEntity* se)
{
	timeline.erase(se);
	avg_vruntime_sub(se);
	if (paths_->ref_point == KernelPaths::RefPoint::ZeroVruntimeAtQueue)
		update_zero_vruntime();
}

// ---------------------------------------------------------------- accounting

// update_deadline(): once v_i reaches vd_i the request is used up; the next
// one starts at the current v_i (overshoot is not carried, the kernel's
// "XXX: strictly: vd_i += N*r_i/w_i"), and the task should reschedule.
bool CfsRq::update_deadline(SchedEntity* se)
{
	if (wrapped_diff(se->vruntime, se->deadline) < 0)
		return false;
	if (!se->custom_slice)
		se->slice = cfg_->base_slice_ns;
	if (bug(Bug::DEADLINE_FROM_OLD))
		se->deadline += vdelta(se->slice, se->load);
	else
		se->deadline = se->vruntime + vdelta(se->slice, se->load);
	if (paths_->ref_point == KernelPaths::RefPoint::ZeroVruntimeAtAvg)
		update_zero_vruntime();  // b3d99f43c72b: keep v0 near V with one long-running task
	return true;
}

// resched_curr_lazy() (core.c __resched_curr(), 6.13 .. 7.1): a request on
// top of either flag does nothing; the idle task (no curr) always gets the
// full flag. Before 6.13 and outside PREEMPT_LAZY it is resched_curr().
void CfsRq::resched_curr_lazy()
{
	CfsRq& rq = rq_root();
	if (rq.need_resched)
		return;
	rq.need_resched = true;
	rq.resched_lazy = cfg_->preempt == Preempt::Lazy && rq.curr;
}

bool CfsRq::did_preempt_short(const SchedEntity* c) const
{
	if (!feat(Feature::PREEMPT_SHORT))
		return false;
	if (protect_slice(c))
		return false;
	return !entity_eligible(c);
}

void CfsRq::update_curr()
{
	if (!curr)
		return;
	const u64 now = rq_root().clock_task;
	const s64 delta_exec = wrapped_diff(now, curr->exec_start);
	if (delta_exec <= 0)
		return;
	curr->exec_start = now;
	curr->sum_exec_runtime += static_cast<u64>(delta_exec);

	curr->vruntime += vdelta(static_cast<u64>(delta_exec), curr->load);
	const bool resched = update_deadline(curr) && !bug(Bug::NO_RESCHED_ON_RENEWAL);
	if (paths_->ref_point == KernelPaths::RefPoint::MinVruntime)
		update_min_vruntime();

	if (nr_queued == 1)
		return;
	switch (paths_->protect) {
	case KernelPaths::Protect::VlagStash:
		// 6.6-6.11: only on renewal; 6.12-6.16 also when protection was
		// cancelled and curr became ineligible.
		if (resched || (paths_->did_preempt_short && did_preempt_short(curr))) {
			resched_curr_lazy();
			clear_buddies(curr);
		}
		break;
	case KernelPaths::Protect::Vprot:
		// 6.17+ (0b9ca2dcabc3): also at the end of the protected period.
		if (resched || !protect_slice(curr)) {
			resched_curr_lazy();
			clear_buddies(curr);
		}
		break;
	}
}

// ---------------------------------------------------------------- protection

void CfsRq::set_protect_slice(SchedEntity* se)
{
	if (paths_->protect == KernelPaths::Protect::VlagStash) {
		// "HACK, stash a copy of deadline at the point of pick in vlag"
		se->vlag = static_cast<s64>(se->deadline);
		return;
	}
	// 6.17+: protect until the deadline, or for the smallest slice queued
	// (052c3d87c82e); without RUN_TO_PARITY for one unscaled base slice
	// (74eec63661d4). Called with curr == NULL and se out of the tree, so
	// cfs_rq_min_slice() covers every other queued entity.
	u64 slice = paths_->normalized_base_slice;
	u64 vprot = se->deadline;
	if (feat(Feature::RUN_TO_PARITY))
		slice = cfs_rq_min_slice();
	if (bug(Bug::PROTECT_FULL_SLICE) && feat(Feature::RUN_TO_PARITY))
		slice = se->slice;  // as before 052c3d87c82e: to the deadline
	slice = slice < se->slice ? slice : se->slice;
	if (slice != se->slice)
		vprot = min_vruntime(vprot, se->vruntime + vdelta(slice, se->load));
	vprot_of(se) = vprot;
}

void CfsRq::update_protect_slice(SchedEntity* se)
{
	const u64 slice = cfs_rq_min_slice();
	vprot_of(se) = min_vruntime(vprot_of(se), se->vruntime + vdelta(slice, se->load));
}

void CfsRq::cancel_protect_slice(SchedEntity* se)
{
	if (!protect_slice(se))
		return;
	if (paths_->protect == KernelPaths::Protect::VlagStash)
		se->vlag = static_cast<s64>(se->deadline + 1);
	else
		vprot_of(se) = se->vruntime;
}

}  // namespace eevdf
