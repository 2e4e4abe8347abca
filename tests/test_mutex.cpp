// SPDX-License-Identifier: GPL-2.0-only
// rt-app's lock/unlock and condition variables on glibc's futex-based
// mutex (issue 17): a thread that finds the mutex held sleeps on its futex;
// unlock wakes the longest waiter, which must take the mutex again when it
// runs (no hand-off). Schedules worked out by hand from glibc's lll_lock /
// lll_unlock, pthread_cond_wait / signal / broadcast and the kernel's
// FIFO futex queue; each thread is pinned to its own idle CPU, so every
// wake-up runs the woken thread at once and no EEVDF decision is involved.
#include <catch2/catch.hpp>

#include "io/rtapp.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;

namespace {

Recorder run_file(const char* json, u32 cpus, u64 duration)
{
	return simulate(make_config(*find_preset("6.18"), 1000, cpus), parse_rtapp(json, "mutex.json"), duration);
}

}  // namespace

TEST_CASE("unlock wakes the longest waiter, but the unlocker that locks again at once keeps the mutex")
{
	// a holds m 0-3 ms, unlocks and locks again at once, holds it to 6 ms.
	// b blocks on m at 1 ms, c at 2 ms: the futex queue is [b, c]. At 3 ms
	// unlock wakes b, but a has retaken m before b runs: b swaps in 2, finds
	// it held and queues again, behind c: [c, b]. At 6 ms c is woken and
	// takes m (2 ms of work, to 8 ms); its unlock wakes b, which works 8-10.
	// The first to wait is served last: glibc's mutex is not FIFO.
	const Recorder r = run_file(R"({"tasks": {
		"a": {"cpus": [0], "loop": 1, "lock": "m", "run": 3000, "unlock": "m", "lock1": "m", "run1": 3000, "unlock1": "m"},
		"b": {"cpus": [1], "loop": 1, "sleep": 1000, "lock": "m", "run": 2000, "unlock": "m"},
		"c": {"cpus": [2], "loop": 1, "sleep": 2000, "lock": "m", "run": 2000, "unlock": "m"}}})",
				    3, 20 * MS);
	CHECK(r.switch_ins(0) == std::vector<u64>{0});
	CHECK(r.switch_outs(0) == std::vector<u64>{6 * MS});
	CHECK(r.switch_ins(1) == std::vector<u64>{0, 1 * MS, 3 * MS, 8 * MS});
	CHECK(r.switch_outs(1) == std::vector<u64>{0, 1 * MS, 3 * MS, 10 * MS});
	CHECK(r.switch_ins(2) == std::vector<u64>{0, 2 * MS, 6 * MS});
	CHECK(r.switch_outs(2) == std::vector<u64>{0, 2 * MS, 8 * MS});
}

TEST_CASE("a thread signalled inside the signaller's critical section blocks on the mutex as it returns")
{
	// w locks m and waits on q (which unlocks m) at 0. s locks m at 1 ms,
	// signals q and works 2 ms holding m: w wakes at 1 ms, fails to retake m
	// and sleeps on it; s's unlock at 3 ms wakes it, and w works 3-4 ms.
	const Recorder r = run_file(R"({"tasks": {
		"s": {"cpus": [0], "loop": 1, "sleep": 1000, "lock": "m", "signal": "q", "run": 2000, "unlock": "m", "run1": 5000},
		"w": {"cpus": [1], "loop": 1, "lock": "m", "wait": {"ref": "q", "mutex": "m"}, "run": 1000, "unlock": "m"}}})",
				    2, 20 * MS);
	CHECK(r.switch_ins(1) == std::vector<u64>{0, 1 * MS, 3 * MS});
	CHECK(r.switch_outs(1) == std::vector<u64>{0, 1 * MS, 4 * MS});
	CHECK(r.switch_outs(0) == std::vector<u64>{0, 8 * MS});
}

TEST_CASE("a mutex free when the woken waiter runs is taken at once")
{
	// As above, but s unlocks before its run: w wakes at 1 ms and goes on.
	const Recorder r = run_file(R"({"tasks": {
		"s": {"cpus": [0], "loop": 1, "sleep": 1000, "lock": "m", "signal": "q", "unlock": "m", "run": 2000},
		"w": {"cpus": [1], "loop": 1, "lock": "m", "wait": {"ref": "q", "mutex": "m"}, "run": 1000, "unlock": "m"}}})",
				    2, 20 * MS);
	CHECK(r.switch_ins(1) == std::vector<u64>{0, 1 * MS});
	CHECK(r.switch_outs(1) == std::vector<u64>{0, 2 * MS});
}

TEST_CASE("signal wakes the condition's longest waiter only")
{
	// w0 waits from 0, w1 from 1 ms; s signals at 2 ms and at 4 ms.
	const Recorder r = run_file(R"({"tasks": {
		"s":  {"cpus": [0], "loop": 1, "sleep": 2000, "signal": "q", "sleep1": 2000, "signal1": "q", "run": 1000},
		"w0": {"cpus": [1], "loop": 1, "lock": "m", "wait": {"ref": "q", "mutex": "m"}, "unlock": "m", "run": 500},
		"w1": {"cpus": [2], "loop": 1, "sleep": 1000, "lock": "m", "wait": {"ref": "q", "mutex": "m"}, "unlock": "m",
		       "run": 500}}})",
				    3, 20 * MS);
	CHECK(r.switch_ins(1) == std::vector<u64>{0, 2 * MS});
	CHECK(r.switch_ins(2) == std::vector<u64>{0, 1 * MS, 4 * MS});
}

