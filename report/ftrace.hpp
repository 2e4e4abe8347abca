// SPDX-License-Identifier: GPL-2.0-only
// The schedule as ftrace text: sched_switch, sched_wakeup(_new) and
// sched_migrate_task lines as /sys/kernel/tracing/trace prints them, with
// the CPU that emitted each, so Perfetto (ui.perfetto.dev) and existing
// trace scripts read the model's schedule like a kernel trace.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/output_spool.hpp"
#include "model/observer.hpp"

namespace eevdf::cli {

class FtraceWriter : public eevdf::Observer {
public:
	// waking: also sched_waking lines (try_to_wake_up() on the waker's CPU),
	// as a kernel trace has them when that event is enabled.
	explicit FtraceWriter(bool waking = false) : waking_(waking) {}
	void on_ttwu(const Simulation&, u64 t, int task, int waker) override;
	void on_switch(const Simulation&, u64 t, int prev, int next, bool prev_runnable, u64 run_start) override;
	void on_wakeup(const Simulation&, u64 t, int task, int waker, bool new_task) override;
	void on_block(const Simulation&, u64 t, int task, bool delayed, bool exited) override;
	void on_migrate(const Simulation&, u64 t, int task, u32 from, u32 to) override;

	// Keep the lines on disk as they come (io/output_spool.hpp), beside
	// `path`, once more than SPOOL_CHUNK bytes of them are held: memory then
	// holds one chunk, however long the run. `flag` names the output in errors.
	void spool_to(const std::string& path, const std::string& flag)
	{
		spool_path_ = path;
		spool_flag_ = flag;
	}
	static constexpr size_t SPOOL_CHUNK = size_t{4} << 20;

	// The complete trace file: the kernel's header, then every line.
	std::string text() const;
	// The same in parts: the header, the lines on disk (nullptr: none),
	// and the lines still held.
	std::string header() const;
	const OutputSpool* spool() const { return spool_.get(); }
	const std::string& held() const { return body_; }

private:
	void line(u64 t, u32 cpu, int context, const std::string& body);
	std::string comm(int task, u32 cpu) const;
	int pid(int task) const { return task < 0 ? 0 : 1000 + task; }
	int prio(const Simulation& sim, int task) const;
	// What `cpu` runs, as the kernel's context column prints it: rq->curr,
	// the task last switched to (during __schedule() still prev, even
	// after its dequeue), not the cfs_rq's curr.
	int running(u32 cpu) const { return cpu < running_.size() ? running_[cpu] : -1; }

	const Simulation* sim_ = nullptr;
	std::vector<bool> exited_;
	std::vector<int> running_;
	u32 nr_cpus_ = 1;
	std::string body_;
	std::string spool_path_, spool_flag_;
	std::unique_ptr<OutputSpool> spool_;
	u64 lines_ = 0;
	bool waking_ = false;
};

}  // namespace eevdf::cli
