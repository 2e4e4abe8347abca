// SPDX-License-Identifier: GPL-2.0-only
// The decision oracle (see decision_oracle.hpp for the design). Every
// function below is named after the kernel function whose rule it applies
// and notes the versions where that rule differs; the sources are v6.6.0,
// v6.12.0 and the 6.18.y stable tree (6.18-rc5 = 6.18.0, .2, .4/.5, .17,
// .22, .33, .44).
#include "oracle/decision_oracle.hpp"

#include <algorithm>
#include <limits>

namespace eevdf::oracle {

namespace {

constexpr unsigned EN_WAKEUP = 0x01, EN_RESTORE = 0x02, EN_MOVE = 0x04, EN_INITIAL = 0x80;
constexpr unsigned DQ_SLEEP = 0x01, DQ_SAVE = 0x02, DQ_MOVE = 0x04, DQ_SPECIAL = 0x10, DQ_DELAYED = 0x200;
constexpr unsigned WF_FORK_ = 0x04, WF_TTWU_ = 0x08;
constexpr u64 NONE = ~0ULL;
constexpr u64 HRTICK_MIN_NS = 10000;  // hrtick_start(): no slice shorter than 10 us

std::string num(u64 v) { return std::to_string(v); }
const char* kind_of_wakeup(unsigned wake_flags) { return (wake_flags & 0x04) ? "fork" : "wakeup"; }
std::string snum(s64 v) { return std::to_string(v); }
std::string who(int id) { return id == IDLE ? std::string("idle") : "task " + std::to_string(id); }

s128 floor_div(s128 a, s128 b)
{
	s128 q = a / b;
	if ((a % b) != 0 && ((a < 0) != (b < 0)))
		q -= 1;
	return q;
}

// True when the model simulates several CPUs (a Config that counts online
// CPUs apart from simulated ones); the oracle follows one CPU.
template <class C>
bool several_cpus(const C& cfg)
{
	if constexpr (requires { cfg.online_cpus; })
		return cfg.cpus > 1;
	else
		return false;
}

}  // namespace

struct DecisionOracle::Rules {
	bool vruntime_tree;          // 6.6: vruntime-keyed tree, min_deadline heap walk
	enum class Ref { MinVruntime, ZeroAtTreeOps, ZeroAtAvg } ref;
	bool stash;                  // 6.6-6.16: protection is vlag == deadline
	bool did_preempt_short;      // 6.12-6.16: update_curr() resched on did_preempt_short()
	bool custom_slices;          // 6.12+: se->custom_slice
	bool v612_code;              // 6.12+: DELAY_*, PLACE_REL_DEADLINE, PREEMPT_SHORT, nr_queued == 1 pick
	bool lag_clamp_max_slice;    // 6.18.17+ (6e3c0a4e1ad1): clamp to max_slice + TICK_NSEC
	bool protect_first_only;     // 6.18.17+ (bcd74b2ffdd0): set_protect_slice() only when first
	bool yield_forfeit;          // 6.18.2+ (79104becf42b): vruntime = deadline if eligible
	bool yield_min_vruntime;     // 6.18.2/.3: ... followed by update_min_vruntime()
	bool fork_initial;           // 6.8+: wake_up_new_task() passes ENQUEUE_INITIAL
	bool rel_deadline_613;       // 6.13+ (6d71a9c61604): off-queue reweight rescales d - v
	enum class Preempt { V66, V612, ProtectParam, Actions } preempt;
	bool hrtick_every_pick;      // 6.6: pick_next_task_fair() re-arms even for a re-pick
	bool avg_in_update_deadline; // 6.18.22+: update_deadline() calls avg_vruntime()
	u64 normalized_slice;        // normalized_sysctl_sched_base_slice
	// 7.x (v7.1.5 fair.c, core.c):
	bool calc_div;               // 64-bit __calc_delta(): (delta * weight) / lw->weight
	bool full_weight;            // avg_vruntime_weight(): load.weight; vruntime_eligible() in __int128
	bool vprot_split;            // se->vprot is not se->vlag's union partner
	bool delayed_floor;          // update_entity_lag(): a delayed entity's lag >= its lag at the delay
	bool hrtick_v7;              // hrtick to the virtual deadline, deferred inside __schedule()
};

std::optional<Version> version_of(std::string_view n)
{
	if (n == "6.6")
		return Version::V6_6;
	if (n == "6.12")
		return Version::V6_12;
	if (n == "6.15")
		return Version::V6_15;
	if (n == "6.18" || n == "6.18.0")
		return Version::V6_18_0;
	if (n == "6.18.2")
		return Version::V6_18_2;
	if (n == "6.18.5")
		return Version::V6_18_5;
	if (n == "6.18.17" || n == "6.18.y")
		return Version::V6_18_17;
	if (n == "6.18.33" || n == "6.18.39")  // 6.18.39 differs only in fork placement across CPUs
		return Version::V6_18_33;
	if (n == "7.1.5")
		return Version::V7_1_5;
	return std::nullopt;
}

std::string_view version_name(Version v)
{
	switch (v) {
	case Version::V6_6: return "6.6";
	case Version::V6_12: return "6.12";
	case Version::V6_15: return "6.15";
	case Version::V6_18_0: return "6.18.0";
	case Version::V6_18_2: return "6.18.2";
	case Version::V6_18_5: return "6.18.5";
	case Version::V6_18_17: return "6.18.17";
	case Version::V6_18_33: return "6.18.33";
	case Version::V7_1_5: return "7.1.5";
	}
	return "?";
}

// One row per version, each checked against that version's source. The
// 6.18.17 row follows 6.18.22's placement of the zero_vruntime pull (in
// update_deadline(); 6.18.17-.21 pulled it in entity_tick()): the two differ
// only in v0, which decides nothing while anything is queued.
static const DecisionOracle::Rules* rules_for(Version v)
{
	using Rl = DecisionOracle::Rules;
	using P = Rl::Preempt;
	static const Rl r66{true, Rl::Ref::MinVruntime, true, false, false, false, false, false, false, false, false,
			    false, P::V66, true, false, 750000, false, false, false, false, false};
	static const Rl r612{false, Rl::Ref::MinVruntime, true, true, true, true, false, false, false, false, true,
			     false, P::V612, false, false, 750000, false, false, false, false, false};
	static const Rl r615{false, Rl::Ref::MinVruntime, true, true, true, true, false, false, false, false, true,
			     true, P::V612, false, false, 700000, false, false, false, false, false};
	static const Rl r6180{false, Rl::Ref::MinVruntime, false, false, true, true, false, false, false, false, true,
			      true, P::ProtectParam, false, false, 700000, false, false, false, false, false};
	static const Rl r6182{false, Rl::Ref::MinVruntime, false, false, true, true, false, false, true, true, true,
			      true, P::ProtectParam, false, false, 700000, false, false, false, false, false};
	static const Rl r6185{false, Rl::Ref::ZeroAtTreeOps, false, false, true, true, false, false, true, false, true,
			      true, P::ProtectParam, false, false, 700000, false, false, false, false, false};
	static const Rl r61817{false, Rl::Ref::ZeroAtAvg, false, false, true, true, true, true, true, false, true,
			       true, P::ProtectParam, false, true, 700000, false, false, false, false, false};
	static const Rl r61833{false, Rl::Ref::ZeroAtAvg, false, false, true, true, true, true, true, false, true,
			       true, P::Actions, false, true, 700000, false, false, false, false, false};
	static const Rl r715{false, Rl::Ref::ZeroAtAvg, false, false, true, true, true, true, true, false, true,
			     true, P::Actions, false, true, 700000, true, true, true, true, true};
	switch (v) {
	case Version::V6_6: return &r66;
	case Version::V6_12: return &r612;
	case Version::V6_15: return &r615;
	case Version::V6_18_0: return &r6180;
	case Version::V6_18_2: return &r6182;
	case Version::V6_18_5: return &r6185;
	case Version::V6_18_17: return &r61817;
	case Version::V6_18_33: return &r61833;
	case Version::V7_1_5: return &r715;
	}
	return nullptr;
}

std::string Disagreement::describe() const
{
	return "event " + std::to_string(event) + " at t=" + std::to_string(t) + " ns, " + stimulus + ": " + field +
	       ": oracle " + oracle + ", model " + model + " [" + klass + "]";
}

DecisionOracle::DecisionOracle(const Config& cfg, Options opt) : cfg_(cfg), opt_(opt)
{
	if (!cfg.preset)
		throw std::invalid_argument("decision oracle: no preset");
	const auto v = version_of(cfg.preset->name);
	if (!v)
		throw std::invalid_argument("decision oracle: no rules for preset \"" + std::string(cfg.preset->name) + "\"");
	if (several_cpus(cfg))
		throw std::invalid_argument("decision oracle: one CPU only (cpus = " + std::to_string(cfg.cpus) + ")");
	version_ = *v;
	rules_ = rules_for(version_);
	v0_ = cfg.vruntime_origin;
}

std::string DecisionOracle::report() const
{
	std::string s = "decision oracle (" + std::string(version_name(version_)) + "): ";
	s += first_ ? first_->describe() : std::string("no disagreement");
	s += "; hooks " + num(counters_.hooks) + ", comparisons " + num(counters_.comparisons) + ", picks " +
	     num(counters_.picks) + ", undetermined " + num(counters_.undetermined_picks) + " picks and " +
	     num(counters_.undetermined_slices) + " slice-augment values, overflow-skipped " +
	     num(counters_.overflow_states) + ", classes " + num(classes_.size());
	return s;
}

// ---------------------------------------------------------------- features

// A sched_feat() that the version has: 6.6 has no DELAY_DEQUEUE,
// DELAY_ZERO, PLACE_REL_DEADLINE or PREEMPT_SHORT code, so flipping them
// there changes nothing.
bool DecisionOracle::feat(Feature f) const
{
	switch (f) {
	case Feature::PLACE_REL_DEADLINE:
	case Feature::PREEMPT_SHORT:
	case Feature::DELAY_DEQUEUE:
	case Feature::DELAY_ZERO:
		if (!rules_->v612_code)
			return false;
		break;
	default:
		break;
	}
	return cfg_.features[f];
}

// ---------------------------------------------------------------- V

// 7.x avg_vruntime_weight(): the full weight (PARANOID_AVG's shift is off).
u64 DecisionOracle::avg_w(const Ent& e) const
{
	return rules_->full_weight ? e.load.weight : scale_load_down(e.load.weight);
}

// calc_delta_fair(); 7.x on 64-bit: (delta * NICE_0_LOAD) / weight, the
// product wrapping as a u64 does.
u64 DecisionOracle::cdf(u64 delta, const Ent& e) const
{
	if (rules_->calc_div)
		return e.load.weight == NICE_0_LOAD ? delta : delta * NICE_0_LOAD / e.load.weight;
	LoadWeight lw = e.load;
	return calc_delta_fair(delta, lw);
}

u64& DecisionOracle::prot(Ent& e) const { return rules_->vprot_split ? e.protword : e.lagword; }
u64 DecisionOracle::prot(const Ent& e) const { return rules_->vprot_split ? e.protword : e.lagword; }

void DecisionOracle::need_s64(s128 x)
{
	if (x > std::numeric_limits<s64>::max() || x < std::numeric_limits<s64>::min())
		overflow_ = true;
}

// The tree's entities and curr if it is on the queue: the terms of
// cfs_rq->avg_vruntime (+ curr's, added by avg_vruntime()/vruntime_eligible()).
void DecisionOracle::sums(s128& S, s128& W) const
{
	S = 0;
	W = 0;
	for (size_t i = 0; i < ents_.size(); i++) {
		const Ent& e = ents_[i];
		if (!(e.in_tree || (static_cast<int>(i) == curr_ && e.on_rq)))
			continue;
		const s128 w = static_cast<s128>(avg_w(e));
		S += static_cast<s128>(wrapped_diff(e.vruntime, v0_)) * w;
		W += w;
	}
}

u64 DecisionOracle::v_now()
{
	s128 S, W;
	sums(S, W);
	if (!W)
		return v0_;
	need_s64(S);
	if (S < 0)
		need_s64(S - (W - 1));
	return v0_ + static_cast<u64>(static_cast<s64>(floor_div(S, W)));
}

// avg_vruntime(); from 6.18.17 (b3d99f43c72b) every call also moves
// zero_vruntime to the V it returns.
u64 DecisionOracle::avg_vruntime()
{
	const u64 v = v_now();
	if (rules_->ref == Rules::Ref::ZeroAtAvg)
		v0_ = v;
	return v;
}

bool DecisionOracle::vruntime_eligible(u64 v)
{
	s128 S, W;
	sums(S, W);
	const s128 rhs = static_cast<s128>(wrapped_diff(v, v0_)) * W;
	need_s64(S);
	if (!rules_->full_weight)  // 7.x compares in __int128
		need_s64(rhs);
	return S >= rhs;
}

// update_min_vruntime() (6.6 .. 6.18.3): v0 only moves forward, to the
// smaller of curr's vruntime (if queued) and the tree's minimum.
void DecisionOracle::update_min_vruntime()
{
	if (rules_->ref != Rules::Ref::MinVruntime)
		return;
	u64 cand = v0_;
	const Ent* c = curr_ != IDLE ? &ents_[static_cast<size_t>(curr_)] : nullptr;
	if (c && !c->on_rq)
		c = nullptr;
	if (c)
		cand = c->vruntime;
	bool have = false;
	u64 tmin = 0;
	for (const Ent& e : ents_)
		if (e.in_tree) {
			tmin = have ? min_vruntime(tmin, e.vruntime) : e.vruntime;
			have = true;
		}
	if (have)
		cand = c ? min_vruntime(cand, tmin) : tmin;
	if (wrapped_diff(cand, v0_) > 0)
		v0_ = cand;
}

// __enqueue_entity()/__dequeue_entity(): tree membership; 6.18.4 .. 6.18.16
// (79f3f9bedd14) re-centre zero_vruntime on V after each, with whatever
// cfs_rq->curr is at that moment (put_prev_entity() still has prev as curr).
void DecisionOracle::tree_insert(Ent& e)
{
	note_slice(e.slice);
	e.in_tree = true;
	e.seq = ++seq_;
	if (rules_->ref == Rules::Ref::ZeroAtTreeOps)
		v0_ = v_now();
}

void DecisionOracle::tree_erase(Ent& e)
{
	e.in_tree = false;
	if (rules_->ref == Rules::Ref::ZeroAtTreeOps)
		v0_ = v_now();
}

// cfs_rq_min_slice()/cfs_rq_max_slice() as true extrema. The kernel reads
// the root's augmented min_slice/max_slice, which RB_DECLARE_CALLBACKS's
// rotate and copy do not carry (only min_vruntime), and 6.18.17's
// __enqueue_entity does not reset max_slice: with mixed slices the kernel's
// value depends on the tree's history and shape. A vlag word computed from
// them then is adopted from the model when it differs (undetermined_slices).
void DecisionOracle::note_slice(u64 slice)
{
	min_seen_slice_ = std::min(min_seen_slice_, slice);
	if (!seen_slice_)
		seen_slice_ = slice;
	else if (slice != seen_slice_)
		slices_mixed_ = true;
}

u64 DecisionOracle::cfs_rq_min_slice() const
{
	u64 m = ~0ULL;
	for (size_t i = 0; i < ents_.size(); i++) {
		const Ent& e = ents_[i];
		if (e.in_tree || (static_cast<int>(i) == curr_ && e.on_rq))
			m = std::min(m, e.slice);
	}
	return m;
}

u64 DecisionOracle::cfs_rq_max_slice() const
{
	u64 m = 0;
	for (size_t i = 0; i < ents_.size(); i++) {
		const Ent& e = ents_[i];
		if (e.in_tree || (static_cast<int>(i) == curr_ && e.on_rq))
			m = std::max(m, e.slice);
	}
	return m;
}

// ---------------------------------------------------------------- accounting

// update_deadline(): renew the request from the current vruntime once it is
// used up. 6.6 resets the slice to the base slice and reschedules here
// (nr_running > 1); 6.12+ keep a custom slice and leave the resched to
// update_curr(); 6.18.22+ pull zero_vruntime.
bool DecisionOracle::update_deadline(Ent& e)
{
	if (wrapped_diff(e.vruntime, e.deadline) < 0)
		return false;
	if (!rules_->custom_slices || !e.custom)
		e.slice = cfg_.base_slice_ns;
	e.deadline = e.vruntime + cdf(e.slice, e);
	if (rules_->avg_in_update_deadline)
		avg_vruntime();
	if (version_ == Version::V6_6 && nr_queued_ > 1)
		resched_curr();
	return true;
}

bool DecisionOracle::did_preempt_short(Ent& c)
{
	if (!feat(Feature::PREEMPT_SHORT))
		return false;
	if (c.lagword == c.deadline)
		return false;
	return !entity_eligible(c);
}

bool DecisionOracle::do_preempt_short(Ent& pse, Ent& se)
{
	if (!feat(Feature::PREEMPT_SHORT))
		return false;
	if (pse.slice >= se.slice)
		return false;
	if (!entity_eligible(pse))
		return false;
	if (wrapped_diff(pse.deadline, se.deadline) < 0)
		return true;
	if (!entity_eligible(se))
		return true;
	return false;
}

// update_curr(): charge curr; 6.12-6.16 reschedule on renewal or
// did_preempt_short(), 6.17+ on renewal or the end of protection, both only
// with more than one entity queued.
void DecisionOracle::update_curr()
{
	Ent* c = cur();
	if (!c)
		return;
	const s64 delta = static_cast<s64>(now_ - c->exec_start);
	if (delta <= 0)
		return;
	c->exec_start = now_;
	c->sum_exec += static_cast<u64>(delta);
	c->vruntime += cdf(static_cast<u64>(delta), *c);
	const bool resched = update_deadline(*c);
	update_min_vruntime();
	if (version_ == Version::V6_6)
		return;
	if (nr_queued_ == 1)
		return;
	const bool more = rules_->did_preempt_short ? did_preempt_short(*c) : (!rules_->stash && !protect_slice(*c));
	if (resched || more)
		resched_curr();
}

// ---------------------------------------------------------------- protection (6.17+)

void DecisionOracle::set_protect_slice(Ent& e)
{
	note_slice(e.slice);
	e.slice_augment_dependent = slices_mixed_ && feat(Feature::RUN_TO_PARITY);
	u64 slice = feat(Feature::RUN_TO_PARITY) ? cfs_rq_min_slice() : rules_->normalized_slice;
	slice = std::min(slice, e.slice);
	u64 vprot = e.deadline;
	if (slice != e.slice)
		vprot = min_vruntime(vprot, e.vruntime + cdf(slice, e));
	prot(e) = vprot;
}

void DecisionOracle::update_protect_slice(Ent& e)
{
	e.slice_augment_dependent = e.slice_augment_dependent || slices_mixed_;
	const u64 slice = cfs_rq_min_slice();
	prot(e) = min_vruntime(prot(e), e.vruntime + cdf(slice, e));
}

void DecisionOracle::cancel_protect_slice(Ent& e)
{
	if (protect_slice(e))
		prot(e) = e.vruntime;
}

// ---------------------------------------------------------------- picking

// __pick_eevdf()/pick_eevdf() of 6.8+ by definition (see the header).
DecisionOracle::Pick DecisionOracle::pick_eevdf(bool protect)
{
	counters_.picks++;
	if (rules_->vruntime_tree)
		return pick_eevdf_66();
	Ent* c = cur();
	if (nr_queued_ == 1) {
		if (c && c->on_rq)
			return {curr_, {}};
		int first = IDLE;
		for (size_t i = 0; i < ents_.size(); i++)
			if (ents_[i].in_tree &&
			    (first == IDLE || wrapped_diff(ents_[i].deadline, ents_[static_cast<size_t>(first)].deadline) < 0 ||
			     (ents_[i].deadline == ents_[static_cast<size_t>(first)].deadline &&
			      ents_[i].seq < ents_[static_cast<size_t>(first)].seq)))
				first = static_cast<int>(i);
		return {first, {}};
	}
	if (c && (!c->on_rq || !entity_eligible(*c)))
		c = nullptr;
	if (c) {
		const bool prot = rules_->stash ? (feat(Feature::RUN_TO_PARITY) && c->lagword == c->deadline)
						: (protect && protect_slice(*c));
		if (prot)
			return {curr_, {}};
	}
	int best = IDLE;
	for (size_t i = 0; i < ents_.size(); i++) {
		Ent& e = ents_[i];
		if (!e.in_tree || !entity_eligible(e))
			continue;
		if (best == IDLE) {
			best = static_cast<int>(i);
			continue;
		}
		const Ent& b = ents_[static_cast<size_t>(best)];
		const s64 d = wrapped_diff(e.deadline, b.deadline);
		if (d < 0 || (d == 0 && e.seq < b.seq))
			best = static_cast<int>(i);
	}
	if (best == IDLE || (c && wrapped_diff(c->deadline, ents_[static_cast<size_t>(best)].deadline) < 0))
		best = c ? curr_ : best;
	return {best, {}};
}

// v6.6 __pick_eevdf(): curr first (if queued and eligible; kept while
// RUN_TO_PARITY and its vlag stash equals its deadline), then the min
// deadline among eligible tree entities; on equal deadlines the walk's
// result depends on the tree's shape unless only one tree entity is
// eligible (then curr is kept against it).
DecisionOracle::Pick DecisionOracle::pick_eevdf_66()
{
	Ent* c = cur();
	if (c && (!c->on_rq || !entity_eligible(*c)))
		c = nullptr;
	if (feat(Feature::RUN_TO_PARITY) && c && c->lagword == c->deadline)
		return {curr_, {}};
	std::vector<int> elig;
	for (size_t i = 0; i < ents_.size(); i++)
		if (ents_[i].in_tree && entity_eligible(ents_[i]))
			elig.push_back(static_cast<int>(i));
	if (elig.empty()) {
		if (c)
			return {curr_, {}};
		// pick_eevdf()'s "EEVDF scheduling fail, picking leftmost" (v6.6)
		int left = IDLE;
		for (size_t i = 0; i < ents_.size(); i++)
			if (ents_[i].in_tree &&
			    (left == IDLE || wrapped_diff(ents_[i].vruntime, ents_[static_cast<size_t>(left)].vruntime) < 0))
				left = static_cast<int>(i);
		return {left, {}};
	}
	u64 dmin = ents_[static_cast<size_t>(elig[0])].deadline;
	for (int i : elig)
		dmin = wrapped_diff(ents_[static_cast<size_t>(i)].deadline, dmin) < 0 ? ents_[static_cast<size_t>(i)].deadline : dmin;
	if (c && wrapped_diff(c->deadline, dmin) < 0)
		return {curr_, {}};
	std::vector<int> tied;
	for (int i : elig)
		if (ents_[static_cast<size_t>(i)].deadline == dmin)
			tied.push_back(i);
	if (c && c->deadline == dmin) {
		if (elig.size() == 1)
			return {curr_, {}};
		tied.push_back(curr_);
		return {IDLE, tied};
	}
	if (tied.size() == 1)
		return {tied[0], {}};
	return {IDLE, tied};
}

// ---------------------------------------------------------------- queueing

// update_entity_lag(): vlag = V - v clamped to calc_delta_fair(max(2 r,
// TICK_NSEC)) (<= 6.18.16) or calc_delta_fair(max_slice + TICK_NSEC)
// (6.18.17+, 6e3c0a4e1ad1). 7.x: a delayed entity leaves with at least the
// lag it had when its dequeue was delayed, at most 0 under DELAY_ZERO.
bool DecisionOracle::update_entity_lag(Ent& e)
{
	const u64 v = avg_vruntime();
	const s64 lag = static_cast<s64>(v - e.vruntime);
	const u64 bound = rules_->lag_clamp_max_slice ? cfs_rq_max_slice() + cfg_.tick_ns
						      : std::max<u64>(2 * e.slice, cfg_.tick_ns);
	const s64 limit = static_cast<s64>(cdf(bound, e));
	s64 vlag = std::clamp(lag, -limit, limit);
	if (rules_->delayed_floor && e.delayed) {
		vlag = std::max(vlag, e.vlag());
		if (feat(Feature::DELAY_ZERO))
			vlag = std::min<s64>(vlag, 0);
	}
	e.lagword = static_cast<u64>(vlag);
	// A stale max_slice is some slice an entity in the tree had: a lag
	// beyond the clamp of the smallest one may have been clamped.
	const s64 low = static_cast<s64>(cdf(std::min(min_seen_slice_, bound) + cfg_.tick_ns, e));
	e.slice_augment_dependent = rules_->lag_clamp_max_slice && slices_mixed_ && (lag > low || lag < -low);
	return v - static_cast<u64>(vlag) != e.vruntime;
}

// place_entity(): v = V - vlag (W + w) / W with PLACE_LAG and a non-empty
// queue; a kept relative deadline (PLACE_REL_DEADLINE, 6.12+) is made
// absolute, else d = v + r/w (half for ENQUEUE_INITIAL with
// PLACE_DEADLINE_INITIAL). 6.6 always resets the slice to the base slice.
void DecisionOracle::place_entity(Ent& e, unsigned flags)
{
	const u64 v = avg_vruntime();
	if (!rules_->custom_slices || !e.custom)
		e.slice = cfg_.base_slice_ns;
	u64 vslice = cdf(e.slice, e);
	s64 lag = 0;
	bool heavy = false;
	if (feat(Feature::PLACE_LAG) && nr_queued_) {
		lag = e.vlag();
		s128 S, load;
		sums(S, load);
		const s128 prod = static_cast<s128>(lag) * (load + static_cast<s128>(avg_w(e)));
		need_s64(prod);
		heavy = rules_->full_weight && static_cast<s128>(avg_w(e)) > load;
		if (!load)
			load = 1;
		lag = static_cast<s64>(prod / load);  // div_s64 truncates toward zero
	}
	e.vruntime = v - static_cast<u64>(lag);
	if (heavy)  // 7.x: update_zero_vruntime(cfs_rq, -lag) for an entity heavier than the queue
		v0_ -= static_cast<u64>(lag);
	const bool rel = rules_->rel_deadline_613 ? e.rel_deadline : (feat(Feature::PLACE_REL_DEADLINE) && e.rel_deadline);
	if (rel) {
		e.deadline += e.vruntime;
		e.rel_deadline = false;
		return;
	}
	if (feat(Feature::PLACE_DEADLINE_INITIAL) && (flags & EN_INITIAL))
		vslice /= 2;
	e.deadline = e.vruntime + vslice;
}

// enqueue_entity() for an entity that is not curr (every enqueue of a
// one-CPU flat model: a set_user_nice() on curr has put it back first).
void DecisionOracle::enqueue_entity(Ent& e, unsigned flags)
{
	update_curr();
	place_entity(e, flags);
	nr_queued_++;
	tree_insert(e);
	e.on_rq = true;
}

// dequeue_entity(): 6.12+ keep an ineligible sleeper queued (DELAY_DEQUEUE,
// not for DEQUEUE_SPECIAL) and save d - v for a non-sleep dequeue
// (PLACE_REL_DEADLINE); the final dequeue of a delayed entity clips its
// positive lag (DELAY_ZERO). Returns false when delayed.
bool DecisionOracle::dequeue_entity(Ent& e, unsigned flags)
{
	update_curr();
	const bool sleep = flags & DQ_SLEEP;
	if (rules_->v612_code && !(flags & DQ_DELAYED)) {
		const bool delay = sleep && !(flags & DQ_SPECIAL);
		if (feat(Feature::DELAY_DEQUEUE) && delay && !entity_eligible(e)) {
			if (rules_->delayed_floor)
				update_entity_lag(e);  // 7.x: the lag at the delay, the floor it leaves with
			e.delayed = true;
			return false;
		}
	}
	update_entity_lag(e);
	if (feat(Feature::PLACE_REL_DEADLINE) && !sleep) {
		e.deadline -= e.vruntime;
		e.rel_deadline = true;
	}
	if (id_of(e) != curr_)
		tree_erase(e);
	e.on_rq = false;
	nr_queued_--;
	if ((flags & (DQ_SAVE | DQ_MOVE)) != DQ_SAVE)
		update_min_vruntime();
	if (flags & DQ_DELAYED) {
		e.delayed = false;
		if (!rules_->delayed_floor && feat(Feature::DELAY_ZERO) && e.vlag() > 0)
			e.lagword = 0;
	}
	return true;
}

// requeue_delayed_entity() (6.12+): with DELAY_ZERO a delayed entity that
// became eligible is re-placed at zero lag.
void DecisionOracle::requeue_delayed_entity(Ent& e)
{
	if (rules_->delayed_floor) {
		// 7.x: re-placed whenever its lag is not V - v.
		if (update_entity_lag(e)) {
			const bool is_curr = id_of(e) == curr_;
			nr_queued_--;
			if (!is_curr)
				tree_erase(e);
			place_entity(e, 0);
			if (!is_curr)
				tree_insert(e);
			nr_queued_++;
		}
	} else if (feat(Feature::DELAY_ZERO)) {
		update_entity_lag(e);
		if (e.vlag() > 0) {
			const bool is_curr = id_of(e) == curr_;
			nr_queued_--;
			if (!is_curr)
				tree_erase(e);
			e.lagword = 0;
			place_entity(e, 0);
			if (!is_curr)
				tree_insert(e);
			nr_queued_++;
		}
	}
	e.delayed = false;
}

// set_next_entity(): curr leaves the tree; 6.6-6.16 stash the deadline in
// vlag, 6.17+ set the protection (6.18.17+ only for first = true).
void DecisionOracle::set_next_entity(Ent& e, bool first)
{
	if (e.on_rq) {
		tree_erase(e);
		if (rules_->stash)
			e.lagword = e.deadline;
		else if (!rules_->protect_first_only || first)
			set_protect_slice(e);
	}
	e.exec_start = now_;
	curr_ = id_of(e);
	e.prev_sum_exec = e.sum_exec;
}

void DecisionOracle::put_prev_entity(Ent& e)
{
	if (e.on_rq) {
		update_curr();
		tree_insert(e);
	}
	curr_ = IDLE;
}

// reweight_entity() for an entity off the queue: vlag scaled by
// w_old / w_new; from 6.13 (6d71a9c61604) a kept relative deadline too.
void DecisionOracle::reweight_off_queue(Ent& e, const LoadWeight& lw)
{
	const s128 old_w = static_cast<s128>(e.load.weight), new_w = static_cast<s128>(lw.weight);
	const s128 pv = static_cast<s128>(e.vlag()) * old_w;
	need_s64(pv);
	e.lagword = static_cast<u64>(static_cast<s64>(pv / new_w));
	if (rules_->rel_deadline_613 && e.rel_deadline) {
		const s128 pd = static_cast<s128>(static_cast<s64>(e.deadline)) * old_w;
		need_s64(pd);
		e.deadline = static_cast<u64>(static_cast<s64>(pd / new_w));
	}
	e.load = lw;
}

// ---------------------------------------------------------------- hrtick

void DecisionOracle::hrtick_start_fair(Ent& e, bool current)
{
	if (nr_queued_ <= 1)
		return;
	if (rules_->hrtick_v7) {
		// Real time to the virtual deadline: w (d - v) / NICE_0_LOAD.
		const s64 vdelta = static_cast<s64>(e.deadline - e.vruntime);
		if (vdelta < 0) {
			if (current)
				resched_curr();
			return;
		}
		hrtick_start(e.load.weight * static_cast<u64>(vdelta) / NICE_0_LOAD);
		return;
	}
	const s64 delta = static_cast<s64>(e.slice - (e.sum_exec - e.prev_sum_exec));
	if (delta < 0) {
		if (current)
			resched_curr();
		return;
	}
	hrtick_at_ = now_ + std::max<u64>(static_cast<u64>(delta), HRTICK_MIN_NS);
}

// hrtick_update(): at the end of enqueue_task_fair()/dequeue_task_fair()
// (and the final dequeue of a delayed task), for rq->curr if it is fair.
void DecisionOracle::hrtick_update()
{
	if (!feat(Feature::HRTICK) || running_ == IDLE || rules_->hrtick_v7)
		return;
	hrtick_start_fair(ents_[static_cast<size_t>(running_)], true);
}

void DecisionOracle::hrtick_clear()
{
	if (feat(Feature::HRTICK) && !rules_->hrtick_v7)
		hrtick_at_ = NONE;
}

// The hrtick_update() that ends enqueue_task_fair(); 7.x only while no
// hrtick is armed (hrtick_active()).
void DecisionOracle::hrtick_update_enqueued()
{
	if (!rules_->hrtick_v7) {
		hrtick_update();
		return;
	}
	if (!feat(Feature::HRTICK) || running_ == IDLE || hrtick_at_ != NONE)
		return;
	hrtick_start_fair(ents_[static_cast<size_t>(running_)], true);
}

void DecisionOracle::hrtick_start(u64 delay)
{
	const u64 delta = std::max<u64>(delay, HRTICK_MIN_NS);
	if (in_schedule_) {
		hrtick_pending_ = true;
		hrtick_delay_ = delta;
		return;
	}
	hrtick_cond_restart(now_ + delta);
}

// hrtick_needs_rearm(): an armed timer stays unless the expiry moves by
// more than 5000 ns.
void DecisionOracle::hrtick_cond_restart(u64 at)
{
	if (hrtick_at_ != NONE && (at > hrtick_at_ ? at - hrtick_at_ : hrtick_at_ - at) <= 5000)
		return;
	hrtick_at_ = at;
}

void DecisionOracle::hrtick_schedule_exit(bool idle)
{
	in_schedule_ = false;
	if (hrtick_pending_) {
		hrtick_pending_ = false;
		hrtick_cond_restart(now_ + hrtick_delay_);
	} else if (idle) {
		hrtick_at_ = NONE;
	}
}

// ---------------------------------------------------------------- wakeup preemption

int DecisionOracle::resolve(const Simulation& sim, const Pick& p, int model_choice, const char* what)
{
	if (p.tied.empty())
		return p.chosen;
	counters_.undetermined_picks++;
	undetermined_now_ = true;
	if (std::find(p.tied.begin(), p.tied.end(), model_choice) != p.tied.end())
		return model_choice;
	std::string c;
	for (int i : p.tied)
		c += (c.empty() ? "" : ",") + std::to_string(i);
	disagree(sim, std::string(what) + ":tie", std::string(what) + " among tied {" + c + "}", "one of {" + c + "}",
		 who(model_choice));
	return model_choice;
}

void DecisionOracle::check_preempt_wakeup_fair(int pi, unsigned wake_flags)
{
	Ent& se = ents_[static_cast<size_t>(running_)];
	Ent& pse = ents_[static_cast<size_t>(pi)];
	if (pi == running_)
		return;
	if (need_resched_)
		return;
	const bool v66 = version_ == Version::V6_6;
	if (v66 && idle_curr_preempted(se, pse))
		return;
	if (!feat(Feature::WAKEUP_PREEMPTION))
		return;
	if (!v66 && idle_curr_preempted(se, pse))
		return;
	// "BATCH and IDLE tasks do not preempt others", before update_curr().
	if (!pse.normal)
		return;
	update_curr();
	switch (rules_->preempt) {
	case Rules::Preempt::V66: {
		// 6.6: preempt iff pick_eevdf() returns the wakee.
		const Pick p = pick_eevdf(true);
		if (!p.tied.empty()) {
			if (std::find(p.tied.begin(), p.tied.end(), pi) == p.tied.end())
				return;  // the pick is one of the others either way
			counters_.undetermined_picks++;
			undetermined_now_ = true;  // the caller adopts the model's side of the tie
			return;
		}
		if (p.chosen == pi)
			resched_curr();
		return;
	}
	case Rules::Preempt::V612:
		// 6.12-6.16: a shorter eligible wakee cancels curr's protection.
		if (do_preempt_short(pse, se) && se.lagword == se.deadline)
			se.lagword = se.deadline + 1;
		if (pick_eevdf(true).chosen == pi)
			resched_curr();
		return;
	case Rules::Preempt::ProtectParam: {
		// 6.17 .. 6.18.32: a shorter wakee picks without curr's protection.
		const bool dps = feat(Feature::PREEMPT_SHORT) && pse.slice < se.slice;
		if (pick_eevdf(!dps).chosen == pi) {
			if (dps)
				cancel_protect_slice(se);
			resched_curr();
			return;
		}
		if (feat(Feature::RUN_TO_PARITY) && dps)
			update_protect_slice(se);
		return;
	}
	case Rules::Preempt::Actions: {
		// 6.18.33+ (e837456fdca8): PREEMPT_WAKEUP_SHORT / _PICK; a fork or a
		// delayed wakee does not preempt unless shorter; a delayed pick is
		// dequeued and the pick retried; protection shrinks after every
		// wakeup that does not preempt.
		const bool shrt = feat(Feature::PREEMPT_SHORT) && pse.slice < se.slice;
		if (!shrt && ((wake_flags & WF_FORK_) || pse.delayed))
			return;
		for (;;) {
			const int nse = pick_eevdf(!shrt).chosen;
			int got = nse;
			if (nse != IDLE && ents_[static_cast<size_t>(nse)].delayed) {
				dequeue_entity(ents_[static_cast<size_t>(nse)], DQ_SLEEP | DQ_DELAYED);
				hrtick_update();
				got = IDLE;
			}
			if (got == pi) {
				if (shrt)
					cancel_protect_slice(se);
				resched_curr();
				return;
			}
			if (got == IDLE && nr_queued_)
				continue;
			break;
		}
		if (feat(Feature::RUN_TO_PARITY))
			update_protect_slice(se);
		return;
	}
	}
}

// A SCHED_IDLE curr and a waker that is not: resched without update_curr()
// or a pick (6.6: task_has_idle_policy(curr) before the WAKEUP_PREEMPTION
// test; 6.12+: se_is_idle() after it). From 6.15 (f553741ac8c0) the idle
// curr's protection is cancelled first: vlag = deadline + 1 where the stash
// protects, vprot = vruntime where vprot does.
bool DecisionOracle::idle_curr_preempted(Ent& se, const Ent& pse)
{
	if (!se.idle || pse.idle)
		return false;
	if (version_ != Version::V6_6 && version_ != Version::V6_12) {
		if (rules_->stash) {
			if (se.lagword == se.deadline)
				se.lagword = se.deadline + 1;
		} else {
			cancel_protect_slice(se);
		}
	}
	resched_curr();
	return true;
}

// wakeup_preempt(): the idle task is always preempted by a fair task.
void DecisionOracle::wakeup_preempt(const Simulation&, int p, unsigned wake_flags)
{
	if (running_ == IDLE) {
		resched_curr();
		return;
	}
	check_preempt_wakeup_fair(p, wake_flags);
}

// ---------------------------------------------------------------- schedule

// __schedule()'s pick: pick_next_task_fair() with CONFIG_FAIR_GROUP_SCHED
// (prev stays curr during the pick), put_prev/set_next only when the task
// changes, then the hrtick for the picked task (6.6: at every pick; 6.12+:
// in __set_next_task_fair(first) only when it changed).
int DecisionOracle::pick_next_task(const Simulation& sim, int model_next)
{
	const int prev = running_;
	int chosen = IDLE;
	if (rules_->v612_code) {
		for (;;) {
			if (nr_queued_ == 0)
				break;
			if (cur() && cur()->on_rq)
				update_curr();
			const Pick p = pick_eevdf(true);
			const int se = resolve(sim, p, model_next, "pick");
			if (se == IDLE)
				break;
			if (ents_[static_cast<size_t>(se)].delayed) {
				dequeue_entity(ents_[static_cast<size_t>(se)], DQ_SLEEP | DQ_DELAYED);
				hrtick_update();
				continue;
			}
			chosen = se;
			break;
		}
		if (chosen == IDLE) {
			if (prev != IDLE)
				put_prev_entity(ents_[static_cast<size_t>(prev)]);
		} else if (prev != chosen) {
			if (prev != IDLE)
				put_prev_entity(ents_[static_cast<size_t>(prev)]);
			set_next_entity(ents_[static_cast<size_t>(chosen)], true);
			if (feat(Feature::HRTICK))
				hrtick_start_fair(ents_[static_cast<size_t>(chosen)], false);
		}
		return chosen;
	}
	// v6.6
	if (nr_queued_ == 0) {
		if (prev != IDLE)
			put_prev_entity(ents_[static_cast<size_t>(prev)]);
		return IDLE;
	}
	if (cur() && cur()->on_rq)
		update_curr();
	chosen = resolve(sim, pick_eevdf(true), model_next, "pick");
	if (chosen == IDLE)
		return IDLE;
	if (prev != chosen) {
		if (prev != IDLE)
			put_prev_entity(ents_[static_cast<size_t>(prev)]);
		set_next_entity(ents_[static_cast<size_t>(chosen)], true);
	}
	if (feat(Feature::HRTICK))
		hrtick_start_fair(ents_[static_cast<size_t>(chosen)], chosen == prev);
	return chosen;
}

// ---------------------------------------------------------------- syscalls

// yield_task_fair(): nothing with one task; else update_curr and push the
// deadline by one request (<= 6.18.1), or (6.18.2+, 79104becf42b) if
// eligible forfeit the rest of the request: v = d, then a new request.
void DecisionOracle::yield_task_fair()
{
	if (nr_queued_ == 1)
		return;
	Ent& se = ents_[static_cast<size_t>(running_)];
	update_curr();
	if (!rules_->yield_forfeit) {
		se.deadline += cdf(se.slice, se);
		return;
	}
	if (entity_eligible(se)) {
		se.vruntime = se.deadline;
		if (rules_->avg_in_update_deadline) {
			update_deadline(se);
		} else {
			se.deadline += cdf(se.slice, se);
			if (rules_->yield_min_vruntime)
				update_min_vruntime();
		}
	}
}

// prio_changed_fair() for the running task (the only caller in this model).
void DecisionOracle::prio_changed_fair(const Simulation& sim, Ent& e, int old_prio)
{
	if (!e.on_rq)
		return;
	if (nr_queued_ == 1)
		return;
	if (running_ == id_of(e)) {
		if (120 + e.nice > old_prio)
			resched_curr();
	} else {
		wakeup_preempt(sim, id_of(e), 0);
	}
}

// set_user_nice(): dequeue (SAVE), put_prev, reweight off the queue,
// enqueue (RESTORE), set_next_task(first = false), prio_changed.
void DecisionOracle::adopt_saved_lag(Ent& e, const s64* model_vlag)
{
	if (e.slice_augment_dependent && model_vlag && *model_vlag != e.vlag()) {
		counters_.undetermined_slices++;
		e.lagword = static_cast<u64>(*model_vlag);
	}
	e.slice_augment_dependent = false;
}

void DecisionOracle::set_user_nice(Ent& e, int nice, const s64* model_vlag)
{
	if (e.nice == nice || nice < MIN_NICE || nice > MAX_NICE)
		return;
	const bool queued = e.on_rq, running = curr_ == id_of(e);
	if (queued && dequeue_entity(e, DQ_SAVE))
		hrtick_update();
	adopt_saved_lag(e, model_vlag);
	if (running)
		put_prev_entity(e);
	saved_vlag_ = e.vlag();
	saved_old_weight_ = e.load.weight;
	saved_old_prio_ = 120 + e.nice;
	e.nice = nice;
	// SCHED_IDLE keeps weight 3; v6.6's set_load_weight() does not even
	// reweight to it (6.12+ reweight to the same weight).
	if (!e.idle)
		reweight_off_queue(e, task_load_weight(nice));
	else if (version_ != Version::V6_6)
		reweight_off_queue(e, e.load);
	if (queued) {
		enqueue_entity(e, EN_RESTORE);
		hrtick_update_enqueued();
	}
	if (running)
		set_next_entity(e, false);
}

// sched_setattr(sched_runtime) on SCHED_OTHER (6.12+, 857b158dc5e8): no
// change unless the runtime differs from the current slice; else the
// change path (dequeue SAVE|MOVE, put_prev, __setscheduler_params() with
// the slice clamped to [0.1 ms, 100 ms] or cleared, a same-weight
// reweight, enqueue RESTORE|MOVE, set_next_task). The priority is unchanged,
// so no prio_changed().
void DecisionOracle::sched_setattr_runtime(Ent& e, u64 runtime, const s64* model_vlag)
{
	if (!rules_->custom_slices)
		return;
	if (runtime == e.slice)
		return;
	const bool queued = e.on_rq, running = curr_ == id_of(e);
	if (queued && dequeue_entity(e, DQ_SAVE | DQ_MOVE))
		hrtick_update();
	adopt_saved_lag(e, model_vlag);
	if (running)
		put_prev_entity(e);
	if (runtime) {
		e.custom = true;
		e.slice = std::clamp<u64>(runtime, NSEC_PER_MSEC / 10, NSEC_PER_MSEC * 100);
	} else {
		e.custom = false;
		e.slice = cfg_.base_slice_ns;
	}
	reweight_off_queue(e, e.load);
	if (queued) {
		enqueue_entity(e, EN_RESTORE | EN_MOVE);
		hrtick_update_enqueued();
	}
	if (running)
		set_next_entity(e, false);
}

// sched_fork() + wake_up_new_task(): the child starts with vlag 0 and the
// base (or its custom) slice; 6.6 places it in task_fork_fair() with
// ENQUEUE_INITIAL but activates it without, so the enqueue re-places it
// with a full first request; 6.8+ activate with ENQUEUE_INITIAL. Then
// wakeup_preempt(WF_FORK).
void DecisionOracle::fork_task(const Simulation& sim, int task)
{
	Ent& e = ents_[static_cast<size_t>(task)];
	const TaskSpec& spec = *sim.tasks()[static_cast<size_t>(task)].spec;
	e = Ent{};
	e.forked = true;
	e.nice = spec.nice;
	e.idle = spec.policy == Policy::Idle;
	e.normal = spec.policy == Policy::Normal;
	e.load = e.idle ? LoadWeight{3 << 10, 1431655765} : task_load_weight(spec.nice);  // WEIGHT_IDLEPRIO, WMULT_IDLEPRIO
	e.slice = cfg_.base_slice_ns;
	if (rules_->custom_slices && spec.custom_slice) {
		e.custom = true;
		e.slice = std::clamp<u64>(spec.custom_slice, NSEC_PER_MSEC / 10, NSEC_PER_MSEC * 100);
	}
	if (version_ == Version::V6_6)
		update_curr();  // task_fork_fair(); its placement is redone by the enqueue
	enqueue_entity(e, rules_->fork_initial ? EN_INITIAL : 0);
	pending_ = {task, WF_FORK_, true, stimulus_};
}

// ---------------------------------------------------------------- hooks

// Grid and hrtick checks for the time that passed before a hook at t.
void DecisionOracle::check_timers_before(const Simulation& sim, u64 t)
{
	if (hrtick_at_ != NONE && hrtick_at_ < t) {
		if (running_ != IDLE)
			disagree(sim, "hrtick:missing", "hrtick due at " + num(hrtick_at_), "fires", "did not fire");
		hrtick_at_ = NONE;
	}
	// With exact ticks, a tick the state required at a grid point strictly
	// between the time it became required and this hook must have come.
	if (cfg_.knobs.tick_jitter == 0 && tick_needed_since_ != NONE) {
		const u64 tn = cfg_.tick_ns, ph = cfg_.knobs.tick_phase % tn;
		u64 from = std::max(tick_needed_since_, tick_seen_ ? last_tick_ : 0);
		u64 g = from - (from % tn) + ph;
		while (g <= from || g == 0)
			g += tn;
		if (g < t) {
			disagree(sim, "tick:missing", "periodic tick at " + num(g), "fires", "did not fire");
			last_tick_ = g;
			tick_seen_ = true;
		}
	}
}

void DecisionOracle::note_tick_need(u64 t)
{
	const bool need = running_ != IDLE && (!feat(Feature::NO_HZ_FULL) || nr_queued_ >= 2);
	if (!need)
		tick_needed_since_ = NONE;
	else if (tick_needed_since_ == NONE)
		tick_needed_since_ = t;
}

// The preemption check of the last wakeup, applied before the hook that
// follows it; its resched decision is compared here unless that hook is the
// schedule it asked for (on_schedule checks that a schedule was requested).
void DecisionOracle::apply_pending_wakeup(const Simulation& sim, Hook next)
{
	if (pending_.task == IDLE)
		return;
	const PendingWakeup p = pending_;
	pending_ = PendingWakeup{};
	const std::string here = stimulus_;
	stimulus_ = p.stimulus;
	undetermined_now_ = false;
	const bool was_idle = running_ == IDLE;
	if (p.hrtick_update)
		hrtick_update_enqueued();
	wakeup_preempt(sim, p.task, p.wake_flags);
	if (undetermined_now_ && next == Hook::Schedule)
		need_resched_ = true;  // the model's side of the tie: it rescheduled
	// Only at the end of the event is the model's need_resched that of the
	// wakeup alone (any other hook has applied its own stimulus already;
	// on_schedule checks that a schedule was asked for). Leaving idle is
	// the core's business: the model need not set need_resched for it.
	if (next == Hook::Event && !was_idle && !undetermined_now_ &&
	    sim.cfs_rq().need_resched != need_resched_)
		disagree(sim, std::string(kind_of_wakeup(p.wake_flags)) + ":need_resched",
			 "wakeup preemption (need_resched after the wakeup)", need_resched_ ? "set" : "clear",
			 sim.cfs_rq().need_resched ? "set" : "clear");
	if (undetermined_now_ && next != Hook::Schedule)
		need_resched_ = sim.cfs_rq().need_resched;
	stimulus_ = here;
}

bool DecisionOracle::begin(const Simulation& sim, u64 t, std::string stimulus, bool program_side, Hook hook)
{
	if (!started_) {
		started_ = true;
		ents_.assign(sim.tasks().size(), Ent{});
	}
	counters_.hooks++;
	disagreements_at_begin_ = disagreements_;
	stimulus_ = std::move(stimulus);
	t_ = t;
	event_ = sim.events();
	undetermined_now_ = false;
	if (overflow_) {
		counters_.overflow_states++;
		return false;
	}
	check_timers_before(sim, t);
	now_ = t;
	apply_pending_wakeup(sim, hook);
	if (program_side && need_resched_)
		disagree(sim, "resched:deferred", "need_resched before " + stimulus_,
			 "acted on before the running task's next call", "the task's program went on");
	return true;
}

void DecisionOracle::end(const Simulation& sim, bool compare_resched)
{
	if (overflow_) {
		counters_.overflow_states++;
		return;
	}
	compare(sim, compare_resched);
	note_tick_need(t_);
}

void DecisionOracle::disagree(const Simulation& sim, const std::string& klass, const std::string& field,
			      const std::string& o, const std::string& m)
{
	disagreements_++;
	Disagreement d{event_, t_, stimulus_, klass, field, o, m};
	if (!first_)
		first_ = d;
	if (all_.size() < opt_.keep)
		all_.push_back(d);
	if (!class_index_.count(klass)) {
		class_index_[klass] = classes_.size();
		classes_.push_back(d);
	}
	(void)sim;
}

namespace {

const char* kind_of(const std::string& stimulus)
{
	if (stimulus.rfind("fork", 0) == 0)
		return "fork";
	if (stimulus.rfind("wakeup", 0) == 0)
		return "wakeup";
	if (stimulus.rfind("block", 0) == 0)
		return "block";
	if (stimulus.rfind("exit", 0) == 0)
		return "exit";
	if (stimulus.rfind("hrtick", 0) == 0)
		return "hrtick";
	if (stimulus.rfind("tick", 0) == 0)
		return "tick";
	if (stimulus.rfind("schedule", 0) == 0)
		return "schedule";
	if (stimulus.rfind("yield", 0) == 0)
		return "yield";
	if (stimulus.rfind("set_user_nice", 0) == 0)
		return "nice";
	if (stimulus.rfind("sched_setattr", 0) == 0)
		return "setattr";
	return "event";
}

}  // namespace

// The state comparison: every decision and every field a later decision
// reads. Fields the kernel never reads again (a queued non-curr entity's
// stale vlag word, an off-queue entity's vruntime) are not compared.
void DecisionOracle::compare(const Simulation& sim, bool compare_resched)
{
	counters_.comparisons++;
	const std::string k = kind_of(stimulus_);
	auto diff = [&](const std::string& field, const std::string& o, const std::string& m) {
		disagree(sim, k + ":" + field.substr(0, field.find(' ')), field, o, m);
	};
	const int mcurr = sim.cfs_rq().curr ? sim.cfs_rq().curr->id : IDLE;
	if (mcurr != curr_)
		diff("curr", who(curr_), who(mcurr));
	if (compare_resched && sim.cfs_rq().need_resched != need_resched_)
		diff("need_resched", need_resched_ ? "set" : "clear", sim.cfs_rq().need_resched ? "set" : "clear");
	if (sim.cfs_rq().ref_vruntime != v0_)
		diff("v0 (min_vruntime/zero_vruntime)", snum(static_cast<s64>(v0_)),
		     snum(static_cast<s64>(sim.cfs_rq().ref_vruntime)));
	for (size_t i = 0; i < ents_.size(); i++) {
		const Ent& e = ents_[i];
		const SchedEntity& m = sim.tasks()[i].se;
		const std::string tsk = " of task " + std::to_string(i);
		const bool dep = e.slice_augment_dependent;
		ents_[i].slice_augment_dependent = false;
		if (!e.forked) {
			if (m.on_rq)
				diff("on_rq" + tsk, "0 (not forked)", "1");
			continue;
		}
		if (m.on_rq != e.on_rq)
			diff("on_rq" + tsk, num(e.on_rq), num(m.on_rq));
		if (m.sched_delayed != e.delayed)
			diff("sched_delayed" + tsk, num(e.delayed), num(m.sched_delayed));
		if (m.load.weight != e.load.weight)
			diff("weight" + tsk, num(e.load.weight), num(m.load.weight));
		if (m.slice != e.slice)
			diff("slice" + tsk, num(e.slice), num(m.slice));
		if (m.custom_slice != e.custom)
			diff("custom_slice" + tsk, num(e.custom), num(m.custom_slice));
		if (m.sum_exec_runtime != e.sum_exec)
			diff("sum_exec_runtime" + tsk, num(e.sum_exec), num(m.sum_exec_runtime));
		if (m.rel_deadline != e.rel_deadline)
			diff("rel_deadline" + tsk, num(e.rel_deadline), num(m.rel_deadline));
		if (e.on_rq) {
			if (m.vruntime != e.vruntime)
				diff("vruntime" + tsk, snum(static_cast<s64>(e.vruntime)), snum(static_cast<s64>(m.vruntime)));
			if (m.deadline != e.deadline)
				diff("deadline" + tsk, snum(static_cast<s64>(e.deadline)), snum(static_cast<s64>(m.deadline)));
		} else {
			if (e.rel_deadline && m.deadline != e.deadline)
				diff("deadline" + tsk, "d - v = " + snum(static_cast<s64>(e.deadline)),
				     snum(static_cast<s64>(m.deadline)));
			if (m.vlag != e.vlag() && dep) {
				counters_.undetermined_slices++;
				ents_[i].lagword = static_cast<u64>(m.vlag);
			} else if (m.vlag != e.vlag()) {
				diff("vlag" + tsk, snum(e.vlag()), snum(m.vlag));
			}
		}
		if (static_cast<int>(i) == curr_ && e.on_rq && rules_->vprot_split) {
			if (m.vprot != e.protword && dep) {
				counters_.undetermined_slices++;
				ents_[i].protword = m.vprot;
			} else if (m.vprot != e.protword) {
				diff("vprot" + tsk, snum(static_cast<s64>(e.protword)), snum(static_cast<s64>(m.vprot)));
			}
			if (m.prev_sum_exec_runtime != e.prev_sum_exec)
				diff("prev_sum_exec_runtime" + tsk, num(e.prev_sum_exec), num(m.prev_sum_exec_runtime));
		} else if (static_cast<int>(i) == curr_ && e.on_rq) {
			if (static_cast<u64>(m.vlag) != e.lagword && dep) {
				counters_.undetermined_slices++;
				ents_[i].lagword = static_cast<u64>(m.vlag);
			} else if (static_cast<u64>(m.vlag) != e.lagword)
				diff(std::string(rules_->stash ? "vlag (deadline stash)" : "vprot (vlag word)") + tsk,
				     snum(e.vlag()), snum(m.vlag));
			if (m.prev_sum_exec_runtime != e.prev_sum_exec)
				diff("prev_sum_exec_runtime" + tsk, num(e.prev_sum_exec), num(m.prev_sum_exec_runtime));
		}
	}
	if (opt_.resync && disagreements_ != disagreements_at_begin_)
		resync(sim);
}

// Adopt the model's state (after a disagreement), keeping the oracle's
// reference to the tasks' FIFO order where it still holds.
void DecisionOracle::resync(const Simulation& sim)
{
	counters_.resyncs++;
	curr_ = sim.cfs_rq().curr ? sim.cfs_rq().curr->id : IDLE;
	running_ = curr_ != IDLE ? curr_ : (sim.current());
	v0_ = sim.cfs_rq().ref_vruntime;
	need_resched_ = sim.cfs_rq().need_resched;
	nr_queued_ = 0;
	std::vector<std::pair<u64, size_t>> order;
	for (size_t i = 0; i < ents_.size(); i++) {
		const Simulation::Task& t = sim.tasks()[i];
		const SchedEntity& m = t.se;
		Ent& e = ents_[i];
		e.forked = t.state != Simulation::TaskState::New;
		e.exited = t.state == Simulation::TaskState::Exited;
		e.load = m.load;
		e.nice = t.nice;
		e.vruntime = m.vruntime;
		e.deadline = m.deadline;
		e.lagword = static_cast<u64>(m.vlag);
		e.protword = m.vprot;
		e.slice = m.slice;
		e.custom = m.custom_slice;
		e.on_rq = m.on_rq;
		e.delayed = m.sched_delayed;
		e.rel_deadline = m.rel_deadline;
		e.exec_start = m.exec_start;
		e.sum_exec = m.sum_exec_runtime;
		e.prev_sum_exec = m.prev_sum_exec_runtime;
		const bool in = m.on_rq && static_cast<int>(i) != curr_;
		if (in && !e.in_tree)
			e.seq = ~0ULL - (ents_.size() - i);  // newly in: after the others
		e.in_tree = in;
		if (m.on_rq)
			nr_queued_++;
		if (in)
			order.emplace_back(m.node_seq, i);
	}
	// The model's own insertion order decides FIFO among equal deadlines.
	std::sort(order.begin(), order.end());
	for (auto& [s, i] : order)
		ents_[i].seq = ++seq_;
}

const Event* DecisionOracle::attr_event(const Simulation& sim, int task) const
{
	const Simulation::Task& t = sim.tasks()[static_cast<size_t>(task)];
	if (!t.spec || t.phase >= t.spec->phases.size() || t.event >= t.spec->phases[t.phase].events.size())
		return nullptr;
	const Event& e = t.spec->phases[t.phase].events[t.event];
	if (e.kind != Event::Kind::SetNice && e.kind != Event::Kind::SetSlice)
		return nullptr;
	return &e;
}

void DecisionOracle::on_wakeup(const Simulation& sim, u64 t, int task, int waker, bool new_task)
{
	const bool program = waker != IDLE && waker == running_;
	if (!begin(sim, t,
		   (new_task ? "fork of task " : "wakeup of task ") + std::to_string(task) +
			   (waker != IDLE ? " (waker " + std::to_string(waker) + ")" : ""),
		   program, Hook::Wakeup))
		return;
	if (new_task) {
		fork_task(sim, task);
	} else {
		Ent& e = ents_[static_cast<size_t>(task)];
		if (e.delayed) {
			requeue_delayed_entity(e);  // ttwu_runnable(): ENQUEUE_DELAYED, no hrtick_update
			pending_ = {task, WF_TTWU_, false, stimulus_};
		} else if (!e.on_rq) {
			enqueue_entity(e, EN_WAKEUP);
			pending_ = {task, WF_TTWU_, true, stimulus_};
		} else {
			disagree(sim, "wakeup:protocol", "state of task " + std::to_string(task), "queued and not delayed",
				 "woken");
		}
	}
	end(sim, false);
}

void DecisionOracle::on_block(const Simulation& sim, u64 t, int task, bool delayed, bool exited)
{
	if (!begin(sim, t, std::string(exited ? "exit of task " : "block of task ") + std::to_string(task), true, Hook::Block))
		return;
	if (task != running_ || task == IDLE) {
		disagree(sim, "block:protocol", "blocking task", who(running_), who(task));
		end(sim, false);
		return;
	}
	// __schedule() cancels the hrtick before try_to_block_task() dequeues.
	hrtick_clear();
	hrtick_cleared_by_block_ = true;
	schedule_requested_ = true;
	Ent& e = ents_[static_cast<size_t>(task)];
	const bool dequeued = dequeue_entity(e, DQ_SLEEP | (exited ? DQ_SPECIAL : 0));
	if (dequeued)
		hrtick_update();
	if (exited)
		e.exited = true;
	if (delayed != !dequeued)
		disagree(sim, "block:delayed", "delayed (DELAY_DEQUEUE) of task " + std::to_string(task),
			 num(!dequeued), num(delayed));
	end(sim, false);
}

void DecisionOracle::on_reweight(const Simulation& sim, u64 t, int task, s64 vlag, u64 old_weight)
{
	const Event* ev = attr_event(sim, task);
	if (!begin(sim, t, "set_user_nice of task " + std::to_string(task) + (ev ? " to " + std::to_string(ev->value) : ""),
		   true, Hook::Reweight))
		return;
	if (!ev || ev->kind != Event::Kind::SetNice || task != running_) {
		disagree(sim, "nice:protocol", "on_reweight", "set_user_nice() by the running task", "something else");
		return;
	}
	set_user_nice(ents_[static_cast<size_t>(task)], ev->value, &vlag);
	nice_done_at_reweight_ = task;
	if (vlag != saved_vlag_)
		disagree(sim, "nice:saved_vlag", "vlag saved at the dequeue of task " + std::to_string(task),
			 snum(saved_vlag_), snum(vlag));
	if (old_weight != saved_old_weight_)
		disagree(sim, "nice:old_weight", "old weight of task " + std::to_string(task), num(saved_old_weight_),
			 num(old_weight));
}

void DecisionOracle::on_attr(const Simulation& sim, u64 t, int task)
{
	const Event* ev = attr_event(sim, task);
	const bool nice = ev && ev->kind == Event::Kind::SetNice;
	const std::string what = !ev ? "attribute change of task " + std::to_string(task)
				 : nice ? "set_user_nice of task " + std::to_string(task) + " to " + std::to_string(ev->value)
					: "sched_setattr of task " + std::to_string(task) + " runtime " + std::to_string(ev->ns);
	const bool done = nice_done_at_reweight_ == task;
	nice_done_at_reweight_ = IDLE;
	if (!begin(sim, t, what, !done, Hook::Attr))
		return;
	if (!ev || task != running_) {
		disagree(sim, "attr:protocol", "on_attr", "SetNice/SetSlice by the running task", "unknown");
		end(sim, false);
		return;
	}
	Ent& e = ents_[static_cast<size_t>(task)];
	if (nice) {
		const int before = 120 + e.nice;
		if (!done)
			set_user_nice(e, ev->value, nullptr);
		const int old_prio = done ? saved_old_prio_ : before;
		if (old_prio != 120 + e.nice)
			prio_changed_fair(sim, e, old_prio);
	} else {
		// From 6.18.17 set_next_entity(first = false) leaves the vlag word
		// alone, so the model's still holds the lag saved at the dequeue.
		const s64 saved = sim.tasks()[static_cast<size_t>(task)].se.vlag;
		sched_setattr_runtime(e, ev->ns, rules_->protect_first_only ? &saved : nullptr);
	}
	end(sim, true);
}

void DecisionOracle::on_yield(const Simulation& sim, u64 t, int task)
{
	if (!begin(sim, t, "yield of task " + std::to_string(task), true, Hook::Yield))
		return;
	if (task != running_ || task == IDLE) {
		disagree(sim, "yield:protocol", "yielding task", who(running_), who(task));
		end(sim, false);
		return;
	}
	yield_task_fair();
	schedule_requested_ = true;
	end(sim, false);
}

void DecisionOracle::on_tick(const Simulation& sim, u64 t, bool hrtick)
{
	if (!begin(sim, t, hrtick ? "hrtick" : "tick", false, Hook::Tick))
		return;
	if (hrtick) {
		if (hrtick_at_ != t)
			disagree(sim, "hrtick:time", "hrtick expiry",
				 hrtick_at_ == NONE ? std::string("none armed") : num(hrtick_at_), num(t));
		hrtick_at_ = NONE;
		if (running_ != IDLE) {
			update_curr();  // entity_tick(queued = 1)
			resched_curr();
		}
	} else {
		if (running_ == IDLE)
			disagree(sim, "tick:while-stopped", "periodic tick", "none while idle (NO_HZ)", "tick");
		else if (feat(Feature::NO_HZ_FULL) && nr_queued_ <= 1)
			disagree(sim, "tick:while-stopped", "periodic tick", "none with one task queued (NO_HZ_FULL)", "tick");
		if (cfg_.knobs.tick_jitter == 0 && t % cfg_.tick_ns != cfg_.knobs.tick_phase % cfg_.tick_ns)
			disagree(sim, "tick:off-grid", "periodic tick time", "on the grid", num(t));
		last_tick_ = t;
		tick_seen_ = true;
		if (running_ != IDLE)
			update_curr();  // entity_tick(queued = 0)
	}
	end(sim, true);
}

void DecisionOracle::on_schedule(const Simulation& sim, u64 t, int prev, int next)
{
	if (!begin(sim, t, "schedule (" + who(prev) + " -> " + who(next) + ")", false, Hook::Schedule))
		return;
	if (prev != running_)
		disagree(sim, "schedule:protocol", "prev", who(running_), who(prev));
	if (!need_resched_ && !schedule_requested_)
		disagree(sim, "schedule:unrequested", "reason to schedule", "none (no resched, block or yield)",
			 "scheduled");
	schedule_requested_ = false;
	if (!hrtick_cleared_by_block_)
		hrtick_clear();
	hrtick_cleared_by_block_ = false;
	in_schedule_ = rules_->hrtick_v7;  // hrtick_schedule_enter()
	const int chosen = pick_next_task(sim, next);
	if (rules_->hrtick_v7 && feat(Feature::HRTICK))
		hrtick_schedule_exit(chosen == IDLE);
	in_schedule_ = false;
	// __schedule() clears TIF_NEED_RESCHED after the pick.
	need_resched_ = false;
	running_ = chosen;
	if (chosen != next)
		disagree(sim, "schedule:next", "task picked to run", who(chosen), who(next));
	end(sim, false);
}

std::string DecisionOracle::dump() const
{
	std::string s = "oracle: curr " + who(curr_) + ", running " + who(running_) + ", nr_queued " + num(nr_queued_) +
			", v0 " + snum(static_cast<s64>(v0_)) + ", need_resched " + num(need_resched_) + ", hrtick " +
			(hrtick_at_ == NONE ? std::string("-") : num(hrtick_at_)) + "\n";
	for (size_t i = 0; i < ents_.size(); i++) {
		const Ent& e = ents_[i];
		if (!e.forked)
			continue;
		s += "  task " + num(i) + ": w=" + num(e.load.weight) + " v=" + snum(static_cast<s64>(e.vruntime)) +
		     " d=" + snum(static_cast<s64>(e.deadline)) + " vlag=" + snum(e.vlag()) + " slice=" + num(e.slice) +
		     (e.custom ? "c" : "") + " on_rq=" + num(e.on_rq) + " delayed=" + num(e.delayed) + " rel=" +
		     num(e.rel_deadline) + " tree=" + num(e.in_tree) + "/" + num(e.seq) + " sum=" + num(e.sum_exec) +
		     " prev_sum=" + num(e.prev_sum_exec) + "\n";
	}
	return s;
}

void DecisionOracle::on_switch(const Simulation&, u64, int, int, bool, u64) {}

void DecisionOracle::on_event(const Simulation& sim, u64 t)
{
	if (!begin(sim, t, "end of event", false, Hook::Event))
		return;
	if (need_resched_)
		disagree(sim, "resched:not-acted-on", "need_resched at the end of the event", "a schedule",
			 "none");
	end(sim, true);
	if (need_resched_ && opt_.resync)
		need_resched_ = sim.cfs_rq().need_resched;
}

}  // namespace eevdf::oracle
