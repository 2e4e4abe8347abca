// SPDX-License-Identifier: GPL-2.0-only
// eevdf_bench: how fast the model runs (issue 8). Google Benchmark; see
// docs/performance.md for the figures and bench/run.sh for the command that
// produces the table.
//
//   Events/{hogs,mixed}/n    simulated scheduling events per second
//                            (Simulation::events(): ticks, run completions,
//                            wakeups and hrticks, each with its scheduling
//                            point) at n tasks; items_per_second = events/s
//   Pick/{fast,brute}/{hogs,mixed}/n
//                            __pick_eevdf() (CfsRq::pick_eevdf_protect) and
//                            the O(n) oracle (pick_eevdf_bruteforce) on the
//                            same 8 queue states; items = picks
//   Seed001Sweep/{bare,metrics}
//                            the 12 configurations of `eevdf slice-table`
//                            (4 hogs x 30 s, HZ 1000 and 100, slices 3..32 ms),
//                            without observers and with the MetricsCollector
//                            and summary the CLI uses; sim_s = simulated
//                            seconds per wall second
//   SmpEvents/{hogs,mixed}/cpus/n
//                            events/s of the multi-CPU model (issue 13):
//                            n tasks over `cpus` CPUs in one LLC, unpinned,
//                            so wake-ups go through select_task_rq_fair and
//                            idle CPUs balance; the 6.18 preset at HZ=1000
//   SmtEvents/smt:{1,2}      SmpEvents' mixed/64/256 on 64 CPUs as 64 cores
//                            or 32 cores of 2 threads (issue 37)
//   GroupEvents/cpus/n/shape events/s of n mixed tasks over `cpus` CPUs in
//                            task groups (issue 36): shape indexes
//                            bench::group_shapes(), flat and trees of depth
//                            1-3 with ~n leaves or ~1,000 groups; counters
//                            depth and groups. The cost per event should
//                            grow with the depth, not the number of groups
//   Construct/{hogs,mixed}/n heap bytes per 1,000 tasks held by a built
//                            Simulation (and by its input Workload)
//   MillionTasks/json:{0,1}  issue 18's scale target, the way `eevdf sim
//                            --hogs 1000000 --hz 1000 --duration 1s [--json]`
//                            runs it: the workload built, simulated for 1 s
//                            with the MetricsCollector, and the table or JSON
//                            written (to a stream that counts its bytes);
//                            wall seconds, peak heap MiB, output MB
//
// Every timed loop also counts operator new calls (bench/alloc_counter.cpp):
// the "allocs" counter must be 0.
#include <benchmark/benchmark.h>

#include <array>
#include <memory>
#include <ostream>
#include <streambuf>
#include <vector>

#include "bench/alloc_counter.hpp"
#include "bench/workloads.hpp"
#include "io/model_options.hpp"
#include "model/metrics.hpp"
#include "model/pick_by_definition.hpp"
#include "model/simulation.hpp"
#include "report/report.hpp"

