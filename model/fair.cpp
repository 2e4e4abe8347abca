// SPDX-License-Identifier: GPL-2.0-only
// EEVDF on one cfs_rq, after kernel/sched/fair.c (v6.6 .. v6.18, see fair.hpp).
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
// Signed arithmetic wraps (the kernel builds with -fno-strict-overflow); the
// helpers below make that explicit so an overflow here behaves as it would
// in the kernel instead of being undefined.
#include "model/fair.hpp"

namespace eevdf {
namespace {

s64 wmul(s64 a, s64 b) { return static_cast<s64>(static_cast<u64>(a) * static_cast<u64>(b)); }
s64 wadd(s64 a, s64 b) { return static_cast<s64>(static_cast<u64>(a) + static_cast<u64>(b)); }
s64 wsub(s64 a, s64 b) { return static_cast<s64>(static_cast<u64>(a) - static_cast<u64>(b)); }

// div_s64(): C division, truncating toward zero. INT64_MIN / -1 cannot occur
// (divisors here are positive weights).
s64 div_s64(s64 a, s64 b) { return a / b; }

}  // namespace

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

CfsRq::Eligibility CfsRq::eligibility() const
{
	Eligibility e{avg_vruntime_sum, static_cast<s64>(avg_load), ref_vruntime, bug(Bug::ELIGIBLE_STRICT),
		      paths_->avg_full_weight};

	if (curr && curr->on_rq) {
		e.avg = wadd(e.avg, wmul(entity_key(curr), avg_weight(curr)));
		e.wsum += avg_weight(curr);
	}
	return e;
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
	const s64 delta_exec = wrapped_diff(clock_task, curr->exec_start);
	if (delta_exec <= 0)
		return;
	curr->exec_start = clock_task;
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
		if (resched || (paths_->did_preempt_short && did_preempt_short(curr)))
			need_resched = true;
		break;
	case KernelPaths::Protect::Vprot:
		// 6.17+ (0b9ca2dcabc3): also at the end of the protected period.
		if (resched || !protect_slice(curr))
			need_resched = true;
		break;
	}
}

// ---------------------------------------------------------------- protection

u64& CfsRq::vprot_of(SchedEntity* se) const
{
	// 6.17 / 6.18.0 keep vprot in a union with vlag (split by 80390ead2080).
	if (paths_->vprot_is_vlag)
		return reinterpret_cast<u64&>(se->vlag);
	return se->vprot;
}

u64 CfsRq::vprot_of(const SchedEntity* se) const
{
	return paths_->vprot_is_vlag ? static_cast<u64>(se->vlag) : se->vprot;
}

bool CfsRq::protect_slice(const SchedEntity* se) const
{
	if (paths_->protect == KernelPaths::Protect::VlagStash)
		return static_cast<u64>(se->vlag) == se->deadline;
	return wrapped_diff(vprot_of(se), se->vruntime) > 0;
}

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

// ---------------------------------------------------------------- pick

// __pick_eevdf() of v6.6, over its vruntime-ordered tree whose nodes know
// the minimum deadline of their subtree. Ordered by vruntime, the eligible
// entities (v <= V) form a prefix of the tree: walking down from the root,
// an ineligible node sends the search left; an eligible node and everything
// in its left subtree are eligible, so the earliest deadline there is the
// left child's min_deadline. The walk keeps the best eligible node seen and
// the best fully-eligible left subtree, stops where the subtree minimum is
// found, and if that left subtree holds an earlier (or an equal) deadline
// descends it to the entity that carries it. curr starts as the best and is
// replaced only by a strictly earlier deadline on the walk, so it keeps ties
// against the nodes walked, but not against an equal deadline inside a left
// subtree: which of two equal deadlines wins depends on the tree's shape.
SchedEntity* CfsRq::pick_eevdf_66() const
{
	const Eligibility eligible = eligibility();
	SchedEntity* c = curr;
	if (c && (!c->on_rq || !eligible(c->vruntime)))
		c = nullptr;
	if (feat(Feature::RUN_TO_PARITY) && c && protect_slice(c))
		return c;

	SchedEntity* best = c;
	SchedEntity* best_left = nullptr;
	for (SchedEntity* node = timeline.root(); node;) {
		if (!eligible(node->vruntime)) {
			node = node->left;
			continue;
		}
		if (!best || wrapped_diff(best->deadline, node->deadline) > 0)
			best = node;
		if (SchedEntity* left = node->left) {
			if (!best_left || wrapped_diff(best_left->min_deadline, left->min_deadline) > 0)
				best_left = left;
			if (left->min_deadline == node->min_deadline)
				break;  // the subtree's earliest deadline is in the left branch
		}
		if (node->deadline == node->min_deadline)
			break;  // ... or at this node
		node = node->right;
	}
	if (!best_left || wrapped_diff(best_left->min_deadline, best->deadline) > 0)
		return best;
	for (SchedEntity* node = best_left; node;) {
		if (node->deadline == node->min_deadline)
			return node;
		node = node->left && node->left->min_deadline == node->min_deadline ? node->left : node->right;
	}
	return nullptr;
}

