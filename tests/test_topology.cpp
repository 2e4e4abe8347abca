// SPDX-License-Identifier: GPL-2.0-only
// Sched domains and groups of a machine's shape (model/topology.*), worked by
// hand from kernel/sched/topology.c v6.18.44: sd_init()'s values per level,
// build_sched_groups()'s groups, cpu_attach_domain()'s degenerate levels,
// and the debugfs / sched_verbose layout (model/topology_debug.cpp).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "io/input_error.hpp"
#include "io/topology_spec.hpp"
#include "io/topology_sysfs.hpp"
#include "io/values.hpp"
#include "model/topology.hpp"

using namespace eevdf;

namespace {

constexpr unsigned DEFAULT_FLAGS =
	SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE | SD_PREFER_SIBLING;

MachineShape shape(u32 cpus, u32 smt, u32 cluster, u32 llc, u32 node, u32 distance = 20, u32 reclaim = 30)
{
	MachineShape m;
	m.cpus = cpus;
	m.smt = smt;
	m.cluster = cluster;
	m.llc = llc;
	m.node = node;
	m.numa_distance = distance;
	m.reclaim_distance = reclaim;
	return m;
}

std::string spans(const Topology& t, const SchedDomain& sd)
{
	std::string s;
	for (u32 g : sd.groups)
		s += "{" + std::to_string(t.group(g).span.first()) + "+" + std::to_string(t.group(g).weight) + "}";
	return s;
}

u32 depth(const Topology& t, u32 cpu)
{
	u32 n = 0;
	for (const SchedDomain* sd = t.sd(cpu); sd; sd = sd->parent)
		n++;
	return n;
}

}  // namespace

TEST_CASE("topology: an LLC-only machine keeps MC over each LLC and PKG over all", "[topology]")
{
	// 4 CPUs, LLCs {0,1} and {2,3}. SMT and CLS span one CPU and go; MC
	// and PKG stay. MC's groups are single CPUs without flags; PKG's are
	// the LLCs, carrying MC's flags, 2048 of capacity each.
	const Topology t(4, 2);
	const SchedDomain& mc = *t.sd(3);
	CHECK(mc.name == "MC");
	CHECK(mc.level == 2);
	CHECK(mc.flags == (DEFAULT_FLAGS | SD_SHARE_LLC));
	CHECK(mc.imbalance_pct == 117);
	CHECK(mc.cache_nice_tries == 1);
	CHECK(mc.min_interval == 2);
	CHECK(mc.max_interval == 4);
	CHECK(spans(t, mc) == "{3+1}{2+1}");
	CHECK(t.group(mc.groups[0]).flags == 0);
	REQUIRE(mc.parent);
	const SchedDomain& pkg = *mc.parent;
	CHECK(pkg.name == "PKG");
	CHECK(pkg.flags == DEFAULT_FLAGS);
	CHECK(pkg.cache_nice_tries == 1);
	CHECK(pkg.min_interval == 4);
	CHECK(pkg.max_interval == 8);
	CHECK(spans(t, pkg) == "{2+2}{0+2}");
	CHECK(t.group(pkg.groups[0]).flags == mc.flags);
	CHECK(t.group(pkg.groups[1]).sgc->capacity == 2048);
	CHECK(pkg.parent == nullptr);
	CHECK(t.sd_llc(3) == &mc);
	CHECK(t.sd_llc_size(3) == 2);
	CHECK(t.sd_llc_id(3) == 2);
	CHECK(t.sd_llc_shared(3)->nr_busy_cpus == 2);
}

TEST_CASE("topology: one LLC leaves MC alone; one CPU per LLC leaves PKG alone without group flags", "[topology]")
{
	const Topology one_llc(4, 4);
	CHECK(one_llc.sd(0)->name == "MC");
	CHECK(depth(one_llc, 0) == 1);
	const Topology no_llc(4, 1);
	CHECK(no_llc.sd(1)->name == "PKG");
	CHECK(depth(no_llc, 1) == 1);
	CHECK(no_llc.sd(1)->child == nullptr);
	for (u32 g : no_llc.sd(1)->groups)
		CHECK(no_llc.group(g).flags == 0);
	CHECK(no_llc.sd_llc(1) == nullptr);
	CHECK(Topology(1, 1).sd(0) == nullptr);
}

