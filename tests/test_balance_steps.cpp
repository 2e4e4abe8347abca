// SPDX-License-Identifier: GPL-2.0-only
// The load balancer's pure steps on constructed numbers
// (model/balance*.cpp): group_classify(), calculate_imbalance(),
// sched_balance_find_src_group()'s decision and get_sd_balance_interval().
#include <catch2/catch.hpp>

#include "balance_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;
using namespace eevdf::test::balance_cases;

// ---------------------------------------------------------------- the pure steps

// group_classify() of one CPU (capacity 1024, pct 117): has_spare until
// util reaches 876 (875 * 117 = 102,375 < 102,400) or runnable 1199
// (1198 * 100 <= 1024 * 117 = 119,808); with one task beyond either it is
// fully_busy, with two overloaded; an sgc->imbalance flag outranks
// everything but overloaded.
TEST_CASE("group_classify: the 117% thresholds on one CPU", "[balance]")
{
	CHECK(lb::group_classify(117, false, cpu_stats(0, 0, 0)) == GroupType::has_spare);
	CHECK(lb::group_classify(117, false, cpu_stats(1, 875, 875)) == GroupType::has_spare);
	CHECK(lb::group_classify(117, false, cpu_stats(1, 876, 876)) == GroupType::fully_busy);
	CHECK(lb::group_classify(117, false, cpu_stats(1, 500, 1199)) == GroupType::fully_busy);
	CHECK(lb::group_classify(117, false, cpu_stats(2, 875, 1198)) == GroupType::has_spare);
	CHECK(lb::group_classify(117, false, cpu_stats(2, 876, 900)) == GroupType::overloaded);
	CHECK(lb::group_classify(117, false, cpu_stats(2, 500, 1199)) == GroupType::overloaded);
	CHECK(lb::group_classify(117, true, cpu_stats(1, 100, 100)) == GroupType::imbalanced);
	CHECK(lb::group_classify(117, true, cpu_stats(2, 1024, 2048)) == GroupType::overloaded);
}

// calculate_imbalance() with a local group that has spare capacity.
// - MC (SD_SHARE_LLC), groups of one CPU: migrate_task, half the difference
//   in tasks for an idle dst (3 -> 1), nothing for a busy one.
// - PKG (no SD_SHARE_LLC) against an overloaded group: migrate_util, the
//   local spare capacity (2048 - 300 = 1748); with none left and an idle
//   dst, one task.
// - prefer_sibling between groups of 2 and 2 cores: (2 - 0) >> 1 = 1;
//   between 4 local and 2 busiest cores with 3 tasks there:
//   (2 * (4 * 3) + 6) / 6 = 5, >> 1 = 2; 1 local core against 4 with 2
//   tasks rounds to 1 but an empty local group takes 2: >> 1 = 1.
// - neither: the difference in idle CPUs, (3 - 1) >> 1 = 1, and as the
//   kernel's unsigned int subtraction when local has fewer:
//   (2^32 - 1) >> 1 (not reachable on this topology: every level above MC
//   has prefer_sibling).
TEST_CASE("calculate_imbalance: the has_spare branches", "[balance]")
{
	lb::SdLbStats sds;
	sds.local_stat = cpu_stats(0, 0, 0);
	sds.busiest_stat = cpu_stats(3, 1024, 3072, 3072);
	sds.busiest_stat.group_type = GroupType::overloaded;
	sds.local_cores = sds.busiest_cores = 1;
	lb::ImbalanceEnv idle{CPU_NEWLY_IDLE, SD_SHARE_LLC, 117};
	lb::calculate_imbalance(idle, sds);
	CHECK(idle.migration_type == MigrationType::task);
	CHECK(idle.imbalance == 1);
	lb::ImbalanceEnv busy{CPU_NOT_IDLE, SD_SHARE_LLC, 117};
	lb::calculate_imbalance(busy, sds);
	CHECK(busy.imbalance == 0);

	lb::SdLbStats pkg;
	pkg.local_stat = cpu_stats(1, 300, 300);
	pkg.local_stat.group_capacity = 2048;
	pkg.local_stat.group_weight = 2;
	pkg.busiest_stat = cpu_stats(5, 2048, 5000);
	pkg.busiest_stat.group_weight = 2;
	pkg.busiest_stat.group_type = GroupType::overloaded;
	lb::ImbalanceEnv e1{CPU_NOT_IDLE, 0, 117};
	lb::calculate_imbalance(e1, pkg);
	CHECK(e1.migration_type == MigrationType::util);
	CHECK(e1.imbalance == 1748);
	pkg.local_stat.group_util = 2100;
	lb::ImbalanceEnv e2{CPU_IDLE, 0, 117};
	lb::calculate_imbalance(e2, pkg);
	CHECK(e2.migration_type == MigrationType::task);
	CHECK(e2.imbalance == 1);

	lb::SdLbStats sib;
	sib.prefer_sibling = true;
	sib.local_stat = cpu_stats(0, 0, 0);
	sib.local_stat.group_weight = 2;
	sib.busiest_stat = cpu_stats(2, 1500, 1500);
	sib.busiest_stat.group_weight = 2;
	sib.busiest_stat.group_type = GroupType::fully_busy;
	sib.local_cores = sib.busiest_cores = 2;
	lb::ImbalanceEnv e3{CPU_IDLE, 0, 117};
	lb::calculate_imbalance(e3, sib);
	CHECK(e3.migration_type == MigrationType::task);
	CHECK(e3.imbalance == 1);
	sib.local_cores = 4;
	sib.busiest_stat.sum_nr_running = 3;
	lb::ImbalanceEnv e4{CPU_IDLE, 0, 117};
	lb::calculate_imbalance(e4, sib);
	CHECK(e4.imbalance == 2);
	sib.local_cores = 1;
	sib.busiest_cores = 4;
	sib.busiest_stat.sum_nr_running = 2;
	CHECK(lb::sibling_imbalance(e4, sib, sib.busiest_stat, sib.local_stat) == 2);
	lb::ImbalanceEnv e5{CPU_IDLE, 0, 117};
	lb::calculate_imbalance(e5, sib);
	CHECK(e5.imbalance == 1);

	lb::SdLbStats idl;
	idl.local_stat = cpu_stats(1, 100, 100);
	idl.local_stat.group_weight = 4;
	idl.local_stat.idle_cpus = 3;
	idl.busiest_stat = cpu_stats(3, 900, 900);
	idl.busiest_stat.group_weight = 4;
	idl.busiest_stat.idle_cpus = 1;
	lb::ImbalanceEnv e6{CPU_IDLE, 0, 117};
	lb::calculate_imbalance(e6, idl);
	CHECK(e6.imbalance == 1);
	idl.local_stat.idle_cpus = 0;
	lb::ImbalanceEnv e7{CPU_IDLE, 0, 117};
	lb::calculate_imbalance(e7, idl);
	CHECK(e7.imbalance == static_cast<s64>(0xffffffffu >> 1));
}

