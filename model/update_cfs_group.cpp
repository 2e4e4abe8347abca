// SPDX-License-Identifier: GPL-2.0-only
// A group's weight on each CPU (kernel/sched/fair.c; 6.18.44 and 7.1.5 alike,
// 6.6.0 where noted): update_tg_load_avg(), calc_group_shares(),
// update_cfs_group().
//
// A group with tg->shares S and load L_i on CPU i should weigh on CPU i
//
//   ge_i = S * L_i / Σ_j L_j                                          (1)
//
// so that its entities together weigh S. Σ_j L_j is global: each CPU keeps
// only its own part current (tg->load_avg, updated differentially, at most
// once per ms per cfs_rq from 6.7 (1528c661c24b), and only when the part
// moved by more than 1/64),
// and calc_group_shares() replaces its own stale contribution by its
// current load, floored by the instantaneous weight so that a group just
// woken on an idle CPU is not divided by ~0:
//
//   load  = max(scale_load_down(grq->load.weight), grq->avg.load_avg)
//   ge_i  = S * load / (tg->load_avg - grq->tg_load_avg_contrib + load)   (2)
//
// clamped to [MIN_SHARES, S], MIN_SHARES unscaled (2 of 1 << 20: a group
// can be split finely over many CPUs). On one CPU the denominator of (2) is
// load itself, so ge = S whenever the group has load there (the model does
// not age PELT on one CPU, and needs not: (2) gives S with or without it).
#include <algorithm>

#include "model/fair.hpp"
#include "model/task_group.hpp"

namespace eevdf {

void CfsRq::update_tg_load_avg()
{
	if (!tg)
		return;  // the root group's load_avg is never read
	// sched_clock_cpu(): the model's clock_task is its clock (no IRQ or
	// steal time). A cfs_rq that never updated is due, as the kernel's are:
	// their sched_clock is far past 1 ms at boot.
	const u64 now = rq_root().clock_task;
	if (paths_->tg_load_ratelimit && last_update_tg_load_avg != ~0ULL &&
	    now - last_update_tg_load_avg < NSEC_PER_MSEC)
		return;
	const s64 delta = static_cast<s64>(avg.avg.load_avg) - tg_load_avg_contrib;
	const s64 abs_delta = delta < 0 ? -delta : delta;
	if (abs_delta > tg_load_avg_contrib / 64) {
		tg->load_avg += delta;
		tg_load_avg_contrib = static_cast<s64>(avg.avg.load_avg);
		last_update_tg_load_avg = now;
	}
}

u64 CfsRq::calc_group_shares() const
{
	const s64 tg_shares = static_cast<s64>(tg->shares);
	const s64 load = std::max(static_cast<s64>(scale_load_down(this->load)), static_cast<s64>(avg.avg.load_avg));
	const s64 tg_weight = tg->load_avg - tg_load_avg_contrib + load;
	// The kernel's long product would overflow only past 2^35 of load on
	// one CPU (~400,000 nice -20 tasks in one group); 128 bits here.
	s128 shares = static_cast<s128>(tg_shares) * load;
	if (tg_weight)
		shares /= tg_weight;
	return static_cast<u64>(std::clamp<s128>(shares, static_cast<s128>(MIN_SHARES), tg_shares));
}

// update_cfs_group(). 6.13+ (66951e4860d3): an emptied group keeps its
// weight, which matters for a delayed group entity. Before, the share of
// an emptied group comes from its load_avg alone: on several CPUs the
// model ages it; on one it does not, and takes tg->shares, which is what
// (2) gives whenever that load_avg is above 0 (the kernel's blocked load
// decays over hundreds of ms; docs/model.md says when it would not be).
// 6.6.0 reweights even at an unchanged share (its update_curr() for curr).
void CfsRq::update_group_entity_shares(SchedEntity* se)
{
	const CfsRq* g = se->my_q;
	u64 shares;
	if (g->load)
		shares = g->calc_group_shares();
	else if (paths_->empty_group_keeps_weight)
		return;
	else
		shares = tracks_load() ? g->calc_group_shares() : g->tg->shares;
	if (se->load.weight != shares || paths_->update_cfs_group_always)
		reweight_entity(se, LoadWeight{shares, 0});
}

}  // namespace eevdf