// __pick_eevdf() (6.8+ tree, 6.17+ protect parameter): among eligible
// entities the earliest virtual deadline; curr loses ties.
SchedEntity* CfsRq::pick_eevdf_protect(bool protect) const
{
	if (paths_->tree == KernelPaths::Tree::VruntimeKeyed)
		return pick_eevdf_66();
	SchedEntity* se = timeline.leftmost();
	SchedEntity* c = curr;
	SchedEntity* best = nullptr;

	if (nr_queued == 1)
		return c && c->on_rq ? c : se;
	// V does not change during the pick: vruntime_eligible()'s two sums once.
	const Eligibility eligible = eligibility();

	if (c && (!c->on_rq || !eligible(c->vruntime)))
		c = nullptr;

	if (c) {
		const bool honour = paths_->protect == KernelPaths::Protect::VlagStash
					    ? feat(Feature::RUN_TO_PARITY)
					    : protect;
		if (honour && protect_slice(c))
			return c;
	}

	if (se && eligible(se->vruntime)) {
		best = se;
	} else {
		// Heap search: an eligible entity in a left subtree always has an
		// earlier deadline than the node, so descend left whenever the left
		// subtree's min_vruntime says it holds one.
		SchedEntity* node = timeline.root();
		while (node) {
			SchedEntity* left = node->left;
			if (bug(Bug::PICK_FIRST_ELIGIBLE) && eligible(node->vruntime)) {
				best = node;
				break;
			}
			if (left && eligible(left->min_vruntime)) {
				node = left;
				continue;
			}
			if (eligible(node->vruntime)) {
				best = node;
				break;
			}
			node = node->right;
		}
	}

	if (!best || (c && entity_before(c, best)))
		best = c;
	return best;
}

SchedEntity* CfsRq::pick_next_entity(bool protect)
{
	SchedEntity* se = pick_eevdf_protect(protect);
	if (!se) {
		pick_failures++;
		// v6.6's pick_eevdf(): "EEVDF scheduling fail, picking leftmost".
		if (paths_->tree != KernelPaths::Tree::VruntimeKeyed || !timeline.leftmost())
			return nullptr;
		se = timeline.leftmost();
	}
	if (se->sched_delayed) {
		// A delayed entity leaves when it is picked: by now it has
		// burnt off its negative lag.
		dequeue_entity(se, DEQUEUE_SLEEP | DEQUEUE_DELAYED);
		if (after_delayed_dequeue)
			after_delayed_dequeue(after_delayed_dequeue_arg);
		return nullptr;
	}
	return se;
}

