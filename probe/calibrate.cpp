// SPDX-License-Identifier: GPL-2.0-only
// eevdf-calibrate: measures this machine's costs as the model charges them
// and prints a machine profile (io/profile.hpp, docs/profiles.md) on stdout;
// `eevdf calibrate` runs it, checks the profile and writes it.
//
// Each cost is a difference of two measured latencies, so that what the
// model charges once is measured once (model/profile.hpp says where each is
// charged). With H a futex hand-off, W the waker's FUTEX_WAKE call, L_t a
// timer's lateness with no slack, R_b a wake-up of a task on another CPU
// that runs a SCHED_IDLE spinner, R_i the same with that CPU idle:
//
//   futex_wake_cost    W, timed by the waker around futex(FUTEX_WAKE)
//   ipi_send_cost      W_r - median(W), W_r the waker's FUTEX_WAKE in R_b
//                      and R_i (both send an IPI), pooled
//   hrtimer_arm_cost   E_sleep - median(E_futex): a blocking call's last
//                      user-space instant -> the next task on its CPU, for
//                      a 1 ms clock_nanosleep and a FUTEX_WAIT with no timeout
//   switch_cost        H - median(W): a same-CPU hand-off is, in the model,
//                      the waker's wake call and then the switch
//   timer_delay        L_t - median(switch_cost), on an idle CPU whose
//                      timer interrupt is what wakes it
//   timer_delay_busy   the same with a SCHED_IDLE spinner on that CPU
//   tick_jitter        how much earlier than the p90 one a tick's interrupt
//                      comes, past its TICK_NSEC grid point
//   steal (measured)   /proc/stat steal over the whole run, in ppm
//   ipi_latency        R_b - median(W) - median(switch_cost)
//   idle_exit_latency  R_i - R_b, quantile by quantile
//   burst_scale        a fixed CPU-bound op's time over its median
//   run_scale          the spread of batch medians, batches 100 ms apart
//   timer_slack        this thread's timer_slack_ns (PR_GET_TIMERSLACK)
//   balance_cost       not measurable without debugfs: the default below
//
// Each measured cost is written as 101 quantiles (p0.1, p1 ... p99, p99.9:
// the extremes clipped so that one outlier does not own the top percent).
// The pipe hand-off is measured and printed beside the futex one; the
// model charges futex_wake_cost for either.
//
// Standalone: Linux, C++20, pthreads. Exit 2 when it cannot measure
// (fewer than two CPUs usable, a syscall refused).
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

namespace {

using i64 = std::int64_t;
constexpr i64 US = 1000, MS = 1000 * US, SEC = 1000 * MS;

i64 now_ns()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return i64(ts.tv_sec) * SEC + ts.tv_nsec;
}

[[noreturn]] void die(const std::string& msg)
{
	std::fprintf(stderr, "eevdf-calibrate: %s\n", msg.c_str());
	std::exit(2);
}

void pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (int e = pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		die("cannot pin to CPU " + std::to_string(cpu) + ": " + std::strerror(e));
}

long futex(std::atomic<int>* word, int op, int val)
{
	return syscall(SYS_futex, reinterpret_cast<int*>(word), op, val, nullptr, nullptr, 0);
}

void wait_while(std::atomic<int>& word, int val)
{
	while (word.load() == val)
		futex(&word, FUTEX_WAIT_PRIVATE, val);
}

// A deterministic spread of sleep lengths (1..3 ms), so that no wake-up
// locks to the tick's phase.
struct Lcg {
	unsigned long long s = 0x2545F4914F6CDD1DULL;
	i64 between(i64 lo, i64 hi)
	{
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		return lo + i64((s >> 33) % static_cast<unsigned long long>(hi - lo + 1));
	}
};

void sleep_until(i64 t)
{
	timespec ts{time_t(t / SEC), long(t % SEC)};
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR)
		;
}

i64 quantile(std::vector<i64> v, double p)
{
	std::sort(v.begin(), v.end());
	const size_t i = std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5));
	return v[i];
}

std::vector<i64> quantiles101(std::vector<i64> v)
{
	std::sort(v.begin(), v.end());
	std::vector<i64> q;
	for (int i = 0; i <= 100; i++) {
		double p = i / 100.0;
		p = std::clamp(p, 0.001, 0.999);
		q.push_back(v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))]);
	}
	return q;
}