TEST_CASE("topology: a two-socket SMT2 machine has SMT, MC and NUMA levels as sd_init() sets them", "[topology]")
{
	// x86-2s-smt2: 64 CPUs, SMT2, an LLC and a node per socket, SLIT 10/21.
	// CLS spans the core (as SMT) and PKG and NODE the socket (as MC): each
	// is a degenerate parent and goes. NUMA (21 <= 30) keeps fork, exec and
	// wake-up balancing, drops prefer_sibling and serialises.
	const Topology t(shape(64, 2, 0, 32, 32, 21));
	const SchedDomain& smt = *t.sd(17);
	CHECK(smt.name == "SMT");
	CHECK(smt.level == 0);
	CHECK(smt.flags == (DEFAULT_FLAGS | SD_SHARE_CPUCAPACITY | SD_SHARE_LLC));
	CHECK(smt.imbalance_pct == 110);
	CHECK(smt.cache_nice_tries == 0);
	CHECK(spans(t, smt) == "{17+1}{16+1}");
	const SchedDomain& mc = *smt.parent;
	CHECK(mc.name == "MC");
	CHECK(mc.level == 2);
	CHECK(mc.min_interval == 32);
	CHECK(mc.max_interval == 64);
	CHECK(mc.groups.size() == 16);
	CHECK(t.group(mc.groups[0]).span.first() == 16);
	CHECK(t.group(mc.groups[0]).sgc->capacity == 2048);
	CHECK(t.group(mc.groups[0]).flags == smt.flags);  // the removed CLS's first group took SMT's flags
	const SchedDomain& numa = *mc.parent;
	CHECK(numa.name == "NUMA");
	CHECK(numa.level == 5);
	CHECK(numa.flags ==
	      (SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE | SD_SERIALIZE | SD_NUMA));
	CHECK(numa.cache_nice_tries == 2);
	CHECK(numa.imbalance_pct == 117);
	CHECK(numa.min_interval == 64);
	CHECK(numa.max_interval == 128);
	CHECK(spans(t, numa) == "{0+32}{32+32}");
	CHECK(t.group(numa.groups[1]).sgc->capacity == 32768);
	CHECK(numa.parent == nullptr);
	CHECK(t.sd_llc(17) == &mc);
	CHECK(t.sd_llc_size(17) == 32);
	CHECK(t.sd_llc_shared(17)->nr_busy_cpus == 32);
	CHECK(smt.shared != mc.shared);  // each SD_SHARE_LLC level has its own
}

TEST_CASE("topology: a NUMA level beyond node_reclaim_distance balances neither at fork, exec nor wake-up",
	  "[topology]")
{
	const unsigned kept = SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE;
	const Topology far(shape(8, 1, 0, 4, 4, 32, 30));
	const SchedDomain* numa = far.sd(0)->parent;
	REQUIRE(numa->name == "NUMA");
	CHECK((numa->flags & kept) == 0);
	CHECK((numa->flags & SD_BALANCE_NEWIDLE) != 0);
	// AMD Zen raises node_reclaim_distance to 32; the test is "greater".
	const Topology zen(shape(8, 1, 0, 4, 4, 32, 32));
	CHECK((zen.sd(0)->parent->flags & kept) == kept);
}

TEST_CASE("topology: a cluster level stands between the core and the LLC", "[topology]")
{
	// 8 CPUs, clusters of 4, one LLC: SMT (one CPU) goes, CLS is the base
	// (its groups lose the removed SMT's flags), MC spans all and stops
	// the table. The LLC is MC, the highest SD_SHARE_LLC level.
	const Topology t(shape(8, 1, 4, 8, 0));
	const SchedDomain& cls = *t.sd(5);
	CHECK(cls.name == "CLS");
	CHECK(cls.flags == (DEFAULT_FLAGS | SD_CLUSTER | SD_SHARE_LLC));
	CHECK(cls.cache_nice_tries == 1);
	CHECK(spans(t, cls) == "{5+1}{6+1}{7+1}{4+1}");
	for (u32 g : cls.groups)
		CHECK(t.group(g).flags == 0);
	const SchedDomain& mc = *cls.parent;
	CHECK(mc.name == "MC");
	CHECK(spans(t, mc) == "{4+4}{0+4}");
	CHECK(t.group(mc.groups[0]).flags == cls.flags);
	CHECK(mc.parent == nullptr);
	CHECK(t.sd_llc(5) == &mc);
}

