// SPDX-License-Identifier: GPL-2.0-only
// The fuzzers' input: a compact binary "genome" of a configuration and a
// workload, decoded from any bytes (every field is folded into its valid
// range, so libFuzzer's byte-level mutations stay meaningful too), mutated
// structurally by mutate() and turned into a Config and an rt-app-expressible
// Workload by build(). The layout is in docs/fuzzing.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/config.hpp"
#include "model/workload.hpp"

namespace eevdf::fuzz {

// Task shapes, as the property suite's gen_workload() makes them.
enum class Kind : uint8_t {
	Hog,         // run -1
	Sleeper,     // run a; sleep b
	Periodic,    // run a; timer period b (rt-app timer, absolute period)
	NiceChanger, // run a; nice n2; run a; nice n; sleep b
	Yielder,     // run a; yield; run a; sleep b
	Waker,       // run a; resume r; sleep b  + a partner: suspend r; run a/2
	SliceSetter, // dl-runtime s; run a; dl-runtime 0 or s2; sleep b
	Busy,        // runtime a (wall time); sleep b
	Locker,      // lock m; run a; signal c; unlock m; sleep b  + a partner: lock m; wait c m; unlock m;
	             // run a/2 (one mutex m for every Locker, so they contend; c per gene)
	COUNT
};

struct Gene {
	Kind kind = Kind::Hog;
	int8_t nice = 0;      // -20..19
	int8_t nice2 = 0;     // -20..19, the mid-run nice of NiceChanger
	uint32_t a_us = 1000; // run length, 10..20000 us
	uint32_t b_us = 1000; // sleep or period, 10..50000 us
	uint32_t slice_us = 0;// custom slice (dl-runtime), 0 = none, else 1..200000 us (the model clamps)
	uint32_t delay_us = 0;// creation time, 0..50000 us
	uint8_t cpus_mask = 0;// several CPUs: bit c allows CPU c (rt-app "cpus"); 0 or no simulated CPU: all
	uint8_t group = 0;    // 0: the root; k: Genome::groups[k - 1] (encoded in the group trailer)
};

// A cpu cgroup (issue 36): a child of the root or of an earlier group, of a
// cpu.weight among eight, or idle (cpu.idle 1).
struct GroupGene {
	uint8_t parent = 0;       // 0: the root; k: Genome::groups[k - 1], k <= this group's index
	uint8_t weight_code = 3;  // index into {1, 10, 50, 100, 150, 200, 1000, 10000} (cpu.weight)
	bool idle = false;
};

struct Genome {
	static constexpr size_t MAX_TASKS = 16;
	uint8_t preset = 3;         // index into kernel_presets()
	bool hogs = false;          // equal-nice hogs forked at 0: the bound checks apply
	uint8_t nhogs = 4;          // 1..16 (hogs shape)
	int8_t hog_nice = 0;        // -20..19 (hogs shape)
	uint16_t hz = 1000;         // 100..1500
	uint8_t cpus = 1;           // 1..8 (scales the default slice)
	uint16_t feature_flips = 0; // bit f: flip feature f from the preset default
	uint32_t slice_us = 0;      // base slice; 0 = the preset's default for `cpus`
	uint16_t duration_ms = 1000;// 10..2000
	uint32_t tick_phase_ns = 0; // folded into [0, TICK_NSEC)
	uint32_t jitter_ns = 0;     // folded into [0, TICK_NSEC / 4]
	uint16_t switch_cost_ns = 0;// folded into [0, 50000]
	uint8_t seed = 0;
	// Several CPUs, mixed shape only (hogs genomes stay on one CPU, where
	// the bound checks hold): CPUs simulated, 1..8 (at most `cpus` online
	// is not required: online becomes max(cpus, sim_cpus)); smp_bits: bits
	// 0-1 pick the LLC size among the divisors of sim_cpus (0: one LLC),
	// bit 2 skew_tick, bits 3-7 flip TTWU_QUEUE, SIS_UTIL, WA_IDLE,
	// WA_WEIGHT and WA_BIAS. smt_code (bits 3-4 of sim_cpus's byte, 0 in
	// genomes from before SMT): 0 no SMT, else the SMT width among the LLC
	// size's divisors (issue 37). cluster_code (bit 5): clusters of the
	// smallest whole-core size strictly between core and LLC, if any.
	// node_code (bits 6-7): 0 one node, else NUMA nodes of whole LLCs (the
	// (code-1)th size that divides sim_cpus; an LLC-less machine's nodes
	// become its LLCs) at distance 12, 21 or 31 (beyond reclaim).
	uint8_t sim_cpus = 1;
	uint8_t smp_bits = 0;
	uint8_t smt_code = 0;
	uint8_t cluster_code = 0;
	uint8_t node_code = 0;
	std::vector<Gene> tasks;    // mixed shape: 1..MAX_TASKS genes
	// Mixed shape, on presets that model groups (6.18+): 0..MAX_GROUPS
	// cgroups, in the trailer after the genes (docs/fuzzing.md); elsewhere
	// they are decoded but the workload stays flat.
	static constexpr size_t MAX_GROUPS = 6;
	std::vector<GroupGene> groups;

