// SPDX-License-Identifier: GPL-2.0-only
#include "proofs/int_rules.hpp"

namespace eevdf::proofs::rules {

expr key_sum(const Queue& q)
{
	expr a = q.k.at(0).ctx().int_val(0);
	for (size_t i = 0; i < q.size(); i++)
		a = a + q.k[i] * q.w[i];
	return a;
}

expr weight_sum(const Queue& q)
{
	// Numeral weights sum to one numeral, so that k_x W stays a linear term
	// in an exported QF_LIA query.
	int64_t total = 0;
	bool numerals = true;
	for (const expr& x : q.w) {
		int64_t v = 0;
		numerals = numerals && x.is_numeral() && x.is_numeral_i64(v);
		total += v;
	}
	if (numerals)
		return q.k.at(0).ctx().int_val(total);
	expr w = q.k.at(0).ctx().int_val(0);
	for (size_t i = 0; i < q.size(); i++)
		w = w + q.w[i];
	return w;
}

expr eligible_key(const Queue& q, const expr& kx, bool strict)
{
	return strict ? key_sum(q) > kx * weight_sum(q) : key_sum(q) >= kx * weight_sum(q);
}

expr spec_pick(const Queue& q, size_t x)
{
	expr e = eligible(q, x);
	for (size_t y = 0; y < q.size(); y++)
		if (y != x)
			e = e && z3::implies(eligible(q, y), q.d[x] <= q.d[y]);
	return e;
}

expr curr_kept(const Queue& q, size_t c)
{
	expr e = eligible(q, c);
	for (size_t j = 0; j < q.size(); j++)
		if (j != c)
			e = e && z3::implies(eligible(q, j), q.d[c] < q.d[j]);
	return e;
}

expr protected_curr(const Queue& q, size_t c, const expr& vprot_key) { return eligible(q, c) && q.k[c] < vprot_key; }

Step update_curr_step(const expr& v, const expr& d, const expr& a, const expr& vslice, const expr& vprot, bool strict)
{
	const expr v2 = v + a;
	const expr renew = strict ? v2 > d : v2 >= d;
	return Step{v2, z3::ite(renew, v2 + vslice, d), renew, renew || v2 >= vprot};
}

expr avg_floor(const expr& A, const expr& W, const expr& q, const expr& rem, bool truncating)
{
	const expr Ap = truncating ? A : z3::ite(A < 0, A - (W - 1), A);
	return Ap == q * W + rem && z3::implies(Ap >= 0, rem >= 0 && rem < W) && z3::implies(Ap < 0, rem > -W && rem <= 0);
}

}  // namespace eevdf::proofs::rules
