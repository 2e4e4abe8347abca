// SPDX-License-Identifier: GPL-2.0-only
#include "report/version.hpp"

#include "report/json_writer.hpp"

namespace eevdf::cli {

std::string version_line()
{
	std::string s = std::string("eevdf ") + EEVDF_VERSION;
	if (EEVDF_GIT_DESCRIBE[0] != '\0')
		s += std::string(" (git ") + EEVDF_GIT_DESCRIBE + ")";
	return s;
}

nlohmann::ordered_json version_json()
{
	nlohmann::ordered_json j;
	j["version"] = std::string(EEVDF_VERSION);
	if (EEVDF_GIT_DESCRIBE[0] != '\0')
		j["git"] = std::string(EEVDF_GIT_DESCRIBE);
	return j;
}

void write_version(JsonWriter& w)
{
	w.begin_object();
	w.member("version", std::string_view(EEVDF_VERSION));
	if (EEVDF_GIT_DESCRIBE[0] != '\0')
		w.member("git", std::string_view(EEVDF_GIT_DESCRIBE));
	w.end_object();
}

}  // namespace eevdf::cli
