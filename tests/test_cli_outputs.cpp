// SPDX-License-Identifier: GPL-2.0-only
// Unit tests of the CLI's output building blocks: the recorder against the
// metrics, sweep ranges, the schbench block, CSV quoting and SVG ranges.
#include <catch2/catch.hpp>

#include "cli/sweep.hpp"
#include "io/values.hpp"
#include "model/metrics.hpp"
#include "model/simulation.hpp"
#include "report/outputs.hpp"
#include "report/record.hpp"
#include "report/svg.hpp"

using namespace eevdf;
using namespace eevdf::cli;
using Catch::Contains;

TEST_CASE("recorder: its runs are the metrics' runs with wait and delay", "[cli][outputs]")
{
	Config cfg = make_config(*find_preset("6.18"), 1000, 1);
	cfg.base_slice_ns = 3 * NSEC_PER_MSEC;
	Simulation sim(cfg, hogs_workload(2, 20 * NSEC_PER_MSEC));
	MetricsCollector m;
	Recorder r(true);
	sim.add_observer(&m);
	sim.add_observer(&r);
	sim.run();
	m.finish(sim);
	r.finish(sim);
	for (size_t t = 0; t < 2; t++) {
		std::vector<u64> mine;
		for (const RunRecord& run : r.runs)
			if (run.task == static_cast<int>(t))
				mine.push_back(run.end - run.start);
		std::sort(mine.begin(), mine.end());
		CHECK(mine == m.tasks[t].runs.values());
	}
	// 2 hogs, 3 ms slice at HZ=1000: switches at 0, 2, 4, 7, 10, ... ms; each waits for the other's run
	REQUIRE(r.runs.size() >= 3);
	CHECK(r.runs[1].start == 2 * NSEC_PER_MSEC);
	CHECK(r.runs[1].wait == 0);                    // its first run: never switched out (perf's wait time)
	CHECK(r.runs[1].delay == 2 * NSEC_PER_MSEC);  // runnable since its fork at 0
	CHECK(r.runs[2].delay == 2 * NSEC_PER_MSEC);  // preempted at 2 ms, back on at 4 ms
	CHECK(r.runs[2].state == 'R');
	CHECK(!r.samples[0].empty());
	CHECK(!r.v_samples.empty());
	CHECK(format_csv(r).rfind("task,pid,start_ns,end_ns,length_ns,reason,cpu\nhog-0,1000,0,2000000,2000000,R,0\n", 0) == 0);
}

TEST_CASE("sweep: value lists and doubling and stepped ranges", "[cli][sweep]")
{
	CHECK(parse_sweep("hz=100,250,1000").values == std::vector<std::string>{"100", "250", "1000"});
	CHECK(parse_sweep("slice=1ms..32ms").values == std::vector<std::string>{"1ms", "2ms", "4ms", "8ms", "16ms", "32ms"});
	CHECK(parse_sweep("slice=1ms..10ms").values == std::vector<std::string>{"1ms", "2ms", "4ms", "8ms"});
	CHECK(parse_sweep("slice=500us..2ms:500us").values == std::vector<std::string>{"500us", "1ms", "1500us", "2ms"});
	CHECK(parse_sweep("hz=100..1000:300").values == std::vector<std::string>{"100", "400", "700", "1000"});
	CHECK(parse_sweep("hz=100,250..1000").values == std::vector<std::string>{"100", "250", "500", "1000"});
	CHECK(parse_sweep("features=+HRTICK;-HRTICK,-RUN_TO_PARITY").values ==
	      std::vector<std::string>{"+HRTICK", "-HRTICK,-RUN_TO_PARITY"});
	CHECK(parse_sweep("kernel=6.6,6.18").values == std::vector<std::string>{"6.6", "6.18"});
	CHECK_THROWS_WITH(parse_sweep("hz"), Contains("is not KEY=VALUES"));
	CHECK_THROWS_WITH(parse_sweep("colour=1"), Contains("unknown key 'colour'"));
	CHECK_THROWS_WITH(parse_sweep("hz=0..100"), Contains("positive start"));
	CHECK_THROWS_WITH(parse_sweep("hz=1..100:0"), Contains("positive start"));
	CHECK_THROWS_WITH(parse_sweep("hz=1x"), Contains("not an integer"));
	CHECK_THROWS_WITH(parse_sweep("slice=1ms..3h"), Contains("not a duration"));
	CHECK_THROWS_AS(parse_sweep("hz=1..100000000:1"), UsageError);  // too many values

	const auto p = sweep_product({parse_sweep("hz=100,1000"), parse_sweep("slice=1ms,2ms")});
	REQUIRE(p.size() == 4);
	CHECK(p[1] == std::vector<std::pair<std::string, std::string>>{{"hz", "100"}, {"slice", "2ms"}});
	CHECK(p[2] == std::vector<std::pair<std::string, std::string>>{{"hz", "1000"}, {"slice", "1ms"}});
}

