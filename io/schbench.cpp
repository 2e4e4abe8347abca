// SPDX-License-Identifier: GPL-2.0-only
#include "io/schbench.hpp"

#include <climits>
#include <sstream>
#include <stdexcept>

#include "io/values.hpp"

namespace eevdf {

namespace {

long long integer(const std::string& opt, const std::string& v, long long lo, long long hi = LLONG_MAX)
{
	size_t used = 0;
	long long x = 0;
	try {
		x = std::stoll(v, &used);
	} catch (const std::exception&) {
		used = 0;
	}
	if (used != v.size() || v.empty() || x < lo)
		throw std::invalid_argument("schbench " + opt + ": '" + v + "' is not a whole number >= " + std::to_string(lo));
	if (x > hi)
		throw std::invalid_argument("schbench " + opt + ": '" + v + "' is beyond " + std::to_string(hi));
	return x;
}

// "400us", "2ms", "1s", "500ns": a whole number and a unit.
u64 duration(const std::string& opt, const std::string& v)
{
	size_t i = 0;
	while (i < v.size() && v[i] >= '0' && v[i] <= '9')
		i++;
	const std::string num = v.substr(0, i), unit = v.substr(i);
	const u64 mult = unit == "ns" ? 1 : unit == "us" ? NSEC_PER_USEC : unit == "ms" ? NSEC_PER_MSEC : unit == "s" ? NSEC_PER_SEC : 0;
	if (num.empty() || !mult)
		throw std::invalid_argument("schbench " + opt + ": '" + v + "' is not a duration (a whole number with ns, us, ms or s)");
	const u64 n = static_cast<u64>(integer(opt, num, 0));
	if (n > MAX_TIME_NS / mult)
		throw std::invalid_argument("schbench " + opt + ": '" + v + "' is longer than 2^62 ns (146 years)");
	return n * mult;
}

}  // namespace

SchbenchOptions parse_schbench_command(const std::string& args)
{
	std::istringstream in(args);
	std::vector<std::string> w;
	for (std::string x; in >> x;)
		w.push_back(x);
	SchbenchOptions o;
	for (size_t i = 0; i < w.size(); i++) {
		const std::string& opt = w[i];
		if (opt == "-L") {
			o.no_locking = true;
			continue;
		}
		if (i + 1 >= w.size())
			throw std::invalid_argument("schbench " + opt + ": needs a value, or is not an option");
		const std::string& v = w[++i];
		if (opt == "-m")
			o.message_threads = static_cast<int>(integer(opt, v, 1, MAX_SCHBENCH_THREADS));
		else if (opt == "-t")
			o.workers = static_cast<int>(integer(opt, v, 1, MAX_SCHBENCH_THREADS));
		else if (opt == "-s")
			o.sleep_ns = static_cast<u64>(integer(opt, v, 0, MAX_TIME_NS / NSEC_PER_USEC)) * NSEC_PER_USEC;
		else if (opt == "-n")
			o.operations = static_cast<int>(integer(opt, v, 0, INT_MAX));
		else if (opt == "-M") {
			if (v != "auto")
				throw std::invalid_argument("schbench -M " + v + ": only 'auto' is modelled");
			o.pin_auto = true;
		} else if (opt == "--op-cost")
			o.op_cost_ns = duration(opt, v);
		else if (opt == "--worker-cost")
			o.worker_cost_ns = duration(opt, v);
		else if (opt == "--msg-cost")
			o.msg_cost_ns = duration(opt, v);
		else if (opt == "--timer-slack")
			o.timer_slack_ns = duration(opt, v);
		else if (opt == "--stress")
			o.stress = static_cast<int>(integer(opt, v, 0, MAX_SCHBENCH_STRESS));
		else if (opt == "-w")
			o.warmup_ns = static_cast<u64>(integer(opt, v, 0, MAX_SCHBENCH_RUNTIME_S)) * NSEC_PER_SEC;
		else if (opt == "--schbench-slice")
			o.schbench_slice_ns = duration(opt, v);
		else if (opt == "--stress-slice")
			o.stress_slice_ns = duration(opt, v);
		else
			throw std::invalid_argument("schbench " + opt + ": not an option here (known: -m -t -s -n -w -M auto -L "
						    "--op-cost --worker-cost --msg-cost --timer-slack --stress --schbench-slice "
						    "--stress-slice)");
	}
	if (o.operations > 0 && o.op_cost_ns == 0)
		throw std::invalid_argument("schbench -n " + std::to_string(o.operations) + ": needs --op-cost");
	return o;
}

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
	using cli::UsageError;
	const long long msgs = o.message_threads, per = schbench_workers(o, cpus);
	if (msgs < 1 || msgs > MAX_SCHBENCH_THREADS)
		throw UsageError("schbench -m: " + std::to_string(msgs) + " message threads; need 1.." +
				 std::to_string(MAX_SCHBENCH_THREADS));
	if (per < 1 || per > MAX_SCHBENCH_THREADS || msgs * (1 + per) > MAX_SCHBENCH_THREADS)
		throw UsageError("schbench -m " + std::to_string(msgs) + " -t " + std::to_string(per) + ": " +
				 std::to_string(msgs * (1 + per)) + " threads (m x (1 + t)), beyond the " +
				 std::to_string(MAX_SCHBENCH_THREADS) + " the model takes");
	if (o.stress < 0 || o.stress > MAX_SCHBENCH_STRESS)
		throw UsageError("--stress: " + std::to_string(o.stress) + " stressors; need 0.." +
				 std::to_string(MAX_SCHBENCH_STRESS));
	if (o.runtime_ns > MAX_SCHBENCH_RUNTIME_S * NSEC_PER_SEC)
		throw UsageError("schbench -r: " + std::to_string(o.runtime_ns / NSEC_PER_SEC) + " s is beyond " +
				 std::to_string(MAX_SCHBENCH_RUNTIME_S) +
				 " s (one requests-per-second sample a second)");
	if (o.operations < 0 ||
	    (o.op_cost_ns && static_cast<u64>(o.operations) > (MAX_TIME_NS - o.worker_cost_ns) / o.op_cost_ns))
		throw UsageError("schbench -n " + std::to_string(o.operations) + " with --op-cost " +
				 std::to_string(o.op_cost_ns) +
				 "ns: a request's work (-n x --op-cost + --worker-cost) "
				 "is beyond 2^62 ns");
	if (o.sleep_ns > MAX_TIME_NS || o.timer_slack_ns > MAX_TIME_NS)
		throw UsageError("schbench -s: " + std::to_string(o.sleep_ns / NSEC_PER_USEC) +
				 " us is beyond 2^62 ns");
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
		msg.custom_slice = o.schbench_slice_ns;
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
			wk.custom_slice = o.schbench_slice_ns;
			w.tasks.push_back(std::move(wk));
		}
	// stress-ng --cpu N: each stressor a forked CPU hog, no sleep, yield or
	// blocking call in its loop (smp.md 5.2).
	for (int k = 0; k < o.stress; k++) {
		TaskSpec hog = looping_task("stress-" + std::to_string(k), {Event{K::Run, RUN_FOREVER, -1, 0}});
		hog.custom_slice = o.stress_slice_ns;
		w.tasks.push_back(std::move(hog));
	}
	return w;
}

}  // namespace eevdf
