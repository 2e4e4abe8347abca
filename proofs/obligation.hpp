// SPDX-License-Identifier: GPL-2.0-only
// One proof obligation of `eevdf prove` (prove.cpp runs them) and the
// replay that confirms a refutation on the simulator.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <z3++.h>

#include "model/simulation.hpp"
#include "proofs/query.hpp"

namespace eevdf::proofs {

struct RunObserver;  // run lengths and re-picks (run_observer.hpp)

// What a replay must show, measured on the simulation.
struct Replay {
	Config cfg;
	Workload wl;
	std::string what;  // the violation in words
	std::function<bool(const Simulation&, const RunObserver&, std::string&)> confirms;
	u64 seeds = 1;     // try seeds 0 .. seeds-1 (tick jitter)
};

struct Obligation {
	std::string name;
	std::string group;
	std::string claim;  // one line
	bool expect_proved;
	unsigned breaker;   // mutation that must break a proof
	// Adds Pre ∧ ¬Claim to q.s.
	std::function<void(Query&, unsigned mutation)> build;
	// For refutations: a replay from the model.
	std::function<std::optional<Replay>(Query&, const z3::model&)> replay;
	bool experimental = false;  // not in the default run: too slow or UNKNOWN within the budget (docs/proofs.md)
	const char* logic = "QF_BV";
	// For refutations not replayed as a workload: a replay on the model's own
	// objects (e.g. a CfsRq); true if the model shows the violation.
	std::function<bool(Query&, const z3::model&, std::string&)> direct_replay = nullptr;
	// For proofs: an executable-model cross-check (simulations), true if consistent.
	std::function<bool(std::string&)> crosscheck = nullptr;
	// An obligation split into `cases` independent queries (build_case(q, m, k)
	// for k < cases): PROVED iff every case is, REFUTED by the first sat case.
	// Each case is exported as NAME.k.smt2.
	size_t cases = 0;
	std::function<void(Query&, unsigned mutation, size_t k)> build_case = nullptr;
	// QF_BV only: bit-blast straight to SAT instead of the default solver
	// (faster where the query is a few adders and signed comparisons)
	bool bitblast = false;
	// Why a stock solver cannot re-check the exported file within the 10 s
	// of recheck_smt2.sh, measured (nullptr: both z3 and cvc5 do).
	const char* recheck_note = nullptr;
};

// Every obligation, in the order of `eevdf-prove --list` (obligations.cpp).
std::vector<Obligation> make_obligations();

// The families it lists, one file each.
std::vector<Obligation> run_obligations();       // 1-4: requests, re-picks, whole runs (run_obligations.cpp)
std::vector<Obligation> pick_obligations_bv();   // 6 over bit-vectors, run only when named (pick_obligations.cpp)
std::vector<Obligation> wakeup_obligations();    // 7: wake-up preemption and waits (wakeup_obligations.cpp)
std::vector<Obligation> nohz_obligations();      // 8: NO_HZ_FULL (nohz_obligations.cpp)
std::vector<Obligation> pick_obligations();      // 6: eligibility, lag sum, overflow, pick_spec (pick_obligations.cpp)
std::vector<Obligation> walk_obligations();      // 6: the tree walks of __pick_eevdf() (walk_obligations.cpp)
std::vector<Obligation> lag_obligations();       // 5 and run_weighted: lag bounds (lag_obligations.cpp)
// The balancer's decisions on a flat LLC (lb_obligations.cpp).
std::vector<Obligation> balance_obligations();

}  // namespace eevdf::proofs
