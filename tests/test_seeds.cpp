// SPDX-License-Identifier: GPL-2.0-only
// Ensembles beyond `sim --seeds`: the thread pool every ensemble runs on
// (cli/sweep.hpp), schbench's pooled histograms (SchbenchStats::merge), and
// claim rows over seeds judged against the 95 % interval (claims/).
#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "claims/claims.hpp"
#include "cli/ensemble.hpp"
#include "cli/sweep.hpp"
#include "io/values.hpp"
#include "report/schbench_stats.hpp"

using namespace eevdf;
using namespace eevdf::cli;

TEST_CASE("run_parallel calls the work once for every index")
{
	std::vector<std::atomic<int>> calls(1000);
	const unsigned used = run_parallel(calls.size(), 4, [&](size_t i) { calls[i]++; });
	CHECK(used == 4);
	for (const auto& c : calls)
		CHECK(c == 1);
}

TEST_CASE("run_parallel uses no more threads than there is work")
{
	CHECK(run_parallel(3, 64, [](size_t) {}) == 3);
}

TEST_CASE("run_parallel rethrows the exception of the lowest index, whichever thread met it first")
{
	try {
		run_parallel(100, 8, [](size_t i) {
			if (i % 10 == 7)
				throw std::runtime_error("index " + std::to_string(i));
		});
		FAIL("no exception");
	} catch (const std::runtime_error& e) {
		CHECK(std::string(e.what()) == "index 7");
	}
}

TEST_CASE("run_parallel refuses more threads than --jobs allows")
{
	CHECK_THROWS_AS(run_parallel(1, MAX_JOBS + 1, [](size_t) {}), UsageError);
}

TEST_CASE("merged schbench histograms give the percentiles of all their samples together")
{
	SchbenchStats a, b, all;
	for (unsigned us = 1; us < 3000; us += 7) {
		(us % 3 ? a : b).add(us);
		all.add(us);
	}
	a.merge(b);
	CHECK(a.samples() == all.samples());
	CHECK(a.min() == all.min());
	CHECK(a.max() == all.max());
	for (double p : {20.0, 50.0, 90.0, 99.0, 99.9})
		CHECK(a.value_at(p) == all.value_at(p));
}

TEST_CASE("merging an empty schbench histogram changes nothing")
{
	SchbenchStats a, empty;
	a.add(40);
	a.add(9);
	a.merge(empty);
	CHECK(a.samples() == 2);
	CHECK(a.min() == 9);
	CHECK(a.max() == 40);
}

namespace {

Claim claim_with(const std::string& compare, double relative)
{
	Claim c;
	c.tolerance.relative = relative;
	ClaimRow r;
	r.compare = compare;
	c.rows.push_back(r);
	return c;
}

}  // namespace

TEST_CASE("an interval inside the tolerance band holds, one outside it fails, one across its edge straddles")
{
	const Claim c = claim_with("within", 0.1);  // 10 +- 1
	CHECK(interval_verdict(c, c.rows[0], 10, 9.5, 10.5) == 1);
	CHECK(interval_verdict(c, c.rows[0], 10, 11.5, 12) == -1);
	CHECK(interval_verdict(c, c.rows[0], 10, 7, 8.9) == -1);
	CHECK(interval_verdict(c, c.rows[0], 10, 10.5, 11.5) == 0);
	CHECK(interval_verdict(c, c.rows[0], 10, 8, 9.5) == 0);
}

TEST_CASE("an interval wider than the whole band straddles it")
{
	const Claim c = claim_with("within", 0.1);
	CHECK(interval_verdict(c, c.rows[0], 10, 5, 15) == 0);
}

TEST_CASE("at_most holds when the interval's top is within it and fails when its bottom is above")
{
	const Claim c = claim_with("at_most", 0);
	CHECK(interval_verdict(c, c.rows[0], 10, 1, 10) == 1);
	CHECK(interval_verdict(c, c.rows[0], 10, 10.1, 20) == -1);
	CHECK(interval_verdict(c, c.rows[0], 10, 5, 20) == 0);
}

TEST_CASE("at_least holds when the interval's bottom is within it and fails when its top is below")
{
	const Claim c = claim_with("at_least", 0);
	CHECK(interval_verdict(c, c.rows[0], 10, 10, 30) == 1);
	CHECK(interval_verdict(c, c.rows[0], 10, 1, 9.9) == -1);
	CHECK(interval_verdict(c, c.rows[0], 10, 5, 20) == 0);
}

namespace {

// Three hogs on two CPUs on the calibrated profile: a seed moves the
// switch costs, so the context switches vary by seed.
const char* const SEEDED = R"({
	"claim": "three hogs on two CPUs switch about 300 times in 200 ms",
	"config": {"kernel": "6.18", "cpus": 2, "hogs": 3, "duration": "200ms", "profile": "vm-6.18.44-hz250", "seeds": 7},
	"metric": {"name": "context_switches"},
	"tolerance": {"relative": 0.5},
	"rows": [{"label": "switches", "set": {"seed": 3}, "claimed": 300}]
})";

}  // namespace

