// SPDX-License-Identifier: GPL-2.0-only
// Workload -> rt-app JSON: to_rtapp_json() writes a file parse_rtapp()
// (rtapp_read.cpp) reads back to an equal Workload, and rtapp_terminating()
// turns runs that never end into phases rt-app ends at its duration.
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/json.hpp"
#include "io/rtapp.hpp"

namespace eevdf {

namespace {

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
	std::optional<int> group; // a move: index into Workload::groups, -1 the root
	bool setsid = false;
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
		if (i < ev.size() && ev[i].kind == Event::Kind::MoveGroup)
			s.group = ev[i++].ref;
		if (i < ev.size() && ev[i].kind == Event::Kind::Setsid)
			s.setsid = ev[i++].kind == Event::Kind::Setsid;
		for (; i < ev.size() && ev[i].kind != Event::Kind::SetNice && ev[i].kind != Event::Kind::SetSlice &&
		       ev[i].kind != Event::Kind::SetAffinity && ev[i].kind != Event::Kind::MoveGroup &&
		       ev[i].kind != Event::Kind::Setsid;
		     i++)
			s.events.push_back(&ev[i]);
		if (s.events.empty())
			throw std::invalid_argument(what + ": a nice, slice, affinity or group change must be followed by "
							   "another event (in that order: nice, slice, cpus, taskgroup, setsid), or rt-app "
							   "cannot express it");
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
		       ",\n\t\t\"default_policy\": \"SCHED_OTHER\",\n\t\t\"calibration\": \"CPU0\"\n\t},";
		groups();
		out_ += "\n\t\"tasks\": {";
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

	// The model's "groups" object (io/rtapp_groups.cpp), parents first, each
	// weight as cpu.shares or the group as idle; nothing for a workload
	// without groups.
	void groups()
	{
		for (std::size_t i = 0; i < w_.groups.size(); i++) {
			const GroupSpec& g = w_.groups[i];
			if (!g.idle && g.shares % 1024)
				throw std::invalid_argument("group " + g.path + ": shares " + std::to_string(g.shares) +
							    " is not a whole cpu.shares value");
			out_ += std::string(i ? "," : "\n\t\"groups\": {") + "\n\t\t" + json::quote(g.path) + ": " +
				(g.idle ? std::string("{\"idle\": 1}") : "{\"shares\": " + std::to_string(g.shares >> 10) + "}");
		}
		if (!w_.groups.empty())
			out_ += "\n\t},";
	}

	void task(const TaskSpec& t)
	{
		std::string what = "task " + t.name;
		out_ += "\t\t" + json::quote(t.name) + ": {\n\t\t\t\"loop\": " + loop_str(t.loop, what);
		if (!t.taskgroup.empty())
			out_ += ",\n\t\t\t\"taskgroup\": " + json::quote(t.taskgroup);
		if (t.setsid)
			out_ += ",\n\t\t\t\"setsid\": true";
		if (t.autogroup_nice)
			out_ += ",\n\t\t\t\"autogroup_nice\": " + std::to_string(t.autogroup_nice);
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
		if (s.group) {
			if (*s.group < -1 || *s.group >= static_cast<int>(w_.groups.size()))
				throw std::invalid_argument(what + ": a move names no group");
			out_ += ",\n" + ind + "\"taskgroup\": " +
				json::quote(*s.group < 0 ? std::string("/") : w_.groups[static_cast<std::size_t>(*s.group)].path);
		}
		if (s.setsid)
			out_ += ",\n" + ind + "\"setsid\": true";
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
		if (!n.starts_with("mutex:"))
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
			if (name.starts_with("unique")) {
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
		case Event::Kind::SetShares:
			if (e.ref < 0 || static_cast<size_t>(e.ref) >= w_.groups.size() || e.ns % 1024)
				throw std::invalid_argument(what + ": a group_weight event names no group or no whole cpu.shares");
			key = "group_weight";
			value = "{ \"group\": " + json::quote(w_.groups[static_cast<size_t>(e.ref)].path) +
				", \"shares\": " + std::to_string(e.ns >> 10) + " }";
			break;
		case Event::Kind::SetIdle:
			if (e.ref < 0 || static_cast<size_t>(e.ref) >= w_.groups.size() || e.value < 0 || e.value > 1)
				throw std::invalid_argument(what + ": a group_idle event names no group or no 0/1");
			key = "group_idle";
			value = "{ \"group\": " + json::quote(w_.groups[static_cast<size_t>(e.ref)].path) +
				", \"idle\": " + std::to_string(e.value) + " }";
			break;
		case Event::Kind::SetNice:
		case Event::Kind::SetSlice:
		case Event::Kind::SetAffinity:
		case Event::Kind::MoveGroup:
		case Event::Kind::Setsid:
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
