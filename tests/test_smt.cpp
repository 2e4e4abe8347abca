// SPDX-License-Identifier: GPL-2.0-only
// SMT siblings (Config::smt): the idle-core hint (model/idle_cores.*), the
// wake-up's select_idle_smt() / select_idle_core() and the balancer's SMT
// rules (smt_balance(), sg->cores, should_we_balance()'s idle core), worked
// by hand from kernel/sched/fair.c v6.18.44 (docs/notes/smt-paths-6.18.44.md
// gives the rules with line numbers).
//
// The machine of every case: 4 CPUs, 2 threads per core, one LLC. Cores
// {0,1} and {2,3}. Domains: SMT over each core (groups {0}, {1}, without
// flags), CLS degenerate, MC over all (groups = the cores, carrying SMT's
// flags: SD_SHARE_CPUCAPACITY | SD_SHARE_LLC | SD_PREFER_SIBLING ...).
// sd_llc is MC; the hint lives in MC's sched_domain_shared.
#include <catch2/catch.hpp>

#include "io/model_options.hpp"
#include "io/topology_spec.hpp"
#include "model/balance.hpp"
#include "model/idle_cores.hpp"
#include "model/select_task_rq_fair.hpp"
#include "select_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;
using namespace eevdf::test::select_cases;
using namespace eevdf::selection;

namespace {

Config smt2x2()
{
	Config c = smp(4);
	c.smt = 2;
	return c;
}

// H0: a hog pinned to CPU 0 from 0. X: pinned to CPU 2, runs 1 ms from 0
// and exits, so CPU 2 goes idle at 1 beside an idle sibling (3, never used).
// W: pinned to 0, runs 200 us from 3 then sleeps; its wake-ups below are
// asked of the helpers with its mask widened to every CPU.
// At 1 the idle task starts on CPU 2: its sibling 3 is idle: the hint is set.
// CPU 1 never runs anything, so never "goes idle": it sets nothing.
Workload idle_core_scenario(bool sibling_busy = false)
{
	std::vector<TaskSpec> t{pinned_hog("h0", 0), pinned(task("x", {run(1 * MS)}, 1), {2}),
				delayed(pinned(task("w", {run(200 * US), sleep(100 * MS)}, 1), {0}), 3 * MS)};
	if (sibling_busy)
		t.push_back(pinned_hog("h3", 3));
	return workload(std::move(t));
}

Task& widened_w(Simulation& sim)
{
	Task& w = sim.task_mut(2);
	w.cpus_ptr = CpuMask::first_n(4);
	w.recent_used_cpu = -1;
	return w;
}

}  // namespace

TEST_CASE("smt: the machine has SMT and MC domains, cores as MC's groups", "[smt]")
{
	State st(smt2x2(), idle_core_scenario(), 0);
	const Topology& t = st.sim.topology();
	REQUIRE(t.sched_smt_active());
	const SchedDomain& smt = *t.sd(2);
	CHECK(smt.name == "SMT");
	CHECK((smt.flags & SD_SHARE_CPUCAPACITY) != 0);
	CHECK(smt.imbalance_pct == 110);
	const SchedDomain& mc = *smt.parent;
	CHECK(mc.name == "MC");
	CHECK(t.sd_llc(2) == &mc);
	REQUIRE(mc.groups.size() == 2);
	for (u32 g : mc.groups) {
		CHECK(t.group(g).weight == 2);
		CHECK(t.group(g).cores == 1);
		CHECK((t.group(g).flags & SD_SHARE_CPUCAPACITY) != 0);
	}
	CHECK(t.cpu_smt_mask(3) == (CpuMask::of(2) | CpuMask::of(3)));
}

TEST_CASE("smt: a CPU going idle beside an idle sibling sets the LLC's idle-core hint", "[smt]")
{
	State st(smt2x2(), idle_core_scenario(), 900 * US);
	CHECK_FALSE(test_idle_cores(st.sim, 0));  // kzalloc'ed, and nothing went idle yet
	st.sim.run_until(1 * MS + 1);
	CHECK(test_idle_cores(st.sim, 0));  // one hint for the whole LLC
	CHECK(test_idle_cores(st.sim, 3));
}