TEST_CASE("a row over seeds reports the median and 95 % interval of the seeds' own runs")
{
	const Claim c = parse_claim(SEEDED, "seeded.json");
	const std::vector<RowResult> rows = evaluate(c);
	REQUIRE(rows.size() == 1);
	CHECK(rows[0].seeds == 7);
	// Seeds 3..9, each as a claim of one run with that seed.
	std::vector<double> per_seed;
	for (u64 s = 3; s < 10; s++) {
		Claim one = c;
		one.config.erase(one.config.end() - 1);  // no "seeds": one run
		one.rows[0].set = {{"seed", std::to_string(s)}};
		per_seed.push_back(evaluate(one).at(0).model);
	}
	CHECK(rows[0].model == quantile_linear(per_seed, 0.5));
	CHECK(rows[0].lo == quantile_linear(per_seed, 0.025));
	CHECK(rows[0].hi == quantile_linear(per_seed, 0.975));
}

TEST_CASE("a row over seeds gives the same result run in parallel as one after the other")
{
	const Claim c = parse_claim(SEEDED, "seeded.json");
	EvaluateOptions par;
	par.parallel = [](size_t n, const std::function<void(size_t)>& f) { run_parallel(n, 4, f); };
	const RowResult a = evaluate(c).at(0), b = evaluate(c, par).at(0);
	CHECK(a.model == b.model);
	CHECK(a.lo == b.lo);
	CHECK(a.hi == b.hi);
	CHECK(a.verdict == b.verdict);
}

TEST_CASE("a row over seeds names the interval it was judged on in its verdict")
{
	Claim c = parse_claim(SEEDED, "seeded.json");
	const RowResult first = evaluate(c).at(0);
	REQUIRE(first.lo > 0);
	// A claim of the median itself, within a band twice the interval's
	// spread: all of the interval is inside it.
	c.rows[0].claimed = first.model;
	c.tolerance.relative = 0;
	c.tolerance.absolute = 2 * (first.hi - first.lo) + 1;
	CHECK(evaluate(c).at(0).verdict == "holds over the 95 % interval of 7 seeds");
	// Ten times the median: none of it is.
	c.rows[0].claimed = 10 * first.hi;
	CHECK(evaluate(c).at(0).verdict == "FAILS over the 95 % interval of 7 seeds");
}

TEST_CASE("a documented finding over seeds says so and counts as expected")
{
	Claim c = parse_claim(SEEDED, "seeded.json");
	const RowResult first = evaluate(c).at(0);
	c.rows[0].claimed = 10 * first.hi;
	c.rows[0].expect_disagree = true;
	const RowResult r = evaluate(c).at(0);
	CHECK(r.verdict == "finding: fails over the 95 % interval of 7 seeds");
	CHECK(r.ok);
}

TEST_CASE("eevdf check --seeds overrides a claim's seeds and first seed")
{
	const Claim c = parse_claim(SEEDED, "seeded.json");
	EvaluateOptions o;
	o.seeds = 2;
	o.first_seed = 100;
	const RowResult r = evaluate(c, o).at(0);
	CHECK(r.seeds == 2);
	Claim one = c;
	one.config.erase(one.config.end() - 1);
	one.rows[0].set = {{"seed", "101"}};
	const double s101 = evaluate(one).at(0).model;
	one.rows[0].set = {{"seed", "100"}};
	const double s100 = evaluate(one).at(0).model;
	CHECK(r.lo == quantile_linear({s100, s101}, 0.025));
	CHECK(r.hi == quantile_linear({s100, s101}, 0.975));
}

TEST_CASE("a claim without seeds is judged on its one run, as before")
{
	Claim c = parse_claim(SEEDED, "seeded.json");
	c.config.erase(c.config.end() - 1);
	const RowResult r = evaluate(c).at(0);
	CHECK(r.seeds == 0);
	CHECK((r.verdict == "agrees" || r.verdict == "DISAGREES"));
}

TEST_CASE("a claim's seeds must be 1..10000")
{
	std::string text = SEEDED;
	text.replace(text.find("\"seeds\": 7"), 10, "\"seeds\": 10001");
	CHECK_THROWS_WITH(parse_claim(text, "seeded.json"),
			  Catch::Contains("config.seeds: expected an integer in 1..10000"));
}

TEST_CASE("a row expected to straddle must say why")
{
	std::string text = SEEDED;
	text.replace(text.find("\"claimed\": 300"), 14, "\"claimed\": 300, \"expect\": \"straddle\"");
	CHECK_THROWS_WITH(parse_claim(text, "seeded.json"), Catch::Contains("a row expected to straddle must say why"));
}
