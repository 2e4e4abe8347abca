// SPDX-License-Identifier: GPL-2.0-only
#include "workers.hpp"

#include <cerrno>
#include <cinttypes>
#include <cstring>

#include <linux/futex.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sched_attr.hpp"

namespace probe {

Options g_opt;
Plan g_plan;
std::atomic<bool> g_stop{false};
std::atomic<bool> g_tail_done{false};
std::atomic<bool> g_abort{false};
Gate g_gate;

namespace {

inline void record(Task &t, i64 a, i64 b)
{
	i64 d = b - a;
	if (d > g_opt.gap_thr_ns) {
		if (!t.gaps.push(Gap{a, b}) && t.rec_end == 0)
			t.rec_end = a;
	}
	else if (d > g_opt.irq_thr_ns)
		t.irqs.push(a);
}

void run_hog(Task &t)
{
	const Plan p = g_plan;
	i64 prev = now_ns();
	while (prev < p.t0) {
		if (g_stop.load(std::memory_order_relaxed)) {
			t.interrupted = true;
			t.end_ts = prev;
			return;
		}
		prev = now_ns();
	}
	for (;;) {
		i64 now = now_ns();
		if (now - prev > g_opt.irq_thr_ns)
			record(t, prev, now);
		prev = now;
		if (now >= p.t1)
			break;
		if (g_stop.load(std::memory_order_relaxed)) {
			t.interrupted = true;
			break;
		}
	}
	t.end_ts = prev;
	// Keep the CPU busy until main has read /proc at the window's end.
	while (!g_tail_done.load(std::memory_order_relaxed) &&
	       !g_stop.load(std::memory_order_relaxed) && now_ns() < p.tend) {
	}
}

void run_waker(Task &t)
{
	const Plan p = g_plan;
	const i64 period = g_opt.waker_period_ns, run = g_opt.waker_run_ns;
	i64 start = now_ns();
	// Expected wake times are T0 + offset + k*period; start with the first
	// one ahead.
	const i64 base = p.t0 + g_opt.waker_offset_ns;
	i64 next = base - ((base - start) / period) * period;
	if (next < start)
		next += period;
	i64 prev = start;
	// Keep the rhythm after T1 until main has read /proc (the thread must be
	// alive then); only wakes expected inside [T0, T1) are recorded.
	while (next < p.tend && !g_tail_done.load(std::memory_order_relaxed)) {
		if (g_stop.load(std::memory_order_relaxed)) {
			t.interrupted = true;
			break;
		}
		timespec ts = to_timespec(next);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
		}
		i64 woke = now_ns();
		bool in = next >= p.t0 && next < p.t1;
		if (in)
			t.lat.push(woke - next);
		prev = woke;
		i64 until = woke + run;
		while (prev < until) {
			i64 now = now_ns();
			if (in && now - prev > g_opt.irq_thr_ns)
				record(t, prev, now);
			prev = now;
		}
		if (in)
			t.acts.push(Gap{woke, prev});
		next += period;
		while (next <= prev) {
			next += period;
			if (in)
				++t.missed;
		}
	}
	t.end_ts = prev;
}

}  // namespace

void task_main(Task *tp)
{
	Task &t = *tp;
	t.tid = pid_t(syscall(SYS_gettid));
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(g_opt.cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0) {
		t.err = errno;
		t.err_what = strf("sched_setaffinity(CPU %d)", g_opt.cpu);
	} else if (t.slice_ns || t.nice) {
		ProbeSchedAttr attr;
		std::memset(&attr, 0, sizeof attr);
		attr.size = sizeof attr;
		attr.sched_policy = SCHED_OTHER;
		attr.sched_nice = t.nice;
		attr.sched_runtime = t.slice_ns ? u64(*t.slice_ns) : 0;  // 0: the kernel's default slice
		if (syscall(SYS_sched_setattr, 0, &attr, 0u) != 0) {
			t.err = errno;
			t.err_what = strf("sched_setattr(SCHED_OTHER, nice=%d, sched_runtime=%" PRId64 ")", t.nice,
					  t.slice_ns ? *t.slice_ns : i64(0));
		}
	}
	if (t.is_waker)
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	{
		std::unique_lock<std::mutex> lk(g_gate.m);
		++g_gate.ready;
		g_gate.cv.notify_all();
		g_gate.cv.wait(lk, [] { return g_gate.open; });
	}
	if (g_abort.load() || t.err != 0)
		return;
	if (t.is_waker)
		run_waker(t);
	else
		run_hog(t);
}

