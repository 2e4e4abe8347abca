// SPDX-License-Identifier: GPL-2.0-only
// The JSON reader and the rt-app workload reader/writer.
#include <catch2/catch.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "io/json.hpp"
#include "io/rtapp.hpp"
#include "io/workgen.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;
using Catch::Matchers::Contains;

namespace {

std::string data_file(const char* name)
{
#ifdef EEVDF_TEST_DATA_DIR
	return std::string(EEVDF_TEST_DATA_DIR) + "/rtapp/" + name;
#else
	return (std::filesystem::path(__FILE__).parent_path() / "data" / "rtapp" / name).string();
#endif
}

Workload parse(const std::string& text) { return parse_rtapp(text, "t.json"); }

// A task object with these members, in a file with only that task.
std::string one_task(const std::string& members) { return R"({"tasks": {"t": {)" + members + "}}}"; }

}  // namespace

// ---- JSON ----

TEST_CASE("json: objects keep repeated keys in file order", "[json]")
{
	json::Value v = json::parse(R"({"run": 1, "sleep": 2, "run": 3})", "j");
	REQUIRE(v.members.size() == 3);
	CHECK(v.members[0].key == "run");
	CHECK(v.members[0].value.text == "1");
	CHECK(v.members[1].key == "sleep");
	CHECK(v.members[2].key == "run");
	CHECK(v.members[2].value.text == "3");
}

TEST_CASE("json: keys and values record their line and column", "[json]")
{
	json::Value v = json::parse("{\n\t\"a\": [1,\n  \"\xC3\xA9\", true]}", "j");
	const json::Member& a = v.members.at(0);
	CHECK(a.line == 2);
	CHECK(a.column == 2);
	CHECK(a.value.line == 2);
	CHECK(a.value.column == 7);
	CHECK(a.value.items.at(1).line == 3);
	CHECK(a.value.items.at(1).column == 3);
	CHECK(a.value.items.at(2).column == 8);  // the two-byte character counts as one column
}

TEST_CASE("json: comments and trailing commas are accepted, as json-c does for rt-app", "[json]")
{
	json::Value v = json::parse("// head\n{ /* a */ \"a\": [1, 2,], // b\n \"b\": {},\n}", "j");
	REQUIRE(v.members.size() == 2);
	CHECK(v.members[0].value.items.size() == 2);
}

TEST_CASE("json: strings decode escapes and surrogate pairs to UTF-8", "[json]")
{
	json::Value v = json::parse(R"("a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00")", "j");
	CHECK(v.text == "a\"\\/\b\f\n\r\t\xC3\xA9\xF0\x9F\x98\x80");
}

TEST_CASE("json: numbers are kept as written", "[json]")
{
	json::Value v = json::parse("[-0, 12, 1.5e-3, 2E+10]", "j");
	CHECK(v.items[0].text == "-0");
	CHECK(v.items[2].text == "1.5e-3");
	CHECK(v.items[3].text == "2E+10");
}

TEST_CASE("json: malformed documents are rejected with their position", "[json]")
{
	auto err = [](const std::string& text) {
		try {
			json::parse(text, "j.json");
		} catch (const InputError& e) {
			return std::string(e.what());
		}
		return std::string("accepted");
	};
	CHECK_THAT(err("01"), Contains("j.json:1:2: invalid JSON: numbers cannot have leading zeros"));
	CHECK_THAT(err("{} x"), Contains("j.json:1:4:") && Contains("after the end of the JSON value"));
	CHECK_THAT(err(R"("\x")"), Contains("invalid escape \\character 'x'"));
	CHECK_THAT(err("\"a\tb\""), Contains("control character"));
	CHECK_THAT(err("\"\xC0\x80\""), Contains("invalid UTF-8"));
	CHECK_THAT(err("\"\xED\xA0\x80\""), Contains("invalid UTF-8"));
	CHECK_THAT(err(R"("\ud800")"), Contains("low surrogate"));
	CHECK_THAT(err(R"("\udc00")"), Contains("unpaired low surrogate"));
	CHECK_THAT(err(R"("\u12G4")"), Contains("4 hex digits"));
	CHECK_THAT(err("\n  \"abc"), Contains("j.json:2:3: invalid JSON: string is not closed"));
	CHECK_THAT(err("{ /* x"), Contains("j.json:1:3: invalid JSON: comment is not closed"));
	CHECK_THAT(err("[1 2]"), Contains("expected ',' or ']'"));
	CHECK_THAT(err("{\"a\" 1}"), Contains("expected ':'"));
	CHECK_THAT(err("{,}"), Contains("expected a \"key\""));
	CHECK_THAT(err("[,]"), Contains("expected a value"));
	CHECK_THAT(err("truex"), Contains("after true"));
	CHECK_THAT(err("1."), Contains("digit after '.'"));
	CHECK_THAT(err("-"), Contains("expected a digit"));
	CHECK_THAT(err("1e+"), Contains("exponent"));
	CHECK_THAT(err("'a'"), Contains("expected a value, found character '''"));
	CHECK_THAT(err(""), Contains("found end of input"));
	CHECK_THAT(err(std::string("[\0]", 3)), Contains("byte 0x00"));
}

TEST_CASE("json: nesting beyond the depth limit is an error, not a stack overflow", "[json]")
{
	std::string deep(100000, '[');
	CHECK_THROWS_WITH(json::parse(deep, "j"), Contains("nested deeper than 64 levels"));
	std::string ok = std::string(json::MAX_DEPTH, '[') + std::string(json::MAX_DEPTH, ']');
	CHECK_NOTHROW(json::parse(ok, "j"));
	CHECK_THROWS_AS(json::parse("[" + ok + "]", "j"), InputError);
}

TEST_CASE("json: describe quotes a value compactly and cuts long ones", "[json]")
{
	json::Value v = json::parse(R"({"a": [1, "x\ny"], "b": null})", "j");
	CHECK(json::describe(v) == R"({"a": [1, "x\ny"], "b": null})");
	CHECK(json::describe(v, 8) == R"({"a": [1...)");
}

// ---- reading rt-app files ----

TEST_CASE("rtapp: the tutorial's simple run/sleep file reads as one looping phase", "[rtapp]")
{
	Workload w = load_rtapp_file(data_file("tutorial_simple.json"));
	Workload want;
	want.duration = 2 * NSEC_PER_SEC;
	// rt-app: a task without "phases" has one phase that takes the task's
	// loop, and the task itself runs once.
	want.tasks.push_back(
		phased("thread0", {Phase{"phase0", LOOP_FOREVER, {run(20000 * US), sleep(80000 * US)}}}, 1));
	CHECK(w == want);
}

