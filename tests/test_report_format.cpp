// SPDX-License-Identifier: GPL-2.0-only
// The report's fast formatting (issue 18, Scale) against the formatters it
// replaced: JsonWriter against nlohmann's dump(2), the table's integer
// decimals against printf.
#include <catch2/catch.hpp>

#include <cstdio>
#include <random>
#include <sstream>
#include <nlohmann/json.hpp>

#include "model/metrics.hpp"
#include "model/simulation.hpp"
#include "report/fixed_decimal.hpp"
#include "report/json_writer.hpp"
#include "report/report.hpp"
#include "sim_helpers.hpp"

using namespace eevdf;
using namespace eevdf::cli;
using eevdf::test::MS;

namespace {

std::string printf_fixed(double x, int decimals)
{
	char b[64];
	std::snprintf(b, sizeof b, "%.*f", decimals, x);
	return b;
}

std::string fast_ms(u64 ns)
{
	std::string s;
	append_ms(s, ns);
	return s;
}

std::string fast_us(u64 ns)
{
	std::string s;
	append_us(s, ns);
	return s;
}

// The document as nlohmann would print it: parsed (order kept) and dumped
// with indent 2, plus the final newline write_json ends with.
std::string redumped(const std::string& doc) { return nlohmann::ordered_json::parse(doc).dump(2) + "\n"; }

std::string json_of(const Config& cfg, Workload wl)
{
	Simulation sim(cfg, std::move(wl));
	MetricsCollector m;
	sim.add_observer(&m);
	sim.run();
	m.finish(sim);
	return format_json(Report{sim, m});
}

}  // namespace

TEST_CASE("fixed decimals print the digits printf prints, ties and huge values included", "[cli][report]")
{
	std::mt19937_64 rng(18);
	std::vector<u64> cases = {0, 1, 499, 500, 501, 999, 1000, 1500, 2500, 999999, 1000000, 1000500,
				  (u64{1} << 52) - 1, u64{1} << 52, (u64{1} << 52) + 500, u64{1} << 62, ~u64{0}};
	for (int i = 0; i < 20000; i++) {
		const u64 scale = u64{1} << (rng() % 63);
		const u64 v = rng() % scale;
		cases.push_back(v);
		cases.push_back(v - v % 1000 + 500);  // a ms tie
		cases.push_back(v - v % 100 + 50);    // a µs tie
	}
	for (u64 ns : cases) {
		INFO("ns = " << ns);
		REQUIRE(fast_ms(ns) == printf_fixed(static_cast<double>(ns) / 1e6, 3));
		REQUIRE(fast_us(ns) == printf_fixed(static_cast<double>(ns) / 1e3, 1));
	}
}

TEST_CASE("JsonWriter writes what nlohmann's dump(2) writes for the same values", "[cli][report]")
{
	std::string out = "x";
	JsonWriter w(out, 4);
	w.begin_object();
	w.member("empty_object", "");
	w.key("o");
	w.begin_object();
	w.end_object();
	w.key("a");
	w.begin_array();
	w.end_array();
	w.key("nested");
	w.begin_array();
	w.value(u64{0});
	w.value(s64{-7});
	w.begin_object();
	w.member("d", 2.5);
	w.end_object();
	w.end_array();
	int k = 0;  // distinct keys: a parsed object keeps one member per key
	for (double d : {0.0, -0.0, 1.0, 1e14, 1e15, 1e16, 123456789012345.0, 0.1, 1.0 / 3, 2666666.6666666665,
			 1e-7, 7.62939453125e-06, -4.0})
		w.member("double" + std::to_string(k++), d);
	w.member("text", "quote \" backslash \\ tab \t nl \n ctl \x01 utf-8 \xc3\xa9 \xe2\x82\xac");
	w.member("t", true);
	w.end_object();
	REQUIRE(out.substr(0, 1) == "x");
	const std::string doc = out.substr(1);
	// Nested by 4 columns: dump(2) of the same value, every line after the first indented 4 more.
	std::string expect;
	for (char ch : nlohmann::ordered_json::parse(doc).dump(2)) {
		expect += ch;
		if (ch == '\n')
			expect.append(4, ' ');
	}
	CHECK(doc == expect);
}

TEST_CASE("the streamed JSON report is byte for byte nlohmann's dump of the same document", "[cli][report]")
{
	SECTION("one CPU, nice and custom slices, a task that never ran")
	{
		Workload wl = test::workload({test::hog("a"), test::hog("b \"quoted\" \xc3\xa9", 5), test::hog("c", -3)});
		wl.tasks[0].custom_slice = 200 * MS;  // clamped to 100 ms, and reported as such
		wl.duration = 100 * MS;
		const std::string doc = json_of(test::config("6.18", 1000), wl);
		CHECK(doc == redumped(doc));
	}
	SECTION("several CPUs: the per-CPU members")
	{
		const Config cfg = make_config(*find_preset("6.18"), 250, 3);
		const std::string doc = json_of(cfg, hogs_workload(5, 200 * MS));
		CHECK(doc == redumped(doc));
	}
	SECTION("sleepers with fractional mean runs and wake-up latencies")
	{
		Workload wl = test::workload({test::task("s", {test::run(333 * test::US), test::sleep(1 * MS)}), test::hog("h")});
		wl.duration = 100 * MS;
		const std::string doc = json_of(test::config("6.12", 1000), wl);
		CHECK(doc == redumped(doc));
	}
}
