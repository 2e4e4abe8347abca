// SPDX-License-Identifier: GPL-2.0-only
#include "io/input_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "io/input_error.hpp"

namespace eevdf {

std::string read_input_file(const std::string& path, const std::string& what, std::size_t limit)
{
	std::FILE* f = std::fopen(path.c_str(), "rb");
	if (!f)
		throw InputError(path + ": cannot open the " + what + ": " + std::strerror(errno));
	std::string text;
	char buf[65536];
	std::size_t n;
	while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
		if (text.size() + n > limit) {
			std::fclose(f);
			throw InputError(path + ": refused: more than " + std::to_string(limit >> 20) + " MiB (" + what +
					 "s are a few KB: is this the right file?)");
		}
		text.append(buf, n);
	}
	const bool failed = std::ferror(f);
	const int err = errno;
	std::fclose(f);
	if (failed)
		throw InputError(path + ": cannot read the " + what + ": " + std::strerror(err));
	return text;
}

}  // namespace eevdf