TEST_CASE("smt: a CPU going idle beside a busy sibling leaves the hint clear", "[smt]")
{
	// H3 keeps CPU 3 busy: CPU 2's idle entry at 1 finds 3 not idle.
	State st(smt2x2(), idle_core_scenario(true), 1 * MS + 1);
	CHECK(st.sim.rq(2).idle_cpu());
	CHECK_FALSE(test_idle_cores(st.sim, 2));
}

TEST_CASE("smt: with the hint set, the scan takes an idle core over the idle sibling it meets first", "[smt]")
{
	// At 3.5: H0 on 0; 1, 2, 3 idle; hint set. select_idle_sibling(W, 0, 0):
	// target 0 busy, prev == target, no recent CPU; has_idle_core.
	// select_idle_cpu() from 1: core {0,1} is busy (0), 1 kept as the
	// fallback, the core leaves the mask; next CPU 2: core {2,3} idle: 2.
	// Without SMT the same scan stops at CPU 1.
	State st(smt2x2(), idle_core_scenario(), 3500 * US);
	Simulation& sim = st.sim;
	sim.topology_mut().sd_llc_shared(0)->nr_idle_scan = 4;
	REQUIRE(test_idle_cores(sim, 0));
	Task& w = widened_w(sim);
	CHECK(select_idle_sibling(sim, w, 0, 0) == 2u);
	CHECK(test_idle_cores(sim, 0));  // found one: the hint stays

	Config flat = smp(4);
	State f(flat, idle_core_scenario(), 3500 * US);
	f.sim.topology_mut().sd_llc_shared(0)->nr_idle_scan = 4;
	CHECK(select_idle_sibling(f.sim, widened_w(f.sim), 0, 0) == 1u);
}

TEST_CASE("smt: with the hint clear, prev's idle sibling is taken before any scan", "[smt]")
{
	// has_idle_core false and prev shares the LLC with target:
	// select_idle_smt(prev = 0): sibling 1 is idle. nr_idle_scan 0 would stop
	// the scan, but the sibling is looked at first.
	State st(smt2x2(), idle_core_scenario(), 3500 * US);
	Simulation& sim = st.sim;
	set_idle_cores(sim, 0, false);
	sim.topology_mut().sd_llc_shared(0)->nr_idle_scan = 0;
	CHECK(select_idle_sibling(sim, widened_w(sim), 0, 0) == 1u);
}

TEST_CASE("smt: a core scan that finds no idle core clears the hint and returns the idle thread it met",
	  "[smt]")
{
	// H3 busy on 3, the hint forced on. Scan from 1: core {0,1}: 0 busy, 1
	// idle (the fallback); core {2,3}: 2 idle but 3 busy; no idle core: the
	// hint is cleared and CPU 1 returned.
	State st(smt2x2(), idle_core_scenario(true), 3500 * US);
	Simulation& sim = st.sim;
	SchedDomainShared& sds = *sim.topology_mut().sd_llc_shared(0);
	sds.nr_idle_scan = 4;
	set_idle_cores(sim, 0, true);
	Task& w = widened_w(sim);
	CHECK(select_idle_cpu(sim, w, *sim.topology().sd_llc(0), true, 0) == 1u);
	CHECK_FALSE(test_idle_cores(sim, 0));
}

TEST_CASE("smt: a zero nr_idle_scan stops even a core scan, and the hint stays", "[smt]")
{
	State st(smt2x2(), idle_core_scenario(), 3500 * US);
	Simulation& sim = st.sim;
	sim.topology_mut().sd_llc_shared(0)->nr_idle_scan = 0;
	REQUIRE(test_idle_cores(sim, 0));
	CHECK(select_idle_cpu(sim, widened_w(sim), *sim.topology().sd_llc(0), true, 0) == NO_TARGET);
	CHECK(test_idle_cores(sim, 0));
}

