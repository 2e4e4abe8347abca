// SPDX-License-Identifier: GPL-2.0-only
#include "report/schbench_meter.hpp"

#include <map>
#include <string_view>

#include "model/simulation.hpp"

namespace eevdf::cli {

SchbenchMeter::SchbenchMeter(const Simulation& sim, u64 warmup_ns)
	: worker_of_word_(sim.workload().refs.size(), -1), posted_at_(sim.workload().refs.size(), 0),
	  request_start_(sim.workload().tasks.size(), ~0ULL), warmup_ns_(warmup_ns)
{
	// Worker "worker-I-J" waits on its word "w-I-J" (refs are unique by
	// name, Workload::ref()): found by name, not by a scan of every ref
	// per worker, which was quadratic in schbench's threads.
	const Workload& w = sim.workload();
	std::map<std::string_view, size_t> ref_index;
	for (size_t r = 0; r < w.refs.size(); r++)
		ref_index.emplace(w.refs[r], r);
	for (size_t i = 0; i < w.tasks.size(); i++)
		if (w.tasks[i].name.rfind("worker-", 0) == 0)
			if (auto it = ref_index.find("w-" + w.tasks[i].name.substr(7)); it != ref_index.end())
				worker_of_word_[it->second] = static_cast<int>(i);
	requests_per_s.assign(static_cast<size_t>(w.duration / NSEC_PER_SEC), 0);
}

void SchbenchMeter::on_futex_post(const Simulation&, u64 t, int, int word)
{
	if (worker_of_word_[static_cast<size_t>(word)] >= 0)
		posted_at_[static_cast<size_t>(word)] = t;
}

// A worker blocks its own word as the next request begins: the previous one
// (if any) is complete.
void SchbenchMeter::on_futex_block(const Simulation&, u64 t, int task, int word)
{
	if (worker_of_word_[static_cast<size_t>(word)] != task)
		return;
	u64& start = request_start_[static_cast<size_t>(task)];
	if (start != ~0ULL) {
		const u64 us = schbench_us(start, t);
		if (t >= warmup_ns_ && us > 0)  // schbench: if (delta > 0) add_lat()
			request.add(static_cast<unsigned>(us));
		start = ~0ULL;
	}
}

// A worker's fwait on its own word returned: one request handed to it (its
// previous one complete), with this wake-up latency.
void SchbenchMeter::on_futex_wait(const Simulation&, u64 t, int task, int word, bool blocked)
{
	if (blocked || worker_of_word_[static_cast<size_t>(word)] != task)
		return;
	request_start_[static_cast<size_t>(task)] = t;
	const size_t sec = static_cast<size_t>(t / NSEC_PER_SEC);
	if (sec < requests_per_s.size())
		requests_per_s[sec]++;
	if (t < warmup_ns_)
		return;
	const u64 us = schbench_us(posted_at_[static_cast<size_t>(word)], t);
	if (us > 0)  // schbench: if (delta > 0) add_lat()
		wakeup.add(static_cast<unsigned>(us));
	requests++;
}

// How often a worker's wake-up finds it still queued, delayed (DELAY_DEQUEUE:
// it blocked while ineligible): the wake-ups TTWU_QUEUE_DELAYED changes.
void SchbenchMeter::on_ttwu(const Simulation& sim, u64 t, int task, int)
{
	if (t < warmup_ns_ || sim.workload().tasks[static_cast<size_t>(task)].name.rfind("worker-", 0) != 0)
		return;
	wakeups++;
	delayed_wakeups += sim.tasks()[static_cast<size_t>(task)].se.sched_delayed;
}

SchbenchStats schbench_rps_stats(const std::vector<u64>& per_second)
{
	SchbenchStats st;
	st.add(0);  // sleep_for_runtime()'s first round, before any request
	for (u64 n : per_second)
		st.add(static_cast<unsigned>(n));
	return st;
}

// schbench's show_latencies() for the RPS samples: percentiles 20, 50
// (starred) and 90.
std::string format_schbench_rps(const std::vector<u64>& per_second, u64 runtime_s)
{
	return schbench_rps_stats(per_second).show("RPS", "requests", runtime_s, PLIST_FOR_RPS, PLIST_50);
}

}  // namespace eevdf::cli