TEST_CASE("sweep: a product past 10000 configurations is refused before one is built", "[cli][sweep]")
{
	const SweepAxis seeds = parse_sweep("seed=1..10000:1"), hz = parse_sweep("hz=1..10000:1");
	CHECK_THROWS_WITH(sweep_product({seeds, hz}), Contains("more than 10000 configurations"));
	CHECK(sweep_product({seeds}).size() == 10000);
	// Over several items of one key too.
	CHECK_THROWS_WITH(parse_sweep("seed=1..6000:1,1..6000:1"), Contains("more than 10000 values"));
}

TEST_CASE("sweep: a range whose step would pass 2^63 ends at its last value instead of wrapping", "[cli][sweep]")
{
	CHECK(parse_sweep("seed=1..9223372036854775807:9223372036854775800").values ==
	      std::vector<std::string>{"1", "9223372036854775801"});
	CHECK(parse_sweep("seed=4611686018427387904..9223372036854775807").values ==
	      std::vector<std::string>{"4611686018427387904"});
}

TEST_CASE("schbench: nearest-rank percentiles in usec with per-bucket sample counts", "[cli][outputs]")
{
	SampleCounts v;
	for (u64 i = 1000; i >= 1; i--)
		v.add(i * 1000);  // 1..1000 us, in any order
	const std::string s = format_schbench(v, 2 * NSEC_PER_SEC);
	CHECK(s == "Wakeup Latencies percentiles (usec) runtime 2 (s) (1000 total samples)\n"
		   "\t  50.0th: 500        (500 samples)\n"
		   "\t  90.0th: 900        (400 samples)\n"
		   "\t* 99.0th: 990        (90 samples)\n"
		   "\t  99.9th: 999        (9 samples)\n"
		   "\t  min=1, max=1000\n");
	CHECK_THAT(format_schbench(SampleCounts{}, 0), Contains("(0 total samples)"));
}

TEST_CASE("svg: nice ranges cover the data with round ticks and text is escaped", "[cli][svg]")
{
	std::vector<double> ticks;
	auto [lo, hi] = svg::nice_range(0.3, 9.2, ticks);
	CHECK(lo == 0);
	CHECK(hi == 10);
	CHECK(ticks.front() == 0);
	CHECK(ticks.back() == 10);
	std::tie(lo, hi) = svg::nice_range(-3.1, 2, ticks);
	CHECK(lo <= -3.1);
	CHECK(hi >= 2);
	std::tie(lo, hi) = svg::nice_range(5, 5, ticks);  // a flat series still gets a range
	CHECK(lo < 5);
	CHECK(hi > 5);
	CHECK(svg::escape("a<b & \"c\">") == "a&lt;b &amp; &quot;c&quot;&gt;");
	const std::string bars = svg::bar_chart("t", "y", {"claimed", "model"}, {{"row <1>", {1.5, std::nullopt}}});
	CHECK_THAT(bars, Contains("data-series=\"claimed\" data-group=\"row &lt;1&gt;\" data-value=\"1.5\""));
	CHECK_THAT(bars, !Contains("data-series=\"model\""));
}

TEST_CASE("timestamps print like perf and ftrace", "[cli][outputs]")
{
	CHECK(sec_usec(1'234'567'891) == "1.234567");
	CHECK(msec(2'999'999) == "2.999");
	CHECK(msec(0) == "0.000");
}