TEST_CASE("smt: select_idle_core keeps the first idle thread it may use and drops the core", "[smt]")
{
	State st(smt2x2(), idle_core_scenario(), 3500 * US);
	Simulation& sim = st.sim;
	Task& w = widened_w(sim);
	CpuMask cpus = CpuMask::first_n(4);
	u32 idle_cpu = NO_TARGET;
	CHECK(select_idle_core(sim, w, 0, cpus, idle_cpu) == NO_TARGET);
	CHECK(idle_cpu == 1u);
	CHECK(cpus == (CpuMask::of(2) | CpuMask::of(3)));
	// A wholly idle core is returned as the CPU asked about; the mask and
	// the fallback are untouched.
	CHECK(select_idle_core(sim, w, 3, cpus, idle_cpu) == 3u);
	CHECK(idle_cpu == 1u);
	CHECK(cpus == (CpuMask::of(2) | CpuMask::of(3)));
	// A sibling p may not use is not kept, though it counts for the core.
	CpuMask not1 = CpuMask::of(0) | CpuMask::of(2) | CpuMask::of(3);
	u32 none = NO_TARGET;
	CHECK(select_idle_core(sim, w, 0, not1, none) == NO_TARGET);
	CHECK(none == NO_TARGET);
}

namespace {

// A and B: hogs forked pinned to CPU 0 and CPU 1, which at once widen their
// own affinity to every CPU (sched_setaffinity(0, ...)): two tasks on one
// core, the other core idle, and nothing queued anywhere.
Workload busy_core_scenario()
{
	TaskSpec a = pinned(task("a", {set_affinity(0), run(RUN_FOREVER)}, 1), {0});
	TaskSpec b = pinned(task("b", {set_affinity(0), run(RUN_FOREVER)}, 1), {1});
	Workload wl = workload({a, b});
	wl.cpu_sets = {{0, 1, 2, 3}};
	return wl;
}

}  // namespace

TEST_CASE("smt: an idle core pulls one of two tasks sharing a busy core, by active balance on the 4th try",
	  "[smt]")
{
	// A on 0, B on 1 from 0; CPUs 2 and 3 idle (nohz) since boot. Each tick
	// of a busy CPU kicks the idle balancer (nr_busy_cpus 2 > 1), CPU 2, which
	// balances for 2 and 3 once their interval (1 jiffy at both levels: 2 and
	// 4 ms) has passed since boot: at jiffies 1, 2, 3, 4 (4, 8, 12, 16 ms).
	// CPU 2's MC pass (should_we_balance(): 2 is the first idle CPU on an
	// idle core; CPU 3's MC pass is refused): group {0,1} is not local,
	// CPU_IDLE, carries SD_SHARE_CPUCAPACITY and runs 2 fair tasks:
	// group_smt_balance, above the local has_spare. prefer_sibling and
	// sibling_imbalance() (1 core each: 2 - 0 = 2 > 1) force the balance;
	// calculate_imbalance(): migrate_task, 1. The source rq is CPU 0 (a tie
	// of one runnable each, the first kept). It runs its only task, so
	// nothing detaches: nr_balance_failed 1, 2, 3, 4; at 4 > cache_nice_tries
	// (1) + 2 the stopper pushes A to 2. Then each core runs one task: no
	// more moves. On the flat 4-CPU machine each CPU is its own MC group with
	// one task (has_spare, sum 1): balanced, nothing ever moves.
	Config c = smt2x2();
	c.features.set(Feature::NI_RANDOM, false);
	Run r(c, busy_core_scenario(), 200 * MS);
	r.sim.run();
	REQUIRE(r.where.moves.size() == 1);
	CHECK(r.where.moves[0].t == 16 * MS);
	CHECK(r.where.moves[0].task == 0);
	CHECK(r.where.moves[0].from == 0u);
	CHECK(r.where.moves[0].to == 2u);

	Config flat = smp(4);
	flat.features.set(Feature::NI_RANDOM, false);
	Run f(flat, busy_core_scenario(), 200 * MS);
	f.sim.run();
	CHECK(f.where.moves.empty());
}

