// SPDX-License-Identifier: GPL-2.0-only
// struct cpumask for up to MAX_CPUS CPUs: a fixed bitmap, no allocation,
// with the iteration orders the scheduler relies on (for_each_cpu in
// ascending order, for_each_cpu_wrap starting at a given CPU).
#pragma once

#include <array>
#include <bit>

#include "model/types.hpp"

namespace eevdf {

inline constexpr u32 MAX_CPUS = 256;

class CpuMask {
public:
	static CpuMask first_n(u32 n)
	{
		CpuMask m;
		for (u32 c = 0; c < n; c++)
			m.set(c);
		return m;
	}
	static CpuMask of(u32 cpu)
	{
		CpuMask m;
		m.set(cpu);
		return m;
	}

	void set(u32 cpu) { w_[cpu / 64] |= bit(cpu); }
	void clear(u32 cpu) { w_[cpu / 64] &= ~bit(cpu); }
	bool test(u32 cpu) const { return cpu < MAX_CPUS && (w_[cpu / 64] & bit(cpu)); }
	bool empty() const
	{
		for (u64 x : w_)
			if (x)
				return false;
		return true;
	}
	u32 weight() const
	{
		u32 n = 0;
		for (u64 x : w_)
			n += static_cast<u32>(std::popcount(x));
		return n;
	}
	// The first set CPU at or after `from`, or MAX_CPUS.
	u32 next(u32 from) const
	{
		for (u32 i = from / 64; from < MAX_CPUS && i < WORDS; i++, from = i * 64) {
			const u64 x = w_[i] & (~0ULL << (from % 64));
			if (x)
				return i * 64 + static_cast<u32>(std::countr_zero(x));
		}
		return MAX_CPUS;
	}
	u32 first() const { return next(0); }
	bool subset_of(const CpuMask& o) const
	{
		for (u32 i = 0; i < WORDS; i++)
			if (w_[i] & ~o.w_[i])
				return false;
		return true;
	}
	bool intersects(const CpuMask& o) const
	{
		for (u32 i = 0; i < WORDS; i++)
			if (w_[i] & o.w_[i])
				return true;
		return false;
	}
	CpuMask operator&(const CpuMask& o) const
	{
		CpuMask m;
		for (u32 i = 0; i < WORDS; i++)
			m.w_[i] = w_[i] & o.w_[i];
		return m;
	}
	CpuMask operator|(const CpuMask& o) const
	{
		CpuMask m;
		for (u32 i = 0; i < WORDS; i++)
			m.w_[i] = w_[i] | o.w_[i];
		return m;
	}
	// cpumask_andnot(): this without o's CPUs.
	CpuMask andnot(const CpuMask& o) const
	{
		CpuMask m;
		for (u32 i = 0; i < WORDS; i++)
			m.w_[i] = w_[i] & ~o.w_[i];
		return m;
	}
	bool operator==(const CpuMask&) const = default;

	// for_each_cpu(): ascending.
	template <class F>
	void for_each(F&& f) const
	{
		for (u32 c = first(); c < MAX_CPUS; c = next(c + 1))
			f(c);
	}
	// for_each_cpu_wrap(): from `start` upwards, then from 0 up to start.
	template <class F>
	void for_each_wrap(u32 start, F&& f) const
	{
		for (u32 c = next(start); c < MAX_CPUS; c = next(c + 1))
			f(c);
		for (u32 c = first(); c < start; c = next(c + 1))
			f(c);
	}

private:
	static constexpr u32 WORDS = MAX_CPUS / 64;
	static constexpr u64 bit(u32 cpu) { return 1ULL << (cpu % 64); }
	std::array<u64, WORDS> w_{};
};

}  // namespace eevdf