void CfsRq::set_next_entity(SchedEntity* se, bool first)
{
	if (se->on_rq) {
		dequeue_from_tree(se);
		update_load_avg(se, UPDATE_TG);
		if (first || !paths_->protect_only_at_pick)
			set_protect_slice(se);
	}
	se->exec_start = clock_task;
	warnings.on(Warn::SET_NEXT_WITH_CURR, curr != nullptr);
	curr = se;
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

SchedEntity* CfsRq::pick_next_task_fair()
{
	SchedEntity* prev = curr;
	SchedEntity* next = nullptr;
	while (nr_queued) {
		update_curr_if_queued();
		const u64 failures = pick_failures;
		next = pick_next_entity();
		if (next || pick_failures != failures)
			break;
	}
	if (next != prev) {
		if (prev)
			put_prev_entity(prev);
		if (next) {
			set_next_entity(next, true);
			list_move_task_head(next);  // __set_next_task_fair(): cfs_tasks is MRU
		}
	}
	return next;
}

void CfsRq::put_prev_entity(SchedEntity* prev)
{
	if (prev->on_rq) {
		update_curr();
		enqueue_in_tree(prev);
		update_load_avg(prev, 0);
	}
	warnings.on(Warn::PUT_PREV_NOT_CURR, curr != prev);
	curr = nullptr;
}

// ---------------------------------------------------------------- queueing

// place_entity(). Joining a queue of weight W with virtual lag vl moves V by
// -w vl / (W + w), leaving the entity only vl W / (W + w); so the lag is
// inflated to vl (W + w) / W beforehand, and after joining it is vl. W counts
// the others only (the entity is not yet accounted): joining an empty queue
// forfeits the lag.
void CfsRq::place_entity(SchedEntity* se, unsigned flags)
{
	if (paths_->ref_point == KernelPaths::RefPoint::ZeroVruntimeAtAvg)
		update_zero_vruntime();
	const u64 vruntime = avg_vruntime();
	s64 lag = 0;

	if (!se->custom_slice)
		se->slice = cfg_->base_slice_ns;
	u64 vslice = vdelta(se->slice, se->load);

	bool update_zero = false;
	if (feat(Feature::PLACE_LAG) && nr_queued && se->vlag) {
		s64 wsum = static_cast<s64>(avg_load);
		if (curr && curr->on_rq)
			wsum += avg_weight(curr);
		if (bug(Bug::NO_LAG_INFLATION)) {
			lag = se->vlag;
		} else {
			lag = wmul(se->vlag, wsum + avg_weight(se));
			// 7.x: an entity heavier than the rest will pull V to itself,
			// so v0 follows it and its large weight meets a small key.
			update_zero = paths_->avg_full_weight && avg_weight(se) > wsum;
			if (warnings.on(Warn::PLACE_ENTITY_NO_LOAD, !wsum))
				wsum = 1;
			lag = div_s64(lag, wsum);
		}
	}
	se->vruntime = vruntime - static_cast<u64>(lag);
	if (update_zero) {
		avg_vruntime_update(-lag);
		ref_vruntime -= static_cast<u64>(lag);
	}

	if (se->rel_deadline) {
		se->deadline += se->vruntime;
		se->rel_deadline = false;
		return;
	}
	// A joining task meets others that are on average halfway through
	// their slice, so it starts with half a slice.
	if (feat(Feature::PLACE_DEADLINE_INITIAL) && (flags & ENQUEUE_INITIAL))
		vslice /= 2;
	se->deadline = se->vruntime + vslice;
}

u64 CfsRq::lag_limit(SchedEntity* se) const
{
	const u64 tick = cfg_->tick_ns;
	if (paths_->lag_clamp == KernelPaths::LagClamp::TwiceSlice) {
		const u64 r = 2 * se->slice > tick ? 2 * se->slice : tick;
		return vdelta(r, se->load);
	}
	// 6e3c0a4e1ad1: the paper's steady-state bound -r_max < lag < max(r_max, q).
	return vdelta(cfs_rq_max_slice() + tick, se->load);
}

bool CfsRq::update_entity_lag(SchedEntity* se)
{
	warnings.on(Warn::UPDATE_ENTITY_LAG_NOT_QUEUED, !se->on_rq);
	if (paths_->ref_point == KernelPaths::RefPoint::ZeroVruntimeAtAvg)
		update_zero_vruntime();
	const u64 v = avg_vruntime();
	const s64 raw = wrapped_diff(v, se->vruntime);
	const s64 limit = static_cast<s64>(lag_limit(se));
	s64 vlag = raw < -limit ? -limit : (raw > limit ? limit : raw);
	if (bug(Bug::NO_LAG_CLAMP))
		vlag = raw;
	// 7.x: delayed dequeue exists to burn off negative lag, so the lag it
	// leaves with is never below what it had when the dequeue was delayed
	// (se->vlag, saved then), and DELAY_ZERO forfeits any positive lag.
	if (paths_->delayed_lag_floor && se->sched_delayed) {
		vlag = vlag > se->vlag ? vlag : se->vlag;
		if (feat(Feature::DELAY_ZERO) && !bug(Bug::DELAY_ZERO_KEEPS_LAG))
			vlag = vlag < 0 ? vlag : 0;
	}
	se->vlag = vlag;
	return v - static_cast<u64>(vlag) != se->vruntime;
}

void CfsRq::enqueue_entity(SchedEntity* se, unsigned flags)
{
	const bool is_curr = curr == se;

	// curr is renormalised before update_curr(); others are placed after
	// it, against a V that includes curr's latest runtime.
	if (is_curr)
		place_entity(se, flags);
	update_curr();
	update_load_avg(se, UPDATE_TG | DO_ATTACH);
	if (!is_curr && !(bug(Bug::MIGRATE_KEEPS_VRUNTIME) && (flags & ENQUEUE_MIGRATED)))
		place_entity(se, flags);

	load += se->load.weight;
	nr_queued++;
	h_nr_idle += se->idle_policy;
	if (se->sched_delayed)
		nr_delayed++;  // it arrives delayed (enqueue_task_fair(): task_new, h_nr_runnable 0)
	list_add_task(se);  // account_entity_enqueue()
	if (flags & ENQUEUE_MIGRATED)
		se->exec_start = 0;  // cold for task_hot()
	if (!is_curr)
		enqueue_in_tree(se);
	se->on_rq = true;
}

bool CfsRq::dequeue_entity(SchedEntity* se, unsigned flags)
{
	const bool sleep = flags & DEQUEUE_SLEEP;

	update_curr();
	if (flags & DEQUEUE_DELAYED) {
		warnings.on(Warn::DEQUEUE_DELAYED_NOT_DELAYED, !se->sched_delayed);
	} else {
		const bool delay = sleep && !(flags & DEQUEUE_SPECIAL);
		warnings.on(Warn::DEQUEUE_SLEEP_ALREADY_DELAYED, delay && se->sched_delayed);
		// An ineligible sleeper stays queued and keeps competing until
		// it has burnt off its negative lag (152e11f6df29).
		if (feat(Feature::DELAY_DEQUEUE) && delay && !entity_eligible(se)) {
			update_load_avg(se, 0);
			if (paths_->util_est_after_ageing)
				util_est_sample(se);
			if (paths_->delayed_lag_floor)
				update_entity_lag(se);  // the lag at the delay: the floor it leaves with
			se->sched_delayed = true;
			nr_delayed++;
			return false;
		}
	}

	update_load_avg(se, UPDATE_TG | ((flags & DEQUEUE_MIGRATING) ? DO_DETACH : 0));
	if (paths_->util_est_after_ageing && sleep && !(flags & DEQUEUE_DELAYED))
		util_est_sample(se);
	update_entity_lag(se);
	if (feat(Feature::PLACE_REL_DEADLINE) && !sleep) {
		se->deadline -= se->vruntime;
		se->rel_deadline = true;
	}
	if (se != curr)
		dequeue_from_tree(se);
	se->on_rq = false;
	load -= se->load.weight;
	nr_queued--;
	list_del_task(se);  // account_entity_dequeue()
	// Only the last non-idle task leaving can make the queue all idle.
	if (se->idle_policy)
		h_nr_idle--;
	else if (sched_idle_rq() && became_sched_idle)
		became_sched_idle(became_sched_idle_arg);

	// DEQUEUE_SAVE without DEQUEUE_MOVE (a nice change) leaves min_vruntime alone.
	if (paths_->ref_point == KernelPaths::RefPoint::MinVruntime &&
	    (flags & (DEQUEUE_SAVE | DEQUEUE_MOVE)) != DEQUEUE_SAVE)
		update_min_vruntime();
	if (flags & DEQUEUE_DELAYED)
		finish_delayed_dequeue_entity(se);
	else if (se->sched_delayed)
		nr_delayed--;  // a migration or sched_change takes it off still delayed
	return true;
}

void CfsRq::finish_delayed_dequeue_entity(SchedEntity* se)
{
	se->sched_delayed = false;
	nr_delayed--;
	// 7.x: update_entity_lag() has applied DELAY_ZERO already.
	if (!paths_->delayed_lag_floor && feat(Feature::DELAY_ZERO) && se->vlag > 0 &&
	    !bug(Bug::DELAY_ZERO_KEEPS_LAG))
		se->vlag = 0;
}

// A delayed task woken while still queued keeps its vruntime and deadline,
// unless DELAY_ZERO finds it eligible by now: then it restarts at zero lag
// with a fresh request. 7.x re-places it whenever update_entity_lag() changed
// its lag from V - v: clamped, raised to its lag at the delay, or capped at 0.
void CfsRq::requeue_delayed_entity(SchedEntity* se)
{
	// "se->sched_delayed should imply: se->on_rq == 1": a delayed entity
	// is still queued, competing until it is eligible.
	warnings.on(Warn::REQUEUE_NOT_DELAYED, !se->sched_delayed);
	warnings.on(Warn::REQUEUE_NOT_QUEUED, !se->on_rq);
	if (paths_->delayed_lag_floor) {
		if (update_entity_lag(se) && !bug(Bug::DELAY_ZERO_REQUEUE_KEEPS)) {
			nr_queued--;
			if (se != curr)
				dequeue_from_tree(se);
			place_entity(se, 0);
			if (se != curr)
				enqueue_in_tree(se);
			nr_queued++;
		}
	} else if (feat(Feature::DELAY_ZERO)) {
		update_entity_lag(se);
		if (se->vlag > 0 && !bug(Bug::DELAY_ZERO_REQUEUE_KEEPS)) {
			nr_queued--;
			if (se != curr)
				dequeue_from_tree(se);
			se->vlag = 0;
			place_entity(se, 0);
			if (se != curr)
				enqueue_in_tree(se);
			nr_queued++;
		}
	}
	update_load_avg(se, 0);
	se->sched_delayed = false;
	nr_delayed--;
}

// enqueue_task_fair() / dequeue_task_fair() of a flat hierarchy: the task's
// util_est joins (leaves) the root's, and a sleep folds util_avg into its
// estimate before the dequeue's own PELT update.
void CfsRq::enqueue_task_fair(SchedEntity* se, unsigned flags)
{
	const PeltFeatures pf{feat(Feature::UTIL_EST), true};
	if (tracks_load() && (!se->sched_delayed || (flags & ENQUEUE_DELAYED)))
		util_est_enqueue(avg, se->avg, pf);
	if (flags & ENQUEUE_DELAYED) {
		requeue_delayed_entity(se);
		return;
	}
	enqueue_entity(se, flags);
}

bool CfsRq::dequeue_task_fair(SchedEntity* se, unsigned flags)
{
	const PeltFeatures pf{feat(Feature::UTIL_EST), true};
	if (tracks_load()) {
		if (!se->sched_delayed)
			util_est_dequeue(avg, se->avg, pf);
		if (!paths_->util_est_after_ageing)
			util_est_update(se->avg, (flags & DEQUEUE_SLEEP) != 0, pf);
	}
	return dequeue_entity(se, flags);
}

// 7.x: update_load_avg(UPDATE_UTIL_EST) samples util_est after the ageing.
void CfsRq::util_est_sample(SchedEntity* se)
{
	if (tracks_load())
		util_est_update(se->avg, true, PeltFeatures{feat(Feature::UTIL_EST), true});
}

void CfsRq::update_load_avg(SchedEntity* se, int flags)
{
	if (!tracks_load())
		return;
	const EntityState st = task_entity_state(se->on_rq, se->sched_delayed, curr == se);
	const CfsRqLoad rq{load, static_cast<u32>(nr_queued - nr_delayed), curr != nullptr};
	eevdf::update_load_avg(avg, se->avg, pelt_now(), se_weight_of(se->load), st, rq, flags,
			       PeltFeatures{feat(Feature::UTIL_EST), true});
}

// list_add() at the head, list_del(), list_move() to the head.
void CfsRq::list_add_task(SchedEntity* se)
{
	se->group_prev = nullptr;
	se->group_next = tasks_head;
	if (tasks_head)
		tasks_head->group_prev = se;
	else
		tasks_tail = se;
	tasks_head = se;
}

void CfsRq::list_del_task(SchedEntity* se)
{
	(se->group_prev ? se->group_prev->group_next : tasks_head) = se->group_next;
	(se->group_next ? se->group_next->group_prev : tasks_tail) = se->group_prev;
	se->group_prev = se->group_next = nullptr;
}

void CfsRq::list_move_task_head(SchedEntity* se)
{
	if (tasks_head == se)
		return;
	list_del_task(se);
	list_add_task(se);
}

// ---------------------------------------------------------------- events

bool CfsRq::do_preempt_short(const SchedEntity* pse, const SchedEntity* se) const
{
	if (!feat(Feature::PREEMPT_SHORT))
		return false;
	if (pse->slice >= se->slice)
		return false;
	if (!entity_eligible(pse) && !bug(Bug::PREEMPT_INELIGIBLE))
		return false;
	return entity_before(pse, se) || !entity_eligible(se);
}

// check_preempt_wakeup_fair(): preempt iff the woken entity is what the pick
// would choose now. The caller handles an idle CPU (always rescheduled).
void CfsRq::check_preempt_wakeup_fair(SchedEntity* pse, unsigned wake_flags)
{
	SchedEntity* se = curr;
	if (!se || se == pse)
		return;
	if (need_resched)
		return;
	if (paths_->idle_preempt_first && preempt_idle_curr(pse, se))
		return;
	if (!feat(Feature::WAKEUP_PREEMPTION))
		return;
	warnings.on(Warn::WAKEUP_PREEMPT_NO_WAKEE, pse == nullptr);  // after find_matching_se() in the kernel
	if (!paths_->idle_preempt_first && preempt_idle_curr(pse, se))
		return;
	// Batch and idle tasks do not preempt (their preemption is driven by the
	// tick): check_preempt_wakeup_fair() returns before update_curr(), 6.6
	// to 7.1. An idle wakee with a non-idle curr returns here too (6.12+
	// return one test earlier, on cse_is_idle != pse_is_idle: the same).
	if (!pse->normal_policy)
		return;

	update_curr();

	switch (paths_->wakeup_preempt) {
	case KernelPaths::WakeupPreempt::Pick:
		wakeup_preempt_pick(pse, se);
		return;
	case KernelPaths::WakeupPreempt::ProtectParam:
		wakeup_preempt_protect_param(pse, se);
		return;
	case KernelPaths::WakeupPreempt::Actions:
		wakeup_preempt_actions(pse, se, wake_flags);
		return;
	}
}

// "Idle tasks are by definition preempted by non-idle tasks": a SCHED_IDLE
// curr is rescheduled for any other waker without update_curr() or a pick.
// The pick that follows is the schedule's: up to 6.12 RUN_TO_PARITY can
// give the CPU straight back to a still protected idle curr; f553741ac8c0
// (6.15+) cancels that protection first. Returns true when it decided.
bool CfsRq::preempt_idle_curr(const SchedEntity* pse, SchedEntity* se)
{
	if (!se->idle_policy || pse->idle_policy)
		return false;
	if (paths_->idle_preempt_cancels_protect)
		cancel_protect_slice(se);
	need_resched = true;
	return true;
}

// 6.6 - 6.16 (PREEMPT_SHORT exists from 6.12).
void CfsRq::wakeup_preempt_pick(SchedEntity* pse, SchedEntity* se)
{
	if (do_preempt_short(pse, se) && !bug(Bug::PREEMPT_SHORT_KEEPS_PROTECTION))
		cancel_protect_slice(se);
	if (pick_eevdf() == pse)
		need_resched = true;
}

// 6.17 - 6.18.32: a shorter-slice waker is judged without curr's protection;
// if it still does not win, curr's protection shrinks to the min slice.
void CfsRq::wakeup_preempt_protect_param(SchedEntity* pse, SchedEntity* se)
{
	const bool short_slice = feat(Feature::PREEMPT_SHORT) && pse->slice < se->slice;
	if (pick_eevdf_protect(!short_slice) == pse) {
		if (short_slice && !bug(Bug::PREEMPT_SHORT_KEEPS_PROTECTION))
			cancel_protect_slice(se);
		need_resched = true;
		return;
	}
	if (feat(Feature::RUN_TO_PARITY) && short_slice)
		update_protect_slice(se);
}

// 6.18.33+ and 7.x (preempt_wakeup_action, NEXT_BUDDY off): a fork or a
// delayed waker never preempts unless its slice is shorter. The wakeup's pick
// is pick_next_entity(), so a delayed entity it chooses is dequeued for good
// and the pick is retried. Every wakeup that reaches the pick and does not
// preempt shrinks curr's protection to the queue's min slice.
void CfsRq::wakeup_preempt_actions(SchedEntity* pse, SchedEntity* se, unsigned wake_flags)
{
	const bool short_slice = feat(Feature::PREEMPT_SHORT) && pse->slice < se->slice;
	if (!short_slice && ((wake_flags & WF_FORK) || pse->sched_delayed))
		return;
	for (;;) {
		const u64 failures = pick_failures;
		SchedEntity* nse = pick_next_entity(!short_slice);
		if (nse == pse) {
			if (short_slice && !bug(Bug::PREEMPT_SHORT_KEEPS_PROTECTION))
				cancel_protect_slice(se);
			need_resched = true;
			return;
		}
		if (nse || !nr_queued || pick_failures != failures)
			break;
	}
	if (feat(Feature::RUN_TO_PARITY))
		update_protect_slice(se);
}

void CfsRq::entity_tick(bool queued)
{
	update_curr();
	if (curr)
		update_load_avg(curr, UPDATE_TG);
	if (queued)  // the hrtick expired: the slice is over
		need_resched = true;
}

void CfsRq::yield_task_fair()
{
	if (nr_queued == 1)
		return;
	update_curr();
	SchedEntity* se = curr;
	if (!se)
		return;
	if (paths_->yield == KernelPaths::Yield::PushDeadline) {
		se->deadline += vdelta(se->slice, se->load);
		return;
	}
	// 79104becf42b: forfeit the rest of the request, if eligible (an
	// ineligible yielder keeps its vruntime, or core scheduling could pick it
	// again and again and run its vruntime away).
	if (!entity_eligible(se))
		return;
	se->vruntime = se->deadline;
	if (bug(Bug::YIELD_KEEPS_DEADLINE)) {
		// v0 moves as it would below; only the deadline is not renewed.
		if (paths_->ref_point == KernelPaths::RefPoint::ZeroVruntimeAtAvg)
			update_zero_vruntime();
		else if (paths_->ref_point == KernelPaths::RefPoint::MinVruntime)
			update_min_vruntime();
		return;
	}
	if (paths_->ref_point == KernelPaths::RefPoint::ZeroVruntimeAtAvg) {
		// 6.18.22+: the new request through update_deadline(), which also
		// pulls zero_vruntime (6.18.17 .. 6.18.21 added the slice by hand
		// and pulled it at the next tick: the same decisions).
		update_deadline(se);
		return;
	}
	se->deadline += vdelta(se->slice, se->load);
	if (paths_->ref_point == KernelPaths::RefPoint::MinVruntime)
		update_min_vruntime();  // 6.18.2 / 6.18.3 only; zero_vruntime (6.18.4) dropped it
}

// reweight_entity() for an entity off the queue: a task's nice change goes
// through dequeue(SAVE) / enqueue(RESTORE), so only the stored virtual lag
// and (6.13+, 6d71a9c61604) the relative deadline are rescaled: lag_i =
// w_i vlag_i and the real-time length of the remaining request are what is
// kept. v6.12.0 leaves the relative deadline in the old weight's units.
void CfsRq::reweight_entity(SchedEntity* se, const LoadWeight& lw)
{
	const s64 old_w = static_cast<s64>(se->load.weight);
	const s64 new_w = static_cast<s64>(bug(Bug::REWEIGHT_NO_RESCALE) ? se->load.weight : lw.weight);
	se->vlag = div_s64(wmul(se->vlag, old_w), new_w);
	if (se->rel_deadline && paths_->reweight_rescales_rel_deadline)
		se->deadline = static_cast<u64>(div_s64(wmul(static_cast<s64>(se->deadline), old_w), new_w));
	if (tracks_load())
		reweight_entity_load_avg(avg, se->avg, se_weight_of(se->load), se_weight_of(lw));
	se->load = lw;
}

}  // namespace eevdf
