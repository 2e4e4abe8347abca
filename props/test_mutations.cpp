// SPDX-License-Identifier: GPL-2.0-only
// Each property, golden schedule and proved statement must catch a
// deliberately broken model: with a historical bug or a mutation switched
// in (model/bugs.hpp), the bugs the bug × detector table gives it
// (props/bug_detectors.cpp) must make it fail. One TEST_CASE per
// expectation, named for it: "the checker property catches a truncating
// avg_vruntime". docs/findings.md explains the catches.
#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include "props/bug_detectors.hpp"
#include "props/expectation_tests.hpp"

using namespace eevdf;
using namespace eevdf::props;

namespace {

// True when RapidCheck finds a counterexample to `t` (output suppressed).
bool catches(const Testable& t)
{
	const auto result = rc::detail::checkTestable(t);
	return !result.template is<rc::detail::SuccessResult>();
}

Bugs bug(Bug b) { return Bugs{}.set(b); }

// A property or a proved statement: a counterexample with the bug.
void counterexample_found(const Detector& d, const Expectation& e) { CHECK(catches(d.testable(bug(e.bug)))); }

// A golden schedule: it holds on the model, and not with the bug.
void golden_broken(const Detector& d, const Expectation& e)
{
	REQUIRE(d.holds(Bugs{}));
	CHECK_FALSE(d.holds(bug(e.bug)));
}

const bool registered =
	register_expectation_tests(DetectorKind::Property, counterexample_found, "[mutations]",
				   CATCH_INTERNAL_LINEINFO) &&
	register_expectation_tests(DetectorKind::Golden, golden_broken, "[mutations]", CATCH_INTERNAL_LINEINFO) &&
	register_expectation_tests(DetectorKind::Proved, counterexample_found, "[mutations]", CATCH_INTERNAL_LINEINFO);

}  // namespace
