// SPDX-License-Identifier: GPL-2.0-only
// rt-app JSON -> Workload: the document (global, tasks, phases). The
// events are rtapp_events.cpp's, the values rtapp_values.cpp's.
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
//   of the phase. A phase-level "taskgroup" moves the thread into that cgroup
//   when the phase starts, after them (set_thread_taskgroup(): nothing when
//   it is there already; "/" is the root): a MoveGroup event. A phase-level
//   "setsid": true (the model's own) is a setsid() call after that: a
//   Setsid event (model/autogroup.hpp). A phase-level "policy" without "priority" resets nice to
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
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "io/input_file.hpp"
#include "io/rtapp.hpp"
#include "io/rtapp_reader.hpp"
#include "io/workgen.hpp"

namespace eevdf {

namespace rtapp {

Workload Reader::read(std::string_view text)
{
	Value root = json::parse(text, file_);
	if (!root.is_object())
		fail(root, "", "the file must be an object with \"tasks\" (and optionally \"global\"), got " +
					json::describe(root));
	const Member *global = nullptr, *tasks = nullptr, *resources = nullptr, *groups = nullptr;
	for (const Member& m : root.members) {
		const Member** slot = m.key == "global" ? &global
				    : m.key == "tasks"  ? &tasks
				    : m.key == "resources" ? &resources  // legacy, created on use: ignored
				    : m.key == "groups" ? &groups        // the model's own (io/rtapp_groups.cpp)
							   : nullptr;
		if (!slot)
			fail(m, m.key, "unknown top-level key; accepted: global, tasks, resources, groups");
		if (*slot)
			fail(m, m.key, "given twice");
		*slot = &m;
	}
	if (global)
		read_global(global->value);
	if (!tasks)
		fail(root, "", "missing the required \"tasks\" object");
	if (groups)
		read_groups(groups->value);
	read_tasks(tasks->value);
	finish_groups();
	return std::move(w_);
}

void Reader::read_global(const Value& g)
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

void Reader::read_tasks(const Value& tasks)
{
	if (!tasks.is_object())
		fail(tasks, "tasks", "expected an object of named tasks, got " + json::describe(tasks));
	if (tasks.members.empty())
		fail(tasks, "tasks", "there are no tasks; define at least one");
	for (const Member& m : tasks.members)
		read_task(m);
}

Reader::Fields Reader::sort_fields(const Value& obj, const std::string& path, bool task) const
{
	static const std::set<std::string_view> task_props = {"instance",  "loop",       "phases",        "policy",
							      "priority",  "dl-runtime", "delay",         "cpus",
							      "taskgroup", "setsid",     "autogroup_nice"};
	static const std::set<std::string_view> phase_props = {"loop",       "policy", "priority", "dl-runtime",
							       "cpus",       "taskgroup", "setsid"};
	const auto& props = task ? task_props : phase_props;
	Fields f;
	s64 clamps[2] = {-1, -1};  // util_min, util_max as given
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
		// sched_setattr() refuses a clamp outside 0..SCHED_CAPACITY_SCALE
		// (EINVAL), so rt-app would fail there: refused here too.
		if (m.key == "util_min" || m.key == "util_max") {
			const s64 u = integer(m.value, p, "an integer 0..1024 (SCHED_CAPACITY_SCALE)");
			if (u < 0 || u > 1024)
				fail(m.value, p,
				     json::describe(m.value) +
					     " is outside 0..1024 (SCHED_CAPACITY_SCALE): sched_setattr() refuses it");
			clamps[m.key == "util_max"] = u;
			if (clamps[0] >= 0 && clamps[1] >= 0 && clamps[0] > clamps[1])
				fail(m.value, p,
				     "util_min " + std::to_string(clamps[0]) + " is above util_max " +
					     std::to_string(clamps[1]) + ": sched_setattr() refuses it");
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
void Reader::default_affinity(TaskSpec& t)
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

const Member* Reader::prop(const Fields& f, const char* key) const
{
	auto it = f.props.find(key);
	return it == f.props.end() ? nullptr : it->second;
}

Phase Reader::read_phase(const Member& pm, const std::string& path, const std::string& task, const std::string& thread,
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
	if (const Member* m = prop(f, "taskgroup"))
		p.events.push_back(move_group_event(m->value, path + ".taskgroup"));
	if (const Member* m = prop(f, "setsid")) {
		if (m->value.type != Value::Type::Bool)
			fail(m->value, path + ".setsid",
			     "expected true (the thread calls setsid() when the phase starts) or false, got " +
				     json::describe(m->value));
		if (m->value.boolean)
			p.events.push_back(Event{Event::Kind::Setsid, 0, -1, 0});
	}
	add_events(p, f, path, task, thread);
	return p;
}

void Reader::read_task(const Member& tm)
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
	if (const Member* m = prop(f, "taskgroup"))
		base.taskgroup = taskgroup(m->value, path + ".taskgroup");
	session(f, path, base);
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

}  // namespace rtapp

// A file that is not JSON as written but has bare "suspend" keys is read as
// rt-app's workgen would rewrite it (io/workgen.hpp), and the notes say so;
// a file that parses as written is never rewritten.
Workload parse_rtapp(std::string_view text, const std::string& filename, RtappNotes* notes)
{
	try {
		return rtapp::Reader(filename, notes).read(text);
	} catch (const InputError&) {
		const WorkgenResult w = workgen_suspend(text);
		if (w.suspends == 0)
			throw;
		if (notes)
			*notes = RtappNotes{};
		Workload out = rtapp::Reader(filename, notes).read(w.text);
		if (notes)
			notes->workgen_suspends = w.suspends;
		return out;
	}
}

Workload load_rtapp_file(const std::string& path, RtappNotes* notes)
{
	return parse_rtapp(read_input_file(path, "rt-app file"), path, notes);
}

}  // namespace eevdf
