// SPDX-License-Identifier: GPL-2.0-only
#include "util.hpp"

#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace probe {

timespec to_timespec(i64 ns)
{
	timespec ts;
	ts.tv_sec = time_t(ns / kSec);
	ts.tv_nsec = long(ns % kSec);
	return ts;
}

std::string strf(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return buf;
}

std::string ms3(i64 ns) { return strf("%.3f", double(ns) / kMs); }

[[noreturn]] void die(const std::string &msg)
{
	std::fprintf(stderr, "eevdf-probe: error: %s\n", msg.c_str());
	std::exit(kExitError);
}

std::optional<std::string> read_text(const std::string &path)
{
	std::ifstream in(path);
	if (!in)
		return std::nullopt;
	std::stringstream ss;
	ss << in.rdbuf();
	return ss.str();
}

int write_text(const std::string &path, const std::string &text)
{
	int fd = open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	ssize_t n = write(fd, text.data(), text.size());
	int err = n < 0 ? errno : 0;
	close(fd);
	return err;
}

bool exists(const std::string &path)
{
	struct stat st;
	return stat(path.c_str(), &st) == 0;
}

std::optional<i64> parse_duration(std::string_view text)
{
	std::string s(text);
	char *end = nullptr;
	errno = 0;
	double v = std::strtod(s.c_str(), &end);
	if (end == s.c_str() || errno != 0 || !(v >= 0))
		return std::nullopt;
	std::string unit(end);
	i64 mult;
	if (unit.empty() && v != 0)
		return std::nullopt;  // a bare number has no agreed unit (eevdf sim read ns, this ms)
	if (unit.empty())
		mult = 1;
	else if (unit == "ns")
		mult = 1;
	else if (unit == "us")
		mult = kUs;
	else if (unit == "ms")
		mult = kMs;
	else if (unit == "s")
		mult = kSec;
	else
		return std::nullopt;
	double ns = v * double(mult);
	if (ns > 1e15)
		return std::nullopt;
	return i64(std::llround(ns));
}

std::optional<i64> parse_int(std::string_view text)
{
	std::string s(text);
	char *end = nullptr;
	errno = 0;
	long long v = std::strtoll(s.c_str(), &end, 10);
	if (end == s.c_str() || *end != '\0' || errno != 0)
		return std::nullopt;
	return i64(v);
}

// ------------------------------------------------------------------ options

}  // namespace probe
