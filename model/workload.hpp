// SPDX-License-Identifier: GPL-2.0-only
// A workload: tasks whose behaviour is a program of rt-app-like events.
//
// The structure follows rt-app's JSON (a task loops over phases, a phase loops
// over an ordered list of events) so that a parsed rt-app file maps onto it
// one to one. All times are nanoseconds; the parser converts rt-app's
// microseconds. The model never reads files: io/ builds a Workload.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "model/types.hpp"
#include "model/weights.hpp"

namespace eevdf {

inline constexpr s64 LOOP_FOREVER = -1;
inline constexpr u64 RUN_FOREVER = ~0ULL;  // a Run event that never completes: a CPU hog

struct Event {
	enum class Kind {
		Run,       // consume `ns` of CPU time (rt-app "run")
		Runtime,   // stay runnable for `ns` of wall time, using the CPU whenever given it (rt-app "runtime")
		Sleep,     // block for `ns` (rt-app "sleep")
		Timer,     // block until the next absolute period boundary of timer `ref` (rt-app "timer")
		Suspend,   // block until another task resumes `ref` (rt-app "suspend")
		Resume,    // wake every task suspended on `ref` (rt-app "resume")
		Yield,     // sched_yield() (rt-app "yield")
		// rt-app "barrier" `ref`: every thread whose program names it meets
		// there; the last to arrive broadcasts, the others wait (below).
		Barrier,
		SetNice,   // set_user_nice(value) (rt-app phase-level "priority")
		SetSlice,  // sched_setattr(sched_runtime = ns); ns == 0 clears the custom slice
		SetAffinity,  // sched_setaffinity(Workload::cpu_sets[ref]) (rt-app phase-level "cpus")
		// A futex word per ref, BLOCKED (0) or RUNNING (1), as schbench's
		// fpost()/fwait() use one (the model's own; rt-app has no futex):
		FutexBlock,   // plain store: word[ref] = BLOCKED
		FutexWait,    // fwait: CAS RUNNING -> BLOCKED and go on, else FUTEX_WAIT until posted, then retry
		FutexPost,    // fpost: CAS BLOCKED -> RUNNING, then FUTEX_WAKE one waiter (none: no syscall)
		ListPush,     // push word `value` (a ref) on list `ref` (schbench's lock-free prepend)
		ListPost,     // splice list `ref` and fpost each word on it, most recent first
		// pthread mutexes and condition variables (rt-app lock, unlock,
		// wait, signal; broad is Resume). A mutex is a futex word of its
		// own ref: rt-app keeps resources by name and type, so the parser
		// names a mutex's ref "mutex:NAME", apart from a condition NAME.
		MutexLock,    // pthread_mutex_lock(ref): blocks while another thread holds it
		MutexUnlock,  // pthread_mutex_unlock(ref): wakes the longest waiter, which must retake it
		CondWait,     // pthread_cond_wait(ref, mutex `value`): unlock, sleep until signalled; a
		              // MutexLock of `value` follows it (the re-lock on return)
		CondSignal,   // pthread_cond_signal(ref): wake the condition's longest waiter
		// A write to cpu.shares / cpu.weight of Workload::groups[ref]: tg->shares
		// = ns (scaled), by the running task (the model's "group_weight").
		SetShares,
		// The running task moves itself into Workload::groups[ref] (-1: the
		// root group): a cgroup attach, sched_move_task() (rt-app's
		// phase-level "taskgroup"); nothing when it is there already.
		MoveGroup,
		// A write to cpu.idle of Workload::groups[ref]: `value` 1 makes it an
		// idle group, 0 a normal one (sched_group_set_idle(); the model's
		// "group_idle").
		SetIdle,
		// The running task calls setsid() (rt-app phase-level "setsid":
		// true, the model's own): under autogroup its first call leads a
		// new session and, if it is in the root cpu cgroup, moves it to
		// the session's autogroup (sched_move_task()); nothing otherwise
		// (model/autogroup.hpp).
		Setsid,
	};
	Kind kind = Kind::Run;
	u64 ns = 0;     // duration, period or slice
	int ref = -1;   // index into Workload::refs (Timer, Suspend, Resume, Barrier, Mutex*, Cond*)
	int value = 0;  // nice for SetNice; the pushed word's ref for ListPush; the mutex's ref for CondWait

	bool operator==(const Event&) const = default;
};

struct Phase {
	std::string name;
	s64 loop = 1;  // LOOP_FOREVER or a positive count
	std::vector<Event> events;

