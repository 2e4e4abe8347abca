// SPDX-License-Identifier: GPL-2.0-only
// rt-app events as the model's events (rtapp_reader.hpp): the event
// vocabulary, and each event key of a task or phase translated, mutexes and
// condition variables included.
#include <map>
#include <string>

#include "io/rtapp_reader.hpp"

namespace eevdf::rtapp {

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
	if (key == "autogroup_nice")
		return "in a phase (a write to /proc/PID/autogroup mid-run) is not modelled; give \"setsid\" and "
		       "\"autogroup_nice\" at task level, where the task starts in a session of its own";
	if (key == "dl-period" || key == "dl-deadline" || key == "period" || key == "deadline")
		return "only applies to SCHED_DEADLINE; the model covers the fair class (SCHED_OTHER) only";
	if (key == "nodes_membind" || key == "membind_nodes")
		return "is not supported by the model yet (no NUMA)";
	return nullptr;
}

Event Reader::event(const Member& m, const EventName& en, const std::string& path, const std::string& task,
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
		e.ref = ref_of(n.empty() ? task : n, v, path);
		break;
	}
	case Event::Kind::Resume:
		e.ref = ref_of(name(v, path), v, path);
		break;
	case Event::Kind::Barrier:
		e.ref = ref_of(name(v, path), v, path);
		break;
	case Event::Kind::SetShares:
		group_weight_event(v, path, e);
		break;
	case Event::Kind::SetIdle:
		group_idle_event(v, path, e);
		break;
	case Event::Kind::Yield:  // rt-app ignores the value
	case Event::Kind::SetNice:
	case Event::Kind::SetSlice:
	case Event::Kind::SetAffinity:
	case Event::Kind::MoveGroup:   // a phase's "taskgroup" (rtapp_read.cpp)
	case Event::Kind::Setsid:      // a phase's "setsid" (rtapp_read.cpp)
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
const std::string& Reader::cond_ref(const Value& v, const std::string& path, bool object, std::string* mutex)
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

// An rt-app event as the model's events. A lock the same phase has
// already taken, with no unlock between, is refused: rt-app's thread
// would deadlock on its own (non-recursive) mutex at once.
void Reader::translate(const Member& m, const EventName& en, const std::string& path, const std::string& task,
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
		push(Event::Kind::MutexLock, mutex_ref(mtx, v, path));
		return;
	}
	case Op::Unlock: {
		const std::string& mtx = name(v, path);
		held.erase(mtx);
		push(Event::Kind::MutexUnlock, mutex_ref(mtx, v, path));
		return;
	}
	case Op::Signal:
		push(Event::Kind::CondSignal, ref_of(cond_ref(v, path, false), v, path));
		return;
	case Op::Broad:
		push(Event::Kind::Resume, ref_of(cond_ref(v, path, false), v, path));
		return;
	case Op::Wait:
	case Op::Sync: {
		// The condition's ref before the mutex's, the order in which
		// the writer's signal + wait read back.
		std::string mutex_name;
		const int cond = ref_of(cond_ref(v, path, true, &mutex_name), v, path);
		const int mutex = mutex_ref(mutex_name, v, path);
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

void Reader::timer(const Value& v, const std::string& path, const std::string& thread, Event& e)
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
	e.ref = ref_of(starts_with(n, "unique") ? n + "@" + thread : n, v, path);
	e.ns = micros(period->value, path + ".period");
}

// Workload::ref() looks a name up by a scan of every ref, quadratic in a
// file that names many; the reader keeps its own index, and a limit.
int Reader::ref_of(const std::string& name, const Value& at, const std::string& path)
{
	if (ref_index_.size() != w_.refs.size())  // refs made elsewhere (none today): index them
		for (size_t i = ref_index_.size(); i < w_.refs.size(); i++)
			ref_index_.emplace(w_.refs[i], static_cast<int>(i));
	if (auto it = ref_index_.find(name); it != ref_index_.end())
		return it->second;
	if (w_.refs.size() >= MAX_REFS)
		fail(at, path,
		     "the workload names more than " + std::to_string(MAX_REFS) +
			     " resources (timers, mutexes, conditions, barriers, suspend/resume objects)");
	w_.refs.push_back(name);
	const int i = static_cast<int>(w_.refs.size() - 1);
	ref_index_.emplace(name, i);
	return i;
}

void Reader::add_events(Phase& p, const Fields& f, const std::string& path, const std::string& task,
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

}  // namespace eevdf::rtapp
