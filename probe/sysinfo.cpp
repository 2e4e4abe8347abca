// SPDX-License-Identifier: GPL-2.0-only
#include "sysinfo.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include <sys/utsname.h>
#include <unistd.h>

namespace probe {
namespace {

std::optional<long> hz_from_config_text(const std::string &text)
{
	std::istringstream in(text);
	std::string line;
	while (std::getline(in, line))
		if (line.rfind("CONFIG_HZ=", 0) == 0)
			if (auto v = parse_int(line.substr(10)))
				return long(*v);
	return std::nullopt;
}

std::optional<i64> read_jiffies()
{
	auto text = read_text("/proc/timer_list");
	if (!text)
		return std::nullopt;
	std::istringstream in(*text);
	std::string line;
	while (std::getline(in, line))
		if (line.rfind("jiffies: ", 0) == 0)
			return parse_int(line.substr(9));
	return std::nullopt;
}

}  // namespace

SysInfo gather_sysinfo(bool measure_jiffies)
{
	SysInfo si;
	struct utsname u;
	if (uname(&u) == 0) {
		si.release = u.release;
		si.version = u.version;
		si.machine = u.machine;
	}
	// CONFIG_HZ: /proc/config.gz (through gzip, we have no zlib), then /boot.
	if (exists("/proc/config.gz")) {
		if (FILE *p = popen("gzip -dc /proc/config.gz 2>/dev/null", "r")) {
			std::string text;
			char buf[65536];
			size_t n;
			while ((n = fread(buf, 1, sizeof buf, p)) > 0)
				text.append(buf, n);
			pclose(p);
			si.config_hz = hz_from_config_text(text);
			if (si.config_hz)
				si.config_hz_source = "/proc/config.gz";
		}
	}
	if (!si.config_hz) {
		std::string path = "/boot/config-" + si.release;
		if (auto text = read_text(path)) {
			si.config_hz = hz_from_config_text(*text);
			if (si.config_hz)
				si.config_hz_source = path;
		}
	}
	// Measured HZ: jiffies advance over ~300 ms.
	i64 t0 = now_ns();
	auto j0 = measure_jiffies || !si.config_hz ? read_jiffies() : std::nullopt;
	if (j0) {
		usleep(300 * 1000);
		i64 t1 = now_ns();
		auto j1 = read_jiffies();
		if (j1 && t1 > t0)
			si.measured_hz = double(*j1 - *j0) * double(kSec) / double(t1 - t0);
	}
	if (si.config_hz) {
		si.hz = si.config_hz;
		si.hz_source = "CONFIG_HZ (" + si.config_hz_source + ")";
	} else if (si.measured_hz) {
		long best = 0;
		for (long c : {100L, 250L, 300L, 1000L})
			if (best == 0 || std::fabs(*si.measured_hz - double(c)) <
					    std::fabs(*si.measured_hz - double(best)))
				best = c;
		si.hz = best;
		si.hz_source = "jiffies rate in /proc/timer_list";
	}
	if (auto t = read_text("/sys/kernel/debug/sched/preempt")) {
		// e.g. "(none) voluntary full lazy"
		auto l = t->find('('), r = t->find(')');
		if (l != std::string::npos && r != std::string::npos && r > l)
			si.preempt_mode = t->substr(l + 1, r - l - 1);
	}
	if (auto t = read_text("/proc/self/autogroup")) {
		si.autogroup = *t;
		while (!si.autogroup.empty() && si.autogroup.back() == '\n')
			si.autogroup.pop_back();
	}
	if (auto t = read_text("/proc/sys/kernel/sched_autogroup_enabled"))
		if (auto v = parse_int(t->substr(0, t->find('\n'))))
			si.autogroup_enabled = int(*v);
	si.ncpus_online = int(sysconf(_SC_NPROCESSORS_ONLN));
	return si;
}


namespace {

i64 parse_ms_field(const std::string &v)
{
	auto dot = v.find('.');
	i64 whole = parse_int(v.substr(0, dot)).value_or(0);
	i64 frac = 0;
	if (dot != std::string::npos) {
		std::string f = v.substr(dot + 1, 6);
		while (f.size() < 6)
			f += '0';
		frac = parse_int(f).value_or(0);
	}
	return whole * kMs + frac;
}

}  // namespace

ProcSched read_proc_sched(pid_t tid)
{
	ProcSched ps;
	ps.read_at = now_ns();
	auto text = read_text(strf("/proc/self/task/%d/sched", int(tid)));
	if (!text)
		return ps;
	std::istringstream in(*text);
	std::string line;
	while (std::getline(in, line)) {
		auto colon = line.find(':');
		if (colon == std::string::npos)
			continue;
		std::string key = line.substr(0, colon);
		while (!key.empty() && key.back() == ' ')
			key.pop_back();
		std::string val = line.substr(colon + 1);
		val.erase(0, val.find_first_not_of(' '));
		if (key == "se.sum_exec_runtime")
			ps.sum_exec_ns = parse_ms_field(val);
		else if (key == "nr_switches")
			ps.nr_switches = parse_int(val).value_or(0);
		else if (key == "nr_voluntary_switches")
			ps.nr_voluntary = parse_int(val).value_or(0);
		else if (key == "nr_involuntary_switches")
			ps.nr_involuntary = parse_int(val).value_or(0);
		else if (key == "se.nr_migrations")
			ps.nr_migrations = parse_int(val).value_or(0);
		else if (key == "se.slice")
			ps.slice_ns = parse_int(val);
		else if (key == "policy")
			ps.policy = parse_int(val).value_or(-1);
	}
	ps.ok = true;
	return ps;
}

std::optional<i64> read_cpu_steal_ns(int cpu)
{
	auto text = read_text("/proc/stat");
	const long user_hz = sysconf(_SC_CLK_TCK);
	if (!text || user_hz <= 0)
		return std::nullopt;
	std::istringstream in(*text);
	std::string line;
	const std::string want = strf("cpu%d", cpu);
	while (std::getline(in, line)) {
		std::istringstream f(line);
		std::string name;
		f >> name;
		if (name != want)
			continue;
		// user nice system idle iowait irq softirq steal
		long long col[8];
		for (auto &c : col)
			if (!(f >> c))
				return std::nullopt;
		return i64(col[7]) * (kSec / user_hz);
	}
	return std::nullopt;
}

// -------------------------------------------------------------- sched_attr

}  // namespace probe
