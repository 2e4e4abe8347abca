// SPDX-License-Identifier: GPL-2.0-only
#include "io/topology_sysfs.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/values.hpp"

namespace eevdf::cli {
namespace {

namespace fs = std::filesystem;

// A sysfs file is one short line; more than 64 KiB is not one.
bool read_small(const fs::path& p, std::string& out)
{
	std::ifstream f(p, std::ios::binary);
	if (!f)
		return false;
	out.assign(65537, '\0');  // at most one byte past the bound (a device that never ends)
	f.read(out.data(), static_cast<std::streamsize>(out.size()));
	out.resize(static_cast<size_t>(f.gcount()));
	if (out.size() > 65536 || f.bad())
		return false;
	while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
		out.pop_back();
	return true;
}

struct Reader {
	std::string flag;

	[[noreturn]] void fail(const fs::path& p, const std::string& what) const
	{
		throw UsageError(flag + ": " + p.string() + ": " + what);
	}

	std::string text(const fs::path& p) const
	{
		std::string s;
		if (!read_small(p, s))
			fail(p, "cannot read it");
		return s;
	}

	// "0-3,8-11" (bitmap_parselist()); an empty file (a node without
	// CPUs) is no CPU.
	CpuMask cpulist(const fs::path& p) const
	{
		const std::string s = text(p);
		CpuMask m;
		if (!s.empty())
			for (u32 c : parse_cpu_list(s, flag + ": " + p.string()))
				m.set(c);
		return m;
	}
};

// The highest-level data or unified cache's sharing list, or none.
bool llc_of(const Reader& r, const fs::path& cpu_dir, CpuMask& llc)
{
	const fs::path cache = cpu_dir / "cache";
	std::error_code ec;
	if (!fs::is_directory(cache, ec))
		return false;
	int best = -1;
	for (u32 i = 0; i < 64; i++) {
		const fs::path idx = cache / ("index" + std::to_string(i));
		if (!fs::is_directory(idx, ec))
			continue;
		std::string level, type;
		if (!read_small(idx / "level", level) || !read_small(idx / "type", type))
			continue;
		if (type == "Instruction")
			continue;
		const int l = std::atoi(level.c_str());
		if (l > best) {
			best = l;
			llc = r.cpulist(idx / "shared_cpu_list");
		}
	}
	return best >= 0;
}

}  // namespace

SysfsTopology read_sysfs_topology(const std::string& root_dir, const std::string& flag)
{
	const Reader r{flag};
	const fs::path root(root_dir);
	const CpuMask online = r.cpulist(root / "cpu" / "online");
	const u32 n = online.weight();
	if (!n)
		r.fail(root / "cpu" / "online", "no CPU is online");

	// Each online CPU's sets at the four levels, as the machine numbers them.
	std::array<std::vector<CpuMask>, 4> sets;  // thread, cluster, llc, node
	for (auto& v : sets)
		v.assign(MAX_CPUS, CpuMask{});
	std::vector<CpuMask> nodes;
	std::vector<u32> node_ids;
	std::error_code ec;
	for (u32 id = 0; id < 1024; id++) {
		const fs::path d = root / "node" / ("node" + std::to_string(id));
		if (!fs::is_directory(d, ec))
			continue;
		const CpuMask m = r.cpulist(d / "cpulist") & online;
		if (!m.empty()) {
			nodes.push_back(m);
			node_ids.push_back(id);
		}
	}
	for (u32 c = online.first(); c < MAX_CPUS; c = online.next(c + 1)) {
		const fs::path cpu = root / "cpu" / ("cpu" + std::to_string(c));
		const fs::path topo = cpu / "topology";
		sets[0][c] = r.cpulist(topo / "thread_siblings_list") & online;
		sets[1][c] = fs::exists(topo / "cluster_cpus_list", ec) ? r.cpulist(topo / "cluster_cpus_list") & online
									 : sets[0][c];
		CpuMask llc;
		if (!llc_of(r, cpu, llc))
			llc = r.cpulist(fs::exists(topo / "die_cpus_list", ec) ? topo / "die_cpus_list"
									 : topo / "package_cpus_list");
		sets[2][c] = llc & online;
		sets[3][c] = online;
		for (const CpuMask& m : nodes)
			if (m.test(c))
				sets[3][c] = m;
		if (!sets[0][c].test(c))
			r.fail(topo / "thread_siblings_list", "does not hold CPU " + std::to_string(c));
	}

	// The model's order: by node, LLC, cluster, core, then CPU number.
	std::vector<u32> order;
	for (u32 c = online.first(); c < MAX_CPUS; c = online.next(c + 1))
		order.push_back(c);
	std::stable_sort(order.begin(), order.end(), [&](u32 a, u32 b) {
		for (int l = 3; l >= 0; l--)
			if (sets[static_cast<size_t>(l)][a].first() != sets[static_cast<size_t>(l)][b].first())
				return sets[static_cast<size_t>(l)][a].first() < sets[static_cast<size_t>(l)][b].first();
		return a < b;
	});

	// Regular: at each level every set has one size, is a block of the
	// model's order, and lies within the level above.
	static const char* const level_name[] = {"SMT siblings (thread_siblings_list)", "clusters (cluster_cpus_list)",
						 "LLCs (cache/indexN/shared_cpu_list, or the die or package)",
						 "NUMA nodes (node/nodeN/cpulist)"};
	std::array<u32, 4> size{};
	for (size_t l = 0; l < 4; l++) {
		size[l] = sets[l][order[0]].weight();
		for (u32 k = 0; k < n; k++) {
			const u32 c = order[k];
			const CpuMask& m = sets[l][c];
			bool block = m.weight() == size[l];
			for (u32 j = k / size[l] * size[l]; block && j < k / size[l] * size[l] + size[l]; j++)
				block = j < n && m.test(order[j]);
			if (!block)
				r.fail(root, std::string("the ") + level_name[l] + " are not all of " + std::to_string(size[l]) +
						     " CPUs nested in the level above (CPU " + std::to_string(c) +
						     "'s); the model takes regular machines");
			if (l && !sets[l - 1][c].subset_of(m))
				r.fail(root, std::string("the ") + level_name[l - 1] + " of CPU " + std::to_string(c) +
						     " are not within its " + level_name[l]);
		}
	}

	SysfsTopology t;
	t.machine_cpu = order;
	t.shape.cpus = n;
	t.shape.smt = size[0];
	t.shape.cluster = size[1];
	t.shape.llc = size[2];
	t.shape.node = size[3];
	if (nodes.size() > 1) {
		u32 remote = 0;
		for (size_t i = 0; i < nodes.size(); i++) {
			const fs::path p = root / "node" / ("node" + std::to_string(node_ids[i])) / "distance";
			std::istringstream ds(r.text(p));
			std::vector<u32> row;
			for (u32 d; ds >> d;)
				row.push_back(d);
			for (size_t j = 0; j < nodes.size(); j++) {
				if (node_ids[j] >= row.size())
					r.fail(p, "has no distance to node " + std::to_string(node_ids[j]));
				const u32 d = row[node_ids[j]];
				if (i == j)
					continue;
				if (remote && d != remote)
					r.fail(p, "distances " + std::to_string(remote) + " and " + std::to_string(d) +
							  " between nodes: the model has one remote distance");
				remote = d;
			}
		}
		t.shape.numa_distance = remote;
	}
	if (const std::string e = shape_error(t.shape); !e.empty())
		r.fail(root, e);
	return t;
}

}  // namespace eevdf::cli
