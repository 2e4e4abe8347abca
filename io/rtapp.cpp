// SPDX-License-Identifier: GPL-2.0-only
// rt-app JSON <-> Workload.
//
// The semantics follow rt-app's own parser and runner (scheduler-tools/rt-app,
// src/rt-app_parse_config.c and src/rt-app.c):
// - An event key is the event name, optionally followed by digits: rt-app
//   matches keys by prefix, and its workgen script makes repeated keys unique
//   by appending digits ("run", "run1"). Repeated keys are also kept as is.
// - A task without "phases" has one implicit phase holding its events; its
//   "loop" becomes the phase's loop and the task runs once, and without a
//   "loop" the task loops forever (parse_task_data()). A task with "phases"
//   loops forever unless it has a "loop".
// - Phase-level "priority" / "dl-runtime" are applied when the phase starts
//   (set_thread_param()); here they are SetNice / SetSlice events at the start
//   of the phase. A phase-level "policy" without "priority" resets nice to
//   rt-app's default, 0 (parse_sched_data(), DEFAULT_THREAD_NICE).
// - Thread i of a task with "instance" > 1 is named "NAME-IDX", IDX being the
//   thread's index among all threads of the file, as rt-app names it
//   (thread_data_set_unique_name()). A single-instance task keeps its name.
// - A timer whose ref starts with "unique" is private to each thread
//   (parse_task_event_data()): its ref is named "REF@THREAD".
// - A "suspend" with an empty name waits on the task's own name (tutorial).
// - lock/unlock are the model's MutexLock/MutexUnlock on a glibc mutex,
//   contended as the schedule decides (the thread sleeps on the futex and
//   retakes the mutex when woken). rt-app keeps resources by name and type
//   (get_resource_index()), so mutex NAME is ref "mutex:NAME", apart from
//   a condition NAME.
// - wait/signal/broad/sync are pthread condition variables on the same
//   resources as suspend/resume: wait = CondWait + MutexLock (the re-lock on
//   return), signal = CondSignal, broad = Resume (a broadcast), sync =
//   signal then wait. A wait or sync without "mutex" uses rt-app's default
//   mutex, "unknown" (parse_task_event_data()).
// - mem, iorun and fork are refused with the reason.

#include "io/rtapp.hpp"
#include "io/workgen.hpp"
#include "io/input_file.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "io/json.hpp"

namespace eevdf {

namespace {

using json::Member;
using json::Value;

constexpr std::size_t MAX_THREADS = 4096;
constexpr std::size_t MAX_EVENTS = std::size_t{1} << 20;
constexpr u64 MAX_US = MAX_TIME_NS / NSEC_PER_USEC;  // 4611686018427387 us

constexpr const char* SUPPORTED_EVENTS =
	"run, runtime, sleep, timer, suspend, resume, yield, barrier, lock, unlock, wait, signal, broad, sync";

// What an rt-app event key is: one of the model's events, a mutex or
// condition-variable event (translate()), or unsupported.
enum class Op { Model, Lock, Unlock, Wait, Signal, Broad, Sync, Unsupported };

struct EventName {
	std::string_view name;
	Op op;
	Event::Kind kind;
	const char* why = nullptr;  // for Op::Unsupported: why the model cannot run it
};

constexpr EventName EVENT_NAMES[] = {
	{"run", Op::Model, Event::Kind::Run},          {"runtime", Op::Model, Event::Kind::Runtime},
	{"sleep", Op::Model, Event::Kind::Sleep},      {"timer", Op::Model, Event::Kind::Timer},
	{"suspend", Op::Model, Event::Kind::Suspend},  {"resume", Op::Model, Event::Kind::Resume},
	{"yield", Op::Model, Event::Kind::Yield},      {"lock", Op::Lock, {}},
	{"unlock", Op::Unlock, {}},                    {"wait", Op::Wait, {}},
	{"signal", Op::Signal, {}},                    {"broad", Op::Broad, {}},
	{"sync", Op::Sync, {}},
	{"barrier", Op::Model, Event::Kind::Barrier},
	{"mem", Op::Unsupported, {}, "is not supported by the model (no memory or cache model)"},
	{"iorun", Op::Unsupported, {}, "is not supported by the model (no I/O devices; use \"sleep\" for the wait)"},
	{"fork", Op::Unsupported, {}, "is not supported by the model yet (tasks are created at their \"delay\")"},
};

const EventName* find_event(std::string_view key)
{
	std::string_view base = key.substr(0, key.find_last_not_of("0123456789") + 1);
	for (const EventName& e : EVENT_NAMES)
		if (e.name == base)
			return &e;
	return nullptr;
}

// rt-app properties the model cannot honour, with the reason.
const char* unsupported_property(std::string_view key)
{
	if (key == "taskgroup")
		return "is not supported by the model yet (no group scheduling)";
	if (key == "dl-period" || key == "dl-deadline" || key == "period" || key == "deadline")
		return "only applies to SCHED_DEADLINE; the model covers the fair class (SCHED_OTHER) only";
	if (key == "nodes_membind" || key == "membind_nodes")
		return "is not supported by the model yet (no NUMA)";
	return nullptr;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

class Reader {
public:
	Reader(const std::string& filename, RtappNotes* notes) : file_(filename), notes_(notes) {}

	Workload read(std::string_view text)
	{
		Value root = json::parse(text, file_);
		if (!root.is_object())
			fail(root, "", "the file must be an object with \"tasks\" (and optionally \"global\"), got " +
						json::describe(root));
		const Member *global = nullptr, *tasks = nullptr, *resources = nullptr;
		for (const Member& m : root.members) {
			const Member** slot = m.key == "global" ? &global
					    : m.key == "tasks"  ? &tasks
					    : m.key == "resources" ? &resources  // legacy, created on use: ignored
								   : nullptr;
			if (!slot)
				fail(m, m.key, "unknown top-level key; accepted: global, tasks, resources");
			if (*slot)
				fail(m, m.key, "given twice");
			*slot = &m;
		}
		if (global)
			read_global(global->value);
		if (!tasks)
			fail(root, "", "missing the required \"tasks\" object");
		read_tasks(tasks->value);
		return std::move(w_);
	}

private:
	const std::string& file_;
	RtappNotes* notes_;
	Workload w_;
	Policy default_policy_ = Policy::Normal;
	std::size_t events_ = 0;
	std::set<std::string> thread_names_;

	[[noreturn]] void fail_at(int line, int col, const std::string& path, const std::string& msg) const
	{
		throw InputError(file_ + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " +
				 (path.empty() ? "" : path + ": ") + msg);
	}
	[[noreturn]] void fail(const Value& v, const std::string& path, const std::string& msg) const
	{
		fail_at(v.line, v.column, path, msg);
	}
	[[noreturn]] void fail(const Member& m, const std::string& path, const std::string& msg) const
	{
		fail_at(m.line, m.column, path, msg);
	}

	s64 integer(const Value& v, const std::string& path, const std::string& expected) const
	{
		s64 n = 0;
		bool plain = v.type == Value::Type::Number && v.text.find_first_of(".eE") == std::string::npos;
		if (!plain)
			fail(v, path, "expected " + expected + ", got " + json::describe(v));
		auto [end, ec] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), n);
		if (ec != std::errc() || end != v.text.data() + v.text.size())
			fail(v, path, json::describe(v) + " is out of range; expected " + expected);
		return n;
	}

