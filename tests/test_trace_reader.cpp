// SPDX-License-Identifier: GPL-2.0-only
// Reading kernel trace text: each layout's lines as the kernel, trace-cmd
// and perf print them, and the refusals, each naming the line and column.
#include <catch2/catch.hpp>

#include <sstream>

#include "io/input_error.hpp"
#include "trace/reader.hpp"

using namespace eevdf;
using namespace eevdf::trace;

namespace {

std::vector<Event> read(const std::string& text, ReadStats* st = nullptr, ReadOptions o = {})
{
	std::istringstream in(text);
	return read_all(in, "t.trace", st, o);
}

std::string error_of(const std::string& text)
{
	try {
		read(text);
	} catch (const InputError& e) {
		return e.what();
	}
	return "";
}

}  // namespace

TEST_CASE("an ftrace sched_switch line gives both tasks, their prios and prev_state")
{
	ReadStats st;
	const auto ev = read("# tracer: nop\n"
			     "#\n# entries-in-buffer/entries-written: 1/1   #P:2\n"
			     "             hog-1234    [001] d..2.   100.000250: sched_switch: prev_comm=hog prev_pid=1234 "
			     "prev_prio=120 prev_state=R+ ==> next_comm=my task-x next_pid=77 next_prio=139\n",
			     &st);
	REQUIRE(ev.size() == 1);
	const Event& e = ev[0];
	CHECK(e.kind == EventKind::Switch);
	CHECK(e.ts == 100000250000ULL);
	CHECK(e.cpu == 1);
	CHECK(e.context_pid == 1234);
	CHECK(e.prev_comm == "hog");
	CHECK(e.prev_pid == 1234);
	CHECK(e.prev_prio == 120);
	CHECK(e.prev_state == 'R');
	CHECK(e.prev_preempt);
	CHECK(e.next_comm == "my task-x");  // comms may hold spaces and '-'
	CHECK(e.next_pid == 77);
	CHECK(e.next_prio == 139);
	CHECK(st.format == Format::Ftrace);
	CHECK(st.header_cpus == 2);
	CHECK(st.timestamp_digits == 6);
}

TEST_CASE("ftrace lines without the irq-flags column and with a TGID column are read")
{
	const auto ev = read("          <idle>-0       [000]   5.000001: sched_wakeup: comm=a pid=5 prio=120 target_cpu=000\n"
			     "           a-b-5       (      5) [000] d..3.   5.000002: sched_waking: comm=c pid=6 prio=120 target_cpu=001\n");
	REQUIRE(ev.size() == 2);
	CHECK(ev[0].kind == EventKind::Wakeup);
	CHECK(ev[0].context_pid == 0);
	CHECK(ev[0].pid == 5);
	CHECK(ev[0].target_cpu == 0);
	CHECK(ev[1].kind == EventKind::Waking);
	CHECK(ev[1].context_pid == 5);
	CHECK(ev[1].target_cpu == 1);
}

TEST_CASE("a sleeping prev_state and the older 'success=1' wakeup field are read")
{
	const auto ev = read("x-1 [000] 1.000000: sched_switch: prev_comm=x prev_pid=1 prev_prio=120 prev_state=S ==> "
			     "next_comm=swapper/0 next_pid=0 next_prio=120\n"
			     "x-1 [000] 1.000001: sched_wakeup: comm=y pid=2 prio=120 success=1 target_cpu=003\n"
			     "x-1 [000] 1.000002: sched_switch: prev_comm=x prev_pid=1 prev_prio=120 prev_state=D|W ==> "
			     "next_comm=y next_pid=2 next_prio=120\n");
	REQUIRE(ev.size() == 3);
	CHECK(ev[0].prev_state == 'S');
	CHECK_FALSE(ev[0].prev_preempt);
	CHECK(ev[1].target_cpu == 3);
	CHECK(ev[2].prev_state == 'D');
}

