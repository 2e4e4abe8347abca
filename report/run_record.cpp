// SPDX-License-Identifier: GPL-2.0-only
#include "report/run_record.hpp"

#include <cstdio>
#include <iostream>
#include <map>
#include <tuple>

#include "model/fair.hpp"

namespace eevdf::cli {
namespace {

std::string ms_text(u64 ns)
{
	char b[32];
	std::snprintf(b, sizeof b, "%g ms", static_cast<double>(ns) / 1e6);
	return b;
}

// What the kernel makes of a sched_runtime of `ns` on a fair task: before
// 6.12 nothing (the fair class ignores it), from 6.12 __setparam_fair()'s
// clamp to [0.1 ms, 100 ms]. Returns false when it is applied as given.
bool adjusted(const Config& cfg, u64 ns, u64& applied, std::string& why)
{
	if (!cfg.preset->paths.custom_slices) {
		applied = 0;
		why = "kernel " + std::string(cfg.preset->name) +
		      " has no custom slices (sched_attr.sched_runtime sets the slice from 6.12)";
		return true;
	}
	applied = clamp_custom_slice(ns);
	why = "the kernel clamps sched_runtime to 0.1-100 ms";
	return applied != ns;
}

}  // namespace

std::string Adjustment::text() const
{
	std::string s = (setting == "custom_slice" ? "custom slice " : "sched_runtime ") + ms_text(given_ns) + " of " +
			first_task;
	if (tasks > 1)
		s += " and " + std::to_string(tasks - 1) + " more task" + (tasks > 2 ? "s" : "");
	s += applied_ns ? " applied as " + ms_text(applied_ns) : std::string(" not applied");
	return s + ": " + why;
}

std::vector<Adjustment> adjustments(const Config& cfg, const Workload& wl)
{
	std::vector<Adjustment> out;
	std::map<std::tuple<std::string, u64>, size_t> index;  // (setting, given) -> out[i]
	auto note = [&](const std::string& setting, const std::string& task, u64 ns) {
		u64 applied = 0;
		std::string why;
		if (!adjusted(cfg, ns, applied, why))
			return;
		const auto key = std::make_tuple(setting, ns);
		if (const auto it = index.find(key); it != index.end()) {
			out[it->second].tasks++;
			return;
		}
		index[key] = out.size();
		out.push_back(Adjustment{setting, task, 1, ns, applied, why});
	};
	for (const TaskSpec& t : wl.tasks) {
		if (t.custom_slice)
			note("custom_slice", t.name, t.custom_slice);
		// a phase's sched_runtime, once per task and value
		std::map<u64, bool> seen;
		for (const Phase& p : t.phases)
			for (const Event& e : p.events)
				if (e.kind == Event::Kind::SetSlice && e.ns && !seen[e.ns]) {
					seen[e.ns] = true;
					note("sched_runtime", t.name, e.ns);
				}
	}
	return out;
}

void warn_adjustments(const std::vector<Adjustment>& a)
{
	for (const Adjustment& x : a)
		std::cerr << "eevdf: warning: " << x.text() << "\n";
}

std::string header_lines(const Config& cfg, const Workload& wl, const std::vector<Adjustment>& a)
{
	std::string out;
	for (const Adjustment& x : a)
		out += "# adjusted: " + x.text() + "\n";
	// Tasks grouped by (nice, custom slice as applied, policy) at their start.
	struct Group {
		std::string first, last;
		size_t n = 0;
	};
	std::vector<std::pair<std::tuple<int, u64, Policy>, Group>> groups;
	for (const TaskSpec& t : wl.tasks) {
		u64 slice = 0;
		if (t.custom_slice && cfg.preset->paths.custom_slices)
			slice = clamp_custom_slice(t.custom_slice);
		if (t.nice == 0 && slice == 0 && t.policy == Policy::Normal)
			continue;
		const std::tuple<int, u64, Policy> key{t.nice, slice, t.policy};
		auto it = groups.begin();
		while (it != groups.end() && it->first != key)
			++it;
		if (it == groups.end()) {
			groups.push_back({key, Group{t.name, t.name, 0}});
			it = groups.end() - 1;
		}
		it->second.last = t.name;
		it->second.n++;
	}
	if (groups.empty())
		return out;
	out += "# task settings at start:";
	const size_t shown = groups.size() < 8 ? groups.size() : 8;
	for (size_t i = 0; i < shown; i++) {
		const auto& [key, g] = groups[i];
		const auto& [nice, slice, policy] = key;
		out += i ? "; " : " ";
		std::string what;
		if (policy != Policy::Normal)
			what = policy_name(policy);
		if (nice)
			what += std::string(what.empty() ? "" : " ") + "nice " + std::to_string(nice);
		if (slice)
			what += std::string(what.empty() ? "" : " ") + "slice " + ms_text(slice);
		out += what;
		out += " " + g.first;
		if (g.n > 1)
			out += (g.n == 2 ? ", " : " .. ") + g.last + " (" + std::to_string(g.n) + " tasks)";
	}
	if (groups.size() > shown)
		out += "; " + std::to_string(groups.size() - shown) + " more groups (--json lists every task)";
	return out + "\n";
}

nlohmann::ordered_json adjustments_json(const std::vector<Adjustment>& a)
{
	nlohmann::ordered_json arr = nlohmann::ordered_json::array();
	for (const Adjustment& x : a)
		arr.push_back({{"setting", x.setting},
			       {"first_task", x.first_task},
			       {"tasks", x.tasks},
			       {"given_ns", x.given_ns},
			       {"applied_ns", x.applied_ns ? nlohmann::ordered_json(x.applied_ns) : nlohmann::ordered_json(nullptr)},
			       {"why", x.why}});
	return arr;
}

}  // namespace eevdf::cli