	u64 micros(const Value& v, const std::string& path, const char* expected = "a whole number of microseconds >= 0") const
	{
		s64 us = integer(v, path, expected);
		if (us < 0)
			fail(v, path, "expected " + std::string(expected) + ", got " + json::describe(v));
		if (static_cast<u64>(us) > MAX_US)
			fail(v, path, json::describe(v) + " us is too large; the limit is " + std::to_string(MAX_US) +
					      " (2^62 ns, 146 years)");
		return static_cast<u64>(us) * NSEC_PER_USEC;
	}

	s64 loop(const Value& v, const std::string& path) const
	{
		s64 n = integer(v, path, "-1 (forever) or a count >= 1");
		if (n == -1)
			return LOOP_FOREVER;
		if (n < 1)
			fail(v, path, "expected -1 (forever) or a count >= 1, got " + json::describe(v));
		return n;
	}

	int nice(const Value& v, const std::string& path) const
	{
		const char* expected = "a nice value from -20 to 19";
		s64 n = integer(v, path, expected);
		if (n < -20 || n > 19)
			fail(v, path, "expected " + std::string(expected) + ", got " + json::describe(v));
		return static_cast<int>(n);
	}

	const std::string& name(const Value& v, const std::string& path, bool allow_empty = false) const
	{
		if (!v.is_string() || (!allow_empty && v.text.empty()))
			fail(v, path, "expected a non-empty name (a string), got " + json::describe(v));
		return v.text;
	}

	Policy policy(const Value& v, const std::string& path) const
	{
		if (v.is_string() && v.text == "SCHED_OTHER")
			return Policy::Normal;
		if (v.is_string() && v.text == "SCHED_BATCH")
			return Policy::Batch;
		if (v.is_string() && v.text == "SCHED_IDLE")
			return Policy::Idle;
		for (const char* p : {"SCHED_FIFO", "SCHED_RR", "SCHED_DEADLINE"})
			if (v.is_string() && v.text == p)
				fail(v, path, v.text + " is not modelled: the model covers the fair class (SCHED_OTHER, SCHED_BATCH, "
						       "SCHED_IDLE) only");
		fail(v, path, "unknown policy " + json::describe(v) + "; accepted: \"SCHED_OTHER\", \"SCHED_BATCH\", \"SCHED_IDLE\"");
	}

	// Global "duration": whole or decimal seconds; -1 and 0 mean until the tasks end.
	u64 seconds(const Value& v, const std::string& path) const
	{
		const char* expected = "seconds >= 0 (such as 2 or 0.5), or -1 to run until the tasks end";
		const std::string& t = v.text;
		if (v.type != Value::Type::Number || t.find_first_of("eE") != std::string::npos)
			fail(v, path, "expected " + std::string(expected) + ", got " + json::describe(v));
		std::size_t dot = t.find('.');
		std::string whole = t.substr(0, dot), frac = dot == std::string::npos ? "" : t.substr(dot + 1);
		bool frac_zero = frac.find_first_not_of('0') == std::string::npos;
		if (whole[0] == '-') {
			if (whole == "-1" && frac_zero)
				return 0;
			if (!(whole == "-0" && frac_zero))
				fail(v, path, "expected " + std::string(expected) + ", got " + json::describe(v));
			return 0;
		}
		if (frac.size() > 9 && frac.find_first_not_of('0', 9) != std::string::npos)
			fail(v, path, json::describe(v) + " is finer than a nanosecond");
		frac.resize(9, '0');
		u64 s = 0;
		auto [end, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), s);
		if (ec != std::errc() || s >= MAX_TIME_NS / NSEC_PER_SEC)
			fail(v, path, json::describe(v) + " s is too long; the limit is 2^62 ns (146 years)");
		return s * NSEC_PER_SEC + std::stoull(frac);
	}

