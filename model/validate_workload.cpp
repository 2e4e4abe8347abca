// SPDX-License-Identifier: GPL-2.0-only
// validate_workload() (simulation.hpp): what the Simulation constructor
// checks before it builds anything. A workload this Config can run: refs,
// loops, nice and affinity within the CPUs, no thread that locks a mutex it
// still holds, and the sizes the run's memory and time grow with within
// their limits (docs/cli.md, "Limits"), so that a run the input makes too
// large is a WorkloadError saying why, never an allocation that fails or a
// run that does not end.
#include <algorithm>
#include <string>
#include <vector>

#include "model/autogroup.hpp"
#include "model/simulation.hpp"

namespace eevdf {
namespace {

// Tasks in one workload: a million hogs (`--hogs`), schbench's threads and
// stressors beside them.
constexpr u64 MAX_TASKS = u64{1} << 20;
// Each CPU's wakelist keeps a slot per task, and the metrics each task's
// time per CPU: tasks x CPUs, 4 + 8 bytes a pair (384 MiB).
constexpr u64 MAX_TASK_CPUS = u64{1} << 25;
// Each task keeps a timer slot per named resource (Simulation::timers_):
// tasks x refs, 8 bytes a pair (256 MiB).
constexpr u64 MAX_TASK_REFS = u64{1} << 25;
// Ticks of a run, duration / TICK_NSEC on every CPU: the time a run takes
// grows with them (2^32 is minutes at the model's 10-30 M events/s).
constexpr u64 MAX_TICKS = u64{1} << 32;

void check_limits(const Config& cfg, const Workload& wl)
{
	const u64 n = wl.tasks.size(), cpus = cfg.cpus, refs = wl.refs.size();
	if (n > MAX_TASKS)
		throw WorkloadError("workload: " + std::to_string(n) + " tasks, more than the " +
				    std::to_string(MAX_TASKS) + " a run may have");
	if (n * cpus > MAX_TASK_CPUS)
		throw WorkloadError(
			"workload: " + std::to_string(n) + " tasks on " + std::to_string(cpus) +
			" CPUs, beyond the limit of " + std::to_string(MAX_TASK_CPUS) +
			" task-CPU pairs (each CPU keeps a wakelist slot per task); fewer tasks or CPUs (--cpus)");
	if (n * refs > MAX_TASK_REFS)
		throw WorkloadError(
			"workload: " + std::to_string(n) + " tasks and " + std::to_string(refs) +
			" named resources (timers, mutexes, conditions, barriers, futex words), beyond the limit of " +
			std::to_string(MAX_TASK_REFS) +
			" task-resource pairs (each task keeps a timer slot per resource)");
	// No overflow: duration < 2^64, tick_ns >= 10^4 (HZ <= 10^5), cpus <= 256.
	const u64 ticks = wl.duration / cfg.tick_ns * cpus;
	if (ticks > MAX_TICKS)
		throw WorkloadError(
			"workload: a duration of " + std::to_string(wl.duration / NSEC_PER_SEC) + " s at HZ=" +
			std::to_string(cfg.hz) + " on " + std::to_string(cpus) + " CPU" + (cpus == 1 ? "" : "s") +
			" is " + std::to_string(ticks) + " ticks, beyond the limit of " + std::to_string(MAX_TICKS) +
			" a run may take (minutes of computing); a shorter --duration, a lower --hz or fewer --cpus");
}

// The mutex a MutexLock, MutexUnlock or CondWait event names, as rt-app's file did.
std::string mutex_name(const Workload& wl, int ref)
{
	const std::string& n = wl.refs[static_cast<size_t>(ref)];
	return n.rfind("mutex:", 0) == 0 ? n.substr(6) : n;
}

// A thread that locks a mutex it still holds waits for itself forever (a
// normal mutex: rt-app's thread deadlocks). The reader refuses a second
// lock within one pass of a phase; this follows the program as it runs:
// the phases in order, a looping phase twice (its second pass starts with
// what the first left held; later passes repeat the second), the whole
// program twice when the task loops, and nothing after a phase that loops
// forever. `wait` releases its mutex; the MutexLock after it takes it back.
void check_relock(const std::string& where, const TaskSpec& t, const Workload& wl)
{
	std::vector<std::pair<int, const Phase*>> held;  // mutex ref, the phase that locked it
	auto find = [&](int ref) {
		return std::find_if(held.begin(), held.end(), [ref](const auto& h) { return h.first == ref; });
	};
	auto pass = [&](const Phase& p, const char* when) {
		for (const Event& e : p.events) {
			if (e.kind == Event::Kind::MutexLock) {
				if (auto h = find(e.ref); h != held.end())
					throw WorkloadError(
						where + " phase '" + p.name + "': mutex \"" + mutex_name(wl, e.ref) +
						"\" is still held (locked in phase '" + h->second->name +
						"', not unlocked since) when " + when +
						" locks it again: rt-app's thread would wait for itself forever");
				held.emplace_back(e.ref, &p);
			} else if (e.kind == Event::Kind::MutexUnlock || e.kind == Event::Kind::CondWait) {
				const int ref = e.kind == Event::Kind::CondWait ? e.value : e.ref;
				if (auto h = find(ref); h != held.end())
					held.erase(h);
			}
		}
	};
	for (int round = 0; round < (t.loop == 1 ? 1 : 2); round++)
		for (const Phase& p : t.phases) {
			pass(p, round ? "the task's next loop" : "the phase");
			if (p.loop != 1)
				pass(p, "its next loop");
			if (p.loop == LOOP_FOREVER)
				return;
		}
}

bool consumes_time(const Event& e)
{
	switch (e.kind) {
	case Event::Kind::Run:
	case Event::Kind::Runtime:
	case Event::Kind::Sleep:
	case Event::Kind::Timer:
		return e.ns > 0;
	default:
		return false;
	}
}

bool phase_consumes_time(const Phase& p) { return std::any_of(p.events.begin(), p.events.end(), consumes_time); }

// Task groups: each path "/A/B" names its parent "/A" (listed before it),
// the shares are those __sched_group_set_shares() accepts, and each task's
// taskgroup is listed.
void validate_groups(const Config& cfg, const Workload& wl)
{
	if (wl.groups.empty() && !cfg.autogroup) {
		for (const TaskSpec& t : wl.tasks)
			for (const Phase& p : t.phases)
				for (const Event& e : p.events)
					if (e.kind == Event::Kind::SetShares)
						throw WorkloadError("workload: task '" + t.name + "': a group_weight event, and no groups");
					else if (e.kind == Event::Kind::SetIdle)
						throw WorkloadError("workload: task '" + t.name + "': a group_idle event, and no groups");
					else if (e.kind == Event::Kind::MoveGroup)
						throw WorkloadError("workload: task '" + t.name +
								    "': a phase-level taskgroup (a move), and no groups");
		for (const TaskSpec& t : wl.tasks)
			if (!t.taskgroup.empty())
				throw WorkloadError("workload: task '" + t.name + "': taskgroup '" + t.taskgroup +
						    "' is not among the workload's groups");
		return;
	}
	// With autogroup every task outside a cpu cgroup is in a group.
	const size_t autogroups = cfg.autogroup ? autogroup_sessions(wl).groups.size() : 0;
	if ((wl.groups.size() + autogroups) * cfg.cpus > MAX_GROUP_ENTITIES)
		throw WorkloadError("workload: " + std::to_string(wl.groups.size() + autogroups) + " groups on " +
				    std::to_string(cfg.cpus) + " CPUs make " +
				    std::to_string((wl.groups.size() + autogroups) * cfg.cpus) +
				    " group entities, at most " + std::to_string(MAX_GROUP_ENTITIES) +
				    " (an entity and a cfs_rq per group and CPU)");
	if (wl.groups.size() + autogroups > MAX_GROUPS)
		throw WorkloadError(
			"workload: " + std::to_string(wl.groups.size()) + " groups" +
			(autogroups ? " and " + std::to_string(autogroups) + " autogroups (sessions)" : "") +
			", at most " + std::to_string(MAX_GROUPS));
	for (size_t i = 0; i < wl.groups.size(); i++) {
		const GroupSpec& g = wl.groups[i];
		const std::string where = "workload: group '" + g.path + "'";
		if (g.path.size() < 2 || g.path.size() > MAX_GROUP_PATH || g.path.front() != '/' || g.path.back() == '/' ||
		    g.path.find("//") != std::string::npos)
			throw WorkloadError(where + ": a path is /NAME or /PARENT/NAME, at most " +
					    std::to_string(MAX_GROUP_PATH) + " bytes");
		for (unsigned char c : g.path)
			if (c < 0x21 || c > 0x7e)
				throw WorkloadError("workload: a group path has a space or control character");
		if (g.shares < scale_load(MIN_SHARES) || g.shares > scale_load(MAX_SHARES))
			throw WorkloadError(where + ": shares " + std::to_string(g.shares >> SCHED_FIXEDPOINT_SHIFT) +
					    " outside " + std::to_string(MIN_SHARES) + ".." + std::to_string(MAX_SHARES));
		const std::string parent = g.path.substr(0, g.path.rfind('/'));
		bool parent_found = parent.empty();
		for (size_t j = 0; j < i; j++) {
			if (wl.groups[j].path == g.path)
				throw WorkloadError(where + " is listed twice");
			parent_found |= wl.groups[j].path == parent;
		}
		if (!parent_found)
			throw WorkloadError(where + ": its parent '" + parent + "' is not listed before it");
		// The model names a group by its path; the kernel's autogroups are
		// not in cgroupfs, so it would allow both.
		const std::string top = g.path.substr(0, g.path.find('/', 1));
		for (u64 id = 1; id <= autogroups; id++)
			if (top == autogroup_path(id))
				throw WorkloadError(where + ": with --autogroup on, " + top +
						    " is the name of an autogroup in the model; rename the cgroup");
		if (static_cast<size_t>(std::count(g.path.begin(), g.path.end(), '/')) > MAX_GROUP_DEPTH)
			throw WorkloadError(where + ": deeper than " + std::to_string(MAX_GROUP_DEPTH) + " levels");
	}
	for (const TaskSpec& t : wl.tasks)
		for (const Phase& p : t.phases)
			for (const Event& e : p.events)
				if (e.kind == Event::Kind::SetShares &&
				    (e.ref < 0 || static_cast<size_t>(e.ref) >= wl.groups.size() ||
				     e.ns < scale_load(MIN_SHARES) || e.ns > scale_load(MAX_SHARES)))
					throw WorkloadError("workload: task '" + t.name + "': a group_weight event names no group or "
							    "a weight outside 2..262144");
				else if (e.kind == Event::Kind::SetIdle &&
					 (e.ref < 0 || static_cast<size_t>(e.ref) >= wl.groups.size() || e.value < 0 || e.value > 1))
					throw WorkloadError("workload: task '" + t.name + "': a group_idle event names no group or "
							    "an idle value other than 0 or 1");
				else if (e.kind == Event::Kind::MoveGroup &&
					 (e.ref < -1 || e.ref >= static_cast<int>(wl.groups.size())))
					throw WorkloadError("workload: task '" + t.name + "': a move names group " +
							    std::to_string(e.ref) + ", not one of the " +
							    std::to_string(wl.groups.size()) + " groups (or -1, the root)");
	for (const TaskSpec& t : wl.tasks) {
		if (t.taskgroup.empty())
			continue;
		bool found = false;
		for (const GroupSpec& g : wl.groups)
			found |= g.path == t.taskgroup;
		if (!found)
			throw WorkloadError("workload: task '" + t.name + "': taskgroup '" + t.taskgroup +
					    "' is not among the workload's groups");
	}
}

// A session's keys (model/autogroup.hpp): the nice of the autogroup a
// setsid task leads, as /proc/PID/autogroup takes it (-20..19).
void validate_sessions(const Workload& wl)
{
	for (const TaskSpec& t : wl.tasks) {
		if (t.autogroup_nice < MIN_NICE || t.autogroup_nice > MAX_NICE)
			throw WorkloadError("workload: task '" + t.name + "': autogroup_nice " +
					    std::to_string(t.autogroup_nice) + " outside -20..19");
		if (t.autogroup_nice && !t.setsid)
			throw WorkloadError("workload: task '" + t.name + "': autogroup_nice " +
					    std::to_string(t.autogroup_nice) +
					    " without setsid (it is the nice of the session the task leads)");
	}
}

void validate(const Config& cfg, const Workload& wl)
{
	if (!cfg.preset)
		throw WorkloadError("config: no kernel preset");
	if (cfg.hz == 0 || cfg.tick_ns == 0)
		throw WorkloadError("config: hz must be positive");
	if (cfg.knobs.tick_jitter >= cfg.tick_ns)
		throw WorkloadError("config: tick_jitter " + std::to_string(cfg.knobs.tick_jitter) +
				    " ns must be below TICK_NSEC " + std::to_string(cfg.tick_ns));
	if (const std::string why = cfg.profile.invalid(); !why.empty())
		throw WorkloadError("config: profile " + cfg.profile.name + ": " + why);
	if (tick_jitter_max(cfg) >= cfg.tick_ns)
		throw WorkloadError("config: tick jitter up to " + std::to_string(tick_jitter_max(cfg)) +
				    " ns (knob plus profile " + cfg.profile.name + ") must be below TICK_NSEC " +
				    std::to_string(cfg.tick_ns));
	if (cfg.knobs.tick_phase >= cfg.tick_ns)
		throw WorkloadError("config: tick_phase " + std::to_string(cfg.knobs.tick_phase) +
				    " ns must be below TICK_NSEC " + std::to_string(cfg.tick_ns));
	if (cfg.base_slice_ns == 0)
		throw WorkloadError("config: base slice must be positive");
	if (cfg.cpus < 1 || cfg.cpus > MAX_CPUS)
		throw WorkloadError("config: cpus " + std::to_string(cfg.cpus) + " outside 1.." +
				    std::to_string(MAX_CPUS));
	if (cfg.online_cpus < cfg.cpus)
		throw WorkloadError("config: online_cpus " + std::to_string(cfg.online_cpus) + " below cpus " +
				    std::to_string(cfg.cpus));
	if (cfg.llc_size && cfg.cpus % cfg.llc_size)
		throw WorkloadError("config: an LLC of " + std::to_string(cfg.llc_size) + " CPUs does not divide " +
				    std::to_string(cfg.cpus) + " CPUs");
	if (cfg.cluster && (cfg.cluster % cfg.smt || llc_size_of(cfg) % cfg.cluster))
		throw WorkloadError("config: clusters of " + std::to_string(cfg.cluster) + " CPUs do not hold whole cores of " +
				    std::to_string(cfg.smt) + " or divide an LLC of " + std::to_string(llc_size_of(cfg)) +
				    " CPUs");
	if (cfg.smt < 1 || llc_size_of(cfg) % cfg.smt)
		throw WorkloadError("config: cores of " + std::to_string(cfg.smt) + " SMT siblings do not divide an LLC of " +
				    std::to_string(llc_size_of(cfg)) + " CPUs");
	if (const std::string e = shape_error(machine_shape_of(cfg)); !e.empty())
		throw WorkloadError("config: " + e);
	if (wl.tasks.empty())
		throw WorkloadError("workload: no tasks");
	check_limits(cfg, wl);
	validate_sessions(wl);
	validate_groups(cfg, wl);
	for (const TaskSpec& t : wl.tasks) {
		const std::string where = "workload: task '" + t.name + "'";
		if (t.phases.empty())
			throw WorkloadError(where + " has no phases");
		if (t.loop != LOOP_FOREVER && t.loop < 1)
			throw WorkloadError(where + ": loop " + std::to_string(t.loop) + " must be -1 or positive");
		if (t.nice < MIN_NICE || t.nice > MAX_NICE)
			throw WorkloadError(where + ": nice " + std::to_string(t.nice) + " outside -20..19");
		// sched_setaffinity() keeps the online CPUs of a mask and fails
		// (EINVAL) only when none is left.
		auto none_online = [&](const std::vector<u32>& set) {
			return !set.empty() &&
			       std::none_of(set.begin(), set.end(), [&](u32 c) { return c < cfg.cpus; });
		};
		if (none_online(t.cpus))
			throw WorkloadError(where + ": cpus names no CPU of the model's " + std::to_string(cfg.cpus) +
					    " (0.." + std::to_string(cfg.cpus - 1) + "; simulate more with --cpus)");
		for (const Phase& p : t.phases)
			for (const Event& e : p.events)
				if (e.kind == Event::Kind::SetAffinity) {
					if (e.ref < 0 || static_cast<size_t>(e.ref) >= wl.cpu_sets.size())
						throw WorkloadError(where + " phase '" + p.name +
								    "': affinity event with unknown CPU set");
					if (none_online(wl.cpu_sets[static_cast<size_t>(e.ref)]))
						throw WorkloadError(where + " phase '" + p.name +
								    "': cpus names no CPU of the model's " +
								    std::to_string(cfg.cpus) + " (0.." +
								    std::to_string(cfg.cpus - 1) +
								    "; simulate more with --cpus)");
				}
		bool any_time = false;
		for (const Phase& p : t.phases) {
			if (p.events.empty())
				throw WorkloadError(where + " phase '" + p.name + "' has no events");
			if (p.loop != LOOP_FOREVER && p.loop < 1)
				throw WorkloadError(where + " phase '" + p.name + "': loop " + std::to_string(p.loop) +
						    " must be -1 or positive");
			const bool phase_time = phase_consumes_time(p);
			if (p.loop == LOOP_FOREVER && !phase_time)
				throw WorkloadError(where + " phase '" + p.name +
						    "' loops forever without run, runtime, sleep or timer time: no "
						    "time would pass");
			any_time = any_time || phase_time;
			for (const Event& e : p.events) {
				const bool futex =
					e.kind == Event::Kind::FutexBlock || e.kind == Event::Kind::FutexWait ||
					e.kind == Event::Kind::FutexPost || e.kind == Event::Kind::ListPush ||
					e.kind == Event::Kind::ListPost || e.kind == Event::Kind::MutexLock ||
					e.kind == Event::Kind::MutexUnlock || e.kind == Event::Kind::CondWait ||
					e.kind == Event::Kind::CondSignal;
				if ((e.kind == Event::Kind::Timer || e.kind == Event::Kind::Suspend ||
				     e.kind == Event::Kind::Resume || e.kind == Event::Kind::Barrier || futex) &&
				    (e.ref < 0 || static_cast<size_t>(e.ref) >= wl.refs.size()))
					throw WorkloadError(where + " phase '" + p.name + "': event with unknown ref");
				if (e.kind == Event::Kind::ListPush &&
				    (e.value < 0 || static_cast<size_t>(e.value) >= wl.refs.size()))
					throw WorkloadError(where + " phase '" + p.name +
							    "': list push of an unknown futex word");
				if (e.kind == Event::Kind::CondWait &&
				    (e.value < 0 || static_cast<size_t>(e.value) >= wl.refs.size()))
					throw WorkloadError(where + " phase '" + p.name +
							    "': condition wait with an unknown mutex");
				if (e.kind == Event::Kind::SetNice && (e.value < MIN_NICE || e.value > MAX_NICE))
					throw WorkloadError(where + " phase '" + p.name + "': nice " +
							    std::to_string(e.value) + " outside -20..19");
			}
		}
		check_relock(where, t, wl);
		if (t.loop == LOOP_FOREVER && !any_time)
			throw WorkloadError(
				where + " loops forever without run, runtime, sleep or timer time: no time would pass");
		if (wl.duration == 0) {
			const bool forever =
				t.loop == LOOP_FOREVER ||
				std::any_of(t.phases.begin(), t.phases.end(),
					    [](const Phase& p) { return p.loop == LOOP_FOREVER; }) ||
				std::any_of(t.phases.begin(), t.phases.end(), [](const Phase& p) {
					return std::any_of(p.events.begin(), p.events.end(), [](const Event& e) {
						return e.kind == Event::Kind::Run && e.ns == RUN_FOREVER;
					});
				});
			if (forever)
				throw WorkloadError(where + " never ends and the workload has no duration: give one");
		}
	}
}

}  // namespace

void validate_workload(const Config& cfg, const Workload& wl) { validate(cfg, wl); }

}  // namespace eevdf
