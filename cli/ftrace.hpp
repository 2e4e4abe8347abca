// SPDX-License-Identifier: GPL-2.0-only
// The schedule as ftrace text: sched_switch and sched_wakeup lines as
// /sys/kernel/tracing/trace prints them, so Perfetto (ui.perfetto.dev) and
// existing trace scripts read the model's schedule like a kernel trace.
#pragma once

#include <string>
#include <vector>

#include "model/observer.hpp"

namespace eevdf::cli {

class FtraceWriter : public eevdf::Observer {
public:
	void on_switch(const Simulation&, u64 t, int prev, int next, bool prev_runnable, u64 run_start) override;
	void on_wakeup(const Simulation&, u64 t, int task, int waker, bool new_task) override;
	void on_block(const Simulation&, u64 t, int task, bool delayed, bool exited) override;

	// The complete trace file: the kernel's header, then every line.
	std::string text() const;

private:
	void line(u64 t, int context, const std::string& body);
	std::string comm(int task) const;
	int pid(int task) const { return task < 0 ? 0 : 1000 + task; }
	int prio(const Simulation& sim, int task) const;

	const Simulation* sim_ = nullptr;
	std::vector<bool> exited_;
	std::string body_;
	u64 lines_ = 0;
};

}  // namespace eevdf::cli
