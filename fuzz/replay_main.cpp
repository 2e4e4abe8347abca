// SPDX-License-Identifier: GPL-2.0-only
// A standalone driver for the fuzz targets when libFuzzer is not linked (any
// compiler): replays every file given (or every file in a directory given),
// then optionally mutates the replayed inputs for a while without coverage
// feedback, with the target's custom mutator if it has one:
//   TARGET [-mutate=N] [-seed=S] [-max_total_time=SEC] FILE|DIR...
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed)
	__attribute__((weak));

namespace {

std::vector<uint8_t> read_file(const std::filesystem::path& p)
{
	std::ifstream in(p, std::ios::binary);
	return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

uint64_t next(uint64_t& s)
{
	s ^= s << 13, s ^= s >> 7, s ^= s << 17;
	return s;
}

}  // namespace

int main(int argc, char** argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	long mutations = 0;
	double seconds = 0;
	uint64_t seed = 1;
	std::vector<std::filesystem::path> files;
	for (int i = 1; i < argc; i++) {
		const std::string a = argv[i];
		if (a.rfind("-mutate=", 0) == 0)
			mutations = std::atol(a.c_str() + 8);
		else if (a.rfind("-seed=", 0) == 0)
			seed = std::strtoull(a.c_str() + 6, nullptr, 10) | 1;
		else if (a.rfind("-max_total_time=", 0) == 0)
			seconds = std::atof(a.c_str() + 16);
		else if (a[0] == '-')
			continue;  // libFuzzer flags from .options files are ignored
		else if (std::filesystem::is_directory(a)) {
			std::vector<std::filesystem::path> in;
			for (const auto& e : std::filesystem::directory_iterator(a))
				if (e.is_regular_file())
					in.push_back(e.path());
			std::sort(in.begin(), in.end());
			files.insert(files.end(), in.begin(), in.end());
		} else
			files.emplace_back(a);
	}
	std::vector<std::vector<uint8_t>> corpus;
	for (const auto& f : files) {
		corpus.push_back(read_file(f));
		LLVMFuzzerTestOneInput(corpus.back().data(), corpus.back().size());
	}
	std::printf("replayed %zu inputs\n", corpus.size());
	if (corpus.empty())
		corpus.emplace_back();
	const auto start = std::chrono::steady_clock::now();
	long done = 0;
	for (; done < mutations || seconds > 0; done++) {
		const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
		if ((mutations && done >= mutations) || (seconds > 0 && elapsed >= seconds))
			break;
		std::vector<uint8_t> in = corpus[next(seed) % corpus.size()];
		size_t size = std::max<size_t>(in.size(), 1);
		const size_t max = std::max<size_t>(2 * size, 4096);
		in.resize(max);
		if (LLVMFuzzerCustomMutator)
			size = LLVMFuzzerCustomMutator(in.data(), size, max, static_cast<unsigned>(next(seed)));
		else
			for (int k = 1 + static_cast<int>(next(seed) % 4); k; k--)
				in[next(seed) % size] = static_cast<uint8_t>(next(seed));
		LLVMFuzzerTestOneInput(in.data(), size);
	}
	if (done)
		std::printf("ran %ld mutated inputs\n", done);
	return 0;
}