// calculate_imbalance() with a busy local group, and the forced types.
// - local fully_busy (one hog, load 1024) against overloaded (two hogs,
//   2043): avg = 3067 * 1024 / 2048 = 1533, migrate_load of
//   min(2043 - 1533, 1533 - 1024) = 509 (the three-hog case);
// - local at or above busiest's avg_load, or above the domain's: 0;
// - imbalanced (affinity) and smt_balance: migrate_task 1; asym_packing:
//   every runnable task of busiest; misfit without SD_ASYM_CPUCAPACITY:
//   migrate_load of the misfit load, with it migrate_misfit 1.
TEST_CASE("calculate_imbalance: migrate_load between busy groups and the forced cases", "[balance]")
{
	lb::SdLbStats sds;
	sds.local_stat = cpu_stats(1, 950, 1024, 1024);
	sds.local_stat.group_type = GroupType::fully_busy;
	sds.busiest_stat = cpu_stats(2, 1024, 2046, 2043);
	sds.busiest_stat.group_type = GroupType::overloaded;
	sds.busiest_stat.avg_load = 2043;
	sds.total_load = 3067;
	sds.total_capacity = 2048;
	lb::ImbalanceEnv e{CPU_NOT_IDLE, SD_SHARE_LLC, 117};
	lb::calculate_imbalance(e, sds);
	CHECK(e.migration_type == MigrationType::load);
	CHECK(sds.avg_load == 1533);
	CHECK(e.imbalance == 509);

	lb::SdLbStats heavy = sds;
	heavy.local_stat.group_load = 2043;
	lb::ImbalanceEnv e2{CPU_NOT_IDLE, SD_SHARE_LLC, 117};
	lb::calculate_imbalance(e2, heavy);
	CHECK(e2.imbalance == 0);
	heavy.local_stat.group_load = 1600;
	lb::ImbalanceEnv e3{CPU_NOT_IDLE, SD_SHARE_LLC, 117};
	lb::calculate_imbalance(e3, heavy);  // 1600 < 2043 but above the domain's 1533
	CHECK(e3.imbalance == 0);

	lb::SdLbStats forced = sds;
	forced.busiest_stat.group_type = GroupType::imbalanced;
	lb::ImbalanceEnv e4{CPU_NOT_IDLE, SD_SHARE_LLC, 117};
	lb::calculate_imbalance(e4, forced);
	CHECK(e4.migration_type == MigrationType::task);
	CHECK(e4.imbalance == 1);
	forced.busiest_stat.group_type = GroupType::asym_packing;
	lb::calculate_imbalance(e4, forced);
	CHECK(e4.imbalance == 2);
	forced.busiest_stat.group_type = GroupType::misfit_task;
	forced.busiest_stat.group_misfit_task_load = 700;
	lb::calculate_imbalance(e4, forced);
	CHECK(e4.migration_type == MigrationType::load);
	CHECK(e4.imbalance == 700);
	lb::ImbalanceEnv e5{CPU_NOT_IDLE, SD_ASYM_CPUCAPACITY, 117};
	lb::calculate_imbalance(e5, forced);
	CHECK(e5.migration_type == MigrationType::misfit);
	CHECK(e5.imbalance == 1);
}