std::vector<i64> minus(std::vector<i64> v, i64 d)
{
	for (i64& x : v)
		x = std::max<i64>(0, x - d);
	return v;
}

// ---- the measurements

// W and H: two threads on one CPU hand a futex word back and forth.
void measure_handoff(int cpu, int n, std::vector<i64>& wake, std::vector<i64>& handoff)
{
	std::atomic<int> turn{0};
	std::atomic<i64> sent{0};
	std::vector<i64> h;
	std::thread other([&] {
		pin(cpu);
		for (int i = 0; i < n; i++) {
			wait_while(turn, 0);
			h.push_back(now_ns() - sent.load());
			sent.store(now_ns());
			turn.store(0);
			futex(&turn, FUTEX_WAKE_PRIVATE, 1);
		}
	});
	pin(cpu);
	for (int i = 0; i < n; i++) {
		const i64 t0 = now_ns();
		sent.store(t0);
		turn.store(1);
		futex(&turn, FUTEX_WAKE_PRIVATE, 1);
		wake.push_back(now_ns() - t0);
		wait_while(turn, 1);
	}
	other.join();
	handoff = std::move(h);
}

// A SCHED_IDLE thread spinning on `cpu` until `stop`: the CPU is busy, yet
// any SCHED_OTHER wake-up there preempts it at once (check_preempt_wakeup_fair:
// an idle-policy curr is always preempted by a normal waker).
std::thread idle_spinner(int cpu, std::atomic<bool>& stop)
{
	return std::thread([cpu, &stop] {
		pin(cpu);
		sched_param sp{};
		if (sched_setscheduler(0, SCHED_IDLE, &sp) != 0)
			die(std::string("SCHED_IDLE refused: ") + std::strerror(errno));
		while (!stop.load(std::memory_order_relaxed))
			;
	});
}

// L_t: a thread on `cpu` sleeps to absolute deadlines with 1 ns of slack;
// the CPU is idle meanwhile, or (`busy`) runs a SCHED_IDLE spinner, so the
// timer interrupt finds a halted vCPU or a running one.
std::vector<i64> measure_timer(int cpu, int n, bool busy)
{
	std::vector<i64> late;
	std::atomic<bool> stop{false};
	std::thread spinner;
	if (busy)
		spinner = idle_spinner(cpu, stop);
	std::thread t([&] {
		pin(cpu);
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
		Lcg rng;
		for (int i = 0; i < n; i++) {
			const i64 target = now_ns() + rng.between(1 * MS, 3 * MS);
			sleep_until(target);
			late.push_back(now_ns() - target);
		}
	});
	t.join();
	stop = true;
	if (spinner.joinable())
		spinner.join();
	return late;
}

// The pipe hand-off, for comparison with the futex one (H): two threads on
// one CPU pass a byte back and forth through two pipes; `wake` is the
// writer's write() that wakes the reader. The model charges futex_wake_cost
// for every wake-up by a task, pipes included (docs/profiles.md).
void measure_pipe_handoff(int cpu, int n, std::vector<i64>& wake, std::vector<i64>& handoff)
{
	int ab[2], ba[2];
	if (pipe(ab) != 0 || pipe(ba) != 0)
		die(std::string("pipe: ") + std::strerror(errno));
	std::atomic<i64> sent{0};
	std::vector<i64> h;
	std::thread other([&] {
		pin(cpu);
		char c;
		for (int i = 0; i < n; i++) {
			if (read(ab[0], &c, 1) != 1)
				die("pipe read failed");
			h.push_back(now_ns() - sent.load());
			sent.store(now_ns());
			if (write(ba[1], &c, 1) != 1)
				die("pipe write failed");
		}
	});
	pin(cpu);
	char c = 0;
	for (int i = 0; i < n; i++) {
		const i64 t0 = now_ns();
		sent.store(t0);
		if (write(ab[1], &c, 1) != 1)
			die("pipe write failed");
		wake.push_back(now_ns() - t0);
		if (read(ba[0], &c, 1) != 1)
			die("pipe read failed");
	}
	other.join();
	handoff = std::move(h);
	for (int fd : {ab[0], ab[1], ba[0], ba[1]})
		close(fd);
}

