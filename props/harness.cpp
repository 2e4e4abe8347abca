// SPDX-License-Identifier: GPL-2.0-only
#include "props/harness.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "io/rtapp.hpp"

namespace eevdf::props {

std::string save_counterexample(const std::string& property, const Config& cfg, const Workload& wl,
				const std::string& why)
{
	const char* env = std::getenv("EEVDF_PROPS_OUT");
	return save_counterexample_in(env && *env ? env : "props-counterexamples", property, cfg, wl, why);
}

std::string save_counterexample_in(const std::string& out, const std::string& property, const Config& cfg,
				   const Workload& wl, const std::string& why)
{
	const std::filesystem::path dir = out;
	std::error_code ec;
	std::filesystem::create_directories(dir, ec);
	const std::filesystem::path json = dir / (property + ".json");
	std::string text;
	try {
		text = to_rtapp_json(wl);
	} catch (const std::exception& e) {
		text = std::string("{} // not expressible as rt-app: ") + e.what() + "\n";
	}
	std::ofstream(json) << text;
	std::ofstream(dir / (property + ".txt")) << why << "\nreplay: eevdf sim " << json.string() << " "
						  << command_line_flags(cfg) << " --check\n";
	return json.string();
}

std::string run_checked(const Config& cfg, const Workload& wl, std::vector<Observer*> extra)
{
	return run_checked_within(cfg, wl, std::move(extra), NEVER).violation;
}

CheckedRun run_checked_within(const Config& cfg, const Workload& wl, std::vector<Observer*> extra, u64 max_events)
{
	Simulation sim(cfg, wl);
	InvariantChecker check;
	sim.add_observer(&check);
	for (Observer* o : extra)
		sim.add_observer(o);
	CheckedRun r;
	try {
		sim.run_until(sim.end_time(), max_events);
	} catch (const InvariantViolation& v) {
		r.violation = v.what() + std::string("\n") + v.failure.state;
	}
	r.end = sim.now();
	r.budget_spent = sim.events() >= max_events && !sim.finished();
	return r;
}

void ClampWatch::on_event(const Simulation& sim, u64 t)
{
	queued.resize(sim.tasks().size());
	for (size_t i = 0; i < sim.tasks().size(); i++) {
		const SchedEntity& se = sim.tasks()[i].se;
		if (queued[i] && !se.on_rq && bound_hit.empty()) {
			LoadWeight lw = se.load;
			const u64 tick = sim.config().tick_ns;
			const u64 limit = calc_delta_fair(std::max(2 * se.slice, tick), lw);
			if (se.vlag >= static_cast<s64>(limit) || se.vlag <= -static_cast<s64>(limit))
				bound_hit = "task " + std::to_string(i) + " left at t=" + std::to_string(t) + " with vlag " +
					    std::to_string(se.vlag) + " at the clamp " + std::to_string(limit);
		}
		queued[i] = se.on_rq;
	}
}

s64 cfs_op_lag_limit(const Config& cfg, const SchedEntity& se)
{
	LoadWeight lw = se.load;
	return static_cast<s64>(calc_delta_fair(std::max(2 * se.slice, cfg.tick_ns), lw));
}

void apply_cfs_op(CfsRq& cfs, std::vector<SchedEntity>& es, const CfsOp& op)
{
	SchedEntity& se = es[op.entity];
	switch (op.kind) {
	case CfsOp::Enqueue:  // a wakeup or a fork with an arbitrary saved lag
		if (!se.on_rq) {
			se.vlag = op.vlag;
			cfs.enqueue_entity(&se, op.wakeup ? ENQUEUE_WAKEUP : ENQUEUE_INITIAL);
		}
		break;
	case CfsOp::Dequeue:  // a sleep (which may be delayed)
		if (se.on_rq && !se.sched_delayed)
			cfs.dequeue_entity(&se, DEQUEUE_SLEEP);
		break;
	case CfsOp::Run:  // time passes for curr
		cfs.clock_task += op.run_ns;
		cfs.update_curr();
		break;
	case CfsOp::Schedule:  // a scheduling point, as __schedule() makes it
		cfs.pick_next_task_fair();
		cfs.need_resched = false;
		break;
	case CfsOp::Requeue:  // waking a delayed entity requeues it in place
		if (se.sched_delayed)
			cfs.requeue_delayed_entity(&se);
		break;
	}
}

}  // namespace eevdf::props
