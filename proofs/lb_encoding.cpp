// SPDX-License-Identifier: GPL-2.0-only
#include "proofs/lb_encoding.hpp"

#include <random>

#include "model/balance.hpp"
#include "model/pelt.hpp"
#include "model/topology.hpp"

namespace eevdf::proofs {
namespace {

using z3::expr;

constexpr u64 CAPACITY = SCHED_CAPACITY_SCALE;  // one CPU's group capacity
constexpr u64 PCT = 117;                        // the MC level's imbalance_pct

expr bv(z3::context& c, u64 x) { return c.bv_val(static_cast<uint64_t>(x), 64); }

// group_has_capacity(), group_is_overloaded() and group_classify() for a
// group of weight 1 with none of the structural types.
expr has_capacity(z3::context& c, const SymLbGroup& g)
{
	const expr cap = bv(c, CAPACITY);
	return z3::ite(z3::ult(g.nr, bv(c, 1)), c.bool_val(true),
		       z3::ite(z3::ult(cap * bv(c, PCT), g.runnable * bv(c, 100)), c.bool_val(false),
			       z3::ugt(cap * bv(c, 100), g.util * bv(c, PCT))));
}

expr is_overloaded(z3::context& c, const SymLbGroup& g)
{
	const expr cap = bv(c, CAPACITY);
	return z3::ugt(g.nr, bv(c, 1)) &&
	       (z3::ult(cap * bv(c, 100), g.util * bv(c, PCT)) || z3::ult(cap * bv(c, PCT), g.runnable * bv(c, 100)));
}

expr classify(z3::context& c, const SymLbGroup& g)
{
	return z3::ite(is_overloaded(c, g), bv(c, LB_OVERLOADED),
		       z3::ite(has_capacity(c, g), bv(c, LB_HAS_SPARE), bv(c, LB_FULLY_BUSY)));
}

// update_sg_lb_stats(): avg_load only for an overloaded group.
expr avg_load_of(z3::context& c, const SymLbGroup& g, const expr& type)
{
	return z3::ite(type == bv(c, LB_OVERLOADED), z3::udiv(g.load * bv(c, SCHED_CAPACITY_SCALE), bv(c, CAPACITY)),
		       bv(c, 0));
}

}  // namespace

SymLbDecision lb_decide_flat(z3::context& c, const SymLbGroup& local, const SymLbGroup& busiest, const expr& idle,
			     unsigned mutation)
{
	const expr lt = classify(c, local), bt = classify(c, busiest);
	const expr l_avg0 = avg_load_of(c, local, lt), b_avg = avg_load_of(c, busiest, bt);
	const expr total_cap = bv(c, 2 * CAPACITY);
	const expr sds_avg = z3::udiv((local.load + busiest.load) * bv(c, SCHED_CAPACITY_SCALE), total_cap);
	const expr zero = bv(c, 0);

	// find_src_group_decide(), force = false (no misfit, asym or imbalanced group).
	const expr pct_within = (mutation & MUT_LB_PCT_STRICT) ? z3::ult(bv(c, 100) * b_avg, bv(c, PCT) * l_avg0)
							       : z3::ule(bv(c, 100) * b_avg, bv(c, PCT) * l_avg0);
	const expr local_overloaded_balanced =
		lt == bv(c, LB_OVERLOADED) && (z3::uge(l_avg0, b_avg) || z3::uge(l_avg0, sds_avg) || pct_within);
	// prefer_sibling is false: no child domain.
	const expr not_overloaded_balanced =
		bt != bv(c, LB_OVERLOADED) &&
		((mutation & MUT_LB_IDLE_NEEDS_OVERLOADED) ? c.bool_val(true) : (!idle || busiest.h_nr == bv(c, 1)));
	const expr balanced = z3::ugt(lt, bt) || local_overloaded_balanced || not_overloaded_balanced;

	// calculate_imbalance().
	// local has spare, SD_SHARE_LLC set, busiest.group_weight == 1: migrate_task,
	// sibling_imbalance() with equal cores, halved.
	const expr sib = z3::ite(!idle || busiest.nr == zero, zero,
				 z3::ite(z3::sgt(busiest.nr - local.nr, zero), busiest.nr - local.nr, zero));
	const expr spare_imb = z3::ashr(sib, bv(c, 1));
	// local fully busy: its avg_load now counts; balanced when at or above
	// busiest's or the domain's.
	const expr l_avg_fb = z3::udiv(local.load * bv(c, SCHED_CAPACITY_SCALE), bv(c, CAPACITY));
	const expr l_avg = z3::ite(lt == bv(c, LB_FULLY_BUSY), l_avg_fb, l_avg0);
	const expr fb_zero = lt == bv(c, LB_FULLY_BUSY) && (z3::uge(l_avg_fb, b_avg) || z3::uge(l_avg_fb, sds_avg));
	const expr a = (b_avg - sds_avg) * bv(c, CAPACITY), b = (sds_avg - l_avg) * bv(c, CAPACITY);
	const expr load_imb = z3::udiv(z3::ite(z3::ult(a, b), a, b), bv(c, SCHED_CAPACITY_SCALE));

	const expr spare = lt == bv(c, LB_HAS_SPARE);
	const expr imbalance = z3::ite(balanced, zero, z3::ite(spare, spare_imb, z3::ite(fb_zero, zero, load_imb)));
	const expr mtype = z3::ite(!balanced && spare, bv(c, LB_MIGRATE_TASK), bv(c, LB_MIGRATE_LOAD));
	return SymLbDecision{!balanced && imbalance != zero, mtype, imbalance, lt, bt};
}

u64 check_lb_encoding(u64 cases, u64 seed, std::ostream& out, unsigned mutation)
{
	z3::context c;
	std::mt19937_64 rng(seed);
	auto pick = [&](u64 hi) { return std::uniform_int_distribution<u64>(0, hi)(rng); };
	u64 mismatches = 0;
	for (u64 k = 0; k < cases; k++) {
		// Values around every threshold: util and runnable near 1024 * 100 /
		// 117 (875) and capacity, loads up to 88761 per task, nr up to 20.
		auto group = [&](bool idle_cpu) {
			SgLbStats g;
			g.sum_nr_running = idle_cpu ? 0 : static_cast<u32>(pick(20));
			g.sum_h_nr_running = g.sum_nr_running ? static_cast<u32>(pick(g.sum_nr_running)) : 0;
			const u64 per = pick(3) == 0 ? 1024 : pick(88761);
			g.group_load = g.sum_nr_running * per + pick(2000);
			g.group_util = pick(1) ? 860 + pick(40) : pick(1100);
			g.group_runnable = pick(1) ? 860 + pick(40) : pick(1024 * 21);
			g.group_capacity = CAPACITY;
			g.group_weight = 1;
			g.idle_cpus = g.sum_nr_running == 0 ? 1 : 0;
			g.group_type = group_classify(PCT, false, g);
			if (g.group_type == GroupType::overloaded)
				g.avg_load = g.group_load * SCHED_CAPACITY_SCALE / g.group_capacity;
			return g;
		};
		// Every fourth case: two CPUs of nice-0 hogs with converged signals,
		// counts on both sides of the imbalance_pct rule (6 vs 7, 100 vs 117).
		auto hogs = [&](u32 n) { return converged_hog_group(n, PCT); };
		const bool idle = pick(1);
		lb::SdLbStats sds;
		if (pick(3) == 0) {
			static constexpr u32 pairs[][2] = {{6, 7}, {5, 6}, {100, 117}, {100, 118}, {1, 2}, {2, 3}};
			const auto& pr = pairs[pick(5)];
			sds = lb::two_cpu_lb_stats(hogs(pr[0]), hogs(pr[1]));
		} else {
			const SgLbStats local = group(idle && pick(1));
			sds = lb::two_cpu_lb_stats(local, group(false));
		}
		lb::ImbalanceEnv env{idle ? CPU_NEWLY_IDLE : CPU_NOT_IDLE, SD_SHARE_LLC, static_cast<u32>(PCT),
				     lb::MigrationType::load, 0};
		const SgLbStats l = sds.local_stat, b = sds.busiest_stat;
		const bool found = lb::find_src_group_decide(env, sds);

		auto sym = [&](const SgLbStats& g) {
			return SymLbGroup{bv(c, g.group_load), bv(c, g.group_util), bv(c, g.group_runnable),
					  bv(c, g.sum_nr_running), bv(c, g.sum_h_nr_running)};
		};
		const SymLbDecision d = lb_decide_flat(c, sym(l), sym(b), c.bool_val(idle), mutation);
		const bool e_found = d.found.simplify().is_true();
		const u64 e_imb = d.imbalance.simplify().get_numeral_uint64();
		const u64 e_type = d.migration_type.simplify().get_numeral_uint64();
		const bool same = e_found == found &&
				  (!found || (e_imb == static_cast<u64>(env.imbalance) &&
					      e_type == static_cast<u64>(env.migration_type)));
		if (!same) {
			if (mismatches < 5)
				out << "  lb mismatch: idle=" << idle << " local(nr=" << l.sum_nr_running << " load=" << l.group_load
				    << " util=" << l.group_util << " runnable=" << l.group_runnable << ") busiest(nr="
				    << b.sum_nr_running << " h_nr=" << b.sum_h_nr_running << " load=" << b.group_load
				    << " util=" << b.group_util << " runnable=" << b.group_runnable << "): model found=" << found
				    << " imbalance=" << env.imbalance << " type=" << static_cast<unsigned>(env.migration_type)
				    << ", encoding found=" << e_found << " imbalance=" << e_imb << " type=" << e_type << "\n";
			mismatches++;
		}
	}
	return mismatches;
}

}  // namespace eevdf::proofs
