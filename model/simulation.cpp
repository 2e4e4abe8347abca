// SPDX-License-Identifier: GPL-2.0-only
// Construction and the event loop over all CPUs.
//
// Scheduling points. The model's tasks run in user space, so a resched
// requested on a CPU by its tick, by a wakeup or by its task itself is acted
// on at once (return from interrupt or system call), or, under a profile
// with a resched_delay, a timer wake-up's resched of its own CPU that much
// later (defer_timer_resched()); a resched of another
// CPU is acted on when the IPI arrives there (Knobs::ipi_latency) or at
// that CPU's next tick or event, whichever is first. With PREEMPT_LAZY
// (Config::preempt) the fair class's requests of a busy remote CPU send no
// IPI: that CPU acts at its next event, its tick at the latest (which
// promotes the lazy request to a full one).
//
// Events at the same instant are handled in a fixed order: every CPU's
// running program (by CPU), then hrtick expiries, then periodic ticks, then
// IPI arrivals (each by CPU), then timed wakeups by task id, each followed
// by its scheduling point. On one CPU this is the one-CPU model's order.
#include "model/simulation.hpp"

#include <algorithm>

namespace eevdf {
namespace {

// More consecutive events than this at one instant means no time can pass.
constexpr u64 MAX_EVENTS_PER_INSTANT = 10'000'000;

// The Config's machine, or one CPU when that is no machine: the topology is
// built before validate_workload() can say what is wrong with the Config.
MachineShape buildable_shape(const Config& cfg)
{
	const MachineShape m = machine_shape_of(cfg);
	return shape_error(m).empty() ? m : MachineShape{};
}

}  // namespace

Simulation::Simulation(const Config& cfg, Workload wl)
	: Machine(cfg, buildable_shape(cfg)),
	  wl_(std::move(wl))
{
	validate_workload(cfg_, wl_);
	if (cfg_.autogroup)
		autogroups_ = autogroup_sessions(wl_);
	timer_delay_split_ = !(cfg_.profile.timer_delay_busy == cfg_.profile.timer_delay);
	const size_t n = wl_.tasks.size();
	rqs_.reserve(cfg_.cpus);
	for (u32 c = 0; c < cfg_.cpus; c++) {
		rqs_.emplace_back(cfg_, c);
		rqs_.back().wake_list.reserve(n);
	}
	// dequeue_entities()' epilogue for a delayed entity a pick dequeues:
	// hrtick_update() for the task running there (rq->donor).
	for (Rq& rq : rqs_) {
		rq.cfs.after_delayed_dequeue = [](void* a) {
			Rq* r = static_cast<Rq*>(a);
			r->owner->hrtick_update(r->cpu, r->cfs.curr_task());
		};
		rq.cfs.after_delayed_dequeue_arg = &rq;
		rq.cfs.became_sched_idle = [](void* a) {
			Rq* r = static_cast<Rq*>(a);
			r->next_balance = r->owner->jiffies();
		};
		rq.cfs.became_sched_idle_arg = &rq;
		rq.owner = this;
	}
	create_groups();
	tasks_.resize(n);
	timers_.assign(n * wl_.refs.size(), NEVER);
	futex_word_.assign(wl_.refs.size(), 0);
	futex_waiters_.assign(wl_.refs.size(), {});
	cond_waiters_.assign(wl_.refs.size(), {});
	barrier_waiters_.assign(wl_.refs.size(), {});
	lists_.assign(wl_.refs.size(), {});
	barrier_waiting_.assign(wl_.refs.size(), -1);
	for (const TaskSpec& ts : wl_.tasks)
		for (const Phase& p : ts.phases)
			for (const Event& e : p.events)
				if (e.kind == Event::Kind::ListPush || e.kind == Event::Kind::ListPost)
					lists_[static_cast<size_t>(e.ref)].reserve(n);
				else if (e.kind == Event::Kind::Barrier)
					barrier_waiting_[static_cast<size_t>(e.ref)]++;
	heap_.reserve(n);

	const CpuMask all = CpuMask::first_n(cfg_.cpus);
	for (size_t i = 0; i < n; i++) {
		Task& t = tasks_[i];
		t.spec = &wl_.tasks[i];
		t.nice = t.spec->nice;
		t.timer_base = i * wl_.refs.size();
		if (t.spec->cpus.empty()) {
			t.cpus_ptr = all;
		} else {
			for (u32 c : t.spec->cpus)
				if (c < cfg_.cpus)
					t.cpus_ptr.set(c);
		}
		t.nr_cpus_allowed = t.cpus_ptr.weight();
		// Forked by a parent on CPU 0 (the first allowed one if pinned
		// elsewhere); wake_up_new_task() chooses where it runs.
		t.cpu = t.cpus_ptr.test(0) ? 0 : t.cpus_ptr.first();
		t.timer_cpu = t.cpu;
		SchedEntity& se = t.se;
		se.id = static_cast<int>(i);
		se.idle_policy = t.spec->policy == Policy::Idle;
		se.normal_policy = t.spec->policy == Policy::Normal;
		se.load = se.idle_policy ? idle_load_weight() : task_load_weight(t.nice);
		if (cfg_.preset->paths.custom_slices && t.spec->custom_slice) {
			se.custom_slice = true;
			se.slice = clamp_custom_slice(t.spec->custom_slice);
		} else {
			se.slice = cfg_.base_slice_ns;
		}
		init_entity_runnable_average(se.avg, se_weight_of(se.load));
		if (const std::string& tg = task_group_path(i); !tg.empty()) {
			// sched_cgroup_fork() (its autogroup_task_group()) / set_task_rq():
			// below the group's entity of its CPU.
			se.parent = &group_by_path(tg).se[t.cpu];
			se.depth = se.parent->depth + 1;
		}
		t.burst_rng = rng_stream(cfg_.seed, static_cast<u64>(NoiseSource::BurstScale), i);
		t.wake_cost_rng = rng_stream(cfg_.seed, static_cast<u64>(NoiseSource::FutexWakeCost), i);
		t.wake_at = t.spec->delay;
		heap_push(static_cast<int>(i));
	}
	live_tasks_ = static_cast<int>(n);
	if (cfg_.profile.scales_bursts()) {
		Rng run = rng_stream(cfg_.seed, static_cast<u64>(NoiseSource::RunScale));
		run_scale_ppm_ = cfg_.profile.run_scale.sample(run);
	}
	for (Rq& rq : rqs_)
		rq.arm_next_tick(0, cfg_.tick_ns, cfg_.knobs.tick_jitter);
	cpu_events_.resize(cfg_.cpus);
	touched_.reserve(cfg_.cpus);
	is_touched_.assign(cfg_.cpus, 0);
	for (u32 c = 0; c < cfg_.cpus; c++)
		set_cpu_event(c);
}

// sched_create_group() for each of the workload's groups, parents first
// (validate_workload() checked the order), each with an entity and a cfs_rq
// on every CPU; then the sessions' autogroups (autogroup_create(): children
// of the root). A group_weight event's index into wl_.groups is its index
// here too.
void Simulation::create_groups()
{
	for (const auto* list : {&wl_.groups, &autogroups_.groups})
		for (const GroupSpec& g : *list) {
			const std::string parent = g.path.substr(0, g.path.rfind('/'));
			TaskGroup* p = parent.empty() ? nullptr : &group_by_path(parent);
			TaskGroup& tg = groups_.emplace_back(cfg_, p, g.path, g.shares);
			tg.id = static_cast<u32>(groups_.size() - 1);
			for (Rq& rq : rqs_)
				tg.init_tg_cfs_entry(rq.cfs);
			if (g.idle)
				tg.sched_group_set_idle(true);
		}
}

TaskGroup& Simulation::group_by_path(const std::string& path)
{
	for (TaskGroup& tg : groups_)
		if (tg.path == path)
			return tg;
	throw WorkloadError("workload: no group '" + path + "'");
}

void Simulation::add_observer(Observer* o) { observers_.push_back(o); }

u64 Simulation::end_time() const { return wl_.duration ? wl_.duration : NEVER; }

bool Simulation::tick_running(u32 cpu) const
{
	const Rq& rq = rqs_[cpu];
	if (rq.idle())
		return false;  // NO_HZ_IDLE: an idle CPU needs no tick
	if (cfg_.features[Feature::NO_HZ_FULL])
		return rq.cfs.h_nr_queued > 1;  // sched_can_stop_tick(): h_nr_queued > 1 keeps it
	return true;
}

u64 Simulation::busy_ns() const
{
	u64 s = 0;
	for (const Rq& rq : rqs_)
		s += rq.busy_ns;
	return s;
}

u64 Simulation::idle_ns() const
{
	u64 s = 0;
	for (const Rq& rq : rqs_)
		s += rq.idle_ns;
	return s;
}

u64 Simulation::ticks() const
{
	u64 s = 0;
	for (const Rq& rq : rqs_)
		s += rq.ticks;
	return s;
}

s64 Simulation::lag_ns(int task) const
{
	const Task& t = tasks_[static_cast<size_t>(task)];
	const SchedEntity& se = t.se;
	// In a group: the lag on the group's cfs_rq, where the task competes.
	const CfsRq& q = se.parent ? *se.parent->my_q : rqs_[t.cpu].cfs;
	const s64 vlag = wrapped_diff(q.avg_vruntime(), se.vruntime);
	return static_cast<s64>(static_cast<s128>(vlag) * static_cast<s128>(scale_load_down(se.load.weight)) /
				static_cast<s128>(scale_load_down(NICE_0_LOAD)));
}

// ---------------------------------------------------------------- time

// jiffies: the tick grid points passed (tick_do_update_jiffies64() counts
// whole periods, so an early tick still sees the old value). Time only moves
// forward, so the divisions are done once per grid point crossed, not per
// time step.
void Simulation::update_jiffies()
{
	if (now_ < next_jiffy_at_)
		return;
	const u64 tick = cfg_.tick_ns, phase = cfg_.knobs.tick_phase % tick;
	if (phase == 0) {
		jiffies_ = now_ / tick;
		next_jiffy_at_ = (jiffies_ + 1) * tick;
	} else {
		jiffies_ = now_ < phase ? 0 : (now_ - phase) / tick + 1;
		next_jiffy_at_ = phase + jiffies_ * tick;
	}
}

u64 Simulation::curr_completion_time(const Rq& rq) const
{
	const SchedEntity* curr = rq.cfs.curr_task();
	if (!curr)
		return NEVER;
	const Task& t = tasks_[static_cast<size_t>(curr->id)];
	const u64 start = std::max(now_, rq.useful_start);
	if (t.work == Work::Runtime)
		return std::max(t.runtime_end, start);
	if (t.work_left == RUN_FOREVER)
		return NEVER;
	return start + t.work_left;
}

// The earliest event of one CPU: (time, source) in lexicographic order.
Simulation::CpuEvent Simulation::cpu_next_event(u32 c) const
{
	const Rq& rq = rqs_[c];
	CpuEvent e;
	auto consider = [&](u64 at, EventSource s) {
		if (at < e.t || (at == e.t && s < e.src)) {
			e.t = at;
			e.src = s;
		}
	};
	consider(curr_completion_time(rq), EventSource::Completion);
	consider(rq.hrtick_at, EventSource::Hrtick);
	if (tick_running(c))
		consider(rq.next_tick, EventSource::Tick);
	consider(rq.ipi_at, EventSource::Ipi);
	consider(rq.resched_at, EventSource::Resched);
	return e;
}

// The earliest pending event: (time, source, CPU) in lexicographic order,
// timed wakeups last among equal times (by task id).
Simulation::EventSource Simulation::next_event(u64& t, u32& cpu) const
{
	EventKey k(NEVER, static_cast<u32>(EventSource::Wakeup), 0);
	if (!heap_.empty()) {
		const Task& w = tasks_[static_cast<size_t>(heap_[0].task)];
		k = EventKey(heap_[0].at, static_cast<u32>(EventSource::Wakeup), w.timer_cpu);
	}
	if (cpu_events_.min() < k)
		k = cpu_events_.min();
	t = k.t();
	cpu = k.cpu();
	return static_cast<EventSource>(k.src());
}

void Simulation::set_cpu_event(u32 c)
{
	const CpuEvent e = cpu_next_event(c);
	cpu_events_.set(c, EventKey{e.t, static_cast<u32>(e.src), c});
}

std::string Simulation::stale_next_event() const
{
	for (u32 c = 0; c < cfg_.cpus; c++) {
		const CpuEvent e = cpu_next_event(c);
		const EventKey& kept = cpu_events_.at(c);
		if (e.t != kept.t() || static_cast<u32>(e.src) != kept.src())
			return "CPU " + std::to_string(c) + "'s kept next event is at " + std::to_string(kept.t()) +
			       " (source " + std::to_string(kept.src()) + "), recomputed " +
			       std::to_string(e.t) + " (source " + std::to_string(static_cast<int>(e.src)) + ")";
	}
	return "";
}

void Simulation::advance_to(u64 t)
{
	// CPUs that tick on the shared grid handle their ticks at one instant;
	// only the first of those events moves time.
	if (t == now_)
		return;
	const u64 dt = t - now_;
	for (Rq& rq : rqs_) {
		if (const SchedEntity* curr = rq.cfs.curr_task()) {
			rq.busy_ns += dt;
			Task& c = tasks_[static_cast<size_t>(curr->id)];
			const u64 start = std::max(now_, rq.useful_start);
			if (c.work != Work::Runtime && c.work_left != RUN_FOREVER && t > start)
				c.work_left -= std::min(c.work_left, t - start);
		} else {
			rq.idle_ns += dt;
		}
	}
	now_ = t;
	update_jiffies();
}

void Simulation::run_until(u64 until, u64 max_events)
{
	const u64 limit = std::min(until, end_time());
	u64 same_instant = 0;

	while (live_tasks_ > 0 && now_ < limit && events_ < max_events) {
		u64 t;
		u32 cpu;
		const EventSource src = next_event(t, cpu);
		if (t >= limit) {
			if (limit != NEVER)
				advance_to(limit);
			return;
		}
		same_instant = t == now_ ? same_instant + 1 : 0;
		if (same_instant > MAX_EVENTS_PER_INSTANT)
			throw WorkloadError("workload: more than 10^7 events at t=" + std::to_string(t) +
					    " ns without time passing (a zero-time suspend/resume cycle?)");
		advance_to(t);
		event_cpu_ = context_cpu_ = cpu;

		switch (src) {
		case EventSource::Completion:
			step_current(cpu);
			break;
		case EventSource::Hrtick:
			rqs_[cpu].hrtick_at = NEVER;
			hrtick(cpu);
			break;
		case EventSource::Tick: {
			Rq& rq = rqs_[cpu];
			rq.last_tick_grid = rq.next_tick_grid;
			sched_tick(cpu);
			rq.arm_next_tick(t, cfg_.tick_ns, cfg_.knobs.tick_jitter);
			break;
		}
		case EventSource::Ipi:
			deliver_ipi(cpu);
			break;
		case EventSource::Wakeup: {
			if (timed_wakeup(heap_pop()) && defer_timer_resched(cpu)) {
				after_event(t, cpu, true);
				continue;
			}
			break;
		}
		case EventSource::Resched:
			rqs_[cpu].resched_at = NEVER;
			break;
		}
		after_event(t, cpu);
	}
	if (live_tasks_ == 0 && limit != NEVER && now_ < limit)
		advance_to(limit);
}

// The scheduling point of the CPU that handled the event; a resched it asked
// of another CPU travels by IPI. A stopped tick (idle, or NO_HZ_FULL with
// one task) restarts on its original grid once it is needed again.
// Only a touched CPU's tick can have started or stopped (its rq changed).
void Simulation::refresh_touched()
{
	for (u32 c : touched_) {
		Rq& rq = rqs_[c];
		const bool running = tick_running(c);
		if (running && !rq.tick_was_running)
			rq.arm_next_tick(now_, cfg_.tick_ns, cfg_.knobs.tick_jitter);
		rq.tick_was_running = running;
		set_cpu_event(c);
		is_touched_[c] = 0;
	}
	touched_.clear();
}

void Simulation::after_event(u64 t, u32 cpu, bool resched_deferred)
{
	if (rqs_[cpu].cfs.need_resched && !resched_deferred)
		schedule(cpu);
	touch(cpu);
	refresh_touched();
	events_++;
	event_cpu_ = cpu;
	notify(&Observer::on_event, t);
}

// ---------------------------------------------------------------- heap

void Simulation::heap_push(int task)
{
	// Capacity is reserved for every task: never reallocates. Sift up.
	const TimedWakeup e{tasks_[static_cast<size_t>(task)].wake_at, task};
	size_t i = heap_.size();
	heap_.push_back(e);
	while (i > 0) {
		const size_t parent = (i - 1) / 2;
		if (!(e < heap_[parent]))
			break;
		heap_[i] = heap_[parent];
		i = parent;
	}
	heap_[i] = e;
}

int Simulation::heap_pop()
{
	const int top = heap_[0].task;
	const TimedWakeup e = heap_.back();
	heap_.pop_back();
	const size_t n = heap_.size();
	if (n == 0)
		return top;
	// Sift the last entry down from the root.
	size_t i = 0;
	for (;;) {
		size_t best = 2 * i + 1;
		if (best >= n)
			break;
		if (best + 1 < n && heap_[best + 1] < heap_[best])
			best++;
		if (!(heap_[best] < e))
			break;
		heap_[i] = heap_[best];
		i = best;
	}
	heap_[i] = e;
	return top;
}

}  // namespace eevdf
