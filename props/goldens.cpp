// SPDX-License-Identifier: GPL-2.0-only
#include "props/goldens.hpp"

#include <string>
#include <utility>

#include "model/simulation.hpp"
#include "props/harness.hpp"

namespace eevdf::props {
namespace {

constexpr u64 MS = NSEC_PER_MSEC;

TaskSpec sliced_hog(std::string name, u64 custom_slice)
{
	TaskSpec t = looping_task(std::move(name), {Event{Event::Kind::Run, RUN_FOREVER}});
	t.custom_slice = custom_slice;
	return t;
}

std::vector<std::pair<u64, int>> switches_of(const Config& cfg, Workload wl, u64 duration)
{
	wl.duration = duration;
	Simulation sim(cfg, wl);
	SwitchLog log;
	sim.add_observer(&log);
	sim.run();
	return log.switches;
}

}  // namespace

bool protection_golden_holds(Bugs bugs)
{
	Workload wl;
	wl.tasks = {sliced_hog("s", 1 * MS), sliced_hog("l", 10 * MS)};
	for (const char* preset : {"6.18", "6.18.17", "6.18.33"}) {
		const auto sw = switches_of(make_config(*find_preset(preset), 1000, 1, bugs), wl, 30 * MS);
		if (sw.size() < 30)
			return false;
		for (size_t i = 0; i < 30; i++)
			if (sw[i] != std::pair<u64, int>{i * MS, static_cast<int>(i % 2)})
				return false;
	}
	return true;
}

bool slice_cap_golden_holds(Bugs bugs)
{
	const auto sw = switches_of(make_config_one_of(*find_preset("6.18"), 1000, 16, bugs),
				    hogs_workload(2, 60 * MS), 60 * MS);
	if (sw.size() <= 10 || sw[1].first != 2 * MS || sw[2].first != 4 * MS)
		return false;
	for (size_t i = 3; i < sw.size(); i++)
		if (sw[i].first != (4 + 3 * (i - 2)) * MS)
			return false;
	return true;
}

const std::vector<Golden>& golden_schedules()
{
	static const std::vector<Golden> all = {
		{"protection_golden", protection_golden_holds},
		{"slice_cap_golden", slice_cap_golden_holds},
	};
	return all;
}

}  // namespace eevdf::props