TEST_CASE("rtapp: phases, instances, repeated keys and timers read in order", "[rtapp]")
{
	Workload w = load_rtapp_file(data_file("periodic_phases.json"));
	Workload want;
	want.duration = 1500 * NSEC_PER_MSEC;
	want.refs = {"unique@video-0", "unique@video-1", "tick"};
	for (int i = 0; i < 2; i++) {
		want.tasks.push_back(phased(
			"video-" + std::to_string(i),
			{Phase{"warmup", 10, {run(1000 * US), sleep(9000 * US), run(500 * US), sleep(4500 * US)}},
			 Phase{"light", 10, {run(1000 * US), timer(i, 30000 * US)}},
			 Phase{"heavy", LOOP_FOREVER, {run(4000 * US), timer(i, 30000 * US)}}},
			3));
	}
	want.tasks.push_back(
		phased("audio", {Phase{"phase0", LOOP_FOREVER, {run(2000 * US), timer(2, 16000 * US)}}}, 1));
	CHECK(w == want);
}

TEST_CASE("rtapp: custom-slice example sets nice and slice on the task and per phase", "[rtapp]")
{
	Workload w = load_rtapp_file(data_file("custom_slice.json"));
	Workload want;
	want.duration = 2 * NSEC_PER_SEC;
	want.tasks.push_back(with_slice(
		niced(phased("thread0", {Phase{"phase0", LOOP_FOREVER, {run(20000 * US)}}}, 1), -19), 10 * MS));
	// A phase naming the policy without a priority resets nice to rt-app's
	// default 0; a phase without "cpus" returns to the task's set (here every
	// CPU) once another phase has set one.
	want.tasks.push_back(
		phased("thread1",
		       {Phase{"short",
			      5,
			      {set_nice(5), set_slice(300 * US), set_affinity(1), run(300 * US), sleep(2700 * US)}},
			Phase{"reset", 1, {set_nice(0), set_affinity(0), run(3000 * US)}}},
		       LOOP_FOREVER));
	want.cpu_sets = {{0}, {}};
	CHECK(w == want);
}

TEST_CASE("rtapp: suspend, resume, runtime, yield and delay read as events", "[rtapp]")
{
	Workload w = load_rtapp_file(data_file("suspend_resume.json"));
	Workload want;
	want.refs = {"sleeper"};
	want.tasks.push_back(phased("sleeper", {Phase{"phase0", 100, {suspend(0), run(500 * US)}}}, 1));
	TaskSpec waker =
		phased("waker", {Phase{"phase0", 100, {runtime(4000 * US), resume(0), yield(), sleep(1000 * US)}}}, 1);
	waker.delay = 1 * NSEC_PER_MSEC;
	want.tasks.push_back(waker);
	want.tasks[0].cpus = {0, 1};
	CHECK(w == want);
}

TEST_CASE("rtapp: the landscape document's example reads", "[rtapp]")
{
	Workload w = load_rtapp_file(data_file("landscape_example.json"));
	REQUIRE(w.tasks.size() == 4);
	CHECK(w.tasks[0].name == "hog-0");
	CHECK(w.tasks[1].name == "hog-1");
	CHECK(w.tasks[2].name == "periodic");
	CHECK(w.tasks[2].loop == LOOP_FOREVER);
	CHECK(w.tasks[3].custom_slice == 500 * NSEC_PER_USEC);
	CHECK(w.refs == std::vector<std::string>{"tick"});
}

TEST_CASE("rtapp: instance threads are named NAME-IDX by their index among all threads", "[rtapp]")
{
	Workload w = parse(R"({"tasks": {"a": {"run": 1}, "b": {"instance": 3, "run": 1}, "c": {"instance": 1, "run": 1}}})");
	REQUIRE(w.tasks.size() == 5);
	CHECK(w.tasks[0].name == "a");
	CHECK(w.tasks[1].name == "b-1");
	CHECK(w.tasks[2].name == "b-2");
	CHECK(w.tasks[3].name == "b-3");
	CHECK(w.tasks[4].name == "c");
}

TEST_CASE("rtapp: a unique timer is private to each thread, a named timer is shared", "[rtapp]")
{
	Workload w = parse(one_task(R"("instance": 2, "timer": {"ref": "uniqueA", "period": 10},
				       "timer": {"ref": "shared", "period": 10})"));
	CHECK(w.refs == std::vector<std::string>{"uniqueA@t-0", "shared", "uniqueA@t-1"});
	CHECK(w.tasks[0].phases[0].events == std::vector<Event>{timer(0, 10 * US), timer(1, 10 * US)});
	CHECK(w.tasks[1].phases[0].events == std::vector<Event>{timer(2, 10 * US), timer(1, 10 * US)});
}

TEST_CASE("rtapp: a task without loop loops forever; with loop, its one phase loops", "[rtapp]")
{
	Workload w = parse(one_task(R"("run": 1)"));
	CHECK(w.tasks[0].loop == LOOP_FOREVER);
	CHECK(w.tasks[0].phases[0].loop == 1);
	w = parse(one_task(R"("loop": 7, "run": 1)"));
	CHECK(w.tasks[0].loop == 1);
	CHECK(w.tasks[0].phases[0].loop == 7);
}

TEST_CASE("rtapp: a task with phases loops forever unless it has a loop", "[rtapp]")
{
	CHECK(parse(one_task(R"("phases": {"p": {"run": 1}})")).tasks[0].loop == LOOP_FOREVER);
	Workload w = parse(one_task(R"("loop": 4, "phases": {"p": {"run": 1}, "q": {"loop": 2, "sleep": 1}})"));
	CHECK(w.tasks[0].loop == 4);
	CHECK(w.tasks[0].phases[0].loop == 1);
	CHECK(w.tasks[0].phases[1].loop == 2);
}

TEST_CASE("rtapp: workgen-style numbered event keys are the same events", "[rtapp]")
{
	Workload w = parse(one_task(R"("run": 1, "sleep": 2, "run1": 3, "runtime2": 4, "sleep12": 5, "yield3": "")"));
	CHECK(w.tasks[0].phases[0].events ==
	      std::vector<Event>{run(1 * US), sleep(2 * US), run(3 * US), runtime(4 * US), sleep(5 * US), yield()});
}

TEST_CASE("rtapp: run -1 is a run that never completes", "[rtapp]")
{
	CHECK(parse(one_task(R"("run": -1)")).tasks[0].phases[0].events[0].ns == RUN_FOREVER);
}

// Up to 2^62 ns (MAX_TIME_NS), so that the clock plus a few of them never
// wraps; the u64 limit itself let a run of 18446744073709000 us wrap the
// clock (issue 19).
TEST_CASE("rtapp: microseconds become nanoseconds, up to 2^62 ns", "[rtapp]")
{
	Workload w = parse(one_task(R"("run": 0, "sleep": 4611686018427387)"));
	CHECK(w.tasks[0].phases[0].events[0].ns == 0);
	CHECK(w.tasks[0].phases[0].events[1].ns == 4611686018427387000ULL);
	CHECK_THROWS_WITH(parse(one_task(R"("sleep": 4611686018427388)")), Contains("too large"));
	CHECK_THROWS_WITH(parse(one_task(R"("run": 18446744073709000)")), Contains("too large"));
	CHECK_THROWS_WITH(parse(one_task(R"("sleep": 99999999999999999999)")), Contains("out of range"));
}

TEST_CASE("rtapp: global duration is whole or decimal seconds, -1 or 0 for until the tasks end", "[rtapp]")
{
	auto dur = [](const std::string& d) {
		return parse(R"({"global": {"duration": )" + d + R"(}, "tasks": {"t": {"run": 1}}})").duration;
	};
	CHECK(dur("3") == 3 * NSEC_PER_SEC);
	CHECK(dur("0.25") == 250 * NSEC_PER_MSEC);
	CHECK(dur("1.000000001") == NSEC_PER_SEC + 1);
	CHECK(dur("2.5000000000") == 2500 * NSEC_PER_MSEC);
	CHECK(dur("-1") == 0);
	CHECK(dur("0") == 0);
	CHECK_THROWS_WITH(dur("-2"), Contains("global.duration: expected seconds >= 0"));
	CHECK_THROWS_WITH(dur("1e3"), Contains("global.duration"));
	CHECK_THROWS_WITH(dur("0.0000000001"), Contains("finer than a nanosecond"));
	CHECK_THROWS_WITH(dur("\"2\""), Contains("got \"2\""));
	CHECK_THROWS_WITH(dur("99999999999"), Contains("too long"));
}

TEST_CASE("rtapp: ignored global keys are accepted, unknown ones are not", "[rtapp]")
{
	CHECK_NOTHROW(parse(R"({"global": {"calibration": 230, "log_size": 4, "io_device": "/dev/null",
		"mem_buffer_size": 1024, "cumulative_slack": true, "default_policy": "SCHED_OTHER"},
		"tasks": {"t": {"run": 1}}})"));
	CHECK_THROWS_WITH(parse(R"({"global": {"durration": 1}, "tasks": {"t": {"run": 1}}})"),
			  Contains("t.json:1:13: global.durration: unknown key; accepted: duration"));
	CHECK_THROWS_WITH(parse(R"({"global": {"default_policy": "SCHED_RR"}, "tasks": {"t": {"run": 1}}})"),
			  Contains("global.default_policy: SCHED_RR is not modelled"));
}

