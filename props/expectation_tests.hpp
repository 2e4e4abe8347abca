// SPDX-License-Identifier: GPL-2.0-only
// The tests of the bug × detector table (bug_detectors.hpp): one Catch
// TEST_CASE per expectation, registered at start-up as TEST_CASE registers
// its own and named by expectation_name(), so that each runs and reports
// on its own (ctest lists each).
#pragma once

#include <catch2/catch.hpp>

#include "props/bug_detectors.hpp"

namespace eevdf::props {

// Asserts that detector `d` catches `e.bug`.
using ExpectationCheck = void (*)(const Detector& d, const Expectation& e);

class ExpectationTest : public Catch::ITestInvoker {
public:
	ExpectationTest(const Detector& d, const Expectation& e, ExpectationCheck check)
		: detector_(d), expectation_(e), check_(check)
	{}
	void invoke() const override { check_(detector_, expectation_); }

private:
	const Detector& detector_;  // an element of bug_detectors(), which lives to the end
	Expectation expectation_;
	ExpectationCheck check_;
};

// Registers a test of every expectation of the detectors of `kind`, tagged
// `tags` (and [smp] for the detectors that run several CPUs).
inline bool register_expectation_tests(DetectorKind kind, ExpectationCheck check, const char* tags,
				       const Catch::SourceLineInfo& where)
{
	for (const Detector& d : bug_detectors())
		if (d.kind == kind)
			for (const Expectation& e : d.catches)
				Catch::AutoReg(new ExpectationTest(d, e, check), where, Catch::StringRef(),
					       Catch::NameAndTags(expectation_name(d, e),
								  std::string(tags) + (d.smp ? "[smp]" : "")));
	return true;
}

}  // namespace eevdf::props
