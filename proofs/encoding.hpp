// SPDX-License-Identifier: GPL-2.0-only
// A symbolic encoding of the model's EEVDF functions (model/fair.cpp, the
// kernel 6.18 preset) over 64-bit bit-vectors, for Z3.
//
// Every function below mirrors the CfsRq method of the same name, branch for
// branch: u64/s64 arithmetic is bit-vector arithmetic (wrap-around included),
// `(s64)(a - b) < 0` is bvslt on the wrapped difference, div_s64 is bvsdiv
// (C truncation), and __calc_delta's 96-bit product is a 128-bit product.
// Structural choices (how many entities, whether there is a curr, which
// feature flags, each entity's weight) are C++ parameters; every value is a
// z3::expr, so the same code builds the proof terms (symbolic inputs) and the
// terms that check.cpp evaluates on concrete inputs against the model.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <z3++.h>

#include "model/config.hpp"
#include "model/weights.hpp"

namespace eevdf::proofs {

// Deliberately broken variants of the encoding, to show that each proof
// depends on the modelled behaviour ("each proof fails on a broken model").
enum Mutation : unsigned {
	MUT_NONE = 0,
	MUT_DEADLINE_FROM_OLD = 1u << 0,  // update_deadline: d = d_old + vslice instead of v + vslice
	MUT_ELIGIBLE_STRICT = 1u << 1,    // vruntime_eligible: avg > key*W (off by one: v < V)
	MUT_NR_QUEUED_OFF_BY_ONE = 1u << 2,  // update_curr: no resched unless nr_queued > 2
	MUT_RENEW_STRICT = 1u << 3,       // update_deadline renews only when v > d, protection while v <= vprot
	MUT_WAKEUP_IGNORE_SHORT = 1u << 4,  // check_preempt_wakeup_fair: PREEMPT_SHORT ignored (waker judged with curr's protection)
	MUT_NO_RESCHED_RENEWAL = 1u << 5,   // update_curr: a renewal alone does not request a resched (O5's integer step)
	MUT_PICK_NO_CURR_FALLBACK = 1u << 6,  // __pick_eevdf: no fallback to an eligible curr when the tree has none
	MUT_AVG_TRUNC = 1u << 7,            // avg_vruntime: truncating division (650cad561cce reverted)
	MUT_EXEC_START_STALE = 1u << 8,     // update_curr: exec_start not advanced (the same delta charged again)
	MUT_PROTECT_MAX = 1u << 9,          // update_protect_slice: vprot = max(vprot, v + vslice) (extends protection)
	MUT_RENEW_PROTECT = 1u << 10,       // update_deadline: a renewal also protects the new request (vprot = d)
};
std::string mutation_name(unsigned m);

// __calc_delta(delta, NICE_0_LOAD, lw) = (delta * fact) >> shift, with fact
// and shift normalised from lw.inv_weight exactly as the kernel does.
struct CdfParams {
	bool identity = true;  // lw.weight == NICE_0_LOAD: calc_delta_fair is the identity
	u64 fact = 0;          // < 2^32
	unsigned shift = 32;
};
CdfParams cdf_params(const LoadWeight& lw);

// Configuration values that may be symbolic (base slice, TICK_NSEC) and the
// structural ones that are not (features, preset paths).
struct SymConfig {
	z3::expr base_slice;
	z3::expr tick;
	Features features;
	u64 normalized_base_slice = 700000;
	unsigned mutation = MUT_NONE;
};

struct SymSE {
	z3::expr v, d, vprot, slice, vlag, exec_start, sum_exec;
	z3::expr w;  // scale_load_down(load.weight), as a bv64
	CdfParams cdf;
	bool custom_slice = false;
	bool rel_deadline = false;
};

struct SymRq {
	z3::expr v0, sum, avg_load, nr_queued, clock;
	std::vector<SymSE> tree;  // in insertion order: index = FIFO rank among equal deadlines
	std::optional<SymSE> curr;
	bool curr_on_rq = true;
	z3::expr need_resched;
};

// Pick results: an index into tree, PICK_CURR, or PICK_NONE.
inline constexpr unsigned PICK_CURR = 254, PICK_NONE = 255;

class Enc {
public:
	Enc(z3::context& c, SymConfig cfg) : c_(c), cfg_(std::move(cfg)) {}