	void read_global(const Value& g)
	{
		if (!g.is_object())
			fail(g, "global", "expected an object, got " + json::describe(g));
		// rt-app's own settings that change nothing the fair class does;
		// "frag" is a legacy key of the Android use-case files, which rt-app
		// never reads (it ignores keys it does not know).
		static const std::set<std::string_view> ignored = {
			"calibration", "pi_enabled", "lock_pages", "logdir", "log_basename", "log_size",
			"ftrace", "gnuplot", "io_device", "mem_buffer_size", "cumulative_slack", "frag"};
		std::set<std::string> seen;
		for (const Member& m : g.members) {
			std::string path = "global." + m.key;
			if (!seen.insert(m.key).second)
				fail(m, path, "given twice");
			if (m.key == "duration")
				w_.duration = seconds(m.value, path);
			else if (m.key == "default_policy")
				default_policy_ = policy(m.value, path);
			else if (!ignored.count(m.key))
				fail(m, path, "unknown key; accepted: duration, default_policy, calibration, pi_enabled, "
					      "lock_pages, logdir, log_basename, log_size, ftrace, gnuplot, io_device, "
					      "mem_buffer_size, cumulative_slack, frag");
			else if (notes_)
				notes_->ignored.push_back(path);
		}
	}

	void read_tasks(const Value& tasks)
	{
		if (!tasks.is_object())
			fail(tasks, "tasks", "expected an object of named tasks, got " + json::describe(tasks));
		if (tasks.members.empty())
			fail(tasks, "tasks", "there are no tasks; define at least one");
		for (const Member& m : tasks.members)
			read_task(m);
	}

	// The members of a task or phase object, sorted into properties and events.
	struct Fields {
		std::map<std::string, const Member*> props;
		std::vector<std::pair<const Member*, const EventName*>> events;
	};

	Fields sort_fields(const Value& obj, const std::string& path, bool task) const
	{
		static const std::set<std::string_view> task_props = {
			"instance", "loop", "phases", "policy", "priority", "dl-runtime", "delay", "cpus"};
		static const std::set<std::string_view> phase_props = {"loop", "policy", "priority", "dl-runtime", "cpus"};
		const auto& props = task ? task_props : phase_props;
		Fields f;
		for (const Member& m : obj.members) {
			std::string p = path + "." + m.key;
			if (props.count(m.key)) {
				if (!f.props.emplace(m.key, &m).second)
					fail(m, p, "given twice");
				continue;
			}
			if (const EventName* e = find_event(m.key)) {
				if (e->op == Op::Unsupported)
					fail(m, p, "the rt-app event \"" + std::string(e->name) + "\" " + e->why +
							   "; supported events: " + SUPPORTED_EVENTS);
				f.events.emplace_back(&m, e);
				continue;
			}
			if (const char* why = unsupported_property(m.key))
				fail(m, p, why);
			// uclamp's util_min/util_max steer frequency selection and EAS
			// placement on asymmetric CPUs; at capacity 1024 without DVFS
			// (the model's machine) the fair class decides nothing on them.
			if (m.key == "util_min" || m.key == "util_max") {
				if (m.value.type != Value::Type::Number)
					fail(m, p, "expected a number 0..1024, found " + json::describe(m.value));
				if (notes_)
					notes_->ignored.push_back(p);
				continue;
			}
			if (!task && task_props.count(m.key))
				fail(m, p, "is a task property; it cannot be set in a phase");
			std::string msg = "unknown key; a " + std::string(task ? "task" : "phase") + " accepts ";
			for (std::string_view k : props)
				msg += std::string(k) + ", ";
			msg += std::string("and the events ") + SUPPORTED_EVENTS;
			for (const EventName& e : EVENT_NAMES) {
				if (starts_with(m.key, e.name)) {
					msg += " (rt-app reads any key starting with \"" + std::string(e.name) +
					       "\" as that event; the model accepts the name followed only by digits, "
					       "as rt-app's workgen writes repeated keys: \"" +
					       std::string(e.name) + "1\")";
					break;
				}
			}
			fail(m, p, msg);
		}
		return f;
	}

	// rt-app applies a phase's "cpus" when the phase starts, and a phase
	// without one returns the thread to its default set (the task-level
	// "cpus", or every CPU): so once any phase sets an affinity, every other
	// phase gets the default back.
	void default_affinity(TaskSpec& t)
	{
		auto sets = [](const Phase& p) {
			return !p.events.empty() && std::any_of(p.events.begin(), p.events.end(), [](const Event& e) {
				return e.kind == Event::Kind::SetAffinity;
			});
		};
		if (std::none_of(t.phases.begin(), t.phases.end(), sets))
			return;
		int def = -1;
		for (Phase& p : t.phases) {
			if (sets(p))
				continue;
			if (def < 0) {
				w_.cpu_sets.push_back(t.cpus);  // empty: every CPU
				def = static_cast<int>(w_.cpu_sets.size() - 1);
			}
			// After any phase-level nice / slice events, before the rest.
			auto at = p.events.begin();
			while (at != p.events.end() && (at->kind == Event::Kind::SetNice || at->kind == Event::Kind::SetSlice))
				++at;
			p.events.insert(at, Event{Event::Kind::SetAffinity, 0, def, 0});
		}
	}

