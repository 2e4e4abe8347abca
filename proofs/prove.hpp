// SPDX-License-Identifier: GPL-2.0-only
// `eevdf prove`: Z3 proof obligations over the symbolic encoding of the model
// (proofs/encoding.hpp); see docs/proofs.md for the theorems.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace eevdf::proofs {

// The default step budget of one solver call: twelve times the most a
// default obligation needs (extra_tick_nice, 16.7 M; docs/proofs.md,
// "Budget"), so load cannot make a proof UNKNOWN.
inline constexpr unsigned DEFAULT_RLIMIT = 200'000'000u;

struct Options {
	std::vector<std::string> names;    // empty: all obligations
	std::string smt2_dir;              // write each query as NAME.smt2 (and the verdicts) here
	unsigned rlimit = DEFAULT_RLIMIT;  // Z3 steps per solver call (query.hpp's Budget), 0: none
	unsigned timeout_s = 0;            // wall clock per solver call, 0: none
	bool list = false;                 // list the obligations and exit
	bool markdown = false;             // with list: as the statements table of docs/proofs.md
};

// 0 iff every obligation expected to hold is PROVED and every expected
// refutation is REFUTED (and its counterexample replays in the simulator).
int run_prove(const Options& opt, std::ostream& out);

// For the proofs' own tests and eevdf-prove.
struct ExtraOptions {
	unsigned mutation = 0;        // a proofs::Mutation: run against a deliberately broken encoding
	std::string workload_dir;     // where counterexample workloads go (default: smt2_dir or a temp dir)
	bool replay = true;           // replay counterexamples through eevdf::Simulation
	bool reload_workload = true;  // replay from the written rt-app file (load_rtapp_file), not the in-memory Workload
};
int run_prove(const Options& opt, const ExtraOptions& extra, std::ostream& out);

// Names of all obligations, and for each proved one the mutation that must break it.
struct ObligationInfo {
	std::string name;
	bool expect_proved;
	unsigned breaker;  // 0 for expected refutations
};
std::vector<ObligationInfo> obligation_infos();

}  // namespace eevdf::proofs