	bool operator==(const Phase&) const = default;
};

// The fair class's scheduling policies.
enum class Policy : unsigned char {
	Normal,  // SCHED_OTHER (SCHED_NORMAL)
	Batch,   // SCHED_BATCH: as Normal, but a waking task never preempts (normal_policy() is false)
	Idle,    // SCHED_IDLE: weight 3 whatever the nice value; never preempts at its wake-up, is
	         // preempted by any non-idle waker; a CPU running only such tasks counts as idle for
	         // CPU selection and balances at the idle interval (docs/model.md)
};

// The policy's name in sched_setattr() terms (SCHED_NORMAL is SCHED_OTHER).
constexpr const char* policy_name(Policy p)
{
	return p == Policy::Batch ? "SCHED_BATCH" : p == Policy::Idle ? "SCHED_IDLE" : "SCHED_OTHER";
}

struct TaskSpec {
	std::string name;       // rt-app's name, "name-N" for instance N
	int nice = 0;           // rt-app "priority" on SCHED_OTHER
	u64 custom_slice = 0;   // rt-app "dl-runtime" on SCHED_OTHER; 0 = the base slice
	u64 delay = 0;          // creation time: the task forks at t = delay
	s64 loop = 1;           // LOOP_FOREVER or a positive count of passes over `phases`
	std::vector<Phase> phases;
	std::vector<u32> cpus{};  // rt-app "cpus": the affinity mask; empty = every CPU
	Policy policy = Policy::Normal;  // rt-app "policy" (last: positional initialisers predate it)
	std::string taskgroup{};         // rt-app "taskgroup": the cgroup path ("/A/B"); empty = the root
	// The model's own keys (model/autogroup.hpp): the task is a process that
	// called setsid() before its first phase, and its session's autogroup
	// nice (-20..19, only with setsid). They matter only with --autogroup on.
	bool setsid = false;
	int autogroup_nice = 0;

	bool operator==(const TaskSpec&) const = default;
};

// Limits on the groups a workload may declare (docs/cli.md "Limits").
inline constexpr size_t MAX_GROUPS = 4096;
// Each group has an entity and a cfs_rq on every CPU (~720 bytes): groups x
// CPUs is bounded too, to 47 MB of them (1,000 groups on 64 CPUs fit).
inline constexpr size_t MAX_GROUP_ENTITIES = 65536;
inline constexpr size_t MAX_GROUP_DEPTH = 8;   // levels below the root
inline constexpr size_t MAX_GROUP_PATH = 4096; // bytes

// A cpu cgroup (or, made by the Simulation, an autogroup): its path and
// weight (tg->shares, scaled; NICE_0_LOAD is cpu.shares 1024 or cpu.weight
// 100).
struct GroupSpec {
	std::string path;  // "/A/B": every prefix is a group too
	u64 shares = NICE_0_LOAD;
	u64 autogroup_id = 0;  // tg->autogroup->id (model/autogroup.hpp); 0: a cpu cgroup
	// cpu.idle = 1 (cgroup SCHED_IDLE, 304000390f88): the group's entities
	// are idle entities (se_is_idle()) and tg->shares is WEIGHT_IDLEPRIO;
	// `shares` is then unused.
	bool idle = false;

	bool operator==(const GroupSpec&) const = default;
};

struct Workload {
	u64 duration = 0;               // simulated time; 0 = until every task has exited
	std::vector<TaskSpec> tasks;
	std::vector<std::string> refs;  // names of timers and suspend/resume objects
	std::vector<std::vector<u32>> cpu_sets;  // CPU lists of SetAffinity events
	std::vector<GroupSpec> groups;  // parents before children; a task's taskgroup is one of them

	bool operator==(const Workload&) const = default;

	// Index of `name` in refs, appending it if absent.
	int ref(const std::string& name);
};

// A workload the model cannot run (e.g. a loop that never lets time pass,
// or two workloads merged that name the same task).
struct WorkloadError : std::invalid_argument {
	using std::invalid_argument::invalid_argument;
};

// Appends `extra`'s tasks to `base`, as two programs started side by side:
// extra's resource names (timers, suspend/resume objects, futex words and
// lists) and affinity sets are renumbered into base's; base's duration
// stays. A task or resource name both use is an error (WorkloadError
// starting with `what`): shared names would silently couple the two.
void append_workload(Workload& base, const Workload& extra, const std::string& what);

// A task that repeats `events` forever (one phase named "main").
TaskSpec looping_task(std::string name, std::vector<Event> events);

// `n` CPU hogs (`while :; do :; done`), named hog-0 .. hog-(n-1): what
// `stress-ng --cpu n` is on one CPU.
Workload hogs_workload(int n, u64 duration);

}  // namespace eevdf