TEST_CASE("smt: --topology smt=S runs, and the replay flags rebuild the same machine", "[smt][cli]")
{
	cli::ModelOptions o;
	o.cpus = 8;
	o.topology = "smt=2,llc=4";
	const Config c = cli::build_config(o);
	CHECK(c.smt == 2);
	CHECK(c.llc_size == 4);
	const std::string flags = command_line_flags(c);
	CHECK(flags.find(" --topology smt=2,llc=4") != std::string::npos);
	CHECK(flags.find("--llc") == std::string::npos);
	o.topology = "cpus=8,smt=2,cluster=4";
	const Config k = cli::build_config(o);
	CHECK(k.cluster == 4);
	CHECK(command_line_flags(k).find(" --topology smt=2,cluster=4") != std::string::npos);
	o.topology = "cpus=8,smt=2,node=4,distance=21";
	const Config n = cli::build_config(o);
	CHECK(n.node == 4);
	CHECK(n.numa_distance == 21);
	CHECK(command_line_flags(n).find(" --topology smt=2,llc=4,node=4,distance=21,reclaim=30") != std::string::npos);
	CHECK(machine_shape_of(n) == cli::parse_topology("cpus=8,smt=2,llc=4,node=4,distance=21,reclaim=30", 8, "t"));
}

TEST_CASE("smt: a Config whose cores do not divide its LLC is refused by name", "[smt]")
{
	Config c = smp(4, 2);
	c.smt = 4;
	CHECK_THROWS_WITH(Simulation(c, idle_core_scenario()),
			  Catch::Contains("cores of 4 SMT siblings do not divide an LLC of 2 CPUs"));
}

TEST_CASE("smt: above the SMT level, an idle CPU on an idle core balances before an idle thread beside a busy one",
	  "[smt][balance]")
{
	// 8 CPUs, smt 2, LLCs of 4: SMT {0,1}, MC {0-3} (groups: the cores),
	// PKG {0-7} (groups: the LLCs). H1 keeps CPU 1 busy; 0, 2, 3 are idle.
	// PKG, local group {0-3}: CPU 0 is idle but its core is not (idle_smt =
	// 0, its core leaves the mask); CPU 2 is idle on an idle core: CPU 2
	// balances for the LLC. MC, local group {0,1}: no idle core, so the
	// idle thread 0. SMT, local group {0}: 0 (a sibling's business is the
	// SMT domain's own). Newly idle: always, if nothing arrived.
	Config c = smp(8, 4);
	c.smt = 2;
	Workload wl = workload({pinned_hog("h1", 1)});
	State st(c, wl, 1 * MS);
	const Simulation& sim = st.sim;
	const SchedDomain& smt = *sim.topology().sd(0);
	const SchedDomain& mc = *smt.parent;
	const SchedDomain& pkg = *mc.parent;
	REQUIRE(pkg.name == "PKG");
	const SchedDomain& pkg2 = *sim.topology().sd(2)->parent->parent;
	CHECK_FALSE(lb::should_we_balance(sim, pkg, pkg.span, 0, CPU_IDLE));
	CHECK(lb::should_we_balance(sim, pkg2, pkg2.span, 2, CPU_IDLE));
	CHECK(lb::should_we_balance(sim, mc, mc.span, 0, CPU_IDLE));
	CHECK(lb::should_we_balance(sim, smt, smt.span, 0, CPU_IDLE));
	CHECK(lb::should_we_balance(sim, pkg, pkg.span, 0, CPU_NEWLY_IDLE));

	// Without SMT the first idle CPU of the LLC, 0, balances at PKG.
	State flat(smp(8, 4), workload({pinned_hog("h1", 1)}), 1 * MS);
	const SchedDomain& fpkg = *flat.sim.topology().sd(0)->parent;
	REQUIRE(fpkg.name == "PKG");
	CHECK(lb::should_we_balance(flat.sim, fpkg, fpkg.span, 0, CPU_IDLE));
}

