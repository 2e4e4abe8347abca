// SPDX-License-Identifier: GPL-2.0-only
// Task groups in an rt-app file. rt-app's own key is a task's "taskgroup":
// the cgroup path (under the cpu controller's mount) its threads run in;
// rt-app creates the directories and never writes their weight, so each
// group has the default cpu.shares 1024. The model adds a top-level
// "groups" object (rt-app ignores top-level keys it does not know) to give
// a group its weight, in the unit of either cgroup version:
//
//   "groups": { "/A": { "shares": 2048 },          cgroup v1 cpu.shares, 2 .. 262144
//               "/B": { "weight": 50 },            cgroup v2 cpu.weight, 1 .. 10000
//               "/B/C": { "weight.nice": -5 },     cgroup v2 cpu.weight.nice, -20 .. 19
//               "/I": { "idle": 1 } }              cpu.idle (v1 and v2), 0 or 1
//
// Each converts as the kernel's write handler does (core.c
// cpu_shares_write_u64(), cpu_weight_write_u64(), cpu_weight_nice_write_s64())
// into tg->shares. An idle group (cpu.idle 1: its entities are SCHED_IDLE
// entities) weighs WEIGHT_IDLEPRIO and the kernel refuses weight writes
// while it is idle, so "idle" stands alone. Every prefix of a path is a group too (the directories
// rt-app creates), with the default weight unless listed.
//
// Autogroup (model/autogroup.hpp) has two task-level keys of the model's
// own: "setsid": true (the task is a process that starts a session of its
// own) and "autogroup_nice": N (that session's /proc/PID/autogroup nice).
#include <algorithm>

#include "io/rtapp_reader.hpp"
#include "model/task_group.hpp"