TEST_CASE("rtapp: cpus is the task's affinity, and a phase's cpus an affinity change at its start", "[rtapp]")
{
	Workload w = parse(one_task(R"("cpus": [2, 3], "phases": {"p": {"cpus": [0], "run": 1}, "q": {"run": 2}})"));
	CHECK(w.tasks[0].cpus == std::vector<u32>{2, 3});
	CHECK(w.tasks[0].phases[0].events == std::vector<Event>{set_affinity(0), run(1 * US)});
	CHECK(w.tasks[0].phases[1].events == std::vector<Event>{set_affinity(1), run(2 * US)});
	CHECK(w.cpu_sets == std::vector<std::vector<u32>>{{0}, {2, 3}});
	CHECK_THROWS_WITH(parse(one_task(R"("cpus": [], "run": 1)")), Contains("expected a non-empty array of CPU numbers"));
	CHECK_THROWS_WITH(parse(one_task(R"("cpus": [256], "run": 1)")), Contains("expected a CPU number from 0 to 255"));
}

// ---- errors ----

TEST_CASE("rtapp: errors name file, line, column, field path and value", "[rtapp][errors]")
{
	std::string path = data_file("bad_negative_sleep.json");
	CHECK_THROWS_WITH(load_rtapp_file(path),
			  path + ":7:16: tasks.thread0.phases.p0.sleep: expected a whole number of microseconds >= 0, got -5");
}

TEST_CASE("rtapp: a real-time policy is refused: the model is the fair class only", "[rtapp][errors]")
{
	std::string path = data_file("bad_fifo.json");
	CHECK_THROWS_WITH(load_rtapp_file(path),
			  path + ":4:15: tasks.rt_thread.policy: SCHED_FIFO is not modelled: the model covers the fair class "
				 "(SCHED_OTHER, SCHED_BATCH, SCHED_IDLE) only");
	CHECK_THROWS_WITH(parse(one_task(R"("policy": "SCHED_DEADLINE", "run": 1)")), Contains("SCHED_DEADLINE is not modelled"));
	CHECK_THROWS_WITH(parse(one_task(R"("policy": "OTHER", "run": 1)")),
			  Contains("unknown policy \"OTHER\"; accepted: \"SCHED_OTHER\", \"SCHED_BATCH\""));
}

TEST_CASE("rtapp: rt-app events the model lacks are refused by name with the reason", "[rtapp][errors]")
{
	for (const char* e : {"mem", "iorun", "fork", "mem2"})
		CHECK_THROWS_WITH(parse(one_task("\"" + std::string(e) + "\": \"x\"")), Contains("is not supported by the model"));
	CHECK_THROWS_WITH(parse(one_task(R"("wait": "c", "run": 1)")), Contains("tasks.t.wait: expected {\"ref\""));
	CHECK_THROWS_WITH(parse(one_task(R"("wait": {"mutex": "m"}, "run": 1)")), Contains("needs a \"ref\""));
	CHECK_THROWS_WITH(parse(one_task(R"("wait": {"ref": "c", "x": 1}, "run": 1)")), Contains("tasks.t.wait.x: unknown key"));
	CHECK_THROWS_WITH(parse(one_task(R"("signal": {"ref": "c"}, "run": 1)")), Contains("expected a non-empty name"));
}

TEST_CASE("rtapp: lock, unlock, wait, signal, broad and sync become the model's mutex and condition events", "[rtapp]")
{
	Workload w = load_rtapp_file(data_file("doc_condvar_producer_consumer.json"));
	REQUIRE(w.tasks.size() == 3);
	const int queue = w.ref("queue"), mutex = w.ref("mutex:mutex");
	const auto& prod = w.tasks[0].phases[0].events;
	REQUIRE(prod.size() == 5);
	CHECK(prod[0] == run(2 * MS));
	CHECK(prod[1] == mutex_lock(mutex));
	CHECK(prod[2] == cond_signal(queue));
	CHECK(prod[3] == mutex_unlock(mutex));
	CHECK(prod[4].kind == Event::Kind::Timer);
	const auto& cons = w.tasks[1].phases[0].events;
	REQUIRE(cons.size() == 5);
	CHECK(cons[1] == cond_wait(queue, mutex));  // wait: unlock, sleep ...
	CHECK(cons[2] == mutex_lock(mutex));  // ... and re-lock on return

	Workload s = load_rtapp_file(data_file("doc_sync_broad.json"));
	const int ball = s.ref("ball"), go = s.ref("go"), m = s.ref("mutex:m"), wm = s.ref("mutex:wm");
	const auto& ping = s.tasks[0].phases[0].events;
	REQUIRE(ping.size() == 6);
	CHECK(ping[2] == cond_signal(ball));  // sync: signal ...
	CHECK(ping[3] == cond_wait(ball, m));  // ... then wait
	CHECK(ping[4] == mutex_lock(m));
	CHECK(s.tasks[2].phases[0].events[1] == resume(go));  // broad wakes both workers
	CHECK(s.tasks[3].phases[0].events[0] == cond_wait(go, wm));
	CHECK(s.tasks[4].phases[0].events[0] == cond_wait(go, wm));
}

