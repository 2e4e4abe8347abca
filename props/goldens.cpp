// SPDX-License-Identifier: GPL-2.0-only
#include "props/goldens.hpp"

#include <string>
#include <utility>

#include "model/balance.hpp"
#include "model/simulation.hpp"
#include "model/topology.hpp"
#include "props/harness.hpp"
#include "props/workload_dsl.hpp"

namespace eevdf::props {
namespace {

using namespace eevdf::test;

// A hog with a custom slice, looping (one phase "main").
TaskSpec sliced_hog(std::string name, u64 custom_slice)
{
	return with_slice(task(std::move(name), {run(RUN_FOREVER)}), custom_slice);
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

// CPU 1's newidle calls, gated calls and the MC domain's max cost after
// each call.
struct NewidleLog : Observer {
	struct Call {
		u64 gated, max_cost;
		bool operator==(const Call&) const = default;
	};
	std::vector<Call> calls;
	void on_event(const Simulation& sim, u64) override
	{
		const BalanceCpu& b = sim.balance_state().cpu[1];
		if (b.newidle_calls > calls.size())
			calls.push_back({b.newidle_gated, sim.topology().sd(1)->max_newidle_lb_cost});
	}
};

std::vector<NewidleLog::Call> newidle_calls_of(const char* preset, Bugs bugs)
{
	Config cfg = make_config(*find_preset(preset), 1000, 2, bugs);
	cfg.features.set(Feature::NI_RANDOM, false);
	cfg.knobs.balance_cost = 100 * US;
	Workload wl;
	wl.duration = 40 * MS;
	wl.tasks = {task("p", {run(2 * MS)}, 1), pinned(task("s", {run(1800 * US), sleep(200 * US)}), {1}),
		    pinned(task("h0", {run(RUN_FOREVER)}), {0}), pinned(task("h1", {run(RUN_FOREVER)}), {0})};
	Simulation sim(cfg, wl);
	NewidleLog log;
	sim.add_observer(&log);
	sim.run();
	return log.calls;
}

}  // namespace

// The schedule, by hand: p runs on CPU 0 from 0 until the tick at 1 ms
// (past its first deadline, 0.7 ms), h0 then; s, pinned to CPU 1, sleeps
// at 1.8 ms, and CPU 1's first newidle pass pulls p, cold since 1 ms (0.8
// ms > migration_cost): a success, so max_newidle_lb_cost = 100 us on
// both presets. p runs out its 1 ms there (s, woken at 2.0 ms, waits), s
// runs 2.8-4.6 ms, and from then on s sleeps every 2 ms (4.6, 6.6, ...,
// 38.6 ms): 19 calls in all, every later pass failing (h0 and h1 are
// pinned to CPU 0, which keeps rd->overloaded set). No decay: that needs
// a second. Every sleep is sampled into avg_idle, 200 us each, avg +=
// (200 us - avg) / 8 from 1 ms: 1000000 before the third call, then
// 900000, 812500, 735938, 668946, 610328, 559037, 514158 and 474889 ns
// before the tenth.
//  6.18.39: a failure records its cost, 100 us, not above the max: the max
//   stays 100 us, avg_idle (>= 200 us) never falls below it, no call is
//   gated.
//  6.18.2: a failure records 3/2 of the max: 150000, 225000, 337500, then
//   min(506250, 500200) = 500200 ns after calls 2-5; from the tenth call
//   avg_idle < 500200 gates every call (10 of 19).
bool newidle_cost_golden_holds(Bugs bugs)
{
	using Call = NewidleLog::Call;
	std::vector<Call> plain(19, Call{0, 100 * US});
	std::vector<Call> bumped;
	const u64 bump[] = {100000, 150000, 225000, 337500};
	for (u64 i = 0; i < 19; i++)
		bumped.push_back({i < 9 ? 0 : i - 8, i < 4 ? bump[i] : 500200});
	return newidle_calls_of("6.18.39", bugs) == plain && newidle_calls_of("6.18.2", bugs) == bumped;
}

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

}  // namespace eevdf::props