TEST_CASE("topology: a shape whose sizes do not nest is refused, naming the size", "[topology]")
{
	CHECK(shape_error(shape(64, 2, 0, 32, 32, 21)).empty());
	CHECK(shape_error(shape(6, 4, 0, 0, 0)) == "smt 4 CPUs per core do not divide the machine's 6 CPUs");
	CHECK(shape_error(shape(8, 2, 3, 6, 0)) == "smt 2 CPUs per core do not divide a cluster of 3");
	CHECK(shape_error(shape(8, 1, 3, 6, 0)) == "llc 6 CPUs do not divide the machine's 8 CPUs");
	CHECK(shape_error(shape(16, 2, 0, 6, 8)) == "llc 6 CPUs do not divide a node of 8");
	CHECK(shape_error(shape(8, 2, 0, 4, 4, 10)) == "numa distance 10 (11..254: node_distance() between two nodes)");
	CHECK(shape_error(shape(300, 1, 0, 0, 0)) == "300 CPUs (1..256)");
	CHECK_THROWS_AS(Topology(shape(8, 3, 0, 0, 0)), std::invalid_argument);
}

TEST_CASE("topology: debugfs lines and the sched_verbose log read as the kernel prints them", "[topology]")
{
	// 4 CPUs, SMT2, one LLC: SMT over each core, MC over all; MC's first
	// group holds SMT's flags after CLS went.
	const std::string out = print_domains(Topology(shape(4, 2, 0, 0, 0)));
	const std::string cpu0 =
		"cpu0/domain0/busy_factor:16\n"
		"cpu0/domain0/cache_nice_tries:0\n"
		"cpu0/domain0/flags:SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE "
		"SD_SHARE_CPUCAPACITY SD_SHARE_LLC SD_PREFER_SIBLING \n"
		"cpu0/domain0/imbalance_pct:110\n"
		"cpu0/domain0/level:0\n"
		"cpu0/domain0/max_interval:4\n"
		"cpu0/domain0/max_newidle_lb_cost:0\n"
		"cpu0/domain0/min_interval:2\n"
		"cpu0/domain0/name:SMT\n"
		"cpu0/domain1/busy_factor:16\n"
		"cpu0/domain1/cache_nice_tries:1\n"
		"cpu0/domain1/flags:SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE SD_SHARE_LLC "
		"SD_PREFER_SIBLING \n"
		"cpu0/domain1/groups_flags:SD_BALANCE_NEWIDLE SD_BALANCE_EXEC SD_BALANCE_FORK SD_WAKE_AFFINE "
		"SD_SHARE_CPUCAPACITY SD_SHARE_LLC SD_PREFER_SIBLING \n"
		"cpu0/domain1/imbalance_pct:117\n"
		"cpu0/domain1/level:2\n"
		"cpu0/domain1/max_interval:8\n"
		"cpu0/domain1/max_newidle_lb_cost:0\n"
		"cpu0/domain1/min_interval:4\n"
		"cpu0/domain1/name:MC\n"
		"cpu1/";
	CHECK(out.rfind(cpu0, 0) == 0);
	const std::string cpu2 =
		"CPU2 attaching sched-domain(s):\n"
		" domain-0: span=2-3 level=SMT\n"
		"  groups: 2:{ span=2 }, 3:{ span=3 }\n"
		"  domain-1: span=0-3 level=MC\n"
		"   groups: 2:{ span=2-3 cap=2048 }, 0:{ span=0-1 cap=2048 }\n"
		"CPU3 attaching sched-domain(s):\n";
	CHECK(out.find(cpu2) != std::string::npos);
	CHECK(print_domains(Topology(1, 1)) == "CPU0 attaching NULL sched-domain.\n");
}

