// SPDX-License-Identifier: GPL-2.0-only
// eevdf_callgrind: a small driver for instruction counts per event.
//
//   valgrind --tool=callgrind --instr-atstart=no eevdf_callgrind hogs|mixed N EVENTS
//
// Builds the benchmark workload (bench/workloads.hpp) with N tasks, warms it
// up like eevdf_bench does with instrumentation off, then turns callgrind's
// instrumentation on for run_until() over at least EVENTS events and prints
// the exact number of events measured. Ir / events = instructions per event.
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/workloads.hpp"
#include "model/simulation.hpp"

int main(int argc, char** argv)
{
	using namespace eevdf;
	if (argc != 4) {
		std::fprintf(stderr, "usage: %s hogs|mixed N EVENTS\n", argv[0]);
		return 2;
	}
	const std::string kind = argv[1];
	const int n = std::atoi(argv[2]);
	const u64 target = std::strtoull(argv[3], nullptr, 10);
	if ((kind != "hogs" && kind != "mixed") || n < 1 || target == 0) {
		std::fprintf(stderr, "usage: %s hogs|mixed N EVENTS\n", argv[0]);
		return 2;
	}
	const Config cfg = bench::bench_config();
	const Workload wl = kind == "hogs" ? hogs_workload(n, bench::FOREVER_NS) : bench::mixed_workload(n, bench::FOREVER_NS);
	Simulation sim(cfg, wl);
	const u64 warm = kind == "hogs" ? 2 * NSEC_PER_SEC : 2 * NSEC_PER_SEC + static_cast<u64>(n) * 3 * NSEC_PER_MSEC;
	sim.run_until(warm);

	const u64 e0 = sim.events();
	CALLGRIND_ZERO_STATS;
	CALLGRIND_START_INSTRUMENTATION;
	while (sim.events() - e0 < target)
		sim.run_until(sim.now() + 100 * NSEC_PER_MSEC);
	CALLGRIND_STOP_INSTRUMENTATION;
	std::printf("%s %d events %llu\n", kind.c_str(), n, static_cast<unsigned long long>(sim.events() - e0));
	return 0;
}
