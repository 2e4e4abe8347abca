// SPDX-License-Identifier: GPL-2.0-only
#include "io/schbench.hpp"

namespace eevdf {

int schbench_workers(const SchbenchOptions& o, u32 cpus)
{
	if (o.workers > 0)
		return o.workers;
	const int m = o.message_threads;
	return (static_cast<int>(cpus) + m - 1) / m;
}

Workload schbench_workload(const SchbenchOptions& o, u32 cpus)
{
	using K = Event::Kind;
	Workload w;
	w.duration = o.runtime_ns;
	const int m = o.message_threads, t = schbench_workers(o, cpus);
	std::vector<int> msg_word(static_cast<size_t>(m)), list(static_cast<size_t>(m));
	for (int i = 0; i < m; i++) {
		msg_word[static_cast<size_t>(i)] = w.ref("m-" + std::to_string(i));
		list[static_cast<size_t>(i)] = w.ref("list-" + std::to_string(i));
	}
	for (int i = 0; i < m; i++) {
		const int mw = msg_word[static_cast<size_t>(i)], l = list[static_cast<size_t>(i)];
		TaskSpec msg = looping_task("msg-" + std::to_string(i),
					    {Event{K::FutexBlock, 0, mw, 0}, Event{K::ListPost, 0, l, 0},
					     Event{K::Run, o.msg_cost_ns, -1, 0}, Event{K::FutexWait, 0, mw, 0}});
		msg.loop = LOOP_FOREVER;
		if (o.pin_auto && static_cast<u32>(i) < cpus)
			msg.cpus = {static_cast<u32>(i)};
		w.tasks.push_back(std::move(msg));
	}
	const u64 work = static_cast<u64>(o.operations) * o.op_cost_ns + o.worker_cost_ns;
	for (int i = 0; i < m; i++)
		for (int j = 0; j < t; j++) {
			const std::string id = std::to_string(i) + "-" + std::to_string(j);
			const int ww = w.ref("w-" + id);
			TaskSpec wk = looping_task(
				"worker-" + id,
				{Event{K::FutexBlock, 0, ww, 0}, Event{K::ListPush, 0, list[static_cast<size_t>(i)], ww},
				 Event{K::FutexPost, 0, msg_word[static_cast<size_t>(i)], 0}, Event{K::FutexWait, 0, ww, 0},
				 Event{K::Sleep, o.sleep_ns + o.timer_slack_ns, -1, 0}, Event{K::Run, work, -1, 0}});
			wk.loop = LOOP_FOREVER;
			w.tasks.push_back(std::move(wk));
		}
	// stress-ng --cpu N: each stressor a forked CPU hog, no sleep, yield or
	// blocking call in its loop (smp.md 5.2).
	for (int k = 0; k < o.stress; k++)
		w.tasks.push_back(looping_task("stress-" + std::to_string(k), {Event{K::Run, RUN_FOREVER, -1, 0}}));
	return w;
}

}  // namespace eevdf