// tick_jitter: a thread spinning on `cpu` for `ns` sees each interrupt as a
// gap in its clock reads; the tick's gaps start near the TICK_NSEC grid of
// CLOCK_MONOTONIC (tick_setup_sched_timer(), skew_tick=0). Their offsets
// past the grid spread by the timer interrupt's delivery; the model's
// tick_jitter is how much EARLIER a tick comes than the p90 one.
std::vector<i64> measure_tick_jitter(int cpu, i64 tick_ns, i64 ns)
{
	std::vector<i64> offsets;
	std::thread t([&] {
		pin(cpu);
		const i64 end = now_ns() + ns;
		i64 prev = now_ns(), last_grid = -1;
		while (prev < end) {
			const i64 now = now_ns();
			const i64 at = prev % tick_ns, grid = prev / tick_ns;
			// The first gap of 1..100 us that starts within 200 us after a
			// grid point, one per grid point: an interrupt handler, not a
			// preemption (ms), and not a second interrupt in the window.
			if (now - prev > 1 * US && now - prev < 100 * US && at < 200 * US && grid != last_grid) {
				offsets.push_back(at);
				last_grid = grid;
			}
			prev = now;
		}
	});
	t.join();
	std::vector<i64> early;
	if (offsets.size() < 20)
		return early;
	// The model's ticks can come early but not late: the p90 offset is its
	// on-time tick, and the later 10 % (another interrupt first, the host
	// busy) are taken as on time.
	const i64 latest = quantile(offsets, 0.9);
	for (i64 o : offsets)
		early.push_back(std::max<i64>(0, latest - o));
	return early;
}

// Steal: the "steal" column of /proc/stat's "cpu" line (USER_HZ ticks),
// with the line's total, so that steal_ppm = Δsteal / Δtotal.
struct CpuTimes {
	unsigned long long steal = 0, total = 0;
};
CpuTimes read_cpu_times()
{
	CpuTimes t;
	if (FILE* f = std::fopen("/proc/stat", "r")) {
		unsigned long long v[10] = {};
		if (std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
				&v[4], &v[5], &v[6], &v[7], &v[8], &v[9]) >= 8) {
			t.steal = v[7];
			for (int i = 0; i < 8; i++)  // guest time is already in user
				t.total += v[i];
		}
		std::fclose(f);
	}
	return t;
}

// R: a waker on `from` wakes a sleeper on `to` (idle, or running a
// SCHED_IDLE spinner when `busy`), the sleeper timing its own start; the
// waker times its futex(FUTEX_WAKE) into `wake` (W_r: it sends an IPI).
std::vector<i64> measure_remote_wake(int from, int to, int n, bool busy, std::vector<i64>& wake)
{
	std::atomic<int> word{0};
	std::atomic<i64> sent{0};
	std::atomic<bool> stop{false};
	std::vector<i64> lat;
	std::thread spinner;
	if (busy)
		spinner = idle_spinner(to, stop);
	std::thread sleeper([&] {
		pin(to);
		for (int i = 0; i < n; i++) {
			wait_while(word, 0);
			lat.push_back(now_ns() - sent.load());
			word.store(0);
		}
	});
	pin(from);
	Lcg rng;
	for (int i = 0; i < n; i++) {
		sleep_until(now_ns() + rng.between(1 * MS, 3 * MS));
		while (word.load() != 0)
			std::this_thread::yield();
		const i64 t0 = now_ns();
		sent.store(t0);
		word.store(1);
		futex(&word, FUTEX_WAKE_PRIVATE, 1);
		wake.push_back(now_ns() - t0);
	}
	sleeper.join();
	stop.store(true);
	if (busy)
		spinner.join();
	return lat;
}

