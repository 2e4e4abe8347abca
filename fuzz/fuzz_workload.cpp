// SPDX-License-Identifier: GPL-2.0-only
// fuzz_workload: structure-aware fuzzing of whole workloads. Each input is a
// genome (fuzz/genome.hpp) run under the invariant checker and, for equal
// hogs, the property suite's bounds; a violation writes a replayable rt-app
// file and aborts. $EEVDF_FUZZ_BUGS switches historical bugs in.
#include <cstring>

#include "fuzz/genome.hpp"

using namespace eevdf;
using namespace eevdf::fuzz;

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size) __attribute__((weak));

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	static const Bugs bugs = bugs_from_env();
	const Case c = build(Genome::decode(data, size), bugs);
	const std::string bad = check_case(c);
	if (!bad.empty())
		report("fuzz_workload", c, bad, data, size);
	return 0;
}

// Decode, apply 1-3 structural mutations, re-encode; now and then leave it
// to libFuzzer's byte-level mutations (decode() folds any bytes back into
// range).
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed)
{
	uint64_t rng = seed;
	if (LLVMFuzzerMutate && next_rand(rng) % 8 == 0)
		return LLVMFuzzerMutate(data, size, max_size);
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