TEST_CASE("smt: a CPU the stopper leaves idle enters idle: the hint, and nohz", "[smt]")
{
	// H0, H1 pinned to 0 and 1; C on CPU 2 runs 1 ms, then moves itself to
	// CPU 0 (sched_setaffinity): the stopper takes it off CPU 2, whose
	// __schedule() from the stop task to the idle task runs
	// set_next_task_idle(): sibling 3 (never used) is idle, so the hint is
	// set; do_idle() then stops the tick (nohz). Nothing went idle before:
	// the hint was clear.
	TaskSpec c = pinned(task("c", {run(1 * MS), set_affinity(0), run(RUN_FOREVER)}, 1), {2});
	Workload wl = workload({pinned_hog("h0", 0), pinned_hog("h1", 1), c});
	wl.cpu_sets = {{0}};
	State st(smt2x2(), wl, 1 * MS - 1);
	CHECK_FALSE(test_idle_cores(st.sim, 2));
	st.sim.run_until(1 * MS + 1);
	REQUIRE(st.sim.tasks()[2].cpu == 0);
	CHECK(st.sim.rq(2).idle_cpu());
	CHECK(test_idle_cores(st.sim, 2));
	CHECK(st.sim.rq(2).nohz_idle);
}

// ---------------------------------------------------------------- clusters

TEST_CASE("clusters: the scan looks in target's cluster before an idle prev in another", "[smt][cluster]")
{
	// 4 CPUs, clusters {0,1} and {2,3} (no SMT), one LLC: CLS over each
	// cluster, MC over all with the clusters as groups (SD_CLUSTER flags):
	// sched_cluster_active. At 3.5: H0 on 0; 1, 2, 3 idle.
	// select_idle_sibling(W, prev 2, target 0): target busy; prev idle and
	// in the LLC but not in target's cluster: kept as prev_aff. The scan's
	// cluster pre-scan walks {0,1} from 1: 1 is idle: W goes to 1. Without
	// clusters the idle prev is taken at once: 2.
	Config c = smp(4);
	c.cluster = 2;
	State st(c, idle_core_scenario(), 3500 * US);
	Simulation& sim = st.sim;
	REQUIRE(sim.topology().sched_cluster_active());
	REQUIRE_FALSE(sim.topology().cpus_share_resources(0, 2));
	sim.topology_mut().sd_llc_shared(0)->nr_idle_scan = 4;
	CHECK(select_idle_sibling(sim, widened_w(sim), 2, 0) == 1u);

	State flat(smp(4), idle_core_scenario(), 3500 * US);
	flat.sim.topology_mut().sd_llc_shared(0)->nr_idle_scan = 4;
	CHECK(select_idle_sibling(flat.sim, widened_w(flat.sim), 2, 0) == 2u);
}

TEST_CASE("clusters: when the scan runs out, the idle prev in another cluster is the fallback", "[smt][cluster]")
{
	// As above with CPU 1 busy too (W's own sleeping CPU 0 and H0 pinned;
	// X's CPU 2 idle): nr_idle_scan 1, nr 2: the pre-scan spends it on 1
	// (busy) and 0 (--nr reaches 0): -1. select_idle_sibling() returns
	// prev_aff, 2, not target 0.
	Config c = smp(4);
	c.cluster = 2;
	Workload wl = idle_core_scenario();
	wl.tasks.push_back(pinned_hog("h1", 1));
	State st(c, wl, 3500 * US);
	Simulation& sim = st.sim;
	sim.topology_mut().sd_llc_shared(0)->nr_idle_scan = 1;
	CHECK(select_idle_sibling(sim, widened_w(sim), 2, 0) == 2u);
	CHECK(select_idle_cpu(sim, widened_w(sim), *sim.topology().sd_llc(0), false, 0) == NO_TARGET);
}