// E: how long a blocking call takes from its last user-space instant until
// another task runs on its CPU (the call's entry, arming what wakes it,
// schedule() and the switch). A SCHED_IDLE thread on `cpu` records the gaps
// in its own clock reads; the sleeper, on the same CPU, notes when it calls
// clock_nanosleep(1 ms, 1 ns of slack: an hrtimer armed) or, alternately,
// FUTEX_WAIT with no timeout (no timer; a thread on `other` wakes it each
// millisecond). Each call's E is the end of the gap that holds its instant.
// hrtimer_arm_cost = E_sleep - median(E_futex): the switch cost already
// holds a futex wait's entry (H includes it), so what a sleep adds is its
// timer's arming.
void measure_block_entry(int cpu, int other, int n, std::vector<i64>& sleep_e, std::vector<i64>& futex_e)
{
	std::vector<std::pair<i64, i64>> gaps;
	gaps.reserve(size_t(n) * 16);
	std::atomic<bool> stop{false};
	std::atomic<int> word{0};
	std::thread gapper([&] {
		pin(cpu);
		sched_param sp{};
		if (sched_setscheduler(0, SCHED_IDLE, &sp) != 0)
			die(std::string("SCHED_IDLE refused: ") + std::strerror(errno));
		i64 prev = now_ns();
		while (!stop.load(std::memory_order_relaxed)) {
			const i64 t = now_ns();
			if (t - prev > 1 * US && gaps.size() < gaps.capacity())
				gaps.emplace_back(prev, t);
			prev = t;
		}
	});
	std::thread waker([&] {
		pin(other);
		while (!stop.load()) {
			sleep_until(now_ns() + 1 * MS);
			word.store(1);
			futex(&word, FUTEX_WAKE_PRIVATE, 1);
		}
	});
	std::vector<i64> at[2];
	std::thread sleeper([&] {
		pin(cpu);
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
		for (int i = 0; i < 2 * n; i++) {
			const i64 t0 = now_ns();
			if (i % 2 == 0) {
				timespec ts{0, long(1 * MS)};
				clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, nullptr);
			} else {
				word.store(0);
				futex(&word, FUTEX_WAIT_PRIVATE, 0);
			}
			at[i % 2].push_back(t0);
		}
	});
	sleeper.join();
	stop.store(true);
	gapper.join();
	waker.join();
	for (int k = 0; k < 2; k++)
		for (i64 t0 : at[k]) {
			auto it = std::upper_bound(gaps.begin(), gaps.end(), std::make_pair(t0, INT64_MAX));
			if (it == gaps.begin())
				continue;
			--it;
			if (it->first <= t0 && t0 < it->second)  // else it did not block (the word was set)
				(k == 0 ? sleep_e : futex_e).push_back(it->second - t0);
		}
}

// An op of fixed work: `iters` rounds of a dependent multiply chain.
volatile unsigned long long sink;
i64 op(unsigned long long iters)
{
	const i64 t0 = now_ns();
	unsigned long long x = 1;
	for (unsigned long long i = 0; i < iters; i++)
		x = x * 6364136223846793005ULL + i;
	sink = x;
	return now_ns() - t0;
}

// burst_scale and run_scale, in ppm of the median op (about 1 ms).
void measure_ops(int cpu, int n, int batches, std::vector<i64>& burst, std::vector<i64>& run)
{
	std::thread t([&] {
		pin(cpu);
		unsigned long long iters = 1000;
		while (op(iters) < 1 * MS)
			iters *= 2;
		std::vector<i64> all, medians;
		for (int b = 0; b < batches; b++) {
			std::vector<i64> ops;
			for (int i = 0; i < n / batches; i++)
				ops.push_back(op(iters));
			medians.push_back(quantile(ops, 0.5));
			all.insert(all.end(), ops.begin(), ops.end());
			sleep_until(now_ns() + 100 * MS);
		}
		const i64 m = quantile(all, 0.5);
		for (i64 x : all)
			burst.push_back(x * 1000000 / m);
		for (i64 x : medians)
			run.push_back(x * 1000000 / m);
	});
	t.join();
}

// ---- the profile

std::string ns(i64 v) { return "\"" + std::to_string(v) + "ns\""; }

std::string ppm(i64 v)
{
	char buf[32];
	std::snprintf(buf, sizeof buf, "%" PRId64 ".%06" PRId64, v / 1000000, v % 1000000);
	return buf;
}

std::string empirical(const std::vector<i64>& v, std::string (*fmt)(i64))
{
	std::string s = "{\"empirical\": [";
	const std::vector<i64> q = quantiles101(v);
	for (size_t i = 0; i < q.size(); i++)
		s += (i ? ", " : "") + fmt(q[i]);
	return s + "]}";
}

std::string quote(const std::string& s)
{
	std::string o = "\"";
	for (char c : s) {
		if (c == '"' || c == '\\')
			o += '\\';
		if (static_cast<unsigned char>(c) >= 0x20)
			o += c;
	}
	return o + "\"";
}

void summary(const char* what, const std::vector<i64>& v)
{
	std::fprintf(stderr, "  %-36s p1 %7.1f  p50 %7.1f  p90 %7.1f  p99 %8.1f us (%zu samples)\n", what,
		     double(quantile(v, 0.01)) / US, double(quantile(v, 0.5)) / US, double(quantile(v, 0.9)) / US,
		     double(quantile(v, 0.99)) / US, v.size());
}

}  // namespace

