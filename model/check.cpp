// SPDX-License-Identifier: GPL-2.0-only
// The one invariant checker (model/check.hpp lists its rules): a single
// concept, kept in one file past ~800 lines so that every rule and the
// snapshot it compares against read together.
#include "model/check.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "model/pick_by_definition.hpp"

namespace eevdf {
namespace {

std::string num(u64 x) { return std::to_string(x); }
std::string snum(s64 x) { return std::to_string(x); }
std::string id_of(const SchedEntity* se)
{
	if (!se)
		return "none";
	if (se->my_q && se->my_q->tg)
		return "group " + se->my_q->tg->path;
	return "task " + std::to_string(se->id);
}

// task_cfs_rq(p): the cfs_rq the task queues on (its group's, or rq->cfs).
const CfsRq& task_cfs_rq(const Simulation& sim, const Task& p)
{
	return p.se.parent ? *p.se.parent->my_q : sim.cfs_rq(p.cpu);
}

s128 key_times_weight(const CfsRq& cfs, const SchedEntity* se)
{
	return static_cast<s128>(cfs.entity_key(se)) * static_cast<s128>(cfs.avg_weight(se));
}

// Recomputes a subtree's augmented values and checks its red-black shape
// (parent links, no red node with a red child, one black height below every
// node); returns false on a mismatch.
struct Augment {
	u64 min_v, min_slice, max_slice, min_deadline;
	u64 count;
	u64 black_height;  // black nodes on every path down to a leaf, n included
};

// What the stored values must satisfy. min_vruntime and min_deadline are
// always the exact extrema (each is declared in its callbacks, or the only
// field of them). The kernel's min_vruntime_cb keeps min_slice (6.12+) and
// max_slice (6.18.17+) only as RBCOMPUTE last left them (model/timeline.hpp),
// and no bound relative to the current subtree holds in either direction: a
// node a rotation moved up misses the slices of the nodes it gained, and an
// erase whose propagation stops at such a node leaves the erased entity's
// slice in the nodes above. What does hold:
//  - min_slice <= the node's own slice: the enqueue sets it to that slice,
//    every later write is a recomputation that takes the minimum with it,
//    and a queued entity's slice does not change (a new slice goes through
//    a dequeue and an enqueue);
//  - each value is a slice some entity of the run can have had: the base
//    slice or a clamped custom slice of the workload; max_slice may also be
//    0, what a new entity's leftover is before its first time in the tree.
// v6.12.0 breaks the first for a group's entity: its slice changes in the
// tree with no propagation (KernelPaths::group_slice_tree_stale), so its
// own min_slice may exceed its new slice; and a delayed group entity can
// take slice 0 (KernelPaths::delayed_break_keeps_slice), a possible value.
// The model's max_slice (no such field in 6.12) goes stale with min_slice.
struct TreeRules {
	bool min_slice_exact, max_slice_exact;
	const Simulation& sim;
	mutable std::vector<u64> slices;  // filled on first need
	bool group_slices_stale = false;
	bool slice_zero = false;

