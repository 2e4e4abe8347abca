// SPDX-License-Identifier: GPL-2.0-only
// The core scheduler around the fair class, on one CPU (kernel/sched/core.c,
// v6.18), and the event loop that drives it.
//
// Scheduling points. The model's tasks run in user space, so a resched
// requested by the tick, by a wakeup or by the task itself is acted on at
// once (return from interrupt or system call); with PREEMPT_LAZY the tick
// promotes a lazy request to a full one, and a user-space task sees no
// difference. Events at the same instant are handled in a fixed order:
// curr's own program first, then an hrtick expiry, then the periodic tick,
// then timed wakeups by task id, each followed by its scheduling point.
#include "model/simulation.hpp"

#include <algorithm>

namespace eevdf {
namespace {

constexpr u64 NEVER = ~0ULL;
constexpr size_t NPOS = static_cast<size_t>(-1);
// More consecutive events than this at one instant means no time can pass.
constexpr u64 MAX_EVENTS_PER_INSTANT = 10'000'000;

// sched_setattr(): sched_runtime is clamped to [0.1 ms, 100 ms] (857b158dc5e8).
u64 clamp_custom_slice(u64 ns)
{
	return std::clamp<u64>(ns, NSEC_PER_MSEC / 10, NSEC_PER_MSEC * 100);
}

bool consumes_time(const Event& e)
{
	switch (e.kind) {
	case Event::Kind::Run:
	case Event::Kind::Runtime:
	case Event::Kind::Sleep:
	case Event::Kind::Timer:
		return e.ns > 0;
	default:
		return false;
	}
}

bool phase_consumes_time(const Phase& p)
{
	return std::any_of(p.events.begin(), p.events.end(), consumes_time);
}

void validate(const Config& cfg, const Workload& wl)
{
	if (!cfg.preset)
		throw WorkloadError("config: no kernel preset");
	if (cfg.hz == 0 || cfg.tick_ns == 0)
		throw WorkloadError("config: hz must be positive");
	if (cfg.knobs.tick_jitter >= cfg.tick_ns)
		throw WorkloadError("config: tick_jitter " + std::to_string(cfg.knobs.tick_jitter) +
				    " ns must be below TICK_NSEC " + std::to_string(cfg.tick_ns));
	if (cfg.knobs.tick_phase >= cfg.tick_ns)
		throw WorkloadError("config: tick_phase " + std::to_string(cfg.knobs.tick_phase) +
				    " ns must be below TICK_NSEC " + std::to_string(cfg.tick_ns));
	if (cfg.base_slice_ns == 0)
		throw WorkloadError("config: base slice must be positive");
	if (wl.tasks.empty())
		throw WorkloadError("workload: no tasks");
	for (const TaskSpec& t : wl.tasks) {
		const std::string where = "workload: task '" + t.name + "'";
		if (t.phases.empty())
			throw WorkloadError(where + " has no phases");
		if (t.loop != LOOP_FOREVER && t.loop < 1)
			throw WorkloadError(where + ": loop " + std::to_string(t.loop) + " must be -1 or positive");
		if (t.nice < MIN_NICE || t.nice > MAX_NICE)
			throw WorkloadError(where + ": nice " + std::to_string(t.nice) + " outside -20..19");
		bool any_time = false;
		for (const Phase& p : t.phases) {
			if (p.events.empty())
				throw WorkloadError(where + " phase '" + p.name + "' has no events");
			if (p.loop != LOOP_FOREVER && p.loop < 1)
				throw WorkloadError(where + " phase '" + p.name + "': loop " + std::to_string(p.loop) +
						    " must be -1 or positive");
			const bool phase_time = phase_consumes_time(p);
			if (p.loop == LOOP_FOREVER && !phase_time)
				throw WorkloadError(where + " phase '" + p.name +
						    "' loops forever without run, runtime, sleep or timer time: no time would pass");
			any_time = any_time || phase_time;
			for (const Event& e : p.events) {
				if ((e.kind == Event::Kind::Timer || e.kind == Event::Kind::Suspend ||
				     e.kind == Event::Kind::Resume) &&
				    (e.ref < 0 || static_cast<size_t>(e.ref) >= wl.refs.size()))
					throw WorkloadError(where + " phase '" + p.name + "': event with unknown ref");
				if (e.kind == Event::Kind::SetNice && (e.value < MIN_NICE || e.value > MAX_NICE))
					throw WorkloadError(where + " phase '" + p.name + "': nice " +
							    std::to_string(e.value) + " outside -20..19");
			}
		}
		if (t.loop == LOOP_FOREVER && !any_time)
			throw WorkloadError(where + " loops forever without run, runtime, sleep or timer time: no time would pass");
		if (wl.duration == 0) {
			const bool forever = t.loop == LOOP_FOREVER ||
					     std::any_of(t.phases.begin(), t.phases.end(),
							 [](const Phase& p) { return p.loop == LOOP_FOREVER; }) ||
					     std::any_of(t.phases.begin(), t.phases.end(), [](const Phase& p) {
						     return std::any_of(p.events.begin(), p.events.end(), [](const Event& e) {
							     return e.kind == Event::Kind::Run && e.ns == RUN_FOREVER;
						     });
					     });
			if (forever)
				throw WorkloadError(where + " never ends and the workload has no duration: give one");
		}
	}
}

}  // namespace

Simulation::Simulation(const Config& cfg, const Workload& wl)
	: cfg_(cfg), wl_(wl), cfs_(cfg_), prng_state_(cfg.seed)
{
	validate(cfg_, wl_);
	const size_t n = wl_.tasks.size();
	tasks_.resize(n);
	timers_.assign(n * wl_.refs.size(), NEVER);
	heap_.reserve(n);
	heap_pos_.assign(n, NPOS);

	for (size_t i = 0; i < n; i++) {
		Task& t = tasks_[i];
		t.spec = &wl_.tasks[i];
		t.nice = t.spec->nice;
		t.timer_base = i * wl_.refs.size();
		SchedEntity& se = t.se;
		se.id = static_cast<int>(i);
		se.load = task_load_weight(t.nice);
		if (cfg_.preset->paths.custom_slices && t.spec->custom_slice) {
			se.custom_slice = true;
			se.slice = clamp_custom_slice(t.spec->custom_slice);
		} else {
			se.slice = cfg_.base_slice_ns;
		}
		t.wake_at = t.spec->delay;
		heap_push(static_cast<int>(i));
	}
	live_tasks_ = static_cast<int>(n);
	arm_next_tick(0);
}

void Simulation::add_observer(Observer* o) { observers_.push_back(o); }

u64 Simulation::end_time() const { return wl_.duration ? wl_.duration : NEVER; }

bool Simulation::tick_running() const
{
	if (!cfs_.curr)
		return false;  // NO_HZ_IDLE: an idle CPU needs no tick
	if (cfg_.features[Feature::NO_HZ_FULL])
		return cfs_.nr_queued > 1;  // sched_can_stop_tick(): h_nr_queued > 1 keeps it
	return true;
}

s64 Simulation::lag_ns(int task) const
{
	const SchedEntity& se = tasks_[static_cast<size_t>(task)].se;
	const s64 vlag = wrapped_diff(cfs_.avg_vruntime(), se.vruntime);
	return static_cast<s64>(static_cast<s128>(vlag) * static_cast<s128>(scale_load_down(se.load.weight)) /
				static_cast<s128>(scale_load_down(NICE_0_LOAD)));
}

// ---------------------------------------------------------------- time

u64 Simulation::prng_next()
{
	// splitmix64: seeded, so the same seed gives the same jitter.
	u64 z = (prng_state_ += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

u64 Simulation::grid_tick_after(u64 t) const
{
	const u64 tick = cfg_.tick_ns, phase = cfg_.knobs.tick_phase;
	if (t < phase)
		return phase == 0 ? tick : phase;
	return phase + ((t - phase) / tick + 1) * tick;
}

// The next tick is the next grid point after `after` that has not had its
// tick yet, arriving early by a jitter drawn uniformly from [0, tick_jitter]:
// the clockevent fires a little before the period is complete, the effect
// 2ae891b82695 describes. An early tick still owns its grid point, so the
// following tick belongs to the next one.
void Simulation::arm_next_tick(u64 after)
{
	u64 grid;
	if (last_tick_grid_ && after < last_tick_grid_ + cfg_.tick_ns) {
		grid = last_tick_grid_ + cfg_.tick_ns;  // the usual case, without a division
	} else {
		grid = grid_tick_after(after);
		if (last_tick_grid_ && grid <= last_tick_grid_)
			grid = last_tick_grid_ + cfg_.tick_ns;
	}
	u64 early = 0;
	if (cfg_.knobs.tick_jitter)
		early = prng_next() % (cfg_.knobs.tick_jitter + 1);
	next_tick_grid_ = grid;
	next_tick_ = grid > after + early ? grid - early : grid;  // never before `after`
}

u64 Simulation::curr_completion_time() const
{
	if (!cfs_.curr)
		return NEVER;
	const Task& t = tasks_[static_cast<size_t>(cfs_.curr->id)];
	const u64 start = std::max(now_, useful_start_);
	if (t.in_runtime)
		return std::max(t.runtime_end, start);
	if (t.work_left == RUN_FOREVER)
		return NEVER;
	return start + t.work_left;
}

// The earliest pending event; on a tie the earlier source in EventSource
// order wins (curr's program, hrtick, tick, timed wakeups).
Simulation::EventSource Simulation::next_event(u64& t) const
{
	EventSource src = EventSource::Completion;
	t = curr_completion_time();
	if (hrtick_at_ < t) {
		t = hrtick_at_;
		src = EventSource::Hrtick;
	}
	if (tick_running() && next_tick_ < t) {
		t = next_tick_;
		src = EventSource::Tick;
	}
	if (!heap_.empty() && tasks_[static_cast<size_t>(heap_[0])].wake_at < t) {
		t = tasks_[static_cast<size_t>(heap_[0])].wake_at;
		src = EventSource::Wakeup;
	}
	return src;
}

void Simulation::advance_to(u64 t)
{
	const u64 dt = t - now_;
	if (cfs_.curr) {
		busy_ns_ += dt;
		Task& c = tasks_[static_cast<size_t>(cfs_.curr->id)];
		const u64 start = std::max(now_, useful_start_);
		if (!c.in_runtime && c.work_left != RUN_FOREVER && t > start)
			c.work_left -= std::min(c.work_left, t - start);
	} else {
		idle_ns_ += dt;
	}
	now_ = t;
}

void Simulation::run_until(u64 until)
{
	const u64 limit = std::min(until, end_time());
	u64 same_instant = 0;

	while (live_tasks_ > 0 && now_ < limit) {
		u64 t;
		const EventSource src = next_event(t);
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

		switch (src) {
		case EventSource::Completion:
			step_current();
			break;
		case EventSource::Hrtick:
			hrtick_at_ = NEVER;
			hrtick();
			break;
		case EventSource::Tick:
			last_tick_grid_ = next_tick_grid_;
			sched_tick();
			arm_next_tick(t);
			break;
		case EventSource::Wakeup: {
			const int task = heap_[0];
			heap_remove(task);
			timed_wakeup(task);
			break;
		}
		}
		after_event(t);
	}
	if (live_tasks_ == 0 && limit != NEVER && now_ < limit)
		advance_to(limit);
}

void Simulation::after_event(u64 t)
{
	if (cfs_.need_resched)
		schedule();
	// A stopped tick (idle, or NO_HZ_FULL with one task) restarts on its
	// original grid once it is needed again.
	const bool running = tick_running();
	if (running && !tick_was_running_)
		arm_next_tick(now_);
	tick_was_running_ = running;
	events_++;
	for (Observer* o : observers_)
		o->on_event(*this, t);
}

// ---------------------------------------------------------------- core.c

void Simulation::sched_tick()
{
	ticks_++;
	set_clock(now_);
	cfs_.entity_tick(false);
	for (Observer* o : observers_)
		o->on_tick(*this, now_, false);
}

void Simulation::hrtick()
{
	if (!cfs_.curr)
		return;
	set_clock(now_);
	cfs_.entity_tick(true);
	for (Observer* o : observers_)
		o->on_tick(*this, now_, true);
}

// __schedule() -> pick_next_task_fair(). The pick runs before prev is put
// back, with prev still cfs_rq->curr; re-picking prev changes nothing (in
// particular its slice protection is not renewed).
//
// HRTICK: __schedule() cancels the hrtick first (hrtick_clear()), and the
// fair class arms it again for the task it sets running: for every pick on
// 6.6, only for a different task from 6.12 (a re-picked task runs on to the
// periodic tick). Arming happens inside the pick, before __schedule() clears
// TIF_NEED_RESCHED, so a resched it asks for (a re-picked task already past
// its slice) is lost.
void Simulation::schedule()
{
	set_clock(now_);
	SchedEntity* prev = cfs_.curr;
	if (cfg_.features[Feature::HRTICK])
		hrtick_at_ = NEVER;
	SchedEntity* next = cfs_.pick_next_task_fair();
	if (next && (next != prev || cfg_.preset->paths.hrtick_rearm_on_repick))
		hrtick_start_fair();
	cfs_.need_resched = false;
	for (Observer* o : observers_)
		o->on_schedule(*this, now_, prev ? prev->id : IDLE, next ? next->id : IDLE);
	if (next == prev)
		return;

	const bool prev_runnable = prev && tasks_[static_cast<size_t>(prev->id)].state == TaskState::Runnable;
	useful_start_ = now_ + (next ? cfg_.knobs.switch_cost : 0);
	for (Observer* o : observers_)
		o->on_switch(*this, now_, prev ? prev->id : IDLE, next ? next->id : IDLE, prev_runnable, useful_start_);
}

// hrtick_start_fair() (6.6 - 6.18): end the slice by timer, measured in real
// runtime since the pick, when more than one task is queued; hrtick_start()
// never arms it less than 10 us ahead. With one task queued an armed timer
// is left alone.
void Simulation::hrtick_start_fair()
{
	if (!cfg_.features[Feature::HRTICK] || !cfs_.curr || cfs_.nr_queued <= 1)
		return;
	const SchedEntity* se = cfs_.curr;
	const u64 ran = se->sum_exec_runtime - se->prev_sum_exec_runtime;
	const s64 delta = static_cast<s64>(se->slice - ran);
	if (delta < 0) {
		cfs_.need_resched = true;
		return;
	}
	constexpr u64 HRTICK_MIN_NS = 10 * NSEC_PER_USEC;
	hrtick_at_ = now_ + std::max<u64>(static_cast<u64>(delta), HRTICK_MIN_NS);
}

void Simulation::hrtick_update()
{
	if (cfs_.curr)
		hrtick_start_fair();
}

void Simulation::wakeup_preempt(SchedEntity* pse, unsigned wake_flags)
{
	if (!cfs_.curr) {  // the idle class is below fair: always preempted
		cfs_.need_resched = true;
		return;
	}
	cfs_.check_preempt_wakeup_fair(pse, wake_flags);
}

// wake_up_new_task(): the child is placed at V with vlag 0. 6.8+ activate it
// with ENQUEUE_INITIAL (half a slice to its first deadline); v6.6 places it
// with INITIAL in task_fork_fair(), then activates without, so its first
// request is a whole slice.
void Simulation::wake_up_new_task(int task)
{
	Task& t = tasks_[static_cast<size_t>(task)];
	set_clock(now_);
	t.state = TaskState::Runnable;
	t.se.vlag = 0;
	cfs_.enqueue_entity(&t.se, cfg_.preset->paths.fork_enqueue_initial ? unsigned{ENQUEUE_INITIAL} : 0u);
	for (Observer* o : observers_)
		o->on_wakeup(*this, now_, task, IDLE, true);
	wakeup_preempt(&t.se, WF_FORK);
	hrtick_update();
}

// try_to_wake_up(): a delayed task is still queued and is requeued in
// place (ttwu_runnable); any other is enqueued with its saved lag.
void Simulation::try_to_wake_up(int task, int waker)
{
	Task& t = tasks_[static_cast<size_t>(task)];
	if (t.state != TaskState::Sleeping && t.state != TaskState::Suspended)
		return;
	set_clock(now_);
	t.state = TaskState::Runnable;
	t.suspended_on = -1;
	if (t.se.on_rq)
		cfs_.requeue_delayed_entity(&t.se);
	else
		cfs_.enqueue_entity(&t.se, ENQUEUE_WAKEUP);
	for (Observer* o : observers_)
		o->on_wakeup(*this, now_, task, waker, false);
	wakeup_preempt(&t.se, WF_TTWU);
	hrtick_update();
}

void Simulation::block_current(TaskState why, int suspended_on)
{
	Task& t = tasks_[static_cast<size_t>(cfs_.curr->id)];
	set_clock(now_);
	t.state = why;
	t.suspended_on = suspended_on;
	const bool delayed = !cfs_.dequeue_entity(&t.se, DEQUEUE_SLEEP);
	for (Observer* o : observers_)
		o->on_block(*this, now_, t.se.id, delayed, false);
	cfs_.need_resched = true;
	hrtick_update();
}

void Simulation::exit_current()
{
	Task& t = tasks_[static_cast<size_t>(cfs_.curr->id)];
	set_clock(now_);
	t.state = TaskState::Exited;
	cfs_.dequeue_entity(&t.se, DEQUEUE_SLEEP | DEQUEUE_SPECIAL);
	live_tasks_--;
	for (Observer* o : observers_)
		o->on_block(*this, now_, t.se.id, false, true);
	cfs_.need_resched = true;
}

// The sched_change pattern of core.c: a queued task is dequeued (SAVE) and,
// if running, put back; the change is made off the queue; the task is
// enqueued (RESTORE: lag and relative deadline kept) and set running again,
// without renewing its slice protection where the preset says so.
template <class Change>
void Simulation::sched_change(SchedEntity* se, unsigned dequeue_flags, Change&& change)
{
	const bool queued = se->on_rq, running = cfs_.curr == se;
	set_clock(now_);
	if (queued)
		cfs_.dequeue_entity(se, dequeue_flags);
	if (running)
		cfs_.put_prev_entity(se);
	change();
	if (queued)
		cfs_.enqueue_entity(se, ENQUEUE_RESTORE);
	if (running)
		cfs_.set_next_entity(se, false);
}

// set_user_nice(): reweight under sched_change, then prio_changed_fair().
void Simulation::set_user_nice(Task& t, int nice)
{
	if (nice == t.nice)
		return;
	SchedEntity* se = &t.se;
	const bool queued = se->on_rq, running = cfs_.curr == se;
	const int old = t.nice;
	const u64 old_weight = se->load.weight;
	s64 saved_vlag = 0;
	sched_change(se, DEQUEUE_SAVE, [&] {
		saved_vlag = se->vlag;
		t.nice = nice;
		cfs_.reweight_entity(se, task_load_weight(nice));
	});
	if (queued)
		for (Observer* o : observers_)
			o->on_reweight(*this, now_, se->id, saved_vlag, old_weight);

	if (!queued || cfs_.nr_queued == 1)
		return;
	if (running) {
		if (nice > old)  // lower priority: let the pick decide now
			cfs_.need_resched = true;
	} else {
		wakeup_preempt(se, 0);
	}
}

// sched_setattr() with sched_runtime (6.12+): the slice changes under
// sched_change (SAVE|MOVE); the relative deadline is kept, so the new slice
// takes effect at the next renewal.
void Simulation::sched_setattr_runtime(Task& t, u64 runtime)
{
	if (!cfg_.preset->paths.custom_slices)
		return;  // before 6.12 the fair class ignores sched_runtime
	SchedEntity* se = &t.se;
	// __sched_setscheduler(): with the policy and nice unchanged, only a
	// sched_runtime different from the current slice, compared raw before
	// clamping, goes on to change anything. So a runtime equal to the base
	// slice leaves a task without a custom slice, and runtime 0 on such a
	// task still re-queues it.
	if (runtime == se->slice)
		return;
	const u64 slice = runtime ? clamp_custom_slice(runtime) : cfg_.base_slice_ns;
	sched_change(se, DEQUEUE_SAVE | DEQUEUE_MOVE, [&] {
		se->custom_slice = runtime != 0;
		se->slice = slice;
	});
}

void Simulation::do_sched_yield()
{
	set_clock(now_);
	cfs_.yield_task_fair();
	cfs_.need_resched = true;
	for (Observer* o : observers_)
		o->on_yield(*this, now_, cfs_.curr ? cfs_.curr->id : IDLE);
}

// ---------------------------------------------------------------- programs

const Event* Simulation::current_event(Task& t) const
{
	if (t.phase >= t.spec->phases.size())
		return nullptr;
	return &t.spec->phases[t.phase].events[t.event];
}

bool Simulation::advance_pc(Task& t)
{
	const Phase& p = t.spec->phases[t.phase];
	if (++t.event < p.events.size())
		return true;
	t.event = 0;
	if (p.loop == LOOP_FOREVER || ++t.phase_iter < p.loop)
		return true;
	t.phase_iter = 0;
	if (++t.phase < t.spec->phases.size())
		return true;
	if (t.spec->loop == LOOP_FOREVER || ++t.task_iter < t.spec->loop) {
		t.phase = 0;
		return true;
	}
	return false;  // t.phase == phases.size(): the program has ended
}

void Simulation::timed_wakeup(int task)
{
	Task& t = tasks_[static_cast<size_t>(task)];
	t.wake_at = NEVER;
	if (t.state == TaskState::New)
		wake_up_new_task(task);
	else
		try_to_wake_up(task, IDLE);
}

// Runs curr's program from its program counter: instantaneous events
// execute now; the first event that takes CPU time, blocks or yields ends
// the step. An event that completes advances the counter.
void Simulation::step_current()
{
	Task& t = tasks_[static_cast<size_t>(cfs_.curr->id)];
	const int self = cfs_.curr->id;

	if (t.in_progress) {  // the Run or Runtime under way has completed
		t.in_progress = t.in_runtime = false;
		t.work_left = 0;
		if (!advance_pc(t)) {
			exit_current();
			return;
		}
	}
	for (;;) {
		const Event* e = current_event(t);
		if (!e) {
			exit_current();
			return;
		}
		// Events that end the step leave the counter past themselves, so
		// the task resumes after them when it next runs.
		switch (e->kind) {
		case Event::Kind::Run:
			if (e->ns) {
				t.work_left = e->ns;
				t.in_progress = true;
				return;
			}
			break;
		case Event::Kind::Runtime:
			if (e->ns) {
				t.runtime_end = now_ + e->ns;
				t.in_progress = t.in_runtime = true;
				return;
			}
			break;
		case Event::Kind::Sleep:
			if (e->ns) {
				advance_pc(t);  // at the end, the task exits when it wakes
				block_current(TaskState::Sleeping, -1);
				t.wake_at = now_ + e->ns;
				heap_push(self);
				return;
			}
			break;
		case Event::Kind::Timer: {
			// rt-app's relative timer: next += period; when that is already
			// past, the timer restarts from now and the task does not sleep.
			u64& next = timers_[t.timer_base + static_cast<size_t>(e->ref)];
			next = (next == NEVER ? now_ : next) + e->ns;
			if (next > now_) {
				const u64 wake = next;
				advance_pc(t);
				block_current(TaskState::Sleeping, -1);
				t.wake_at = wake;
				heap_push(self);
				return;
			}
			next = now_;
			break;
		}
		case Event::Kind::Suspend: {
			const int ref = e->ref;
			advance_pc(t);
			block_current(TaskState::Suspended, ref);
			return;
		}
		case Event::Kind::Resume:
			for (size_t i = 0; i < tasks_.size(); i++)
				if (tasks_[i].state == TaskState::Suspended && tasks_[i].suspended_on == e->ref)
					try_to_wake_up(static_cast<int>(i), self);
			break;
		case Event::Kind::Yield:
			advance_pc(t);
			do_sched_yield();
			return;
		case Event::Kind::SetNice:
			set_user_nice(t, e->value);
			for (Observer* o : observers_)
				o->on_attr(*this, now_, self);
			break;
		case Event::Kind::SetSlice:
			sched_setattr_runtime(t, e->ns);
			for (Observer* o : observers_)
				o->on_attr(*this, now_, self);
			break;
		}
		if (!advance_pc(t)) {
			exit_current();
			return;
		}
	}
}

// ---------------------------------------------------------------- heap

bool Simulation::heap_less(int a, int b) const
{
	const u64 ta = tasks_[static_cast<size_t>(a)].wake_at, tb = tasks_[static_cast<size_t>(b)].wake_at;
	return ta != tb ? ta < tb : a < b;
}

void Simulation::heap_sift_up(size_t i)
{
	while (i > 0) {
		const size_t parent = (i - 1) / 2;
		if (!heap_less(heap_[i], heap_[parent]))
			break;
		std::swap(heap_[i], heap_[parent]);
		heap_pos_[static_cast<size_t>(heap_[i])] = i;
		heap_pos_[static_cast<size_t>(heap_[parent])] = parent;
		i = parent;
	}
}

void Simulation::heap_sift_down(size_t i)
{
	const size_t n = heap_.size();
	for (;;) {
		size_t best = i;
		const size_t l = 2 * i + 1, r = l + 1;
		if (l < n && heap_less(heap_[l], heap_[best]))
			best = l;
		if (r < n && heap_less(heap_[r], heap_[best]))
			best = r;
		if (best == i)
			return;
		std::swap(heap_[i], heap_[best]);
		heap_pos_[static_cast<size_t>(heap_[i])] = i;
		heap_pos_[static_cast<size_t>(heap_[best])] = best;
		i = best;
	}
}

void Simulation::heap_push(int task)
{
	heap_.push_back(task);  // capacity reserved for every task: never reallocates
	heap_pos_[static_cast<size_t>(task)] = heap_.size() - 1;
	heap_sift_up(heap_.size() - 1);
}

void Simulation::heap_remove(int task)
{
	const size_t i = heap_pos_[static_cast<size_t>(task)];
	const size_t last = heap_.size() - 1;
	heap_pos_[static_cast<size_t>(task)] = NPOS;
	if (i != last) {
		heap_[i] = heap_[last];
		heap_pos_[static_cast<size_t>(heap_[i])] = i;
	}
	heap_.pop_back();
	if (i < heap_.size()) {
		const int moved = heap_[i];
		heap_sift_up(i);
		heap_sift_down(heap_pos_[static_cast<size_t>(moved)]);
	}
}

}  // namespace eevdf
