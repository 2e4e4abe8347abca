// SPDX-License-Identifier: GPL-2.0-only
#include "props/proved_statements.hpp"

#include <rapidcheck.h>

#include "model/cfs_rq_state.hpp"
#include "model/pick_by_definition.hpp"
#include "model/proved_bounds.hpp"
#include "model/simulation.hpp"
#include "model/weights.hpp"
#include "model/workload.hpp"
#include "props/harness.hpp"
#include "props/workload_dsl.hpp"

namespace eevdf::props::proved {

using namespace eevdf::test;

// The no-overflow precondition: every |k_i| * W < 2^63 (then Σ k_i w_i
// cannot wrap either, and eligibility is the exact test).
bool no_overflow(const CfsRq& rq, const std::vector<const SchedEntity*>& q)
{
	s128 W = 0, kmax = 0;
	for (const SchedEntity* se : q) {
		W += rq.avg_weight(se);
		const s128 k = rq.entity_key(se);
		kmax = std::max(kmax, k < 0 ? -k : k);
	}
	return kmax * W < (static_cast<s128>(1) << 63);
}

std::vector<const SchedEntity*> queued(const CfsRqState& st)
{
	std::vector<const SchedEntity*> q;
	for (size_t i = 0; i < st.tree_size(); i++)
		q.push_back(st.tree_entity(i));
	if (st.curr() && st.curr()->on_rq)
		q.push_back(st.curr());
	return q;
}

namespace {

// Runs a request statement's simulation under the invariant checker. A
// violation there fails the property before its own conclusion is tested;
// its message starts with INVARIANT_FAILURE, so that a report (the bug zoo)
// can tell the two apart.
void run_valid(const Config& cfg, const Workload& wl, std::vector<Observer*> observers)
{
	const std::string why = props::run_checked(cfg, wl, std::move(observers));
	if (!why.empty())
		RC_FAIL(std::string(INVARIANT_FAILURE) + why);
}

// Keys (v - v0) from a region: a schedule's (|k| < 2^20), far (2^40), the
// edge of overflow for 8 nice -20 entities (2^46) and anything (the whole
// s64 range, mostly overflowing).
s64 key_in(int region)
{
	static const u64 mag[] = {1ULL << 20, 1ULL << 40, 1ULL << 46, 1ULL << 62};
	const u64 m = mag[region];
	return static_cast<s64>(*rc::gen::inRange<u64>(0, 2 * m)) - static_cast<s64>(m);
}



const KernelPreset& deadline_tree_preset()
{
	static const char* names[] = {"6.12", "6.15", "6.18", "6.18.39", "7.1.5"};
	return *find_preset(*rc::gen::element(names[0], names[1], names[2], names[3], names[4]));
}

int any_nice(bool nice0) { return nice0 ? 0 : *rc::gen::inRange(-20, 20); }

// A queue of 1-8 entities (tree and curr), keys from one region, deadlines
// within +-2^61 of the first (ties on purpose).
struct Drawn {
	Config cfg;
	u64 v0 = 0;
	std::vector<EntitySpec> tree;
	bool has_curr = false, curr_on_rq = false;
	EntitySpec curr;
};

Drawn draw_queue(int max_n, bool nice0, Bugs bugs)
{
	Drawn d;
	d.cfg = make_config(deadline_tree_preset(), 250, 1, bugs);
	d.cfg.exact_tree_augments = true;
	d.v0 = *rc::gen::arbitrary<u64>();
	const int region = *rc::gen::inRange(0, 4);
	const int n = *rc::gen::inRange(1, max_n + 1);
	d.has_curr = *rc::gen::inRange(0, 3) != 0;
	d.curr_on_rq = d.has_curr && *rc::gen::inRange(0, 4) != 0;
	const int ntree = d.has_curr && d.curr_on_rq ? n - 1 : n;
	const u64 d0 = d.v0 + static_cast<u64>(key_in(region));
	auto ent = [&]() {
		EntitySpec e;
		e.nice = any_nice(nice0);
		e.vruntime = d.v0 + static_cast<u64>(key_in(region));
		e.deadline = *rc::gen::inRange(0, 5) == 0 && !d.tree.empty()
				     ? d.tree.back().deadline
				     : d0 + static_cast<u64>(static_cast<s64>(*rc::gen::inRange<u64>(0, 1ULL << 62)) - (1LL << 61));
		e.slice = d.cfg.base_slice_ns;
		return e;
	};
	for (int i = 0; i < ntree; i++)
		d.tree.push_back(ent());
	if (d.has_curr) {
		d.curr = ent();
		d.curr.vprot = d.curr.vruntime + static_cast<u64>(key_in(0));
	}
	return d;
}

// The 6.18 presets, whose update_curr asks for the resched at a renewal or
// when protection is over (the proofs' rule), with PREEMPT_NONE.
const KernelPreset& preset_618()
{
	return *find_preset(*rc::gen::element("6.18", "6.18.2", "6.18.5", "6.18.17", "6.18.33", "6.18.39"));
}

// Every request of a nice-0 task on one CPU, among equal slices: from its
// pick (or, picked alone, from the enqueue that gave it company) to the
// next __schedule(). The statements bound that time; ticks counts the ticks
// in between, and `on_tick_pick` whether the pick was at a tick.
struct Requests : Observer {
	u32 cpu = 0;  // the CPU whose requests are measured
	struct Req {
		u64 start = 0, end = 0;
		unsigned ticks = 0;
		bool on_tick_pick = false;
	};
	std::vector<Req> done;
	bool open = false, alone = false;
	Req cur;
	u64 last_tick = ~0ULL;
	void on_tick(const Simulation& sim, u64 t, bool hrtick) override
	{
		if (hrtick || sim.event_cpu() != cpu)
			return;
		last_tick = t;
		if (open)
			cur.ticks++;
	}
	void on_schedule(const Simulation& sim, u64 t, int, int next) override
	{
		if (sim.event_cpu() != cpu)
			return;
		if (open && !alone) {
			cur.end = t;
			done.push_back(cur);
		}
		open = next != IDLE;
		alone = sim.cfs_rq(cpu).nr_queued < 2;
		cur = Req{t, 0, 0, last_tick == t};
	}
	void on_wakeup(const Simulation& sim, u64 t, int task, int, bool) override
	{
		if (sim.tasks()[static_cast<size_t>(task)].cpu != cpu)
			return;
		if (open && alone && sim.cfs_rq(cpu).nr_queued >= 2) {  // company arrives: the bound runs from here
			alone = false;
			cur = Req{t, 0, 0, false};
		}
	}
};

}  // namespace

// pick_spec, and item 4 of issue 20: the statement is proved for 2-3
// nice-0 entities; the model is held to it here for 1-8 entities at any
// nice level, on every deadline-keyed preset.
Testable pick_spec(Bugs bugs)
{
	return [bugs] {
		const Drawn d = draw_queue(8, *rc::gen::arbitrary<bool>(), bugs);
		CfsRqState st(d.cfg, d.v0, 0, d.tree);
		if (d.has_curr)
			st.set_curr(d.curr, d.curr_on_rq);
		const CfsRq& rq = st.rq();
		const std::vector<const SchedEntity*> q = queued(st);
		bool any = false;
		for (const SchedEntity* se : q)
			any = any || rq.entity_eligible(se);
		if (!no_overflow(rq, q)) {
			RC_TAG("outside the precondition (key * W overflows)");
			return;
		}
		RC_TAG(q.size() <= 3 ? "2-3 entities (the proved range)" : "4-8 entities");
		RC_ASSERT(any);  // eligible_exists_int
		const SchedEntity* p0 = rq.pick_eevdf_protect(false);
		RC_ASSERT(p0 != nullptr);
		RC_ASSERT(rq.entity_eligible(p0));
		for (const SchedEntity* se : q)
			if (rq.entity_eligible(se))
				RC_ASSERT(wrapped_diff(se->deadline, p0->deadline) >= 0);
		RC_ASSERT(rq.pick_eevdf_protect(true) != nullptr);
		if (const std::string pick = tree_pick_difference(rq); !pick.empty())
			RC_FAIL(pick);
	};
}

// eligible_exists_int and lag_sum_rounding_int: any keys, any weights of the
// nice table, 1-8 entities, no overflow.
Testable eligible_exists_and_lag_sum(Bugs bugs)
{
	return [bugs] {
		const Drawn d = draw_queue(8, false, bugs);
		CfsRqState st(d.cfg, d.v0, 0, d.tree);
		if (d.has_curr)
			st.set_curr(d.curr, d.curr_on_rq);
		const CfsRq& rq = st.rq();
		const std::vector<const SchedEntity*> q = queued(st);
		if (!no_overflow(rq, q)) {
			RC_TAG("outside the precondition (key * W overflows)");
			return;
		}
		bool any = false;
		s128 W = 0, L = 0;
		const u64 V = rq.avg_vruntime();
		for (const SchedEntity* se : q) {
			any = any || rq.entity_eligible(se);
			W += rq.avg_weight(se);
			L += static_cast<s128>(rq.avg_weight(se)) * wrapped_diff(V, se->vruntime);
		}
		RC_ASSERT(any);
		RC_ASSERT(-W < L);
		RC_ASSERT(L <= 0);
	};
}

// wakeup_short_preempts (6.18 defaults: PREEMPT_SHORT, RUN_TO_PARITY,
// WAKEUP_PREEMPTION): the waker P, just enqueued, next to curr and two
// other entities, nice 0, any slices and clock.
Testable wakeup_short_preempts(Bugs bugs)
{
	return [bugs] {
		Config cfg = make_config(*find_preset(*rc::gen::element("6.18", "6.18.39")), 250, 1, bugs);
		cfg.exact_tree_augments = true;
		const u64 v0 = *rc::gen::arbitrary<u64>();
		const int region = *rc::gen::inRange(0, 4);
		auto ent = [&](u64 d0) {
			EntitySpec e;
			e.vruntime = v0 + static_cast<u64>(key_in(region));
			e.deadline = *rc::gen::inRange(0, 4) == 0 ? d0 : e.vruntime + *rc::gen::inRange<u64>(1, 1ULL << 24);
			e.custom_slice = *rc::gen::arbitrary<bool>();
			e.slice = e.custom_slice ? *rc::gen::inRange<u64>(100000, 100000001) : cfg.base_slice_ns;
			return e;
		};
		EntitySpec c = ent(0);
		c.exec_start = *rc::gen::inRange<u64>(0, 1ULL << 40);
		// Half the time protected well past the wakeup's update_curr (up to
		// 20 ms of running), so that a protected curr is drawn too.
		c.vprot = c.vruntime + (*rc::gen::arbitrary<bool>() ? static_cast<u64>(key_in(0)) : *rc::gen::inRange<u64>(0, 1ULL << 25));
		const EntitySpec b0 = ent(c.deadline), b1 = ent(c.deadline), p = ent(c.deadline);
		const u64 clock = c.exec_start + *rc::gen::inRange<u64>(0, 20000000);
		CfsRqState st(cfg, v0, clock, {b0, b1, p});
		SchedEntity* curr = st.set_curr(c, true);
		SchedEntity* P = st.tree_entity(2);
		CfsRq& rq = st.rq();
		rq.update_curr();  // the wakeup's own update_curr: the state its pick sees
		rq.need_resched = false;
		std::vector<const SchedEntity*> q = queued(st);
		bool deadlines_close = true;
		for (const SchedEntity* se : q)
			deadlines_close = deadlines_close && std::abs(wrapped_diff(se->deadline, curr->deadline)) <= (1LL << 61);
		if (!no_overflow(rq, q) || !deadlines_close) {
			RC_TAG("outside the precondition");
			return;
		}
		const bool shorter = P->slice < curr->slice;
		bool cond = shorter && rq.entity_eligible(P);
		for (size_t i = 0; i < 2; i++)
			if (rq.entity_eligible(st.tree_entity(i)))
				cond = cond && wrapped_diff(P->deadline, st.tree_entity(i)->deadline) < 0;
		if (rq.entity_eligible(curr))
			cond = cond && wrapped_diff(curr->deadline, P->deadline) >= 0;
		const SchedEntity* wake_pick = rq.pick_eevdf_protect(!shorter);
		rq.check_preempt_wakeup_fair(P, WF_TTWU);
		RC_TAG(cond ? "Cond holds" : "Cond fails");
		if (cond) {
			RC_ASSERT(rq.need_resched);
			RC_ASSERT(rq.pick_eevdf() == P);  // __schedule() at the same clock
		}
		if (shorter && wake_pick == P)
			RC_ASSERT(cond);
	};
}

// repick_equal_weights_int: equal weights (any common nice), n = 2-6, curr
// just renewed at a tick (v_c >= d_old, d_c = v_c + vslice, protection over),
// the others 0 < d_j - v_j <= vslice, one of them not ahead of curr.
Testable repick_equal_weights(Bugs bugs)
{
	return [bugs] {
		Config cfg = make_config(deadline_tree_preset(), 250, 1, bugs);
		cfg.base_slice_ns = *rc::gen::inRange<u64>(100000, 100000001);
		const int nice = *rc::gen::inRange(-20, 20), n = *rc::gen::inRange(2, 7);
		const u64 v0 = *rc::gen::arbitrary<u64>();
		const int region = *rc::gen::inRange(0, 4);
		LoadWeight lw = task_load_weight(nice);
		const u64 vs = calc_delta_fair(cfg.base_slice_ns, lw, cfg.preset->paths.calc_delta_divides);
		EntitySpec c;
		c.nice = nice;
		c.vruntime = v0 + static_cast<u64>(key_in(region));
		c.deadline = c.vruntime + vs;
		c.vprot = c.vruntime - *rc::gen::inRange<u64>(0, 1ULL << 20);  // vprot <= d_old <= v_c
		c.slice = cfg.base_slice_ns;
		std::vector<EntitySpec> tree;
		for (int j = 1; j < n; j++) {
			EntitySpec e;
			e.nice = nice;
			e.vruntime = j == 1 ? c.vruntime - *rc::gen::inRange<u64>(0, 1ULL << 24) : v0 + static_cast<u64>(key_in(region));
			e.deadline = e.vruntime + *rc::gen::inRange<u64>(1, vs + 1);
			e.slice = cfg.base_slice_ns;
			tree.push_back(e);
		}
		CfsRqState st(cfg, v0, 0, tree);
		SchedEntity* curr = st.set_curr(c, true);
		if (!no_overflow(st.rq(), queued(st))) {
			RC_TAG("outside the precondition");
			return;
		}
		RC_ASSERT(st.rq().pick_eevdf() != curr);
	};
}

// wakeup_waker_picked: n = 3-5 entities, any weights (the nice table), with
// or without PREEMPT_SHORT: a waker P that after the wakeup's update_curr is
// eligible with a deadline earlier than every other queued entity's (curr
// included) is the pick of the next resched, whether the wakeup requests it
// or a later tick does (nothing else happens in between).
Testable wakeup_waker_picked(Bugs bugs)
{
	return [bugs] {
		Config cfg = make_config(*find_preset(*rc::gen::element("6.18", "6.18.39", "7.1.5")), 1000, 1, bugs);
		cfg.exact_tree_augments = true;
		cfg.features.set(Feature::PREEMPT_SHORT, *rc::gen::arbitrary<bool>());
		cfg.features.set(Feature::RUN_TO_PARITY, *rc::gen::arbitrary<bool>());
		const u64 v0 = *rc::gen::arbitrary<u64>();
		const int n = *rc::gen::inRange(3, 6);
		const int region = *rc::gen::inRange(0, 3);
		auto ent = [&]() {
			EntitySpec e;
			e.nice = *rc::gen::inRange(-20, 20);
			e.vruntime = v0 + static_cast<u64>(key_in(region));
			e.deadline = e.vruntime + *rc::gen::inRange<u64>(1, 1ULL << 26);
			e.custom_slice = *rc::gen::arbitrary<bool>();
			e.slice = e.custom_slice ? *rc::gen::inRange<u64>(100000, 100000001) : cfg.base_slice_ns;
			return e;
		};
		EntitySpec c = ent();
		c.exec_start = *rc::gen::inRange<u64>(0, 1ULL << 40);
		c.vprot = c.vruntime + *rc::gen::inRange<u64>(0, c.deadline - c.vruntime + 1);  // vprot <= d (the checker's `request`)
		std::vector<EntitySpec> tree;
		for (int i = 1; i < n; i++)
			tree.push_back(ent());
		CfsRqState st(cfg, v0, c.exec_start + *rc::gen::inRange<u64>(0, 5000000), tree);
		st.set_curr(c, true);
		SchedEntity* P = st.tree_entity(st.tree_size() - 1);
		CfsRq& rq = st.rq();
		rq.update_curr();
		rq.need_resched = false;
		const std::vector<const SchedEntity*> q = queued(st);
		if (!no_overflow(rq, q)) {
			RC_TAG("outside the precondition");
			return;
		}
		bool earliest = rq.entity_eligible(P);
		for (const SchedEntity* se : q)
			if (se != P)
				earliest = earliest && wrapped_diff(P->deadline, se->deadline) < 0;
		RC_PRE(earliest);
		rq.check_preempt_wakeup_fair(P, WF_TTWU);
		RC_TAG(rq.need_resched ? "the wakeup preempts" : "a later tick reschedules");
		for (int tick = 0; !rq.need_resched; tick++) {
			RC_ASSERT(tick < 1000000);  // protection and the request end within a bounded virtual time
			rq.clock_task += cfg.tick_ns;
			rq.entity_tick(false);
		}
		RC_ASSERT(rq.pick_eevdf() == P);
	};
}

// run_length (and run_length_eps, hz1000_3ms), wakeup_wait_bound and
// nohz_enqueue_bound: a nice-0 curr among entities with equal slices asks
// for the resched at most r + TICK + J - 1 after its pick (after the enqueue
// that ends a NO_HZ_FULL stretch alone), whatever wakes meanwhile; and
// no_extra_tick_2p8ms: at HZ=1000, r <= 2.8 ms and J <= 0.2 ms, a request
// picked on a tick ends by the 3rd tick.
Testable request_bounds(Bugs bugs)
{
	return [bugs] {
		static const u32 hzs[] = {100, 250, 300, 1000};
		Config cfg = make_config(preset_618(), hzs[*rc::gen::inRange(0, 4)], 1, bugs);
		const bool short_slice = cfg.hz == 1000 && *rc::gen::arbitrary<bool>();
		cfg.base_slice_ns = short_slice ? *rc::gen::inRange<u64>(100000, 2800001) : *rc::gen::inRange<u64>(100000, 100000001);
		cfg.knobs.tick_jitter = *rc::gen::arbitrary<bool>()
						? 0
						: *rc::gen::inRange<u64>(0, short_slice ? 200001 : cfg.tick_ns);
		cfg.knobs.tick_phase = *rc::gen::inRange<u64>(0, cfg.tick_ns);
		cfg.features.set(Feature::PREEMPT_SHORT, false);  // wakeup_wait_bound's premise (equal slices make it moot)
		cfg.features.set(Feature::HRTICK, false);
		cfg.features.set(Feature::NO_HZ_FULL, *rc::gen::arbitrary<bool>());
		cfg.seed = *rc::gen::arbitrary<u64>();
		Workload wl = hogs_workload(*rc::gen::inRange(1, 6), NSEC_PER_SEC);
		const int sleepers = *rc::gen::inRange(0, 3);
		for (int i = 0; i < sleepers; i++) {
			TaskSpec t =
				task("sleeper" + std::to_string(i), {run(*rc::gen::inRange<u64>(10 * US, 3 * MS)),
								     sleep(*rc::gen::inRange<u64>(100 * US, 60 * MS))});
			t.delay = *rc::gen::inRange<u64>(0, 50 * MS);
			wl.tasks.push_back(t);
		}
		RC_PRE(wl.tasks.size() >= 2);  // (one hog alone: company comes from a sleeper, or never)
		Requests r;
		run_valid(cfg, wl, {&r});
		const u64 bound = request_bound(cfg.base_slice_ns, cfg.tick_ns, cfg.knobs.tick_jitter);
		for (const Requests::Req& q : r.done) {
			RC_ASSERT(q.end - q.start <= bound);
			if (short_slice && q.on_tick_pick)
				RC_ASSERT(q.ticks <= 3);
		}
		RC_TAG(short_slice ? "HZ=1000, r <= 2.8 ms, J <= 0.2 ms" : "any r, HZ, J");
		RC_TAG(r.done.size() > 100 ? "over 100 requests" : r.done.empty() ? "no request" : "1-100 requests");
		RC_TAG(cfg.features[Feature::NO_HZ_FULL] ? "NO_HZ_FULL" : "periodic tick");
	};
}

// hog_runs_whole_ticks: n = 2-8 nice-0 hogs forked together at t = 0, ticks
// exactly on the grid, HZ 100/250/300/1000, any r in [0.1, 100] ms: every
// run lasts exactly ceil(r / TICK) ticks, a task's first ceil((r / 2) / TICK).
Testable hog_runs_whole_ticks(Bugs bugs)
{
	return [bugs] {
		static const u32 hzs[] = {100, 250, 300, 1000};
		Config cfg = make_config(preset_618(), hzs[*rc::gen::inRange(0, 4)], 1, bugs);
		cfg.base_slice_ns = *rc::gen::inRange<u64>(100000, 100000001);
		cfg.features.set(Feature::HRTICK, false);
		const int n = *rc::gen::inRange(2, 9);
		props::SwitchLog log;
		run_valid(cfg, hogs_workload(n, 2 * NSEC_PER_SEC), {&log});
		const u64 T = cfg.tick_ns, r = cfg.base_slice_ns;
		const u64 k = hog_run_ticks(r, T, false), k0 = hog_run_ticks(r, T, true);
		std::vector<int> runs(static_cast<size_t>(n), 0);
		for (size_t i = 0; i + 1 < log.switches.size(); i++) {
			const int who = log.switches[i].second;
			const u64 len = log.switches[i + 1].first - log.switches[i].first;
			RC_ASSERT(len == (runs[static_cast<size_t>(who)]++ == 0 ? k0 : k) * T);
		}
	};
}

// Issue 14, item 3: where IPIs add to the per-CPU bound. On several CPUs
// the request bound of run_length holds on the CPU IPIs land on: nice-0
// hogs and a sleeper pinned to CPU 0, the sleeper woken from CPU 1 (a
// wakelist IPI with TTWU_QUEUE, or a remote enqueue and a resched IPI),
// any IPI latency and handler cost. A handler's time is charged to the task
// it interrupts (the kernel without IRQ_TIME_ACCOUNTING), so it counts
// toward that task's request and adds nothing to its length; a resched IPI
// can only end a request. Migrations do add (F11, property 12).
Testable smp_request_bounds(Bugs bugs)
{
	return [bugs] {
		static const u32 hzs[] = {100, 250, 300, 1000};
		Config cfg = make_config(preset_618(), hzs[*rc::gen::inRange(0, 4)], *rc::gen::inRange<u32>(2, 5), bugs);
		cfg.base_slice_ns = *rc::gen::inRange<u64>(100000, 30000001);
		cfg.knobs.tick_jitter = *rc::gen::arbitrary<bool>() ? 0 : *rc::gen::inRange<u64>(0, cfg.tick_ns);
		cfg.knobs.ipi_latency = *rc::gen::inRange<u64>(0, 50001);
		cfg.knobs.wakeup_irq_cost = *rc::gen::inRange<u64>(0, 20001);
		cfg.features.set(Feature::TTWU_QUEUE, *rc::gen::arbitrary<bool>());
		cfg.features.set(Feature::PREEMPT_SHORT, false);
		cfg.features.set(Feature::HRTICK, false);
		cfg.skew_tick = *rc::gen::arbitrary<bool>();
		cfg.seed = *rc::gen::arbitrary<u64>();
		Workload wl = hogs_workload(*rc::gen::inRange(1, 5), 500 * NSEC_PER_MSEC);
		for (TaskSpec& t : wl.tasks)
			t.cpus = {0};
		const int ref = wl.ref("wake");
		TaskSpec s = task("sleeper", {suspend(ref), run(*rc::gen::inRange<u64>(10 * US, 2 * MS))});
		s.cpus = {0};
		TaskSpec w = task("waker", {run(*rc::gen::inRange<u64>(10 * US, 1 * MS)), resume(ref),
					    sleep(*rc::gen::inRange<u64>(100 * US, 20 * MS))});
		w.cpus = {1};
		wl.tasks.push_back(s);
		wl.tasks.push_back(w);
		Requests r;
		r.cpu = 0;
		run_valid(cfg, wl, {&r});
		const u64 bound = request_bound(cfg.base_slice_ns, cfg.tick_ns, cfg.knobs.tick_jitter);
		for (const Requests::Req& q : r.done)
			RC_ASSERT(q.end - q.start <= bound);
		RC_TAG(cfg.features[Feature::TTWU_QUEUE] ? "wakelist IPIs" : "remote enqueue + resched IPI");
	};
}

}  // namespace eevdf::props::proved
