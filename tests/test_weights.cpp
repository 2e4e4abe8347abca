// SPDX-License-Identifier: GPL-2.0-only
// Fixed-point arithmetic of kernel/sched/fair.c, checked against values
// computed by hand from the kernel's formulas.
#include <catch2/catch.hpp>

#include "model/types.hpp"
#include "model/weights.hpp"

using namespace eevdf;

TEST_CASE("TICK_NSEC rounds 1e9/HZ to the nearest ns", "[weights]")
{
	CHECK(tick_nsec(1000) == 1'000'000);
	CHECK(tick_nsec(250) == 4'000'000);
	CHECK(tick_nsec(300) == 3'333'333);
	CHECK(tick_nsec(100) == 10'000'000);
	CHECK(tick_nsec(1024) == 976'563);  // (1e9 + 512) / 1024
}

TEST_CASE("nice 0 runs virtual time at real time", "[weights]")
{
	LoadWeight lw = task_load_weight(0);
	CHECK(lw.weight == NICE_0_LOAD);
	CHECK(calc_delta_fair(1'234'567, lw) == 1'234'567);
}

TEST_CASE("nice +1 scales 1 ms to 1248780 ns through the inverse weight", "[weights]")
{
	// fact = 1024 * 5237765 = 5363471360 > 2^32, so fs = 1, shift = 31:
	// (1e6 * 2681735680) >> 31 = 1248780 (exact value 1248780.49).
	LoadWeight lw = task_load_weight(1);
	CHECK(lw.weight == 820ULL << 10);
	CHECK(calc_delta_fair(1'000'000, lw) == 1'248'780);
}

TEST_CASE("nice -20 scales through a fact that fits 32 bits", "[weights]")
{
	// fact = 1024 * 48388 = 49549312; (1e6 * 49549312) >> 32 = 11536.
	LoadWeight lw = task_load_weight(-20);
	CHECK(calc_delta_fair(1'000'000, lw) == (1'000'000ULL * 49'549'312ULL) >> 32);
}

TEST_CASE("the table inverse weight differs from the lazily computed one", "[weights]")
{
	LoadWeight table = task_load_weight(5);  // 335, wmult 12820798
	LoadWeight lazy{335ULL << 10, 0};       // inv = 0xffffffff / 335 = 12820798
	CHECK(table.inv_weight == 12'820'798);
	calc_delta_fair(1, lazy);
	CHECK(lazy.inv_weight == 0xffffffffULL / 335);
	LoadWeight n0{NICE_0_LOAD, 0};
	calc_delta(1, NICE_0_LOAD / 2, n0);
	CHECK(n0.inv_weight == 4'194'303);  // not the table's 4194304
}

TEST_CASE("scale_load_down floors a non-zero weight at 2", "[weights]")
{
	CHECK(scale_load_down(0) == 0);
	CHECK(scale_load_down(1) == 2);
	CHECK(scale_load_down(15ULL << 10) == 15);
}

TEST_CASE("wrapped comparison orders values across 2^64", "[weights]")
{
	const u64 before = ~0ULL - 10, after = 5;
	CHECK(wrapped_diff(after, before) == 16);
	CHECK(min_vruntime(before, after) == before);
	CHECK(max_vruntime(before, after) == after);
}
