// SPDX-License-Identifier: GPL-2.0-only
// The metrics of a hand-written trace, each computed by hand from the
// events: run lengths, switches and how they ended, wake-up latency from
// sched_waking, local/remote/migrated wake-ups, run delay, CPU time.
#include <catch2/catch.hpp>

#include <sstream>

#include "trace/stats.hpp"

using namespace eevdf;
using namespace eevdf::trace;

namespace {

TraceMetrics measure_text(const std::string& text, Window w = {})
{
	std::istringstream in(text);
	Reader r(in, "t.trace");
	return measure(r, w);
}

const TaskMetrics& by_pid(const TraceMetrics& m, int pid)
{
	for (const TaskMetrics& t : m.tasks)
		if (t.pid == pid)
			return t;
	FAIL("no task " << pid);
	return m.tasks[0];
}

// Two CPUs. CPU 0 runs a (pid 10) from 0; b (11) wakes from CPU 0 onto
// CPU 1 (remote, and moved from 0 to 1) at 1 ms and runs there at 1.2 ms;
// a is preempted by c (12, woken locally at 2 ms) at 3 ms; a runs again at
// 4 ms when c sleeps; the trace ends at 5 ms.
const char* TRACE =
	"# entries-in-buffer/entries-written: 11/11   #P:2\n"
	"a-10 [000] 0.000000: sched_wakeup: comm=x pid=99 prio=120 target_cpu=000\n"
	"a-10 [000] 0.001000: sched_waking: comm=b pid=11 prio=120 target_cpu=000\n"
	"a-10 [000] 0.001000: sched_migrate_task: comm=b pid=11 prio=120 orig_cpu=0 dest_cpu=1\n"
	"a-10 [000] 0.001000: sched_wakeup: comm=b pid=11 prio=120 target_cpu=001\n"
	"<idle>-0 [001] 0.001200: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=11 next_prio=120\n"
	"a-10 [000] 0.002000: sched_waking: comm=c pid=12 prio=120 target_cpu=000\n"
	"a-10 [000] 0.002000: sched_wakeup: comm=c pid=12 prio=120 target_cpu=000\n"
	"a-10 [000] 0.003000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=R+ ==> next_comm=c next_pid=12 next_prio=120\n"
	"c-12 [000] 0.004000: sched_switch: prev_comm=c prev_pid=12 prev_prio=120 prev_state=S ==> next_comm=a next_pid=10 next_prio=120\n"
	"b-11 [001] 0.004500: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
	"a-10 [000] 0.005000: sched_wakeup: comm=x pid=99 prio=120 target_cpu=000\n";

}  // namespace

TEST_CASE("a run is counted switch in to switch out; the run in progress at the start is CPU time only")
{
	const TraceMetrics m = measure_text(TRACE);
	const TaskMetrics& a = by_pid(m, 10);
	CHECK(a.cpu_ns == 3000000 + 1000000);  // 0..3 ms and 4..5 ms
	CHECK(a.runs.count() == 0);            // its start was before the trace; the last has not ended
	const TaskMetrics& c = by_pid(m, 12);
	CHECK(c.runs.count() == 1);
	CHECK(c.runs.max() == 1000000);
	const TaskMetrics& b = by_pid(m, 11);
	CHECK(b.runs.max() == 3300000);
}

TEST_CASE("prev_state R (with or without +) is an involuntary switch, S a voluntary one")
{
	const TraceMetrics m = measure_text(TRACE);
	CHECK(by_pid(m, 10).switches == 1);
	CHECK(by_pid(m, 10).involuntary_switches == 1);
	CHECK(by_pid(m, 12).switches == 1);
	CHECK(by_pid(m, 12).involuntary_switches == 0);
}

TEST_CASE("wake-up latency runs from sched_waking to the switch in")
{
	const TraceMetrics m = measure_text(TRACE);
	CHECK(by_pid(m, 11).wakeup_latency.max() == 200000);
	CHECK(by_pid(m, 12).wakeup_latency.max() == 1000000);
}