	static Genome decode(const uint8_t* data, size_t size);
	std::vector<uint8_t> encode() const;
};

// A random structural change (add, remove or copy a task; change one field
// to an interesting or random value; change HZ, preset, flags, knobs).
void mutate(Genome& g, uint64_t& rng);

// The workload targets' LLVMFuzzerCustomMutator: decode, apply 1-3
// structural mutations, re-encode within max_size; one call in 8 is left to
// `bytes` (libFuzzer's LLVMFuzzerMutate, when linked; decode() folds any
// bytes back into range).
using ByteMutator = size_t (*)(uint8_t* data, size_t size, size_t max_size);
size_t custom_mutate(uint8_t* data, size_t size, size_t max_size, unsigned int seed, ByteMutator bytes);
uint64_t next_rand(uint64_t& rng);

struct Case {
	Config cfg;
	Workload wl;
	bool default_slice = false;  // base slice left at the preset's default
	bool default_features = false;  // the preset's features, none flipped
};
Case build(const Genome& g, Bugs bugs = {});

// fuzz_workload's budget: a case runs for its duration or until its
// EVENT_BUDGET-th event, whichever comes first. 0.6 % of a campaign's
// inputs are denser than that (16 tasks sleeping 10 us on 8 CPUs: up to
// 450,000 events in 2 s) and took about 30 % of its time; their first
// 10,000 events are checked like any others (docs/performance.md). A
// hogs-shape case has at most a tick per event, 3,000 at HZ=1500 over 2 s,
// so the bound checks always see the whole run.
inline constexpr u64 EVENT_BUDGET = 10'000;

// The checks of fuzz_workload on one case: the invariant checker on every
// event, and, for the hogs shape, the property suite's run-length, lag and
// windowed-fairness bounds and 2ae891b82695's default-slice claim, each
// where its preconditions hold. Returns "" or what was violated. Every
// violation within the budget is one of the whole run too: the run is the
// same up to where the budget stops it, the invariants and bounds are on
// each event or a maximum over the run, and the one mean (2ae891b82695's
// claim) is checked only on a run the budget did not stop.
std::string check_case(const Case& c, u64 max_events = EVENT_BUDGET);

// The differential checks of fuzz_differential. diff_cfs_ops: the bytes
// drive a cfs_rq directly (props::apply_cfs_op); after every operation the
// tree pick equals the brute-force pick for both protect values and the
// incremental V equals the exact one. diff_presets: on the workloads where
// kernel presets must agree (docs/fuzzing.md), all five give the same
// schedule. Each returns "" or what differed.
std::string diff_cfs_ops(const uint8_t* data, size_t size, Bugs bugs = {});
std::string diff_presets(const Genome& g, Bugs bugs = {});
// diff_pinned: a genome on several CPUs with every task pinned to CPU 0
// against the same on one CPU (property 11 of props/properties.hpp): the
// same switches at the same instants. "" for one-CPU genomes.
std::string diff_pinned(const Genome& g, Bugs bugs = {});
// The genome diff_presets actually runs (the agreement class imposed on g).
Genome agreement_class(Genome g);
// diff_oracle: the decoded genome run with the decision oracle
// (oracle/decision_oracle.hpp) attached beside the invariant checker; ""
// or the first disagreement of each class.
std::string diff_oracle(const Genome& g, Bugs bugs = {});

// Bugs named in $EEVDF_FUZZ_BUGS (comma-separated, as `eevdf bugs` lists them).
Bugs bugs_from_env();
// Writes NAME.json and NAME.txt (why, and the replay command) under
// $EEVDF_FUZZ_OUT (default ./fuzz-counterexamples), prints them and aborts.
[[noreturn]] void report(const char* target, const Case& c, const std::string& why, const uint8_t* data, size_t size);

// The seeds' scenarios and a few mixed workloads, for the checked-in corpora.
std::vector<std::pair<std::string, Genome>> seed_genomes();

}  // namespace eevdf::fuzz