// The decision of sched_balance_find_src_group() after the statistics:
// - both overloaded: pull only if local is below busiest and the domain
//   average and 100 * busiest > 117 * local: 7 vs 6 hogs (7168 vs 6144:
//   716,800 <= 718,848) is balanced, 3 vs 2 (3072 vs 2048) moves
//   min(3072 - 2560, 2560 - 2048) = 512 of load;
// - a busier local group than busiest: balanced;
// - busiest not overloaded: a busy dst is balanced; an idle dst pulls
//   unless busiest has a single runnable task.
TEST_CASE("find_src_group: the 117% rule and the not-overloaded cases", "[balance]")
{
	auto overloaded = [](u32 nr) {
		SgLbStats s = cpu_stats(nr, 1024, 1024 * nr, 1024 * nr);
		s.group_type = GroupType::overloaded;
		s.avg_load = 1024 * nr;
		return s;
	};
	auto both = [&](u32 local, u32 busiest) {
		lb::SdLbStats sds;
		sds.local_stat = overloaded(local);
		sds.busiest_stat = overloaded(busiest);
		sds.total_load = 1024 * (local + busiest);
		sds.total_capacity = 2048;
		sds.local_cores = sds.busiest_cores = 1;
		return sds;
	};
	lb::SdLbStats s76 = both(6, 7);
	lb::ImbalanceEnv e1{CPU_NOT_IDLE, SD_SHARE_LLC, 117};
	CHECK_FALSE(lb::find_src_group_decide(e1, s76));
	lb::SdLbStats s32 = both(2, 3);
	lb::ImbalanceEnv e2{CPU_NOT_IDLE, SD_SHARE_LLC, 117};
	CHECK(lb::find_src_group_decide(e2, s32));
	CHECK(e2.migration_type == MigrationType::load);
	CHECK(e2.imbalance == 512);

	lb::SdLbStats busier;
	busier.local_stat = overloaded(2);
	busier.busiest_stat = cpu_stats(1, 950, 1000, 1024);
	busier.busiest_stat.group_type = GroupType::fully_busy;
	lb::ImbalanceEnv e3{CPU_IDLE, SD_SHARE_LLC, 117};
	CHECK_FALSE(lb::find_src_group_decide(e3, busier));

	lb::SdLbStats spare;
	spare.local_stat = cpu_stats(0, 0, 0);
	spare.busiest_stat = cpu_stats(2, 600, 700, 2048);
	spare.local_cores = spare.busiest_cores = 1;
	lb::ImbalanceEnv e4{CPU_NOT_IDLE, SD_SHARE_LLC, 117};
	CHECK_FALSE(lb::find_src_group_decide(e4, spare));
	lb::ImbalanceEnv e5{CPU_IDLE, SD_SHARE_LLC, 117};
	CHECK(lb::find_src_group_decide(e5, spare));
	CHECK(e5.migration_type == MigrationType::task);
	CHECK(e5.imbalance == 1);
	spare.busiest_stat = cpu_stats(1, 1000, 1000, 1024);
	spare.busiest_stat.group_type = GroupType::fully_busy;
	lb::ImbalanceEnv e6{CPU_IDLE, SD_SHARE_LLC, 117};
	CHECK_FALSE(lb::find_src_group_decide(e6, spare));
}

// get_sd_balance_interval() of a 2-CPU MC domain (balance_interval 2 ms,
// max 4, busy_factor 16): HZ=1000 busy 32 - 1 = 31 jiffies, idle 2; after
// a balanced pass 64 - 1 = 63; HZ=250: msecs_to_jiffies(32) = 8 - 1 = 7,
// idle msecs_to_jiffies(2) = 1, 4 ms: 16 - 1 = 15; the all-pinned 512 ms
// clamped to HZ * online / 10: 200 and 50 (100 with 4 CPUs online).
TEST_CASE("get_sd_balance_interval: busy factor, rounding and clamp", "[balance]")
{
	SchedDomain sd;
	sd.balance_interval = 2;
	sd.busy_factor = 16;
	CHECK(lb::get_sd_balance_interval(sd, true, 1000, 2) == 31);
	CHECK(lb::get_sd_balance_interval(sd, false, 1000, 2) == 2);
	CHECK(lb::get_sd_balance_interval(sd, true, 250, 2) == 7);
	CHECK(lb::get_sd_balance_interval(sd, false, 250, 2) == 1);
	sd.balance_interval = 4;
	CHECK(lb::get_sd_balance_interval(sd, true, 1000, 2) == 63);
	CHECK(lb::get_sd_balance_interval(sd, true, 250, 2) == 15);
	sd.balance_interval = 512;
	CHECK(lb::get_sd_balance_interval(sd, false, 1000, 2) == 200);
	CHECK(lb::get_sd_balance_interval(sd, true, 250, 2) == 50);
	CHECK(lb::get_sd_balance_interval(sd, true, 250, 4) == 100);
	CHECK(lb::msecs_to_jiffies(5, 250) == 2);
	CHECK(lb::msecs_to_jiffies(4, 250) == 1);
	CHECK(lb::msecs_to_jiffies(10, 300) == 3);
	CHECK(lb::msecs_to_jiffies(4, 300) == 2);
}