TEST_CASE("a wake-up is local when the waker's CPU is the target, and migrated when it moved the task")
{
	const TraceMetrics m = measure_text(TRACE);
	const TaskMetrics& b = by_pid(m, 11);
	CHECK(b.wakeups == 1);
	CHECK(b.wakeups_remote == 1);
	CHECK(b.wakeups_migrate == 1);
	CHECK(b.migrations == 1);
	const TaskMetrics& c = by_pid(m, 12);
	CHECK(c.wakeups_local == 1);
	CHECK(c.wakeups_migrate == 0);
}

TEST_CASE("run delay is the time runnable but not running: from the wake-up, and from a preemption")
{
	const TraceMetrics m = measure_text(TRACE);
	CHECK(by_pid(m, 12).run_delay_ns == 1000000);
	CHECK(by_pid(m, 10).run_delay_ns == 1000000);  // preempted at 3 ms, back at 4 ms
}

TEST_CASE("each CPU's busy and idle time cover the trace from its first event to its last")
{
	const TraceMetrics m = measure_text(TRACE);
	REQUIRE(m.cpus.size() == 2);
	CHECK(m.cpus[0].busy_ns == 5000000);
	CHECK(m.cpus[0].idle_ns == 0);
	CHECK(m.cpus[1].idle_ns == 1200000 + 500000);  // until b runs, and after it sleeps
	CHECK(m.cpus[1].busy_ns == 3300000);
}

TEST_CASE("a window counts only runs inside it and clips CPU time to it")
{
	const TraceMetrics m = measure_text(TRACE, Window{3500000, 4600000});
	CHECK(by_pid(m, 10).cpu_ns == 600000);   // 4.0..4.6 ms
	CHECK(by_pid(m, 12).cpu_ns == 500000);   // 3.5..4.0 ms
	CHECK(by_pid(m, 12).runs.count() == 0);  // began before the window
	CHECK(by_pid(m, 11).runs.count() == 0);
	CHECK(m.end_ns - m.start_ns == 1100000);
}

TEST_CASE("a CPU with no line in the trace is reported as unobserved, not idle")
{
	const TraceMetrics m = measure_text("# entries-in-buffer/entries-written: 1/1   #P:2\n"
					    "a-10 [000] 0.000000: sched_wakeup: comm=x pid=99 prio=120 target_cpu=000\n"
					    "a-10 [000] 0.001000: sched_wakeup: comm=x pid=99 prio=120 target_cpu=000\n");
	REQUIRE(m.observed.size() == 2);
	CHECK(m.observed[0]);
	CHECK_FALSE(m.observed[1]);
	CHECK(m.cpus[1].idle_ns == 0);
	CHECK(m.cpus[0].busy_ns == 1000000);
}

TEST_CASE("a task seen running without a switch to it is a missed switch: that time is unattributed")
{
	// CPU 0 goes idle at 1 ms; the kernel emits no switch back (this
	// machine's CPU 1 never does); b (11), woken at 2 ms, is the context of
	// a line at 3 ms and switches out at 4 ms.
	const TraceMetrics m = measure_text(
		"a-10 [000] 0.000000: sched_wakeup: comm=x pid=99 prio=120 target_cpu=001\n"
		"a-10 [000] 0.001000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
		"<idle>-0 [000] 0.002000: sched_wakeup: comm=b pid=11 prio=120 target_cpu=000\n"
		"b-11 [000] 0.003000: sched_waking: comm=x pid=99 prio=120 target_cpu=001\n"
		"b-11 [000] 0.004000: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n");
	CHECK(m.missed_switches == 1);
	CHECK(m.cpus[0].idle_ns == 1000000);          // 1..2 ms: b was not woken yet
	CHECK(m.unattributed_ns[0] == 1000000);       // 2..3 ms: the switch is somewhere in there
	CHECK(by_pid(m, 11).cpu_ns == 1000000);       // 3..4 ms
	CHECK(by_pid(m, 11).runs.count() == 0);       // its start is unknown
	CHECK(by_pid(m, 11).wakeup_latency.count() == 0);
}
