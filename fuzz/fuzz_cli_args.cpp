// SPDX-License-Identifier: GPL-2.0-only
// fuzz_cli_args: any argument list for eevdf (the input split at NUL or
// newline bytes, up to 64 arguments) is parsed by the command line itself
// (cli/main.cpp, built here with EEVDF_CLI_FUZZ: it stops once every value
// was parsed and checked and the model's configuration built) and ends in
// exit status 0 or 2: an exception that escapes, a crash or a sanitizer
// report is a finding.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <streambuf>
#include <string>
#include <vector>

int eevdf_cli_main(int argc, char** argv);

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
	// Help texts and messages are the command line's business, not the
	// fuzzer's log.
	if (!std::freopen("/dev/null", "w", stdout))
		std::abort();
	// A buffer that drops everything: nothing accumulates over millions of
	// inputs.
	struct NullBuf : std::streambuf {
		int overflow(int c) override { return c; }
	};
	static NullBuf sink;
	std::cerr.rdbuf(&sink);
	return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	std::vector<std::string> args{"eevdf"};
	std::string cur;
	for (size_t i = 0; i < size && args.size() < 64; i++) {
		const char c = static_cast<char>(data[i]);
		if (c == '\0' || c == '\n') {
			args.push_back(cur);
			cur.clear();
		} else {
			cur += c;
		}
	}
	if (!cur.empty() && args.size() < 64)
		args.push_back(cur);
	// Commands that run other programs (probe, prove) are left out: their
	// arguments are those programs' own (the robust corpus covers them).
	if (args.size() > 1 && (args[1] == "probe" || args[1] == "prove"))
		return 0;
	std::vector<char*> argv;
	for (std::string& a : args)
		argv.push_back(a.data());
	argv.push_back(nullptr);
	const int rc = eevdf_cli_main(static_cast<int>(args.size()), argv.data());
	if (rc != 0 && rc != 2) {
		std::fprintf(stderr, "\n==== fuzz_cli_args: exit %d, not 0 or 2, for:", rc);
		for (const std::string& a : args)
			std::fprintf(stderr, " '%s'", a.c_str());
		std::fprintf(stderr, "\n");
		std::abort();
	}
	return 0;
}
