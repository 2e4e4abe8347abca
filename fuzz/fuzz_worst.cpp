// SPDX-License-Identifier: GPL-2.0-only
// fuzz_worst: worst-case search. For every kernel preset and feature-flag
// combination it keeps the worst lag, service error and wakeup latency any
// input reached, in units of R = (largest slice in use) + TICK_NSEC, and
// writes the workload that reached it to $EEVDF_WORST_DIR (default
// ./fuzz-worst)/PRESET_FLAGS/{lag,service,latency,starved,xcpu}.{json,txt}.
// On several CPUs two more: `starved`, the longest time a CPU stayed idle
// while another had two runnable tasks, one waiting and allowed on the
// idle CPU; `xcpu`, the spread of CPU time between nice-0 tasks that never
// slept, forked together (n hogs on m CPUs against n/m of a CPU each). libFuzzer is
// told of each new maximum through extra coverage counters (one per flag
// combination, metric and eighth of R), so inputs that push a maximum up are
// kept in the corpus. fuzz/worst.sh answers "how bad can lag get with
// DELAY_DEQUEUE off?".
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "fuzz/genome.hpp"
#include "io/rtapp.hpp"
#include "model/simulation.hpp"

using namespace eevdf;
using namespace eevdf::fuzz;

namespace {

constexpr unsigned NFLAGS = 1u << FIRST_SMP_FEATURE, METRICS = 5, BINS = 32;  // one-CPU flag sets
constexpr const char* metric_names[METRICS] = {"lag", "service", "latency", "starved", "xcpu"};
// libFuzzer treats every byte here as an extra coverage counter.
__attribute__((used, section("__libfuzzer_extra_counters"))) uint8_t counters[NFLAGS * METRICS * BINS];

struct WorstWatch : Observer {
	std::array<u64, METRICS> worst{};  // ns
	std::vector<s64> lo, hi;
	std::vector<char> queued;
	std::vector<u64> woke;
	std::vector<u64> starved_since;  // per CPU
	void init(const Simulation& sim)
	{
		const size_t n = sim.tasks().size();
		if (lo.size() != n)
			lo.assign(n, 0), hi.assign(n, 0), queued.assign(n, 0), woke.assign(n, ~0ULL);
		if (starved_since.size() != sim.nr_cpus())
			starved_since.assign(sim.nr_cpus(), NEVER);
	}
	// Another CPU has two runnable tasks and one of them waits, not delayed,
	// allowed on `d`.
	static bool starved(const Simulation& sim, u32 d)
	{
		if (!sim.rq(d).idle_cpu())
			return false;
		for (const Task& t : sim.tasks()) {
			if (t.cpu == d || !t.se.on_rq || t.se.sched_delayed || !t.cpus_ptr.test(d))
				continue;
			const Rq& rb = sim.rq(t.cpu);
			if (rb.cfs.curr != &t.se && rb.h_nr_runnable() >= 2)
				return true;
		}
		return false;
	}
	void watch_idle(const Simulation& sim, u64 t)
	{
		for (u32 d = 0; d < sim.nr_cpus(); d++) {
			const bool s = starved(sim, d);
			if (s && starved_since[d] == NEVER)
				starved_since[d] = t;
			else if (!s && starved_since[d] != NEVER) {
				worst[3] = std::max(worst[3], t - starved_since[d]);
				starved_since[d] = NEVER;
			}
		}
	}
	// At the end: the spread of CPU time among nice-0 tasks forked at 0
	// that never blocked.
	void finish(const Simulation& sim)
	{
		if (sim.nr_cpus() < 2)
			return;
		init(sim);  // a run may end before its first event
		watch_idle(sim, sim.now());
		for (u32 d = 0; d < sim.nr_cpus(); d++)
			if (starved_since[d] != NEVER)
				worst[3] = std::max(worst[3], sim.now() - starved_since[d]);
		u64 lo_cpu = NEVER, hi_cpu = 0;
		int n = 0;
		for (size_t i = 0; i < sim.tasks().size(); i++) {
			const Task& t = sim.tasks()[i];
			const TaskSpec& spec = sim.workload().tasks[i];
			if (spec.delay || spec.nice || t.wakeups || t.state == TaskState::Exited)
				continue;
			lo_cpu = std::min(lo_cpu, t.se.sum_exec_runtime);
			hi_cpu = std::max(hi_cpu, t.se.sum_exec_runtime);
			n++;
		}
		if (n >= 2)
			worst[4] = hi_cpu - lo_cpu;
	}
	void on_event(const Simulation& sim, u64 t) override
	{
		init(sim);
		if (sim.nr_cpus() > 1)
			watch_idle(sim, t);
		const size_t n = sim.tasks().size();
		for (size_t i = 0; i < n; i++) {
			const bool q = sim.tasks()[i].se.on_rq;
			if (q) {
				const s64 l = sim.lag_ns(static_cast<int>(i));
				lo[i] = queued[i] ? std::min(lo[i], l) : l;
				hi[i] = queued[i] ? std::max(hi[i], l) : l;
				worst[0] = std::max<u64>(worst[0], static_cast<u64>(l < 0 ? -l : l));
				worst[1] = std::max<u64>(worst[1], static_cast<u64>(hi[i] - lo[i]));
			}
			queued[i] = q;
		}
	}
	void on_wakeup(const Simulation& sim, u64 t, int task, int, bool) override
	{
		init(sim);
		woke[static_cast<size_t>(task)] = t;
	}
	void on_switch(const Simulation& sim, u64, int, int next, bool, u64 run_start) override
	{
		init(sim);
		if (next < 0 || woke[static_cast<size_t>(next)] == ~0ULL)
			return;
		worst[2] = std::max(worst[2], run_start - woke[static_cast<size_t>(next)]);
		woke[static_cast<size_t>(next)] = ~0ULL;
	}
};

// The largest slice any task can have: base, custom and set at run time.
u64 largest_slice(const Case& c)
{
	auto clamp = [](u64 s) { return std::clamp<u64>(s, NSEC_PER_MSEC / 10, 100 * NSEC_PER_MSEC); };
	u64 r = c.cfg.base_slice_ns;
	for (const TaskSpec& t : c.wl.tasks) {
		if (t.custom_slice && c.cfg.preset->paths.custom_slices)
			r = std::max(r, clamp(t.custom_slice));
		for (const Phase& p : t.phases)
			for (const Event& e : p.events)
				if (e.kind == Event::Kind::SetSlice && e.ns && c.cfg.preset->paths.custom_slices)
					r = std::max(r, clamp(e.ns));
	}
	return r;
}

unsigned flag_bits(const Features& f)
{
	unsigned b = 0;
	for (unsigned i = 0; i < FIRST_SMP_FEATURE; i++)
		b |= f[static_cast<Feature>(i)] ? 1u << i : 0;
	return b;
}

// The best value on record: this process's, or what an earlier run wrote.
u64 recorded(const std::filesystem::path& txt)
{
	std::ifstream in(txt);
	std::string key;
	u64 v = 0;
	in >> key >> v;
	return key == "permille" ? v : 0;
}

void record(const Case& c, unsigned metric, u64 ns, u64 permille, u64 R)
{
	static std::map<std::pair<std::string, unsigned>, std::array<u64, METRICS>> best;
	const char* env = std::getenv("EEVDF_WORST_DIR");
	char combo[64];
	std::snprintf(combo, sizeof combo, "%s_%03x", std::string(c.cfg.preset->name).c_str(), flag_bits(c.cfg.features));
	const std::filesystem::path dir = std::filesystem::path(env && *env ? env : "fuzz-worst") / combo;
	auto [it, fresh] = best.try_emplace({combo, 0});
	if (fresh)
		for (unsigned m = 0; m < METRICS; m++)
			it->second[m] = recorded(dir / (std::string(metric_names[m]) + ".txt"));
	if (permille <= it->second[metric])
		return;
	it->second[metric] = permille;
	std::string json;
	try {
		json = to_rtapp_json(c.wl);
	} catch (const std::exception&) {
		return;
	}
	std::error_code ec;
	std::filesystem::create_directories(dir, ec);
	const std::string base = (dir / metric_names[metric]).string();
	std::ofstream(base + ".json.tmp") << json;
	std::ofstream(base + ".txt.tmp") << "permille " << permille << "\nvalue_ns " << ns << "\nR_ns " << R
					 << "\nkernel " << c.cfg.preset->name << "\nfeatures "
					 << features_string(c.cfg.features) << "\nreplay: eevdf sim " << base << ".json "
					 << command_line_flags(c.cfg) << "\n";
	std::filesystem::rename(base + ".json.tmp", base + ".json", ec);
	std::filesystem::rename(base + ".txt.tmp", base + ".txt", ec);
}

}  // namespace

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size) __attribute__((weak));