int main(int argc, char** argv)
{
	int n = 2000;
	std::string name = "this-machine", command = "eevdf calibrate";
	for (int i = 1; i < argc; i++) {
		const std::string a = argv[i];
		if (a == "--samples" && i + 1 < argc) {
			char* end = nullptr;
			const long v = std::strtol(argv[++i], &end, 10);
			if (!end || *end || v < 100 || v > 100000)
				die("--samples: expected 100..100000, got '" + std::string(argv[i]) + "'");
			n = int(v);
		} else if (a == "--name" && i + 1 < argc) {
			name = argv[++i];
		} else if (a == "--command" && i + 1 < argc) {
			command = argv[++i];
		} else {
			std::fprintf(stderr, "usage: eevdf-calibrate [--samples N] [--name NAME] [--command TEXT]\n");
			return a == "--help" ? 0 : 2;
		}
	}
	cpu_set_t online;
	if (sched_getaffinity(0, sizeof online, &online) != 0 || CPU_COUNT(&online) < 2)
		die("needs two CPUs it may run on (the remote wake-up is measured between two)");
	int a = -1, b = -1;
	for (int c = 0; c < CPU_SETSIZE && b < 0; c++)
		if (CPU_ISSET(c, &online))
			(a < 0 ? a : b) = c;
	std::fprintf(stderr, "eevdf-calibrate: %d samples each, CPUs %d and %d\n", n, a, b);

	utsname u{};
	uname(&u);
	// CONFIG_HZ from the running kernel's config, where the distribution ships it.
	std::string hz;
	// (/boot/config-RELEASE, else /proc/config.gz through gzip).
	const std::string boot = std::string("/boot/config-") + u.release;
	const bool from_boot = access(boot.c_str(), R_OK) == 0;
	if (FILE* f = from_boot ? std::fopen(boot.c_str(), "r") : popen("gzip -dc /proc/config.gz 2>/dev/null", "r")) {
		char line[512];
		while (std::fgets(line, sizeof line, f))
			if (std::strncmp(line, "CONFIG_HZ=", 10) == 0)
				hz = std::to_string(std::strtol(line + 10, nullptr, 10));
		from_boot ? std::fclose(f) : pclose(f);
	}
	const CpuTimes before = read_cpu_times();
	std::vector<i64> wake, handoff;
	measure_handoff(a, n * 5, wake, handoff);
	const i64 w50 = quantile(wake, 0.5);
	const std::vector<i64> sw = minus(handoff, w50);
	const i64 sw50 = quantile(sw, 0.5);
	const std::vector<i64> timer = measure_timer(b, n, false);
	const std::vector<i64> timer_busy = measure_timer(b, n, true);
	std::vector<i64> pipe_wake, pipe_handoff;
	measure_pipe_handoff(a, n * 5, pipe_wake, pipe_handoff);
	const i64 tick_ns = hz.empty() || hz == "0" ? 0 : SEC / std::stol(hz);
	// 2 s of spinning: 500 ticks at HZ=250
	const std::vector<i64> tick_early = tick_ns ? measure_tick_jitter(b, tick_ns, 2 * SEC) : std::vector<i64>{};
	std::vector<i64> wake_busy, wake_idle;
	const std::vector<i64> busy = measure_remote_wake(a, b, n, true, wake_busy);
	const std::vector<i64> idle = measure_remote_wake(a, b, n, false, wake_idle);
	// Both send an IPI (a wakelist's to the idle CPU, resched_curr()'s to
	// the busy one): one cost, pooled.
	std::vector<i64> ipi_send = minus(wake_idle, w50), send_busy = minus(wake_busy, w50);
	ipi_send.insert(ipi_send.end(), send_busy.begin(), send_busy.end());
	std::vector<i64> ipi = minus(busy, w50 + sw50);
	std::vector<i64> exit_q = quantiles101(idle), busy_q = quantiles101(busy);
	for (size_t i = 0; i < exit_q.size(); i++)
		exit_q[i] = std::max<i64>(0, exit_q[i] - busy_q[i]);
	std::sort(exit_q.begin(), exit_q.end());
	std::vector<i64> sleep_entry, futex_entry;
	measure_block_entry(b, a, n, sleep_entry, futex_entry);
	std::vector<i64> burst, run;
	measure_ops(a, n, 10, burst, run);
	const long slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	const CpuTimes after = read_cpu_times();
	const unsigned long long dt = after.total - before.total;
	const long long steal_ppm = dt ? (long long)((after.steal - before.steal) * 1000000ULL / dt) : 0;

	std::fprintf(stderr, "measured:\n");
	summary("futex_wake_cost (W)", wake);
	summary("same-CPU hand-off (H)", handoff);
	summary("timer lateness, idle CPU, no slack", timer);
	summary("timer lateness, busy CPU, no slack", timer_busy);
	summary("pipe write() that wakes (not charged)", pipe_wake);
	summary("same-CPU pipe hand-off", pipe_handoff);
	if (!tick_early.empty())
		summary("tick earlier than the p90 tick", tick_early);
	else
		std::fprintf(stderr, "  tick_jitter not measured (no CONFIG_HZ, or too few ticks seen): left 0\n");
	summary("remote wake-up, SCHED_IDLE spinner", busy);
	summary("remote wake-up, idle CPU", idle);
	summary("FUTEX_WAKE to the spinner's CPU (W_rb)", wake_busy);
	summary("FUTEX_WAKE to the idle CPU (W_ri)", wake_idle);
	if (!sleep_entry.empty() && !futex_entry.empty()) {
		summary("sleep's entry -> next task (E_sleep)", sleep_entry);
		summary("futex wait's entry -> next task", futex_entry);
	}
	std::fprintf(stderr, "  op time spread (ppm of median)      p1 %" PRId64 "  p99 %" PRId64 "\n",
		     quantile(burst, 0.01), quantile(burst, 0.99));
	std::fprintf(stderr, "  timer_slack_ns %ld; balance_cost not measurable here (debugfs): 2 us assumed\n", slack);
	std::fprintf(stderr, "  host steal while measuring: %lld ppm of the CPUs' time (the model has none)\n", steal_ppm);

	char date[16] = "";
	const time_t now = time(nullptr);
	tm t{};
	gmtime_r(&now, &t);
	std::strftime(date, sizeof date, "%Y-%m-%d", &t);

	std::string s = "{\n  \"eevdf_profile\": 1,\n  \"name\": " + quote(name) + ",\n";
	s += "  \"measured\": {\"kernel\": " + quote(u.release) + (hz.empty() || hz == "0" ? "" : ", \"hz\": " + hz) + ", \"cpus\": " +
	     std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + ", \"date\": " + quote(date) +
	     ", \"command\": " + quote(command) + ", \"steal_ppm\": " + std::to_string(std::min(steal_ppm, 1000000LL)) +
	     "},\n";
	s += "  \"timer_slack\": " + ns(slack > 0 ? slack : 0) + ",\n";
	s += "  \"switch_cost\": " + empirical(sw, ns) + ",\n";
	s += "  \"futex_wake_cost\": " + empirical(wake, ns) + ",\n";
	s += "  \"ipi_send_cost\": " + empirical(ipi_send, ns) + ",\n";
	if (!sleep_entry.empty() && !futex_entry.empty())
		s += "  \"hrtimer_arm_cost\": " + empirical(minus(sleep_entry, quantile(futex_entry, 0.5)), ns) + ",\n";
	s += "  \"timer_delay\": " + empirical(minus(timer, sw50), ns) + ",\n";
	s += "  \"timer_delay_busy\": " + empirical(minus(timer_busy, sw50), ns) + ",\n";
	if (!tick_early.empty())
		s += "  \"tick_jitter\": " + empirical(tick_early, ns) + ",\n";
	s += "  \"ipi_latency\": " + empirical(ipi, ns) + ",\n";
	s += "  \"idle_exit_latency\": {\"empirical\": [";
	for (size_t i = 0; i < exit_q.size(); i++)
		s += (i ? ", " : "") + ns(exit_q[i]);
	s += "]},\n";
	s += "  \"balance_cost\": \"2us\",\n";
	s += "  \"burst_scale\": " + empirical(burst, ppm) + ",\n";
	s += "  \"run_scale\": " + empirical(run, ppm) + "\n}\n";
	std::fputs(s.c_str(), stdout);
	return std::fflush(stdout) == 0 ? 0 : 2;
}