TEST_CASE("topology: --topology reads presets and key=value lists, and names a bad key or value", "[topology]")
{
	using cli::parse_topology;
	CHECK(parse_topology("x86-2s-smt2", 1, "--topology") == shape(64, 2, 0, 32, 32, 21));
	CHECK(parse_topology("llc=2", 4, "--topology") == shape(4, 1, 0, 2, 0));
	CHECK(cli::topology_spec(parse_topology("epyc-1s-nps2", 1, "--topology")) ==
	      "cpus=64,smt=2,cluster=2,llc=16,node=32,distance=12,reclaim=32");
	CHECK_THROWS_WITH(parse_topology("smt=two", 4, "--topology"),
			  "--topology 'smt=two': smt=two is not a count");
	CHECK_THROWS_WITH(parse_topology("cpus=8,socket=2", 1, "--topology"),
			  "--topology 'cpus=8,socket=2': unknown key 'socket' (cpus, smt, cluster, llc, node, "
			  "distance, reclaim)");
	CHECK_THROWS_WITH(parse_topology("cpus=8", 4, "--topology"), "--topology 'cpus=8': cpus=8 but --cpus 4");
	CHECK_THROWS_WITH(parse_topology("cpus=8,llc=3", 1, "--topology"),
			  "--topology 'cpus=8,llc=3': llc 3 CPUs do not divide the machine's 8 CPUs");
	CHECK_THROWS_AS(parse_topology("epyc", 1, "--topology"), cli::UsageError);
}

namespace {

// A copy of /sys/devices/system to write by hand, removed afterwards.
struct FakeSysfs {
	std::filesystem::path root;
	FakeSysfs()
	{
		root = std::filesystem::temp_directory_path() / ("eevdf-sysfs-" + std::to_string(::getpid()));
		std::filesystem::remove_all(root);
	}
	~FakeSysfs() { std::filesystem::remove_all(root); }
	void put(const std::string& rel, const std::string& text) const
	{
		const std::filesystem::path p = root / rel;
		std::filesystem::create_directories(p.parent_path());
		std::ofstream(p) << text << "\n";
	}
	void cpu(u32 c, const std::string& threads, const std::string& l3) const
	{
		const std::string d = "cpu/cpu" + std::to_string(c) + "/";
		put(d + "topology/thread_siblings_list", threads);
		put(d + "topology/package_cpus_list", "0-7");
		put(d + "cache/index0/level", "1");
		put(d + "cache/index0/type", "Data");
		put(d + "cache/index0/shared_cpu_list", threads);
		put(d + "cache/index1/level", "1");
		put(d + "cache/index1/type", "Instruction");
		put(d + "cache/index1/shared_cpu_list", threads);
		put(d + "cache/index2/level", "2");
		put(d + "cache/index2/type", "Unified");
		put(d + "cache/index2/shared_cpu_list", threads);
		put(d + "cache/index3/level", "3");
		put(d + "cache/index3/type", "Unified");
		put(d + "cache/index3/shared_cpu_list", l3);
	}
};

}  // namespace

TEST_CASE("topology: sysfs of an x86 machine numbering its SMT siblings apart is renumbered core by core",
	  "[topology]")
{
	// 8 CPUs: cores {0,4} {1,5} on node 0 (one L3), {2,6} {3,7} on node 1;
	// SLIT 10/21. The model's CPUs 0..7 are the machine's 0,4,1,5,2,6,3,7.
	FakeSysfs fs;
	fs.put("cpu/online", "0-7");
	for (u32 c = 0; c < 8; c++)
		fs.cpu(c, std::to_string(c % 4) + "," + std::to_string(c % 4 + 4), c % 4 < 2 ? "0-1,4-5" : "2-3,6-7");
	fs.put("node/node0/cpulist", "0-1,4-5");
	fs.put("node/node1/cpulist", "2-3,6-7");
	fs.put("node/node0/distance", "10 21");
	fs.put("node/node1/distance", "21 10");
	const cli::SysfsTopology t = cli::read_sysfs_topology(fs.root.string(), "--topology sysfs");
	CHECK(cli::topology_spec(t.shape) == "cpus=8,smt=2,cluster=2,llc=4,node=4,distance=21,reclaim=30");
	CHECK(t.machine_cpu == std::vector<u32>{0, 4, 1, 5, 2, 6, 3, 7});
	CHECK(cli::parse_topology("sysfs:" + fs.root.string(), 1, "--topology") == t.shape);
}

