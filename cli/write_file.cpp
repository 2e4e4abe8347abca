// SPDX-License-Identifier: GPL-2.0-only
#include "cli/write_file.hpp"

#include <iostream>

#include "io/output_file.hpp"
#include "io/values.hpp"

namespace eevdf::cli {

void write_file_atomic(const std::string& path, const std::string& text, const std::string& flag,
		       const std::vector<std::string>& inputs)
{
	if (path == "-") {  // the standard output; the caller prints nothing else there
		std::cout << text;
		return;
	}
	const std::string err = write_output_file(path, text, flag, inputs);
	if (!err.empty())
		throw UsageError(err);
}

}  // namespace eevdf::cli
