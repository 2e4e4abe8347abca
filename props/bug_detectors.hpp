// SPDX-License-Identifier: GPL-2.0-only
// The bug × detector table: which historical bug or mutation of
// model/bugs.hpp each detector of a broken model is expected to catch. The
// detectors are the properties (properties.hpp), the golden schedules
// (goldens.hpp), the proved statements fed to the model
// (proved_statements.hpp) and the decision oracle on hand-made workloads
// (oracle/decision_oracle.hpp). One table drives all that states a catch:
//  - props/test_mutations.cpp: a TEST_CASE per expectation of a property,
//    a golden schedule or a proved statement;
//  - props/test_decision_oracle.cpp: a TEST_CASE per expectation of the
//    oracle's workloads;
//  - fuzz/bugzoo.cpp (docs/bugzoo.md): its rows of props, goldens and
//    proofs, and a check that every expectation of those shows in it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/bugs.hpp"
#include "model/workload.hpp"
#include "props/properties.hpp"

namespace eevdf::props {

enum class DetectorKind {
	Property,  // RapidCheck finds a counterexample to the property
	Golden,  // the golden schedule, which holds on the model, no longer holds
	Proved,  // RapidCheck finds a counterexample to the proved statement
	Oracle,  // the decision oracle disagrees with the model on some preset
};

// A hand-made workload the decision oracle runs in lockstep with the model
// on every preset, at `hz` with WAKEUP_PREEMPTION as given.
struct OracleScenario {
	Workload (*workload)() = nullptr;
	u32 hz = 250;
	bool wakeup_preemption = true;
};

struct Expectation {
	Bug bug;
	// The invariant checker running inside the detector stops the run
	// before the detector's own statement fails (the bug zoo's "by the
	// invariant check").
	bool through_invariant_check = false;
};

// The bug zoo's budget of RapidCheck cases per property or proved
// statement, and for the costliest several-CPU properties.
inline constexpr int ZOO_CASES = 200;
inline constexpr int ZOO_SMP_CASES = 50;

struct Detector {
	DetectorKind kind;
	const char* name;  // as docs/bugzoo.md names it
	const char* subject;  // how a test names it: "the checker property catches"
	std::vector<Expectation> catches;
	Testable (*testable)(Bugs) = nullptr;  // Property, Proved
	bool (*holds)(Bugs) = nullptr;  // Golden
	OracleScenario scenario{};  // Oracle
	int zoo_cases = ZOO_CASES;  // the bug zoo's budget of cases (Property, Proved)
	bool smp = false;  // runs several CPUs
};

// Every detector; within each kind in the bug zoo's order.
const std::vector<Detector>& bug_detectors();

// The model with `b` switched in, as a test names it: "a truncating avg_vruntime".
std::string_view broken_model(Bug b);

// The name of the test of one expectation: "the checker property catches
// a truncating avg_vruntime", with " (through the invariant check)".
std::string expectation_name(const Detector& d, const Expectation& e);

}  // namespace eevdf::props
