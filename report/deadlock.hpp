// SPDX-License-Identifier: GPL-2.0-only
// A run that ended in a deadlock, whole or partial. Whole: every task still
// alive waits (on a mutex, a condition, a barrier, a futex word or a
// resume) and none is runnable or sleeping on a timer, so no task can ever
// run again. Partial: some tasks wait on what no task that can still run
// will ever release (an ABBA lock order while a third thread runs on, a
// barrier a thread that exited or loops elsewhere never reaches, a wait no
// running thread's program signals). Found after the run (DeadlockWatch
// keeps when each task last blocked); `eevdf sim` says which tasks wait on
// what, and which task holds each mutex waited on, on stderr and in
// --json's "deadlock".
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/observer.hpp"

namespace eevdf::cli {

struct Deadlock {
	u64 since_ns = 0;  // when the last of the waiting tasks blocked: none of them ran after
	bool partial = false;  // other tasks could still run
	size_t alive = 0;  // tasks not exited at the end of the run
	struct Waiter {
		std::string task;
		int pid = 0;
		std::string on;  // the resource's name as the workload gave it ("mutex:m", a barrier's name, ...)
		// For a mutex: the task whose program holds it at the end of the
		// run (its locks and unlocks before its program counter).
		std::optional<std::string> held_by;
		int held_by_pid = 0;
	};
	std::vector<Waiter> waiting;
};

class DeadlockWatch : public Observer {
public:
	void on_block(const Simulation&, u64 t, int task, bool, bool) override
	{
		last_block_ns_ = t;
		if (task >= 0) {
			if (static_cast<size_t>(task) >= blocked_at_.size())
				blocked_at_.resize(static_cast<size_t>(task) + 1, 0);
			blocked_at_[static_cast<size_t>(task)] = t;
		}
	}
	// The deadlock the run ended in, if it did. `pids` are the tasks' pids
	// as the reports give them (MetricsCollector's).
	std::optional<Deadlock> find(const Simulation& sim, const std::vector<int>& pids) const;

private:
	u64 last_block_ns_ = 0;
	std::vector<u64> blocked_at_;  // per task id: when it last blocked
};

// "deadlock from 12.000 ms: no task can run again; waiting: 'a' (pid 1000)
// on mutex:m held by 'b' (pid 1001), ..." (one line, no trailing newline);
// a partial one: "deadlock from 12.000 ms: 2 of 3 tasks can never run
// again (the others run on); waiting: ...".
std::string describe(const Deadlock& d);

}  // namespace eevdf::cli