TEST_CASE("rtapp: a mutex and a condition of the same name are two resources, as rt-app keeps them", "[rtapp]")
{
	Workload w = parse(one_task(R"("lock": "x", "wait": {"ref": "x", "mutex": "x"}, "unlock": "x", "run": 1)"));
	CHECK(w.ref("x") != w.ref("mutex:x"));
	CHECK(w.tasks[0].phases[0].events[1] == cond_wait(w.ref("x"), w.ref("mutex:x")));
}

TEST_CASE("rtapp: a wait without a mutex uses rt-app's default mutex, \"unknown\"", "[rtapp]")
{
	Workload w = parse(one_task(R"("wait": {"ref": "c"}, "run": 1)"));
	CHECK(w.tasks[0].phases[0].events[0] == cond_wait(w.ref("c"), w.ref("mutex:unknown")));
}

TEST_CASE("rtapp: locking a mutex the phase already holds is refused: rt-app would deadlock on itself", "[rtapp][errors]")
{
	std::string path = data_file("bad_lock.json");
	CHECK_THROWS_WITH(load_rtapp_file(path),
			  path + ":8:6: tasks.thread0.phases.p0.lock1: mutex \"mutex0\" is already held by this thread "
				 "(locked at line 6): rt-app would deadlock here");
	// held across a run, a phase, or unlocked by a later phase: all as rt-app runs them
	CHECK_NOTHROW(parse(one_task(R"("lock": "m", "run": 1, "unlock": "m")")));
	CHECK_NOTHROW(parse(one_task(R"("phases": {"a": {"lock": "m", "run": 1}, "b": {"run": 1, "unlock": "m"}})")));
	CHECK_NOTHROW(parse(one_task(R"("lock": "m", "unlock": "m", "lock1": "m", "run": 1, "unlock1": "m")")));
}

TEST_CASE("rtapp: mutex and condition events are written back as rt-app reads them", "[rtapp]")
{
	for (const char* f : {"doc_condvar_producer_consumer.json", "doc_sync_broad.json", "doc_tutorial5_lock_across_run.json"}) {
		INFO(f);
		const Workload w = load_rtapp_file(data_file(f));
		CHECK(parse(to_rtapp_json(w)) == w);
	}
}

TEST_CASE("rtapp: rt-app's documentation examples run or fail naming the unsupported key", "[rtapp]")
{
	for (const char* f : {"doc_tutorial4_pingpong.json", "doc_tutorial8_cpus.json", "doc_condvar_producer_consumer.json",
			      "doc_sync_broad.json", "doc_tutorial7_barrier.json", "doc_tutorial5_lock_across_run.json"}) {
		INFO(f);
		CHECK_NOTHROW(load_rtapp_file(data_file(f)));
	}
	const std::pair<const char*, const char*> refused[] = {
		{"doc_tutorial6_mem_iorun.json", ":11:4: tasks.thread0.mem: the rt-app event \"mem\" is not supported"},
	};
	for (const auto& [f, msg] : refused) {
		INFO(f);
		CHECK_THROWS_WITH(load_rtapp_file(data_file(f)), Contains(data_file(f) + msg));
	}
}

TEST_CASE("rtapp: JSON syntax errors are reported with the file position", "[rtapp][errors]")
{
	std::string path = data_file("bad_syntax.json");
	CHECK_THROWS_WITH(load_rtapp_file(path),
			  path + ":5:4: invalid JSON: expected ',' or '}' after a member, found character '\"'");
}

TEST_CASE("rtapp: unknown keys are refused, with a hint for rt-app's prefix matching", "[rtapp][errors]")
{
	CHECK_THROWS_WITH(parse(one_task(R"("runn": 1)")),
			  Contains("tasks.t.runn: unknown key; a task accepts autogroup_nice, cpus, delay, dl-runtime, instance, "
				   "loop, phases, policy, priority, setsid, taskgroup, and the events") &&
				  Contains("followed only by digits"));
	CHECK_THROWS_WITH(parse(one_task(R"("phases": {"p": {"delay": 1, "run": 1}})")),
			  Contains("tasks.t.phases.p.delay: is a task property"));
	CHECK_THROWS_WITH(parse(one_task(R"("phases": {"p": {"taskgroup": "", "run": 1}})")),
			  Contains("tasks.t.phases.p.taskgroup: a group path starts with '/'"));
	CHECK_THROWS_WITH(parse(one_task(R"("util_min": "high", "run": 1)")), Contains("tasks.t.util_min: expected an integer 0..1024"));
	CHECK_THROWS_WITH(parse(one_task(R"("dl-period": 100, "run": 1)")), Contains("SCHED_DEADLINE"));
	CHECK_THROWS_WITH(parse(R"({"tasks": {"t": {"run": 1}}, "task": {}})"),
			  Contains("t.json:1:30: task: unknown top-level key"));
}

TEST_CASE("rtapp: properties given twice are refused", "[rtapp][errors]")
{
	CHECK_THROWS_WITH(parse(one_task(R"("loop": 1, "run": 1, "loop": 2)")), Contains("tasks.t.loop: given twice"));
	CHECK_THROWS_WITH(parse(R"({"tasks": {"t": {"run": 1}}, "tasks": {"u": {"run": 1}}})"), Contains("tasks: given twice"));
}

TEST_CASE("rtapp: values of the wrong type or range are refused with the value", "[rtapp][errors]")
{
	CHECK_THROWS_WITH(parse(one_task(R"("run": 1.5)")), Contains("tasks.t.run: expected a whole number of microseconds >= 0, or -1 to run forever, got 1.5"));
	CHECK_THROWS_WITH(parse(one_task(R"("run": "1000")")), Contains("got \"1000\""));
	CHECK_THROWS_WITH(parse(one_task(R"("priority": 20, "run": 1)")), Contains("expected a nice value from -20 to 19, got 20"));
	CHECK_THROWS_WITH(parse(one_task(R"("loop": 0, "run": 1)")), Contains("tasks.t.loop: expected -1 (forever) or a count >= 1, got 0"));
	CHECK_THROWS_WITH(parse(one_task(R"("instance": 0, "run": 1)")), Contains("fork"));
	CHECK_THROWS_WITH(parse(one_task(R"("delay": -1, "run": 1)")), Contains("tasks.t.delay"));
	CHECK_THROWS_WITH(parse(one_task(R"("dl-runtime": -1, "run": 1)")), Contains("tasks.t.dl-runtime"));
	CHECK_THROWS_WITH(parse(one_task(R"("resume": "")")), Contains("expected a non-empty name"));
	CHECK_THROWS_WITH(parse(one_task(R"("suspend": 3)")), Contains("tasks.t.suspend: expected a non-empty name (a string), got 3"));
	CHECK_THROWS_WITH(parse(one_task(R"("phases": [])")), Contains("tasks.t.phases: expected an object of one or more named phases"));
	CHECK_THROWS_WITH(parse(one_task(R"("phases": {"p": 1})")), Contains("tasks.t.phases.p: expected an object"));
	CHECK_THROWS_WITH(parse(R"({"tasks": {"t": 1}})"), Contains("tasks.t: expected an object describing the task, got 1"));
	CHECK_THROWS_WITH(parse("[]"), Contains("the file must be an object"));
}