TEST_CASE("trace-cmd report's plugin layout of sched_switch and sched_wakeup is read")
{
	ReadStats st;
	const auto ev = read("cpus=2\n"
			     "             hog-1234  [001]   100.000250: sched_switch:         hog:1234 [120] R ==> "
			     "kworker/1:1:99 [120]\n"
			     "          <idle>-0     [000]   100.000300: sched_wakeup:         hog:1235 [120] CPU:001\n",
			     &st);
	REQUIRE(ev.size() == 2);
	CHECK(ev[0].prev_comm == "hog");
	CHECK(ev[0].prev_state == 'R');
	CHECK(ev[0].next_comm == "kworker/1:1");  // the pid follows the last ':'
	CHECK(ev[0].next_pid == 99);
	CHECK(ev[1].pid == 1235);
	CHECK(ev[1].target_cpu == 1);
	CHECK(st.format == Format::TraceCmd);
	CHECK(st.header_cpus == 2);
}

TEST_CASE("perf script's layout, with microsecond or nanosecond timestamps, is read")
{
	ReadStats st;
	const auto ev = read("             hog  1234 [001] 100.000250123:       sched:sched_migrate_task: comm=hog pid=1234 "
			     "prio=120 orig_cpu=1 dest_cpu=0\n"
			     "             hog  1234 [001] 100.000251:       irq:irq_handler_entry: irq=1 name=x\n",
			     &st);
	REQUIRE(ev.size() == 1);
	CHECK(ev[0].kind == EventKind::Migrate);
	CHECK(ev[0].ts == 100000250123ULL);
	CHECK(ev[0].orig_cpu == 1);
	CHECK(ev[0].dest_cpu == 0);
	CHECK(st.format == Format::Perf);
	CHECK(st.skipped.at("irq:irq_handler_entry") == 1);
}

TEST_CASE("a LOST EVENTS marker is an event and is counted")
{
	ReadStats st;
	const auto ev = read("x-1 [000] 1.000000: sched_wakeup: comm=y pid=2 prio=120 target_cpu=000\n"
			     "CPU:1 [LOST 42 EVENTS]\n",
			     &st);
	REQUIRE(ev.size() == 2);
	CHECK(ev[1].kind == EventKind::Lost);
	CHECK(ev[1].cpu == 1);
	CHECK(ev[1].lost == 42);
	CHECK(st.lost_events == 42);
	CHECK(st.lost_markers == 1);
}

TEST_CASE("the ftrace header's entry counts tell that the ring buffer overwrote events")
{
	ReadStats st;
	read("# entries-in-buffer/entries-written: 10/25   #P:4\n", &st);
	CHECK(st.overwritten() == 15);
	CHECK(st.cpus() == 4);
}

TEST_CASE("a line that is not a trace line is refused with its line and column")
{
	CHECK(error_of("x-1 [000] 1.000000: sched_wakeup: comm=y pid=2 prio=120 target_cpu=000\nhello world\n") ==
	      "t.trace:2:1: not a trace line (no [CPU] column)");
}

TEST_CASE("a malformed field is refused at its column")
{
	const std::string e = error_of("x-1 [000] 1.000000: sched_wakeup: comm=y pid=two prio=120 target_cpu=000\n");
	CHECK(e == "t.trace:1:46: pid is not an integer: 'two'");
}

TEST_CASE("a prev_state that is no task state is refused")
{
	const std::string e = error_of("x-1 [000] 1.000000: sched_switch: prev_comm=x prev_pid=1 prev_prio=120 prev_state=Q ==> "
				       "next_comm=y next_pid=2 next_prio=120\n");
	CHECK(e.find("t.trace:1:") == 0);
	CHECK(e.find("prev_state is not a task state: 'Q'") != std::string::npos);
}

TEST_CASE("a comm longer than TASK_COMM_LEN - 1 is refused")
{
	const std::string e = error_of("x-1 [000] 1.000000: sched_wakeup: comm=abcdefghijklmnop pid=2 prio=120 target_cpu=000\n");
	CHECK(e.find("comm must be 1 to 15 characters") != std::string::npos);
}

TEST_CASE("timestamps going back are refused: the lines are not in the kernel's merged order")
{
	const std::string e = error_of("x-1 [000] 2.000000: sched_wakeup: comm=y pid=2 prio=120 target_cpu=000\n"
				       "x-1 [001] 1.000000: sched_wakeup: comm=y pid=2 prio=120 target_cpu=000\n");
	CHECK(e.find("t.trace:2:1: timestamp goes back in time") == 0);
}

