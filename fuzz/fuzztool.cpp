// SPDX-License-Identifier: GPL-2.0-only
// fuzztool seeds DIR        write the seed corpora (DIR/fuzz_workload, ...)
// fuzztool show FILE...     a fuzz_workload/fuzz_worst input as an rt-app file and its flags
// fuzztool show-diff FILE   a fuzz_differential preset input, as its preset runs it
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "fuzz/genome.hpp"
#include "io/rtapp.hpp"

using namespace eevdf;
using namespace eevdf::fuzz;

namespace {

void write(const std::filesystem::path& p, const std::vector<uint8_t>& bytes)
{
	std::filesystem::create_directories(p.parent_path());
	std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
						 static_cast<std::streamsize>(bytes.size()));
}

std::vector<uint8_t> read(const char* path)
{
	std::ifstream in(path, std::ios::binary);
	return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void show(const Case& c)
{
	std::printf("%s# eevdf sim FILE %s --check\n", to_rtapp_json(c.wl).c_str(), command_line_flags(c.cfg).c_str());
}

}  // namespace

int main(int argc, char** argv)
{
	const std::string cmd = argc > 1 ? argv[1] : "";
	if (cmd == "seeds" && argc == 3) {
		const std::filesystem::path dir = argv[2];
		for (const auto& [name, g] : seed_genomes()) {
			const auto bytes = g.encode();
			write(dir / "fuzz_workload" / name, bytes);
			write(dir / "fuzz_worst" / name, bytes);
			std::vector<uint8_t> d{1};
			d.insert(d.end(), bytes.begin(), bytes.end());
			write(dir / "fuzz_differential" / name, d);
		}
		// cfs_rq operation sequences: preset, HZ, flags, n, entities, then ops.
		for (unsigned p = 0; p < kernel_presets().size(); p++) {
			std::vector<uint8_t> d{0, static_cast<uint8_t>(p), 3, 0, 0, 6};
			for (int i = 0; i < 6; i++)
				d.insert(d.end(), {static_cast<uint8_t>(20 + 7 * i), static_cast<uint8_t>(i % 2 ? 2 * i + 1 : 0)});
			uint64_t rng = p + 1;
			for (int k = 0; k < 200; k++)
				for (int b = 0; b < 4; b++)
					d.push_back(static_cast<uint8_t>(next_rand(rng)));
			write(dir / "fuzz_differential" / ("cfs_ops_" + std::string(kernel_presets()[p].name)), d);
		}
		return 0;
	}
	if (cmd == "show" && argc >= 3) {
		for (int i = 2; i < argc; i++) {
			const auto b = read(argv[i]);
			show(build(Genome::decode(b.data(), b.size()), bugs_from_env()));
		}
		return 0;
	}
	if (cmd == "show-diff" && argc == 3) {
		const auto b = read(argv[2]);
		if (b.empty() || b[0] % 2 == 0) {
			std::fprintf(stderr, "a cfs_rq operation sequence: replay it with fuzz_differential FILE\n");
			return 2;
		}
		show(build(agreement_class(Genome::decode(b.data() + 1, b.size() - 1)), bugs_from_env()));
		return 0;
	}
	std::fprintf(stderr, "usage: fuzztool seeds DIR | show FILE... | show-diff FILE\n");
	return 2;
}
