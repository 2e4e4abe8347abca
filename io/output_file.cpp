// SPDX-License-Identifier: GPL-2.0-only
#include "io/output_file.hpp"

#include <cstdio>
#include <fstream>

namespace eevdf {

bool write_output_file(const std::string& path, const std::string& text)
{
	const std::string tmp = path + ".tmp";
	{
		std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
		if (!f || !f.write(text.data(), static_cast<std::streamsize>(text.size())) || !f.flush()) {
			std::remove(tmp.c_str());
			return false;
		}
	}
	if (std::rename(tmp.c_str(), path.c_str()) != 0) {
		std::remove(tmp.c_str());
		return false;
	}
	return true;
}

}  // namespace eevdf
