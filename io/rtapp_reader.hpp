// SPDX-License-Identifier: GPL-2.0-only
// The rt-app reader (io/rtapp.hpp's parse_rtapp()) as its files share it,
// internal to io/: rt-app's event vocabulary and the Reader, whose members
// are defined by concept in rtapp_read.cpp (the document: global, tasks,
// phases), rtapp_events.cpp (an rt-app event as the model's events) and
// rtapp_values.cpp (numbers, names, policies, times, CPU lists).
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "io/json.hpp"
#include "io/rtapp.hpp"

namespace eevdf::rtapp {

using json::Member;
using json::Value;

inline constexpr std::size_t MAX_THREADS = RTAPP_MAX_THREADS;
inline constexpr std::size_t MAX_EVENTS = RTAPP_MAX_EVENTS;
inline constexpr std::size_t MAX_REFS = RTAPP_MAX_REFS;
inline constexpr u64 MAX_US = MAX_TIME_NS / NSEC_PER_USEC;  // 4611686018427387 us

inline constexpr const char* SUPPORTED_EVENTS =
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

inline constexpr EventName EVENT_NAMES[] = {
	{"run", Op::Model, Event::Kind::Run},          {"runtime", Op::Model, Event::Kind::Runtime},
	{"sleep", Op::Model, Event::Kind::Sleep},      {"timer", Op::Model, Event::Kind::Timer},
	{"suspend", Op::Model, Event::Kind::Suspend},  {"resume", Op::Model, Event::Kind::Resume},
	{"yield", Op::Model, Event::Kind::Yield},      {"lock", Op::Lock, {}},
	{"unlock", Op::Unlock, {}},                    {"wait", Op::Wait, {}},
	{"signal", Op::Signal, {}},                    {"broad", Op::Broad, {}},
	{"sync", Op::Sync, {}},
	{"barrier", Op::Model, Event::Kind::Barrier},
	{"group_weight", Op::Model, Event::Kind::SetShares},  // the model's own (io/rtapp_groups.cpp)
	{"group_idle", Op::Model, Event::Kind::SetIdle},      // the model's own (io/rtapp_groups.cpp)
	{"mem", Op::Unsupported, {}, "is not supported by the model (no memory or cache model)"},
	{"iorun", Op::Unsupported, {}, "is not supported by the model (no I/O devices; use \"sleep\" for the wait)"},
	{"fork", Op::Unsupported, {}, "is not supported by the model yet (tasks are created at their \"delay\")"},
};

const EventName* find_event(std::string_view key);

// rt-app properties the model cannot honour, with the reason.
const char* unsupported_property(std::string_view key);

inline bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

class Reader {
public:
	Reader(const std::string& filename, RtappNotes* notes) : file_(filename), notes_(notes) {}

	Workload read(std::string_view text);

private:
	const std::string& file_;
	RtappNotes* notes_;
	Workload w_;
	Policy default_policy_ = Policy::Normal;
	std::size_t events_ = 0;
	std::set<std::string> thread_names_;
	std::unordered_map<std::string, int> ref_index_;  // w_.refs by name

	// The members of a task or phase object, sorted into properties and events.
	struct Fields {
		std::map<std::string, const Member*> props;
		std::vector<std::pair<const Member*, const EventName*>> events;
	};

	// rtapp_values.cpp
	[[noreturn]] void fail_at(int line, int col, const std::string& path, const std::string& msg) const;
	[[noreturn]] void fail(const Value& v, const std::string& path, const std::string& msg) const;
	[[noreturn]] void fail(const Member& m, const std::string& path, const std::string& msg) const;
	s64 integer(const Value& v, const std::string& path, const std::string& expected) const;
	u64 micros(const Value& v, const std::string& path, const char* expected = "a whole number of microseconds >= 0") const;
	s64 loop(const Value& v, const std::string& path) const;
	int nice(const Value& v, const std::string& path) const;
	const std::string& name(const Value& v, const std::string& path, bool allow_empty = false) const;
	Policy policy(const Value& v, const std::string& path) const;
	u64 seconds(const Value& v, const std::string& path) const;
	std::vector<u32> cpu_list(const Value& v, const std::string& path) const;

	// rtapp_read.cpp
	void read_global(const Value& g);
	// The task groups (io/rtapp_groups.cpp): the "groups" section, a task's
	// "taskgroup", and the implied parents, listed parents first.
	void read_groups(const Value& groups);
	std::string taskgroup(const Value& v, const std::string& path);
	void finish_groups();
	u64 group_shares(const Member& w, const std::string& path) const;  // shares, weight or weight.nice
	void group_weight_event(const Value& v, const std::string& path, Event& e);
	void group_idle_event(const Value& v, const std::string& path, Event& e);
	int group_event_ref(const std::string& group_path);  // an index into group_event_paths_
	Event move_group_event(const Value& v, const std::string& path);  // a phase's taskgroup
	// A task's "setsid" and "autogroup_nice" (model/autogroup.hpp).
	void session(const Fields& f, const std::string& path, TaskSpec& t) const;
	std::vector<std::string> group_event_paths_;  // a group_weight or move event's ref until finish_groups()
	std::vector<GroupSpec> declared_groups_;  // path, shares, idle: as the file lists them
	std::vector<std::string> used_groups_;                     // taskgroup values, first use first
	void read_tasks(const Value& tasks);
	Fields sort_fields(const Value& obj, const std::string& path, bool task) const;
	void default_affinity(TaskSpec& t);
	const Member* prop(const Fields& f, const char* key) const;
	Phase read_phase(const Member& pm, const std::string& path, const std::string& task, const std::string& thread,
			 Policy task_policy);
	void read_task(const Member& tm);

	// rtapp_events.cpp
	Event event(const Member& m, const EventName& en, const std::string& path, const std::string& task,
		    const std::string& thread);
	const std::string& cond_ref(const Value& v, const std::string& path, bool object, std::string* mutex = nullptr);
	void translate(const Member& m, const EventName& en, const std::string& path, const std::string& task,
		       const std::string& thread, Phase& p, std::map<std::string, const Member*>& held);
	void timer(const Value& v, const std::string& path, const std::string& thread, Event& e);
	void add_events(Phase& p, const Fields& f, const std::string& path, const std::string& task,
			const std::string& thread);
	int ref_of(const std::string& name, const Value& at, const std::string& path);
	int mutex_ref(const std::string& name, const Value& at, const std::string& path)
	{
		return ref_of("mutex:" + name, at, path);
	}
};

}  // namespace eevdf::rtapp
