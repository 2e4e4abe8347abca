// SPDX-License-Identifier: GPL-2.0-only
// bugzoo: for every bug of model/bugs.hpp, which checker catches it and
// after how many cases. Deterministic (fixed seeds, case counts, no
// timings), so its output is docs/bugzoo.md and a test compares the two:
//   build/fuzz/bugzoo > docs/bugzoo.md
//   bugzoo --timing    adds wall-clock seconds (not for the checked-in file)
// The properties, golden schedules and proved statements it runs are those
// of the bug × detector table (props/bug_detectors.hpp); it exits 1, naming
// each on stderr, when an expectation of the table does not show in its
// output: a catch missed within the budget, or one the table says the
// invariant check makes and the run says it did not (or the reverse, for
// a proved statement).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <rapidcheck.h>
#include <string>
#include <vector>

#include "fuzz/genome.hpp"
#include "props/bug_detectors.hpp"
#include "props/proved_statements.hpp"

using namespace eevdf;
using namespace eevdf::fuzz;

namespace {

constexpr int WORKLOAD_CASES = 1000;  // fuzz_workload inputs
constexpr int DIFF_CASES = 2000;      // fuzz_differential inputs
constexpr u64 FUZZ_SEED = 20261129;

struct Result {
	long cases = 0;  // 0: not caught within the budget
	std::string what;
	double seconds = 0;
	bool by_checker = false;  // the invariant checker inside the property failed first
};

template <typename F>
Result timed(F f)
{
	const auto t0 = std::chrono::steady_clock::now();
	Result r = f();
	r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	return r;
}

Result run_property(const props::Testable& t, int cases)
{
	rc::detail::TestParams params;
	params.seed = 20261129;
	params.maxSuccess = cases;
	params.maxSize = 100;
	params.disableShrinking = true;
	const auto result = rc::detail::checkTestable(t, rc::detail::TestMetadata{}, params);
	if (!result.template is<rc::detail::FailureResult>())
		return {};
	const auto& failure = result.template get<rc::detail::FailureResult>();
	// A proved request statement whose run the invariant checker stopped
	// (props/proved_statements.hpp) did not get to test its conclusion; a
	// property's checker fails with the checker's own message.
	const bool proved_by_checker = failure.description.find(props::proved::INVARIANT_FAILURE) != std::string::npos;
	const bool by_checker = proved_by_checker || failure.description.find("invariant '") != std::string::npos;
	return {failure.numSuccess + 1, proved_by_checker ? "by the invariant check" : "", 0, by_checker};
}

// The checker that failed, in a few words.
std::string first_words(const std::string& why)
{
	const size_t q1 = why.find('\''), q2 = q1 == std::string::npos ? q1 : why.find('\'', q1 + 1);
	if (why.rfind("invariant", 0) == 0 && q2 != std::string::npos)
		return "invariant " + why.substr(q1 + 1, q2 - q1 - 1) +
		       (why.rfind("invariant on ", 0) == 0 ? " on " + why.substr(13, why.find(':') - 13) : "");
	if (why.rfind("presets", 0) == 0)
		return "presets disagree";
	return why.substr(0, why.find(':'));
}

// Seeded mutation of the seed corpus, without coverage feedback: a genome
// pool that grows with a quarter of the mutants.
template <typename Check>
Result mutate_until(Bugs bugs, int budget, u64 seed, Check check)
{
	std::vector<Genome> pool;
	for (const auto& s : seed_genomes())
		pool.push_back(s.second);
	uint64_t rng = seed;
	for (int i = 0; i < budget; i++) {
		Genome g = i < static_cast<int>(seed_genomes().size()) ? pool[static_cast<size_t>(i)] : pool[next_rand(rng) % pool.size()];
		if (i >= static_cast<int>(seed_genomes().size()))
			for (u64 k = 1 + next_rand(rng) % 3; k; k--)
				mutate(g, rng);
		const std::string why = check(g, bugs, rng);
		if (!why.empty())
			return {i + 1, first_words(why)};
		if (next_rand(rng) % 4 == 0 && pool.size() < 2000)
			pool.push_back(g);
	}
	return {};
}

Result fuzz_workload(Bugs bugs)
{
	return mutate_until(bugs, WORKLOAD_CASES, FUZZ_SEED, [](const Genome& g, Bugs b, uint64_t&) {
		return check_case(build(g, b));
	});
}

Result fuzz_differential(Bugs bugs)
{
	// Alternately a random cfs_rq operation sequence and a preset comparison.
	return mutate_until(bugs, DIFF_CASES, FUZZ_SEED + 1, [](const Genome& g, Bugs b, uint64_t& rng) {
		std::vector<uint8_t> ops(5 + 2 * 16 + 4 * (1 + next_rand(rng) % 300));
		for (auto& x : ops)
			x = static_cast<uint8_t>(next_rand(rng));
		std::string why = diff_cfs_ops(ops.data(), ops.size(), b);
		if (why.empty() && next_rand(rng) % 8 == 0) {
			why = diff_presets(g, b);
			if (why.empty())
				why = diff_pinned(g, b);
		}
		return why;
	});
}

std::string cell(const Result& r, const char* unit, bool timing)
{
	if (!r.cases)
		return "—";
	std::string s = std::to_string(r.cases) + " " + unit + (r.cases == 1 ? "" : "s");
	if (!r.what.empty())
		s += " (" + r.what + ")";
	if (timing) {
		char buf[32];
		std::snprintf(buf, sizeof buf, ", %.2f s", r.seconds);
		s += buf;
	}
	return s;
}

}  // namespace