namespace eevdf::rtapp {

namespace {

// A path the kernel's cgroupfs would take as nested directories: /A/B,
// printable names without spaces.
const char* bad_group_path(const std::string& p)
{
	if (p.size() < 2 || p.front() != '/')
		return "a group path starts with '/' and names a group: \"/A\" or \"/A/B\"";
	if (p.back() == '/' || p.find("//") != std::string::npos)
		return "a group path has an empty name in it";
	if (p.size() > MAX_GROUP_PATH)
		return "a group path is at most 4096 bytes";
	for (unsigned char c : p)
		if (c < 0x21 || c > 0x7e)
			return "a group path has a space or a control character";
	if (static_cast<size_t>(std::count(p.begin(), p.end(), '/')) > MAX_GROUP_DEPTH)
		return "a group path is at most 8 levels deep";
	return nullptr;
}

}  // namespace

std::string Reader::taskgroup(const Value& v, const std::string& path)
{
	if (v.type != Value::Type::String)
		fail(v, path, "expected a group path string such as \"/A\", got " + json::describe(v));
	if (const char* why = bad_group_path(v.text))
		fail(v, path, std::string(why) + ", got " + json::quote(v.text));
	if (std::find(used_groups_.begin(), used_groups_.end(), v.text) == used_groups_.end())
		used_groups_.push_back(v.text);
	return v.text;
}

void Reader::read_groups(const Value& groups)
{
	if (!groups.is_object())
		fail(groups, "groups", "expected an object of group paths, got " + json::describe(groups));
	if (groups.members.size() > MAX_GROUPS)
		fail(groups, "groups", std::to_string(groups.members.size()) + " groups, at most " + std::to_string(MAX_GROUPS));
	for (const Member& g : groups.members) {
		const std::string path = "groups." + g.key;
		if (const char* why = bad_group_path(g.key))
			fail(g, "groups", std::string(why) + ", got " + json::quote(g.key));
		for (const GroupSpec& d : declared_groups_)
			if (d.path == g.key)
				fail(g, path, "given twice");
		if (!g.value.is_object())
			fail(g.value, path, "expected an object with one of shares, weight, weight.nice, idle, got " +
						    json::describe(g.value));
		if (g.value.members.size() != 1)
			fail(g.value, path,
			     "give exactly one of shares (cgroup v1), weight or weight.nice (cgroup v2), or idle "
			     "(an idle group's weight is fixed)");
		const Member& m = g.value.members.front();
		GroupSpec spec{g.key, NICE_0_LOAD};
		if (m.key == "idle") {
			// cpu_idle_write_s64(): 0 or 1, else -EINVAL.
			const s64 v = integer(m.value, path + ".idle", "0 or 1 (cpu.idle)");
			if (v != 0 && v != 1)
				fail(m.value, path + ".idle", json::describe(m.value) + " is not 0 or 1: the kernel refuses it (-EINVAL)");
			spec.idle = v == 1;
		} else {
			spec.shares = group_shares(m, path + "." + m.key);
		}
		declared_groups_.push_back(std::move(spec));
	}
}

u64 Reader::group_shares(const Member& w, const std::string& wpath) const
{
	if (w.key == "shares") {
		// cpu_shares_write_u64(): scale_load(v), clamped by
		// __sched_group_set_shares(); the model refuses what it would clamp.
		const s64 v = integer(w.value, wpath, "an integer 2..262144 (cpu.shares)");
		if (v < static_cast<s64>(MIN_SHARES) || v > static_cast<s64>(MAX_SHARES))
			fail(w.value, wpath, json::describe(w.value) + " is outside 2..262144 (MIN_SHARES..MAX_SHARES)");
		return scale_load(static_cast<u64>(v));
	}
	if (w.key == "weight") {
		const s64 v = integer(w.value, wpath, "an integer 1..10000 (cpu.weight)");
		if (v < 1 || v > 10000)
			fail(w.value, wpath, json::describe(w.value) + " is outside 1..10000: the kernel refuses it (-ERANGE)");
		return scale_load(sched_weight_from_cgroup(static_cast<u64>(v)));
	}
	if (w.key == "weight.nice") {
		const s64 v = integer(w.value, wpath, "an integer -20..19 (cpu.weight.nice)");
		if (v < MIN_NICE || v > MAX_NICE)
			fail(w.value, wpath, json::describe(w.value) + " is outside -20..19: the kernel refuses it (-ERANGE)");
		return scale_load(nice_to_weight(static_cast<int>(v)));
	}
	fail(w, wpath, "unknown key; a group accepts one of shares, weight, weight.nice, idle");
}

void Reader::session(const Fields& f, const std::string& path, TaskSpec& t) const
{
	if (const Member* m = prop(f, "setsid")) {
		if (m->value.type != Value::Type::Bool)
			fail(m->value, path + ".setsid",
			     "expected true (the task starts a session of its own) or false, got " +
				     json::describe(m->value));
		t.setsid = m->value.boolean;
	}
	if (const Member* m = prop(f, "autogroup_nice")) {
		const std::string p = path + ".autogroup_nice";
		const s64 n = integer(m->value, p, "a nice value from -20 to 19 (/proc/PID/autogroup)");
		if (n < MIN_NICE || n > MAX_NICE)
			fail(m->value, p,
			     json::describe(m->value) + " is outside -20..19: the kernel refuses it (-EINVAL)");
		if (!t.setsid)
			fail(m->value, p,
			     json::describe(m->value) + " without \"setsid\": true (it is the nice of the autogroup of "
							"the session the task leads)");
		t.autogroup_nice = static_cast<int>(n);
	}
}

// "group_weight": {"group": "/A", "weight": 50}: the running thread writes
// the group's cpu.weight (or cpu.shares, cpu.weight.nice) mid-run.
void Reader::group_weight_event(const Value& v, const std::string& path, Event& e)
{
	if (!v.is_object() || v.members.size() != 2)
		fail(v, path, "expected {\"group\": PATH, and one of shares, weight, weight.nice}, got " + json::describe(v));
	const Member* group = nullptr;
	const Member* weight = nullptr;
	for (const Member& m : v.members)
		(m.key == "group" ? group : weight) = &m;
	if (!group || !weight)
		fail(v, path, "expected {\"group\": PATH, and one of shares, weight, weight.nice}");
	const std::string p = taskgroup(group->value, path + ".group");
	e.ns = group_shares(*weight, path + "." + weight->key);
	e.ref = group_event_ref(p);
}

int Reader::group_event_ref(const std::string& p)
{
	auto it = std::find(group_event_paths_.begin(), group_event_paths_.end(), p);
	if (it == group_event_paths_.end()) {
		group_event_paths_.push_back(p);
		return static_cast<int>(group_event_paths_.size() - 1);
	}
	return static_cast<int>(it - group_event_paths_.begin());
}

// The model's "group_idle": {"group": PATH, "idle": 0 or 1}: a write to
// that group's cpu.idle by the running task (sched_group_set_idle()).
void Reader::group_idle_event(const Value& v, const std::string& path, Event& e)
{
	const Member* group = nullptr;
	const Member* idle = nullptr;
	if (v.is_object() && v.members.size() == 2)
		for (const Member& m : v.members) {
			if (m.key == "group")
				group = &m;
			else if (m.key == "idle")
				idle = &m;
		}
	if (!group || !idle)
		fail(v, path, "expected {\"group\": PATH, \"idle\": 0 or 1}, got " + json::describe(v));
	const std::string p = taskgroup(group->value, path + ".group");
	const s64 i = integer(idle->value, path + ".idle", "0 or 1");
	if (i != 0 && i != 1)
		fail(idle->value, path + ".idle", "expected 0 or 1 (cpu.idle), got " + json::describe(idle->value));
	e.value = static_cast<int>(i);
	e.ref = group_event_ref(p);
}

// A phase's "taskgroup": the thread moves itself there when the phase
// starts (rt-app's set_thread_taskgroup(), cgroup_attach_task()); "/" is
// the root cpu cgroup (ref -1).
Event Reader::move_group_event(const Value& v, const std::string& path)
{
	Event e{Event::Kind::MoveGroup, 0, -1, 0};
	if (v.type == Value::Type::String && v.text == "/")
		return e;
	e.ref = group_event_ref(taskgroup(v, path));
	return e;
}

// w_.groups: every declared or used path and all their prefixes, parents
// before children, each level in the order the file first names it.
void Reader::finish_groups()
{
	std::vector<std::string> paths;
	auto add = [&](const std::string& p) {
		for (size_t at = p.find('/', 1);; at = p.find('/', at + 1)) {
			const std::string prefix = at == std::string::npos ? p : p.substr(0, at);
			if (std::find(paths.begin(), paths.end(), prefix) == paths.end())
				paths.push_back(prefix);
			if (at == std::string::npos)
				break;
		}
	};
	for (const GroupSpec& d : declared_groups_)
		add(d.path);
	for (const std::string& u : used_groups_)
		add(u);
	// More than MAX_GROUPS is refused by validate_workload(); the lists
	// here are bounded by the file's 2^20 values.
	std::stable_sort(paths.begin(), paths.end(), [](const std::string& a, const std::string& b) {
		return std::count(a.begin(), a.end(), '/') < std::count(b.begin(), b.end(), '/');
	});
	for (const std::string& p : paths) {
		GroupSpec g{p, NICE_0_LOAD};
		for (const GroupSpec& d : declared_groups_)
			if (d.path == p)
				g = d;
		w_.groups.push_back(std::move(g));
	}
	// A group_weight or move event's ref: from its path's index to the group's.
	for (TaskSpec& t : w_.tasks)
		for (Phase& ph : t.phases)
			for (Event& e : ph.events)
				if (e.kind == Event::Kind::SetShares || e.kind == Event::Kind::SetIdle ||
				    (e.kind == Event::Kind::MoveGroup && e.ref >= 0))
					e.ref = static_cast<int>(
						std::find(paths.begin(), paths.end(), group_event_paths_[static_cast<size_t>(e.ref)]) -
						paths.begin());
}

}  // namespace eevdf::rtapp