TEST_CASE("with lenient, unparseable lines are counted, not refused")
{
	ReadStats st;
	const auto ev = read("garbage\nx-1 [000] 1.000000: sched_wakeup: comm=y pid=2 prio=120 target_cpu=000\n", &st, {true});
	CHECK(ev.size() == 1);
	CHECK(st.unparsed == 1);
}

TEST_CASE("a CPU column past NR_CPUS is refused")
{
	CHECK(error_of("x-1 [99999] 1.000000: sched_wakeup: comm=y pid=2 prio=120 target_cpu=000\n").find("CPU out of range") !=
	      std::string::npos);
}

TEST_CASE("the flags column's hardirq/softirq letter says the event fired in an interrupt")
{
	const auto ev = read("hog-5 [001] dNh4. 1.000000: sched_wakeup: comm=m pid=21 prio=0 target_cpu=001\n"
			     "hog-5 [001] d..2. 1.000001: sched_wakeup: comm=m pid=21 prio=0 target_cpu=001\n"
			     "hog-5 [001] 1.000002: sched_wakeup: comm=m pid=21 prio=0 target_cpu=001\n");
	REQUIRE(ev.size() == 3);
	CHECK(in_irq(ev[0]));
	CHECK_FALSE(in_irq(ev[1]));
	CHECK_FALSE(in_irq(ev[2]));  // no flags column: task context assumed
}

TEST_CASE("a truncated LOST marker is refused as a line, not read past its end")
{
	// found by fuzz_trace_reader: "CPU:1 [LOST" once indexed before its start
	CHECK(error_of("CPU:1 [LOST\n").find("t.trace:1:") == 0);
	CHECK(error_of("CPU:1 x\n").find("t.trace:1:") == 0);
}

TEST_CASE("a control character in the task column's comm is refused")
{
	// found by fuzz_trace_reader: it became a workload task's name
	CHECK(error_of("\x01 x-1 [000] 1.000000: sched_wakeup: comm=y pid=2 prio=120 target_cpu=000\n")
		      .find("the task column's comm holds a control character (byte 1)") != std::string::npos);
}

TEST_CASE("the timestamp resolution is one unit of the coarsest timestamp's last digit")
{
	ReadStats st;
	read("x-1 [000] 1.000000001: sched_wakeup: comm=y pid=2 prio=120 target_cpu=000\n"
	     "x-1 [000] 1.001: sched_wakeup: comm=y pid=2 prio=120 target_cpu=000\n",
	     &st);
	CHECK(st.timestamp_digits == 3);
	CHECK(st.resolution_ns() == 1000000);
	ReadStats none;
	read("# tracer: nop\n", &none);
	CHECK(none.resolution_ns() == 0);
}

TEST_CASE("a header's CPU count past NR_CPUS is refused at its column, before per-CPU state is made")
{
	CHECK(error_of("# entries-in-buffer/entries-written: 1/1   #P:4294967295\n")
		      .find("t.trace:1:47: the CPU count '4294967295' is not 1..8192") == 0);
	CHECK(error_of("cpus=4294967295\n").find("t.trace:1:6: the CPU count '4294967295' is not 1..8192") == 0);
	CHECK(error_of("cpus=0\n").find("the CPU count '0' is not 1..8192") != std::string::npos);
	ReadStats st;
	read("cpus=8192\n", &st);
	CHECK(st.cpus() == 8192);
}

TEST_CASE("a line longer than MAX_TRACE_LINE is refused at its line, not held whole")
{
	const std::string line = "x-1 [000] 1.000000: sched_wakeup: comm=y pid=2 prio=120 target_cpu=000\n";
	const std::string e = error_of(line + std::string(MAX_TRACE_LINE + 1, 'a') + "\n" + line);
	CHECK(e.find("t.trace:2:") == 0);
	CHECK(e.find("longer than 65536 bytes") != std::string::npos);
	// A line of exactly the limit is read (and refused as no trace line).
	CHECK(error_of(std::string(MAX_TRACE_LINE, 'a') + "\n").find("not a trace line") != std::string::npos);
	// With lenient, it is one unparsed line and reading goes on.
	ReadStats st;
	const auto ev = read(std::string(MAX_TRACE_LINE + 5, 'a') + "\n" + line, &st, {true});
	CHECK(ev.size() == 1);
	CHECK(st.unparsed == 1);
	CHECK(st.lines == 2);
}
