// SPDX-License-Identifier: GPL-2.0-only
// Nanoseconds printed as milliseconds or microseconds with a fixed number
// of decimals, the same characters as printf("%.3f", ns / 1e6) and
// printf("%.1f", ns / 1e3), without printf's cost (a million-task table
// prints seven such numbers per row).
//
// With D = 10^(scale - decimals) ns per last printed digit, ns = q D + r.
// printf rounds x = fl(ns / 10^scale) to the nearest printed digit, and x is
// within x 2^-53 of the exact quotient; a tie point of the printed digits
// is at least 1 ns (10^-scale in x's unit) away from ns / 10^scale unless
// 2r = D. For ns < 2^52 that distance exceeds the error, so printf prints
// q + (2r > D): integer arithmetic gives the same digits. A tie (2r = D),
// where x's rounding error decides, and larger values go to snprintf.
#pragma once

#include <cstdio>
#include <string>

#include "model/types.hpp"

namespace eevdf::cli {

// Appends ns / 10^scale with `decimals` decimals (scale 6, 3: ms; 3, 1: µs).
inline void append_fixed(std::string& out, u64 ns, unsigned scale, unsigned decimals)
{
	u64 unit = 1;  // 10^decimals
	for (unsigned i = 0; i < decimals; i++)
		unit *= 10;
	u64 d = 1;  // D
	for (unsigned i = decimals; i < scale; i++)
		d *= 10;
	const u64 q = ns / d, r = ns % d;
	if (ns >= (u64{1} << 52) || 2 * r == d) {
		double div = 1;
		for (unsigned i = 0; i < scale; i++)
			div *= 10;
		char b[48];
		const int n = std::snprintf(b, sizeof b, "%.*f", static_cast<int>(decimals), static_cast<double>(ns) / div);
		out.append(b, static_cast<size_t>(n));
		return;
	}
	const u64 v = q + (2 * r > d ? 1 : 0);
	char b[32];
	int n = 0;
	u64 frac = v % unit, whole = v / unit;
	for (unsigned i = 0; i < decimals; i++, frac /= 10)
		b[n++] = static_cast<char>('0' + frac % 10);
	if (decimals)
		b[n++] = '.';
	do
		b[n++] = static_cast<char>('0' + whole % 10);
	while (whole /= 10);
	while (n)
		out += b[--n];
}

inline void append_ms(std::string& out, u64 ns) { append_fixed(out, ns, 6, 3); }
inline void append_us(std::string& out, u64 ns) { append_fixed(out, ns, 3, 1); }

}  // namespace eevdf::cli
