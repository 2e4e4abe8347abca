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

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed)
{
	return custom_mutate(data, size, max_size, seed, LLVMFuzzerMutate);
}