	// rt-app "cpus": an array of CPU numbers (the affinity mask).
	std::vector<u32> cpu_list(const Value& v, const std::string& path) const
	{
		if (v.type != Value::Type::Array || v.items.empty())
			fail(v, path, "expected a non-empty array of CPU numbers, got " + json::describe(v));
		std::vector<u32> cpus;
		for (const Value& e : v.items) {
			const s64 c = integer(e, path, "a CPU number from 0 to 255");
			if (c < 0 || c > 255)
				fail(e, path, "expected a CPU number from 0 to 255, got " + json::describe(e));
			cpus.push_back(static_cast<u32>(c));
		}
		return cpus;
	}

	Event event(const Member& m, const EventName& en, const std::string& path, const std::string& task,
		    const std::string& thread)
	{
		const Value& v = m.value;
		Event e;
		e.kind = en.kind;
		switch (en.kind) {
		case Event::Kind::Run:
			if (v.type == Value::Type::Number && v.text == "-1")
				e.ns = RUN_FOREVER;  // rt-app turns -1 into ~2^64 us of work: forever
			else
				e.ns = micros(v, path, "a whole number of microseconds >= 0, or -1 to run forever");
			break;
		case Event::Kind::Runtime:
		case Event::Kind::Sleep:
			e.ns = micros(v, path);
			break;
		case Event::Kind::Timer:
			timer(v, path, thread, e);
			break;
		case Event::Kind::Suspend: {
			const std::string& n = name(v, path, true);
			e.ref = w_.ref(n.empty() ? task : n);
			break;
		}
		case Event::Kind::Resume:
			e.ref = w_.ref(name(v, path));
			break;
		case Event::Kind::Barrier:
			e.ref = w_.ref(name(v, path));
			break;
		case Event::Kind::Yield:  // rt-app ignores the value
		case Event::Kind::SetNice:
		case Event::Kind::SetSlice:
		case Event::Kind::SetAffinity:
		case Event::Kind::FutexBlock:  // never parsed: rt-app has no futex events
		case Event::Kind::FutexWait:
		case Event::Kind::FutexPost:
		case Event::Kind::ListPush:
		case Event::Kind::ListPost:
		case Event::Kind::MutexLock:  // translate() makes these
		case Event::Kind::MutexUnlock:
		case Event::Kind::CondWait:
		case Event::Kind::CondSignal:
			break;
		}
		return e;
	}

	// A condition variable's name: rt-app's "ref" of wait/sync, the string
	// of signal/broad; for wait/sync also its mutex's ref (rt-app's "unknown"
	// when the file names none).
	// The condition's name; for wait and sync (object) also the mutex's
	// name in *mutex ("unknown", rt-app's default, when none is given).
	const std::string& cond_ref(const Value& v, const std::string& path, bool object, std::string* mutex = nullptr)
	{
		if (!object)
			return name(v, path);
		if (!v.is_object())
			fail(v, path, "expected {\"ref\": CONDITION, \"mutex\": MUTEX}, got " + json::describe(v));
		const Member *ref = nullptr, *mtx = nullptr;
		for (const Member& m : v.members) {
			if (m.key != "ref" && m.key != "mutex")
				fail(m, path + "." + m.key, "unknown key; wait and sync accept ref and mutex");
			name(m.value, path + "." + m.key);
			(m.key == "ref" ? ref : mtx) = &m;
		}
		if (!ref)
			fail(v, path, "needs a \"ref\": the name of the condition");
		if (mutex)
			*mutex = mtx ? mtx->value.text : "unknown";
		return ref->value.text;
	}

	int mutex_ref(const std::string& name) { return w_.ref("mutex:" + name); }

	// An rt-app event as the model's events. A lock the same phase has
	// already taken, with no unlock between, is refused: rt-app's thread
	// would deadlock on its own (non-recursive) mutex at once.
	void translate(const Member& m, const EventName& en, const std::string& path, const std::string& task,
		       const std::string& thread, Phase& p, std::map<std::string, const Member*>& held)
	{
		const Value& v = m.value;
		auto push = [&p](Event::Kind k, int ref, int value = 0) { p.events.push_back(Event{k, 0, ref, value}); };
		switch (en.op) {
		case Op::Model:
			p.events.push_back(event(m, en, path, task, thread));
			return;
		case Op::Lock: {
			const std::string& mtx = name(v, path);
			if (auto it = held.find(mtx); it != held.end())
				fail(m, path, "mutex \"" + mtx + "\" is already held by this thread (locked at line " +
						      std::to_string(it->second->line) + "): rt-app would deadlock here");
			held.emplace(mtx, &m);
			push(Event::Kind::MutexLock, mutex_ref(mtx));
			return;
		}
		case Op::Unlock: {
			const std::string& mtx = name(v, path);
			held.erase(mtx);
			push(Event::Kind::MutexUnlock, mutex_ref(mtx));
			return;
		}
		case Op::Signal:
			push(Event::Kind::CondSignal, w_.ref(cond_ref(v, path, false)));
			return;
		case Op::Broad:
			push(Event::Kind::Resume, w_.ref(cond_ref(v, path, false)));
			return;
		case Op::Wait:
		case Op::Sync: {
			// The condition's ref before the mutex's, the order in which
			// the writer's signal + wait read back.
			std::string mutex_name;
			const int cond = w_.ref(cond_ref(v, path, true, &mutex_name));
			const int mutex = mutex_ref(mutex_name);
			if (en.op == Op::Sync)
				push(Event::Kind::CondSignal, cond);
			push(Event::Kind::CondWait, cond, mutex);
			push(Event::Kind::MutexLock, mutex);
			return;
		}
		case Op::Unsupported:
			break;
		}
	}

