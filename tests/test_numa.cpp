// SPDX-License-Identifier: GPL-2.0-only
// NUMA nodes (Config::node): the NUMA level's domain, per-CPU groups and
// imb_numa_nr (topology.c's build_sched_domains() and
// build_overlap_sched_groups()), and the two places the fair class lets
// nodes stay unbalanced while few tasks run: fork placement
// (sched_balance_find_dst_group()) and the balancer (calculate_imbalance()),
// both through adjust_numa_imbalance(). Worked by hand from
// kernel/sched/fair.c v6.18.44; docs/notes/numa-paths-6.18.44.md gives the
// rules with line numbers. numa_balancing is off (never enabled), so no task
// has a preferred node.
//
// The machine of the run cases, x86-2s-smt2: 64 CPUs, 2 threads per core,
// an LLC per node of 32 CPUs, 2 nodes at distance 21. Domains of CPU 0:
// SMT {0,1}, MC {0..31} (groups: the cores), NUMA {0..63} (groups: node 0,
// then node 1). imb_numa_nr: PKG is the first level above the LLC and holds
// one LLC, so imb = 32 >> 3 = 4; NUMA spans the first NUMA level's CPUs,
// a factor of 1: 4.
#include <catch2/catch.hpp>

#include "io/model_options.hpp"
#include "io/topology_spec.hpp"
#include "model/balance.hpp"
#include "model/sg_lb_stats.hpp"
#include "select_helpers.hpp"

using namespace eevdf;
using namespace eevdf::test;
using namespace eevdf::test::select_cases;

namespace {

MachineShape shape_of(const std::string& spec)
{
	return cli::parse_topology(spec, 1, "--topology");
}

Config numa_config(const std::string& spec = "x86-2s-smt2")
{
	cli::ModelOptions o;
	o.kernel = "6.18.33";
	o.hz = 250;
	o.topology = spec;
	return cli::build_config(o);
}

const SchedDomain& top_domain(const Topology& t, u32 cpu)
{
	const SchedDomain* sd = t.sd(cpu);
	while (sd->parent)
		sd = sd->parent;
	return *sd;
}

u32 node_of(u32 cpu) { return cpu / 32; }

// n hogs, all forked at 0 from CPU 0.
Workload hogs(u32 n)
{
	std::vector<TaskSpec> t;
	for (u32 i = 0; i < n; i++)
		t.push_back(hog("h" + std::to_string(i)));
	return workload(std::move(t));
}

// n hogs forked on node 0 (pinned to its CPUs at fork, so the fork path
// spreads them over node 0's cores: CPUs 0, 2, 4, ...), each widening its
// affinity to every CPU as it first runs: from then on only the balancer
// decides where they run.
Workload hogs_started_on_node0(u32 n)
{
	std::vector<TaskSpec> t;
	std::vector<u32> node0, all;
	for (u32 c = 0; c < 64; c++) {
		all.push_back(c);
		if (c < 32)
			node0.push_back(c);
	}
	for (u32 i = 0; i < n; i++)
		t.push_back(pinned(task("h" + std::to_string(i), {set_affinity(0), run(RUN_FOREVER)}, 1), node0));
	Workload wl = workload(std::move(t));
	wl.cpu_sets.push_back(all);
	return wl;
}

}  // namespace

TEST_CASE("numa: imb_numa_nr is an eighth of a one-LLC node, or its LLC count", "[numa]")
{
	// 2 x 32C/64T, one LLC per node: 64 >> 3 = 8.
	CHECK(top_domain(Topology(shape_of("cpus=128,smt=2,node=64")), 0).imb_numa_nr == 8);
	// x86-2s-smt2 (2 x 16C/32T): 32 >> 3 = 4.
	CHECK(top_domain(Topology(shape_of("x86-2s-smt2")), 5).imb_numa_nr == 4);
	// 2 x 4C/8T: 8 >> 3 = 1.
	CHECK(top_domain(Topology(shape_of("cpus=16,smt=2,node=8")), 0).imb_numa_nr == 1);
	// 2 x 2C/4T: 4 >> 3 = 0, raised to 1.
	CHECK(top_domain(Topology(shape_of("cpus=8,smt=2,node=4")), 0).imb_numa_nr == 1);
	// epyc-1s-nps2: a node of two 16-CPU LLCs: PKG holds 2 LLCs.
	const Topology epyc(shape_of("epyc-1s-nps2"));
	CHECK(top_domain(epyc, 40).imb_numa_nr == 2);
	CHECK(epyc.sd_llc(40)->imb_numa_nr == 0);  // below the first level above the LLC
}

