// SPDX-License-Identifier: GPL-2.0-only
// fuzz_differential: the tree pick against the brute-force pick and the
// incremental V against the exact one over cfs_rq operation sequences
// (first byte even), the kernel presets against each other on workloads
// where their code paths agree (first byte 1 mod 4; docs/fuzzing.md; for
// a genome on several CPUs also the tasks pinned to CPU 0 against one CPU), and
// the model against the decision oracle, the per-event rules written a
// second time from the kernel sources (first byte 3 mod 4).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "fuzz/genome.hpp"

using namespace eevdf;
using namespace eevdf::fuzz;

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size) __attribute__((weak));

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	static const Bugs bugs = bugs_from_env();
	if (size == 0)
		return 0;
	if (data[0] % 2 == 0) {
		const std::string bad = diff_cfs_ops(data + 1, size - 1, bugs);
		if (!bad.empty()) {
			std::fprintf(stderr, "\n==== fuzz_differential (cfs_rq operations): %s\nreplay: fuzz_differential FILE\n",
				     bad.c_str());
			std::abort();
		}
		return 0;
	}
	const Genome g = Genome::decode(data + 1, size - 1);
	if (data[0] % 4 == 3) {
		const std::string bad = diff_oracle(g, bugs);
		if (!bad.empty())
			report("fuzz_differential", build(g, bugs), "decision oracle: " + bad, data, size);
		return 0;
	}
	const std::string bad = diff_presets(g, bugs);
	if (!bad.empty())
		report("fuzz_differential", build(agreement_class(g), bugs), bad, data, size);
	const std::string pinned = diff_pinned(g, bugs);
	if (!pinned.empty())
		report("fuzz_differential", build(g, bugs), pinned, data, size);
	return 0;
}

// Preset and oracle inputs are mutated as genomes (one in 16 also moves to
// the other genome class); operation sequences byte-wise.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed)
{
	uint64_t rng = seed;
	if (size == 0 || data[0] % 2 == 0 || next_rand(rng) % 8 == 0)
		return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
	Genome g = Genome::decode(data + 1, size - 1);
	for (u64 k = 1 + next_rand(rng) % 3; k; k--)
		mutate(g, rng);
	if (next_rand(rng) % 16 == 0)
		data[0] ^= 2;
	std::vector<uint8_t> out = g.encode();
	if (out.size() + 1 > max_size)
		return size;
	std::memcpy(data + 1, out.data(), out.size());
	return out.size() + 1;
}