	z3::context& ctx() const { return c_; }
	const SymConfig& cfg() const { return cfg_; }
	z3::expr bv(u64 x) const { return c_.bv_val(static_cast<uint64_t>(x), 64); }
	z3::expr var(const std::string& name) const { return c_.bv_const(name.c_str(), 64); }

	z3::expr calc_delta_fair(const z3::expr& delta, const CdfParams& p) const;
	static z3::expr min_vruntime(const z3::expr& a, const z3::expr& b) { return z3::ite(z3::slt(a - b, 0), a, b); }

	z3::expr entity_key(const SymRq& rq, const z3::expr& v) const { return v - rq.v0; }
	z3::expr avg_vruntime(const SymRq& rq) const;
	z3::expr vruntime_eligible(const SymRq& rq, const z3::expr& v) const;
	z3::expr cfs_rq_min_slice(const SymRq& rq) const;

	// update_deadline(se): returns "renewed"; updates se.
	z3::expr update_deadline(SymSE& se) const;
	void update_min_vruntime(SymRq& rq) const;
	// update_curr() at rq.clock; ORs the resched request into rq.need_resched.
	void update_curr(SymRq& rq) const;
	void entity_tick(SymRq& rq) const { update_curr(rq); }  // entity_tick(queued = 0)

	z3::expr protect_slice(const SymSE& se) const;
	void set_protect_slice(const SymRq& rq, SymSE& se) const;

	// __pick_eevdf(protect): an 8-bit index (tree index, PICK_CURR or PICK_NONE).
	z3::expr pick_eevdf(const SymRq& rq, bool protect) const;
	z3::expr pick_eevdf(const SymRq& rq, const z3::expr& protect) const;

	void place_entity(const SymRq& rq, SymSE& se, bool initial) const;

	// update_protect_slice(se) (6.17+): vprot = min(vprot, v + cdf(min slice)).
	void update_protect_slice(const SymRq& rq, SymSE& se) const;
	// Its core for a given vslice = cdf(min slice): vprot = min_vruntime(vprot, v + vslice).
	void limit_protect_slice(SymSE& se, const z3::expr& vslice) const;
	// cancel_protect_slice(se): if protected, vprot = v.
	void cancel_protect_slice(SymSE& se) const;
	// check_preempt_wakeup_fair(pse) (6.17+ vprot path) for pse = rq.tree[pse]
	// (already enqueued), curr on the queue; ORs the resched into
	// rq.need_resched and updates curr. Returns the pick it compared.
	z3::expr check_preempt_wakeup_fair(SymRq& rq, unsigned pse) const;

private:
	z3::expr entity_before(const SymSE& a, const SymSE& b) const { return z3::slt(a.d - b.d, 0); }
	z3::context& c_;
	SymConfig cfg_;
};

// The encoding-vs-model check: `states` random concrete cfs_rq states; each
// function of Enc evaluated on them (z3 simplify of the same terms the
// proofs use, built on numerals) against the model's CfsRq methods.
struct CheckStats {
	u64 states = 0, comparisons = 0, mismatches = 0;
	u64 wrapped_states = 0;   // states whose vruntimes straddle the u64 wrap
	u64 overflow_states = 0;  // states with key * weight products that overflow s64
	u64 rule_overflow_states = 0;  // of them, queues the integer rules skip (outside their precondition)
	double seconds = 0;
};
CheckStats check_encoding(u64 states, u64 seed, std::ostream& out, unsigned max_report = 5,
			  unsigned mutation = MUT_NONE);

}  // namespace eevdf::proofs
