// SPDX-License-Identifier: GPL-2.0-only
// eevdf_callgrind: a small driver for instruction counts per event.
//
//   valgrind --tool=callgrind --instr-atstart=no eevdf_callgrind hogs|mixed N EVENTS
//   valgrind ... eevdf_callgrind groups N EVENTS CPUS SHAPE
//
// Builds the benchmark workload (bench/workloads.hpp) with N tasks, warms it
// up like eevdf_bench does with instrumentation off, then turns callgrind's
// instrumentation on for run_until() over at least EVENTS events and prints
// the exact number of events measured. Ir / events = instructions per event.
// `groups` is eevdf_bench's GroupEvents: N mixed tasks on CPUS CPUs in the
// group tree bench::group_shapes()[SHAPE].
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/workloads.hpp"
#include "model/simulation.hpp"

int main(int argc, char** argv)
{
	using namespace eevdf;
	const std::string kind = argc > 1 ? argv[1] : "";
	const bool groups = kind == "groups";
	const int n = argc > 2 ? std::atoi(argv[2]) : 0;
	const u64 target = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 0;
	const int cpus = groups && argc == 6 ? std::atoi(argv[4]) : 1;
	const int shape = groups && argc == 6 ? std::atoi(argv[5]) : 0;
	const int shapes = static_cast<int>(bench::group_shapes().size());
	if (argc != (groups ? 6 : 4) || (kind != "hogs" && kind != "mixed" && !groups) || n < 1 || target == 0 ||
	    cpus < 1 || cpus > 64 || shape < 0 || shape >= shapes) {
		std::fprintf(stderr, "usage: %s hogs|mixed N EVENTS\n       %s groups N EVENTS CPUS(1-64) SHAPE(0-%d)\n",
			     argv[0], argv[0], shapes - 1);
		return 2;
	}
	const Config cfg = groups ? make_config(*find_preset(DEFAULT_PRESET), 1000, static_cast<u32>(cpus))
				  : bench::bench_config();
	Workload wl = kind == "hogs" ? hogs_workload(n, bench::FOREVER_NS)
		      : groups      ? bench::grouped_workload(n, bench::group_shapes()[static_cast<size_t>(shape)],
							  bench::forever_on(static_cast<u32>(cpus)))
				    : bench::mixed_workload(n, bench::FOREVER_NS);
	if (groups)  // as eevdf_bench's GroupEvents
		bench::spread_over(wl, static_cast<u32>(cpus));
	Simulation sim(cfg, wl);
	const u64 warm = kind == "hogs" ? 2 * NSEC_PER_SEC : 2 * NSEC_PER_SEC + static_cast<u64>(n) * 3 * NSEC_PER_MSEC;
	sim.run_until(warm);

	const u64 e0 = sim.events();
	CALLGRIND_ZERO_STATS;
	CALLGRIND_START_INSTRUMENTATION;
	while (sim.events() - e0 < target)
		sim.run_until(sim.now() + 100 * NSEC_PER_MSEC);
	CALLGRIND_STOP_INSTRUMENTATION;
	if (groups)
		std::printf("groups %d cpus %d shape %s events %llu\n", n, cpus,
			    bench::group_shapes()[static_cast<size_t>(shape)].name,
			    static_cast<unsigned long long>(sim.events() - e0));
	else
		std::printf("%s %d events %llu\n", kind.c_str(), n, static_cast<unsigned long long>(sim.events() - e0));
	return 0;
}
