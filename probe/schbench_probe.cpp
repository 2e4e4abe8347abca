// SPDX-License-Identifier: GPL-2.0-only
// eevdf-schbench-probe: schbench's hand-off on the running kernel, small
// enough to read in one sitting, so that `eevdf schbench` can be compared
// with it (probe/kernel_schbench_test.sh). The protocol is schbench's (as
// docs/schbench.md describes it): per-thread futex words, a lock-free LIFO
// list per message thread, a worker's wake-up latency from the message
// thread's batch time to its fwait()'s return, usleep(-s) per request, no
// matrix work (-n 0) and no per-CPU lock (-L). --stress N adds N spinning
// threads (stress-ng --cpu N). Prints one JSON document.
//
//   eevdf-schbench-probe -m 1 -t 2 -r 2 [-s 100] [--stress 2]
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int BLOCKED = 0, RUNNING = 1;

long futex(std::atomic<int>* word, int op, int val)
{
	return syscall(SYS_futex, reinterpret_cast<int*>(word), op, val, nullptr, nullptr, 0);
}

// schbench's fpost() and fwait().
void fpost(std::atomic<int>* f)
{
	int expected = BLOCKED;
	if (f->compare_exchange_strong(expected, RUNNING))
		futex(f, FUTEX_WAKE_PRIVATE, 1);
}

void fwait(std::atomic<int>* f)
{
	for (;;) {
		int expected = RUNNING;
		if (f->compare_exchange_strong(expected, BLOCKED))
			return;
		futex(f, FUTEX_WAIT_PRIVATE, BLOCKED);
	}
}

uint64_t now_ns()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

struct Worker {
	std::atomic<int> futex{BLOCKED};
	std::atomic<uint64_t> wake_time{0};
	Worker* next = nullptr;
	std::vector<uint32_t> latency_ns;  // reserved before the run
	std::atomic<uint64_t> loops{0};
};

struct Message {
	std::atomic<int> futex{BLOCKED};
	std::atomic<Worker*> head{nullptr};
};

std::atomic<bool> stop{false};
std::atomic<int> alive{0};  // threads not yet returned

void worker_loop(Message* m, Worker* w, unsigned sleep_us)
{
	while (!stop.load(std::memory_order_relaxed)) {
		w->futex.store(BLOCKED);
		Worker* old = m->head.load();
		do
			w->next = old;
		while (!m->head.compare_exchange_weak(old, w));
		fpost(&m->futex);
		fwait(&w->futex);
		const uint64_t lat = now_ns() - w->wake_time.load();
		if (w->latency_ns.size() < w->latency_ns.capacity())
			w->latency_ns.push_back(static_cast<uint32_t>(std::min<uint64_t>(lat, UINT32_MAX)));
		usleep(sleep_us);
		w->loops.fetch_add(1, std::memory_order_relaxed);
	}
	alive--;
}

void message_loop(Message* m)
{
	while (!stop.load(std::memory_order_relaxed)) {
		m->futex.store(BLOCKED);
		Worker* list = m->head.exchange(nullptr);
		const uint64_t t = now_ns();
		for (Worker* w = list; w;) {
			Worker* next = w->next;  // read before the post: the worker may push itself again
			w->wake_time.store(t);
			fpost(&w->futex);
			w = next;
		}
		fwait(&m->futex);
	}
	alive--;
}

uint64_t pct(std::vector<uint32_t>& v, unsigned tenths)
{
	if (v.empty())
		return 0;
	const size_t rank = std::max<size_t>((tenths * v.size() + 999) / 1000, 1);
	return v[rank - 1];
}

int usage(const char* why)
{
	std::fprintf(stderr, "eevdf-schbench-probe: %s\nusage: eevdf-schbench-probe [-m M] [-t T] [-r SECONDS] [-s USEC] [--stress N]\n",
		     why);
	return 2;
}

}  // namespace