	bool possible_slice(u64 s) const
	{
		if (slices.empty()) {
			const Config& c = sim.config();
			auto clamp = [](u64 ns) {  // sched_setattr()'s clamp of sched_runtime
				return std::clamp<u64>(ns, NSEC_PER_MSEC / 10, NSEC_PER_MSEC * 100);
			};
			slices.push_back(c.base_slice_ns);
			if (slice_zero)
				slices.push_back(0);
			for (const TaskSpec& t : sim.workload().tasks) {
				if (t.custom_slice)
					slices.push_back(clamp(t.custom_slice));
				for (const Phase& p : t.phases)
					for (const Event& e : p.events)
						if (e.kind == Event::Kind::SetSlice && e.ns)
							slices.push_back(clamp(e.ns));
			}
		}
		return std::find(slices.begin(), slices.end(), s) != slices.end();
	}
};

bool recompute(const SchedEntity* n, const TreeRules& rules, Augment& out, std::string& why)
{
	Augment a{n->vruntime, n->slice, n->slice, n->deadline, 1, 0};
	const SchedEntity* const child[2] = {n->left, n->right};
	u64 black_height[2] = {0, 0};
	for (int i = 0; i < 2; i++) {
		const SchedEntity* const c = child[i];
		if (!c)
			continue;
		if (c->rb_parent != n) {
			why = "task " + std::to_string(c->id) + " is a child of task " + std::to_string(n->id) +
			      " but its parent link is " + id_of(c->rb_parent);
			return false;
		}
		if (!n->rb_black && !c->rb_black) {
			why = "red-black: red task " + std::to_string(n->id) + " has a red child, task " +
			      std::to_string(c->id);
			return false;
		}
		Augment s;
		if (!recompute(c, rules, s, why))
			return false;
		a.min_v = min_vruntime(a.min_v, s.min_v);
		a.min_slice = s.min_slice < a.min_slice ? s.min_slice : a.min_slice;
		a.max_slice = s.max_slice > a.max_slice ? s.max_slice : a.max_slice;
		a.min_deadline = min_vruntime(a.min_deadline, s.min_deadline);
		a.count += s.count;
		black_height[i] = s.black_height;
	}
	if (black_height[0] != black_height[1]) {
		why = "red-black: black height below task " + std::to_string(n->id) + " is " + num(black_height[0]) +
		      " on the left, " + num(black_height[1]) + " on the right";
		return false;
	}
	a.black_height = black_height[0] + (n->rb_black ? 1 : 0);
	const bool min_slice_ok = rules.min_slice_exact
					  ? n->min_slice == a.min_slice
					  : (n->min_slice <= n->slice || (rules.group_slices_stale && n->my_q)) &&
						    (n->min_slice == a.min_slice || rules.possible_slice(n->min_slice));
	const bool max_slice_ok = rules.max_slice_exact ? n->max_slice == a.max_slice
							: n->max_slice == a.max_slice || n->max_slice == 0 ||
								  rules.possible_slice(n->max_slice);
	if (a.min_v != n->min_vruntime || a.min_deadline != n->min_deadline || !min_slice_ok || !max_slice_ok) {
		why = "augmented values of task " + std::to_string(n->id) + " are stale: min_vruntime " +
		      num(n->min_vruntime) + " (recomputed " + num(a.min_v) + "), min_slice " + num(n->min_slice) + " (" +
		      num(a.min_slice) + (rules.min_slice_exact ? "" : ", kernel's") + "), max_slice " +
		      num(n->max_slice) + " (" + num(a.max_slice) + (rules.max_slice_exact ? "" : ", kernel's") +
		      "), min_deadline " + num(n->min_deadline) + " (" + num(a.min_deadline) + ")";
		return false;
	}
	out = a;
	return true;
}

u64 lag_clamp_bound(const Simulation& sim, const SchedEntity& se)
{
	const Config& c = sim.config();
	LoadWeight lw = se.load;
	if (c.preset->paths.lag_clamp == KernelPaths::LagClamp::TwiceSlice) {
		const u64 r = 2 * se.slice > c.tick_ns ? 2 * se.slice : c.tick_ns;
		return calc_delta_fair(r, lw, c.preset->paths.calc_delta_divides);
	}
	// The 2026 clamp uses the queue's max slice at save time; every slice is
	// at most 100 ms.
	return calc_delta_fair(100 * NSEC_PER_MSEC + c.tick_ns, lw, c.preset->paths.calc_delta_divides);
}

}  // namespace

InvariantViolation::InvariantViolation(CheckFailure f)
	: std::logic_error("invariant '" + f.invariant + "' violated at t=" + std::to_string(f.t) + " ns (event " +
			   std::to_string(f.event) + "): " + f.detail),
	  failure(std::move(f))
{
}

std::string describe_state(const Simulation& sim)
{
	std::string s;
	for (u32 c = 0; c < sim.nr_cpus(); c++) {
		const CfsRq& cfs = sim.cfs_rq(c);
		s += (c ? "  cpu " + num(c) + ": " : "t=" + num(sim.now()) + (sim.nr_cpus() > 1 ? " cpu 0: " : " ")) +
		     "curr=" + id_of(cfs.curr) + " nr_queued=" + num(cfs.nr_queued) + " load=" + num(cfs.load) +
		     " v0=" + num(cfs.ref_vruntime) + " avg_vruntime=" + snum(cfs.avg_vruntime_sum) +
		     " avg_load=" + num(cfs.avg_load) + " V=" + num(cfs.avg_vruntime()) + "\n";
	}
	for (const auto& t : sim.tasks()) {
		const SchedEntity& se = t.se;
		char line[400];
		std::snprintf(line, sizeof line,
			      "  task %d %-12s nice=%d on_rq=%d delayed=%d v=%llu d=%llu (d-v=%lld) vlag=%lld vprot=%llu "
			      "slice=%llu%s sum_exec=%llu%s\n",
			      se.id, t.spec->name.c_str(), t.nice, se.on_rq, se.sched_delayed,
			      static_cast<unsigned long long>(se.vruntime), static_cast<unsigned long long>(se.deadline),
			      static_cast<long long>(wrapped_diff(se.deadline, se.vruntime)), static_cast<long long>(se.vlag),
			      static_cast<unsigned long long>(se.vprot), static_cast<unsigned long long>(se.slice),
			      se.custom_slice ? " (custom)" : "", static_cast<unsigned long long>(se.sum_exec_runtime),
			      sim.nr_cpus() > 1 ? (" cpu=" + std::to_string(t.cpu)).c_str() : "");
		s += line;
	}
	return s;
}

void InvariantChecker::fail(const Simulation& sim, u64 t, const char* invariant, const std::string& detail) const
{
	throw InvariantViolation(CheckFailure{events_, t, invariant, detail, describe_state(sim)});
}

void InvariantChecker::ensure(const Simulation& sim)
{
	if (started_)
		return;
	started_ = true;
	track_.resize(sim.tasks().size());
	cpu_.resize(sim.nr_cpus());
	for (u32 c = 0; c < sim.nr_cpus(); c++)
		cpu_[c].ref = sim.cfs_rq(c).ref_vruntime;
}

void InvariantChecker::bucket_by_cpu(const Simulation& sim)
{
	// A task whose task_cpu() is no CPU is in no bucket, as it is on no
	// CPU's recount: check_sums() then finds the rq's counts off.
	const u32 n = sim.nr_cpus();
	queued_start_.assign(n + 1, 0);
	queued_elsewhere_ = 0;
	for (const Task& p : sim.tasks())
		if (p.se.on_rq) {
			if (p.cpu < n)
				queued_start_[p.cpu + 1]++;
			else
				queued_elsewhere_++;
		}
	for (u32 c = 0; c < n; c++)
		queued_start_[c + 1] += queued_start_[c];
	queued_.resize(queued_start_[n]);
	fill_.assign(queued_start_.begin(), queued_start_.end() - 1);
	for (size_t i = 0; i < sim.tasks().size(); i++) {
		const Task& p = sim.tasks()[i];
		if (p.se.on_rq && p.cpu < n)
			queued_[fill_[p.cpu]++] = static_cast<int>(i);
	}
}

// Byte equality. libc's memcmp() is the fastest (vector loads); but in the
// libFuzzer builds memcmp() and bcmp() are intercepted, and each call that
// finds a difference feeds its operands to the value profile (a hash of up
// to 64 bytes each, pure overhead here), so those builds compare 32-byte
// blocks by hand (fuzz/CMakeLists.txt defines EEVDF_CHECK_WORD_COMPARE).
#ifndef EEVDF_CHECK_WORD_COMPARE
static bool same_bytes(const void* a, const void* b, size_t n)
{
	// memcmp() wants valid pointers even for n == 0; an empty vector's
	// data() may be null (UBSan's nonnull-attribute check).
	return n == 0 || std::memcmp(a, b, n) == 0;
}
#else
static bool same_bytes(const void* a, const void* b, size_t n)
{
	const auto* x = static_cast<const unsigned char*>(a);
	const auto* y = static_cast<const unsigned char*>(b);
	for (; n >= 32; n -= 32, x += 32, y += 32) {
		u64 u[4], v[4];
		std::memcpy(u, x, 32);
		std::memcpy(v, y, 32);
		if ((u[0] ^ v[0]) | (u[1] ^ v[1]) | (u[2] ^ v[2]) | (u[3] ^ v[3]))
			return false;
	}
	for (; n >= 8; n -= 8, x += 8, y += 8) {
		u64 u, v;
		std::memcpy(&u, x, 8);
		std::memcpy(&v, y, 8);
		if (u != v)
			return false;
	}
	for (; n; n--)
		if (*x++ != *y++)
			return false;
	return true;
}
#endif

// Padding bytes are compared too: one that changes makes a needless
// re-check, never a skipped one. The comparison reads the live objects in
// place and copies them only when they differ (most differ in clock_task,
// the CfsRq's first bytes, so a changed rq costs little to detect).
bool InvariantChecker::rq_unchanged(const Simulation& sim, u32 cpu)
{
	const CfsRq& cfs = sim.cfs_rq(cpu);
	RqBytes& snap = cpu_[cpu].checked;
	const int* ids = queued_.data() + queued_start_[cpu];
	const size_t n = queued_start_[cpu + 1] - queued_start_[cpu];
	// curr off the queue (blocked, not yet switched out) is read too
	const SchedEntity* extra = cfs.curr && !cfs.curr->on_rq ? cfs.curr : nullptr;
	const int extra_id = extra ? extra->id : -1;
	constexpr size_t SE = sizeof(SchedEntity);
	auto se_of = [&](size_t k) -> const SchedEntity& { return sim.tasks()[static_cast<size_t>(ids[k])].se; };
	bool same = snap.valid && snap.extra_id == extra_id && snap.ids.size() == n &&
		    same_bytes(snap.cfs.data(), &cfs, sizeof(CfsRq)) &&
		    same_bytes(ids, snap.ids.data(), n * sizeof(int));
	for (size_t k = 0; same && k < n; k++)
		same = same_bytes(snap.se.data() + k * SE, &se_of(k), SE);
	if (same && extra)
		same = same_bytes(snap.se.data() + n * SE, extra, SE);
	if (same)
		return true;
	snap.valid = true;
	snap.extra_id = extra_id;
	std::memcpy(snap.cfs.data(), &cfs, sizeof(CfsRq));
	snap.ids.assign(ids, ids + n);
	snap.se.resize((n + (extra ? 1 : 0)) * SE);
	for (size_t k = 0; k < n; k++)
		std::memcpy(snap.se.data() + k * SE, &se_of(k), SE);
	if (extra)
		std::memcpy(snap.se.data() + n * SE, extra, SE);
	return false;
}

// What the sums, tree and V rules read of the tree, gathered in one
// in-order walk: the kernel's Σ key·w and Σ avg_weight recounted, the exact
// V (curr added after the walk), the entity count, the first entity, and
// the last shape fault met (the order of in-order neighbours, curr in the
// tree, an entity not queued or of another CPU).
struct InvariantChecker::RqWalk {
	s128 key_weight = 0;
	u64 avg_load = 0;
	u64 count = 0;
	const SchedEntity* first = nullptr;
	std::string why;
	ExactV v;
};

InvariantChecker::RqWalk InvariantChecker::walk_rq(const Simulation& sim, const CfsRq& cfs, u32 cpu) const
{
	const Timeline& tl = cfs.timeline;
	const char* const key = tl.key() == Timeline::Key::Deadline ? "deadline" : "vruntime";
	RqWalk w;
	w.v.ref = cfs.ref_vruntime;
	const SchedEntity* prev = nullptr;
	tl.for_each([&](const SchedEntity* se) {
		w.key_weight += key_times_weight(cfs, se);
		w.avg_load += static_cast<u64>(cfs.avg_weight(se));
		w.v.add(cfs, *se);
		if (!w.count++)
			w.first = se;
		if (se == cfs.curr)
			w.why = "curr (" + id_of(se) + ") is in the tree";
		if (!se->on_rq)
			w.why = id_of(se) + " is in the tree but not on_rq";
		if (se->is_task() && sim.tasks()[static_cast<size_t>(se->id)].cpu != cpu)
			w.why = "task " + std::to_string(se->id) + " is in CPU " + num(cpu) + "'s tree but task_cpu() is " +
				num(sim.tasks()[static_cast<size_t>(se->id)].cpu);
		if (prev && (tl.less(se, prev) || (tl.key_of(se) == tl.key_of(prev) && se->node_seq < prev->node_seq)))
			w.why = "tree order: " + id_of(se) + " (" + key + " " + num(tl.key_of(se)) + ") follows " + id_of(prev) +
				" (" + key + " " + num(tl.key_of(prev)) + ")";
		prev = se;
	});
	if (cfs.curr && cfs.curr->on_rq)
		w.v.add(cfs, *cfs.curr);
	return w;
}

void InvariantChecker::check_sums(const Simulation& sim, u64 t, u32 cpu, const RqWalk& w) const
{
	const CfsRq& cfs = sim.cfs_rq(cpu);
	const s128 sum = w.key_weight;
	const u64 avg_load = w.avg_load;
	u64 load = 0, queued = 0, delayed = 0, idle = 0;
	for (u32 k = queued_start_[cpu]; k < queued_start_[cpu + 1]; k++) {
		const Task& task = sim.tasks()[static_cast<size_t>(queued_[k])];
		const SchedEntity& se = task.se;
		queued++;
		load += se.load.weight;
		delayed += se.sched_delayed;
		idle += se.idle_policy;
		if (se.idle_policy != (task.spec->policy == Policy::Idle) || (se.idle_policy && se.load.weight != idle_load_weight().weight))
			fail(sim, t, "sums", "task " + std::to_string(se.id) + ": SCHED_IDLE flag or its weight 3 lost");
		const s128 kw = key_times_weight(cfs, &se);
		if (kw >= (static_cast<s128>(1) << 62) || kw <= -(static_cast<s128>(1) << 62))
			fail(sim, t, "overflow", "task " + std::to_string(se.id) + ": key * weight reaches 2^62");
	}
	if (sum != static_cast<s128>(cfs.avg_vruntime_sum))
		fail(sim, t, "sums", "avg_vruntime " + snum(cfs.avg_vruntime_sum) + " != recomputed Σ key*w " +
				     (sum > INT64_MAX || sum < INT64_MIN ? std::string("(beyond s64)") : snum(static_cast<s64>(sum))));
	if (avg_load != cfs.avg_load)
		fail(sim, t, "sums", "avg_load " + num(cfs.avg_load) + " != recomputed " + num(avg_load));
	if (load != cfs.load)
		fail(sim, t, "sums", "load " + num(cfs.load) + " != Σ queued weights " + num(load));
	if (queued != cfs.nr_queued)
		fail(sim, t, "sums", "nr_queued " + num(cfs.nr_queued) + " != queued tasks " + num(queued));
	if (delayed != cfs.nr_delayed)
		fail(sim, t, "sums", "nr_delayed " + num(cfs.nr_delayed) + " != delayed tasks " + num(delayed));
	if (idle != cfs.h_nr_idle)
		fail(sim, t, "sums", "h_nr_idle " + num(cfs.h_nr_idle) + " != queued SCHED_IDLE tasks " + num(idle));
	if (queued != cfs.h_nr_queued)
		fail(sim, t, "sums", "h_nr_queued " + num(cfs.h_nr_queued) + " != queued tasks " + num(queued));
}

void InvariantChecker::check_tree(const Simulation& sim, u64 t, const CfsRq& cfs, const RqWalk& w) const
{
	const Timeline& tl = cfs.timeline;
	if (!w.why.empty())
		fail(sim, t, "tree", w.why);
	const u64 expect = cfs.nr_queued - (cfs.curr && cfs.curr->on_rq ? 1 : 0);
	if (w.count != expect || w.count != cfs.timeline.size())
		fail(sim, t, "tree", "tree holds " + num(w.count) + " entities, expected " + num(expect));
	if (const SchedEntity* root = cfs.timeline.root()) {
		if (!root->rb_black || root->rb_parent)
			fail(sim, t, "tree", "red-black: the root, " + id_of(root) + ", is " +
					     (root->rb_black ? "black" : "red") + " with parent link " + id_of(root->rb_parent));
		TreeRules rules{tl.min_slice_exact(), tl.max_slice_exact(), sim, {}};
		rules.group_slices_stale = sim.config().preset->paths.group_slice_tree_stale && !tl.min_slice_exact();
		// max_slice, which 6.12 does not have, goes stale with min_slice.
		rules.max_slice_exact = rules.max_slice_exact && !rules.group_slices_stale;
		rules.slice_zero = sim.config().preset->paths.delayed_break_keeps_slice;
		Augment a;
		std::string why;
		if (!recompute(root, rules, a, why))
			fail(sim, t, "tree", why);
	}
	if (w.first != cfs.timeline.leftmost())
		fail(sim, t, "tree", "cached leftmost is " + id_of(cfs.timeline.leftmost()) + ", in-order first is " +
				     id_of(w.first));
}

void InvariantChecker::check_v_and_pick(const Simulation& sim, u64 t, const CfsRq& cfs, const RqWalk& w) const
{
	const ExactV& v = w.v;
	const u64 floor_v = v.floor_v();
	if (cfs.avg_vruntime() != floor_v)
		fail(sim, t, "V", "avg_vruntime() = " + num(cfs.avg_vruntime()) + ", floor of the exact average = " +
				  num(floor_v));
	bool any_eligible = false;
	// entity_eligible() is vruntime_eligible(se->vruntime) with V's two
	// sums taken anew each call: take them once for the whole queue.
	const CfsRq::Eligibility entity_eligible = cfs.eligibility();
	auto eligible_alike = [&](const SchedEntity* se) {
		const bool exact = v.eligible(se->vruntime);
		any_eligible = any_eligible || exact;
		if (entity_eligible(se->vruntime) != exact)
			fail(sim, t, "eligibility", "entity_eligible(" + id_of(se) + ") = " + (exact ? "false" : "true") +
							    ", exact v <= V says " + (exact ? "true" : "false"));
	};
	cfs.timeline.for_each(eligible_alike);
	if (cfs.curr && cfs.curr->on_rq)
		eligible_alike(cfs.curr);
	if (cfs.nr_queued && !any_eligible)
		fail(sim, t, "existence", "no queued entity is eligible");
	// Σ w_i (V - v_i) with V floored lies in (-W, 0].
	if (v.weight) {
		const s128 vf = static_cast<s128>(wrapped_diff(floor_v, v.ref));
		const s128 lagsum = vf * v.weight - v.sum;
		if (lagsum > 0 || lagsum <= -v.weight)
			fail(sim, t, "lag sum", "Σ w (V - v) outside (-W, 0]");
	}
	for (const PickComparison& pick : compare_picks(cfs, v)) {
		if (!pick.agree)
			fail(sim, t, "pick", pick.describe());
		if (cfs.nr_queued && !pick.tree)
			fail(sim, t, "pick", "__pick_eevdf returned NULL with " + num(cfs.nr_queued) + " queued");
	}
	if (cfs.pick_failures)
		fail(sim, t, "pick", "a pick found no eligible entity");
	if (cfs.warnings.any())
		fail(sim, t, "warn",
		     "WARN_ON_ONCE at " + std::string(warn_site_name(cfs.warnings.first())) + " fired (" +
			     num(cfs.warnings.count()) + " times)");
}

// With groups, every cfs_rq of the CPU (the root and each group's) gets the
// tree, V and pick checks, and its counts are recounted over the hierarchy:
// nr_queued and load from the entities queued on it, h_nr_queued,
// nr_delayed and h_nr_idle from the tasks below it. A group's entity is
// queued iff its cfs_rq has something queued, or it is delayed (its cfs_rq
// emptied while it was ineligible); it weighs tg->shares whenever its
// cfs_rq has load (one CPU), and carries its cfs_rq's smallest slice; a
// buddy is an entity queued on its cfs_rq and not delayed.
void InvariantChecker::check_group_rqs(const Simulation& sim, u64 t, u32 cpu)
{
	const CfsRq& root = sim.cfs_rq(cpu);
	auto check_one = [&](const CfsRq& q) {
		const RqWalk w = walk_rq(sim, q, cpu);
		check_tree(sim, t, q, w);
		check_v_and_pick(sim, t, q, w);
		if (w.key_weight != static_cast<s128>(q.avg_vruntime_sum) || w.avg_load != q.avg_load)
			fail(sim, t, "sums", "a cfs_rq's avg_vruntime or avg_load is not the recomputed sum");
		u64 load = 0, queued = 0;
		q.timeline.for_each([&](const SchedEntity* se) {
			load += se->load.weight;
			queued++;
		});
		if (q.curr && q.curr->on_rq) {
			load += q.curr->load.weight;
			queued++;
		}
		if (load != q.load || queued != q.nr_queued)
			fail(sim, t, "sums", "a cfs_rq holds " + num(queued) + " entities of weight " + num(load) +
						     ", its nr_queued and load say " + num(q.nr_queued) + " and " + num(q.load));
		u64 h_queued = 0, h_delayed = 0, h_idle = 0;
		for (u32 k = queued_start_[cpu]; k < queued_start_[cpu + 1]; k++) {
			const SchedEntity& se = sim.tasks()[static_cast<size_t>(queued_[k])].se;
			// Idle to q: SCHED_IDLE, or in an idle group below q.
			bool idle = se.idle_policy;
			for (const SchedEntity* e = &se; e; e = e->parent) {
				const CfsRq* on = e->parent ? e->parent->my_q : &root;
				if (on == &q) {
					h_queued++;
					h_delayed += se.sched_delayed;
					h_idle += idle;
				}
				idle |= on->idle;
			}
		}
		if (h_queued != q.h_nr_queued || h_delayed != q.nr_delayed || h_idle != q.h_nr_idle)
			fail(sim, t, "hierarchy", "a cfs_rq counts h_nr_queued " + num(q.h_nr_queued) + ", delayed " +
							  num(q.nr_delayed) + ", idle " + num(q.h_nr_idle) + "; its tasks below: " +
							  num(h_queued) + ", " + num(h_delayed) + ", " + num(h_idle));
		if (q.next && (!q.next->on_rq || q.next->sched_delayed ||
			       (q.next->parent ? q.next->parent->my_q : &root) != &q))
			fail(sim, t, "pick", "next buddy " + id_of(q.next) + " is not a runnable entity of its cfs_rq");
	};
	check_one(root);
	for (const TaskGroup& tg : sim.groups()) {
		const SchedEntity& se = tg.se[cpu];
		const CfsRq& q = tg.cfs_rq[cpu];
		check_one(q);
		if (q.nr_queued && !se.on_rq)
			fail(sim, t, "hierarchy", "group " + tg.path + " has entities queued but its entity is not queued");
		if (se.on_rq && !q.nr_queued && !se.sched_delayed)
			fail(sim, t, "hierarchy", "group " + tg.path + "'s entity is queued, not delayed, with nothing below it");
		// calc_group_shares(): tg->shares x this CPU's part of the group's
		// load, clamped to [MIN_SHARES, tg->shares]; on one CPU the part is
		// the whole whenever the group has load here.
		if (q.load && sim.nr_cpus() == 1 && se.load.weight != tg.shares)
			fail(sim, t, "hierarchy", "group " + tg.path + "'s entity weighs " + num(se.load.weight) +
							     ", tg->shares is " + num(tg.shares));
		if (q.load && (se.load.weight < MIN_SHARES || se.load.weight > tg.shares))
			fail(sim, t, "hierarchy", "group " + tg.path + "'s entity weighs " + num(se.load.weight) +
							     ", outside [MIN_SHARES, tg->shares " + num(tg.shares) + "]");
		// A queued group entity's slice is some task's: a custom slice
		// (clamped to 0.1 .. 100 ms) or the base slice, never the U64_MAX
		// that cfs_rq_min_slice() gives for an empty cfs_rq (bbce3de72be5).
		// v6.12.0 also gives 0: a delayed break keeps the task dequeue's
		// slice (KernelPaths::delayed_break_keeps_slice). Its U64_MAX needs
		// a cgroup's removal, which the model has not: it is rejected here.
		const u64 base = sim.config().base_slice_ns;
		const u64 lo = std::min(clamp_custom_slice(0), base), hi = std::max(clamp_custom_slice(~0ULL), base);
		const bool zero_ok = sim.config().preset->paths.delayed_break_keeps_slice && se.slice == 0;
		if (se.on_rq && (se.slice < lo || se.slice > hi) && !zero_ok)
			fail(sim, t, "hierarchy", "group " + tg.path + "'s entity has slice " + num(se.slice) +
							  " ns, no task's slice (" + num(lo) + " .. " + num(hi) + " ns)");
		// cpu.idle: every CPU's cfs_rq of the group is idle with it, and an
		// idle group weighs WEIGHT_IDLEPRIO (sched_group_set_idle()).
		if (q.idle != tg.idle || (tg.idle && tg.shares != scale_load(WEIGHT_IDLEPRIO)))
			fail(sim, t, "hierarchy", "group " + tg.path + (tg.idle ? " is idle" : " is not idle") +
							  ", its cfs_rq on CPU " + num(cpu) + (q.idle ? " is" : " is not") +
							  ", its shares are " + num(tg.shares));
		// The leaf list: a cfs_rq with anything queued is on it.
		if (q.nr_queued && !q.on_list)
			fail(sim, t, "hierarchy", "group " + tg.path + " has entities queued on CPU " + num(cpu) +
							  " but its cfs_rq is not on the leaf list");
		// The group slice (aef6987d8954): every enqueue and dequeue below
		// sets the entity's slice to its cfs_rq's min slice. Where the
		// augmented min_slice may go stale without a walk (6.12 .. 6.18.16,
		// before the rb callbacks copied every field), the kernel's
		// cfs_rq_min_slice() may since differ from the slice it gave.
		if (q.nr_queued && q.timeline.min_slice_exact()) {
			u64 min_slice = q.curr && q.curr->on_rq ? q.curr->slice : ~0ULL;
			q.timeline.for_each([&](const SchedEntity* e) { min_slice = std::min(min_slice, e->slice); });
			if (se.slice != min_slice)
				fail(sim, t, "hierarchy", "group " + tg.path + "'s entity has slice " + num(se.slice) +
								     ", the smallest slice queued below it is " + num(min_slice));
		}
	}
}

// The leaf cfs_rq list of a CPU: a well-linked list (each entry's prev
// the entry before it, the ends the root's) of exactly the cfs_rqs of this
// CPU marked on_list, each once; the root on it whenever it has something
// queued; and no branch left unconnected at an event's end
// (assert_list_leaf_cfs_rq()). The order is not checked: the kernel's own
// can leave a child listed after its parent left (child_cfs_rq_on_list()
// looks only at the entry before), and the model follows it.
void InvariantChecker::check_leaf_list(const Simulation& sim, u64 t, u32 cpu)
{
	const CfsRq& root = sim.cfs_rq(cpu);
	const std::string where = "CPU " + num(cpu) + "'s leaf list";
	if (root.tmp_alone_branch)
		fail(sim, t, "hierarchy", where + " has a branch left unconnected");
	if (root.nr_queued && !root.on_list)
		fail(sim, t, "hierarchy", "CPU " + num(cpu) + "'s root cfs_rq has entities queued but is not on the leaf list");
	size_t marked = root.on_list;
	for (const TaskGroup& tg : sim.groups())
		marked += tg.cfs_rq[cpu].on_list;
	size_t n = 0;
	const CfsRq* prev = nullptr;
	for (const CfsRq* q = root.leaf_first; q; prev = q, q = q->leaf_next) {
		if (++n > marked) {  // also ends a cycle
			fail(sim, t, "hierarchy", where + " holds more cfs_rqs than the " + num(marked) + " marked on it");
			return;
		}
		if (!q->on_list || &q->rq_root() != &root || q->leaf_prev != prev)
			fail(sim, t, "hierarchy", where + " holds a cfs_rq not marked on it, of another CPU, or mislinked");
	}
	if (root.leaf_last != prev)
		fail(sim, t, "hierarchy", where + "'s tail is not its last entry");
	if (n != marked)
		fail(sim, t, "hierarchy", where + " holds " + num(n) + " cfs_rqs, " + num(marked) + " are marked on it");
}

void InvariantChecker::check_tasks(const Simulation& sim, u64 t)
{
	const Config& c = sim.config();
	for (u32 cpu = 0; cpu < sim.nr_cpus(); cpu++) {
		const CfsRq& cfs = sim.cfs_rq(cpu);
		u64& ref = cpu_[cpu].ref;
		if (c.preset->paths.ref_point == KernelPaths::RefPoint::MinVruntime) {
			if (wrapped_diff(cfs.ref_vruntime, ref) < 0)
				fail(sim, t, "min_vruntime", "min_vruntime moved backwards from " + num(ref) + " to " +
								     num(cfs.ref_vruntime));
			ref = cfs.ref_vruntime;
		}
		for (const SchedEntity* c = cfs.curr; c; c = c->my_q ? c->my_q->curr : nullptr)
			if (c->on_rq && c->sched_delayed)
				fail(sim, t, "delayed", "curr (" + id_of(c) + ") is delayed after a pick");
		if (const SchedEntity* c = cfs.curr_task(); c && sim.tasks()[static_cast<size_t>(c->id)].cpu != cpu)
			fail(sim, t, "smp", "CPU " + num(cpu) + " runs task " + std::to_string(c->id) +
						    " whose task_cpu() is " + num(sim.tasks()[static_cast<size_t>(c->id)].cpu));
		if (cfs.curr && !cfs.curr_task())
			fail(sim, t, "hierarchy", "CPU " + num(cpu) + "'s curr chain from " + id_of(cfs.curr) +
							  " ends without a task");
	}
	// A task woken by another CPU may wait on that CPU's wakelist, queued
	// nowhere yet: it must be on exactly one wakelist.
	std::vector<u32>& on_list = on_list_;
	on_list.assign(sim.tasks().size(), 0);
	for (u32 cpu = 0; cpu < sim.nr_cpus(); cpu++)
		for (int id : sim.rq(cpu).wake_list)
			on_list[static_cast<size_t>(id)]++;
	// A blocked task that is in no wait queue can never be woken (a lost
	// wake-up); one in two would be woken twice. The walk stops at as many
	// links as there are tasks, so a corrupt (cyclic) queue is reported.
	std::vector<u32>& in_queue = in_queue_;
	in_queue.assign(sim.tasks().size(), 0);
	sim.for_each_wait_queue([&](const WaitQueue& q) {
		size_t n = 0;
		for (int id = q.head; id >= 0; id = sim.tasks()[static_cast<size_t>(id)].wait_next)
			if (++n > sim.tasks().size())
				fail(sim, t, "waiting", "a wait queue's links form a cycle");
			else
				in_queue[static_cast<size_t>(id)]++;
	});

	for (size_t i = 0; i < sim.tasks().size(); i++) {
		const auto& task = sim.tasks()[i];
		const SchedEntity& se = task.se;
		Track& tr = track_[i];
		auto who = [i] { return "task " + std::to_string(i); };
		using S = Simulation::TaskState;

		if (se.custom_slice ? (se.slice < NSEC_PER_MSEC / 10 || se.slice > 100 * NSEC_PER_MSEC)
				    : se.slice != c.base_slice_ns)
			fail(sim, t, "slice", who() + " has slice " + num(se.slice));
		// (TTWU_QUEUE_DELAYED: a delayed task's wake-up waits on its own
		// CPU's wakelist while the task is still queued there, delayed.)
		if (on_list[i] > 1 || (on_list[i] && se.on_rq && !(task.sched_remote_delayed && se.sched_delayed)))
			fail(sim, t, "smp", who() + " is on " + num(on_list[i]) + " wakelists" + (se.on_rq ? " and queued" : ""));
		if (task.state == S::Runnable && !se.on_rq && !on_list[i])
			fail(sim, t, "runnable", who() + " is runnable but neither queued nor on a wakelist (a lost wake-up)");
		// (A thread preempted inside pthread_cond_wait() is a waiter that
		// has not gone to sleep yet: cond_pending.)
		const bool waits = task.state == S::Suspended || task.cond_pending >= 0;
		if (waits != (in_queue[i] == 1))
			fail(sim, t, "waiting", who() + (task.state == S::Suspended ? " is suspended" : waits ? " is in a condition wait" : " is not suspended") +
							" and in " + num(in_queue[i]) + " wait queues");
		if ((se.on_rq || on_list[i]) && !task.cpus_ptr.test(task.cpu))
			fail(sim, t, "affinity", who() + " is queued on CPU " + num(task.cpu) + ", outside its allowed CPUs");
		if ((task.state == S::Sleeping || task.state == S::Suspended || task.state == S::Exited || task.state == S::New) &&
		    se.on_rq && !se.sched_delayed)
			fail(sim, t, "runnable", who() + " is blocked but queued and not delayed");

		if (se.on_rq) {
			// d > v after every renewal and placement; a nice change rescales
			// d - v by w_old / w_new with truncation, which can leave d == v.
			if (wrapped_diff(se.deadline, se.vruntime) < 0)
				fail(sim, t, "deadline", who() + " is queued with deadline < vruntime");
			// A nice or slice change re-places the entity (dequeue SAVE,
			// enqueue RESTORE), which may move it by the lag rounding.
			// Across CPUs vruntime has no common frame (lag travels), also
			// for a task moved away and back within one event (two passes
			// of one nohz idle balance; docs/fuzzing.md K3); a
			// sched_setattr re-queues even an unchanged task.
			if (tr.queued && tr.cpu == task.cpu && !tr.moved && !tr.requeued && tr.weight == se.load.weight &&
			    tr.slice == se.slice && tr.custom == se.custom_slice && wrapped_diff(se.vruntime, tr.vruntime) < 0)
				fail(sim, t, "vruntime", who() + "'s vruntime went back from " + num(tr.vruntime) + " to " +
								 num(se.vruntime) + " while queued");
			// The proofs' premises (docs/proofs.md): a request is at most
			// one vslice, and nothing but curr moves while curr runs.
			const CfsRq& cfs = se.parent ? *se.parent->my_q : sim.cfs_rq(task.cpu);
			const bool same_weight = tr.weight == se.load.weight && tr.slice == se.slice && tr.custom == se.custom_slice;
			const s64 rel = wrapped_diff(se.deadline, se.vruntime);
			if (!tr.queued)
				tr.request_exact = true;  // placed: d = v + vslice (or half of it)
			else if (!same_weight || tr.attr_changed || (tr.yielded && c.preset->paths.yield == KernelPaths::Yield::PushDeadline))
				tr.request_exact = false;
			else if (tr.moved)
				;  // moved while queued, with its relative deadline
			else if (se.deadline != tr.deadline)
				tr.request_exact = true;  // a renewal (or a re-placement)
			if (tr.request_exact) {
				LoadWeight lw = se.load;
				const u64 vslice = cfs.vdelta(se.slice, lw);
				if (rel > static_cast<s64>(vslice))
					fail(sim, t, "deadline", who() + " has d - v = " + snum(rel) + " > cdf(slice) = " + num(vslice));
			}
			if (tr.queued && !tr.was_curr && cfs.curr != &se && !tr.moved && !tr.requeued && !tr.woken_queued &&
			    same_weight && !tr.attr_changed && (se.vruntime != tr.vruntime || se.deadline != tr.deadline))
				fail(sim, t, "others", who() + " moved while it waited: v " + num(tr.vruntime) + " -> " + num(se.vruntime) +
							       ", d " + num(tr.deadline) + " -> " + num(se.deadline));
		} else if (tr.queued) {
			// Just left the queue: the saved lag is within the clamp, and
			// a delayed entity leaves with no positive lag (DELAY_ZERO).
			const u64 bound = lag_clamp_bound(sim, se);
			if (se.vlag > static_cast<s64>(bound) || se.vlag < -static_cast<s64>(bound))
				fail(sim, t, "lag clamp", who() + " left with vlag " + snum(se.vlag) + " beyond ±" + num(bound));
			if (tr.delayed && c.features[Feature::DELAY_ZERO] && se.vlag > 0)
				fail(sim, t, "delayed", who() + " left its delay with vlag " + snum(se.vlag) + " > 0");
			tr.saved_vlag = se.vlag;
			tr.has_saved_vlag = true;
		}
		tr.migrated_queued = false;  // a move not attached in its event (a woken task) is placed as a wake-up
		tr.requeued = false;
		tr.attr_changed = false;
		tr.yielded = false;
		tr.woken_queued = false;
		tr.moved = false;
		tr.deadline = se.deadline;
		tr.was_curr = se.on_rq && (se.parent ? se.parent->my_q->curr : sim.cfs_rq(task.cpu).curr) == &se;
		tr.cpu = task.cpu;
		if (se.on_rq)
			tr.rel_deadline = wrapped_diff(se.deadline, se.vruntime);
		tr.queued = se.on_rq;
		tr.delayed = se.sched_delayed;
		tr.weight = se.load.weight;
		tr.slice = se.slice;
		tr.custom = se.custom_slice;
		tr.vruntime = se.vruntime;
	}
}

void InvariantChecker::check_time(const Simulation& sim, u64 t, u32 cpu) const
{
	const Rq& rq = sim.rq(cpu);
	const CfsRq& cfs = rq.cfs;
	auto on = [&] { return sim.nr_cpus() > 1 ? " on CPU " + num(cpu) : std::string(); };  // built only for a failure
	if (rq.busy_ns + rq.idle_ns != sim.now())
		fail(sim, t, "time", "busy " + num(rq.busy_ns) + " + idle " + num(rq.idle_ns) + " != now " +
					   num(sim.now()) + on());
	// An idle CPU picks at once what is queued on it, unless another CPU
	// queued it and the resched IPI is still on its way, or a timer
	// interrupt did and its resched waits for the idle loop's exit.
	const bool resched_on_way = rq.ipi_at != NEVER || rq.resched_at != NEVER;
	if (!cfs.curr && cfs.nr_queued && !(cfs.need_resched && resched_on_way))
		fail(sim, t, "idle", "the CPU is idle with " + num(cfs.nr_queued) + " queued" + on());
	// Only a resched of another CPU may wait: for its IPI, a timer's for
	// its interrupt's exit (resched_delay), or (PREEMPT_LAZY)
	// a lazy one of a busy CPU for that CPU's next event (its tick, if it
	// runs: NO_HZ_FULL with one task leaves the flag until the task enters
	// the kernel, as in the kernel).
	const bool lazy_wait = cfs.resched_lazy && sim.config().preempt == Preempt::Lazy && cfs.curr;
	if (cfs.need_resched && !resched_on_way && !lazy_wait)
		fail(sim, t, "resched", "a resched request was left pending after the scheduling point" + on());
	if (rq.ttwu_pending != !rq.wake_list.empty() || (!rq.wake_list.empty() && rq.ipi_at == NEVER))
		fail(sim, t, "wakelist", "CPU " + num(cpu) + " has " + num(rq.wake_list.size()) + " queued wake-ups, ttwu_pending " +
						 (rq.ttwu_pending ? "set" : "clear") + ", IPI " + (rq.ipi_at == NEVER ? "none" : "pending"));
	const Config& c = sim.config();
	if (c.features[Feature::NO_HZ_FULL] && cfs.curr && cfs.h_nr_queued > 1 && !sim.tick_running(cpu))
		fail(sim, t, "nohz", "tick stopped with " + num(cfs.h_nr_queued) + " queued" + on());
	// An early tick at grid - u is followed by one at grid + TICK - u'.
	const u64 next = sim.next_tick_time(cpu);
	if (sim.tick_running(cpu) && next - sim.now() > c.tick_ns + tick_jitter_max(c))
		fail(sim, t, "tick", "the next tick at " + num(next) + " is more than TICK_NSEC + jitter away" + on());
	if (sim.tick_running(cpu) && tick_jitter_max(c) == 0 && next % c.tick_ns != rq.tick_offset % c.tick_ns)
		fail(sim, t, "nohz", "the next tick at " + num(next) + " is off the tick grid" + on());
}

void InvariantChecker::on_tick(const Simulation& sim, u64 t, bool hrtick)
{
	ensure(sim);
	const u32 cpu = sim.event_cpu();
	const CfsRq& cfs = sim.cfs_rq(cpu);
	PerCpu& pc = cpu_[cpu];
	if (hrtick)
		return;
	// Each tick owns its own grid point: ticks are at least TICK_NSEC - jitter apart.
	const Config& c = sim.config();
	if (pc.ticks_seen && t - pc.last_tick < c.tick_ns - tick_jitter_max(c))
		fail(sim, t, "tick", "ticks at " + num(pc.last_tick) + " and " + num(t) + " are closer than TICK_NSEC - jitter");
	// The proofs' accounting points: a tick that kept running is at most
	// TICK_NSEC + jitter after the last.
	if (pc.ticks_seen && pc.tick_continuous && t - pc.last_tick > c.tick_ns + tick_jitter_max(c))
		fail(sim, t, "tick", "ticks at " + num(pc.last_tick) + " and " + num(t) +
					     " are further apart than TICK_NSEC + jitter, and the tick ran in between");
	pc.tick_continuous = true;
	pc.ticks_seen = true;
	pc.last_tick = t;
	const SchedEntity* curr = cfs.curr_task();
	if (!curr)
		return;
	// Called after update_curr and before the scheduling point. A tick at
	// the instant of a pick accounts nothing and, like update_curr(),
	// decides nothing.
	if (pc.path[0] == curr && pc.path_sum[0] == curr->sum_exec_runtime)
		return;
	// (A resched another CPU asked for, whose IPI is still on its way, is
	// not the tick's: the task it was for may have left since.)
	// update_curr() asks only on a level holding more than curr (a delayed
	// group entity counts there, as a delayed task does).
	bool alone = true;
	for (const SchedEntity* e = curr; e; e = e->parent)
		alone = alone && (e->parent ? e->parent->my_q->nr_queued : cfs.nr_queued) == 1;
	if (alone && cfs.need_resched && !pc.resched_waiting)
		fail(sim, t, "resched", "a tick asked for a resched with one task queued");
	// On each level of curr's path (one without groups) that has others
	// queued, an unprotected curr is asked to reschedule.
	if (sim.config().preset->paths.protect != KernelPaths::Protect::Vprot || cfs.need_resched)
		return;
	size_t level = 0;
	for (const SchedEntity* e = curr; e; e = e->parent, level++) {
		const CfsRq& q = e->parent ? *e->parent->my_q : cfs;
		const bool charged = !(pc.path[level] == e && pc.path_sum[level] == e->sum_exec_runtime);
		// entity_tick() reweights a group's entity after update_curr()
		// decided (update_cfs_group()), and the reweight may move or (6.18.0,
		// vprot in vlag's storage) overwrite the protection it read.
		const bool reweighted = pc.path[level] == e && pc.path_weight[level] != e->load.weight;
		if (charged && !reweighted && q.nr_queued > 1 && q.curr == e && !q.protect_slice(e))
			fail(sim, t, "resched", "an unprotected curr (" + id_of(e) + ") was not asked to reschedule at a tick");
	}
}

void InvariantChecker::remember_curr_path(const Simulation& sim, u32 cpu)
{
	PerCpu& pc = cpu_[cpu];
	const SchedEntity* c = sim.cfs_rq(cpu).curr_task();
	size_t level = 0;
	for (const SchedEntity* e = c; e && level < pc.path.size(); e = e->parent, level++) {
		pc.path[level] = e;
		pc.path_sum[level] = e->sum_exec_runtime;
		pc.path_weight[level] = e->load.weight;
	}
	for (; level < pc.path.size(); level++)
		pc.path[level] = nullptr;
}

void InvariantChecker::on_block(const Simulation& sim, u64 t, int task, bool delayed, bool)
{
	ensure(sim);
	const Task& p = sim.tasks()[static_cast<size_t>(task)];
	if (delayed && task_cfs_rq(sim, p).entity_eligible(&p.se))
		fail(sim, t, "delayed", "task " + std::to_string(task) + " was delayed while eligible");
}

void InvariantChecker::on_wakeup(const Simulation& sim, u64 t, int task, int, bool new_task)
{
	ensure(sim);
	Track& tr = track_[static_cast<size_t>(task)];
	const SchedEntity& se = sim.tasks()[static_cast<size_t>(task)].se;
	const CfsRq& cfs = task_cfs_rq(sim, sim.tasks()[static_cast<size_t>(task)]);
	const Config& c = sim.config();
	// Placement keeps the saved lag: V - v == vlag within the rounding of
	// the inflation and of the floored V (|error| <= 2). Only for a full
	// wakeup onto a queue with others: an empty queue forfeits the lag, and
	// a delayed task is requeued in place.
	const bool placed = !new_task && !tr.queued && tr.has_saved_vlag;
	// TTWU_QUEUE_DELAYED (the unmerged series): a woken delayed task is
	// dequeued and placed afresh within this event, so its stay on the
	// queue is not continuous, though the checker saw it queued before and
	// after.
	if (tr.queued && c.features[Feature::TTWU_QUEUE_DELAYED])
		tr.requeued = true;
	// requeue_delayed_entity() may re-place it (DELAY_ZERO with positive lag).
	tr.woken_queued = tr.queued;
	// 7.x requeue_delayed_entity(): a woken delayed task whose lag fell
	// below its lag at the delay is re-placed at V - (that lag), which
	// moves its vruntime back.
	if (tr.queued && c.preset->paths.delayed_lag_floor)
		tr.requeued = true;
	if (placed && c.features[Feature::PLACE_LAG] && cfs.nr_queued > 1) {
		const s64 got = wrapped_diff(cfs.avg_vruntime(), se.vruntime);
		const s64 err = got - tr.saved_vlag;
		if (err > 2 || err < -2)
			fail(sim, t, "placement", "task " + std::to_string(task) + " woke with lag " + snum(got) +
							  ", saved " + snum(tr.saved_vlag));
	}
}

void InvariantChecker::on_reweight(const Simulation& sim, u64 t, int task, s64 vlag, u64 old_weight)
{
	ensure(sim);
	const CfsRq& cfs = task_cfs_rq(sim, sim.tasks()[static_cast<size_t>(task)]);
	const SchedEntity& se = sim.tasks()[static_cast<size_t>(task)].se;
	// lag_i = w_i (V - v_i) is what a nice change keeps: the saved vlag is
	// rescaled by w_old / w_new (truncating), then placed like a wakeup. An
	// empty queue, or PLACE_LAG off, forfeits it.
	if (!sim.config().features[Feature::PLACE_LAG] || cfs.nr_queued < 2 || se.load.weight == old_weight)
		return;
	const s64 expect = static_cast<s64>(static_cast<s128>(vlag) * static_cast<s128>(old_weight) /
					    static_cast<s128>(se.load.weight));
	const s64 got = wrapped_diff(cfs.avg_vruntime(), se.vruntime);
	if (got - expect > 2 || expect - got > 2)
		fail(sim, t, "reweight", "task " + std::to_string(task) + " has lag " + std::to_string(got) +
						 " after its nice change, expected vlag * w_old / w_new = " + std::to_string(expect));
}

// A group entity reweighted while queued (reweight_entity() after a
// cpu.weight write). With x' = x w / w' (truncated) and the values
// update_curr() left just before:
//   7.x and 6.7 .. 6.12 (reweight_eevdf()): v' = V - vl', d' = V + (d - V)':
//        V' = V, since Σ w_j (V - v_j) = 0 still holds with the entity's
//        w' (V - v') = w (V - v);
//   6.13 .. 6.18.44: v' placed with vl' (lag inflation), d' = v' + (d - v)'.
// The saved lag is clamped: on 7.x v' follows from the clamped lag exactly;
// on 6.18 a clamped lag is not held, nor is a running entity's, whose
// placement counts itself in V and W (the defect 101f3498b4bd reverted).
// Integer slack: V is floored (V = V_true - e, 0 <= e < 1), so the saved
// lag is short by e, and vl' truncates (remainder r, |r| < 1); then
//   V'_true = V_true + (w - w') e / W' + w' r / W',
// a shift of up to |w - w'| / W' + 1 ns, plus V''s own floor: a big group
// entity cut down moves V by several ns, in the kernel as here.
void InvariantChecker::on_group_reweight(const Simulation& sim, u64 t, u32 cpu, size_t group)
{
	ensure(sim);
	const SchedEntity& se = sim.groups()[group].se[cpu];
	const CfsRq& cfs = se.parent ? *se.parent->my_q : sim.cfs_rq(cpu);
	const CfsRq::QueuedReweightSeen& was = cfs.last_queued_reweight;
	// The reweight's update_curr() charged that level's curr up to now: a
	// tick at this instant accounts nothing there, and decides nothing.
	remember_curr_path(sim, cpu);
	const s64 w_old = static_cast<s64>(was.old_weight), w_new = static_cast<s64>(se.load.weight);
	auto scaled = [&](s64 x) { return static_cast<s64>(static_cast<s128>(x) * w_old / w_new); };
	auto near = [](s64 a, s64 b) { return a - b <= 2 && b - a <= 2; };
	const s64 W = static_cast<s64>(cfs.load);
	const s64 slack = 2 + ((w_old > w_new ? w_old - w_new : w_new - w_old) + W - 1) / (W ? W : 1);
	auto near_V = [&](s64 a, s64 b) { return a - b <= slack && b - a <= slack; };
	const std::string who = "group " + sim.groups()[group].path + " on CPU " + std::to_string(cpu);
	const s64 lag = wrapped_diff(was.avg_vruntime, was.vruntime);
	const bool clamped = lag >= static_cast<s64>(was.lag_limit) || -lag >= static_cast<s64>(was.lag_limit);
	const u64 V = cfs.avg_vruntime();
	if (sim.config().preset->paths.queued_reweight == KernelPaths::QueuedReweight::KeepVruntime) {
		// 6.6.0: v is kept, d - v rescaled exactly (div_s64 truncates as
		// the s128 quotient does); V moves with the weight.
		if (se.vruntime != was.vruntime)
			fail(sim, t, "reweight", who + ": v moved by " + snum(wrapped_diff(se.vruntime, was.vruntime)) +
							" under the reweight (6.6 keeps it)");
		const s64 d_expect = scaled(wrapped_diff(was.deadline, was.vruntime));
		if (wrapped_diff(se.deadline, se.vruntime) != d_expect)
			fail(sim, t, "reweight", who + ": d - v is " + snum(wrapped_diff(se.deadline, se.vruntime)) +
							", expected (d - v) w / w' = " + snum(d_expect));
		return;
	}
	const auto form = sim.config().preset->paths.queued_reweight;
	if (form == KernelPaths::QueuedReweight::PreserveV || form == KernelPaths::QueuedReweight::ReweightEevdf) {
		const char* const release = form == KernelPaths::QueuedReweight::PreserveV ? "7.x" : "6.12";
		// V' = V when the sums weigh w itself (7.x). 6.12's weigh
		// a(w) = scale_load_down(w), max(2, w >> 10), not w / 1024 (a
		// MIN_SHARES entity of weight 2 counts as 2048): the entity's term
		// a(w) x becomes a(w') x', x = V - v and x' = x w / w', so V moves
		// by (a(w) x - a(w') x') / A', A' the sums' new weight. V itself
		// is floor(S / A): taken about V, S = r in [0, A - 1], so V' - V =
		// floor((r + term) / A'), within (A - 1) / A' + 1 of term / A'.
		s64 dV = 0, v_slack = slack;
		if (!sim.config().preset->paths.avg_full_weight) {
			const s128 a_old = static_cast<s128>(scale_load_down(was.old_weight));
			const s128 a_new = static_cast<s128>(scale_load_down(se.load.weight));
			const s128 A_new = static_cast<s128>(cfs.avg_load) +
					   (cfs.curr && cfs.curr->on_rq ? static_cast<s128>(scale_load_down(cfs.curr->load.weight)) : 0);
			const s128 A_old = A_new - a_new + a_old;
			const s128 term = a_old * lag - a_new * scaled(lag);
			if (A_new > 0) {
				dV = static_cast<s64>(term / A_new);
				v_slack = static_cast<s64>(2 + (A_old - 1 + A_new - 1) / A_new);
			}
		}
		auto near_dV = [&](s64 a) { return a - dV <= v_slack && dV - a <= v_slack; };
		if (!clamped && !near_dV(wrapped_diff(V, was.avg_vruntime)))
			fail(sim, t, "reweight", who + ": V moved by " + snum(wrapped_diff(V, was.avg_vruntime)) +
							" under the reweight, expected " + snum(dV) + " (" + release +
							" keeps V up to its sums' weights)");
		const s64 d_expect = scaled(wrapped_diff(was.deadline, was.avg_vruntime));
		if (!near(wrapped_diff(se.deadline, was.avg_vruntime), d_expect))
			fail(sim, t, "reweight", who + ": d - V is " + snum(wrapped_diff(se.deadline, was.avg_vruntime)) +
							", expected (d - V) w / w' = " + snum(d_expect));
		// v' = V - vl w / w' exactly, vl the lag clamped by entity_lag();
		// 7.x and 6.12 never consult PLACE_LAG here, and a clamp is no
		// exception (6.12 skips the lag at v == V, where vl is 0 anyway).
		const s64 limit = static_cast<s64>(was.lag_limit);
		const s64 vl = lag < -limit ? -limit : (lag > limit ? limit : lag);
		if (wrapped_diff(was.avg_vruntime, se.vruntime) != scaled(vl))
			fail(sim, t, "reweight", who + ": V - v' is " + snum(wrapped_diff(was.avg_vruntime, se.vruntime)) +
							", expected the clamped lag w / w' = " + snum(scaled(vl)));
		return;
	} else {
		const s64 d_expect = scaled(wrapped_diff(was.deadline, was.vruntime));
		if (!near(wrapped_diff(se.deadline, se.vruntime), d_expect))
			fail(sim, t, "reweight", who + ": d - v is " + snum(wrapped_diff(se.deadline, se.vruntime)) +
							", expected (d - v) w / w' = " + snum(d_expect));
		if (was.was_curr)
			return;
	}
	if (!clamped && sim.config().features[Feature::PLACE_LAG] && !near_V(wrapped_diff(V, se.vruntime), scaled(lag)))
		fail(sim, t, "reweight", who + ": lag " + snum(wrapped_diff(V, se.vruntime)) +
						" after the reweight, expected (V - v) w / w' = " + snum(scaled(lag)));
}

void InvariantChecker::on_event(const Simulation& sim, u64 t)
{
	ensure(sim);
	events_++;
	// Time: an event happens at the simulation's now, and now never goes
	// back (a clock that wrapped past 2^64 would; inputs stop at 2^62 ns).
	if (t != sim.now() || t < last_t_)
		fail(sim, t, "clock", "an event at " + num(t) + " ns, the simulation at " + num(sim.now()) +
					      " ns, the previous event at " + num(last_t_) + " ns");
	last_t_ = t;
	bucket_by_cpu(sim);
	for (u32 cpu = 0; cpu < sim.nr_cpus(); cpu++) {
		if (!sim.groups().empty()) {
			rq_checks_++;
			check_group_rqs(sim, t, cpu);
			check_leaf_list(sim, t, cpu);
		} else if (!rq_unchanged(sim, cpu)) {
			rq_checks_++;
			const RqWalk w = walk_rq(sim, sim.cfs_rq(cpu), cpu);
			check_leaf_list(sim, t, cpu);
			check_sums(sim, t, cpu, w);
			check_tree(sim, t, sim.cfs_rq(cpu), w);
			check_v_and_pick(sim, t, sim.cfs_rq(cpu), w);
		}
		check_time(sim, t, cpu);
	}
	check_tasks(sim, t);
	// update_tg_load_avg() moves tg->load_avg by exactly what it moves a
	// cfs_rq's contribution: the sum holds, whatever the rate limit skips.
	for (const TaskGroup& tg : sim.groups()) {
		s64 sum = 0;
		for (u32 cpu = 0; cpu < sim.nr_cpus(); cpu++)
			sum += tg.cfs_rq[cpu].tg_load_avg_contrib;
		if (sum != tg.load_avg)
			fail(sim, t, "tg-load", "group " + tg.path + ": tg->load_avg " + std::to_string(tg.load_avg) +
							", its cfs_rqs contribute " + std::to_string(sum));
	}
	const u64 queued = queued_start_[sim.nr_cpus()] + queued_elsewhere_;
	u64 on_rqs = 0;
	for (u32 cpu = 0; cpu < sim.nr_cpus(); cpu++) {
		on_rqs += sim.cfs_rq(cpu).h_nr_queued;
		const SchedEntity* c = sim.cfs_rq(cpu).curr_task();
		if (!sim.tick_running(cpu))
			cpu_[cpu].tick_continuous = false;
		if (c && c->id != cpu_[cpu].last_curr) {
			cpu_[cpu].curr_pick_weight = c->load.weight;
			cpu_[cpu].curr_changed = false;
		}
		// 6.17+: set_protect_slice() caps vprot at the deadline, a renewal
		// only moves d on, and update_protect_slice() only lowers vprot.
		// Changing curr breaks it: sched_change() re-places curr and puts it
		// back with set_next_entity(first = false), which keeps vprot as it
		// was, so a shorter new slice (or v moved back) leaves vprot past the
		// new deadline; reweight_entity() rescales vprot only while curr is
		// protected (6.18.y, 7.x), and on 6.18.0 vprot shares vlag's
		// storage, which it overwrites. Checked until curr is changed.
		if (c && c->on_rq && sim.config().preset->paths.protect == KernelPaths::Protect::Vprot &&
		    c->load.weight == cpu_[cpu].curr_pick_weight && !cpu_[cpu].curr_changed &&
		    wrapped_diff(sim.cfs_rq(cpu).protect_end(c), c->deadline) > 0)
			fail(sim, t, "request", "curr (task " + num(static_cast<u64>(c->id)) + ") is protected to " +
							num(sim.cfs_rq(cpu).protect_end(c)) + ", past its deadline " + num(c->deadline));
		cpu_[cpu].last_curr = c ? c->id : -1;
		remember_curr_path(sim, cpu);
		cpu_[cpu].resched_waiting = sim.cfs_rq(cpu).need_resched;
	}
	if (queued != on_rqs)
		fail(sim, t, "smp", num(queued) + " tasks are queued, the rqs hold " + num(on_rqs));
	// The event loop keeps each CPU's next event and recomputes it only
	// where an event touched the CPU: a change it missed would skip or delay
	// an event.
	const std::string stale = sim.stale_next_event();
	if (!stale.empty())
		fail(sim, t, "events", stale);
}

void InvariantChecker::on_attr(const Simulation& sim, u64, int task)
{
	ensure(sim);
	track_[static_cast<size_t>(task)].requeued = true;
	track_[static_cast<size_t>(task)].attr_changed = true;
	const u32 cpu = sim.tasks()[static_cast<size_t>(task)].cpu;
	if (sim.cfs_rq(cpu).curr_task() && sim.cfs_rq(cpu).curr_task()->id == task)
		cpu_[cpu].curr_changed = true;
}

void InvariantChecker::on_yield(const Simulation& sim, u64, int task)
{
	ensure(sim);
	track_[static_cast<size_t>(task)].yielded = true;
}

void InvariantChecker::on_migrate(const Simulation& sim, u64, int task, u32, u32)
{
	ensure(sim);
	Track& tr = track_[static_cast<size_t>(task)];
	const SchedEntity& se = sim.tasks()[static_cast<size_t>(task)].se;
	tr.moved = true;
	// A queued task is moved with the lag and relative deadline its
	// dequeue just saved (a woken one is placed like any wake-up).
	if (tr.queued) {
		tr.migrated_queued = true;
		tr.saved_vlag = se.vlag;
		if (se.rel_deadline)
			tr.rel_deadline = static_cast<s64>(se.deadline);
	}
}

// A queued task the balancer (or an affinity change) moved kept its lag
// and, with PLACE_REL_DEADLINE, its relative deadline exactly: both were
// saved at the dequeue and placed on the new CPU. Checked at the attach:
// the V that places it is the one that includes it.
void InvariantChecker::on_attach(const Simulation& sim, u64 t, int task)
{
	ensure(sim);
	Track& tr = track_[static_cast<size_t>(task)];
	if (!tr.migrated_queued)
		return;
	tr.migrated_queued = false;
	const auto& p = sim.tasks()[static_cast<size_t>(task)];
	const SchedEntity& se = p.se;
	const Config& c = sim.config();
	auto who = [task] { return "task " + std::to_string(task); };
	// On the cfs_rq it joined: its group's on the new CPU, or the root.
	const CfsRq& q = se.parent ? *se.parent->my_q : sim.cfs_rq(p.cpu);
	const s64 lag = wrapped_diff(q.avg_vruntime(), se.vruntime);
	if (c.features[Feature::PLACE_LAG] && q.nr_queued > 1 &&
	    (lag - tr.saved_vlag > 2 || tr.saved_vlag - lag > 2))
		fail(sim, t, "migration", who() + " moved to CPU " + num(p.cpu) + " with lag " + snum(lag) +
						  ", it left with " + snum(tr.saved_vlag));
	if (c.features[Feature::PLACE_REL_DEADLINE] && wrapped_diff(se.deadline, se.vruntime) != tr.rel_deadline)
		fail(sim, t, "migration", who() + " moved with d - v = " + snum(wrapped_diff(se.deadline, se.vruntime)) +
						  ", it left with " + snum(tr.rel_deadline));
}

}  // namespace eevdf