constexpr u64 WORST_MAX_EVENTS = 300000;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	static const Bugs bugs = bugs_from_env();
	const Case c = build(Genome::decode(data, size), bugs);
	WorstWatch w;
	{
		Simulation sim(c.cfg, c.wl);
		sim.add_observer(&w);
		// At most WORST_MAX_EVENTS events per input: this watch looks at
		// every task after every event, about 10 us an event under ASan and
		// UBSan, so 8 CPUs of 13 us run/sleep/renice loops (1.2 million
		// events) took 12 s, beyond libFuzzer's 10 s timeout. The worst values
		// of the prefix are recorded; the full run, replayed, can only be
		// worse (docs/fuzzing.md).
		sim.run_until(sim.end_time(), WORST_MAX_EVENTS);
		w.finish(sim);
	}
	const u64 R = largest_slice(c) + c.cfg.tick_ns;
	const unsigned flags = flag_bits(c.cfg.features);
	for (unsigned m = 0; m < METRICS; m++) {
		const u64 permille = static_cast<u64>(static_cast<unsigned __int128>(w.worst[m]) * 1000 / R);
		const u64 bin = std::min<u64>(BINS - 1, permille / (m >= 2 ? 500 : 125));
		counters[(flags * METRICS + m) * BINS + bin] = 1;
		record(c, m, w.worst[m], permille, R);
	}
	return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed)
{
	return custom_mutate(data, size, max_size, seed, LLVMFuzzerMutate);
}
