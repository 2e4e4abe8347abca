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
	const std::filesystem::path dir = env && *env ? env : "props-counterexamples";
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
	Simulation sim(cfg, wl);
	InvariantChecker check;
	sim.add_observer(&check);
	for (Observer* o : extra)
		sim.add_observer(o);
	try {
		sim.run();
	} catch (const InvariantViolation& v) {
		return v.what() + std::string("\n") + v.failure.state;
	}
	return "";
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

}  // namespace eevdf::props
