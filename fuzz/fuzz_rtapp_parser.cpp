// SPDX-License-Identifier: GPL-2.0-only
// fuzz_rtapp_parser: any bytes as an rt-app file give a Workload or an
// InputError, nothing else; a Workload that to_rtapp_json() can write
// reads back equal.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "io/rtapp.hpp"

using namespace eevdf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	const std::string_view text(reinterpret_cast<const char*>(data), size);
	Workload w;
	try {
		w = parse_rtapp(text, "fuzz.json");
	} catch (const InputError&) {
		return 0;
	}
	std::string json;
	try {
		json = to_rtapp_json(w);
	} catch (const std::invalid_argument&) {
		return 0;  // parsed, but not in the shape the writer can express
	}
	try {
		if (parse_rtapp(json, "roundtrip.json") == w)
			return 0;
		std::fprintf(stderr, "\n==== fuzz_rtapp_parser: the round trip changed the workload\n--- written:\n%s\n",
			     json.c_str());
	} catch (const InputError& e) {
		std::fprintf(stderr, "\n==== fuzz_rtapp_parser: the writer's output does not parse: %s\n--- written:\n%s\n",
			     e.what(), json.c_str());
	}
	std::abort();
}
