// SPDX-License-Identifier: GPL-2.0-only
// The genome's group trailer (docs/fuzzing.md): what it encodes, that a
// genome without groups encodes as it always did, that stray bytes from
// before groups still decode to none, and that groups reach the workload
// only on presets that model them.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "fuzz/genome.hpp"
#include "model/task_group.hpp"

using namespace eevdf;
using namespace eevdf::fuzz;

namespace {

size_t preset_index(std::string_view name)
{
	for (size_t i = 0; i < kernel_presets().size(); i++)
		if (kernel_presets()[i].name == name)
			return i;
	FAIL("no preset " << name);
	return 0;
}

// Three tasks; /g0 (cpu.weight 100), /g0/g1 idle; t0 in the root, t1 in
// /g0/g1, t2 in /g0.
Genome grouped(std::string_view preset)
{
	Genome g;
	g.preset = static_cast<uint8_t>(preset_index(preset));
	g.tasks.assign(3, Gene{});
	g.groups = {GroupGene{0, 3, false}, GroupGene{1, 6, true}};
	g.tasks[1].group = 2;
	g.tasks[2].group = 1;
	return g;
}

}  // namespace

TEST_CASE("a genome's groups survive encoding and decoding")
{
	const Genome g = grouped("6.18.39");
	const std::vector<uint8_t> bytes = g.encode();
	CHECK(bytes.size() == 28 + 3 * 20 + 2 + 2 + 2);  // 'G', count, a byte per group, a nibble per task
	const Genome d = Genome::decode(bytes.data(), bytes.size());
	REQUIRE(d.groups.size() == 2);
	CHECK(d.groups[1].parent == 1);
	CHECK(d.groups[1].weight_code == 6);
	CHECK(d.groups[1].idle);
	CHECK_FALSE(d.groups[0].idle);
	CHECK(d.tasks[0].group == 0);
	CHECK(d.tasks[1].group == 2);
	CHECK(d.tasks[2].group == 1);
	CHECK(d.encode() == bytes);
}

TEST_CASE("a genome without groups has no trailer, and unmarked bytes after the genes decode to no groups")
{
	Genome g = grouped("6.18.39");
	g.groups.clear();
	for (Gene& e : g.tasks)
		e.group = 0;
	std::vector<uint8_t> bytes = g.encode();
	CHECK(bytes.size() == 28 + 3 * 20);
	bytes.insert(bytes.end(), {0, 3, 1, 2, 0x21});  // a stray tail, as some corpus files have
	const Genome d = Genome::decode(bytes.data(), bytes.size());
	CHECK(d.groups.empty());
	CHECK(d.tasks.size() == 3);
}

TEST_CASE("a genome's groups become cgroups, on every preset")
{
	const Case c = build(grouped("6.18.39"), Bugs{});
	REQUIRE(c.wl.groups.size() == 2);
	CHECK(c.wl.groups[0].path == "/g0");
	CHECK(c.wl.groups[0].shares == scale_load(sched_weight_from_cgroup(100)));
	CHECK(c.wl.groups[1].path == "/g0/g1");
	CHECK(c.wl.groups[1].idle);
	CHECK(c.wl.tasks[0].taskgroup.empty());
	CHECK(c.wl.tasks[1].taskgroup == "/g0/g1");
	CHECK(c.wl.tasks[2].taskgroup == "/g0");

	for (const KernelPreset& p : kernel_presets())
		CHECK(build(grouped(p.name), Bugs{}).wl.groups == c.wl.groups);
}

TEST_CASE("a genome's SMT code survives encoding and makes cores inside the LLC")
{
	Genome g;
	g.sim_cpus = 8;
	g.smp_bits = 2;  // LLCs: the divisors of 8 are 1, 2, 4, 8; index 2: 4 CPUs
	g.smt_code = 2;  // the divisors of 4: 1, 2, 4; index 2: 4 threads per core
	g.tasks.assign(2, Gene{});
	const std::vector<uint8_t> bytes = g.encode();
	const Genome d = Genome::decode(bytes.data(), bytes.size());
	CHECK(d.sim_cpus == 8);
	CHECK(d.smt_code == 2);
	CHECK(d.encode() == bytes);
	const Case c = build(d, {});
	CHECK(c.cfg.llc_size == 4);
	CHECK(c.cfg.smt == 4);
	// A genome from before SMT (the code's bits 0) keeps flat CPUs.
	g.smt_code = 0;
	CHECK(build(g, {}).cfg.smt == 1);
}

TEST_CASE("genome: clusters and NUMA nodes come from bits 5-7 of the CPUs byte", "[genome]")
{
	Genome g;
	g.hogs = 0;
	g.sim_cpus = 8;
	g.smt_code = 1;      // divisors of 8: 1, 2, 4, 8; index 1: 2 threads per core
	g.cluster_code = 1;  // the smallest whole-core size between core and LLC: 4
	g.node_code = 2;     // nodes of whole LLCs below 8: {4}; distance 21
	g.tasks.assign(2, Gene{});
	const std::vector<uint8_t> bytes = g.encode();
	const Genome d = Genome::decode(bytes.data(), bytes.size());
	CHECK(d.cluster_code == 1);
	CHECK(d.node_code == 2);
	CHECK(d.encode() == bytes);
	const Case c = build(d, {});
	CHECK(c.cfg.smt == 2);
	CHECK(c.cfg.cluster == 4);
	CHECK(c.cfg.node == 4);
	CHECK(c.cfg.llc_size == 4);
	CHECK(c.cfg.numa_distance == 21);
	// Nodes need two LLC-sized units: a one-CPU-per-node split of 2 CPUs.
	g.sim_cpus = 2;
	g.smt_code = 0;
	g.cluster_code = 0;
	g.node_code = 3;
	const Case two = build(g, {});
	CHECK(two.cfg.node == 1);
	CHECK(two.cfg.numa_distance == 31);
}