TEST_CASE("numa: the NUMA level balances serialised, retries hot tasks twice, no prefer_sibling", "[numa]")
{
	const Topology t(shape_of("x86-2s-smt2"));
	const SchedDomain& numa = top_domain(t, 40);
	CHECK(numa.name == "NUMA");
	CHECK((numa.flags & (SD_SERIALIZE | SD_NUMA)) == (SD_SERIALIZE | SD_NUMA));
	CHECK((numa.flags & SD_PREFER_SIBLING) == 0);
	CHECK(numa.cache_nice_tries == 2);
	// The groups carry the node-level child's flags: prefer_sibling holds
	// when a node is the busiest group (update_sd_lb_stats()).
	for (u32 g : numa.groups)
		CHECK((t.group(g).flags & SD_PREFER_SIBLING) != 0);
	// Beyond node_reclaim_distance no fork, exec or wake-up crosses nodes.
	const Topology far_topo(shape_of("cpus=64,smt=2,node=32,distance=31"));
	const SchedDomain& far = top_domain(far_topo, 0);
	CHECK((far.flags & (SD_BALANCE_FORK | SD_BALANCE_EXEC | SD_WAKE_AFFINE)) == 0);
}

TEST_CASE("numa: each CPU has its own NUMA groups, sharing each node's capacity", "[numa]")
{
	// Nodes of one core: when NODE, PKG, MC and CLS go, CPU 0's first NUMA
	// group takes SMT's flags (cpu_attach_domain()); CPU 2's copy of node
	// 0's group keeps NODE's, without SD_SHARE_CPUCAPACITY.
	Topology t(shape_of("cpus=4,smt=2,node=2"));
	const SchedDomain& n0 = top_domain(t, 0);
	const SchedDomain& n2 = top_domain(t, 2);
	REQUIRE(n0.groups.size() == 2);
	REQUIRE(n2.groups.size() == 2);
	const SchedGroup& own = t.group(n0.groups[0]);
	const SchedGroup& seen_from_2 = t.group(n2.groups[1]);
	CHECK(own.span == seen_from_2.span);
	CHECK(n0.groups[0] != n2.groups[1]);
	CHECK((own.flags & SD_SHARE_CPUCAPACITY) != 0);
	CHECK((seen_from_2.flags & SD_SHARE_CPUCAPACITY) == 0);
	CHECK(own.sgc == seen_from_2.sgc);
	CHECK(own.sgc->capacity == 2048);
	// The imbalance flag a node-level balance leaves is the node's.
	t.group(n0.groups[0]).sgc->imbalance = 1;
	CHECK(t.group(n2.groups[1]).sgc->imbalance == 1);
	CHECK(t.group(n2.groups[0]).sgc->imbalance == 0);
}

TEST_CASE("numa: adjust_numa_imbalance tolerates two while the destination runs at most imb_numa_nr", "[numa]")
{
	CHECK(adjust_numa_imbalance(2, 4, 4) == 0);
	CHECK(adjust_numa_imbalance(3, 4, 4) == 3);
	CHECK(adjust_numa_imbalance(1, 5, 4) == 1);  // destination too busy: no allowance
	CHECK(adjust_numa_imbalance(0, 1, 1) == 0);
}

TEST_CASE("numa: forks stay on the parent's node until idle CPUs differ by three", "[numa]")
{
	// Fork k from CPU 0 at the NUMA level: node 0 runs the forks before it
	// that stayed (s), node 1 the others (k - s); both have spare capacity.
	// imbalance = |idle0 - idle1| = |s - (k - s)|, imb_numa_nr = min(32, 4).
	// While s + 1 <= 4, a difference of at most 2 keeps the child local;
	// otherwise it goes to node 1 only if node 1 has more idle CPUs. Within
	// a node the lower levels take the next idle core's first CPU.
	//   k=0: s=0, 0 -> stay (CPU 0); k=1: 1 -> stay (2); k=2: 2 -> stay (4);
	//   k=3: 3 > 2 -> node 1 (32); k=4: s=3, |3-1| = 2 -> stay (6);
	//   k=5: s=4, dst 5 > 4, 3 -> node 1 (34); k=6: 2, node 1 has more idle
	//   -> 36; k=7: 1 -> 38.
	// The model forks the initial tasks with no parent running on CPU 0
	// (docs/model.md); a real parent there would make CPU 0 busy and the
	// same rules give 2, 4, 32, 6, 34, 36, 38, 8. The golden checks the rules.
	Run f(numa_config(), hogs(8), 10 * MS);
	f.sim.run();
	const u32 want[] = {0, 2, 4, 32, 6, 34, 36, 38};
	for (int k = 0; k < 8; k++)
		CHECK(f.where.fork_cpu(k) == want[k]);
}

TEST_CASE("numa: beyond node_reclaim_distance forks never leave the parent's node", "[numa]")
{
	// No SD_BALANCE_FORK at NUMA: the slow path starts at the node (MC).
	Run f(numa_config("cpus=64,smt=2,llc=32,node=32,distance=31"), hogs(8), 10 * MS);
	f.sim.run();
	for (int k = 0; k < 8; k++)
		CHECK(f.where.fork_cpu(k) == 2u * static_cast<u32>(k));
}