namespace {

using namespace eevdf;
namespace alloc = eevdf::bench::alloc;
using eevdf::bench::bench_config;
using eevdf::bench::FOREVER_NS;
using eevdf::bench::mixed_workload;

enum Kind : int { HOGS = 0, MIXED = 1 };

Workload make_workload(int kind, int n, u64 duration)
{
	return kind == HOGS ? hogs_workload(n, duration) : mixed_workload(n, duration);
}

// Simulated time to run before measuring: every task has forked and, for
// the mixed workload, has run and slept a few times (the whole queue
// cycles in about n x 1 ms x 1.25).
u64 warmup_ns(int kind, int n)
{
	if (kind == HOGS)
		return 2 * NSEC_PER_SEC;
	return 2 * NSEC_PER_SEC + static_cast<u64>(n) * 3 * NSEC_PER_MSEC;
}

// ---------------------------------------------------------------- events/s

void BM_Events(benchmark::State& state)
{
	const int kind = static_cast<int>(state.range(0));
	const int n = static_cast<int>(state.range(1));
	const Config cfg = bench_config();
	Simulation sim(cfg, make_workload(kind, n, FOREVER_NS));
	sim.run_until(warmup_ns(kind, n));

	// 100 ms of simulated time per iteration: ~100 events with hogs at
	// HZ=1000, ~250 with the mixed workload.
	constexpr u64 CHUNK = 100 * NSEC_PER_MSEC;
	const u64 events0 = sim.events(), ticks0 = sim.ticks();
	u64 queued_sum = 0, samples = 0;
	alloc::start();
	for (auto _ : state) {
		sim.run_until(sim.now() + CHUNK);
		queued_sum += sim.cfs_rq().nr_queued;
		samples++;
	}
	const alloc::Stats a = alloc::stop();
	const u64 events = sim.events() - events0;
	state.SetItemsProcessed(static_cast<int64_t>(events));
	state.counters["allocs"] = static_cast<double>(a.count);
	state.counters["queued"] = samples ? static_cast<double>(queued_sum) / static_cast<double>(samples) : 0.0;
	state.counters["tick_share"] =
		events ? static_cast<double>(sim.ticks() - ticks0) / static_cast<double>(events) : 0.0;
}

void events_args(benchmark::internal::Benchmark* b)
{
	b->ArgNames({"mixed", "n"});
	for (int kind : {HOGS, MIXED})
		for (int n : {2, 4, 64, 1000, 10000})
			b->Args({kind, n});
}
BENCHMARK(BM_Events)->Apply(events_args)->MinTime(0.2);

// ---------------------------------------------------------------- a profile's cost

// Every cost of a machine profile drawn (docs/profiles.md) against the
// exact model, on the mixed workload on 2 CPUs: the ratio of the two
// rows' events/s is what the draws, the range timers and the waker's
// system-call time cost per event.
Profile noisy_profile()
{
	Profile p;
	p.name = "bench-noisy";
	p.switch_cost = Dist::empirical({1000, 2000, 2500, 4000, 20000});
	p.tick_jitter = Dist::uniform(0, 20000);
	p.ipi_latency = Dist::normal(12000, 4000);
	p.idle_exit_latency = Dist::uniform(5000, 40000);
	p.wakeup_irq_cost = Dist::fixed(2000);
	p.balance_cost = Dist::fixed(2000);
	p.timer_slack = 50000;
	p.timer_delay = Dist::empirical({0, 3000, 8000, 60000});
	p.futex_wake_cost = Dist::normal(1700, 300);
	p.burst_scale = Dist::normal(PPM_ONE, 80000);
	p.run_scale = Dist::uniform(950000, 1050000);
	return p;
}

// The timed part of an events/s benchmark: `chunk` of simulated time per
// iteration, and none of it may allocate; the events are the items.
// Returns the events the iterations ran.
u64 run_chunks(benchmark::State& state, Simulation& sim, u64 chunk)
{
	const u64 events0 = sim.events();
	alloc::start();
	for (auto _ : state)
		sim.run_until(sim.now() + chunk);
	const alloc::Stats a = alloc::stop();
	const u64 events = sim.events() - events0;
	state.SetItemsProcessed(static_cast<int64_t>(events));
	state.counters["allocs"] = static_cast<double>(a.count);
	return events;
}

void BM_ProfileEvents(benchmark::State& state)
{
	Config cfg = make_config(*find_preset(DEFAULT_PRESET), 1000, 2);
	if (state.range(0))
		cfg.profile = noisy_profile();
	Workload wl = make_workload(MIXED, 8, FOREVER_NS);
	bench::spread_over(wl, 2);
	Simulation sim(cfg, wl);
	sim.run_until(warmup_ns(MIXED, 8));
	run_chunks(state, sim, 20 * NSEC_PER_MSEC);
}
BENCHMARK(BM_ProfileEvents)->ArgName("profile")->Arg(0)->Arg(1)->MinTime(0.3);

// ---------------------------------------------------------------- SMP events/s

void BM_SmpEvents(benchmark::State& state)
{
	const int kind = static_cast<int>(state.range(0));
	const u32 cpus = static_cast<u32>(state.range(1));
	const int n = static_cast<int>(state.range(2));
	const Config cfg = make_config(*find_preset(DEFAULT_PRESET), 1000, cpus);
	// The mixed workload offers ~1.25 CPUs of load whatever n is; scaled to
	// the machine, each task runs its burst and sleeps cpus times as long.
	Workload wl = make_workload(kind, n, bench::forever_on(cpus));
	if (kind == MIXED)
		bench::spread_over(wl, cpus);
	Simulation sim(cfg, wl);
	sim.run_until(warmup_ns(kind, n));

	const u64 ticks0 = sim.ticks();
	const u64 events = run_chunks(state, sim, 20 * NSEC_PER_MSEC);
	u64 migrations = 0;
	for (const Task& t : sim.tasks())
		migrations += t.nr_migrations;
	state.counters["tick_share"] =
		events ? static_cast<double>(sim.ticks() - ticks0) / static_cast<double>(events) : 0.0;
	state.counters["migrations"] = static_cast<double>(migrations);
}

void smp_events_args(benchmark::internal::Benchmark* b)
{
	b->ArgNames({"mixed", "cpus", "n"});
	for (int kind : {HOGS, MIXED}) {
		for (int cpus : {2, 8, 64})
			b->Args({kind, cpus, 4 * cpus});
		b->Args({kind, 64, 10000});
	}
}
BENCHMARK(BM_SmpEvents)->Apply(smp_events_args)->MinTime(0.2);

// ---------------------------------------------------------------- SMT

// SmpEvents' mixed workload on 64 CPUs in one LLC, as 64 cores (smt 1) or
// 32 cores of 2 threads (smt 2, issue 37): the idle-core hint, the core
// scan (unbounded by SIS_UTIL while the hint is set, as in the kernel) and
// the SMT balance rules. The ratio of the two is the cost of SMT.
// SmpEvents' mixed workload (256 tasks) on 64 CPUs of the shape `cfg` gives.
void run_mixed_64(benchmark::State& state, const Config& cfg)
{
	const int n = 256;
	Workload wl = make_workload(MIXED, n, bench::forever_on(cfg.cpus));
	bench::spread_over(wl, cfg.cpus);
	Simulation sim(cfg, wl);
	sim.run_until(warmup_ns(MIXED, n));
	run_chunks(state, sim, 20 * NSEC_PER_MSEC);
	u64 migrations = 0;
	for (const Task& t : sim.tasks())
		migrations += t.nr_migrations;
	state.counters["migrations"] = static_cast<double>(migrations);
}

void BM_SmtEvents(benchmark::State& state)
{
	Config cfg = make_config(*find_preset(DEFAULT_PRESET), 1000, 64);
	cfg.smt = static_cast<u32>(state.range(0));
	run_mixed_64(state, cfg);
}
BENCHMARK(BM_SmtEvents)->ArgName("smt")->Arg(1)->Arg(2)->MinTime(0.2);

// ---------------------------------------------------------------- NUMA

// The same mixed workload on x86-2s-smt2's 64 CPUs (32 cores of 2 threads,
// two LLCs of 32): one node (MC, PKG) or two nodes at distance 21 (MC,
// NUMA: per-CPU node groups, the NUMA fork and imbalance rules). The ratio
// is the cost of the NUMA level.
void BM_NumaEvents(benchmark::State& state)
{
	const u32 nodes = static_cast<u32>(state.range(0));
	Config cfg = make_config(*find_preset(DEFAULT_PRESET), 1000, 64);
	cfg.smt = 2;
	cfg.llc_size = 32;
	if (nodes > 1) {
		cfg.node = 64 / nodes;
		cfg.numa_distance = 21;
	}
	run_mixed_64(state, cfg);
}
BENCHMARK(BM_NumaEvents)->ArgName("nodes")->Arg(1)->Arg(2)->MinTime(0.2);

// ---------------------------------------------------------------- groups

void BM_GroupEvents(benchmark::State& state)
{
	const u32 cpus = static_cast<u32>(state.range(0));
	const int n = static_cast<int>(state.range(1));
	const bench::GroupShape& shape = bench::group_shapes().at(static_cast<size_t>(state.range(2)));
	const Config cfg = make_config(*find_preset(DEFAULT_PRESET), 1000, cpus);
	// As SmpEvents' mixed workload: ~1.25 CPUs of load whatever cpus is.
	Workload wl = bench::grouped_workload(n, shape, bench::forever_on(cpus));
	bench::spread_over(wl, cpus);
	Simulation sim(cfg, wl);
	sim.run_until(warmup_ns(MIXED, n));
	run_chunks(state, sim, 20 * NSEC_PER_MSEC);
	state.counters["depth"] = static_cast<double>(shape.fanout.size());
	state.counters["groups"] = static_cast<double>(bench::group_count(shape));
}

void group_events_args(benchmark::internal::Benchmark* b)
{
	b->ArgNames({"cpus", "n", "shape"});
	const int shapes = static_cast<int>(bench::group_shapes().size());
	for (int cpus : {8, 64})
		for (int shape = 0; shape < shapes; shape++)
			b->Args({cpus, 64, shape});
}
BENCHMARK(BM_GroupEvents)->Apply(group_events_args)->MinTime(0.2);

// ---------------------------------------------------------------- pick

constexpr int PICK_STATES = 8;

struct PickStates {
	std::vector<std::unique_ptr<Simulation>> sims;
	std::vector<const CfsRq*> rqs;
	bool agree = true;
};

// The same 8 queue states for the fast and the brute-force pick, built once
// per (kind, n): 8 simulations stopped at different times.
const PickStates& pick_states(int kind, int n)
{
	static std::array<std::array<std::unique_ptr<PickStates>, 5>, 2> cache;
	const std::array<int, 5> ns = {2, 4, 64, 1000, 10000};
	size_t slot = 0;
	while (ns[slot] != n)
		slot++;
	std::unique_ptr<PickStates>& ps = cache[static_cast<size_t>(kind)][slot];
	if (ps)
		return *ps;
	ps = std::make_unique<PickStates>();
	const Workload wl = make_workload(kind, n, FOREVER_NS);
	static const Config cfg = bench_config();
	for (int i = 0; i < PICK_STATES; i++) {
		auto sim = std::make_unique<Simulation>(cfg, wl);
		sim->run_until(warmup_ns(kind, n) + static_cast<u64>(i) * 13'700'000ULL);
		const CfsRq& rq = sim->cfs_rq();
		for (bool protect : {false, true})
			if (rq.pick_eevdf_protect(protect) != pick_eevdf_bruteforce(rq, protect))
				ps->agree = false;
		ps->rqs.push_back(&rq);
		ps->sims.push_back(std::move(sim));
	}
	return *ps;
}

// protect=false: the search itself, as check_preempt_wakeup_fair() runs it
// for a shorter-slice waker (with protect=true a freshly picked curr is
// usually returned at once, which measures nothing).
void BM_Pick(benchmark::State& state)
{
	const bool brute = state.range(0) != 0;
	const int kind = static_cast<int>(state.range(1));
	const int n = static_cast<int>(state.range(2));
	const PickStates& ps = pick_states(kind, n);
	if (!ps.agree) {
		state.SkipWithError("fast and brute-force picks disagree");
		return;
	}
	size_t i = 0;
	alloc::start();
	if (brute) {
		for (auto _ : state) {
			benchmark::DoNotOptimize(pick_eevdf_bruteforce(*ps.rqs[i], false));
			i = (i + 1) % PICK_STATES;
		}
	} else {
		for (auto _ : state) {
			benchmark::DoNotOptimize(ps.rqs[i]->pick_eevdf_protect(false));
			i = (i + 1) % PICK_STATES;
		}
	}
	const alloc::Stats a = alloc::stop();
	state.SetItemsProcessed(state.iterations());
	state.counters["allocs"] = static_cast<double>(a.count);
	u64 queued = 0;
	for (const CfsRq* rq : ps.rqs)
		queued += rq->nr_queued;
	state.counters["queued"] = static_cast<double>(queued) / PICK_STATES;
}

void pick_args(benchmark::internal::Benchmark* b)
{
	b->ArgNames({"brute", "mixed", "n"});
	for (int kind : {HOGS, MIXED})
		for (int n : {2, 4, 64, 1000, 10000})
			for (int brute : {0, 1})
				b->Args({brute, kind, n});
}
BENCHMARK(BM_Pick)->Apply(pick_args)->MinTime(0.1);

// ---------------------------------------------------------------- seed 001

struct SweepPoint {
	u32 hz;
	u64 slice_ms;
	u64 switches;  // the model column of README.md's table
};
constexpr std::array<SweepPoint, 12> SWEEP = {{
	{1000, 3, 10001}, {1000, 6, 5001}, {1000, 9, 3335}, {1000, 12, 2501}, {1000, 22, 1365}, {1000, 32, 939},
	{100, 3, 2999}, {100, 6, 2999}, {100, 9, 2999}, {100, 12, 1501}, {100, 22, 1001}, {100, 32, 751},
}};

// One configuration as `eevdf slice-table` runs it; returns total switches
// (with metrics) or events (bare).
u64 sweep_one(const SweepPoint& p, bool metrics)
{
	Config cfg = make_config(*find_preset(DEFAULT_PRESET), p.hz);
	cfg.base_slice_ns = p.slice_ms * NSEC_PER_MSEC;
	Simulation sim(cfg, hogs_workload(4, 30 * NSEC_PER_SEC));
	if (!metrics) {
		sim.run();
		return sim.events();
	}
	MetricsCollector m;
	sim.add_observer(&m);
	sim.run();
	m.finish(sim);
	const TaskMetrics total = cli::total_metrics(m);
	const Distribution d = summarize(total.runs);
	benchmark::DoNotOptimize(d);
	return total.switches;
}

void BM_Seed001Sweep(benchmark::State& state)
{
	const bool metrics = state.range(0) != 0;
	if (metrics) {  // the model's table must be the published one
		for (const SweepPoint& p : SWEEP)
			if (sweep_one(p, true) != p.switches) {
				state.SkipWithError("seed-001 switch counts differ from README.md");
				return;
			}
	}
	u64 events = 0;
	for (auto _ : state)
		for (const SweepPoint& p : SWEEP)
			benchmark::DoNotOptimize(events += sweep_one(p, metrics));
	state.counters["sim_s"] =
		benchmark::Counter(static_cast<double>(SWEEP.size()) * 30.0, benchmark::Counter::kIsIterationInvariantRate);
	if (!metrics)
		state.SetItemsProcessed(static_cast<int64_t>(events));
}
BENCHMARK(BM_Seed001Sweep)->ArgName("metrics")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);