	void timer(const Value& v, const std::string& path, const std::string& thread, Event& e)
	{
		if (!v.is_object())
			fail(v, path, "expected {\"ref\": NAME, \"period\": MICROSECONDS}, got " + json::describe(v));
		const Member *ref = nullptr, *period = nullptr, *mode = nullptr;
		for (const Member& m : v.members) {
			const Member** slot = m.key == "ref" ? &ref : m.key == "period" ? &period : m.key == "mode" ? &mode : nullptr;
			if (!slot)
				fail(m, path + "." + m.key, "unknown key; a timer accepts ref, period and mode");
			if (*slot)
				fail(m, path + "." + m.key, "given twice");
			*slot = &m;
		}
		if (!ref)
			fail(v, path, "the timer needs a \"ref\": the name of the timer");
		if (!period)
			fail(v, path, "the timer needs a \"period\" in microseconds");
		if (mode) {
			const Value& mv = mode->value;
			if (mv.is_string() && mv.text == "absolute")
				fail(mv, path + ".mode", "\"absolute\" timers are not supported by the model yet; "
							 "accepted: \"relative\" (rt-app's default)");
			if (!mv.is_string() || mv.text != "relative")
				fail(mv, path + ".mode", "expected \"relative\", got " + json::describe(mv));
		}
		std::string n = name(ref->value, path + ".ref");
		e.ref = w_.ref(starts_with(n, "unique") ? n + "@" + thread : n);
		e.ns = micros(period->value, path + ".period");
	}

	void add_events(Phase& p, const Fields& f, const std::string& path, const std::string& task,
			const std::string& thread)
	{
		std::map<std::string, const Member*> held;  // mutexes this phase has locked and not unlocked
		for (const auto& [m, en] : f.events) {
			if (++events_ > MAX_EVENTS)
				fail(*m, path + "." + m->key, "the workload is too large: more than " +
								  std::to_string(MAX_EVENTS) + " events after expanding instances");
			translate(*m, *en, path + "." + m->key, task, thread, p, held);
		}
	}

	const Member* prop(const Fields& f, const char* key) const
	{
		auto it = f.props.find(key);
		return it == f.props.end() ? nullptr : it->second;
	}

	Phase read_phase(const Member& pm, const std::string& path, const std::string& task, const std::string& thread,
			 Policy task_policy)
	{
		const Value& obj = pm.value;
		if (!obj.is_object())
			fail(obj, path, "expected an object describing the phase, got " + json::describe(obj));
		Fields f = sort_fields(obj, path, false);
		if (f.events.empty())
			fail(pm, path, std::string("the phase has no events; give it at least one of ") + SUPPORTED_EVENTS);
		Phase p;
		p.name = pm.key;
		if (const Member* m = prop(f, "loop"))
			p.loop = loop(m->value, path + ".loop");
		if (const Member* m = prop(f, "policy"))
			if (policy(m->value, path + ".policy") != task_policy)
				fail(m->value, path + ".policy",
				     "a policy change within a task (between SCHED_OTHER, SCHED_BATCH and SCHED_IDLE) is not modelled yet; give the "
				     "task one policy");
		if (const Member* m = prop(f, "priority"))
			p.events.push_back(Event{Event::Kind::SetNice, 0, -1, nice(m->value, path + ".priority")});
		else if (prop(f, "policy"))
			p.events.push_back(Event{Event::Kind::SetNice, 0, -1, 0});
		if (const Member* m = prop(f, "dl-runtime"))
			p.events.push_back(Event{Event::Kind::SetSlice, micros(m->value, path + ".dl-runtime"), -1, 0});
		if (const Member* m = prop(f, "cpus")) {
			w_.cpu_sets.push_back(cpu_list(m->value, path + ".cpus"));
			p.events.push_back(Event{Event::Kind::SetAffinity, 0, static_cast<int>(w_.cpu_sets.size() - 1), 0});
		}
		add_events(p, f, path, task, thread);
		return p;
	}