TEST_CASE("rtapp: timers need a ref and a period; only relative mode is modelled", "[rtapp][errors]")
{
	CHECK_THROWS_WITH(parse(one_task(R"("timer": {"period": 10})")), Contains("needs a \"ref\""));
	CHECK_THROWS_WITH(parse(one_task(R"("timer": {"ref": "a"})")), Contains("needs a \"period\""));
	CHECK_THROWS_WITH(parse(one_task(R"("timer": {"ref": "a", "period": 10, "mode": "absolute"})")),
			  Contains("tasks.t.timer.mode: \"absolute\" timers are not supported by the model yet"));
	CHECK_THROWS_WITH(parse(one_task(R"("timer": {"ref": "a", "period": 10, "phase": 1})")),
			  Contains("tasks.t.timer.phase: unknown key; a timer accepts ref, period and mode"));
	CHECK_THROWS_WITH(parse(one_task(R"("timer": 10)")), Contains("expected {\"ref\": NAME"));
}

TEST_CASE("rtapp: a task or phase without events is refused", "[rtapp][errors]")
{
	CHECK_THROWS_WITH(parse(one_task(R"("loop": 1, "priority": 3)")), Contains("t.json:1:12: tasks.t: the task has no events"));
	CHECK_THROWS_WITH(parse(one_task(R"("phases": {"p": {"run": 1}, "q": {"priority": 1}})")),
			  Contains("tasks.t.phases.q: the phase has no events"));
}

TEST_CASE("rtapp: a task with phases cannot have events of its own", "[rtapp][errors]")
{
	CHECK_THROWS_WITH(parse(one_task(R"("phases": {"p": {"run": 1}}, "sleep": 1)")),
			  Contains("tasks.t.sleep: a task with \"phases\" cannot also have events"));
}

TEST_CASE("rtapp: a file needs at least one task", "[rtapp][errors]")
{
	CHECK_THROWS_WITH(parse(R"({"tasks": {}})"), Contains("t.json:1:11: tasks: there are no tasks"));
	CHECK_THROWS_WITH(parse(R"({"global": {}})"), Contains("t.json:1:1: missing the required \"tasks\" object"));
}

TEST_CASE("rtapp: thread names must be unique", "[rtapp][errors]")
{
	CHECK_THROWS_WITH(parse(R"({"tasks": {"a": {"run": 1}, "a": {"run": 1}}})"), Contains("a second thread named \"a\""));
	CHECK_THROWS_WITH(parse(R"({"tasks": {"b-1": {"run": 1}, "b": {"instance": 2, "run": 1}}})"),
			  Contains("a second thread named \"b-1\""));
	CHECK_THROWS_WITH(parse(R"({"tasks": {"": {"run": 1}}})"), Contains("a task name must not be empty"));
}

TEST_CASE("rtapp: huge instance counts are refused, not allocated", "[rtapp][errors]")
{
	CHECK_THROWS_WITH(parse(one_task(R"("instance": 9000000000000000000, "run": 1)")), Contains("too many threads"));
}

TEST_CASE("rtapp: a missing file is an InputError naming the path", "[rtapp][errors]")
{
	CHECK_THROWS_WITH(load_rtapp_file("/nonexistent/w.json"), Contains("/nonexistent/w.json: cannot open the rt-app file"));
	CHECK_THROWS_AS(load_rtapp_file(std::filesystem::path(data_file("x")).parent_path().string()), InputError);
}

TEST_CASE("rtapp: damaged files only ever raise InputError", "[rtapp][errors]")
{
	std::string text = R"({"global": {"duration": 1.5}, "tasks": {"a": {"instance": 2, "loop": 3, "phases":
		{"p": {"priority": -3, "dl-runtime": 100, "run": 10, "timer": {"ref": "unique", "period": 100}},
		 "q": {"suspend": "x", "resume": "x", "sleep1": 5}}}}})";
	auto survives = [](const std::string& t) {
		try {
			parse(t);
		} catch (const InputError&) {
		}
	};
	for (std::size_t i = 0; i <= text.size(); i++)
		survives(text.substr(0, i));
	for (std::size_t i = 0; i < text.size(); i++) {
		for (char c : {'\0', '"', '{', '}', '-', '9', ',', '\xFF'}) {
			std::string t = text;
			t[i] = c;
			survives(t);
		}
	}
}

// ---- writing rt-app files ----

TEST_CASE("rtapp: every example file survives a write/read round trip", "[rtapp][write]")
{
	for (const char* f : {"tutorial_simple.json", "periodic_phases.json", "custom_slice.json", "suspend_resume.json",
			      "landscape_example.json", "doc_tutorial4_pingpong.json", "doc_condvar_producer_consumer.json",
			      "doc_sync_broad.json", "doc_tutorial8_cpus.json"}) {
		INFO(f);
		Workload w = load_rtapp_file(data_file(f));
		std::string text = to_rtapp_json(w);
		INFO(text);
		CHECK(parse_rtapp(text, "out.json") == w);
	}
}

// fuzz_rtapp_parser found it (fuzz/corpus/fuzz_rtapp_parser/
// roundtrip_sync_then_wait.json): a sync that is a mutex's first use named
// the mutex's ref before the condition's, while its written form, signal
// then wait, names the condition first; the refs came back renumbered.
TEST_CASE("rtapp: a sync naming its mutex first round-trips with the same refs", "[rtapp][write]")
{
	const Workload w = parse_rtapp(R"({"tasks": {"ping": {"loop": -1, "sync": {"ref": "ball", "mutex": "m"},
		"unlock": "m"}, "pong": {"loop": -1, "wait": {"ref": "ball", "mutex": "m"}, "run": 100, "unlock": "m"}}})",
				       "s.json");
	REQUIRE(w.refs.size() == 2);
	CHECK(w.refs[0] == "ball");
	CHECK(w.refs[1] == "mutex:m");
	CHECK(parse_rtapp(to_rtapp_json(w), "back.json") == w);
}