// ---------------------------------------------------------------- memory

void BM_Construct(benchmark::State& state)
{
	const int kind = static_cast<int>(state.range(0));
	const int n = static_cast<int>(state.range(1));
	const Config cfg = bench_config();
	u64 wl_bytes = 0, sim_bytes = 0;
	{
		const u64 before = alloc::live_bytes();
		const Workload wl = make_workload(kind, n, FOREVER_NS);
		wl_bytes = alloc::live_bytes() - before;
		const u64 mid = alloc::live_bytes();
		Simulation sim(cfg, wl);
		sim.run_until(warmup_ns(kind, n));  // run: nothing more should be held
		sim_bytes = alloc::live_bytes() - mid + sizeof(Simulation);
	}
	for (auto _ : state) {
		const Workload wl = make_workload(kind, n, FOREVER_NS);
		Simulation sim(cfg, wl);
		benchmark::DoNotOptimize(sim.tasks().data());
	}
	state.SetItemsProcessed(state.iterations() * n);  // tasks built per second
	state.counters["sim_B_per_1k"] = static_cast<double>(sim_bytes) * 1000.0 / n;
	state.counters["workload_B_per_1k"] = static_cast<double>(wl_bytes) * 1000.0 / n;
	state.counters["task_sizeof"] = sizeof(Simulation::Task);
}