	void read_task(const Member& tm)
	{
		const std::string path = "tasks." + tm.key;
		if (tm.key.empty())
			fail(tm, "tasks", "a task name must not be empty");
		// The name goes into every output (ftrace lines, CSV rows, tables):
		// a control character would forge a line or a field there. The
		// kernel's comm is printable text; so must the name be.
		for (const char c : tm.key)
			if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
				fail(tm, "tasks", "the task name " + json::quote(tm.key) +
							  " has a control character; names must be printable");
		const Value& obj = tm.value;
		if (!obj.is_object())
			fail(obj, path, "expected an object describing the task, got " + json::describe(obj));
		Fields f = sort_fields(obj, path, true);

		TaskSpec base;
		s64 instances = 1;
		if (const Member* m = prop(f, "instance")) {
			instances = integer(m->value, path + ".instance", "a count of threads >= 1");
			if (instances < 1)
				fail(m->value, path + ".instance",
				     "expected a count of threads >= 1, got " + json::describe(m->value) +
					     " (rt-app's 0, for tasks created only by fork events, is not supported)");
		}
		base.policy = default_policy_;
		if (const Member* m = prop(f, "policy"))
			base.policy = policy(m->value, path + ".policy");
		if (const Member* m = prop(f, "priority"))
			base.nice = nice(m->value, path + ".priority");
		if (const Member* m = prop(f, "dl-runtime"))
			base.custom_slice = micros(m->value, path + ".dl-runtime");
		if (const Member* m = prop(f, "delay"))
			base.delay = micros(m->value, path + ".delay");
		if (const Member* m = prop(f, "cpus"))
			base.cpus = cpu_list(m->value, path + ".cpus");
		const Member* loop_m = prop(f, "loop");
		s64 count = loop_m ? loop(loop_m->value, path + ".loop") : LOOP_FOREVER;

		const Member* phases = prop(f, "phases");
		if (phases) {
			if (!f.events.empty()) {
				const Member& e = *f.events.front().first;
				fail(e, path + "." + e.key,
				     "a task with \"phases\" cannot also have events of its own (rt-app ignores them); "
				     "move the event into a phase");
			}
			const Value& ps = phases->value;
			if (!ps.is_object() || ps.members.empty())
				fail(ps, path + ".phases", "expected an object of one or more named phases, got " +
								   json::describe(ps));
		} else if (f.events.empty()) {
			fail(tm, path, std::string("the task has no events; give it at least one of ") + SUPPORTED_EVENTS);
		}

		for (s64 i = 0; i < instances; i++) {
			TaskSpec t = base;
			t.name = instances == 1 ? tm.key : tm.key + "-" + std::to_string(w_.tasks.size());
			if (w_.tasks.size() >= MAX_THREADS)
				fail(tm, path, "too many threads: the limit is " + std::to_string(MAX_THREADS));
			if (!thread_names_.insert(t.name).second)
				fail(tm, path, "a second thread named \"" + t.name + "\"; task and thread names must be unique" +
						       (instances == 1 ? "" : " (thread i of an instance task is named NAME-i)"));
			if (phases) {
				t.loop = count;
				for (const Member& pm : phases->value.members)
					t.phases.push_back(read_phase(pm, path + ".phases." + pm.key, tm.key, t.name, t.policy));
				default_affinity(t);
			} else {
				Phase p;
				p.name = "phase0";
				p.loop = loop_m ? count : 1;
				t.loop = loop_m ? 1 : LOOP_FOREVER;
				add_events(p, f, path, tm.key, t.name);
				t.phases.push_back(std::move(p));
			}
			w_.tasks.push_back(std::move(t));
		}
	}
};

// ---- writing ----

std::string us(u64 ns, const std::string& what)
{
	if (ns % NSEC_PER_USEC)
		throw std::invalid_argument(what + ": " + std::to_string(ns) +
					    " ns is not a whole number of microseconds, the unit of rt-app times");
	return std::to_string(ns / NSEC_PER_USEC);
}

std::string loop_str(s64 loop, const std::string& what)
{
	if (loop != LOOP_FOREVER && loop < 1)
		throw std::invalid_argument(what + ": loop " + std::to_string(loop) + " is neither LOOP_FOREVER nor >= 1");
	return std::to_string(loop);
}

std::string cpus_str(const std::vector<u32>& cpus)
{
	std::string s = "[";
	for (std::size_t i = 0; i < cpus.size(); i++)
		s += (i ? ", " : "") + std::to_string(cpus[i]);
	return s + "]";
}

std::string nice_str(int nice, const std::string& what)
{
	if (nice < -20 || nice > 19)
		throw std::invalid_argument(what + ": nice " + std::to_string(nice) + " is outside -20..19");
	return std::to_string(nice);
}

// A run of events that becomes one rt-app phase: optional phase-level
// priority and dl-runtime, then at least one event.
struct Segment {
	std::optional<int> nice;
	std::optional<u64> slice;
	std::optional<int> cpus;  // index into Workload::cpu_sets
	std::vector<const Event*> events;
};

std::vector<Segment> segments(const Phase& p, const std::string& what)
{
	std::vector<Segment> out;
	const auto& ev = p.events;
	for (std::size_t i = 0; i < ev.size();) {
		Segment s;
		if (ev[i].kind == Event::Kind::SetNice)
			s.nice = ev[i++].value;
		if (i < ev.size() && ev[i].kind == Event::Kind::SetSlice)
			s.slice = ev[i++].ns;
		if (i < ev.size() && ev[i].kind == Event::Kind::SetAffinity)
			s.cpus = ev[i++].ref;
		for (; i < ev.size() && ev[i].kind != Event::Kind::SetNice && ev[i].kind != Event::Kind::SetSlice &&
		       ev[i].kind != Event::Kind::SetAffinity;
		     i++)
			s.events.push_back(&ev[i]);
		if (s.events.empty())
			throw std::invalid_argument(what + ": a nice or slice change must be followed by another event "
							   "(in that order: nice, then slice), or rt-app cannot express it");
		out.push_back(std::move(s));
	}
	if (out.empty())
		throw std::invalid_argument(what + ": the phase has no events");
	if (out.size() > 1 && p.loop != 1)
		throw std::invalid_argument(what + ": nice or slice changes inside a looping phase cannot be "
						   "written as rt-app phase properties");
	return out;
}