int main(int argc, char** argv)
{
	int m = 1, t = 2, runtime = 2, stress = 0;
	unsigned sleep_us = 100;
	for (int i = 1; i < argc; i++) {
		const std::string a = argv[i];
		if (i + 1 >= argc)
			return usage(("option " + a + " needs a value").c_str());
		const int v = std::atoi(argv[++i]);
		if (a == "-m" && v >= 1)
			m = v;
		else if (a == "-t" && v >= 1)
			t = v;
		else if (a == "-r" && v >= 1)
			runtime = v;
		else if (a == "-s" && v >= 0)
			sleep_us = static_cast<unsigned>(v);
		else if (a == "--stress" && v >= 0)
			stress = v;
		else
			return usage(("bad option or value: " + a + " " + argv[i]).c_str());
	}
	std::vector<Message> msgs(static_cast<size_t>(m));
	std::vector<Worker> workers(static_cast<size_t>(m * t));
	for (Worker& w : workers)
		w.latency_ns.reserve(static_cast<size_t>(runtime) * 200000);
	std::vector<std::thread> threads;
	alive = stress + m + m * t;
	for (int k = 0; k < stress; k++)
		threads.emplace_back([] {
			volatile uint64_t x = 0;
			while (!stop.load(std::memory_order_relaxed))
				x = x + 1;
			alive--;
		});
	for (int i = 0; i < m; i++)
		threads.emplace_back(message_loop, &msgs[static_cast<size_t>(i)]);
	for (int i = 0; i < m; i++)
		for (int j = 0; j < t; j++)
			threads.emplace_back(worker_loop, &msgs[static_cast<size_t>(i)], &workers[static_cast<size_t>(i * t + j)],
					     sleep_us);
	std::vector<uint64_t> rps;
	uint64_t last = 0;
	for (int s = 0; s < runtime; s++) {
		std::this_thread::sleep_for(std::chrono::seconds(1));
		uint64_t total = 0;
		for (const Worker& w : workers)
			total += w.loops.load();
		rps.push_back(total - last);
		last = total;
	}
	stop.store(true);
	while (alive > 0) {  // post every word until every thread has seen the stop flag
		for (Message& msg : msgs)
			fpost(&msg.futex);
		for (Worker& w : workers)
			fpost(&w.futex);
		std::this_thread::sleep_for(std::chrono::microseconds(200));
	}
	for (std::thread& th : threads)
		th.join();
	std::vector<uint32_t> lat;
	for (const Worker& w : workers)
		lat.insert(lat.end(), w.latency_ns.begin(), w.latency_ns.end());
	std::sort(lat.begin(), lat.end());
	char release[128] = "";
	if (FILE* f = std::fopen("/proc/sys/kernel/osrelease", "r")) {
		if (std::fgets(release, sizeof release, f))
			release[std::strcspn(release, "\n")] = 0;
		std::fclose(f);
	}
	std::printf("{\"probe\": \"eevdf-schbench-probe\", \"kernel\": \"%s\", \"cpus_online\": %ld, "
		    "\"message_threads\": %d, \"workers\": %d, \"runtime_s\": %d, \"sleep_us\": %u, \"stress\": %d,\n",
		    release, sysconf(_SC_NPROCESSORS_ONLN), m, t, runtime, sleep_us, stress);
	std::printf(" \"wakeup_latency_us\": {\"count\": %zu, \"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, \"max\": %.3f},\n",
		    lat.size(), pct(lat, 500) / 1e3, pct(lat, 900) / 1e3, pct(lat, 990) / 1e3, lat.empty() ? 0.0 : lat.back() / 1e3);
	std::printf(" \"rps\": [");
	for (size_t i = 0; i < rps.size(); i++)
		std::printf("%s%llu", i ? ", " : "", static_cast<unsigned long long>(rps[i]));
	std::printf("], \"average_rps\": %.2f}\n", static_cast<double>(last) / runtime);
	return 0;
}
