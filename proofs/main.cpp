// SPDX-License-Identifier: GPL-2.0-only
// eevdf-prove: the proofs' own driver (the CLI wires the same run_prove()).
//   eevdf-prove [--list [--markdown]] [NAME...] [--smt2 DIR] [--rlimit N] [--timeout S]
//               [--mutate MUT] [--workload-dir DIR] [--no-replay]
//               [--check-encoding N [--seed S]] [--check-terms N [--seed S]]
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <exception>
#include <iostream>

#include "proofs/encoding.hpp"
#include "proofs/lb_encoding.hpp"
#include "proofs/prove.hpp"
#include "proofs/term_check.hpp"
#include "proofs/tree_walk.hpp"

using namespace eevdf::proofs;

namespace {

// A whole number for `flag`, or exit 2 naming the flag and the value.
unsigned long long whole_number(const std::string& flag, const std::string& v)
{
	char* end = nullptr;
	errno = 0;
	const unsigned long long x = v.empty() || v[0] == '-' ? 0 : std::strtoull(v.c_str(), &end, 10);
	if (v.empty() || v[0] == '-' || errno || !end || *end) {
		std::cerr << "eevdf-prove: " << flag << ": '" << v << "' is not a whole number\n";
		std::exit(2);
	}
	return x;
}

}  // namespace

int main(int argc, char** argv)
{
	Options opt;
	ExtraOptions extra;
	unsigned long long check = 0, terms = 0, seed = 1;
	for (int i = 1; i < argc; i++) {
		const std::string a = argv[i];
		auto next = [&]() -> std::string {
			if (i + 1 >= argc) {
				std::cerr << "eevdf-prove: " << a << " needs a value\n";
				std::exit(2);
			}
			return argv[++i];
		};
		if (a == "--list")
			opt.list = true;
		else if (a == "--markdown")
			opt.markdown = true;
		else if (a == "--smt2")
			opt.smt2_dir = next();
		else if (a == "--timeout") {
			const unsigned long long t = whole_number(a, next());
			if (t < 1 || t > 86400) {
				std::cerr << "eevdf-prove: --timeout: " << t << " s is outside 1..86400\n";
				return 2;
			}
			opt.timeout_s = static_cast<unsigned>(t);
		} else if (a == "--rlimit") {
			const unsigned long long r = whole_number(a, next());
			if (r > 4'000'000'000ULL) {
				std::cerr << "eevdf-prove: --rlimit: " << r << " is outside 0..4000000000\n";
				return 2;
			}
			opt.rlimit = static_cast<unsigned>(r);
		} else if (a == "--workload-dir")
			extra.workload_dir = next();
		else if (a == "--no-replay")
			extra.replay = false;
		else if (a == "--mutate") {
			const std::string m = next();
			for (unsigned b : std::initializer_list<unsigned>{MUT_DEADLINE_FROM_OLD, MUT_ELIGIBLE_STRICT, MUT_NR_QUEUED_OFF_BY_ONE, MUT_RENEW_STRICT,
					   MUT_WAKEUP_IGNORE_SHORT, MUT_NO_RESCHED_RENEWAL, MUT_PICK_NO_CURR_FALLBACK, MUT_AVG_TRUNC,
					   MUT_EXEC_START_STALE, MUT_PROTECT_MAX, MUT_RENEW_PROTECT, MUT_LB_IDLE_NEEDS_OVERLOADED,
					   MUT_LB_PCT_STRICT, MUT_WALK_NODE_FIRST, MUT_WALK66_PREFIX})
				if (mutation_name(b) == m)
					extra.mutation = b;
			if (!extra.mutation) {
				std::cerr << "eevdf-prove: unknown mutation " << m << "\n";
				return 2;
			}
		} else if (a == "--breakers") {
			// each proved obligation against the mutation that must break it
			int rc = 0;
			for (const ObligationInfo& o : obligation_infos()) {
				if (!o.expect_proved)
					continue;
				Options one = opt;
				one.names = {o.name};
				ExtraOptions ex = extra;
				ex.mutation = o.breaker;
				const int r = run_prove(one, ex, std::cout);
				std::cout << "  -> " << (r == 0 ? "broken model detected" : "NOT DETECTED") << "\n";
				rc |= r;
			}
			return rc;
		} else if (a == "--check-encoding")
			check = whole_number(a, next());
		else if (a == "--check-terms")
			terms = whole_number(a, next());
		else if (a == "--seed")
			seed = whole_number(a, next());
		else if (a.rfind("--", 0) == 0) {
			std::cerr << "eevdf-prove: unknown option " << a << "\n";
			return 2;
		} else
			opt.names.push_back(a);
	}
	if (terms) {
		const TermCheckStats st = check_terms(terms, seed, std::cout, extra.mutation ? 1 : 5, extra.mutation);
		std::cout << "term check: " << st.sims << " simulations, " << st.states << " queue states and " << st.steps
			  << " ticks, " << st.comparisons << " comparisons of the integer rules' Z3 terms with the model, "
			  << st.mismatches << " mismatches (" << st.overflow << " states outside the no-overflow precondition), "
			  << st.seconds << " s\n";
		if (extra.mutation)  // broken rules must be caught
			return st.mismatches > 0 ? 0 : 1;
		return st.mismatches == 0 && st.steps > 0 ? 0 : 1;
	}
	if (check) {
		const CheckStats st = check_encoding(check, seed, std::cout, extra.mutation ? 1 : 5, extra.mutation);
		std::cout << "encoding check: " << st.states << " random states, " << st.comparisons
			  << " comparisons, " << st.mismatches << " mismatches (" << st.wrapped_states
			  << " states straddle the u64 wrap, " << st.overflow_states << " with keys spread to 2^52, "
			  << st.rule_overflow_states << " outside the integer rules' no-overflow precondition), "
			  << st.seconds << " s\n";
		const unsigned long long lb = check_lb_encoding(check, seed, std::cout, extra.mutation);
		std::cout << "balancer encoding check: " << check << " random flat inputs, " << lb << " mismatches\n";
		// the tree walks on the model's own trees, half 6.18 and half 6.6
		const WalkCheckStats ws = check_walk_encoding(check, seed, 6, std::cout, extra.mutation ? 1 : 5, extra.mutation);
		std::cout << "walk encoding check: " << ws.states << " model trees of height <= 6 (" << ws.too_tall
			  << " taller skipped), " << ws.comparisons << " picks compared, " << ws.mismatches << " mismatches\n";
		if (extra.mutation)  // a broken encoding must be caught
			return st.mismatches + lb + ws.mismatches > 0 ? 0 : 1;
		return st.mismatches == 0 && lb == 0 && ws.mismatches == 0 && st.states >= check && ws.states > check / 2 ? 0
															  : 1;
	}
	try {
		return run_prove(opt, extra, std::cout);
	} catch (const std::exception& e) {  // an --smt2 or counterexample file that cannot be written
		std::cerr << "eevdf-prove: " << e.what() << "\n";
		return 2;
	}
}
