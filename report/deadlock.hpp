// SPDX-License-Identifier: GPL-2.0-only
// A run that ended in a deadlock: every task still alive waits (on a mutex,
// a condition, a barrier, a futex word or a resume) and none is runnable
// or sleeping on a timer, so no task can ever run again. Found after the
// run (DeadlockWatch keeps when the last task blocked); `eevdf sim` says
// which tasks wait on what on stderr and in --json's "deadlock".
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/observer.hpp"

namespace eevdf::cli {

struct Deadlock {
	u64 since_ns = 0;  // when the last task blocked: nothing ran after
	struct Waiter {
		std::string task;
		int pid = 0;
		std::string on;  // the resource's name as the workload gave it ("mutex:m", a barrier's name, ...)
	};
	std::vector<Waiter> waiting;
};

class DeadlockWatch : public Observer {
public:
	void on_block(const Simulation&, u64 t, int, bool, bool) override { last_block_ns_ = t; }
	// The deadlock the run ended in, if it did. `pids` are the tasks' pids
	// as the reports give them (MetricsCollector's).
	std::optional<Deadlock> find(const Simulation& sim, const std::vector<int>& pids) const;

private:
	u64 last_block_ns_ = 0;
};

// "deadlock from 12.000 ms: no task can run again; waiting: 'a' (pid 1000)
// on mutex:m, ..." (one line, no trailing newline).
std::string describe(const Deadlock& d);

}  // namespace eevdf::cli
