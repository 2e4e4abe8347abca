// SPDX-License-Identifier: GPL-2.0-only
// A trace's tasks as a workload: bursts, sleeps, start, nice and CPUs as the
// trace shows them, each worked out by hand from the lines.
#include <catch2/catch.hpp>

#include <sstream>

#include "io/rtapp.hpp"
#include "props/workload_dsl.hpp"
#include "trace/to_workload.hpp"

using namespace eevdf;
using namespace eevdf::test;
using trace::Reader;
using trace::ToWorkloadOptions;
using trace::ToWorkloadResult;

namespace {

ToWorkloadResult convert(const std::string& text, ToWorkloadOptions o = {})
{
	std::istringstream in(text);
	Reader r(in, "t.trace");
	return trace::to_workload(r, o);
}

// Two CPUs. a (10, nice 0) runs on CPU 0 from the start: 1 ms, preempted by
// b for 1 ms (the burst goes on), 1 ms more, then wakes b's partner... a
// sleeps at 3 ms; b (11, prio 125 = nice 5) was forked at 0.5 ms and ran
// 1..2 ms, then slept until a woke it (in task context) at 4 ms... no: a is
// asleep then, so the waker is the idle context, a timed sleep.
const char* TRACE =
	"# entries-in-buffer/entries-written: 8/8   #P:2\n"
	"a-10 [000] d..2. 0.000000: sched_waking: comm=x pid=99 prio=120 target_cpu=001\n"
	"a-10 [000] d..2. 0.000500: sched_wakeup_new: comm=b pid=11 prio=125 target_cpu=000\n"
	"a-10 [000] d..2. 0.001000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=R+ ==> next_comm=b next_pid=11 next_prio=125\n"
	"b-11 [000] d..2. 0.002000: sched_switch: prev_comm=b prev_pid=11 prev_prio=125 prev_state=S ==> next_comm=a next_pid=10 next_prio=120\n"
	"a-10 [000] d..2. 0.003000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
	"<idle>-0 [000] dNh2. 0.004000: sched_waking: comm=b pid=11 prio=125 target_cpu=000\n"
	"<idle>-0 [000] dNh2. 0.004000: sched_wakeup: comm=b pid=11 prio=125 target_cpu=000\n"
	"<idle>-0 [000] d..2. 0.004000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=11 next_prio=125\n"
	"b-11 [000] d..2. 0.004500: sched_waking: comm=a pid=10 prio=120 target_cpu=000\n"
	"b-11 [000] d..2. 0.004500: sched_wakeup: comm=a pid=10 prio=120 target_cpu=000\n"
	"b-11 [000] d..2. 0.005000: sched_switch: prev_comm=b prev_pid=11 prev_prio=125 prev_state=S ==> next_comm=a next_pid=10 next_prio=120\n"
	"a-10 [000] d..2. 0.006000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";

}  // namespace

TEST_CASE("a burst is the CPU time from a wake-up to the next sleep; a preemption does not end it")
{
	const ToWorkloadResult r = convert(TRACE);
	REQUIRE(r.workload.tasks.size() == 2);
	const TaskSpec& a = r.workload.tasks[0];
	CHECK(a.name == "a-10");
	CHECK(a.delay == 0);
	// 0..1 and 2..3 ms on the CPU, asleep 3..4.5 ms (woken by b), 5..6 ms on the CPU
	CHECK(a.phases.at(0).events == std::vector<Event>{run(2000 * US), sleep(1500 * US), run(1000 * US)});
}

TEST_CASE("a forked task starts at its sched_wakeup_new and takes its nice from its prio")
{
	const ToWorkloadResult r = convert(TRACE);
	const TaskSpec& b = r.workload.tasks[1];
	CHECK(b.name == "b-11");
	CHECK(b.delay == 500000);
	CHECK(b.nice == 5);
	// 1..2 ms, asleep until the interrupt-context wake-up at 4 ms, 4..5 ms,
	// and asleep from 5 ms to the trace's end at 6 ms
	CHECK(b.phases.at(0).events ==
	      std::vector<Event>{run(1000 * US), sleep(2000 * US), run(1000 * US), sleep(1000 * US)});
}

TEST_CASE("with resume, a wake-up by another replayed task in task context is suspend/resume")
{
	ToWorkloadOptions o;
	o.resume = true;
	const ToWorkloadResult r = convert(TRACE, o);
	const TaskSpec& a = r.workload.tasks[0];
	const TaskSpec& b = r.workload.tasks[1];
	const int ra = r.workload.refs.empty() ? -1 : 0;
	REQUIRE(ra == 0);
	// b woke a at 4.5 ms, half-way through its 1 ms burst
	CHECK(b.phases.at(0).events == std::vector<Event>{run(1000 * US), sleep(2000 * US), run(500 * US), resume(0),
							  run(500 * US), sleep(1000 * US)});
	CHECK(a.phases.at(0).events == std::vector<Event>{run(2000 * US), suspend(0), run(1000 * US)});
	CHECK(r.workload.refs.at(0) == "a-10");
	CHECK(r.suspends == 1);
}

TEST_CASE("a task that ran on some but not all CPUs since its exec is given those CPUs")
{
	const ToWorkloadResult r = convert(TRACE);
	CHECK(r.workload.tasks[0].cpus == std::vector<u32>{0});
	ToWorkloadOptions o;
	o.affinity = false;
	CHECK(convert(TRACE, o).workload.tasks[0].cpus.empty());
}