class Writer {
public:
	explicit Writer(const Workload& w) : w_(w) {}

	std::string write()
	{
		out_ = "{\n\t\"global\": {\n\t\t\"duration\": " + duration() +
		       ",\n\t\t\"default_policy\": \"SCHED_OTHER\",\n\t\t\"calibration\": \"CPU0\"\n\t},\n\t\"tasks\": {";
		if (w_.tasks.empty())
			throw std::invalid_argument("the workload has no tasks");
		std::set<std::string> names;
		for (std::size_t i = 0; i < w_.tasks.size(); i++) {
			const TaskSpec& t = w_.tasks[i];
			if (t.name.empty() || !names.insert(t.name).second)
				throw std::invalid_argument("task " + std::to_string(i) + ": names must be non-empty and unique");
			out_ += i ? ",\n" : "\n";
			task(t);
		}
		out_ += "\n\t}\n}\n";
		return out_;
	}

private:
	const Workload& w_;
	std::string out_;

	std::string duration() const
	{
		if (w_.duration == 0)
			return "-1";
		std::string s = std::to_string(w_.duration / NSEC_PER_SEC);
		if (u64 frac = w_.duration % NSEC_PER_SEC) {
			std::string f = std::to_string(frac);
			f = std::string(9 - f.size(), '0') + f;
			s += "." + f.substr(0, f.find_last_not_of('0') + 1);
		}
		return s;
	}

	void task(const TaskSpec& t)
	{
		std::string what = "task " + t.name;
		out_ += "\t\t" + json::quote(t.name) + ": {\n\t\t\t\"loop\": " + loop_str(t.loop, what);
		if (t.policy != Policy::Normal)
			out_ += ",\n\t\t\t\"policy\": \"" + std::string(policy_name(t.policy)) + "\"";
		if (t.nice)
			out_ += ",\n\t\t\t\"priority\": " + nice_str(t.nice, what);
		if (t.custom_slice)
			out_ += ",\n\t\t\t\"dl-runtime\": " + us(t.custom_slice, what + " custom_slice");
		if (t.delay)
			out_ += ",\n\t\t\t\"delay\": " + us(t.delay, what + " delay");
		if (!t.cpus.empty())
			out_ += ",\n\t\t\t\"cpus\": " + cpus_str(t.cpus);
		out_ += ",\n\t\t\t\"phases\": {";
		if (t.phases.empty())
			throw std::invalid_argument(what + ": the task has no phases");
		bool first = true;
		for (const Phase& p : t.phases) {
			std::string pwhat = what + " phase " + p.name;
			std::vector<Segment> segs = segments(p, pwhat);
			for (std::size_t k = 0; k < segs.size(); k++) {
				out_ += first ? "\n" : ",\n";
				first = false;
				std::string name = k ? p.name + "_" + std::to_string(k) : p.name;
				phase(t, name, p.loop, segs[k], pwhat);
			}
		}
		out_ += "\n\t\t\t}\n\t\t}";
	}

	void phase(const TaskSpec& t, const std::string& name, s64 loop, const Segment& s, const std::string& what)
	{
		const std::string ind = "\t\t\t\t\t";
		out_ += "\t\t\t\t" + json::quote(name) + ": {\n" + ind + "\"loop\": " + loop_str(loop, what);
		if (s.nice)
			out_ += ",\n" + ind + "\"priority\": " + nice_str(*s.nice, what);
		if (s.slice)
			out_ += ",\n" + ind + "\"dl-runtime\": " + us(*s.slice, what + " slice");
		if (s.cpus && w_.cpu_sets.at(static_cast<std::size_t>(*s.cpus)) != t.cpus)
			out_ += ",\n" + ind + "\"cpus\": " + cpus_str(w_.cpu_sets.at(static_cast<std::size_t>(*s.cpus)));
		std::map<std::string, int> used;  // repeated keys get digits, as workgen writes them
		for (std::size_t i = 0; i < s.events.size(); i++) {
			const Event* e = s.events[i];
			std::string key, value;
			if (e->kind == Event::Kind::CondWait) {  // rt-app's wait is the wait and its re-lock
				const Event* relock = i + 1 < s.events.size() ? s.events[i + 1] : nullptr;
				if (!relock || relock->kind != Event::Kind::MutexLock || relock->ref != e->value)
					throw std::invalid_argument(what + ": a condition wait not followed by the re-lock of "
									   "its mutex has no rt-app form");
				i++;
			}
			event(t, *e, what, key, value);
			int n = used[key]++;
			out_ += ",\n" + ind + json::quote(n ? key + std::to_string(n) : key) + ": " + value;
		}
		out_ += "\n\t\t\t\t}";
	}