// ------------------------------------------------------ scenario threads

namespace {

i64 thread_cpu_ns()
{
	timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return i64(ts.tv_sec) * kSec + ts.tv_nsec;
}

// Spins until this thread has been charged `ns` more CPU time.
void spin_cpu(i64 ns)
{
	const i64 until = thread_cpu_ns() + ns;
	while (thread_cpu_ns() < until) {
	}
}

bool smp_done(const Plan &p)
{
	return g_stop.load(std::memory_order_relaxed) || g_tail_done.load(std::memory_order_relaxed) ||
	       now_ns() >= p.tend;
}

void smp_hog(SmpTask &t)
{
	const Plan p = g_plan;
	while (!smp_done(p)) {
	}
	t.interrupted = g_stop.load();
}

void smp_sleeper(SmpTask &t)
{
	const Plan p = g_plan;
	const i64 period = t.spec.period_ns, run = t.spec.run_ns;
	const i64 start = now_ns();
	// Expected wakes are T0 + offset + k * period; start with the first
	// one ahead. The rhythm goes on after T1 until main has read /proc.
	const i64 base = p.t0 + t.spec.offset_ns;
	i64 next = base - ((base - start) / period) * period;
	if (next < start)
		next += period;
	while (next < p.tend && !g_tail_done.load(std::memory_order_relaxed)) {
		if (g_stop.load(std::memory_order_relaxed)) {
			t.interrupted = true;
			break;
		}
		timespec ts = to_timespec(next);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
		}
		const i64 woke = now_ns();
		const bool in = next >= p.t0 && next < p.t1;
		if (in)
			t.lat.push(woke - next);
		spin_cpu(run);
		const i64 done = now_ns();
		if (in)
			t.acts.push(Gap{woke, done});
		next += period;
		while (next <= done) {
			next += period;
			if (in)
				++t.missed;
		}
	}
}

long futex(std::atomic<int> *word, int op, int val)
{
	return syscall(SYS_futex, reinterpret_cast<int *>(word), op, val, nullptr, nullptr, 0);
}

bool uses_pipe(const SmpTask &t) { return t.spec.role == Role::PipePing || t.spec.role == Role::PipePong; }

// Sets the partner's word and wakes it, or writes a byte into its pipe; `at`
// is recorded as the send time.
void wake_partner(SmpTask &t, i64 at)
{
	SmpTask &o = *t.partner;
	o.sent_at.store(at, std::memory_order_relaxed);
	if (uses_pipe(t)) {
		const char b = 1;
		while (write(o.pipe_w, &b, 1) < 0 && errno == EINTR) {
		}
		return;
	}
	o.word.store(1, std::memory_order_release);
	futex(&o.word, FUTEX_WAKE_PRIVATE, 1);
}

// Waits until the partner has set our word (no lost wake-up: FUTEX_WAIT
// returns at once when the word is no longer 0), or for a byte in our pipe.
void wait_partner(SmpTask &t)
{
	if (uses_pipe(t)) {
		char b;
		while (read(t.pipe_r, &b, 1) < 0 && errno == EINTR) {
		}
		return;
	}
	while (t.word.exchange(0, std::memory_order_acquire) == 0)
		futex(&t.word, FUTEX_WAIT_PRIVATE, 0);
}

void smp_pingpong(SmpTask &t)
{
	const Plan p = g_plan;
	bool wait_first = t.spec.role == Role::Pong || t.spec.role == Role::PipePong;
	for (;;) {
		if (wait_first) {
			wait_partner(t);
			const i64 woke = now_ns();
			const i64 sent = t.sent_at.load(std::memory_order_relaxed);
			const bool in = sent >= p.t0 && sent < p.t1;
			if (smp_done(p))
				break;
			spin_cpu(t.spec.run_ns);
			const i64 at = now_ns();
			if (in) {
				t.lat.push(woke - sent);
				t.acts.push(Gap{woke, at});
			}
			wake_partner(t, at);
		} else {
			spin_cpu(t.spec.run_ns);
			wake_partner(t, now_ns());
			wait_first = true;
		}
	}
	// The partner may be waiting: let it see the end too.
	wake_partner(t, now_ns());
	t.interrupted = g_stop.load();
}

