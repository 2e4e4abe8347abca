// SPDX-License-Identifier: GPL-2.0-only
#include "model/workload.hpp"

namespace eevdf {

int Workload::ref(const std::string& name)
{
	for (size_t i = 0; i < refs.size(); i++)
		if (refs[i] == name)
			return static_cast<int>(i);
	refs.push_back(name);
	return static_cast<int>(refs.size() - 1);
}

namespace {

// The event kinds whose `ref` names a resource (Workload::refs); ListPush's
// `value` is a futex word too, and CondWait's its mutex. SetAffinity's `ref` indexes cpu_sets.
bool refers_to_resource(Event::Kind k)
{
	using K = Event::Kind;
	switch (k) {
	case K::Timer:
	case K::Suspend:
	case K::Resume:
	case K::Barrier:
	case K::FutexBlock:
	case K::FutexWait:
	case K::FutexPost:
	case K::ListPush:
	case K::ListPost:
	case K::MutexLock:
	case K::MutexUnlock:
	case K::CondWait:
	case K::CondSignal:
		return true;
	default:
		return false;
	}
}

}  // namespace

void append_workload(Workload& base, const Workload& extra, const std::string& what)
{
	for (const TaskSpec& t : extra.tasks)
		for (const TaskSpec& b : base.tasks)
			if (t.name == b.name)
				throw WorkloadError(what + ": task '" + t.name + "' is already in the workload");
	for (const std::string& r : extra.refs)
		for (const std::string& b : base.refs)
			if (r == b)
				throw WorkloadError(what + ": resource '" + r + "' is already in the workload");
	std::vector<int> ref_map;
	for (const std::string& r : extra.refs)
		ref_map.push_back(base.ref(r));
	const int set_base = static_cast<int>(base.cpu_sets.size());
	base.cpu_sets.insert(base.cpu_sets.end(), extra.cpu_sets.begin(), extra.cpu_sets.end());
	auto remap = [&](int ref) { return ref < 0 ? ref : ref_map[static_cast<size_t>(ref)]; };
	for (const GroupSpec& g : extra.groups) {
		bool same = false;
		for (const GroupSpec& b : base.groups)
			if (b.path == g.path) {
				if (b.shares != g.shares)
					throw WorkloadError(what + ": group '" + g.path + "' is already in the workload with other shares");
				same = true;
			}
		if (!same)
			base.groups.push_back(g);
	}
	for (TaskSpec t : extra.tasks) {
		for (Phase& ph : t.phases)
			for (Event& e : ph.events) {
				if (refers_to_resource(e.kind))
					e.ref = remap(e.ref);
				if (e.kind == Event::Kind::ListPush || e.kind == Event::Kind::CondWait)
					e.value = remap(e.value);
				if (e.kind == Event::Kind::SetAffinity)
					e.ref += set_base;
			}
		base.tasks.push_back(std::move(t));
	}
}

TaskSpec looping_task(std::string name, std::vector<Event> events)
{
	TaskSpec t;
	t.name = std::move(name);
	t.loop = LOOP_FOREVER;
	t.phases.push_back(Phase{"main", 1, std::move(events)});
	return t;
}

Workload hogs_workload(int n, u64 duration)
{
	Workload w;
	w.duration = duration;
	w.tasks.reserve(static_cast<size_t>(n));
	for (int i = 0; i < n; i++) {
		TaskSpec t;
		t.name = "hog-" + std::to_string(i);
		t.loop = 1;
		t.phases.push_back(Phase{"hog", 1, {Event{Event::Kind::Run, RUN_FOREVER}}});
		w.tasks.push_back(std::move(t));
	}
	return w;
}

}  // namespace eevdf
