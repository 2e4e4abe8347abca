// SPDX-License-Identifier: GPL-2.0-only
#include "cli/companion.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace eevdf::cli {
namespace {

bool executable(const std::string& path) { return !path.empty() && access(path.c_str(), X_OK) == 0; }

std::string self_dir()
{
	char buf[4096];
	const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0)
		return "";
	std::string p(buf, static_cast<size_t>(n));
	return p.substr(0, p.rfind('/'));
}

}  // namespace

std::string find_companion(const Companion& c)
{
	if (const char* env = std::getenv(c.env); env && executable(env))
		return env;
	const std::string dir = self_dir();
	const std::string name = c.name;
	for (const std::string& p : {dir + "/" + name, dir + "/../" + c.subdir + "/" + name})
		if (!dir.empty() && executable(p))
			return p;
	const char* path = std::getenv("PATH");
	std::string rest = path ? path : "";
	while (!rest.empty()) {
		const size_t colon = rest.find(':');
		const std::string d = rest.substr(0, colon);
		rest = colon == std::string::npos ? "" : rest.substr(colon + 1);
		if (!d.empty() && executable(d + "/" + name))
			return d + "/" + name;
	}
	return "";
}

int exec_companion(const Companion& c, const std::vector<std::string>& args)
{
	const std::string probe = find_companion(c);
	if (probe.empty()) {
		std::cerr << "eevdf: cannot find " << c.name << " next to eevdf, in ../" << c.subdir
			  << "/ or in PATH; build it with 'cmake --build build --target " << c.target << "' (or set "
			  << c.env << "=/path/to/" << c.name << ")\n";
		return 2;
	}
	std::vector<char*> argv;
	std::string name = c.name;
	argv.push_back(name.data());
	std::vector<std::string> copy = args;
	for (std::string& a : copy)
		argv.push_back(a.data());
	argv.push_back(nullptr);
	std::cout.flush();
	execv(probe.c_str(), argv.data());
	std::cerr << "eevdf: cannot run " << probe << ": " << std::strerror(errno) << "\n";
	return 2;
}

}  // namespace eevdf::cli
