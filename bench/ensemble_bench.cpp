// SPDX-License-Identifier: GPL-2.0-only
// `--seeds N` (cli/ensemble.cpp, cli/sweep.cpp) on one thread against all
// the machine's cores: the ensemble's seeds are independent runs, so on 2
// cores the wall time should halve. The workload is
// tests/data/rtapp/landscape_example.json (2 hogs, a periodic timer task,
// a short-slice sleeper; 2 s) on 2 CPUs under the shipped profile
// vm-6.18.44-hz250, 100 seeds, as `eevdf sim --seeds 100 --jobs J` runs it.
// seeds/s is the figure; the jobs=0 row over the jobs=1 row is the speed-up
// (docs/performance.md, "Ensembles").
#include <benchmark/benchmark.h>

#include <string>

#include "cli/sim.hpp"
#include "cli/sweep.hpp"
#include "io/model_options.hpp"

namespace {

using namespace eevdf;

void BM_Ensemble100(benchmark::State& state)
{
	cli::ModelOptions mo;
	mo.kernel = "6.18.39";
	mo.hz = 250;
	mo.cpus = 2;
	mo.profile = "vm-6.18.44-hz250";
	mo.seed = 1;
	cli::SimOptions so;
	so.workload = EEVDF_BENCH_DATA "/rtapp/landscape_example.json";
	const unsigned jobs = static_cast<unsigned>(state.range(0));  // 0 = every core
	unsigned used = 0;
	for (auto _ : state) {
		const cli::Sweep sw = cli::run_sweep(mo, so, {"seed=1..100:1"}, jobs);
		used = sw.jobs;
		benchmark::DoNotOptimize(sw.rows.data());
	}
	state.counters["seeds/s"] = benchmark::Counter(100.0, benchmark::Counter::kIsIterationInvariantRate);
	state.counters["threads"] = used;
}
BENCHMARK(BM_Ensemble100)->ArgName("jobs")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
