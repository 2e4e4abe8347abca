// SPDX-License-Identifier: GPL-2.0-only
// The Machine: all that the fair class's SMP code (select_task_rq_fair.*
// and the balancer, balance*.*) sees of the simulated computer, as Spike's
// processor_t sees only the simif_t of its simulator (and, like
// processor_t, that code names it `sim`).
//
// It holds the state of the CPUs -- the per-CPU rqs, the tasks, the
// topology, the balancer's state -- with the Config and the clocks (now and
// jiffies, read-only here), and declares the five services of the core
// (core.cpp) that code may call: detach_task, attach_task, stopper_preempt,
// resched_curr and send_nohz_kick.
//
// Why a base class: the state is read on every wake-up and balance pass, so
// its accessors are plain inline members; only the services, called per
// migration, kick or resched, are virtual. The event loop (Simulation,
// final) derives from it, implements the services and alone moves the clocks.
//
// Not to be added: anything of the event loop (events, timers, futexes and
// wait queues, the tasks' programs, the workload, observers), nor a service
// the kernel's fair class does not call. New per-CPU or per-domain state
// goes into Rq, Topology or BalanceState, not here. The task groups are
// here beside the tasks, as the kernel's task_group tree is beside its
// tasks: each task's entity points into its group's per-CPU entity.
#pragma once

#include <deque>
#include <vector>

#include "model/balance.hpp"
#include "model/config.hpp"
#include "model/pelt.hpp"
#include "model/rq.hpp"
#include "model/task.hpp"
#include "model/task_group.hpp"
#include "model/topology.hpp"

namespace eevdf {

class Machine {
public:
	Machine(const Machine&) = delete;
	Machine& operator=(const Machine&) = delete;

	const Config& config() const { return cfg_; }
	u64 now() const { return now_; }
	u64 jiffies() const { return jiffies_; }

	// ---- the CPUs
	u32 nr_cpus() const { return static_cast<u32>(rqs_.size()); }
	const Rq& rq(u32 cpu) const { return rqs_[cpu]; }
	Rq& rq_mut(u32 cpu) { return rqs_[cpu]; }
	const Topology& topology() const { return topo_; }
	Topology& topology_mut() { return topo_; }
	BalanceState& balance_state() { return balance_; }
	const BalanceState& balance_state() const { return balance_; }

	// ---- the tasks and their groups
	const std::vector<Task>& tasks() const { return tasks_; }
	const std::deque<TaskGroup>& groups() const { return groups_; }
	std::deque<TaskGroup>& groups_mut() { return groups_; }
	Task& task_mut(int id) { return tasks_[static_cast<size_t>(id)]; }
	// The task running on `cpu` ("current" there), or nullptr on the idle task.
	Task* curr_task(u32 cpu)
	{
		SchedEntity* c = rqs_[cpu].cfs.curr_task();
		return c ? &tasks_[static_cast<size_t>(c->id)] : nullptr;
	}

	// ---- the services of core.c (model/core.cpp)
	// Move a queued, not running, task from its rq to `dst`, as detach_task()
	// + attach_task() do (deactivate DEQUEUE_NOCLOCK, set_task_cpu,
	// activate ENQUEUE_MIGRATED, wakeup_preempt on dst), run on this_cpu: a
	// resched either leaves on a remote rq is sent by IPI.
	virtual void detach_task(Task& p, u32 dst, u32 this_cpu) = 0;
	virtual void attach_task(Task& p, u32 this_cpu) = 0;
	// The CPU stopper preempts `cpu`'s running task, which stays queued.
	virtual void stopper_preempt(u32 cpu) = 0;
	// resched_curr() of `cpu` from `this_cpu`: local, or an IPI.
	virtual void resched_curr(u32 cpu, u32 this_cpu) = 0;
	// kick_ilb(): an IPI to `cpu` that runs nohz_csd_func(flags) there.
	virtual void send_nohz_kick(u32 cpu, unsigned flags) = 0;

protected:
	Machine(const Config& cfg, const MachineShape& shape) : cfg_(cfg), topo_(shape) {}
	~Machine() = default;  // not deleted through a Machine*

	Config cfg_;
	Topology topo_;
	std::vector<Rq> rqs_;
	std::vector<Task> tasks_;
	std::deque<TaskGroup> groups_;  // the workload's groups, parents first; none: all in the root
	BalanceState balance_;
	u64 now_ = 0;
	u64 jiffies_ = 0;
};

// The Config's switches as the fair class's SMP code reads them.
inline const KernelPaths& paths(const Machine& sim) { return sim.config().preset->paths; }
inline bool feat(const Machine& sim, Feature f) { return sim.config().features[f]; }
inline PeltFeatures pelt_features(const Machine& sim) { return PeltFeatures{feat(sim, Feature::UTIL_EST), true}; }
// task_cfs_rq(p): the cfs_rq p is (or was last) queued on, its group's on
// p's CPU.
inline CfsRq& task_cfs_rq(Machine& sim, const Task& p) { return sim.rq_mut(p.cpu).cfs.cfs_rq_of(&p.se); }
// task_h_load(p): p's load as the root of its CPU sees it (model/task_h_load.cpp).
inline u64 task_h_load(Machine& sim, const Task& p) { return task_cfs_rq(sim, p).task_h_load(&p.se, sim.jiffies()); }

}  // namespace eevdf