TEST_CASE("the workload is rt-app that the model reads back unchanged")
{
	const ToWorkloadResult r = convert(TRACE);
	const Workload back = parse_rtapp(to_rtapp_json(r.workload), "w.json");
	CHECK(back.tasks == r.workload.tasks);
}

TEST_CASE("a task selected out is left out; an RT task is left out with the reason")
{
	ToWorkloadOptions o;
	o.select = [](const std::string& comm, int) { return comm == "b"; };
	const ToWorkloadResult r = convert(TRACE, o);
	REQUIRE(r.workload.tasks.size() == 1);
	CHECK(r.workload.tasks[0].name == "b-11");
	const ToWorkloadResult rt = convert("a-10 [000] 0.000000: sched_switch: prev_comm=a prev_pid=10 prev_prio=50 prev_state=S ==> "
					    "next_comm=swapper/0 next_pid=0 next_prio=120\n"
					    "x-1 [001] 0.001000: sched_wakeup: comm=y pid=2 prio=120 target_cpu=000\n");
	// x (1) ran on CPU 1 throughout (the context of its line)
	REQUIRE(rt.workload.tasks.size() == 1);
	CHECK(rt.workload.tasks[0].name == "x-1");
	REQUIRE(rt.left_out.size() == 2);
	CHECK(rt.left_out[0] == "y-2: never ran in the trace");
	CHECK(rt.left_out[1] == "a-10: an RT task (prio 50); the model is the fair class");
}

TEST_CASE("a comm's bytes outside printable ASCII become '_' in the task's name")
{
	// found by fuzz_trace_reader: a comm cut inside a UTF-8 character made
	// a name the JSON reader refuses
	const ToWorkloadResult r = convert("a\xc3-10 [000] 0.000000: sched_wakeup: comm=x pid=99 prio=120 target_cpu=001\n"
					   "a\xc3-10 [000] 0.001000: sched_wakeup: comm=x pid=99 prio=120 target_cpu=001\n");
	REQUIRE(r.workload.tasks.size() == 1);
	CHECK(r.workload.tasks[0].name == "a_-10");
	CHECK(parse_rtapp(to_rtapp_json(r.workload), "w.json").tasks == r.workload.tasks);
}

TEST_CASE("a run whose switch out is missing ends at the next task's wake-up, not at the end of the trace")
{
	// CPU 0 switches to c at 0; the next line on CPU 0 (2.5 ms) is in b's
	// context, with no switch c -> b. b was woken at 2 ms, so c ran at least
	// until then; the rest of [0, 2.5] ms is nobody's, as `trace stats`
	// counts it. b runs from 2.5 ms and sleeps at 3 ms; the trace ends at 5 ms.
	const ToWorkloadResult r = convert(
		"# entries-in-buffer/entries-written: 6/6   #P:2\n"
		"a-10 [000] d..2. 0.000000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=c next_pid=12 next_prio=120\n"
		"<idle>-0 [001] dNh2. 0.002000: sched_waking: comm=b pid=11 prio=120 target_cpu=000\n"
		"<idle>-0 [001] dNh2. 0.002000: sched_wakeup: comm=b pid=11 prio=120 target_cpu=000\n"
		"b-11 [000] d..2. 0.002500: sched_waking: comm=x pid=99 prio=120 target_cpu=001\n"
		"b-11 [000] d..2. 0.003000: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
		"<idle>-0 [001] dNh2. 0.005000: sched_waking: comm=x pid=99 prio=120 target_cpu=001\n");
	auto find = [&](const std::string& name) -> const TaskSpec* {
		for (const TaskSpec& t : r.workload.tasks)
			if (t.name == name)
				return &t;
		return nullptr;
	};
	const TaskSpec* c = find("c-12");
	const TaskSpec* b = find("b-11");
	REQUIRE(c);
	REQUIRE(b);
	CHECK(c->phases.at(0).events == std::vector<Event>{run(2000 * US)});
	CHECK(b->phases.at(0).events == std::vector<Event>{sleep(2000 * US), run(500 * US), sleep(2000 * US)});
}

TEST_CASE("after the ring buffer overwrote a trace's start, a CPU's first task ran since that CPU's first line")
{
	// 96 events overwritten: CPU 1's record begins at 0, CPU 0's at 5 ms, so
	// p's time on CPU 0 before 5 ms is unknown. p is preempted at 5 ms, runs
	// again 6..7 ms and sleeps: 1 ms known, not 6.
	const ToWorkloadResult r = convert(
		"# entries-in-buffer/entries-written: 4/100   #P:2\n"
		"<idle>-0 [001] dNh2. 0.000000: sched_waking: comm=x pid=99 prio=120 target_cpu=001\n"
		"p-10 [000] d..2. 0.005000: sched_switch: prev_comm=p prev_pid=10 prev_prio=120 prev_state=R ==> next_comm=q next_pid=11 next_prio=120\n"
		"q-11 [000] d..2. 0.006000: sched_switch: prev_comm=q prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=p next_pid=10 next_prio=120\n"
		"p-10 [000] d..2. 0.007000: sched_switch: prev_comm=p prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n");
	REQUIRE(!r.workload.tasks.empty());
	const TaskSpec& p = r.workload.tasks[0];
	REQUIRE(p.name == "p-10");
	REQUIRE(!p.phases.at(0).events.empty());
	CHECK(p.phases.at(0).events.front() == run(1000 * US));
}
