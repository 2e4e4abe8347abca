// SPDX-License-Identifier: GPL-2.0-only
// fuzz_trace_reader: any bytes as a kernel trace give events or an
// InputError, nothing else; what parses is measured, checked and turned
// into a workload, and
//   - each CPU's busy + idle + unattributed time fits in the window, and the
//     tasks' CPU time is the CPUs' busy time;
//   - the workload, when rt-app can write it, reads back equal.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

#include "io/input_error.hpp"
#include "io/rtapp.hpp"
#include "trace/run_check.hpp"
#include "trace/stats.hpp"
#include "trace/to_workload.hpp"

using namespace eevdf;

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail)
{
	std::fprintf(stderr, "\n==== fuzz_trace_reader: %s\n%s\n", what, detail.c_str());
	std::abort();
}

void measure(const std::string& text)
{
	std::istringstream in(text);
	trace::Reader r(in, "fuzz.trace", trace::ReadOptions{true});
	const trace::TraceMetrics m = trace::measure(r);
	const u64 window = m.end_ns - m.start_ns;
	u64 busy = 0, tasks = 0;
	for (size_t c = 0; c < m.cpus.size(); c++) {
		const u64 sum = m.cpus[c].busy_ns + m.cpus[c].idle_ns + m.unattributed_ns[c];
		if (sum > window)
			fail("a CPU's time exceeds the window", "cpu " + std::to_string(c) + ": " + std::to_string(sum) + " > " +
									std::to_string(window));
		busy += m.cpus[c].busy_ns;
	}
	for (const TaskMetrics& t : m.tasks)
		tasks += t.cpu_ns;
	if (busy != tasks)
		fail("the tasks' CPU time is not the CPUs' busy time", std::to_string(tasks) + " != " + std::to_string(busy));
}

void check(const std::string& text)
{
	std::istringstream in(text);
	trace::Reader r(in, "fuzz.trace", trace::ReadOptions{true});
	trace::RunChecker c(trace::RunBoundParams{1400000, 4000000, 0, 0});
	trace::Event e;
	while (r.next(e))
		c.add(e, r.stats());
	(void)c.finish(r.stats());
}

void replay(const std::string& text)
{
	std::istringstream in(text);
	trace::Reader r(in, "fuzz.trace", trace::ReadOptions{true});
	trace::ToWorkloadOptions o;
	o.resume = text.size() % 2;
	const trace::ToWorkloadResult res = trace::to_workload(r, o);
	std::string json;
	try {
		json = to_rtapp_json(res.workload);
	} catch (const std::invalid_argument&) {
		return;
	}
	try {
		if (!(parse_rtapp(json, "roundtrip.json") == res.workload))
			fail("the workload's round trip changed it", json);
	} catch (const InputError& err) {
		fail("the workload written does not parse", std::string(err.what()) + "\n" + json);
	}
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	const std::string text(reinterpret_cast<const char*>(data), size);
	{
		std::istringstream in(text);
		trace::Reader strict(in, "fuzz.trace");
		try {
			trace::Event e;
			while (strict.next(e)) {
			}
		} catch (const InputError&) {
		}
	}
	try {
		measure(text);
		check(text);
		replay(text);
	} catch (const InputError&) {
		// only a read error or a timestamp going back remain with --lenient
	}
	return 0;
}