TEST_CASE("rtapp: CPU hogs survive a round trip as run -1", "[rtapp][write]")
{
	Workload w = hogs_workload(3, 2 * NSEC_PER_SEC + 1);
	std::string text = to_rtapp_json(w);
	CHECK_THAT(text, Contains("\"run\": -1") && Contains("\"duration\": 2.000000001"));
	CHECK(parse_rtapp(text, "out.json") == w);
}

TEST_CASE("rtapp: repeated events are written with workgen's numbered keys", "[rtapp][write]")
{
	Workload w;
	w.tasks.push_back(
		phased("t", {Phase{"p", 1, {run(1 * US), sleep(2 * US), run(3 * US), sleep(4 * US), run(5 * US)}}}, 2));
	std::string text = to_rtapp_json(w);
	CHECK_THAT(text, Contains("\"run\": 1") && Contains("\"run1\": 3") && Contains("\"run2\": 5") &&
				 Contains("\"sleep1\": 4"));
	CHECK(parse_rtapp(text, "out.json") == w);
}

TEST_CASE("rtapp: a nice or slice change inside a phase starts a new phase", "[rtapp][write]")
{
	Workload w;
	w.tasks.push_back(phased(
		"t",
		{Phase{"p",
		       1,
		       {run(1 * US), set_nice(3), set_slice(200 * US), run(2 * US), set_slice(0), sleep(3 * US)}}},
		1));
	Workload back = parse_rtapp(to_rtapp_json(w), "out.json");
	const auto& ph = back.tasks.at(0).phases;
	REQUIRE(ph.size() == 3);
	CHECK(ph[0] == Phase{"p", 1, {run(1 * US)}});
	CHECK(ph[1] == Phase{"p_1", 1, {set_nice(3), set_slice(200 * US), run(2 * US)}});
	CHECK(ph[2] == Phase{"p_2", 1, {set_slice(0), sleep(3 * US)}});
}

TEST_CASE("rtapp: the writer refuses what rt-app cannot express", "[rtapp][write]")
{
	Workload w;
	w.tasks.push_back(phased("t", {Phase{"p", 1, {run(1 * US + 500)}}}, 1));
	CHECK_THROWS_WITH(to_rtapp_json(w), Contains("1500 ns is not a whole number of microseconds"));

	w.tasks[0].phases[0] = Phase{"p", 2, {run(1 * US), set_nice(1), run(1 * US)}};
	CHECK_THROWS_WITH(to_rtapp_json(w), Contains("inside a looping phase"));

	w.tasks[0].phases[0] = Phase{"p", 1, {run(1 * US), set_nice(1)}};
	CHECK_THROWS_WITH(to_rtapp_json(w), Contains("must be followed by another event"));

	w.tasks[0].phases[0] = Phase{"p", 1, {timer(0, 10 * US)}};
	CHECK_THROWS_WITH(to_rtapp_json(w), Contains("ref 0 is not a named ref"));

	w.refs = {"unique"};
	CHECK_THROWS_WITH(to_rtapp_json(w), Contains("not private to this task"));

	CHECK_THROWS_AS(to_rtapp_json(Workload{}), std::invalid_argument);
}

TEST_CASE("two workloads side by side: the second's resources and affinity sets are renumbered into the first's", "[rtapp]")
{
	Workload base = parse_rtapp(
		R"({"tasks": {"a": {"loop": -1, "phases": {"p": {"cpus": [0], "run": 100, "timer": {"ref": "ta", "period": 1000}}}}}})",
		"base.json");
	REQUIRE(!base.cpu_sets.empty());
	const Workload extra = parse_rtapp(R"({"tasks": {
		"b": {"loop": -1, "run": 100, "resume": "go", "timer": {"ref": "tb", "period": 2000}},
		"c": {"loop": -1, "phases": {"p": {"cpus": [1], "suspend": "go", "run": 50}}}}})",
					   "extra.json");
	append_workload(base, extra, "extra.json");
	REQUIRE(base.tasks.size() == 3);
	REQUIRE(base.refs.size() == 1 + extra.refs.size());
	// Every renumbered reference still names what it named in extra.
	for (size_t i = 1; i < base.tasks.size(); i++)
		for (size_t p = 0; p < base.tasks[i].phases.size(); p++)
			for (size_t k = 0; k < base.tasks[i].phases[p].events.size(); k++) {
				const Event& e = base.tasks[i].phases[p].events[k];
				const Event& was = extra.tasks[i - 1].phases[p].events[k];
				if (e.kind == Event::Kind::SetAffinity)
					CHECK(base.cpu_sets[static_cast<size_t>(e.ref)] == extra.cpu_sets[static_cast<size_t>(was.ref)]);
				else if (was.ref >= 0)
					CHECK(base.refs[static_cast<size_t>(e.ref)] == extra.refs[static_cast<size_t>(was.ref)]);
			}
	CHECK(base.refs[0] == "ta");
}

TEST_CASE("two workloads side by side may not share a task or a resource name", "[rtapp]")
{
	const Workload one = parse_rtapp(R"({"tasks": {"a": {"loop": -1, "run": 100, "suspend": "s"}}})", "one.json");
	Workload base = one;
	CHECK_THROWS_WITH(append_workload(base, one, "again.json"), "again.json: task 'a' is already in the workload");
	const Workload other = parse_rtapp(R"({"tasks": {"b": {"loop": -1, "run": 100, "resume": "s"}}})", "other.json");
	CHECK_THROWS_WITH(append_workload(base, other, "other.json"), "other.json: resource 's' is already in the workload");
	CHECK(base.tasks.size() == 1);
}

TEST_CASE("rtapp: global settings with no effect on the fair class are accepted and reported in file order", "[rtapp]")
{
	// The Android use-case files (mp3, browser) carry "frag", which rt-app never reads.
	const char* text = R"({"global": {"frag": 1, "duration": 2, "calibration": "CPU0", "gnuplot": false},
		"tasks": {"t": {"run": 1000, "sleep": 1000}}})";
	RtappNotes notes;
	const Workload w = parse_rtapp(text, "f.json", &notes);
	CHECK(w.duration == 2 * NSEC_PER_SEC);
	CHECK(notes.ignored == std::vector<std::string>{"global.frag", "global.calibration", "global.gnuplot"});
	CHECK(parse_rtapp(text, "f.json") == w);  // the same workload without notes
	// A key rt-app does not know either stays an error.
	CHECK_THROWS_WITH(parse_rtapp(R"({"global": {"fragment_size": 1}, "tasks": {"t": {"run": 1}}})", "f.json"),
			  Contains("global.fragment_size: unknown key"));
}

TEST_CASE("rtapp: uclamp's util_min and util_max are accepted and reported as ignored: no DVFS, capacity 1024", "[rtapp]")
{
	const char* text = R"({"tasks": {"t": {"util_min": 256, "phases": {"p": {"util_max": 512, "run": 10}}}}})";
	RtappNotes notes;
	const Workload w = parse_rtapp(text, "u.json", &notes);
	CHECK(notes.ignored == std::vector<std::string>{"tasks.t.util_min", "tasks.t.phases.p.util_max"});
	CHECK(w == parse_rtapp(R"({"tasks": {"t": {"phases": {"p": {"run": 10}}}}})", "v.json"));
}

