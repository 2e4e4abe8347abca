// SPDX-License-Identifier: GPL-2.0-only
// fuzz_workload's event budget (fuzz/genome.hpp EVENT_BUDGET): what it
// stops, what it leaves whole, and that it never invents or hides a
// violation the budget reaches.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "fuzz/genome.hpp"
#include "props/harness.hpp"

using namespace eevdf;
using namespace eevdf::fuzz;

namespace {

std::vector<std::vector<uint8_t>> corpus()
{
	std::vector<std::filesystem::path> files;
	for (const auto& e : std::filesystem::directory_iterator(EEVDF_FUZZ_CORPUS))
		files.push_back(e.path());
	std::sort(files.begin(), files.end());
	std::vector<std::vector<uint8_t>> inputs;
	for (const auto& f : files) {
		std::ifstream in(f, std::ios::binary);
		inputs.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
	}
	return inputs;
}

}  // namespace

// The hogs shape is the one the run-length, lag, fairness and mean-run
// checks apply to: one CPU, no HRTICK, so an event is a tick (or the forks
// at 0). At the densest, HZ=1500 for 2 s, that is about 3,000.
TEST_CASE("every hogs-shape case runs its whole duration within the event budget")
{
	for (uint8_t preset = 0; preset < kernel_presets().size(); preset++)
		for (uint8_t nhogs : {2, 16})
			for (uint32_t slice_us : {0u, 100u, 100'000u}) {
				Genome g;
				g.preset = preset;
				g.hogs = true;
				g.nhogs = nhogs;
				g.hz = 1500;
				g.duration_ms = 2000;
				g.slice_us = slice_us;
				g.jitter_ns = 166'666;  // the largest decode() gives at HZ=1500: a quarter tick
				g.switch_cost_ns = 50'000;
				const Case c = build(g);
				REQUIRE_FALSE(c.cfg.features[Feature::HRTICK]);
				const props::CheckedRun run = props::run_checked_within(c.cfg, c.wl, {}, EVENT_BUDGET);
				CHECK(run.violation.empty());
				CHECK_FALSE(run.budget_spent);
				CHECK(run.end == c.wl.duration);
			}
}

TEST_CASE("a dense case stops at the event budget, every event up to it checked")
{
	// 16 tasks that run and sleep 10 us each on 8 CPUs for 2 s: far beyond
	// the budget.
	Genome g;
	g.sim_cpus = 8;
	g.cpus = 8;
	g.duration_ms = 2000;
	for (int i = 0; i < 16; i++)
		g.tasks.push_back(Gene{Kind::Sleeper, 0, 0, 10, 10, 0, 0, 0});
	const Case c = build(g);
	const props::CheckedRun run = props::run_checked_within(c.cfg, c.wl, {}, EVENT_BUDGET);
	CHECK(run.violation.empty());
	CHECK(run.budget_spent);
	CHECK(run.end < c.wl.duration);
	CHECK(check_case(c).empty());
}

// Soundness of a budget on the seed corpus with bugs switched in, at
// budgets small enough to stop most seeds (none is longer than
// EVENT_BUDGET): a violation the budgeted check reports is one of the whole
// run too (an invariant's at the same event, so with the same message), and
// the whole run's invariant violations before the budget are all reported.
TEST_CASE("a budgeted check reports only the whole run's violations, and all of those within the budget")
{
	const char* bugs[] = {"avg-vruntime-trunc", "no-lag-clamp", "migrate-keeps-vruntime", "no-resched-on-renewal"};
	const auto inputs = corpus();
	int cut = 0, found = 0, missed = 0;
	for (const u64 budget : {200ULL, 1000ULL}) {
		for (const char* name : bugs) {
			const Bugs b = Bugs{}.set(*bug_by_name(name));
			for (const auto& input : inputs) {
				const Case c = build(Genome::decode(input.data(), input.size()), b);
				const std::string budgeted = check_case(c, budget);
				const std::string whole = check_case(c, NEVER);
				INFO(name << " within " << budget << ": " << budgeted << " | whole run: " << whole);
				cut += props::run_checked_within(c.cfg, c.wl, {}, budget).budget_spent;
				if (!budgeted.empty()) {
					CHECK_FALSE(whole.empty());
					if (budgeted.rfind("invariant:", 0) == 0)
						CHECK(budgeted == whole);
					found++;
				} else if (whole.rfind("invariant:", 0) == 0) {
					// (event N): N events were checked; a failure inside
					// event N + 1's callbacks carries N too.
					const auto at = whole.find("(event ");
					REQUIRE(at != std::string::npos);
					CHECK(std::stoull(whole.substr(at + 7)) >= budget);
					missed++;
				}
			}
		}
	}
	CHECK(cut > 0);
	CHECK(found > 0);
	CHECK(missed > 0);
}
