// SPDX-License-Identifier: GPL-2.0-only
// Issue 35's 8-periodic scenario (8 tasks of 1 ms run, 3 ms relative sleep
// on 2 CPUs, tests/data/probe/scenario-8-periodic.json) under the VM's
// calibrated profile: which path of the model moves the tasks, and why the
// live kernel, whose CPUs other users' builds kept busy, moved none.
//
// The late timer wake-ups leave each CPU idle ~10 % of the time. A CPU
// whose last task sleeps while the other runs one and has one queued is
// where sched_balance_newidle() (fair.c, v6.18.44) pulls: rd->overloaded
// holds and avg_idle (tens to hundreds of us) is far above the 2 us
// max_newidle_lb_cost. The nohz idle balance (CPU_IDLE) pulls a few more.
// At a wake-up, the timer fires on the task's CPU (target == prev) and the
// LLC's summed utilisation keeps SIS_UTIL's nr_idle_scan at 0, so
// select_idle_sibling() can only return the task's recent_used_cpu when
// that CPU is idle.
//
// Each of these needs an idle CPU. In the kernel's runs the CPUs were idle
// 0.03-0.17 % of the time: the builds (cc1plus, ld; 17 % of each CPU) ran
// in every gap, pick_next_task_fair() found them and never reached
// sched_balance_newidle(), no CPU was idle for a nohz balance, and a
// CPU running a build is neither available_idle_cpu() nor sched_idle_cpu().
// A nice-19 task pinned to each CPU stands for them here.
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli/probe_table.hpp"
#include "io/profile.hpp"
#include "model/balance.hpp"
#include "model/simulation.hpp"

using namespace eevdf;

namespace {

constexpr u64 T0 = 504 * NSEC_PER_MSEC;
constexpr size_t PERIODIC = 8;

Workload eight_periodic()
{
	std::ifstream in(std::string(EEVDF_TEST_DATA) + "/probe/scenario-8-periodic.json");
	REQUIRE(in);
	const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
	Workload wl = cli::probe::scenario_workload(nlohmann::json::parse(text), T0);
	REQUIRE(wl.tasks.size() == PERIODIC);
	return wl;
}

// The probe's model: the running kernel's preset on 2 CPUs at HZ=250,
// under the VM's profile as it was measured on 2026-12-05, when this
// analysis was made (tests/data/profiles/; the shipped profile was measured
// again on 2026-12-07, and under it a busy CPU's balance pulls once in
// these three seeds: the last test below).
const std::string VM_20261205 = std::string(EEVDF_TEST_DATA) + "/profiles/vm-6.18.44-hz250-20261205.json";

Config vm(u64 seed, const std::string& profile = VM_20261205)
{
	Config cfg = make_config(*find_preset("6.18.39"), 250, 2);
	cfg.seed = seed;
	cfg.profile = find_profile(profile);
	return cfg;
}

// Each migration of a periodic task, by the path that made it: during a
// wake-up (between try_to_wake_up() and the enqueue), else by the
// balancer, told apart by which schedstat lb_gained[idle type] grew over
// the event (active balance by alb_pushed).
struct MigrationCauses : Observer {
	std::vector<bool> waking;
	u64 wakeup = 0, wakeup_with_idle_scan = 0, balancer = 0;
	std::array<u64, CPU_MAX_IDLE_TYPES> gained{};
	u64 active = 0;
	u64 idle_ns = 0;  // both CPUs' idle time over the run
	explicit MigrationCauses(size_t tasks) : waking(tasks, false) {}
	void on_ttwu(const Simulation&, u64, int task, int) override { waking[static_cast<size_t>(task)] = true; }
	void on_wakeup(const Simulation&, u64, int task, int, bool) override
	{
		waking[static_cast<size_t>(task)] = false;
	}
	void on_migrate(const Simulation& s, u64, int task, u32, u32) override
	{
		if (static_cast<size_t>(task) >= PERIODIC)
			return;
		if (!waking[static_cast<size_t>(task)]) {
			balancer++;
			return;
		}
		wakeup++;
		if (s.topology().sd_llc_shared(0)->nr_idle_scan != 0)
			wakeup_with_idle_scan++;
	}
	void finish(const Simulation& s)
	{
		for (u32 c = 0; c < s.nr_cpus(); c++) {
			const BalanceCpu& b = s.balance_state().cpu[c];
			for (size_t i = 0; i < CPU_MAX_IDLE_TYPES; i++)
				gained[i] += b.lb_gained[i];
			active += b.alb_pushed;
		}
		idle_ns = s.idle_ns();
	}
};

MigrationCauses run(Workload wl, u64 seed, const std::string& profile = VM_20261205)
{
	Simulation sim(vm(seed, profile), wl);
	MigrationCauses m(wl.tasks.size());
	sim.add_observer(&m);
	sim.run();
	m.finish(sim);
	return m;
}

}  // namespace

TEST_CASE("8-periodic on the 2026-12-05 VM profile: most migrations are newidle pulls, none by a busy CPU's balance")
{
	for (u64 seed = 1; seed <= 3; seed++) {
		const MigrationCauses m = run(eight_periodic(), seed);
		INFO("seed " << seed);
		REQUIRE(m.balancer ==
			m.gained[CPU_NEWLY_IDLE] + m.gained[CPU_IDLE] + m.gained[CPU_NOT_IDLE] + m.active);
		CHECK(m.gained[CPU_NEWLY_IDLE] > 2 * (m.gained[CPU_IDLE] + m.wakeup));
		CHECK(m.gained[CPU_NOT_IDLE] == 0);
		CHECK(m.active == 0);
	}
}

TEST_CASE("8-periodic on the 2026-12-05 VM profile: a wake-up moves a task only while SIS_UTIL scans no CPU")
{
	u64 wakeups = 0;
	for (u64 seed = 1; seed <= 3; seed++) {
		const MigrationCauses m = run(eight_periodic(), seed);
		wakeups += m.wakeup;
		CHECK(m.wakeup_with_idle_scan == 0);  // so it was recent_used_cpu, idle
	}
	CHECK(wakeups > 0);
}

TEST_CASE("8-periodic with a nice-19 task pinned to each CPU: no CPU is idle and no task migrates")
{
	for (u64 seed = 1; seed <= 3; seed++) {
		Workload wl = eight_periodic();
		for (u32 c = 0; c < 2; c++) {
			TaskSpec bg = looping_task("build" + std::to_string(c), {Event{Event::Kind::Run, RUN_FOREVER}});
			bg.nice = 19;
			bg.cpus = {c};
			wl.tasks.push_back(bg);
		}
		const MigrationCauses m = run(wl, seed);
		INFO("seed " << seed);
		CHECK(m.idle_ns == 0);
		CHECK(m.wakeup == 0);
		CHECK(m.balancer == 0);
	}
}

TEST_CASE("8-periodic on the shipped VM profile: most migrations are newidle pulls")
{
	for (u64 seed = 1; seed <= 3; seed++) {
		const MigrationCauses m = run(eight_periodic(), seed, "vm-6.18.44-hz250");
		INFO("seed " << seed);
		REQUIRE(m.balancer ==
			m.gained[CPU_NEWLY_IDLE] + m.gained[CPU_IDLE] + m.gained[CPU_NOT_IDLE] + m.active);
		CHECK(m.gained[CPU_NEWLY_IDLE] > 2 * (m.gained[CPU_IDLE] + m.gained[CPU_NOT_IDLE] + m.wakeup));
		CHECK(m.active == 0);
	}
}