TEST_CASE("rtapp: a uclamp value sched_setattr() refuses is refused: outside 0..1024, or util_min above util_max", "[rtapp][errors]")
{
	CHECK_THROWS_WITH(parse(one_task(R"("util_min": 1025, "run": 1)")),
			  Contains("tasks.t.util_min: 1025 is outside 0..1024"));
	CHECK_THROWS_WITH(parse(one_task(R"("util_max": -1, "run": 1)")), Contains("tasks.t.util_max: -1 is outside 0..1024"));
	CHECK_THROWS_WITH(parse(one_task(R"("util_min": 512, "util_max": 256, "run": 1)")),
			  Contains("util_min 512 is above util_max 256"));
	CHECK_NOTHROW(parse(one_task(R"("util_min": 0, "util_max": 1024, "run": 1)")));
}

TEST_CASE("rtapp: bare \"suspend\" keys are read as workgen rewrites them, with the enclosing task's name", "[rtapp]")
{
	// The layout of the Android video use case: one key per line, a bare
	// "suspend" at task level and inside a phase.
	const std::string bare = "{\n"
				 "\t\"tasks\" : {\n"
				 "\t\t\"display\" : {\n"
				 "\t\t\t\"loop\" : -1,\n"
				 "\t\t\t\"suspend\",\n"
				 "\t\t\t\"run\" : 1500\n"
				 "\t\t},\n"
				 "\t\t\"vsync\" : {\n"
				 "\t\t\t\"loop\" : -1,\n"
				 "\t\t\t\"phases\" : {\n"
				 "\t\t\t\t\"p1\" : {\n"
				 "\t\t\t\t\t\"suspend\"\n"
				 "\t\t\t\t}\n"
				 "\t\t\t}\n"
				 "\t\t},\n"
				 "\t\t\"waker\" : {\n"
				 "\t\t\t\"loop\" : -1,\n"
				 "\t\t\t\"sleep\" : 16000,\n"
				 "\t\t\t\"resume\" : \"vsync\",\n"
				 "\t\t\t\"resume\" : \"display\"\n"
				 "\t\t}\n"
				 "\t}\n"
				 "}\n";
	const WorkgenResult w = workgen_suspend(bare);
	CHECK(w.suspends == 2);
	CHECK_THAT(w.text, Contains("\t\t\t\"suspend\" : \"display\",\n"));
	CHECK_THAT(w.text, Contains("\t\t\t\t\t\"suspend\" : \"vsync\"\n"));

	std::string explicit_text = bare;
	explicit_text.replace(explicit_text.find("\"suspend\","), 10, "\"suspend\" : \"display\",");
	explicit_text.replace(explicit_text.find("\"suspend\"\n"), 10, "\"suspend\" : \"vsync\"\n");
	RtappNotes notes;
	CHECK(parse_rtapp(bare, "video.json", &notes) == parse_rtapp(explicit_text, "video.json"));
	CHECK(notes.workgen_suspends == 2);
	// A file that is JSON as written is never rewritten.
	RtappNotes none;
	parse_rtapp(explicit_text, "video.json", &none);
	CHECK(none.workgen_suspends == 0);
	CHECK(workgen_suspend(explicit_text).text == explicit_text);
	// Bad JSON without a bare "suspend" keeps its own error.
	CHECK_THROWS_WITH(parse_rtapp("{\"tasks\": {\"t\": {\"run\" 1}}}", "bad.json"), Contains("bad.json:1:"));
}

TEST_CASE("rtapp: a run that never ends is written as a finite run looping forever, which rt-app ends at its duration",
	  "[rtapp]")
{
	Workload w = hogs_workload(2, 0);
	w.tasks.push_back(task("late", {sleep(1 * MS), run(RUN_FOREVER), run(5)}, 3));
	const Workload t = rtapp_terminating(w);
	const std::string json = to_rtapp_json(t);
	CHECK(json.find("\"run\": -1") == std::string::npos);
	REQUIRE(t.tasks[2].phases.size() == 2);
	CHECK(t.tasks[2].phases[0].events == std::vector<Event>{sleep(MS)});
	CHECK(t.tasks[2].phases[1].loop == LOOP_FOREVER);
	CHECK(t.tasks[2].phases[1].events == std::vector<Event>{run(100 * MS)});
	CHECK(parse_rtapp(json, "t.json") == t);
}

TEST_CASE("rtapp: the model schedules the terminating form of a workload exactly as the original", "[rtapp]")
{
	Workload w = hogs_workload(3, 0);
	w.tasks.push_back(task("late", {sleep(3 * MS), run(RUN_FOREVER)}, 1));
	const Config cfg = config("6.18", 1000);
	const Recorder a = simulate(cfg, w, 500 * MS);
	const Recorder b = simulate(cfg, rtapp_terminating(w), 500 * MS);
	CHECK(a.switches.size() > 100);
	CHECK(a.switches == b.switches);
}

TEST_CASE("rtapp: a task's taskgroup and the groups section give the groups, parents first", "[rtapp][groups]")
{
	const Workload w = parse(R"({"groups": {"/B/C": {"weight": 200}, "/A": {"shares": 512}},
		"tasks": {"t": {"taskgroup": "/B/C", "run": 1}, "u": {"taskgroup": "/D", "run": 1}, "v": {"run": 1}}})");
	REQUIRE(w.groups.size() == 4);
	CHECK(w.groups[0].path == "/B");  // implied by /B/C: the default weight
	CHECK(w.groups[0].shares == NICE_0_LOAD);
	CHECK(w.groups[1].path == "/A");
	CHECK(w.groups[1].shares == 512 << 10);
	CHECK(w.groups[2].path == "/D");  // only named by a task
	CHECK(w.groups[3].path == "/B/C");
	CHECK(w.groups[3].shares == 2048 << 10);  // cpu.weight 200
	CHECK(w.tasks[0].taskgroup == "/B/C");
	CHECK(w.tasks[1].taskgroup == "/D");
	CHECK(w.tasks[2].taskgroup.empty());
}

TEST_CASE("rtapp: cpu.weight.nice gives the nice level's table weight", "[rtapp][groups]")
{
	const Workload w = parse(R"({"groups": {"/A": {"weight.nice": -5}}, "tasks": {"t": {"taskgroup": "/A", "run": 1}}})");
	REQUIRE(w.groups.size() == 1);
	CHECK(w.groups[0].shares == 3121 << 10);
}

