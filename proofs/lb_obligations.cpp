// SPDX-License-Identifier: GPL-2.0-only
// Obligations about the load balancer on several CPUs (issue 14): the
// decision of sched_balance_find_src_group() between the two CPUs of a flat
// LLC, over the encoding of proofs/lb_encoding.hpp (64-bit bit-vectors, the
// model's own arithmetic; `check_lb_encoding` compares the two).
//
// What a balance pass then moves is decided later (detach_tasks():
// can_migrate_task(), cache hotness, task_h_load against the imbalance);
// these obligations are about whether the pass finds something to move.
#include <sstream>

#include "proofs/lb_encoding.hpp"
#include "proofs/obligation.hpp"

namespace eevdf::proofs {
namespace {

using z3::expr;

constexpr u64 MAX_NR = 1u << 20;    // tasks per CPU
constexpr u64 MAX_SIGNAL = 1ull << 40;  // any PELT sum of 2^20 tasks of the heaviest weight
constexpr u64 MAX_HOGS = 1u << 10;     // hogs per CPU in the hog obligations

SymLbGroup free_group(Query& q, const std::string& n)
{
	SymLbGroup g{q.show(n + "_load", q.var(n + "_load")), q.show(n + "_util", q.var(n + "_util")),
		     q.show(n + "_runnable", q.var(n + "_runnable")), q.show(n + "_nr", q.var(n + "_nr")),
		     q.show(n + "_h_nr", q.var(n + "_h_nr"))};
	q.s.add(z3::ule(g.load, q.bv(MAX_SIGNAL)) && z3::ule(g.util, q.bv(MAX_SIGNAL)) &&
		z3::ule(g.runnable, q.bv(MAX_SIGNAL)) && z3::ule(g.nr, q.bv(MAX_NR)) && z3::ule(g.h_nr, g.nr));
	return g;
}

// A CPU running n nice-0 hogs and nothing else, its PELT signals converged:
// load_avg 1024 per hog, util_avg at the capacity, runnable_avg 1024 per hog.
SymLbGroup hog_group(Query& q, const expr& n)
{
	return SymLbGroup{n * q.bv(1024), q.bv(1024), n * q.bv(1024), n, n};
}

// 2n + 1 hogs forked together on 2 CPUs: the fork path splits them n + 1 / n.
// Confirmed when, after a second for PELT to converge, no balance moves a
// hog for two more seconds and the split stays one apart.
struct Placement : Observer {
	u64 after = 0, late_migrations = 0;
	void on_migrate(const Simulation&, u64 t, int, u32, u32) override { late_migrations += t >= after; }
};

bool replay_hogs_unbalanced(Query& q, const z3::model& m, std::string& msg)
{
	const u64 nl = val(m, q.var("n_local"));
	const int hogs = static_cast<int>(2 * nl + 1);
	Config cfg = make_config(*find_preset("6.18"), 250, 2);
	const Workload wl = hogs_workload(hogs, 3 * NSEC_PER_SEC);
	Simulation sim(cfg, wl);
	Placement p;
	p.after = NSEC_PER_SEC;
	sim.add_observer(&p);
	sim.run();
	const u64 a = sim.cfs_rq(0).nr_queued, b = sim.cfs_rq(1).nr_queued;
	std::ostringstream s;
	s << "eevdf sim --hogs " << hogs << " --cpus 2 --hz 250 --duration 3s: " << a << " and " << b
	  << " hogs queued at 3 s, " << p.late_migrations << " migrations in [1 s, 3 s]";
	msg = s.str();
	return p.late_migrations == 0 && (a == nl + 1 || b == nl + 1) && a + b == static_cast<u64>(hogs);
}

}  // namespace

std::vector<Obligation> balance_obligations()
{
	std::vector<Obligation> v;
	v.push_back({"lb_idle_pulls", "lb",
		     "flat LLC of 2 CPUs (singleton groups, capacity 1024, imbalance_pct 117): an idle CPU (nothing "
		     "queued) balancing against a CPU with h_nr_running >= 2 finds migrate_task with imbalance "
		     "nr_running >> 1, whatever the PELT signals (each < 2^40) of either",
		     true, MUT_LB_IDLE_NEEDS_OVERLOADED,
		     [](Query& q, unsigned m) {
			     const SymLbGroup l = free_group(q, "local"), b = free_group(q, "busiest");
			     q.s.add(l.nr == q.bv(0) && z3::uge(b.h_nr, q.bv(2)));
			     const SymLbDecision d = lb_decide_flat(q.c, l, b, q.c.bool_val(true), m);
			     q.s.add(!(d.found && d.migration_type == q.bv(LB_MIGRATE_TASK) &&
				       d.imbalance == z3::lshr(b.nr, q.bv(1))));
		     },
		     nullptr});
	v.push_back({"lb_hogs_evened", "lb",
		     "flat LLC of 2 busy CPUs running only nice-0 hogs (converged PELT: load and runnable 1024 per hog, "
		     "util 1024), n + 1 against n (1 <= n <= 16): the less loaded CPU's periodic balance finds an "
		     "imbalance (refuted for n >= 6: 100 (n + 1) <= 117 n leaves them; replayed on the simulator)",
		     false, 0,
		     [](Query& q, unsigned m) {
			     const expr n = q.show("n_local", q.var("n_local"));
			     q.s.add(z3::uge(n, q.bv(1)) && z3::ule(n, q.bv(16)));
			     const SymLbDecision d =
				     lb_decide_flat(q.c, hog_group(q, n), hog_group(q, n + 1), q.c.bool_val(false), m);
			     q.s.add(!d.found);
		     },
		     nullptr});
	v.back().direct_replay = replay_hogs_unbalanced;
	v.push_back({"lb_hogs_pct_rule", "lb",
		     "the same hogs, n_b > n_l >= 2 on the two busy CPUs (n_b <= 1024): the less loaded CPU finds an "
		     "imbalance iff 100 n_b > 117 n_l (both groups overloaded; then migrate_load by at least 512)",
		     true, MUT_LB_PCT_STRICT,
		     [](Query& q, unsigned m) {
			     const expr nl = q.show("n_local", q.var("n_local")), nb = q.show("n_busiest", q.var("n_busiest"));
			     q.s.add(z3::uge(nl, q.bv(2)) && z3::ugt(nb, nl) && z3::ule(nb, q.bv(MAX_HOGS)));
			     const SymLbDecision d =
				     lb_decide_flat(q.c, hog_group(q, nl), hog_group(q, nb), q.c.bool_val(false), m);
			     const expr rule = z3::ugt(q.bv(100) * nb, q.bv(117) * nl);
			     q.s.add(!(d.found == rule && z3::implies(d.found, d.migration_type == q.bv(LB_MIGRATE_LOAD) &&
									       z3::uge(d.imbalance, q.bv(512)))));
		     },
		     nullptr});
	// Both proofs rest on the encoding being the model's decision.
	auto crosscheck = [](std::string& msg) {
		std::ostringstream out;
		const u64 bad = check_lb_encoding(2000, 7, out);
		msg = "lb encoding vs lb::find_src_group_decide on 2000 random flat inputs: " + std::to_string(bad) +
		      " mismatches" + (bad ? "\n" + out.str() : "");
		return bad == 0;
	};
	v[0].crosscheck = crosscheck;
	v[2].crosscheck = crosscheck;
	v[2].bitblast = true;  // constant multiplications and divisions: the default solver times out
	return v;
}

}  // namespace eevdf::proofs
