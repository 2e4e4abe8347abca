// SPDX-License-Identifier: GPL-2.0-only
// A group entity's weight on one CPU: update_cfs_group(), a cpu.weight
// write (__sched_group_set_shares()), and reweight_entity() of a queued
// entity in each release's form.
//
// calc_group_shares() gives tg->shares * load / (tg->load_avg -
// tg_load_avg_contrib + load), clamped to [MIN_SHARES, tg->shares]. With
// one CPU, tg->load_avg is that CPU's contribution alone, so the
// denominator is load and the share is tg->shares whenever load > 0; and
// from 6.13 update_cfs_group() returns early on an empty group cfs_rq
// (66951e4860d3: an emptied group keeps its weight), where load could be 0.
// So on one CPU a group's entity weighs tg->shares from its first enqueue
// on, with no PELT: the oracle needs no load averages to decide. 6.6.0
// reweights an emptied group too, by its load_avg alone: tg->shares while
// that is above 0, which the oracle assumes as the model does (it changes
// no decision: the entity is off the queue; docs/model.md).
#include "oracle/internal.hpp"

#include <algorithm>

namespace eevdf::oracle {

void DecisionOracle::update_cfs_group(Ent& e)
{
	if (e.my_q < 0)
		return;
	if (!qs_[static_cast<size_t>(e.my_q)].nr_queued && rules_->empty_group_keeps)
		return;
	const u64 shares = tg_shares_[static_cast<size_t>(e.my_q - 1)];
	if (e.load.weight == shares && !rules_->cfs_group_always)
		return;
	if (e.on_rq)
		reweight_queued(e, LoadWeight{shares, 0});
	else
		reweight_off_queue(e, LoadWeight{shares, 0});
}

// A cpu.weight (cpu.shares) write by the running task: tg->shares, then on
// this CPU update_cfs_group() of the group's entity and every one above
// it. An idle group refuses the write (the model does not change its
// shares). A cpu.idle write (sched_group_set_idle()) makes the group's
// cfs_rq idle or not, then sets its shares the same way (WEIGHT_IDLEPRIO
// or NICE_0_LOAD). The model's new values are the stimulus, read here
// before the hook that follows the write.
void DecisionOracle::sync_group_shares(const Simulation& sim)
{
	const auto& groups = sim.groups();
	for (size_t g = 0; g < tg_shares_.size(); g++) {
		qs_[g + 1].idle = groups[g].idle;  // a cpu.idle write: se_is_idle() of its entity from now on
		if (groups[g].shares == tg_shares_[g])
			continue;
		tg_shares_[g] = groups[g].shares;
		for (int se = group_se(g); se != IDLE; se = ent(se).parent)
			update_cfs_group(ent(se));
	}
}

// The lag a queued reweight saves is clamped by cfs_rq_max_slice(), the
// root's max_slice augment, stale once slices were mixed (see
// cfs_rq_min_slice()); the flat oracle adopts such a lag where it is saved
// off the queue, but a queued reweight places the entity by it at once, so
// unless the model keeps exact augments nothing is compared from then on.
void DecisionOracle::note_stale_lag_clamp(bool dependent)
{
	if (dependent && !cfg_.exact_tree_augments)
		stale_augment_ = true;
}

// reweight_entity() of a queued entity: update_curr(); then
//  - 6.6.0: v kept, d - v rescaled (curr charged only);
//  - 6.7 .. 6.12: reweight_eevdf() below;
//  - 6.13 .. 6.18.16 (6d71a9c61604): save the lag (update_entity_lag())
//    and d - v, rescale both by w_old / w_new, place again by the lag;
//  - 6.18.17+ (ff38424030f9): also curr's protection, as vprot - v;
//  - 7.x (101f3498b4bd): V preserved: lag, d - V and vprot - V rescaled,
//    v = V - lag with no place_entity().
void DecisionOracle::reweight_queued(Ent& e, const LoadWeight& lw)
{
	On on(*this, e.cfs);
	const bool is_curr = q().curr == id_of(e);
	if (rules_->queued_reweight == Rules::QueuedReweight::KeepVruntime) {
		// 6.6.0: update_curr() for curr only; v stays, d - v is rescaled
		// by w / w'; the entity keeps its place (and insertion order).
		if (is_curr)
			update_curr();
		e.deadline = e.vruntime + static_cast<u64>(wscale(static_cast<s64>(e.deadline - e.vruntime), e.load.weight,
								  lw.weight));
		e.load = lw;
		return;
	}
	update_curr();
	if (rules_->queued_reweight == Rules::QueuedReweight::ReweightEevdf) {
		reweight_eevdf(e, lw, is_curr);
		return;
	}
	const auto form = rules_->queued_reweight;
	u64 avruntime = 0;
	bool rel_vprot = false;
	s64 vprot = 0;
	if (form == Rules::QueuedReweight::PreserveV) {
		avruntime = avg_vruntime();
		const u64 bound = cfs_rq_max_slice() + cfg_.tick_ns;
		const s64 limit = static_cast<s64>(cdf(bound, e));
		const s64 lag = static_cast<s64>(avruntime - e.vruntime);
		e.lagword = static_cast<u64>(lag < -limit ? -limit : (lag > limit ? limit : lag));  // entity_lag()
		const s64 low = static_cast<s64>(cdf(std::min(q().min_seen_slice, bound) + cfg_.tick_ns, e));
		note_stale_lag_clamp(q().slices_mixed && (lag > low || lag < -low));
		e.deadline -= avruntime;
		if (is_curr && protect_slice(e)) {
			prot(e) -= avruntime;
			rel_vprot = true;
		}
	} else {
		update_entity_lag(e);
		note_stale_lag_clamp(e.slice_augment_dependent);
		e.deadline -= e.vruntime;
		if (form == Rules::QueuedReweight::PlaceEntityRelVprot && is_curr && protect_slice(e)) {
			vprot = static_cast<s64>(prot(e) - e.vruntime);
			rel_vprot = true;
		}
	}
	e.rel_deadline = true;
	q().nr_queued--;
	if (!is_curr)
		tree_erase(e);
	const u64 old_w = e.load.weight;
	auto rescale = [&](s64 x) { return wscale(x, old_w, lw.weight); };
	e.lagword = static_cast<u64>(rescale(e.vlag()));
	e.deadline = static_cast<u64>(rescale(static_cast<s64>(e.deadline)));
	if (rel_vprot && form == Rules::QueuedReweight::PreserveV)
		prot(e) = static_cast<u64>(rescale(static_cast<s64>(prot(e))));
	else if (rel_vprot)
		vprot = rescale(vprot);
	e.load = lw;
	if (form == Rules::QueuedReweight::PreserveV) {
		if (rel_vprot)
			prot(e) += avruntime;
		e.deadline += avruntime;
		e.rel_deadline = false;
		e.vruntime = avruntime - e.lagword;
	} else {
		place_entity(e, 0);
		if (rel_vprot)
			prot(e) = e.vruntime + static_cast<u64>(vprot);
	}
	if (!is_curr)
		tree_insert(e);
	q().nr_queued++;
}

// reweight_eevdf() (6.7 .. 6.12), after update_curr(): with V sampled
// while the entity is still in the sums, v = V - clamp(V - v) w / w' (only
// if v != V; clamped at the old weight, max(2 slice, TICK)) and
// d = V + (d - V) w / w'. se->vlag (the stash) is not written; the
// tree is updated, then update_min_vruntime().
void DecisionOracle::reweight_eevdf(Ent& e, const LoadWeight& lw, bool is_curr)
{
	const u64 avruntime = avg_vruntime();
	if (!is_curr)
		tree_erase(e);
	const u64 old_w = e.load.weight;
	auto rescale = [&](s64 x) { return wscale(x, old_w, lw.weight); };
	if (avruntime != e.vruntime) {
		const u64 r = std::max<u64>(2 * e.slice, cfg_.tick_ns);
		const s64 limit = static_cast<s64>(cdf(r, e));
		const s64 lag = static_cast<s64>(avruntime - e.vruntime);
		e.vruntime = avruntime - static_cast<u64>(rescale(std::clamp(lag, -limit, limit)));
	}
	e.deadline = avruntime + static_cast<u64>(rescale(static_cast<s64>(e.deadline - avruntime)));
	e.load = lw;
	if (!is_curr)
		tree_insert(e);
	update_min_vruntime();
}

}  // namespace eevdf::oracle