int main(int argc, char** argv)
{
	const bool timing = argc > 1 && !std::strcmp(argv[1], "--timing");
	using props::Detector;
	using props::DetectorKind;
	// The table's detectors of one kind, in its order.
	auto of_kind = [](DetectorKind kind) {
		std::vector<const Detector*> ds;
		for (const Detector& d : props::bug_detectors())
			if (d.kind == kind)
				ds.push_back(&d);
		return ds;
	};
	const std::vector<const Detector*> properties = of_kind(DetectorKind::Property);
	// The proved statements fed to the model (docs/proofs.md names the
	// obligation behind each).
	const std::vector<const Detector*> proved = of_kind(DetectorKind::Proved);
	const std::vector<const Detector*> goldens = of_kind(DetectorKind::Golden);

	// The table's expectations that this output does not show.
	std::vector<std::string> unmet;
	auto expectation = [](const Detector& d, Bug bug) -> const props::Expectation* {
		for (const props::Expectation& e : d.catches)
			if (e.bug == bug)
				return &e;
		return nullptr;
	};
	// A proved statement's output says whether the invariant check caught
	// it; a property's does not, so there only a catch the table puts on
	// the invariant check is held to it.
	auto check_expectation = [&](const Detector& d, Bug bug, const Result& r) {
		const props::Expectation* e = expectation(d, bug);
		if (!e)
			return;
		const std::string what = props::expectation_name(d, *e);
		if (!r.cases)
			unmet.push_back(what + ": not caught in " + std::to_string(d.zoo_cases) + " cases");
		else if (e->through_invariant_check && !r.by_checker)
			unmet.push_back(what + ": caught, but not by the invariant check");
		else if (!e->through_invariant_check && r.by_checker && d.kind == DetectorKind::Proved)
			unmet.push_back(what + ": caught only by the invariant check");
	};
	// The detectors in `ds` that fail with `bug`, with the cases to the
	// first counterexample (and, with --timing, the seconds of all of ds).
	auto failing = [&](const std::vector<const Detector*>& ds, Bug bug) {
		const Bugs bugs = Bugs{}.set(bug);
		std::string caught;
		double seconds = 0;
		for (const Detector* d : ds) {
			const Result r = timed([&] { return run_property(d->testable(bugs), d->zoo_cases); });
			seconds += r.seconds;
			if (r.cases)
				caught += (caught.empty() ? "" : ", ") + std::string(d->name) + " " +
					  std::to_string(r.cases) + (r.what.empty() ? "" : " (" + r.what + ")");
			check_expectation(*d, bug, r);
		}
		if (timing && !caught.empty()) {
			char buf[32];
			std::snprintf(buf, sizeof buf, " (all: %.1f s)", seconds);
			caught += buf;
		}
		return caught;
	};
	// The properties with the smaller several-CPU budget, as the text names them.
	std::string smp_budget;
	for (const Detector* d : properties)
		if (d->zoo_cases == props::ZOO_SMP_CASES)
			smp_budget += (smp_budget.empty() ? "`" : "\n  and `") + std::string(d->name) + "`";

	std::printf("# The bug zoo\n\n"
		    "<!-- Generated by `build/fuzz/bugzoo > docs/bugzoo.md`; the ctest `bugzoo_up_to_date`\n"
		    "     (label fuzz) fails when this file differs from the command's output. -->\n\n"
		    "Every historical EEVDF bug (and mutation) that `model/bugs.hpp` can switch back into the\n"
		    "model (`eevdf sim --bug NAME`, `EEVDF_FUZZ_BUGS=NAME` for the fuzz targets), and which\n"
		    "checker catches it within CI-sized budgets, in cases to the first failure. A dash is a\n"
		    "miss within the budget. Budgets and seeds are fixed, so the table is reproducible:\n\n"
		    "- **props**: each property of `props/properties.hpp` with RapidCheck seed 20261129, at most\n"
		    "  %d cases per property (%d for the several-CPU %s), no shrinking; the cases\n"
		    "  to the first counterexample.\n"
		    "- **fuzz_workload**: the seed corpus, then seeded structural mutations of it (no coverage\n"
		    "  feedback), at most %d inputs, each under the invariant checker and the bound checks\n"
		    "  (`fuzz/genome.cpp`, `check_case`); in brackets, the check that failed first.\n"
		    "- **fuzz_differential**: at most %d inputs: a random cfs_rq operation sequence (tree pick vs\n"
		    "  brute force, incremental vs exact V), and every 8th input also a preset comparison\n"
		    "  and, for a genome on several CPUs, its tasks pinned to CPU 0 against one CPU.\n"
		    "- **goldens**: the golden schedules of `props/goldens.hpp` (each computed by hand from the\n"
		    "  kernel's rules), run once; the names of those the bug breaks.\n"
		    "- **proofs**: each statement Z3 proves (`docs/proofs.md`) fed to the model with the bug\n"
		    "  switched in (`props/proved_statements.hpp`: queues built directly for the decision\n"
		    "  statements, simulated requests under the invariant checker for the run bounds),\n"
		    "  RapidCheck seed 20261129, at most %d cases each, no shrinking; the cases to the first\n"
		    "  counterexample. \"by the invariant check\": the checker stopped the statement's\n"
		    "  simulation before its bound was tested, so the proof itself caught nothing there.\n"
		    "  No bug of the zoo breaks `repick_equal_weights` within the budget.\n\n",
		    props::ZOO_CASES, props::ZOO_SMP_CASES, smp_budget.c_str(), WORKLOAD_CASES, DIFF_CASES,
		    props::ZOO_CASES);
	std::printf("| bug | fixed by | props (cases) | fuzz_workload | fuzz_differential | goldens | proofs |\n"
		    "|---|---|---|---|---|---|---|\n");
	std::vector<std::string> gaps;
	for (unsigned i = 0; i < bug_info.size(); i++) {
		const Bug bug = static_cast<Bug>(i);
		const Bugs bugs = Bugs{}.set(bug);
		const std::string caught = failing(properties, bug);
		const std::string proofs = failing(proved, bug);
		const Result w = timed([&] { return fuzz_workload(bugs); });
		const Result d = timed([&] { return fuzz_differential(bugs); });
		std::string broken;
		for (const Detector* g : goldens) {
			const bool holds = g->holds(bugs);
			if (!holds)
				broken += (broken.empty() ? "" : ", ") + std::string(g->name);
			if (const props::Expectation* e = expectation(*g, bug); e && holds)
				unmet.push_back(props::expectation_name(*g, *e) + ": the golden schedule still holds");
		}
		if (caught.empty() && !w.cases && !d.cases && broken.empty() && proofs.empty())
			gaps.push_back(std::string(bug_info[i].name));
		std::printf("| `%s` | %s | %s | %s | %s | %s | %s |\n", std::string(bug_info[i].name).c_str(),
			    std::string(bug_info[i].commit).c_str(), caught.empty() ? "—" : caught.c_str(),
			    cell(w, "input", timing).c_str(), cell(d, "input", timing).c_str(),
			    broken.empty() ? "—" : broken.c_str(), proofs.empty() ? "—" : proofs.c_str());
		std::fflush(stdout);
	}
	std::printf("\nWhat each bug is:\n\n");
	for (const BugInfo& b : bug_info)
		std::printf("- `%s` (%s): %s.\n", std::string(b.name).c_str(), std::string(b.commit).c_str(),
			    std::string(b.what).c_str());
	std::printf("\n## Gaps\n\n");
	if (gaps.empty())
		std::printf("None: every bug is caught by at least one checker within the budgets above.\n");
	for (const std::string& g : gaps)
		std::printf("- `%s`: no checker catches it within the budgets above.\n", g.c_str());
	for (const std::string& u : unmet)
		std::fprintf(stderr, "bugzoo: props/bug_detectors.cpp expects that %s\n", u.c_str());
	return unmet.empty() ? 0 : 1;
}
