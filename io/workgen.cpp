// SPDX-License-Identifier: GPL-2.0-only
#include "io/workgen.hpp"

namespace eevdf {
namespace {

// Python's str.strip(chars) with the characters workgen strips a key of.
std::string_view strip_key(std::string_view s)
{
	constexpr std::string_view chars = "\"\t\n\r ";
	const size_t b = s.find_first_not_of(chars);
	if (b == std::string_view::npos)
		return {};
	const size_t e = s.find_last_not_of(chars);
	return s.substr(b, e - b + 1);
}

}  // namespace

WorkgenResult workgen_suspend(std::string_view text)
{
	WorkgenResult r;
	r.text.reserve(text.size() + 64);
	int depth = 0;
	std::string task;
	size_t at = 0;
	while (at < text.size()) {
		size_t nl = text.find('\n', at);
		const size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
		std::string line(text.substr(at, end - at));
		at = end;

		const size_t colon = line.find(':');
		const bool bare_suspend = colon == std::string::npos && line.find("suspend") != std::string::npos;
		const std::string key(colon != std::string::npos ? strip_key(std::string_view(line).substr(0, colon))
					 : bare_suspend                ? std::string_view("suspend")
								       : std::string_view("exception"));
		if (key.find("tasks") == std::string::npos && depth == 0) {
			r.text += line;
			continue;
		}
		if (line.find('{') != std::string::npos && ++depth == 2)
			task = key;
		if (line.find('}') != std::string::npos)
			depth--;
		if (bare_suspend) {
			// Before the first ',', else before the newline; a last line
			// with neither is left as workgen's str.replace leaves it.
			size_t pos = line.find(',');
			if (pos == std::string::npos)
				pos = line.find('\n');
			if (pos != std::string::npos) {
				line.insert(pos, " : \"" + task + "\"");
				r.suspends++;
			}
		}
		r.text += line;
	}
	return r;
}

}  // namespace eevdf