	const std::string& ref(int r, const std::string& what) const
	{
		auto i = static_cast<std::size_t>(r);
		if (r < 0 || i >= w_.refs.size() || w_.refs[i].empty())
			throw std::invalid_argument(what + ": ref " + std::to_string(r) + " is not a named ref");
		return w_.refs[i];
	}

	// A mutex's name: its ref without the parser's "mutex:".
	std::string mutex(int r, const std::string& what) const
	{
		const std::string& n = ref(r, what);
		if (!starts_with(n, "mutex:"))
			throw std::invalid_argument(what + ": ref " + json::quote(n) + " is used as a mutex but is not "
							   "named \"mutex:NAME\"");
		return n.substr(6);
	}

	void event(const TaskSpec& t, const Event& e, const std::string& what, std::string& key, std::string& value) const
	{
		switch (e.kind) {
		case Event::Kind::Run:
			key = "run";
			value = e.ns == RUN_FOREVER ? "-1" : us(e.ns, what + " run");
			break;
		case Event::Kind::Runtime:
			key = "runtime";
			value = us(e.ns, what + " runtime");
			break;
		case Event::Kind::Sleep:
			key = "sleep";
			value = us(e.ns, what + " sleep");
			break;
		case Event::Kind::Timer: {
			key = "timer";
			std::string name = ref(e.ref, what);
			if (starts_with(name, "unique")) {
				std::string suffix = "@" + t.name;
				if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix))
					throw std::invalid_argument(what + ": timer " + name + " starts with \"unique\" but is "
									   "not private to this task (\"unique...@" + t.name + "\")");
				name.resize(name.size() - suffix.size());
			}
			value = "{ \"ref\": " + json::quote(name) + ", \"period\": " + us(e.ns, what + " timer period") + " }";
			break;
		}
		case Event::Kind::Suspend:
			key = "suspend";
			value = json::quote(ref(e.ref, what));
			break;
		case Event::Kind::Resume:
			key = "resume";
			value = json::quote(ref(e.ref, what));
			break;
		case Event::Kind::Barrier:
			key = "barrier";
			value = json::quote(ref(e.ref, what));
			break;
		case Event::Kind::MutexLock:
			key = "lock";
			value = json::quote(mutex(e.ref, what));
			break;
		case Event::Kind::MutexUnlock:
			key = "unlock";
			value = json::quote(mutex(e.ref, what));
			break;
		case Event::Kind::CondWait:
			key = "wait";
			value = "{ \"ref\": " + json::quote(ref(e.ref, what)) + ", \"mutex\": " +
				json::quote(mutex(e.value, what)) + " }";
			break;
		case Event::Kind::CondSignal:
			key = "signal";
			value = json::quote(ref(e.ref, what));
			break;
		case Event::Kind::Yield:
			key = "yield";
			value = "\"\"";
			break;
		case Event::Kind::SetNice:
		case Event::Kind::SetSlice:
		case Event::Kind::SetAffinity:
			break;  // written as phase properties by segments()
		case Event::Kind::FutexBlock:
		case Event::Kind::FutexWait:
		case Event::Kind::FutexPost:
		case Event::Kind::ListPush:
		case Event::Kind::ListPost:
			throw std::invalid_argument(what + ": a futex event (eevdf schbench's protocol) has no rt-app form");
		}
	}
};

}  // namespace

// A file that is not JSON as written but has bare "suspend" keys is read as
// rt-app's workgen would rewrite it (io/workgen.hpp), and the notes say so;
// a file that parses as written is never rewritten.
Workload parse_rtapp(std::string_view text, const std::string& filename, RtappNotes* notes)
{
	try {
		return Reader(filename, notes).read(text);
	} catch (const InputError&) {
		const WorkgenResult w = workgen_suspend(text);
		if (w.suspends == 0)
			throw;
		if (notes)
			*notes = RtappNotes{};
		Workload out = Reader(filename, notes).read(w.text);
		if (notes)
			notes->workgen_suspends = w.suspends;
		return out;
	}
}

Workload load_rtapp_file(const std::string& path, RtappNotes* notes)
{
	return parse_rtapp(read_input_file(path, "rt-app file"), path, notes);
}

std::string to_rtapp_json(const Workload& w)
{
	return Writer(w).write();
}

Workload rtapp_terminating(const Workload& w, u64 chunk)
{
	Workload out = w;
	for (TaskSpec& t : out.tasks) {
		for (size_t p = 0; p < t.phases.size(); p++) {
			Phase& ph = t.phases[p];
			size_t k = 0;
			while (k < ph.events.size() && !(ph.events[k].kind == Event::Kind::Run && ph.events[k].ns == RUN_FOREVER))
				k++;
			if (k == ph.events.size())
				continue;
			// events[0, k) run once, then the hog's run forever
			Phase forever{ph.name + (k ? "_forever" : ""), LOOP_FOREVER, {Event{Event::Kind::Run, chunk, -1, 0}}};
			if (k == 0) {
				ph = std::move(forever);
			} else {
				ph.events.resize(k);
				ph.loop = 1;
				t.phases.insert(t.phases.begin() + static_cast<std::ptrdiff_t>(p) + 1, std::move(forever));
				p++;
			}
			t.phases.resize(p + 1);
			t.loop = 1;
			break;
		}
	}
	return out;
}

}  // namespace eevdf