TEST_CASE("topology: sysfs of an irregular machine is refused, naming the level", "[topology]")
{
	// CPU 3's core has SMT switched off: cores of 2, 2 and 1 CPUs.
	FakeSysfs fs;
	fs.put("cpu/online", "0-4");
	for (u32 c = 0; c < 4; c++)
		fs.cpu(c, c < 2 ? "0-1" : "2-3", "0-4");
	fs.cpu(4, "4", "0-4");
	CHECK_THROWS_WITH(cli::read_sysfs_topology(fs.root.string(), "--topology sysfs"),
			  Catch::Contains("the SMT siblings (thread_siblings_list) are not all of 2 CPUs"));
	fs.put("cpu/online", "0-x");
	CHECK_THROWS_WITH(cli::read_sysfs_topology(fs.root.string(), "--topology sysfs"),
			  Catch::Contains("online: '0-x' is not a CPU list"));
}

namespace {

// A topology file in the temporary directory, removed afterwards.
struct TopologyFile {
	std::filesystem::path path;
	explicit TopologyFile(const std::string& text)
	{
		path = std::filesystem::temp_directory_path() / ("eevdf-topology-" + std::to_string(::getpid()) + ".json");
		std::ofstream(path) << text;
	}
	~TopologyFile() { std::filesystem::remove(path); }
};

}  // namespace

TEST_CASE("topology: a topology file gives the spec's keys as a JSON object", "[topology]")
{
	const TopologyFile f(R"({"name": "2s", "what": "two sockets", "cpus": 64, "smt": 2, "llc": 32,
		"node": 32, "distance": 21})");
	CHECK(eevdf::cli::parse_topology(f.path.string(), 1, "--topology") ==
	      eevdf::cli::parse_topology("x86-2s-smt2", 1, "--topology"));
	// cpus defaults to --cpus, as in a key=value spec.
	const TopologyFile g(R"({"smt": 2})");
	CHECK(eevdf::cli::parse_topology(g.path.string(), 8, "--topology").cpus == 8);
}

TEST_CASE("topology: a bad topology file is refused naming the file, line, key and value", "[topology]")
{
	auto err = [](const std::string& text) {
		const TopologyFile f(text);
		try {
			eevdf::cli::parse_topology(f.path.string(), 1, "--topology");
		} catch (const eevdf::InputError& e) {
			return std::string(e.what()).substr(f.path.string().size());
		} catch (const std::exception& e) {
			return std::string("other: ") + e.what();
		}
		return std::string("accepted");
	};
	CHECK(err(R"({"cpus": 8, "threads": 2})") == ":1:13: threads: unknown key (cpus, smt, cluster, llc, node, "
						      "distance, reclaim, name, what)");
	CHECK(err(R"({"cpus": "8"})") == R"(:1:10: cpus: expected an integer 0..999999999, got "8")");
	CHECK(err(R"({"cpus": -8})") == ":1:10: cpus: expected an integer 0..999999999, got -8");
	CHECK(err(R"({"cpus": 8, "smt": 4294967298})").find("smt: expected an integer") != std::string::npos);
	CHECK(err(R"({"cpus": 8, "cpus": 4})") == ":1:13: cpus: given twice");
	CHECK(err("[8]") == ":1:1: topology: expected a JSON object, got [8]");
	CHECK(err(R"({"cpus": 8, "smt": 3})") == ": topology: smt 3 CPUs per core do not divide the machine's 8 CPUs");
	CHECK(err(R"({"cpus": 8, "node": 4, "distance": 300})").find("numa distance 300") != std::string::npos);
}
