// SPDX-License-Identifier: GPL-2.0-only
// SIS_UTIL (update_idle_cpu_scan(), model/balance_stats.cpp): the
// balancer writes the LLC's nr_idle_scan, which bounds select_idle_cpu()'s
// scan, from the LLC's utilisation; the run and the formula's curve
// (tests/balance_helpers.hpp gives the set-ups).
#include <catch2/catch.hpp>

#include <string>

#include "balance_helpers.hpp"
#include "model/pelt.hpp"

using namespace eevdf;
using namespace eevdf::test;
using namespace eevdf::test::balance_cases;

// ---------------------------------------------------------------- SIS_UTIL

// update_idle_cpu_scan(), on a 4-CPU LLC with k hogs pinned to CPUs
// 0 .. k-1: every periodic balance of the MC domain (busy or nohz idle, not
// newidle) writes nr_idle_scan = y with x = sum_util / 4,
// tmp = x^2 117^2 / (10^4 1024), y = (1024 - min(tmp, 1024)) * 4 / 1024
// (balances of CPU 0 every 63 or 127 jiffies: MC over 4 CPUs has
// balance_interval 4 .. 8 ms). After a second each hog's util is ~1023 and idle CPUs
// have none, so: k=1: x=255, tmp=86, y=3; k=2: x=511, tmp=349, y=2;
// k=3: x=767, tmp=786, y=0. The shared value starts at 0 (kzalloc) and
// every balance of CPU 0 writes the formula's value for the utilisation it
// saw, which is what its tick left (entity_tick() updates PELT first).
TEST_CASE("update_idle_cpu_scan writes nr_idle_scan from the LLC's utilisation", "[balance]")
{
	for (u32 k : {1u, 2u, 3u}) {
		struct Probe : Observer {
			u64 sum_util = 0, seen = ~0ULL, checked = 0, wrong = 0;
			void on_tick(const Simulation& s, u64, bool hrtick) override
			{
				if (hrtick || s.event_cpu() != 0)
					return;
				sum_util = 0;
				for (u32 c = 0; c < 4; c++)
					sum_util += cpu_util_cfs(s.rq(c).cfs.avg);
				seen = s.jiffies();
			}
			void on_event(const Simulation& s, u64) override
			{
				if (s.event_cpu() != 0 || seen != s.jiffies() ||
				    s.topology().sd(0)->last_balance != seen)
					return;
				checked++;
				wrong += s.topology().sd_llc_shared(0)->nr_idle_scan !=
					 lb::idle_cpu_scan(sum_util, 4, 117);
				seen = ~0ULL;
			}
		} probe;
		std::vector<TaskSpec> tasks;
		for (u32 c = 0; c < k; c++)
			tasks.push_back(pinned(hog("h" + std::to_string(c)), {c}));
		Workload wl = workload(tasks);
		wl.duration = 2000 * MS;
		Simulation sim(smp(1000, 4), wl);
		sim.add_observer(&probe);
		sim.run();
		INFO("k = " << k);
		CHECK(probe.checked >= 10);
		CHECK(probe.wrong == 0);
		const u32 expect = k == 1 ? 3 : (k == 2 ? 2 : 0);
		CHECK(sim.topology().sd_llc_shared(0)->nr_idle_scan == expect);
	}
}

// update_idle_cpu_scan()'s formula: the whole LLC at no load, nothing from
// x = 875 on (875^2 117^2 / 10^7... = 1023: (1024 - 1023) * 4 / 1024 = 0),
// and the truncations in between: x = 400: tmp = 213, (811 * 4) / 1024 = 3.
TEST_CASE("idle_cpu_scan: the SIS_UTIL curve", "[balance]")
{
	CHECK(lb::idle_cpu_scan(0, 4, 117) == 4);
	CHECK(lb::idle_cpu_scan(4 * 875, 4, 117) == 0);
	CHECK(lb::idle_cpu_scan(4 * 400, 4, 117) == 3);
	CHECK(lb::idle_cpu_scan(4 * 1024, 4, 117) == 0);
	CHECK(lb::idle_cpu_scan(2 * 100, 2, 117) == 1);  // tmp = 13: 1011 * 2 / 1024
	CHECK(lb::idle_cpu_scan(2 * 27, 2, 117) == 2);  // tmp = 0
}
