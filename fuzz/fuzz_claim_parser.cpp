// SPDX-License-Identifier: GPL-2.0-only
// fuzz_claim_parser: any bytes as a claim file give a Claim or an
// InputError that names the file, nothing else (no other exception, no
// crash, no sanitizer report); a parsed claim has rows and a metric, and
// its numbers are finite.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "claims/claims.hpp"
#include "io/input_error.hpp"

using namespace eevdf;

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail)
{
	std::fprintf(stderr, "\n==== fuzz_claim_parser: %s: %s\n", what, detail.c_str());
	std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	const std::string_view text(reinterpret_cast<const char*>(data), size);
	cli::Claim c;
	try {
		c = cli::parse_claim(text, "fuzz.json");
	} catch (const InputError& e) {
		if (std::string(e.what()).rfind("fuzz.json", 0) != 0)
			fail("an error that does not start with the file's name", e.what());
		return 0;
	}
	if (c.rows.empty())
		fail("a claim without rows was accepted", c.title);
	if (!std::isfinite(c.tolerance.relative) || !std::isfinite(c.tolerance.absolute))
		fail("a non-finite tolerance was accepted", c.title);
	for (const cli::ClaimRow& r : c.rows)
		if (r.claimed && !std::isfinite(*r.claimed))
			fail("a non-finite claimed value was accepted", r.label);
	return 0;
}
