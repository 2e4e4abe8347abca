// SPDX-License-Identifier: GPL-2.0-only
#include "tracefs.hpp"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string_view>

#include <csignal>
#include <dirent.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

namespace probe {
namespace {

// Comma-separated 32-bit groups, most significant first.
std::string cpumask_hex(const std::vector<int> &cpus)
{
	int top = 0;
	for (int c : cpus)
		top = std::max(top, c);
	int groups = top / 32 + 1;
	std::string s;
	for (int g = groups - 1; g >= 0; --g) {
		std::uint32_t bits = 0;
		for (int c : cpus)
			if (c / 32 == g)
				bits |= 1u << (c % 32);
		if (!s.empty())
			s += ',';
		s += strf("%08x", bits);
	}
	return s;
}

std::optional<i64> parse_ts_before(const std::string &line, size_t pos)
{
	// pos points at ": event:"; the timestamp "sec.usec" ends just before.
	size_t e = pos, s = pos;
	while (s > 0 && (std::isdigit((unsigned char)line[s - 1]) || line[s - 1] == '.'))
		--s;
	if (s == e)
		return std::nullopt;
	std::string tok = line.substr(s, e - s);
	auto dot = tok.find('.');
	if (dot == std::string::npos)
		return std::nullopt;
	auto sec = parse_int(tok.substr(0, dot));
	std::string frac = tok.substr(dot + 1);
	if (!sec || frac.empty() || frac.size() > 9)
		return std::nullopt;
	i64 scale = 1;
	for (size_t i = frac.size(); i < 9; ++i)
		scale *= 10;
	auto f = parse_int(frac);
	if (!f)
		return std::nullopt;
	return *sec * kSec + *f * scale;
}

std::optional<int> field_int(const std::string &line, const char *key, size_t from)
{
	size_t p = line.find(key, from);
	if (p == std::string::npos)
		return std::nullopt;
	p += std::strlen(key);
	size_t e = p;
	while (e < line.size() && (std::isdigit((unsigned char)line[e]) || line[e] == '-'))
		++e;
	auto v = parse_int(line.substr(p, e - p));
	if (!v)
		return std::nullopt;
	return int(*v);
}

// "comm-pid  [001] d..2.  12.345678: event:": the CPU in the last
// brackets before the timestamp (the flags field has none); -1 if absent.
int cpu_before(const std::string &line, size_t pos)
{
	size_t l = line.rfind('[', pos);
	if (l == std::string::npos)
		return -1;
	size_t r = line.find(']', l);
	if (r == std::string::npos || r > pos || r == l + 1)
		return -1;
	auto v = parse_int(std::string_view(line).substr(l + 1, r - l - 1));
	return v ? int(*v) : -1;
}

// The "comm-pid" field that starts the line: the pid after the last '-'
// before the CPU's brackets; -1 if absent.
int pid_before_cpu(const std::string &line, size_t pos)
{
	size_t l = line.rfind('[', pos);
	if (l == std::string::npos)
		return -1;
	size_t e = line.find_last_not_of(' ', l == 0 ? 0 : l - 1);
	if (e == std::string::npos)
		return -1;
	size_t dash = line.rfind('-', e);
	if (dash == std::string::npos || dash == e)
		return -1;
	auto v = parse_int(std::string_view(line).substr(dash + 1, e - dash));
	return v ? int(*v) : -1;
}

}  // namespace

bool Tracer::setup(int cpu, i64 duration_ns)
{
	long kb = long(std::clamp<i64>(duration_ns / kSec * 1024, 4096, 65536));
	return setup(std::vector<int>{cpu}, kb, {"sched/sched_switch", "sched/sched_wakeup"});
}

// Instances of probes that died without removing theirs (SIGKILL, a
// crash): eevdf-probe-PID where no process PID exists any more. A PID
// reused by another process keeps its instance; that is only left alone.
static void remove_stale_instances(const std::string &root)
{
	const std::string dir = root + "/instances";
	DIR *d = opendir(dir.c_str());
	if (!d)
		return;
	const std::string prefix = "eevdf-probe-";
	while (const dirent *e = readdir(d)) {
		const std::string name = e->d_name;
		if (name.rfind(prefix, 0) != 0)
			continue;
		auto pid = parse_int(std::string_view(name).substr(prefix.size()));
		if (!pid || *pid <= 0 || *pid == i64(getpid()))
			continue;
		if (kill(pid_t(*pid), 0) != 0 && errno == ESRCH)
			rmdir((dir + "/" + name).c_str());
	}
	closedir(d);
}

bool Tracer::setup(const std::vector<int> &cpus, long kb, const std::vector<std::string> &events)
{
	if (!find_root())
		return false;
	remove_stale_instances(root);
	inst = root + strf("/instances/eevdf-probe-%d", int(getpid()));
	if (mkdir(inst.c_str(), 0700) != 0) {
		note = strf("cannot create trace instance %s: %s", inst.c_str(),
			    strerror(errno));
		inst.clear();
		return false;
	}
	created_ = true;
	auto w = [&](const std::string &file, const std::string &val) {
		int err = write_text(inst + "/" + file, val);
		if (err != 0)
			note = strf("writing '%s' to %s/%s: %s", val.c_str(),
				    inst.c_str(), file.c_str(), strerror(err));
		return err == 0;
	};
	bool ok = w("tracing_on", "0") && w("trace_clock", "mono") &&
		  w("buffer_size_kb", std::to_string(kb)) &&
		  w("tracing_cpumask", cpumask_hex(cpus));
	for (const std::string &e : events)
		ok = ok && w("events/" + e + "/enable", "1");
	if (!ok) {
		teardown();
		return false;
	}
	if (exists(inst + "/events/irq_vectors/local_timer_entry/enable") &&
	    write_text(inst + "/events/irq_vectors/local_timer_entry/enable", "1") == 0)
		have_timer_event = true;
	w("trace", "");
	active = true;
	return true;
}

bool Tracer::on() { return active && write_text(inst + "/tracing_on", "1") == 0; }

void Tracer::off()
{
	if (active)
		write_text(inst + "/tracing_on", "0");
}

std::string Tracer::read_trace()
{
	if (!active)
		return {};
	return read_text(inst + "/trace").value_or("");
}

void Tracer::teardown()
{
	if (created_) {
		write_text(inst + "/tracing_on", "0");
		write_text(inst + "/events/enable", "0");
		if (rmdir(inst.c_str()) != 0)
			std::fprintf(stderr, "eevdf-probe: warning: cannot remove %s: %s\n",
				     inst.c_str(), strerror(errno));
		created_ = false;
	}
	if (mounted_) {
		umount(root.c_str());
		mounted_ = false;
	}
	active = false;
}

bool Tracer::find_root()
{
	for (const char *r : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"})
		if (exists(std::string(r) + "/instances")) {
			root = r;
			return true;
		}
	if (exists("/sys/kernel/tracing") &&
	    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr) == 0) {
		mounted_ = true;
		root = "/sys/kernel/tracing";
		if (exists(root + "/instances"))
			return true;
		note = "tracefs mounted but has no instances directory";
		umount(root.c_str());
		mounted_ = false;
		return false;
	}
	note = strf("tracefs not available (mount: %s)", strerror(errno));
	return false;
}

TraceData parse_trace(const std::string &text)
{
	TraceData td;
	std::istringstream in(text);
	std::string line;
	while (std::getline(in, line)) {
		if (line.empty())
			continue;
		if (line[0] == '#') {
			// "# entries-in-buffer/entries-written: 123/123   #P:2"
			auto p = line.find("entries-written:");
			if (p != std::string::npos)
				std::sscanf(line.c_str() + p + 16, " %" SCNd64 "/%" SCNd64,
					    &td.entries_in_buffer, &td.entries_written);
			continue;
		}
		TraceEv ev;
		size_t pos;
		if ((pos = line.find(": sched_switch: ")) != std::string::npos) {
			ev.kind = TraceEv::Switch;
			size_t f = pos + 16;
			auto pp = field_int(line, " prev_pid=", f);
			size_t arrow = line.find(" ==> ", f);
			size_t np = line.rfind(" next_pid=");
			auto npid = field_int(line, " next_pid=", np == std::string::npos ? f : np);
			size_t st = line.find(" prev_state=", f);
			if (!pp || !npid || arrow == std::string::npos || st == std::string::npos) {
				++td.unparsed;
				continue;
			}
			ev.prev_pid = *pp;
			ev.next_pid = *npid;
			ev.prev_state = line[st + 12];
			size_t nc = line.find("next_comm=", arrow);
			if (nc != std::string::npos && np != std::string::npos && np > nc)
				ev.next_comm = line.substr(nc + 10, np - nc - 10);
			size_t pc = line.find("prev_comm=", f);
			size_t ppos = line.find(" prev_pid=", f);
			if (pc != std::string::npos && ppos != std::string::npos && ppos > pc)
				ev.prev_comm = line.substr(pc + 10, ppos - pc - 10);
		} else if ((pos = line.find(": sched_wakeup: ")) != std::string::npos) {
			ev.kind = TraceEv::Wakeup;
			size_t pr = line.rfind(" prio=");
			size_t pidpos = line.rfind(" pid=", pr);
			auto pid = pidpos == std::string::npos ? std::nullopt
				: field_int(line, " pid=", pidpos);
			if (!pid) {
				++td.unparsed;
				continue;
			}
			ev.pid = *pid;
			if (auto tc = field_int(line, " target_cpu=", pr))
				ev.target_cpu = *tc;
		} else if ((pos = line.find(": sched_waking: ")) != std::string::npos) {
			ev.kind = TraceEv::Waking;
			size_t pr = line.rfind(" prio=");
			size_t pidpos = line.rfind(" pid=", pr);
			auto pid = pidpos == std::string::npos ? std::nullopt
				: field_int(line, " pid=", pidpos);
			auto tc = pr == std::string::npos ? std::nullopt : field_int(line, " target_cpu=", pr);
			if (!pid || !tc) {
				++td.unparsed;
				continue;
			}
			ev.pid = *pid;
			ev.target_cpu = *tc;
		} else if ((pos = line.find(": sched_migrate_task: ")) != std::string::npos) {
			ev.kind = TraceEv::Migrate;
			size_t pr = line.rfind(" prio=");
			size_t pidpos = line.rfind(" pid=", pr);
			auto pid = pidpos == std::string::npos ? std::nullopt
				: field_int(line, " pid=", pidpos);
			auto oc = pr == std::string::npos ? std::nullopt : field_int(line, " orig_cpu=", pr);
			auto dc = pr == std::string::npos ? std::nullopt : field_int(line, " dest_cpu=", pr);
			if (!pid || !oc || !dc) {
				++td.unparsed;
				continue;
			}
			ev.pid = *pid;
			ev.orig_cpu = *oc;
			ev.dest_cpu = *dc;
		} else if ((pos = line.find(": local_timer_entry: ")) != std::string::npos) {
			ev.kind = TraceEv::Timer;
		} else {
			continue;
		}
		auto ts = parse_ts_before(line, pos);
		if (!ts) {
			++td.unparsed;
			continue;
		}
		ev.ts = *ts;
		ev.cpu = cpu_before(line, pos);
		ev.cur_pid = pid_before_cpu(line, pos);
		td.evs.push_back(std::move(ev));
	}
	std::stable_sort(td.evs.begin(), td.evs.end(),
			 [](const TraceEv &x, const TraceEv &y) { return x.ts < y.ts; });
	return td;
}


}  // namespace probe