TEST_CASE("broadcast wakes every waiter of the condition; a signal with no waiter is lost")
{
	// s signals at 1 ms before anyone waits (lost), then broadcasts at 3 ms:
	// w0 (waiting since 0) and w1 (since 2 ms) both wake at 3 ms.
	const Recorder r = run_file(R"({"tasks": {
		"s":  {"cpus": [0], "loop": 1, "sleep": 1000, "signal": "q", "sleep1": 2000, "broad": "q", "run": 1000},
		"w0": {"cpus": [1], "loop": 1, "sleep": 1500, "lock": "m", "wait": {"ref": "q", "mutex": "m"}, "unlock": "m",
		       "run": 500},
		"w1": {"cpus": [2], "loop": 1, "sleep": 2000, "lock": "m", "wait": {"ref": "q", "mutex": "m"}, "unlock": "m",
		       "run": 500}}})",
				    3, 20 * MS);
	CHECK(r.switch_ins(1) == std::vector<u64>{0, 1500 * US, 3 * MS});
	CHECK(r.switch_ins(2) == std::vector<u64>{0, 2 * MS, 3 * MS});
}

TEST_CASE("a broadcast wakes its waiters in the order they began waiting")
{
	// One CPU: w1 (task 2) waits from 0, w0 (task 1) from 1 ms; s wakes
	// from its sleep at 3 ms and broadcasts: w1 is woken first.
	Recorder wakes;
	Workload w = parse_rtapp(R"({"tasks": {
		"s":  {"loop": 1, "sleep": 3000, "broad": "q", "sleep1": 10000},
		"w0": {"loop": 1, "sleep": 1000, "suspend": "q", "run": 500},
		"w1": {"loop": 1, "suspend": "q", "run": 500}}})",
				 "broad.json");
	w.duration = 20 * MS;
	Simulation sim(make_config(*find_preset("6.18"), 1000), w);
	sim.add_observer(&wakes);
	sim.run();
	std::vector<int> order;
	for (const auto& [t, task] : wakes.wakeups)
		if (t == 3 * MS && task != 0)
			order.push_back(task);
	CHECK(order == std::vector<int>{2, 1});
}

TEST_CASE("a resume after the program's last suspend ends it")
{
	// a's program ends with its suspend at 1 ms; b's resume at 4 ms wakes it
	// and it preempts b (which has run 3 ms, past its slice) just to exit.
	// Once a crash: the waker read the event past the end of a's program.
	const Recorder r = run_file(R"({"tasks": {
		"a": {"loop": 1, "run": 1000, "suspend": "x"},
		"b": {"loop": 1, "run": 3000, "resume": "x", "run1": 1000}}})",
				    1, 20 * MS);
	CHECK(r.switch_ins(0) == std::vector<u64>{0, 4 * MS});
	CHECK(r.switch_outs(0) == std::vector<u64>{1 * MS, 4 * MS});
}

TEST_CASE("a waiter woken by pthread_cond_wait's unlock preempts the waiting thread before it sleeps")
{
	// One CPU, HZ=1000. a locks m and works 3 ms. b, forked behind it, is
	// picked at the 1 ms tick (a's request is used up) and sleeps 1 ms; at
	// 2 ms it wakes, preempts a (its lag is positive), finds m held and
	// sleeps on it; a goes on. At 3 ms a calls pthread_cond_wait(q, m): the
	// unlock's FUTEX_WAKE wakes b, and that wake-up preempts a on the return
	// from the call, before its futex_wait: a is switched out still
	// runnable. b takes m, works 1 ms and exits at 4 ms; a runs again and
	// only then sleeps on q (before the fix a slept at 3 ms, and the CPU
	// went idle at 4 ms straight from b).
	const Recorder r = run_file(R"({"tasks": {
		"a": {"loop": 1, "lock": "m", "run": 3000, "wait": {"ref": "q", "mutex": "m"}, "run1": 1000},
		"b": {"loop": 1, "sleep": 1000, "lock": "m", "run": 1000, "unlock": "m"}}})",
				    1, 20 * MS);
	CHECK(r.switches == std::vector<Switch>{{0, IDLE, 0}, {1 * MS, 0, 1}, {1 * MS, 1, 0}, {2 * MS, 0, 1},
						{2 * MS, 1, 0}, {3 * MS, 0, 1}, {4 * MS, 1, 0}, {4 * MS, 0, IDLE}});
}

TEST_CASE("a signal that finds the waiter preempted inside pthread_cond_wait keeps it from sleeping")
{
	// As above, but b signals q once it holds m: a is already a waiter of q
	// (it registered before the unlock) and not yet asleep, so the signal
	// takes it off q and wakes nobody; when a runs at 4 ms its futex_wait
	// returns at once, it takes m again, works 1 ms and exits at 5 ms.
	const Recorder r = run_file(R"({"tasks": {
		"a": {"loop": 1, "lock": "m", "run": 3000, "wait": {"ref": "q", "mutex": "m"}, "run1": 1000, "unlock": "m"},
		"b": {"loop": 1, "sleep": 1000, "lock": "m", "signal": "q", "run": 1000, "unlock": "m"}}})",
				    1, 20 * MS);
	CHECK(r.switches == std::vector<Switch>{{0, IDLE, 0}, {1 * MS, 0, 1}, {1 * MS, 1, 0}, {2 * MS, 0, 1},
						{2 * MS, 1, 0}, {3 * MS, 0, 1}, {4 * MS, 1, 0}, {5 * MS, 0, IDLE}});
	// a is enqueued once, at its fork: the signal woke nobody.
	std::vector<u64> woken_a;
	for (const auto& [t, task] : r.wakeups)
		if (task == 0)
			woken_a.push_back(t);
	CHECK(woken_a == std::vector<u64>{0});
}