// rt-app's run/sleep: the sleep is relative, so each late wake-up shifts the
// rhythm (unlike the sleeper's absolute timer). The expected wake is the
// sleep's end.
void smp_periodic(SmpTask &t)
{
	const Plan p = g_plan;
	while (!smp_done(p)) {
		const i64 woke_prev = now_ns();
		spin_cpu(t.spec.run_ns);
		const i64 done = now_ns();
		const timespec ts = to_timespec(t.spec.sleep_ns);
		while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, nullptr) == EINTR) {
		}
		const i64 woke = now_ns();
		if (woke_prev >= p.t0 && woke_prev < p.t1)
			t.acts.push(Gap{woke_prev, done});
		if (done >= p.t0 && done < p.t1)
			t.lat.push(woke - done - t.spec.sleep_ns);
	}
	t.interrupted = g_stop.load();
}

// fork(), the child spins its CPU time and _exit()s (only async-signal-safe
// calls in it: the parent has other threads), waitpid(). The child's run is
// the partner's spec.
void smp_forker(SmpTask &t)
{
	const Plan p = g_plan;
	const i64 child_run = t.partner->spec.run_ns;
	while (!smp_done(p)) {
		spin_cpu(t.spec.run_ns);
		const i64 at = now_ns();
		const pid_t pid = fork();
		if (pid == 0) {
			prctl(PR_SET_NAME, "ep-child", 0UL, 0UL, 0UL);
			spin_cpu(child_run);
			_exit(0);
		}
		if (pid < 0) {
			t.err = errno;
			t.err_what = "fork";
			break;
		}
		t.children.push(int(pid));
		int status;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
		}
		const i64 woke = now_ns();
		if (at >= p.t0 && at < p.t1)
			t.acts.push(Gap{at, woke});
	}
	t.interrupted = g_stop.load();
}

}  // namespace

void smp_task_main(SmpTask *tp)
{
	SmpTask &t = *tp;
	t.tid = pid_t(syscall(SYS_gettid));
	prctl(PR_SET_NAME, ("ep-" + t.spec.name).c_str(), 0UL, 0UL, 0UL);
	if (t.slice_ns || t.spec.nice || t.spec.idle_policy) {
		ProbeSchedAttr attr;
		std::memset(&attr, 0, sizeof attr);
		attr.size = sizeof attr;
		attr.sched_policy = t.spec.idle_policy ? SCHED_IDLE : SCHED_OTHER;
		attr.sched_nice = t.spec.nice;
		attr.sched_runtime = t.slice_ns ? u64(*t.slice_ns) : 0;  // 0: the kernel's default slice
		if (syscall(SYS_sched_setattr, 0, &attr, 0u) != 0) {
			t.err = errno;
			t.err_what = strf("sched_setattr(%s, nice=%d, sched_runtime=%" PRId64 ")",
					  t.spec.idle_policy ? "SCHED_IDLE" : "SCHED_OTHER", t.spec.nice,
					  t.slice_ns ? *t.slice_ns : i64(0));
		}
	}
	if (t.spec.role == Role::Sleeper && prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL) != 0 && !t.err) {
		t.err = errno;
		t.err_what = "prctl(PR_SET_TIMERSLACK, 1)";
	}
	{
		std::unique_lock<std::mutex> lk(g_gate.m);
		++g_gate.ready;
		g_gate.cv.notify_all();
		g_gate.cv.wait(lk, [] { return g_gate.open; });
	}
	if (g_abort.load() || t.err != 0) {
		// A partner may already be waiting for us.
		if (t.partner && t.spec.role != Role::Forker)
			wake_partner(t, 0);
		return;
	}
	switch (t.spec.role) {
	case Role::Hog:
		smp_hog(t);
		break;
	case Role::Sleeper:
		smp_sleeper(t);
		break;
	case Role::Ping:
	case Role::Pong:
	case Role::PipePing:
	case Role::PipePong:
		smp_pingpong(t);
		break;
	case Role::Periodic:
		smp_periodic(t);
		break;
	case Role::Forker:
		smp_forker(t);
		break;
	case Role::Child:
		break;  // no thread: the forker's child processes
	}
}

}  // namespace probe