void construct_args(benchmark::internal::Benchmark* b)
{
	b->ArgNames({"mixed", "n"});
	for (int kind : {HOGS, MIXED})
		for (int n : {1000, 10000})
			b->Args({kind, n});
}
BENCHMARK(BM_Construct)->Apply(construct_args)->Unit(benchmark::kMicrosecond)->MinTime(0.1);

// An ostream that only counts what is written to it.
class CountingBuf : public std::streambuf {
public:
	u64 bytes = 0;

protected:
	std::streamsize xsputn(const char*, std::streamsize n) override
	{
		bytes += static_cast<u64>(n);
		return n;
	}
	int_type overflow(int_type c) override
	{
		if (c != traits_type::eof())
			bytes++;
		return c;
	}
};

void BM_MillionTasks(benchmark::State& state)
{
	const bool json = state.range(0) != 0;
	constexpr int N = 1000000;
	cli::ModelOptions mo;
	mo.hz = 1000;
	const Config cfg = cli::build_config(mo);
	u64 peak = 0, out_bytes = 0;
	for (auto _ : state) {
		alloc::reset_peak();
		const u64 base = alloc::live_bytes();
		{
			Simulation sim(cfg, hogs_workload(N, NSEC_PER_SEC));
			MetricsCollector metrics;
			sim.add_observer(&metrics);
			sim.run();
			metrics.finish(sim);
			CountingBuf buf;
			std::ostream os(&buf);
			const cli::Report r{sim, metrics};
			if (json)
				cli::write_json(r, os);
			else
				cli::write_table(r, os);
			out_bytes = buf.bytes;
		}
		peak = alloc::peak_bytes() - base;
	}
	state.counters["tasks"] = N;
	state.counters["peak_heap_MiB"] = static_cast<double>(peak) / (1024.0 * 1024.0);
	state.counters["output_MB"] = static_cast<double>(out_bytes) / 1e6;
}
BENCHMARK(BM_MillionTasks)->ArgName("json")->Arg(0)->Arg(1)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