TEST_CASE("rtapp: group weights outside the kernel's ranges are refused with the key", "[rtapp][groups][errors]")
{
	auto with_group = [](const std::string& g) {
		return R"({"groups": {"/A": )" + g + R"(}, "tasks": {"t": {"taskgroup": "/A", "run": 1}}})";
	};
	CHECK_THROWS_WITH(parse(with_group(R"({"weight": 0})")), Contains("groups./A.weight: 0 is outside 1..10000"));
	CHECK_THROWS_WITH(parse(with_group(R"({"weight": 10001})")), Contains("outside 1..10000"));
	CHECK_THROWS_WITH(parse(with_group(R"({"shares": 1})")), Contains("groups./A.shares: 1 is outside 2..262144"));
	CHECK_THROWS_WITH(parse(with_group(R"({"shares": 262145})")), Contains("outside 2..262144"));
	CHECK_THROWS_WITH(parse(with_group(R"({"weight.nice": 20})")), Contains("outside -20..19"));
	CHECK_THROWS_WITH(parse(with_group(R"({"weight": 100, "shares": 1024})")), Contains("exactly one of"));
	CHECK_THROWS_WITH(parse(with_group(R"({"cpu.max": 1})")), Contains("unknown key; a group accepts"));
	CHECK_THROWS_WITH(parse(with_group(R"(5)")), Contains("expected an object"));
}

TEST_CASE("rtapp: malformed group paths are refused", "[rtapp][groups][errors]")
{
	CHECK_THROWS_WITH(parse(one_task(R"("taskgroup": "A", "run": 1)")), Contains("tasks.t.taskgroup: a group path starts with '/'"));
	CHECK_THROWS_WITH(parse(one_task(R"("taskgroup": "/A//B", "run": 1)")), Contains("empty name"));
	CHECK_THROWS_WITH(parse(one_task(R"("taskgroup": "/A/", "run": 1)")), Contains("empty name"));
	CHECK_THROWS_WITH(parse(one_task(R"("taskgroup": "/A B", "run": 1)")), Contains("space or a control character"));
	CHECK_THROWS_WITH(parse(one_task(R"("taskgroup": "/1/2/3/4/5/6/7/8/9", "run": 1)")), Contains("8 levels"));
	CHECK_THROWS_WITH(parse(one_task(R"("taskgroup": 7, "run": 1)")), Contains("expected a group path string"));
	CHECK_THROWS_WITH(parse(R"({"groups": {"/A": {"weight": 1}, "/A": {"weight": 2}}, "tasks": {"t": {"run": 1}}})"),
			  Contains("given twice"));
}

TEST_CASE("rtapp: cpu.idle 1 makes an idle group, 0 a normal one", "[rtapp][groups]")
{
	const Workload w = parse(R"({"groups": {"/I": {"idle": 1}, "/N": {"idle": 0}}, "tasks": {"t": {"taskgroup": "/I", "run": 1}}})");
	REQUIRE(w.groups.size() == 2);
	CHECK(w.groups[0].idle);
	CHECK_FALSE(w.groups[1].idle);
	CHECK(w.groups[1].shares == NICE_0_LOAD);
}

TEST_CASE("rtapp: cpu.idle other than 0 or 1, or beside a weight, is refused with the key", "[rtapp][groups][errors]")
{
	auto with_group = [](const std::string& g) {
		return R"({"groups": {"/A": )" + g + R"(}, "tasks": {"t": {"taskgroup": "/A", "run": 1}}})";
	};
	CHECK_THROWS_WITH(parse(with_group(R"({"idle": 2})")), Contains("groups./A.idle: 2 is not 0 or 1"));
	CHECK_THROWS_WITH(parse(with_group(R"({"idle": -1})")), Contains("groups./A.idle: -1 is not 0 or 1"));
	CHECK_THROWS_WITH(parse(with_group(R"({"idle": true})")), Contains("groups./A.idle"));
	CHECK_THROWS_WITH(parse(with_group(R"({"idle": 1, "shares": 2048})")), Contains("an idle group's weight is fixed"));
}

TEST_CASE("rtapp: a phase's taskgroup moves the thread there when the phase starts", "[rtapp][groups]")
{
	// rt-app's set_thread_taskgroup() at each phase start, after the
	// phase's priority: a MoveGroup event; "/" is the root cgroup.
	const Workload w = parse(R"({"groups": {"/A": {"shares": 512}},
		"tasks": {"t": {"taskgroup": "/A", "phases": {
			"p": {"taskgroup": "/B/C", "priority": 3, "run": 1},
			"q": {"taskgroup": "/", "run": 2},
			"r": {"run": 3}}}}})");
	REQUIRE(w.groups.size() == 3);
	CHECK(w.groups[2].path == "/B/C");  // named only by the phase
	const auto& ph = w.tasks[0].phases;
	REQUIRE(ph.size() == 3);
	REQUIRE(ph[0].events.size() == 3);
	CHECK(ph[0].events[0].kind == Event::Kind::SetNice);
	CHECK(ph[0].events[1].kind == Event::Kind::MoveGroup);
	CHECK(ph[0].events[1].ref == 2);
	CHECK(ph[1].events[0].kind == Event::Kind::MoveGroup);
	CHECK(ph[1].events[0].ref == -1);
	CHECK(ph[2].events[0].kind == Event::Kind::Run);  // no taskgroup: the thread stays where it is
	CHECK(parse(to_rtapp_json(w)) == w);
}

TEST_CASE("rtapp: a group_idle event writes a group's cpu.idle", "[rtapp][groups]")
{
	const Workload w = parse(R"({"groups": {"/A": {"shares": 512}},
		"tasks": {"t": {"run": 1, "group_idle": {"group": "/A", "idle": 1}, "run1": 2,
				"group_idle1": {"group": "/B", "idle": 0}}}})");
	REQUIRE(w.groups.size() == 2);
	const auto& ev = w.tasks[0].phases[0].events;
	REQUIRE(ev.size() == 4);
	CHECK(ev[1].kind == Event::Kind::SetIdle);
	CHECK(ev[1].ref == 0);
	CHECK(ev[1].value == 1);
	CHECK(ev[3].ref == 1);  // /B, named only here
	CHECK(ev[3].value == 0);
	CHECK(parse(to_rtapp_json(w)) == w);
	CHECK_THROWS_WITH(parse(one_task(R"("run": 1, "group_idle": {"group": "/A", "idle": 2})")),
			  Contains("tasks.t.group_idle.idle: expected 0 or 1"));
	CHECK_THROWS_WITH(parse(one_task(R"("run": 1, "group_idle": {"group": "/A"})")),
			  Contains("tasks.t.group_idle: expected {\"group\": PATH, \"idle\": 0 or 1}"));
}

TEST_CASE("rtapp: groups and taskgroups are written back as they are read", "[rtapp][groups]")
{
	const Workload w = parse(R"({"groups": {"/B/C": {"weight": 200}, "/A": {"shares": 512}, "/I": {"idle": 1}},
		"tasks": {"t": {"taskgroup": "/B/C", "run": 1}, "u": {"taskgroup": "/D", "run": 1}, "v": {"run": 1}}})");
	CHECK(parse(to_rtapp_json(w)) == w);
}