TEST_CASE("numa: the balancer leaves two hogs on one node", "[numa]")
{
	// An idle CPU of node 1 balancing at NUMA: busiest = node 0 (2 tasks,
	// has_spare), local = node 1 (0, has_spare). sibling_imbalance() = 2 > 1
	// forces it; calculate_imbalance(): migrate_task, imbalance 2, then
	// adjust_numa_imbalance(2, 0 + 1, 4) = 0: nothing moves, ever.
	Run f(numa_config(), hogs_started_on_node0(2), 2000 * MS);
	f.sim.run();
	CHECK(f.where.moves.empty());
	for (int k = 0; k < 2; k++)
		CHECK(node_of(f.sim.tasks()[static_cast<size_t>(k)].cpu) == 0);
}

TEST_CASE("numa: the balancer moves one of three hogs to the idle node, then stops", "[numa]")
{
	// 3/0: imbalance 3 (> 2), halved: one task moves. Each node-0 CPU runs
	// its hog alone, so nothing can be detached: the move is the active
	// balance after more than cache_nice_tries + 2 = 4 failed NUMA passes.
	// Then 2/1: sibling imbalance 1 does not force; the busiest, node 0, is
	// not overloaded, and the local node has at most one idle CPU more
	// (31 <= 30 + 1): balanced.
	Run f(numa_config(), hogs_started_on_node0(3), 2000 * MS);
	f.sim.run();
	u32 on_node1 = 0;
	for (int k = 0; k < 3; k++)
		on_node1 += node_of(f.sim.tasks()[static_cast<size_t>(k)].cpu);
	CHECK(on_node1 == 1);
	size_t cross = 0;
	for (const auto& m : f.where.moves)
		cross += node_of(m.from) != node_of(m.to);
	CHECK(cross == 1);
}

namespace {

// cpus=4,node=2 (an LLC per node): domains of CPU 0 are MC {0,1} and NUMA
// {0..3}. H: a hog pinned to CPU 2. P: forks pinned to 2, sleeps 200 ms,
// runs 100 us, widens its affinity to every CPU and suspends (prev = 2).
// W: pinned to CPU 0, sleeps 300 ms, runs 100 us and resumes P.
// task_h_load(p) is P's load as last updated, when it suspended: the
// kernel does not sync a waking task's PELT before wake_affine(). Had P
// suspended young, that would still be its initial 1024 (and prev would
// win); after 200 ms asleep it is about 1024 / 2^6. W's load has decayed
// likewise; CPU 2 carries H's 1024.
Workload cross_node_wakeup()
{
	TaskSpec h = pinned(task("h", {run(RUN_FOREVER)}, 1), {2});
	TaskSpec p = pinned(
		task("p", {sleep(200 * MS), run(100 * US), set_affinity(0), suspend(0), run(100 * US)}, 1), {2});
	TaskSpec w = pinned(task("w", {sleep(300 * MS), run(100 * US), resume(0), sleep(100 * MS)}, 1), {0});
	Workload wl = workload({h, p, w});
	wl.cpu_sets.push_back({0, 1, 2, 3});
	wl.refs = {"wake"};
	return wl;
}

std::optional<u32> wakeup_cpu_after(const Placements& where, int task, u64 t)
{
	for (const auto& e : where.enqueues)
		if (e.task == task && !e.new_task && e.t >= t)
			return e.cpu;
	return std::nullopt;
}

}  // namespace

TEST_CASE("numa: a wake-up from another node pulls the wakee through the NUMA domain's wake_affine", "[numa]")
{
	// select_task_rq_fair() on CPU 0: want_affine (no flips yet); MC {0,1}
	// lacks prev 2, NUMA has SD_WAKE_AFFINE (21 <= 30) and prev: wake_affine().
	// wake_affine_idle(): CPU 0 runs W, 0 and 2 share no cache, no sync,
	// CPU 2 runs H: no answer. wake_affine_weight(): this side (W's and P's
	// decayed loads, ~40) * 100 * 1024 < prev side (H's 1024) * 108 * 1024:
	// target 0. select_idle_sibling(p, 2, 0): 0 busy, 2 in another LLC, so
	// the scan of LLC {0,1} (or, before any balance wrote nr_idle_scan,
	// target itself): node 0.
	Run f(numa_config("cpus=4,node=2,distance=21"), cross_node_wakeup(), 350 * MS);
	f.sim.run();
	const auto cpu = wakeup_cpu_after(f.where, 1, 250 * MS);
	REQUIRE(cpu);
	CHECK(*cpu < 2);
}

TEST_CASE("numa: beyond node_reclaim_distance a wake-up stays on the wakee's node", "[numa]")
{
	// No SD_WAKE_AFFINE at NUMA (31 > 30): no affine domain, new_cpu = prev
	// 2; select_idle_sibling(p, 2, 2): 2 runs H, the scan of LLC {2,3}
	// finds CPU 3 idle.
	Run f(numa_config("cpus=4,node=2,distance=31"), cross_node_wakeup(), 350 * MS);
	f.sim.run();
	CHECK(wakeup_cpu_after(f.where, 1, 250 * MS) == 3u);
}
