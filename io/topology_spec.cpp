// SPDX-License-Identifier: GPL-2.0-only
#include "io/topology_spec.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>

#include "io/input_error.hpp"
#include "io/input_file.hpp"
#include "io/json.hpp"
#include "io/topology_sysfs.hpp"
#include "io/values.hpp"

namespace eevdf::cli {

const std::vector<TopologyPreset>& topology_presets()
{
	static const std::vector<TopologyPreset> presets{
		{"vm-2vcpu", "cpus=2", "this project's VM: 2 vCPUs in one LLC, one node (probe/results)"},
		{"x86-2s-smt2", "cpus=64,smt=2,llc=32,node=32,distance=21",
		 "a 2-socket x86 server: 16 cores x SMT2 per socket, one LLC and one node per socket, SLIT 10/21"},
		{"epyc-1s-nps2", "cpus=64,smt=2,llc=16,node=32,distance=12,reclaim=32",
		 "an AMD EPYC-like socket: 32 cores x SMT2 in CCXs of 8 cores (one L3 each), NPS2 (2 nodes, SLIT "
		 "10/12), node_reclaim_distance 32 as init_amd_zen_common() sets it"},
		{"power10-lpar", "cpus=40,smt=4,llc=4",
		 "seed 003's dedicated LPAR if POWER10 (assumed): 5 SMT8 cores, each two 4-thread halves that "
		 "powerpc's topology makes SMT groups sharing a cache (thread_group_l2_cache_map), the top level "
		 "over all 40 CPUs without SD_SHARE_LLC; one node; CPUs renumbered half-core by half-core "
		 "(docs/notes/powerpc-topology.md)"},
		{"power9-lpar", "cpus=40,smt=4,llc=8",
		 "the same LPAR on POWER9: SMT over each 4-thread half of a big core, CACHE (the shared L2) over "
		 "the 8-thread core, the top level over all 40 CPUs; one node"},
	};
	return presets;
}

namespace {

u32 parse_count(std::string_view key, std::string_view v, std::string_view flag, std::string_view spec)
{
	u32 x = 0;
	const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
	if (v.empty() || ec != std::errc() || p != v.data() + v.size())
		throw UsageError(std::string(flag) + " '" + std::string(spec) + "': " + std::string(key) + "=" +
				 std::string(v) + " is not a count");
	return x;
}

// The keys of a "key=value,..." spec and the field each sets.
struct Field {
	std::string_view key;
	u32 MachineShape::*member;
};
constexpr Field FIELDS[] = {{"cpus", &MachineShape::cpus},        {"smt", &MachineShape::smt},
			    {"cluster", &MachineShape::cluster},  {"llc", &MachineShape::llc},
			    {"node", &MachineShape::node},        {"distance", &MachineShape::numa_distance},
			    {"reclaim", &MachineShape::reclaim_distance}};

[[noreturn]] void bad(const std::string& file, int line, int column, const std::string& field, const std::string& what)
{
	throw InputError(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + field + ": " + what);
}
[[noreturn]] void bad(const std::string& file, const json::Value& at, const std::string& field, const std::string& what)
{
	bad(file, at.line, at.column, field, what);
}

// A topology file: one JSON object whose members are the spec's keys, each
// a non-negative integer of at most 9 digits (shape_error() then bounds
// them), and optionally "name" and "what", strings naming the machine.
MachineShape read_topology_file(const std::string& file, u32 cpus, std::string_view flag)
{
	const json::Value doc = json::parse(read_input_file(file, "topology file", MAX_TOPOLOGY_BYTES), file);
	if (!doc.is_object())
		bad(file, doc, "topology", "expected a JSON object, got " + json::describe(doc));
	MachineShape m;
	m.cpus = cpus;
	bool have_cpus = false;
	std::vector<std::string> seen;
	for (const json::Member& mem : doc.members) {
		const json::Value& v = mem.value;
		if (std::find(seen.begin(), seen.end(), mem.key) != seen.end())
			bad(file, mem.line, mem.column, mem.key, "given twice");
		seen.push_back(mem.key);
		if (mem.key == "name" || mem.key == "what") {
			if (!v.is_string() || v.text.size() > 1024)
				bad(file, v, mem.key, "expected a string of at most 1024 bytes, got " + json::describe(v));
			continue;
		}
		const auto field = std::find_if(std::begin(FIELDS), std::end(FIELDS),
						[&](const Field& f) { return f.key == mem.key; });
		if (field == std::end(FIELDS))
			bad(file, mem.line, mem.column, mem.key,
			    "unknown key (cpus, smt, cluster, llc, node, distance, reclaim, name, what)");
		const std::string& t = v.text;
		if (v.type != json::Value::Type::Number || t.empty() || t.size() > 9 ||
		    t.find_first_not_of("0123456789") != std::string::npos)
			bad(file, v, mem.key, "expected an integer 0..999999999, got " + json::describe(v));
		m.*(field->member) = static_cast<u32>(std::stoul(t));
		have_cpus = have_cpus || field->member == &MachineShape::cpus;
	}
	if (have_cpus && cpus != 1 && cpus != m.cpus)
		throw UsageError(std::string(flag) + " " + file + ": cpus " + std::to_string(m.cpus) + " but --cpus " +
				 std::to_string(cpus));
	if (const std::string e = shape_error(m); !e.empty())
		throw InputError(file + ": topology: " + e);
	return m;
}

}  // namespace

bool is_topology_file(std::string_view spec)
{
	return spec.find('/') != std::string_view::npos ||
	       (spec.size() > 5 && spec.substr(spec.size() - 5) == ".json");
}

std::string sysfs_root(std::string_view spec)
{
	if (spec == "sysfs")
		return SYSFS_ROOT;
	return spec.rfind("sysfs:", 0) == 0 ? std::string(spec.substr(6)) : std::string();
}

MachineShape parse_topology(std::string_view spec, u32 cpus, std::string_view flag)
{
	const std::string given(spec);
	if (const std::string root = sysfs_root(spec); !root.empty()) {
		const MachineShape m = read_sysfs_topology(root, std::string(flag) + " " + given).shape;
		if (cpus != 1 && cpus != m.cpus)
			throw UsageError(std::string(flag) + " " + given + ": " + std::to_string(m.cpus) +
					 " CPUs online but --cpus " + std::to_string(cpus));
		return m;
	}
	if (is_topology_file(spec))
		return read_topology_file(given, cpus, flag);
	for (const TopologyPreset& p : topology_presets())
		if (p.name == spec)
			spec = p.spec;
	MachineShape m;
	m.cpus = cpus;
	bool have_cpus = false;
	unsigned seen = 0;  // bit i: FIELDS[i] given
	if (spec.empty())
		throw UsageError(std::string(flag) + ": empty (a preset name or key=value,... )");
	while (!spec.empty()) {
		const size_t comma = spec.find(',');
		const std::string_view item = spec.substr(0, comma);
		spec = comma == std::string_view::npos ? std::string_view{} : spec.substr(comma + 1);
		const size_t eq = item.find('=');
		if (eq == std::string_view::npos) {
			std::string names;
			for (const TopologyPreset& p : topology_presets())
				names += (names.empty() ? "" : ", ") + std::string(p.name);
			throw UsageError(std::string(flag) + " '" + given + "': '" + std::string(item) +
					 "' is neither key=value nor a preset (" + names + ")");
		}
		const std::string_view key = item.substr(0, eq), v = item.substr(eq + 1);
		const auto field = std::find_if(std::begin(FIELDS), std::end(FIELDS),
						[&](const Field& f) { return f.key == key; });
		if (field == std::end(FIELDS))
			throw UsageError(std::string(flag) + " '" + given + "': unknown key '" + std::string(key) +
					 "' (cpus, smt, cluster, llc, node, distance, reclaim)");
		const unsigned bit = 1u << (field - std::begin(FIELDS));
		if (seen & bit)
			throw UsageError(std::string(flag) + " '" + given + "': key '" + std::string(key) +
					 "' given twice");
		seen |= bit;
		m.*(field->member) = parse_count(key, v, flag, given);
		have_cpus = have_cpus || field->member == &MachineShape::cpus;
	}
	if (have_cpus && cpus != 1 && cpus != m.cpus)
		throw UsageError(std::string(flag) + " '" + given + "': cpus=" + std::to_string(m.cpus) +
				 " but --cpus " + std::to_string(cpus));
	if (const std::string e = shape_error(m); !e.empty())
		throw UsageError(std::string(flag) + " '" + given + "': " + e);
	return m;
}

std::string topology_spec(const MachineShape& m)
{
	return "cpus=" + std::to_string(m.cpus) + ",smt=" + std::to_string(m.smt) +
	       ",cluster=" + std::to_string(m.cluster_size()) + ",llc=" + std::to_string(m.llc_size()) +
	       ",node=" + std::to_string(m.node_size()) + ",distance=" + std::to_string(m.numa_distance) +
	       ",reclaim=" + std::to_string(m.reclaim_distance);
}

}  // namespace eevdf::cli
