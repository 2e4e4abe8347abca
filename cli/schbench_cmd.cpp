// SPDX-License-Identifier: GPL-2.0-only
#include "cli/schbench_cmd.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/activity.hpp"
#include "io/rtapp.hpp"
#include "io/schbench.hpp"
#include "io/values.hpp"
#include "model/simulation.hpp"
#include "report/outputs.hpp"
#include "report/run_record.hpp"
#include "report/schbench_meter.hpp"
#include "report/version.hpp"

namespace eevdf::cli {

namespace {

// The percentiles schbench's --json writes (write_json_stats()), and the
// sample count, min and max.
nlohmann::ordered_json percentiles(const SchbenchStats& st)
{
	nlohmann::ordered_json j = {{"count", st.samples()}};
	if (!st.samples())
		return j;
	for (const SchbenchStats::Row& r : st.percentiles()) {
		char name[16];
		std::snprintf(name, sizeof name, "p%g", r.pct);
		j[name] = r.value;
	}
	j["min"] = st.min();
	j["max"] = st.max();
	return j;
}

}  // namespace

int cmd_schbench(const ModelOptions& mo, const SchbenchCmdOptions& so)
{
	if (so.message_threads < 1)
		throw UsageError("schbench -m: " + std::to_string(so.message_threads) + " message threads; need at least 1");
	if (so.workers < 0)
		throw UsageError("schbench -t: " + std::to_string(so.workers) + " workers; need at least 1 (0: the default)");
	if (so.operations < 0)
		throw UsageError("schbench -n: " + std::to_string(so.operations) + " operations; need 0 or more");
	if (so.runtime_s < 1 || so.runtime_s > MAX_SCHBENCH_RUNTIME_S)
		throw UsageError("schbench -r: runtime " + std::to_string(so.runtime_s) + " s; need 1.." +
				 std::to_string(MAX_SCHBENCH_RUNTIME_S) + " seconds");
	if (so.sleep_us > MAX_TIME_NS / NSEC_PER_USEC)
		throw UsageError("schbench -s: " + std::to_string(so.sleep_us) + " us is beyond 2^62 ns (" +
				 std::to_string(MAX_TIME_NS / NSEC_PER_USEC) + " us)");
	// schbench forces the warm-up to 0 for runs under 30 s; past that it
	// must leave some of the run to measure.
	if (so.runtime_s >= 30 && so.warmup_s >= so.runtime_s)
		throw UsageError("schbench -w: a warm-up of " + std::to_string(so.warmup_s) +
				 " s leaves nothing of -r " + std::to_string(so.runtime_s) +
				 " s to measure; give -w below -r");
	if (!so.pin.empty() && so.pin != "auto")
		throw UsageError("schbench -M " + so.pin + ": only 'auto' is modelled (message thread i on CPU i)");
	if (so.operations > 0 && so.op_cost.empty())
		throw UsageError("schbench -n " + std::to_string(so.operations) +
				 ": give --op-cost DUR, the CPU time of one matrix operation on the machine modelled (or -n 0)");
	const Config cfg = build_config(mo);
	SchbenchOptions o;
	o.message_threads = so.message_threads;
	o.workers = so.workers;
	o.runtime_ns = so.runtime_s * NSEC_PER_SEC;
	o.sleep_ns = so.sleep_us * NSEC_PER_USEC;
	o.operations = so.operations;
	o.op_cost_ns = so.op_cost.empty() ? 0 : parse_duration(so.op_cost, "--op-cost");
	o.no_locking = so.no_locking;
	o.pin_auto = so.pin == "auto";
	o.timer_slack_ns = parse_duration(so.timer_slack, "--timer-slack");
	o.msg_cost_ns = parse_duration(so.msg_cost, "--msg-cost");
	o.worker_cost_ns = parse_duration(so.worker_cost, "--worker-cost");
	if (so.stress < 0 || so.stress > MAX_SCHBENCH_STRESS)
		throw UsageError("--stress: " + std::to_string(so.stress) + " stressors; need 0.." +
				 std::to_string(MAX_SCHBENCH_STRESS));
	o.stress = so.stress;
	o.schbench_slice_ns = so.schbench_slice.empty() ? 0 : parse_duration(so.schbench_slice, "--schbench-slice");
	o.stress_slice_ns = so.stress_slice.empty() ? 0 : parse_duration(so.stress_slice, "--stress-slice");
	if (o.msg_cost_ns == 0 || o.sleep_ns + o.timer_slack_ns == 0)
		throw UsageError("schbench: --msg-cost and the sleep (-s plus --timer-slack) must be above 0, or no time passes");
	// schbench forces the warm-up to 0 for runs under 30 s.
	const u64 warmup_s = so.runtime_s < 30 ? 0 : so.warmup_s;
	Workload wl = schbench_workload(o, cfg.cpus);
	std::vector<size_t> with_tasks;
	for (const std::string& f : so.with) {
		const Workload extra = load_rtapp_file(f);
		append_workload(wl, extra, f);
		with_tasks.push_back(extra.tasks.size());
	}
	const std::vector<Adjustment> adj = adjustments(cfg, wl);
	warn_adjustments(adj);
	set_activity("simulating");
	Simulation sim(cfg, wl);
	SchbenchMeter meter(sim, warmup_s * NSEC_PER_SEC);
	sim.add_observer(&meter);
	sim.run();
	const double avg = static_cast<double>(meter.requests) / static_cast<double>(so.runtime_s - warmup_s);
	if (so.json) {
		nlohmann::ordered_json j;
		j["eevdf"] = version_json();
		j["model"] = describe(cfg);
		if (!adj.empty())
			j["adjustments"] = adjustments_json(adj);
		j["schbench"] = {{"message_threads", o.message_threads}, {"workers_per_message_thread", schbench_workers(o, cfg.cpus)},
				 {"runtime_s", so.runtime_s}, {"sleep_us", so.sleep_us}, {"operations", o.operations},
				 {"op_cost_ns", o.op_cost_ns}, {"pin", o.pin_auto ? "auto" : "none"}, {"timer_slack_ns", o.timer_slack_ns},
				 {"msg_cost_ns", o.msg_cost_ns}, {"worker_cost_ns", o.worker_cost_ns}, {"warmup_s", warmup_s},
				 {"stress", o.stress}, {"schbench_slice_ns", o.schbench_slice_ns},
				 {"stress_slice_ns", o.stress_slice_ns}};
		if (!so.with.empty()) {
			nlohmann::ordered_json w = nlohmann::ordered_json::array();
			for (size_t i = 0; i < so.with.size(); i++)
				w.push_back({{"file", so.with[i]}, {"tasks", with_tasks[i]}});
			j["schbench"]["with"] = w;
		}
		j["wakeup_latency_us"] = percentiles(meter.wakeup);
		j["request_latency_us"] = percentiles(meter.request);
		j["rps"] = percentiles(schbench_rps_stats(meter.requests_per_s));
		j["average_rps"] = avg;
		j["worker_wakeups"] = meter.wakeups;
		j["worker_wakeups_delayed"] = meter.delayed_wakeups;
		j["busy_ns"] = sim.busy_ns();
		j["idle_ns"] = sim.idle_ns();
		std::cout << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
		return 0;
	}
	std::cout << "# eevdf model: " << describe(cfg) << "\n";
	for (const Adjustment& a : adj)
		std::cout << "# adjusted: " << a.text() << "\n";
	for (size_t i = 0; i < so.with.size(); i++)
		std::cout << "# with " << so.with[i] << ": " << with_tasks[i] << " tasks beside schbench's\n";
	std::cout << meter.wakeup.show("Wakeup Latencies", "usec", so.runtime_s, PLIST_FOR_LAT, PLIST_99);
	std::cout << meter.request.show("Request Latencies", "usec", so.runtime_s, PLIST_FOR_LAT, PLIST_99);
	std::cout << format_schbench_rps(meter.requests_per_s, so.runtime_s);
	char b[64];
	std::snprintf(b, sizeof b, "average rps: %.2f\n", avg);
	std::cout << b;
	return 0;
}

}  // namespace eevdf::cli
