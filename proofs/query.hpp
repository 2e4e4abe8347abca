// SPDX-License-Identifier: GPL-2.0-only
// One proof query: a Z3 solver, its variables and the values a
// counterexample shows; shared by the obligations (*_obligations.cpp) and the
// integer-level invariants (invariants.cpp).
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <z3++.h>

#include "model/config.hpp"

namespace eevdf::proofs {

using z3::expr;

// What one solver call may spend. The rlimit counts Z3's own steps, so a
// busy machine cannot turn a proof UNKNOWN; the wall-clock timeout is off
// unless asked for (--timeout). 0 = no limit.
struct Budget {
	unsigned rlimit = 0;
	unsigned timeout_s = 0;
	void apply(z3::solver& s) const
	{
		z3::params p(s.ctx());
		if (rlimit)
			p.set("rlimit", rlimit);
		if (timeout_s)
			p.set("timeout", timeout_s * 1000u);
		s.set(p);
	}
};

// Z3's step count of the solver's last check ("rlimit count"), 0 if absent.
inline unsigned long long rlimit_used(z3::solver& s)
{
	const z3::stats st = s.statistics();
	for (unsigned i = 0; i < st.size(); i++)
		if (st.key(i) == "rlimit count")
			return static_cast<unsigned long long>(st.is_uint(i) ? st.uint_value(i) : st.double_value(i));
	return 0;
}

struct Query {
	z3::context& c;
	z3::solver s;
	std::vector<std::pair<std::string, expr>> shown;

	Query(z3::context& ctx, const Budget& b, const char* logic = "QF_BV") : c(ctx), s(ctx, logic) { b.apply(s); }
	expr var(const std::string& n) { return c.bv_const(n.c_str(), 64); }
	expr ivar(const std::string& n) { return c.int_const(n.c_str()); }
	expr ival(s64 x) { return c.int_val(static_cast<int64_t>(x)); }
	expr bv(u64 x) { return c.bv_val(static_cast<uint64_t>(x), 64); }
	expr show(const std::string& n, expr e)
	{
		shown.emplace_back(n, e);
		return e;
	}
	expr in(const expr& x, u64 lo, u64 hi) { return z3::uge(x, bv(lo)) && z3::ule(x, bv(hi)); }
	expr one_of(const expr& x, std::initializer_list<u64> vals)
	{
		expr r = c.bool_val(false);
		for (u64 v : vals)
			r = r || x == bv(v);
		return r;
	}
};

// A value of the model (bit-vector or integer) as u64.
inline u64 val(const z3::model& m, const expr& e)
{
	const expr x = m.eval(e, true);
	if (x.is_int())
		return static_cast<u64>(x.get_numeral_int64());
	return x.get_numeral_uint64();
}

// The 6.18 preset at (hz, slice): the configuration of every replay and
// cross-check.
inline Config config_for(u32 hz, u64 slice)
{
	Config cfg = make_config(*find_preset("6.18"), hz);
	cfg.base_slice_ns = slice;
	return cfg;
}

}  // namespace eevdf::proofs
