// SPDX-License-Identifier: GPL-2.0-only
#include "fuzz/genome.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "model/check.hpp"
#include "model/simulation.hpp"
#include "model/task_group.hpp"
#include "props/bounds.hpp"

namespace eevdf::fuzz {
namespace {

constexpr u64 US = NSEC_PER_USEC;
constexpr u64 MS = NSEC_PER_MSEC;
constexpr size_t HEADER = 28, GENE = 20;
// The group trailer follows the genes, shorter than a gene so that the
// gene count stays (size - HEADER) / GENE: 'G', the group count, a byte per
// group (bits 0-2 parent, 3-5 weight code, 6 idle) and a nibble per task
// (its group, 0 = root), two tasks a byte. At most 1 + 1 + 6 + 8 = 16.
constexpr uint8_t GROUP_MAGIC = 'G';
constexpr u64 GROUP_WEIGHTS[8] = {1, 10, 50, 100, 150, 200, 1000, 10000};

// A value already in [lo, hi] is kept; anything else is folded into it.
template <typename T>
T fold(u64 v, u64 lo, u64 hi)
{
	return static_cast<T>(v >= lo && v <= hi ? v : lo + v % (hi - lo + 1));
}
int8_t fold_nice(int v) { return static_cast<int8_t>(((v + 20) % 40 + 40) % 40 - 20); }

struct Reader {
	const uint8_t* p;
	size_t n, at = 0;
	u64 get(size_t bytes)
	{
		u64 v = 0;
		for (size_t i = 0; i < bytes; i++, at++)
			v |= static_cast<u64>(at < n ? p[at] : 0) << (8 * i);
		return v;
	}
};

void put(std::vector<uint8_t>& out, u64 v, size_t bytes)
{
	for (size_t i = 0; i < bytes; i++)
		out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void canonicalise(Genome& g)
{
	const u64 T = tick_nsec(g.hz);
	g.tick_phase_ns = static_cast<uint32_t>(g.tick_phase_ns % T);
	g.jitter_ns = static_cast<uint32_t>(g.jitter_ns % (T / 4 + 1));
}

}  // namespace

uint64_t next_rand(uint64_t& rng)
{
	// splitmix64
	u64 z = (rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

Genome Genome::decode(const uint8_t* data, size_t size)
{
	Reader r{data, size};
	Genome g;
	g.preset = fold<uint8_t>(r.get(1), 0, kernel_presets().size() - 1);
	g.hogs = r.get(1) & 1;
	g.nhogs = fold<uint8_t>(r.get(1), 1, MAX_TASKS);
	g.hog_nice = fold_nice(static_cast<int8_t>(r.get(1)));
	g.hz = fold<uint16_t>(r.get(2), 100, 1500);
	g.cpus = fold<uint8_t>(r.get(1), 1, 8);
	g.seed = static_cast<uint8_t>(r.get(1));
	g.feature_flips = static_cast<uint16_t>(r.get(2) & ((1u << FIRST_SMP_FEATURE) - 1));
	const u64 slice = r.get(4);
	g.slice_us = slice ? fold<uint32_t>(slice, 50, 100'000) : 0;
	g.duration_ms = fold<uint16_t>(r.get(2), 10, 2000);
	g.tick_phase_ns = static_cast<uint32_t>(r.get(4));
	g.jitter_ns = static_cast<uint32_t>(r.get(4));
	g.switch_cost_ns = fold<uint16_t>(r.get(2), 0, 50'000);
	const u64 cpus_byte = r.get(1);
	g.sim_cpus = static_cast<uint8_t>(cpus_byte % 8 + 1);  // 0, as in genomes before several CPUs: one
	g.smt_code = static_cast<uint8_t>((cpus_byte >> 3) & 3);
	g.cluster_code = static_cast<uint8_t>((cpus_byte >> 5) & 1);
	g.node_code = static_cast<uint8_t>((cpus_byte >> 6) & 3);
	g.smp_bits = static_cast<uint8_t>(r.get(1));
	canonicalise(g);
	const size_t n = size > HEADER ? std::min((size - HEADER) / GENE, MAX_TASKS) : 0;
	for (size_t i = 0; i < n; i++) {
		Gene e;
		e.kind = static_cast<Kind>(r.get(1) % static_cast<unsigned>(Kind::COUNT));
		e.nice = fold_nice(static_cast<int8_t>(r.get(1)));
		e.nice2 = fold_nice(static_cast<int8_t>(r.get(1)));
		e.cpus_mask = static_cast<uint8_t>(r.get(1));
		e.a_us = fold<uint32_t>(r.get(4), 10, 20'000);
		e.b_us = fold<uint32_t>(r.get(4), 10, 50'000);
		const u64 s = r.get(4);
		e.slice_us = s ? fold<uint32_t>(s, 1, 200'000) : 0;
		e.delay_us = fold<uint32_t>(r.get(4), 0, 50'000);
		g.tasks.push_back(e);
	}
	if (g.tasks.empty())
		g.tasks.push_back(Gene{});
	// The group trailer, only when marked: genomes from before groups that
	// had stray bytes after their genes decode as they did.
	if (size > HEADER && n == (size - HEADER) / GENE && r.at < size && data[r.at] == GROUP_MAGIC) {
		r.get(1);
		const size_t ng = static_cast<size_t>(r.get(1) % (MAX_GROUPS + 1));
		for (size_t i = 0; i < ng; i++) {
			const u64 b = r.get(1);
			g.groups.push_back(GroupGene{static_cast<uint8_t>((b & 7) % (i + 1)), static_cast<uint8_t>((b >> 3) & 7),
						     ((b >> 6) & 1) != 0});
		}
		for (size_t i = 0; i < g.tasks.size(); i += 2) {
			const u64 b = r.get(1);
			g.tasks[i].group = static_cast<uint8_t>((b & 15) % (ng + 1));
			if (i + 1 < g.tasks.size())
				g.tasks[i + 1].group = static_cast<uint8_t>((b >> 4) % (ng + 1));
		}
	}
	return g;
}

std::vector<uint8_t> Genome::encode() const
{
	std::vector<uint8_t> out;
	put(out, preset, 1);
	put(out, hogs, 1);
	put(out, nhogs, 1);
	put(out, static_cast<uint8_t>(hog_nice), 1);
	put(out, hz, 2);
	put(out, cpus, 1);
	put(out, seed, 1);
	put(out, feature_flips, 2);
	put(out, slice_us, 4);
	put(out, duration_ms, 2);
	put(out, tick_phase_ns, 4);
	put(out, jitter_ns, 4);
	put(out, switch_cost_ns, 2);
	put(out, (sim_cpus - 1u) | (smt_code & 3u) << 3 | (cluster_code & 1u) << 5 | (node_code & 3u) << 6, 1);
	put(out, smp_bits, 1);
	for (const Gene& e : tasks) {
		put(out, static_cast<uint8_t>(e.kind), 1);
		put(out, static_cast<uint8_t>(e.nice), 1);
		put(out, static_cast<uint8_t>(e.nice2), 1);
		put(out, e.cpus_mask, 1);
		put(out, e.a_us, 4);
		put(out, e.b_us, 4);
		put(out, e.slice_us, 4);
		put(out, e.delay_us, 4);
	}
	if (!groups.empty()) {
		put(out, GROUP_MAGIC, 1);
		put(out, groups.size(), 1);
		for (const GroupGene& gg : groups)
			put(out, (gg.parent & 7u) | (gg.weight_code & 7u) << 3 | (gg.idle ? 1u : 0u) << 6, 1);
		for (size_t i = 0; i < tasks.size(); i += 2)
			put(out, (tasks[i].group & 15u) | (i + 1 < tasks.size() ? tasks[i + 1].group & 15u : 0u) << 4, 1);
	}
	return out;
}

// ---------------------------------------------------------------- mutation

namespace {

u64 pick(uint64_t& rng, u64 n) { return next_rand(rng) % n; }

template <typename T, size_t N>
T one_of(uint64_t& rng, const T (&v)[N])
{
	return v[pick(rng, N)];
}

// Lengths in microseconds: interesting ones (around ticks and slices) or any.
u64 interesting_us(uint64_t& rng, u64 hi)
{
	static const u64 v[] = {1, 10, 100, 500, 700, 750, 999, 1000, 1001, 2800, 3000, 3999, 4000, 4001,
				9999, 10000, 10001, 20000};
	return pick(rng, 2) ? one_of(rng, v) : 1 + pick(rng, hi);
}

void mutate_gene(Gene& e, uint64_t& rng)
{
	switch (pick(rng, 8)) {
	case 7: e.cpus_mask = pick(rng, 2) ? 0 : static_cast<uint8_t>(next_rand(rng)); break;
	case 0: e.kind = static_cast<Kind>(pick(rng, static_cast<u64>(Kind::COUNT))); break;
	case 1: e.nice = static_cast<int8_t>(pick(rng, 3) ? static_cast<int>(pick(rng, 40)) - 20 : 0); break;
	case 2: e.nice2 = static_cast<int8_t>(static_cast<int>(pick(rng, 40)) - 20); break;
	case 3: e.a_us = static_cast<uint32_t>(std::clamp<u64>(interesting_us(rng, 20'000), 10, 20'000)); break;
	case 4: e.b_us = static_cast<uint32_t>(std::clamp<u64>(interesting_us(rng, 50'000), 10, 50'000)); break;
	case 5: e.slice_us = pick(rng, 3) ? 0 : static_cast<uint32_t>(std::max<u64>(interesting_us(rng, 200'000), 1)); break;
	default: e.delay_us = pick(rng, 2) ? 0 : static_cast<uint32_t>(pick(rng, 50'001)); break;
	}
}

Gene random_gene(uint64_t& rng)
{
	Gene e;
	e.kind = static_cast<Kind>(pick(rng, static_cast<u64>(Kind::COUNT)));
	for (int i = 0; i < 4; i++)
		mutate_gene(e, rng);
	return e;
}

// Add, remove (the last) or change a group, or move a task to another.
void mutate_groups(Genome& g, uint64_t& rng)
{
	const size_t n = g.groups.size();
	switch (pick(rng, 5)) {
	case 0:
		if (n < Genome::MAX_GROUPS)
			g.groups.push_back(GroupGene{static_cast<uint8_t>(pick(rng, n + 1)), static_cast<uint8_t>(pick(rng, 8)),
						     pick(rng, 8) == 0});
		break;
	case 1:  // no group names the last as its parent (parents come first)
		if (n) {
			g.groups.pop_back();
			for (Gene& e : g.tasks)
				if (e.group == n)
					e.group = 0;
		}
		break;
	case 2:
		if (n) {
			GroupGene& gg = g.groups[pick(rng, n)];
			gg.idle = !gg.idle;
		}
		break;
	case 3:
		if (n)
			g.groups[pick(rng, n)].weight_code = static_cast<uint8_t>(pick(rng, 8));
		break;
	default: g.tasks[pick(rng, g.tasks.size())].group = static_cast<uint8_t>(pick(rng, n + 1)); break;
	}
}

}  // namespace

void mutate(Genome& g, uint64_t& rng)
{
	static const uint16_t hzs[] = {100, 250, 300, 1000, 128, 1024, 1200};
	switch (pick(rng, 19)) {
	case 18: mutate_groups(g, rng); break;
	case 16: g.sim_cpus = static_cast<uint8_t>(pick(rng, 2) ? 1 : 2 + pick(rng, 7)); break;
	case 17: {
		const u64 r = next_rand(rng);
		g.smp_bits = static_cast<uint8_t>(r);
		g.smt_code = static_cast<uint8_t>((r >> 8) & 3);
		g.cluster_code = static_cast<uint8_t>((r >> 10) & 1);
		g.node_code = static_cast<uint8_t>((r >> 11) & 3);
		break;
	}
	case 0: g.preset = static_cast<uint8_t>(pick(rng, kernel_presets().size())); break;
	case 1: g.hz = pick(rng, 3) ? one_of(rng, hzs) : static_cast<uint16_t>(100 + pick(rng, 1401)); break;
	case 2: g.feature_flips ^= static_cast<uint16_t>(1u << pick(rng, u64{FIRST_SMP_FEATURE})); break;
	case 3: g.slice_us = pick(rng, 4) == 0 ? 0 : static_cast<uint32_t>(std::max<u64>(50, interesting_us(rng, 100'000))); break;
	case 4: g.cpus = static_cast<uint8_t>(1 + pick(rng, 8)); break;
	case 5: g.tick_phase_ns = pick(rng, 2) ? static_cast<uint32_t>(pick(rng, 3)) : static_cast<uint32_t>(next_rand(rng)); break;
	case 6: g.jitter_ns = pick(rng, 2) ? one_of(rng, {0u, 1u, 30'000u, 50'000u}) : static_cast<uint32_t>(next_rand(rng)); break;
	case 7: g.switch_cost_ns = pick(rng, 2) ? 0 : static_cast<uint16_t>(pick(rng, 50'001)); break;
	case 8: g.duration_ms = pick(rng, 2) ? 1000 : static_cast<uint16_t>(10 + pick(rng, 1991)); break;
	case 9: g.seed = static_cast<uint8_t>(next_rand(rng)); break;
	case 10: g.hogs = !g.hogs; break;
	case 11:
		if (g.hogs)
			g.nhogs = static_cast<uint8_t>(1 + pick(rng, Genome::MAX_TASKS));
		else if (g.tasks.size() < Genome::MAX_TASKS)  // add a task
			g.tasks.push_back(random_gene(rng));
		break;
	case 12:
		if (g.hogs)
			g.hog_nice = static_cast<int8_t>(pick(rng, 2) ? 0 : static_cast<int>(pick(rng, 40)) - 20);
		else if (g.tasks.size() > 1)  // remove a task
			g.tasks.erase(g.tasks.begin() + static_cast<long>(pick(rng, g.tasks.size())));
		break;
	case 13:  // copy a task
		if (g.tasks.size() < Genome::MAX_TASKS)
			g.tasks.push_back(g.tasks[pick(rng, g.tasks.size())]);
		break;
	default: mutate_gene(g.tasks[pick(rng, g.tasks.size())], rng); break;
	}
	canonicalise(g);
}

size_t custom_mutate(uint8_t* data, size_t size, size_t max_size, unsigned int seed, ByteMutator bytes)
{
	uint64_t rng = seed;
	if (bytes && next_rand(rng) % 8 == 0)
		return bytes(data, size, max_size);
	Genome g = Genome::decode(data, size);
	for (u64 k = 1 + next_rand(rng) % 3; k; k--)
		mutate(g, rng);
	std::vector<uint8_t> out = g.encode();
	while (out.size() > max_size && g.tasks.size() > 1) {
		g.tasks.pop_back();
		out = g.encode();
	}
	if (out.size() > max_size)
		return size;
	std::memcpy(data, out.data(), out.size());
	return out.size();
}

// ---------------------------------------------------------------- build

namespace {

Event ev(Event::Kind k, u64 ns = 0, int ref = -1, int value = 0) { return Event{k, ns, ref, value}; }

}  // namespace

Case build(const Genome& g, Bugs bugs)
{
	Case c;
	const u32 sim = g.hogs ? 1 : g.sim_cpus;
	c.cfg = make_config_one_of(kernel_presets()[g.preset], g.hz, std::max<u32>(g.cpus, sim), bugs);
	const Features defaults = c.cfg.features;
	if (sim > 1) {
		c.cfg.cpus = sim;
		std::vector<u32> llcs;
		for (u32 d = 1; d <= sim; d++)
			if (sim % d == 0)
				llcs.push_back(d);
		c.cfg.llc_size = (g.smp_bits & 3) == 0 ? 0 : llcs[(g.smp_bits & 3) % llcs.size()];
		if (c.cfg.llc_size == sim)
			c.cfg.llc_size = 0;
		c.cfg.skew_tick = (g.smp_bits >> 2) & 1;
		if (g.smt_code) {
			std::vector<u32> smts;
			for (u32 d = 1; d <= llc_size_of(c.cfg); d++)
				if (llc_size_of(c.cfg) % d == 0)
					smts.push_back(d);
			c.cfg.smt = smts[g.smt_code % smts.size()];
		}
		if (g.cluster_code) {
			for (u32 d = 2 * c.cfg.smt; d < llc_size_of(c.cfg); d += c.cfg.smt)
				if (llc_size_of(c.cfg) % d == 0) {
					c.cfg.cluster = d;
					break;
				}
		}
		if (g.node_code) {
			const u32 unit = c.cfg.llc_size ? c.cfg.llc_size : (c.cfg.cluster ? c.cfg.cluster : c.cfg.smt);
			std::vector<u32> nodes;
			for (u32 d = unit; d < sim; d += unit)
				if (sim % d == 0)
					nodes.push_back(d);
			if (!nodes.empty()) {
				static constexpr u32 distances[] = {12, 21, 31};
				c.cfg.node = nodes[(g.node_code - 1u) % nodes.size()];
				if (!c.cfg.llc_size)
					c.cfg.llc_size = c.cfg.node;
				c.cfg.numa_distance = distances[g.node_code - 1u];
			}
		}
		const Features have_smp = available_features(kernel_presets()[g.preset]);
		for (unsigned i = 0; i < 5; i++) {
			const Feature f = static_cast<Feature>(FIRST_SMP_FEATURE + i);
			if (((g.smp_bits >> (3 + i)) & 1) && have_smp[f])
				c.cfg.features.set(f, !c.cfg.features[f]);
		}
	}
	// Only the one-CPU features the preset's kernel has (16 flip bits).
	const Features have = available_features(kernel_presets()[g.preset]);
	for (unsigned f = 0; f < FIRST_SMP_FEATURE; f++)
		if ((g.feature_flips & (1u << f)) && have[static_cast<Feature>(f)])
			c.cfg.features.set(static_cast<Feature>(f), !c.cfg.features[static_cast<Feature>(f)]);
	if (g.hogs)
		c.cfg.features.set(Feature::HRTICK, false);  // the bounds' precondition
	c.default_features = c.cfg.features == defaults;
	c.default_slice = g.slice_us == 0;
	if (g.slice_us)
		c.cfg.base_slice_ns = g.slice_us * US;
	c.cfg.knobs.tick_phase = g.tick_phase_ns;
	c.cfg.knobs.tick_jitter = g.jitter_ns;
	c.cfg.knobs.switch_cost = g.switch_cost_ns;
	c.cfg.seed = g.seed;

	Workload& w = c.wl;
	w.duration = g.duration_ms * MS;
	if (g.hogs) {
		w = hogs_workload(g.nhogs, g.duration_ms * MS);
		for (TaskSpec& t : w.tasks)
			t.nice = g.hog_nice;
		return c;
	}
	// The cgroups: /g0, /g0/g2, ...
	std::vector<std::string> paths;
	for (size_t i = 0; i < g.groups.size(); i++) {
		const GroupGene& gg = g.groups[i];
		paths.push_back((gg.parent ? paths[gg.parent - 1u] : "") + "/g" + std::to_string(i));
		GroupSpec spec{paths.back(), scale_load(sched_weight_from_cgroup(GROUP_WEIGHTS[gg.weight_code & 7]))};
		spec.idle = gg.idle;
		w.groups.push_back(spec);
	}
	using K = Event::Kind;
	for (size_t i = 0; i < g.tasks.size(); i++) {
		const Gene& e = g.tasks[i];
		const std::string name = "t" + std::to_string(i);
		const u64 a = e.a_us * US, b = e.b_us * US;
		std::vector<TaskSpec> made;
		switch (e.kind) {
		case Kind::Hog: made.push_back(looping_task(name, {ev(K::Run, RUN_FOREVER)})); break;
		case Kind::Sleeper: made.push_back(looping_task(name, {ev(K::Run, a), ev(K::Sleep, b)})); break;
		case Kind::Periodic:
			made.push_back(looping_task(name, {ev(K::Run, a), ev(K::Timer, b, w.ref("timer" + name))}));
			break;
		case Kind::NiceChanger:
			made.push_back(looping_task(name, {ev(K::Run, a), ev(K::SetNice, 0, -1, e.nice2), ev(K::Run, a),
							ev(K::SetNice, 0, -1, e.nice), ev(K::Sleep, b)}));
			break;
		case Kind::Yielder:
			made.push_back(looping_task(name, {ev(K::Run, a), ev(K::Yield), ev(K::Run, a), ev(K::Sleep, b)}));
			break;
		case Kind::Waker: {
			const int ref = w.ref("wake" + name);
			made.push_back(looping_task(name, {ev(K::Run, a), ev(K::Resume, 0, ref), ev(K::Sleep, b)}));
			made.push_back(looping_task(name + "s", {ev(K::Suspend, 0, ref), ev(K::Run, std::max<u64>(a / 2 / US, 1) * US)}));
			break;
		}
		case Kind::SliceSetter: {
			const u64 s = (e.slice_us ? e.slice_us : 3000) * US;
			made.push_back(looping_task(name, {ev(K::SetSlice, s), ev(K::Run, a),
							ev(K::SetSlice, e.nice2 < 0 ? 0 : std::max<u64>(s / 2 / US, 1) * US),
							ev(K::Sleep, b)}));
			break;
		}
		case Kind::Locker: {
			const int m = w.ref("mutex:m"), cond = w.ref("cond" + name);
			made.push_back(looping_task(name, {ev(K::MutexLock, 0, m), ev(K::Run, a), ev(K::CondSignal, 0, cond),
							   ev(K::MutexUnlock, 0, m), ev(K::Sleep, b)}));
			made.push_back(looping_task(name + "w", {ev(K::MutexLock, 0, m), ev(K::CondWait, 0, cond, m),
								ev(K::MutexLock, 0, m), ev(K::MutexUnlock, 0, m),
								ev(K::Run, std::max<u64>(a / 2 / US, 1) * US)}));
			break;
		}
		default: made.push_back(looping_task(name, {ev(K::Runtime, a), ev(K::Sleep, b)})); break;
		}
		for (TaskSpec& t : made) {
			t.nice = e.nice;
			t.custom_slice = e.slice_us * US;
			t.delay = e.delay_us * US;
			if (e.group && e.group <= paths.size())
				t.taskgroup = paths[e.group - 1u];
			const u32 allowed = e.cpus_mask & ((1u << c.cfg.cpus) - 1);
			if (c.cfg.cpus > 1 && allowed)
				for (u32 cpu = 0; cpu < c.cfg.cpus; cpu++)
					if (allowed & (1u << cpu))
						t.cpus.push_back(cpu);
			w.tasks.push_back(std::move(t));
		}
	}
	return c;
}

// ---------------------------------------------------------------- checks

std::string check_case(const Case& c, u64 max_events)
{
	const Config& cfg = c.cfg;
	const Workload& wl = c.wl;
	// CPU hogs forked together with the base slice, at any nice levels
	const bool any_hogs = wl.tasks.size() >= 2 && std::all_of(wl.tasks.begin(), wl.tasks.end(), [&](const TaskSpec& t) {
		return t.phases.size() == 1 && t.phases[0].events.size() == 1 && t.phases[0].events[0].kind == Event::Kind::Run &&
		       t.phases[0].events[0].ns == RUN_FOREVER && t.delay == 0 && t.custom_slice == 0;
	}) && !cfg.features[Feature::HRTICK] && cfg.cpus == 1;  // the bounds are one CPU's
	const bool hogs = any_hogs && std::all_of(wl.tasks.begin(), wl.tasks.end(), [&](const TaskSpec& t) {
		return t.nice == wl.tasks[0].nice;
	});
	const bool nice0 = hogs && wl.tasks[0].nice == 0;

	props::SwitchLog log;
	props::LagWatch lag;
	props::ShareWatch share;
	std::optional<props::WeightedWatch> weighted;
	std::vector<Observer*> extra;
	if (hogs)
		extra = {&log, &lag, &share};
	if (any_hogs) {
		std::vector<int> nices;
		for (const TaskSpec& t : wl.tasks)
			nices.push_back(t.nice);
		extra.push_back(&weighted.emplace(cfg, nices));
	}
	const props::CheckedRun run = props::run_checked_within(cfg, wl, extra, max_events);
	const std::string& bad = run.violation;
	if (!bad.empty())
		return "invariant: " + bad;
	// the equal-hog checks below are more specific, so they report first
	const std::string weighted_bad = weighted && !weighted->bad.empty() ? "weighted bounds (property 8): " + weighted->bad : "";
	if (!hogs)
		return weighted_bad;

	const u64 T = cfg.tick_ns, J = cfg.knobs.tick_jitter;
	const auto runs = props::runs_until(log, run.end);
	const u64 longest = runs.empty() ? 0 : *std::max_element(runs.begin(), runs.end());
	// v6.6 keeps curr on a deadline tie, and exact ticks make ties: there
	// only 2c's bound holds (docs/findings.md F8), as in props/properties.cpp.
	const bool exact = nice0 && J == 0 && cfg.knobs.tick_phase == 0 &&
	                   cfg.preset->paths.tree == KernelPaths::Tree::DeadlineKeyed;
	const u64 bound = props::hog_run_bound(cfg, exact);
	// 6.6-6.16 at nice != 0 can exceed 2c's bound (docs/findings.md F12).
	const bool bounded = nice0 || cfg.preset->paths.protect == KernelPaths::Protect::Vprot;
	if (bounded && longest > bound)
		return "run length (property 2" + std::string(exact ? "" : "c") + "): a run of " + std::to_string(longest) +
		       " ns exceeds " + std::to_string(bound) + " ns";
	if (!nice0)
		return "";
	const s64 lb = props::hog_lag_bound(cfg);
	if (lag.max_lag >= lb || lag.min_lag <= -lb)
		return "lag (property 4): lag reached [" + std::to_string(lag.min_lag) + ", " + std::to_string(lag.max_lag) +
		       "] ns, outside +-" + std::to_string(lb);
	for (size_t i = 0; i < share.lo.size(); i++)
		if (share.worst_window(i) > props::hog_window_bound(cfg))
			return "fairness (property 5): task " + std::to_string(i) + " was off its share by " +
			       std::to_string(share.worst_window(i)) + " ns over a window, beyond " +
			       std::to_string(props::hog_window_bound(cfg));
	// 2ae891b82695's claim, as its commit message states it: at HZ=1000 the
	// default slice at >= 8 CPUs (2.80 ms from 6.15) lets hogs switch after 3
	// ticks, where the 3.00 ms slice often needed a 4th one because ticks
	// arrive a little early. Single runs can still take 4 ticks (F1's
	// re-pick), so the claim is on the mean: at most 3 ticks, with ticks up
	// to 50 us early on a grid the hogs start on, on the presets with the fix.
	// The claim is for the default features, and fails without two of them
	// (docs/findings.md F6, both found here): on 6.12-6.16 only PREEMPT_SHORT
	// ends a re-picked hog's run at the next tick; without
	// PLACE_DEADLINE_INITIAL hogs forked together start with equal
	// deadlines, and more runs are re-picked to 4 ticks than cut to 2
	// (6.18.17, 1 ns of jitter: 5 against 4). Unlike the maxima above, a mean
	// holds only over the whole run, which every hogs-shape case fits in
	// the event budget (fuzz/test_event_budget.cpp).
	if (!run.budget_spent && c.default_slice && c.default_features && cfg.preset->paths.normalized_base_slice == 700'000 &&
	    cfg.online_cpus >= 8 && cfg.hz == 1000 && J <= 50'000 && cfg.knobs.tick_phase == 0 && !runs.empty()) {
		u64 sum = 0;
		for (u64 r : runs)
			sum += r;
		if (sum > 3 * T * runs.size())
			return "default slice (2ae891b82695): with base_slice " + std::to_string(cfg.base_slice_ns) +
			       " ns at HZ=1000 the mean run is " + std::to_string(sum / runs.size()) + " ns, more than 3 ticks";
	}
	return weighted_bad;
}

// ---------------------------------------------------------------- seeds

std::vector<std::pair<std::string, Genome>> seed_genomes()
{
	std::vector<std::pair<std::string, Genome>> out;
	auto hogs = [](uint16_t hz, uint32_t slice_us, uint8_t n) {
		Genome g;
		g.preset = 3;  // 6.18
		g.hogs = true;
		g.nhogs = n;
		g.hz = hz;
		g.slice_us = slice_us;
		g.tasks.push_back(Gene{});
		return g;
	};
	// Seed 001: four hogs, base slice 3-32 ms, HZ=1000 and HZ=100.
	for (uint16_t hz : {1000, 100})
		for (uint32_t ms : {3, 6, 9, 12, 22, 32})
			out.emplace_back("seed001_hz" + std::to_string(hz) + "_slice" + std::to_string(ms) + "ms",
					 hogs(hz, ms * 1000, 4));
	// 2ae891b82695: two hogs at HZ=1000 with 3.00 ms and 2.80 ms slices, ticks 30 us early at most.
	for (uint32_t us : {3000, 2800}) {
		Genome g = hogs(1000, us, 2);
		g.jitter_ns = 30'000;
		out.emplace_back("extra_tick_" + std::to_string(us) + "us", g);
	}
	{  // the default slice at 8 CPUs (2.80 ms on 6.15+), HZ=1000, early ticks
		Genome g = hogs(1000, 0, 2);
		g.cpus = 8;
		g.jitter_ns = 30'000;
		out.emplace_back("extra_tick_default_8cpus", g);
	}
	// Seed 000 (powerpc HZ=100 -> 1000): stress-ng hogs plus a schbench-like
	// waker with a 2 ms custom slice, at HZ=100 and HZ=1000.
	for (uint16_t hz : {100, 1000}) {
		Genome g;
		g.preset = 3;
		g.hz = hz;
		g.tasks = {Gene{}, Gene{}, Gene{}, Gene{}};
		Gene sb{Kind::Periodic, 0, 0, 200, 5000, 2000, 0};
		g.tasks.push_back(sb);
		out.emplace_back("powerpc_hz" + std::to_string(hz) + "_custom_slice", g);
	}
	{  // hogs at three nice levels: the weighted lag and run bounds (property 8)
		Genome g;
		g.preset = 3;
		g.hz = 1000;
		g.slice_us = 3000;
		g.tasks = {Gene{Kind::Hog, -10}, Gene{Kind::Hog, 0}, Gene{Kind::Hog, 10}};
		out.emplace_back("weighted_hogs", g);
	}
	{  // NO_HZ_FULL: one hog alone most of the time, a periodic task now and then.
		Genome g;
		g.preset = 3;
		g.hz = 1000;
		g.feature_flips = 1u << static_cast<unsigned>(Feature::NO_HZ_FULL);
		g.tasks = {Gene{}, Gene{Kind::Periodic, 0, 0, 300, 20000, 0, 5000}};
		out.emplace_back("nohz_full_hog_and_periodic", g);
	}
	{  // a mix of every kind, the oldest and the newest preset
		for (uint8_t p : {uint8_t{0}, static_cast<uint8_t>(kernel_presets().size() - 1)}) {
			Genome g;
			g.preset = p;
			g.hz = 250;
			for (unsigned k = 0; k < static_cast<unsigned>(Kind::COUNT); k++)
				g.tasks.push_back(Gene{static_cast<Kind>(k), static_cast<int8_t>(k * 3 - 10), 5, 800 + 300 * k,
						       2000 + 700 * k, k % 3 ? 0u : 1500u, 100 * k});
			out.emplace_back("mix_all_kinds_" + std::string(kernel_presets()[p].name), g);
		}
	}
	{  // sleepers whose lag ratchets up to the clamp (docs/findings.md F3)
		Genome g;
		g.preset = 3;
		g.hz = 947;
		g.slice_us = 1056;
		g.tasks = {Gene{}, Gene{Kind::Periodic, 0, 0, 500, 3000, 0, 0}, Gene{Kind::Waker, 0, 0, 400, 2500, 0, 0}};
		out.emplace_back("lag_clamp_binds", g);
	}
	{  // three lockers on 2 CPUs contend for one mutex, each signalling its waiter inside the section
		Genome g;
		g.preset = static_cast<uint8_t>(kernel_presets().size() - 1);
		g.hz = 250;
		g.cpus = 2;
		g.sim_cpus = 2;
		g.tasks = {Gene{Kind::Locker, 0, 0, 1500, 2000, 0, 0}, Gene{Kind::Locker, 0, 0, 700, 1200, 0, 300},
			   Gene{Kind::Locker, 5, 0, 3000, 500, 0, 100}, Gene{}};
		out.emplace_back("mutex_contention", g);
	}
	{  // several CPUs: every kind, some pinned, on 4 CPUs in 2 LLCs and on 8 in one
		for (uint8_t n : {uint8_t{4}, uint8_t{8}}) {
			Genome g;
			g.preset = static_cast<uint8_t>(kernel_presets().size() - 1);
			g.hz = 250;
			g.cpus = n;
			g.sim_cpus = n;
			g.smp_bits = n == 4 ? 1 : 0;  // LLCs of 2 CPUs (divisors 1, 2, 4: index 1); one LLC
			for (unsigned k = 0; k < static_cast<unsigned>(Kind::COUNT); k++) {
				Gene e{static_cast<Kind>(k), static_cast<int8_t>(k * 3 - 10), 5, 800 + 300 * k, 2000 + 700 * k,
				       k % 3 ? 0u : 1500u, 100 * k};
				e.cpus_mask = k % 4 == 1 ? static_cast<uint8_t>(1u << (k % n)) : 0;
				g.tasks.push_back(e);
				g.tasks.push_back(e);
			}
			out.emplace_back("smp_mix_all_kinds_" + std::to_string(n) + "cpus", g);
		}
	}
	{  // 13 hogs on 2 CPUs: 7 against 6 is never evened out (proofs: lb_hogs_evened)
		Genome g;
		g.preset = static_cast<uint8_t>(kernel_presets().size() - 1);
		g.hz = 250;
		g.cpus = 2;
		g.sim_cpus = 2;
		g.tasks.assign(13, Gene{});
		out.emplace_back("smp_hogs_7_against_6", g);
	}
	{  // every kind in cgroups on 2 CPUs: /g0 (cpu.weight 100), /g0/g1 (1000),
	   // /g2 idle, /g0/g3 (10); task i in group i % 5 (0: the root)
		Genome g;
		g.preset = static_cast<uint8_t>(kernel_presets().size() - 1);
		g.hz = 250;
		g.cpus = 2;
		g.sim_cpus = 2;
		g.groups = {GroupGene{0, 3, false}, GroupGene{1, 6, false}, GroupGene{0, 0, true}, GroupGene{1, 1, false}};
		for (int k = 0; k < static_cast<int>(Kind::COUNT); k++) {
			Gene e;
			e.kind = static_cast<Kind>(k);
			e.a_us = 700 + 300 * static_cast<uint32_t>(k);
			e.b_us = 2000 + 1000 * static_cast<uint32_t>(k);
			e.group = static_cast<uint8_t>(k % 5);
			g.tasks.push_back(e);
		}
		out.emplace_back("smp_groups_all_kinds_2cpus", g);
	}
	return out;
}

}  // namespace eevdf::fuzz
