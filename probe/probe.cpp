// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: measure how the running kernel's fair scheduler (EEVDF) cuts
// CPU time between CPU hogs pinned to one CPU, so that the eevdf reference
// model can be compared with a real kernel.  Two independent measurements:
//
//  * spin gaps: every hog spins on clock_gettime(CLOCK_MONOTONIC) and records
//    each gap longer than a threshold; a hog's on-CPU intervals are the
//    stretches between its gaps.  Works everywhere, needs no privileges
//    beyond sched_setattr() and affinity.
//  * sched_switch trace: if tracefs is usable, a private trace instance
//    records sched_switch, sched_wakeup and local_timer_entry on the probed
//    CPU with trace_clock=mono, which is the ground truth for switch times
//    and for where the ticks are.
//
// Standalone: Linux, C++20, pthreads.  See probe/README.md.

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace {

using i64 = std::int64_t;
using u64 = std::uint64_t;

constexpr i64 kUs = 1000;
constexpr i64 kMs = 1000 * kUs;
constexpr i64 kSec = 1000 * kMs;

// Context-switch overhead seen by the spin method: the gap of a hog that is
// switched out for another hog is not covered by any hog for up to ~40 us in
// a VM (tick IRQ + schedule + return to user on both sides).  Uncovered
// stretches below this are not counted as foreign activity.
constexpr i64 kSwitchSlack = 100 * kUs;

constexpr int kExitError = 2;
constexpr int kExitInterrupted = 130;

// ---------------------------------------------------------------- utilities

inline i64 now_ns()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return i64(ts.tv_sec) * kSec + ts.tv_nsec;
}

timespec to_timespec(i64 ns)
{
	timespec ts;
	ts.tv_sec = time_t(ns / kSec);
	ts.tv_nsec = long(ns % kSec);
	return ts;
}

std::string strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
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

// Returns 0 or an errno value.
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

// "1.5ms", "500us", "5s", "100ns"; a bare number has unit default_unit.
std::optional<i64> parse_duration(std::string_view text, i64 default_unit)
{
	std::string s(text);
	char *end = nullptr;
	errno = 0;
	double v = std::strtod(s.c_str(), &end);
	if (end == s.c_str() || errno != 0 || !(v >= 0))
		return std::nullopt;
	std::string unit(end);
	i64 mult;
	if (unit.empty())
		mult = default_unit;
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

struct Options {
	int hogs = 4;
	std::vector<int> nices;               // one per hog (--nices); empty: all nice 0
	std::optional<i64> slice_ns;          // nullopt: kernel default slice
	i64 duration_ns = 5 * kSec;
	int cpu = 1;
	bool waker = false;
	i64 waker_period_ns = 0;
	i64 waker_run_ns = 0;
	i64 waker_offset_ns = 1 * kMs;
	bool waker_slice_given = false;       // else: same as the hogs
	std::optional<i64> waker_slice_ns;
	bool json = false;
	std::string dump_trace;               // save the raw trace text here
	std::string json_out;                 // also write the JSON here
	bool isolate = false;                 // own session + autogroup nice -20
	i64 gap_thr_ns = 30 * kUs;
	i64 irq_thr_ns = 2 * kUs;
	i64 warmup_ns = 500 * kMs;
	enum class Trace { Auto, On, Off } trace = Trace::Auto;
};

void usage(FILE *f)
{
	std::fprintf(f,
"usage: eevdf-probe [options]\n"
"  --hogs N               CPU-hog threads (default 4)\n"
"  --nices A,B,...        nice level of each hog (-20..19, one per hog;\n"
"                         default: all 0), set with sched_setattr\n"
"  --slice DUR|default    EEVDF slice set with sched_setattr(sched_runtime);\n"
"                         'default' leaves the kernel's slice (default)\n"
"  --duration DUR         measured window (default 5s; max 600s)\n"
"  --cpu K                CPU the hogs are pinned to (default 1)\n"
"  --waker PERIOD_US:RUN_US  add a periodic task on CPU K: sleeps until the\n"
"                         next period (clock_nanosleep TIMER_ABSTIME), then\n"
"                         spins RUN_US wall-clock microseconds\n"
"  --waker-slice DUR|default  slice of the waker (default: same as --slice)\n"
"  --waker-offset DUR     first expected wake is T0 + DUR (default 1ms); T0\n"
"                         is put on a multiple of the tick period\n"
"  --gap-us N             gap that ends a run (default 30)\n"
"  --irq-gap-us N         shorter gaps are counted as interrupts (default 2)\n"
"  --warmup DUR           spinning before the window opens (default 500ms)\n"
"  --trace | --no-trace   require / disable sched_switch tracing (default:\n"
"                         use tracefs if it is available)\n"
"  --isolate              run in a new session (so a new autogroup of its own)\n"
"                         and set that autogroup's nice to -20, so tasks of\n"
"                         other autogroups barely get CPU K and the load\n"
"                         balancer keeps them away; the hogs keep their own\n"
"                         nice (0 unless --nices)\n"
"  --json                 print a JSON document instead of tables\n"
"  --json-out FILE        also write the JSON document to FILE\n"
"  --dump-trace FILE      save the raw trace text (window and warm-up)\n"
"DUR is a number with unit ns, us, ms or s (a bare number means ms).\n"
"Exit status: 0 ok, 2 error (usage, permissions, kernel), 130 interrupted.\n");
}

Options parse_args(int argc, char **argv)
{
	Options o;
	auto need = [&](int &i) -> std::string {
		if (i + 1 >= argc) {
			usage(stderr);
			die(strf("%s needs a value", argv[i]));
		}
		return argv[++i];
	};
	for (int i = 1; i < argc; ++i) {
		std::string a = argv[i];
		if (a == "--hogs") {
			auto v = parse_int(need(i));
			if (!v || *v < 1 || *v > 64)
				die("--hogs must be 1..64");
			o.hogs = int(*v);
		} else if (a == "--nices") {
			const std::string v = need(i);
			o.nices.clear();
			size_t pos = 0;
			while (pos <= v.size()) {
				const size_t comma = std::min(v.find(',', pos), v.size());
				auto n = parse_int(std::string_view(v).substr(pos, comma - pos));
				if (!n || *n < -20 || *n > 19)
					die("bad --nices " + v + ": each nice must be -20..19");
				o.nices.push_back(int(*n));
				pos = comma + 1;
			}
		} else if (a == "--slice") {
			std::string v = need(i);
			if (v == "default") {
				o.slice_ns.reset();
			} else {
				auto d = parse_duration(v, kMs);
				if (!d || *d <= 0)
					die("bad --slice " + v);
				o.slice_ns = *d;
			}
		} else if (a == "--duration") {
			auto d = parse_duration(need(i), kMs);
			if (!d || *d < 10 * kMs || *d > 600 * kSec)
				die("--duration must be 10ms..600s");
			o.duration_ns = *d;
		} else if (a == "--cpu") {
			auto v = parse_int(need(i));
			if (!v || *v < 0 || *v >= CPU_SETSIZE)
				die("bad --cpu");
			o.cpu = int(*v);
		} else if (a == "--waker") {
			std::string v = need(i);
			auto colon = v.find(':');
			if (colon == std::string::npos)
				die("--waker wants PERIOD_US:RUN_US");
			auto p = parse_int(v.substr(0, colon));
			auto r = parse_int(v.substr(colon + 1));
			if (!p || !r || *p <= 0 || *r < 0 || *r >= *p)
				die("--waker wants PERIOD_US:RUN_US with 0 <= RUN_US < PERIOD_US");
			o.waker = true;
			o.waker_period_ns = *p * kUs;
			o.waker_run_ns = *r * kUs;
		} else if (a == "--waker-slice") {
			std::string v = need(i);
			o.waker_slice_given = true;
			if (v == "default") {
				o.waker_slice_ns.reset();
			} else {
				auto d = parse_duration(v, kMs);
				if (!d || *d <= 0)
					die("bad --waker-slice " + v);
				o.waker_slice_ns = *d;
			}
		} else if (a == "--waker-offset") {
			auto d = parse_duration(need(i), kMs);
			if (!d || *d > 10 * kSec)
				die("bad --waker-offset");
			o.waker_offset_ns = *d;
		} else if (a == "--gap-us") {
			auto v = parse_int(need(i));
			if (!v || *v < 1 || *v > 100000)
				die("bad --gap-us");
			o.gap_thr_ns = *v * kUs;
		} else if (a == "--irq-gap-us") {
			auto v = parse_int(need(i));
			if (!v || *v < 1)
				die("bad --irq-gap-us");
			o.irq_thr_ns = *v * kUs;
		} else if (a == "--warmup") {
			auto d = parse_duration(need(i), kMs);
			if (!d || *d > 10 * kSec)
				die("bad --warmup (max 10s)");
			o.warmup_ns = *d;
		} else if (a == "--trace") {
			o.trace = Options::Trace::On;
		} else if (a == "--no-trace") {
			o.trace = Options::Trace::Off;
		} else if (a == "--isolate") {
			o.isolate = true;
		} else if (a == "--json-out") {
			o.json_out = need(i);
		} else if (a == "--dump-trace") {
			o.dump_trace = need(i);
		} else if (a == "--json") {
			o.json = true;
		} else if (a == "-h" || a == "--help") {
			usage(stdout);
			std::exit(0);
		} else {
			usage(stderr);
			die("unknown argument " + a);
		}
	}
	if (o.irq_thr_ns >= o.gap_thr_ns)
		die("--irq-gap-us must be below --gap-us");
	if (!o.nices.empty() && int(o.nices.size()) != o.hogs)
		die("--nices lists " + std::to_string(o.nices.size()) + " nice levels for " + std::to_string(o.hogs) +
		    " hogs");
	if (!o.waker_slice_given)
		o.waker_slice_ns = o.slice_ns;
	return o;
}

// -------------------------------------------------------------- system info

struct SysInfo {
	std::string release, version, machine;
	std::optional<long> config_hz;
	std::string config_hz_source;
	std::optional<double> measured_hz;     // from jiffies in /proc/timer_list
	std::optional<long> hz;                // what the analysis uses
	std::string hz_source;
	std::string preempt_mode;              // "" if unknown
	std::string autogroup;                 // /proc/self/autogroup
	int autogroup_enabled = -1;
	int ncpus_online = 0;
};

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

SysInfo gather_sysinfo()
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
	auto j0 = read_jiffies();
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

// ------------------------------------------------------ /proc/.../sched

struct ProcSched {
	bool ok = false;
	i64 sum_exec_ns = 0;      // se.sum_exec_runtime
	i64 nr_switches = 0, nr_voluntary = 0, nr_involuntary = 0;
	i64 nr_migrations = 0;
	std::optional<i64> slice_ns; // se.slice (6.15+)
	i64 policy = -1;
	i64 read_at = 0;
};

// se.sum_exec_runtime is printed as milliseconds "123.456789".
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

// -------------------------------------------------------------- sched_attr

// Our own copy of struct sched_attr (include/uapi/linux/sched/types.h),
// SCHED_ATTR_SIZE_VER0 = 48 bytes.
struct ProbeSchedAttr {
	std::uint32_t size;
	std::uint32_t sched_policy;
	std::uint64_t sched_flags;
	std::int32_t sched_nice;
	std::uint32_t sched_priority;
	std::uint64_t sched_runtime;
	std::uint64_t sched_deadline;
	std::uint64_t sched_period;
};
static_assert(sizeof(ProbeSchedAttr) == 48, "SCHED_ATTR_SIZE_VER0");

// ------------------------------------------------------------------ tracing

class Tracer {
public:
	std::string note;          // why tracing is off, or remarks
	bool active = false;
	bool have_timer_event = false;
	std::string root, inst;

	bool setup(int cpu, i64 duration_ns)
	{
		if (!find_root())
			return false;
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
		long kb = long(std::clamp<i64>(duration_ns / kSec * 1024, 4096, 65536));
		if (!w("tracing_on", "0") || !w("trace_clock", "mono") ||
		    !w("buffer_size_kb", std::to_string(kb)) ||
		    !w("tracing_cpumask", cpumask_hex(cpu)) ||
		    !w("events/sched/sched_switch/enable", "1") ||
		    !w("events/sched/sched_wakeup/enable", "1")) {
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

	bool on() { return active && write_text(inst + "/tracing_on", "1") == 0; }
	void off()
	{
		if (active)
			write_text(inst + "/tracing_on", "0");
	}

	std::string read_trace()
	{
		if (!active)
			return {};
		return read_text(inst + "/trace").value_or("");
	}

	void teardown()
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

private:
	bool created_ = false;
	bool mounted_ = false;

	static std::string cpumask_hex(int cpu)
	{
		// Comma-separated 32-bit groups, most significant first.
		int groups = cpu / 32 + 1;
		std::string s;
		for (int g = groups - 1; g >= 0; --g) {
			std::uint32_t bits = (cpu / 32 == g) ? (1u << (cpu % 32)) : 0;
			if (!s.empty())
				s += ',';
			s += strf("%08x", bits);
		}
		return s;
	}

	bool find_root()
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
};

// ------------------------------------------------------------------- tasks

struct Gap {
	i64 a;  // last timestamp before the gap
	i64 b;  // first timestamp after it
};

template <typename T>
struct Buf {
	std::vector<T> v;
	size_t n = 0;
	bool full = false;
	void init(size_t cap) { v.assign(cap, T{}); n = 0; full = false; }
	bool push(const T &x)
	{
		if (n < v.size()) {
			v[n++] = x;
			return true;
		}
		full = true;
		return false;
	}
	const T *begin() const { return v.data(); }
	const T *end() const { return v.data() + n; }
	size_t size() const { return n; }
};

struct Task {
	int idx = 0;
	bool is_waker = false;
	std::string name;
	std::optional<i64> slice_ns;   // requested; nullopt = kernel default
	int nice = 0;
	std::atomic<pid_t> tid{0};
	int err = 0;
	std::string err_what;

	Buf<Gap> gaps;       // gaps > gap threshold inside the window
	Buf<i64> irqs;       // start of gaps in (irq threshold, gap threshold]
	Buf<i64> lat;        // waker: wakeup latency of wakes expected in window
	Buf<Gap> acts;       // waker: [first ts after wake, last ts of the spin]
	i64 missed = 0;      // waker: periods skipped because of overrun
	i64 end_ts = 0;
	i64 rec_end = 0;     // gap buffer overflowed here: intervals end there
	bool interrupted = false;

	ProcSched setup, st0, st1;
};

struct Plan {
	i64 t0 = 0, t1 = 0, tend = 0;
};

Options g_opt;
Plan g_plan;
std::atomic<bool> g_stop{false};       // SIGINT/SIGTERM: leave now
std::atomic<bool> g_tail_done{false};  // main has read the end statistics
std::atomic<bool> g_abort{false};      // setup failed: do not run

struct Gate {
	std::mutex m;
	std::condition_variable cv;
	int ready = 0;
	bool open = false;
} g_gate;

inline void record(Task &t, i64 a, i64 b)
{
	i64 d = b - a;
	if (d > g_opt.gap_thr_ns) {
		if (!t.gaps.push(Gap{a, b}) && t.rec_end == 0)
			t.rec_end = a;
	}
	else if (d > g_opt.irq_thr_ns)
		t.irqs.push(a);
}

void run_hog(Task &t)
{
	const Plan p = g_plan;
	i64 prev = now_ns();
	while (prev < p.t0) {
		if (g_stop.load(std::memory_order_relaxed)) {
			t.interrupted = true;
			t.end_ts = prev;
			return;
		}
		prev = now_ns();
	}
	for (;;) {
		i64 now = now_ns();
		if (now - prev > g_opt.irq_thr_ns)
			record(t, prev, now);
		prev = now;
		if (now >= p.t1)
			break;
		if (g_stop.load(std::memory_order_relaxed)) {
			t.interrupted = true;
			break;
		}
	}
	t.end_ts = prev;
	// Keep the CPU busy until main has read /proc at the window's end.
	while (!g_tail_done.load(std::memory_order_relaxed) &&
	       !g_stop.load(std::memory_order_relaxed) && now_ns() < p.tend) {
	}
}

void run_waker(Task &t)
{
	const Plan p = g_plan;
	const i64 period = g_opt.waker_period_ns, run = g_opt.waker_run_ns;
	i64 start = now_ns();
	// Expected wake times are T0 + offset + k*period; start with the first
	// one ahead.
	const i64 base = p.t0 + g_opt.waker_offset_ns;
	i64 next = base - ((base - start) / period) * period;
	if (next < start)
		next += period;
	i64 prev = start;
	// Keep the rhythm after T1 until main has read /proc (the thread must be
	// alive then); only wakes expected inside [T0, T1) are recorded.
	while (next < p.tend && !g_tail_done.load(std::memory_order_relaxed)) {
		if (g_stop.load(std::memory_order_relaxed)) {
			t.interrupted = true;
			break;
		}
		timespec ts = to_timespec(next);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
		}
		i64 woke = now_ns();
		bool in = next >= p.t0 && next < p.t1;
		if (in)
			t.lat.push(woke - next);
		prev = woke;
		i64 until = woke + run;
		while (prev < until) {
			i64 now = now_ns();
			if (in && now - prev > g_opt.irq_thr_ns)
				record(t, prev, now);
			prev = now;
		}
		if (in)
			t.acts.push(Gap{woke, prev});
		next += period;
		while (next <= prev) {
			next += period;
			if (in)
				++t.missed;
		}
	}
	t.end_ts = prev;
}

void task_main(Task *tp)
{
	Task &t = *tp;
	t.tid = pid_t(syscall(SYS_gettid));
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(g_opt.cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0) {
		t.err = errno;
		t.err_what = strf("sched_setaffinity(CPU %d)", g_opt.cpu);
	} else if (t.slice_ns || t.nice) {
		ProbeSchedAttr attr;
		std::memset(&attr, 0, sizeof attr);
		attr.size = sizeof attr;
		attr.sched_policy = SCHED_OTHER;
		attr.sched_nice = t.nice;
		attr.sched_runtime = t.slice_ns ? u64(*t.slice_ns) : 0;  // 0: the kernel's default slice
		if (syscall(SYS_sched_setattr, 0, &attr, 0u) != 0) {
			t.err = errno;
			t.err_what = strf("sched_setattr(SCHED_OTHER, nice=%d, sched_runtime=%" PRId64 ")", t.nice,
					  t.slice_ns ? *t.slice_ns : i64(0));
		}
	}
	if (t.is_waker)
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	{
		std::unique_lock<std::mutex> lk(g_gate.m);
		++g_gate.ready;
		g_gate.cv.notify_all();
		g_gate.cv.wait(lk, [] { return g_gate.open; });
	}
	if (g_abort.load() || t.err != 0)
		return;
	if (t.is_waker)
		run_waker(t);
	else
		run_hog(t);
}

// ---------------------------------------------------------------- analysis

struct Summary {
	size_t n = 0;
	double mean = 0;
	i64 min = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
	i64 sum = 0;
};

Summary summarize(std::vector<i64> v)
{
	Summary s;
	if (v.empty())
		return s;
	std::sort(v.begin(), v.end());
	s.n = v.size();
	for (i64 x : v)
		s.sum += x;
	s.mean = double(s.sum) / double(s.n);
	auto pct = [&](double p) {
		size_t rank = size_t(std::ceil(p / 100.0 * double(s.n)));
		if (rank < 1)
			rank = 1;
		return v[rank - 1];
	};
	s.min = v.front();
	s.p50 = pct(50);
	s.p90 = pct(90);
	s.p99 = pct(99);
	s.max = v.back();
	return s;
}

// 1 ms buckets: bucket k holds lengths in [k ms, k+1 ms).
std::map<i64, size_t> histogram_ms(const std::vector<i64> &v)
{
	std::map<i64, size_t> h;
	for (i64 x : v)
		++h[x / kMs];
	return h;
}

// Run lengths rounded to the nearest whole number of ticks.
std::map<i64, size_t> histogram_ticks(const std::vector<i64> &v, i64 tick)
{
	std::map<i64, size_t> h;
	for (i64 x : v)
		++h[(x + tick / 2) / tick];
	return h;
}

struct Interval {
	i64 s = 0, e = 0;
	bool trunc_s = false, trunc_e = false;  // cut by the window edge
	int task = -1;                          // index into tasks, -1 foreign
	int pid = -1;                           // trace only
	char end_state = '?';                   // trace only: 'R' preempted, ...
	int next_pid = -1;                      // trace only
	i64 len() const { return e - s; }
	bool complete() const { return !trunc_s && !trunc_e; }
};

// On-CPU intervals of one task reconstructed from its spin gaps.
std::vector<Interval> spin_intervals(const Task &t, i64 t0, i64 t1)
{
	std::vector<Interval> out;
	auto add = [&](i64 s, i64 e, bool ts, bool te) {
		if (e > s)
			out.push_back(Interval{s, e, ts, te, t.idx});
	};
	if (!t.is_waker) {
		i64 cur = t0;
		bool cur_trunc = true;
		for (const Gap &g : t.gaps) {
			if (g.b <= t0)
				continue;
			if (g.a >= t1)
				break;
			add(cur, g.a, cur_trunc, false);
			cur = g.b;
			cur_trunc = false;
		}
		i64 end = std::min(t1, t.end_ts);
		if (t.rec_end != 0)
			end = std::min(end, t.rec_end);
		add(cur, end, cur_trunc, true);
	} else {
		const Gap *g = t.gaps.begin(), *ge = t.gaps.end();
		for (const Gap &act : t.acts) {
			i64 cur = act.a;
			while (g != ge && g->a < act.b) {
				add(cur, g->a, false, false);
				cur = g->b;
				++g;
			}
			add(cur, act.b, false, act.b > t1);
		}
		for (auto &iv : out)
			if (iv.e > t1) {
				iv.e = t1;
				iv.trunc_e = true;
			}
	}
	return out;
}

using Spans = std::vector<std::pair<i64, i64>>;

Spans union_of(std::vector<Interval> ivs)
{
	std::sort(ivs.begin(), ivs.end(),
		  [](const Interval &x, const Interval &y) { return x.s < y.s; });
	Spans u;
	for (const auto &iv : ivs) {
		if (!u.empty() && iv.s <= u.back().second)
			u.back().second = std::max(u.back().second, iv.e);
		else
			u.emplace_back(iv.s, iv.e);
	}
	return u;
}

struct Cover {
	i64 covered = 0, uncovered = 0, max_chunk = 0;
};

Cover cover(const Spans &u, i64 a, i64 b)
{
	Cover c;
	auto it = std::lower_bound(u.begin(), u.end(), a,
				   [](const std::pair<i64, i64> &sp, i64 x) { return sp.second <= x; });
	i64 cursor = a;
	for (; it != u.end() && it->first < b; ++it) {
		i64 s = std::max(it->first, a), e = std::min(it->second, b);
		if (s > cursor) {
			c.uncovered += s - cursor;
			c.max_chunk = std::max(c.max_chunk, s - cursor);
		}
		if (e > s)
			c.covered += e - s;
		cursor = std::max(cursor, e);
	}
	if (b > cursor) {
		c.uncovered += b - cursor;
		c.max_chunk = std::max(c.max_chunk, b - cursor);
	}
	return c;
}

// Runs as seen "between known tasks": consecutive intervals of one task
// separated only by foreign activity are merged; the merged length is the
// wall-clock span (it includes the foreign time inside it).
std::vector<Interval> merge_known(std::vector<Interval> timeline)
{
	std::sort(timeline.begin(), timeline.end(),
		  [](const Interval &x, const Interval &y) { return x.s < y.s; });
	std::vector<Interval> out;
	bool have = false;
	Interval cur;
	for (const auto &iv : timeline) {
		if (iv.task >= 0) {
			if (have && iv.task == cur.task) {
				cur.e = iv.e;
				cur.trunc_e = iv.trunc_e;
				cur.end_state = iv.end_state;
				cur.next_pid = iv.next_pid;
			} else {
				if (have)
					out.push_back(cur);
				cur = iv;
				have = true;
			}
		} else if (iv.pid == 0) {  // idle: the known task was not runnable
			if (have)
				out.push_back(cur);
			have = false;
		}
	}
	if (have)
		out.push_back(cur);
	return out;
}

// Tick grid: phase in [0, T) of the CLOCK_MONOTONIC times at which the tick
// fires, estimated as the densest 20 us bin of event times modulo T.
struct Phase {
	bool ok = false;
	i64 phase = 0;
	double frac = 0;   // share of events within [-50us, +200us) of the grid
	size_t n = 0;
};

i64 grid_offset(i64 t, i64 phase, i64 T)
{
	i64 o = ((t - phase) % T + T) % T;
	if (o >= T / 2)
		o -= T;
	return o;   // in [-T/2, T/2)
}

bool near_tick(i64 off) { return off >= -50 * kUs && off < 200 * kUs; }

Phase estimate_phase(const std::vector<i64> &ts, i64 T)
{
	Phase p;
	p.n = ts.size();
	if (ts.size() < 10 || T <= 0)
		return p;
	const i64 bin = 20 * kUs;
	const size_t nb = size_t((T + bin - 1) / bin);
	std::vector<size_t> cnt(nb, 0);
	for (i64 t : ts)
		++cnt[size_t(((t % T) + T) % T / bin)];
	size_t best = 0, best_sum = 0;
	for (size_t b = 0; b < nb; ++b) {
		size_t s = cnt[(b + nb - 1) % nb] + cnt[b] + cnt[(b + 1) % nb];
		if (s > best_sum) {
			best_sum = s;
			best = b;
		}
	}
	// The phase is the median of the events near the densest bin.
	i64 centre = i64(best) * bin + bin / 2;
	std::vector<i64> offs;
	for (i64 t : ts) {
		i64 o = grid_offset(t, centre, T);
		if (o > -3 * bin && o < 3 * bin)
			offs.push_back(o);
	}
	std::sort(offs.begin(), offs.end());
	i64 lo = offs.empty() ? 0 : offs[offs.size() / 2];
	p.phase = ((centre + lo) % T + T) % T;
	size_t near = 0;
	for (i64 t : ts)
		if (near_tick(grid_offset(t, p.phase, T)))
			++near;
	p.frac = double(near) / double(ts.size());
	p.ok = true;
	return p;
}

// -------------------------------------------------------- trace parsing

struct TraceEv {
	enum Kind { Switch, Wakeup, Timer } kind;
	i64 ts = 0;
	int prev_pid = -1, next_pid = -1, pid = -1;
	char prev_state = '?';
	std::string next_comm, prev_comm;
};

struct TraceData {
	std::vector<TraceEv> evs;
	i64 entries_in_buffer = -1, entries_written = -1;
	size_t unparsed = 0;
};

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
		td.evs.push_back(std::move(ev));
	}
	std::stable_sort(td.evs.begin(), td.evs.end(),
			 [](const TraceEv &x, const TraceEv &y) { return x.ts < y.ts; });
	return td;
}

// ------------------------------------------------------------ JSON output

class Json {
public:
	Json &key(std::string_view k)
	{
		sep();
		str(k);
		out_ += ':';
		pending_ = true;
		return *this;
	}
	Json &obj()
	{
		pre();
		out_ += '{';
		first_.push_back(true);
		return *this;
	}
	Json &end_obj()
	{
		first_.pop_back();
		out_ += '}';
		return *this;
	}
	Json &arr()
	{
		pre();
		out_ += '[';
		first_.push_back(true);
		return *this;
	}
	Json &end_arr()
	{
		first_.pop_back();
		out_ += ']';
		return *this;
	}
	Json &v(i64 x) { pre(); out_ += std::to_string(x); return *this; }
	Json &v(int x) { return v(i64(x)); }
	Json &v(size_t x) { pre(); out_ += std::to_string(x); return *this; }
	Json &v(double x)
	{
		pre();
		if (std::isfinite(x))
			out_ += strf("%.6g", x);
		else
			out_ += "null";
		return *this;
	}
	Json &v(bool x) { pre(); out_ += x ? "true" : "false"; return *this; }
	Json &v(std::string_view s) { pre(); str(s); return *this; }
	Json &v(const char *s) { return v(std::string_view(s)); }
	Json &null() { pre(); out_ += "null"; return *this; }
	template <typename T>
	Json &opt(const std::optional<T> &x)
	{
		if (x)
			return v(*x);
		return null();
	}
	const std::string &text() const { return out_; }

private:
	std::string out_;
	std::vector<bool> first_;
	bool pending_ = false;
	void sep()
	{
		if (!first_.empty()) {
			if (!first_.back())
				out_ += ',';
			first_.back() = false;
		}
	}
	void pre()
	{
		if (pending_)
			pending_ = false;
		else
			sep();
	}
	void str(std::string_view s)
	{
		out_ += '"';
		for (char c : s) {
			if (c == '"' || c == '\\') {
				out_ += '\\';
				out_ += c;
			} else if ((unsigned char)c < 0x20) {
				out_ += strf("\\u%04x", c);
			} else {
				out_ += c;
			}
		}
		out_ += '"';
	}
};

void json_summary(Json &j, const char *k, const Summary &s)
{
	j.key(k).obj();
	j.key("count").v(s.n);
	if (s.n) {
		j.key("mean_ns").v(i64(std::llround(s.mean)));
		j.key("min_ns").v(s.min);
		j.key("p50_ns").v(s.p50);
		j.key("p90_ns").v(s.p90);
		j.key("p99_ns").v(s.p99);
		j.key("max_ns").v(s.max);
	}
	j.end_obj();
}

void json_hist(Json &j, const char *k, const std::map<i64, size_t> &h)
{
	j.key(k).arr();
	for (auto &[b, c] : h) {
		j.obj();
		j.key("from_ms").v(b);
		j.key("count").v(c);
		j.end_obj();
	}
	j.end_arr();
}

// --------------------------------------------------------------- report

struct TaskResult {
	Summary spin_runs, spin_merged, trace_runs, trace_merged;
	std::vector<i64> spin_lens, trace_lens;
	size_t gaps_known = 0, gaps_foreign = 0, gaps_mixed = 0;
	i64 unexplained_ns = 0;
	size_t trace_preempted = 0, trace_blocked = 0;
	size_t trace_by_known = 0, trace_by_foreign = 0, trace_to_idle = 0;
	size_t spin_gaps_no_switch = 0;       // gap while trace says it ran
	i64 spin_gaps_no_switch_ns = 0;
};

struct Report {
	std::string command;
	SysInfo si;
	Options opt;
	Plan plan;
	std::vector<Task> *tasks = nullptr;
	std::vector<TaskResult> res;
	// aggregates over hogs
	Summary spin_all, spin_merged_all, trace_all, trace_merged_all;
	std::map<i64, size_t> spin_hist, trace_hist, trace_merged_hist;
	std::map<i64, size_t> spin_tick_hist, trace_tick_hist;  // empty if HZ unknown
	size_t gaps_known = 0, gaps_foreign = 0, gaps_mixed = 0;
	i64 unexplained_ns = 0;
	size_t irq_events = 0;
	Phase spin_phase;
	size_t spin_ends = 0, spin_ends_at_tick = 0, irq_on_grid = 0;
	// trace
	bool traced = false;
	std::string trace_note;
	i64 trace_entries = -1, trace_written = -1;
	size_t trace_unparsed = 0;
	size_t timer_events = 0, tick_events = 0;
	Phase trace_phase;
	std::optional<i64> tick_period_obs;
	size_t trace_hog_ends = 0, trace_hog_ends_at_tick = 0;
	size_t trace_hog_starts = 0, trace_hog_starts_at_tick = 0;
	Summary end_after_timer;  // switch-out minus preceding local_timer_entry
	size_t foreign_runs = 0;
	i64 foreign_ns = 0, idle_ns = 0;
	std::vector<std::pair<std::string, std::pair<i64, size_t>>> foreign_top;
	size_t spin_gaps_no_switch = 0;
	i64 spin_gaps_no_switch_ns = 0;
	// waker
	Summary waker_lat_spin, waker_lat_trace;
	i64 waker_missed = 0;
	size_t waker_acts = 0;
	size_t hog_runs_ended_by_waker = 0;
	std::optional<i64> tick_ns;
};

void analyse(Report &r, const std::string &trace_text)
{
	auto &tasks = *r.tasks;
	const i64 t0 = r.plan.t0, t1 = r.plan.t1;
	const size_t nt = tasks.size();
	r.res.assign(nt, {});
	if (r.si.hz)
		r.tick_ns = kSec / *r.si.hz;

	// ---- spin method
	std::vector<std::vector<Interval>> ivs(nt);
	for (size_t i = 0; i < nt; ++i)
		ivs[i] = spin_intervals(tasks[i], t0, t1);
	std::vector<i64> all_spin, all_merged, irq_ts, switch_ts;
	const i64 slack = std::max(r.opt.gap_thr_ns, kSwitchSlack);
	for (size_t i = 0; i < nt; ++i) {
		std::vector<Interval> others;
		for (size_t k = 0; k < nt; ++k)
			if (k != i)
				others.insert(others.end(), ivs[k].begin(), ivs[k].end());
		Spans u = union_of(others);
		auto &res = r.res[i];
		for (const Gap &g : tasks[i].gaps) {
			i64 a = std::max(g.a, t0), b = std::min(g.b, t1);
			if (b <= a)
				continue;
			Cover c = cover(u, a, b);
			res.unexplained_ns += c.uncovered;
			if (c.covered == 0)
				res.gaps_foreign++;
			else if (c.max_chunk > slack)
				res.gaps_mixed++;
			else
				res.gaps_known++;
		}
		for (const auto &iv : ivs[i]) {
			if (iv.complete())
				res.spin_lens.push_back(iv.len());
			// A switch to another known task: it starts running right after.
			if (!iv.trunc_e && !tasks[i].is_waker &&
			    cover(u, iv.e, iv.e + slack).covered > 0)
				switch_ts.push_back(iv.e);
		}
		res.spin_runs = summarize(res.spin_lens);
		for (i64 x : tasks[i].irqs)
			if (x >= t0 && x < t1)
				irq_ts.push_back(x);
		if (!tasks[i].is_waker) {
			all_spin.insert(all_spin.end(), res.spin_lens.begin(), res.spin_lens.end());
			r.gaps_known += res.gaps_known;
			r.gaps_foreign += res.gaps_foreign;
			r.gaps_mixed += res.gaps_mixed;
		}
	}
	{
		std::vector<Interval> timeline;
		for (auto &v : ivs)
			timeline.insert(timeline.end(), v.begin(), v.end());
		auto merged = merge_known(timeline);
		std::vector<std::vector<i64>> per(nt);
		for (auto &m : merged)
			if (m.complete())
				per[size_t(m.task)].push_back(m.len());
		for (size_t i = 0; i < nt; ++i) {
			r.res[i].spin_merged = summarize(per[i]);
			if (!tasks[i].is_waker)
				all_merged.insert(all_merged.end(), per[i].begin(), per[i].end());
		}
	}
	{
		// CPU time in the window during which no probe task was on the CPU
		// by its own clock: switch overhead, foreign tasks, interrupts
		// longer than the gap threshold, time the hypervisor took.
		std::vector<Interval> every;
		for (auto &v : ivs)
			every.insert(every.end(), v.begin(), v.end());
		r.unexplained_ns = cover(union_of(every), t0, t1).uncovered;
	}
	r.spin_all = summarize(all_spin);
	r.spin_merged_all = summarize(all_merged);
	r.spin_hist = histogram_ms(all_spin);
	if (r.tick_ns)
		r.spin_tick_hist = histogram_ticks(all_merged, *r.tick_ns);
	r.irq_events = irq_ts.size();
	r.spin_ends = switch_ts.size();
	if (r.tick_ns) {
		// Without a trace the tick is not directly visible (with whole-tick
		// runs every tick switches), so look for one grid of period TICK_NSEC
		// on which the hog-to-hog switches line up; the share of switches on
		// the densest grid measures the quantisation.
		r.spin_phase = estimate_phase(switch_ts, *r.tick_ns);
		if (r.spin_phase.ok) {
			r.spin_ends_at_tick = size_t(std::llround(r.spin_phase.frac * double(switch_ts.size())));
			for (i64 x : irq_ts)
				if (near_tick(grid_offset(x, r.spin_phase.phase, *r.tick_ns)))
					++r.irq_on_grid;
		}
	}
	for (auto &t : tasks)
		if (t.is_waker) {
			std::vector<i64> lat(t.lat.begin(), t.lat.end());
			r.waker_lat_spin = summarize(lat);
			r.waker_missed = t.missed;
			r.waker_acts = t.acts.size();
		}

	// ---- trace
	if (trace_text.empty())
		return;
	TraceData td = parse_trace(trace_text);
	r.traced = true;
	r.trace_entries = td.entries_in_buffer;
	r.trace_written = td.entries_written;
	r.trace_unparsed = td.unparsed;
	std::map<int, int> task_of_pid;
	for (size_t i = 0; i < nt; ++i)
		task_of_pid[int(tasks[i].tid.load())] = int(i);
	auto task_of = [&](int pid) {
		auto it = task_of_pid.find(pid);
		return it == task_of_pid.end() ? -1 : it->second;
	};

	std::vector<i64> timers;
	std::vector<Interval> runs;   // all runs on the CPU, clipped to window
	std::map<int, std::string> comm_of;
	int cur = -1;
	i64 cur_s = 0;
	std::map<int, i64> pending_wake;  // waker pid -> wakeup ts
	std::vector<i64> waker_lat;
	auto close_run = [&](int pid, i64 s, i64 e, char st, int next) {
		if (e <= t0 || s >= t1)
			return;
		Interval iv;
		iv.s = std::max(s, t0);
		iv.e = std::min(e, t1);
		iv.trunc_s = s < t0;
		iv.trunc_e = e > t1;
		iv.pid = pid;
		iv.task = task_of(pid);
		iv.end_state = st;
		iv.next_pid = next;
		runs.push_back(iv);
	};
	for (const auto &ev : td.evs) {
		switch (ev.kind) {
		case TraceEv::Timer:
			timers.push_back(ev.ts);
			break;
		case TraceEv::Wakeup:
			if (task_of(ev.pid) >= 0 && tasks[size_t(task_of(ev.pid))].is_waker)
				pending_wake[ev.pid] = ev.ts;
			break;
		case TraceEv::Switch:
			if (cur >= 0 && cur == ev.prev_pid)
				close_run(cur, cur_s, ev.ts, ev.prev_state, ev.next_pid);
			if (!ev.prev_comm.empty())
				comm_of[ev.prev_pid] = ev.prev_comm;
			comm_of[ev.next_pid] = ev.next_comm;
			cur = ev.next_pid;
			cur_s = ev.ts;
			if (auto it = pending_wake.find(cur); it != pending_wake.end()) {
				if (it->second >= t0 && it->second < t1)
					waker_lat.push_back(ev.ts - it->second);
				pending_wake.erase(it);
			}
			break;
		}
	}
	if (cur >= 0)
		close_run(cur, cur_s, t1 + 1, '?', -1);
	r.waker_lat_trace = summarize(waker_lat);

	std::vector<i64> win_timers;
	for (i64 t : timers)
		if (t >= t0 && t < t1)
			win_timers.push_back(t);
	r.timer_events = win_timers.size();
	if (r.tick_ns) {
		r.trace_phase = estimate_phase(win_timers, *r.tick_ns);
		if (r.trace_phase.ok) {
			std::vector<i64> ticks;
			for (i64 t : win_timers)
				if (near_tick(grid_offset(t, r.trace_phase.phase, *r.tick_ns)))
					ticks.push_back(t);
			r.tick_events = ticks.size();
			std::vector<i64> diffs;
			for (size_t k = 1; k < ticks.size(); ++k)
				diffs.push_back(ticks[k] - ticks[k - 1]);
			if (!diffs.empty())
				r.tick_period_obs = summarize(diffs).p50;
		}
	}

	std::vector<i64> all_trace, end_after_timer;
	std::map<int, std::pair<i64, size_t>> foreign;
	for (const auto &iv : runs) {
		if (iv.task >= 0) {
			auto &res = r.res[size_t(iv.task)];
			if (iv.complete())
				res.trace_lens.push_back(iv.len());
			if (!iv.trunc_e) {
				bool preempted = iv.end_state == 'R';
				(preempted ? res.trace_preempted : res.trace_blocked)++;
				int nt_ = task_of(iv.next_pid);
				if (iv.next_pid == 0)
					res.trace_to_idle++;
				else if (nt_ >= 0)
					res.trace_by_known++;
				else
					res.trace_by_foreign++;
				bool hog = !tasks[size_t(iv.task)].is_waker;
				if (hog && preempted && nt_ >= 0 && tasks[size_t(nt_)].is_waker)
					++r.hog_runs_ended_by_waker;
				if (hog && preempted && nt_ >= 0) {
					auto it = std::upper_bound(timers.begin(), timers.end(), iv.e);
					if (it != timers.begin())
						end_after_timer.push_back(iv.e - *(it - 1));
					if (r.trace_phase.ok) {
						++r.trace_hog_ends;
						if (near_tick(grid_offset(iv.e, r.trace_phase.phase, *r.tick_ns)))
							++r.trace_hog_ends_at_tick;
					}
				}
			}
			if (!iv.trunc_s && r.trace_phase.ok && !tasks[size_t(iv.task)].is_waker) {
				++r.trace_hog_starts;
				if (near_tick(grid_offset(iv.s, r.trace_phase.phase, *r.tick_ns)))
					++r.trace_hog_starts_at_tick;
			}
		} else if (iv.pid == 0) {
			r.idle_ns += iv.len();
		} else {
			++r.foreign_runs;
			r.foreign_ns += iv.len();
			auto &f = foreign[iv.pid];
			f.first += iv.len();
			f.second++;
		}
	}
	r.end_after_timer = summarize(end_after_timer);
	for (auto &[pid, f] : foreign)
		r.foreign_top.push_back({strf("%s/%d", comm_of[pid].c_str(), pid), f});
	std::sort(r.foreign_top.begin(), r.foreign_top.end(),
		  [](auto &x, auto &y) { return x.second.first > y.second.first; });
	if (r.foreign_top.size() > 8)
		r.foreign_top.resize(8);

	auto merged = merge_known(runs);
	std::vector<std::vector<i64>> per(nt);
	for (auto &m : merged)
		if (m.complete())
			per[size_t(m.task)].push_back(m.len());
	std::vector<i64> all_tmerged;
	for (size_t i = 0; i < nt; ++i) {
		auto &res = r.res[i];
		res.trace_runs = summarize(res.trace_lens);
		res.trace_merged = summarize(per[i]);
		if (!tasks[i].is_waker) {
			all_trace.insert(all_trace.end(), res.trace_lens.begin(), res.trace_lens.end());
			all_tmerged.insert(all_tmerged.end(), per[i].begin(), per[i].end());
		}
	}
	r.trace_all = summarize(all_trace);
	r.trace_merged_all = summarize(all_tmerged);
	r.trace_hist = histogram_ms(all_trace);
	if (r.tick_ns)
		r.trace_tick_hist = histogram_ticks(all_trace, *r.tick_ns);
	r.trace_merged_hist = histogram_ms(all_tmerged);

	// Spin gaps during which the trace says the task kept the CPU: interrupts,
	// or the hypervisor running something else (steal).
	for (size_t i = 0; i < nt; ++i) {
		std::vector<Interval> mine;
		for (auto &iv : runs)
			if (iv.task == int(i))
				mine.push_back(iv);
		for (const Gap &g : tasks[i].gaps) {
			if (g.a < t0 || g.b > t1)
				continue;
			// Trace timestamps have 1 us resolution.
			auto it = std::upper_bound(mine.begin(), mine.end(), g.a + kUs,
						   [](i64 x, const Interval &iv) { return x < iv.s; });
			if (it == mine.begin())
				continue;
			--it;
			if (it->s <= g.a + kUs && it->e >= g.b - kUs) {
				r.res[i].spin_gaps_no_switch++;
				r.res[i].spin_gaps_no_switch_ns += g.b - g.a;
			}
		}
		if (!tasks[i].is_waker) {
			r.spin_gaps_no_switch += r.res[i].spin_gaps_no_switch;
			r.spin_gaps_no_switch_ns += r.res[i].spin_gaps_no_switch_ns;
		}
	}
}

std::string slice_str(const std::optional<i64> &s)
{
	return s ? ms3(*s) + " ms" : std::string("default");
}

std::string opt_ms(const std::optional<i64> &s) { return s ? ms3(*s) : std::string("n/a"); }

void print_summary_header(const char *first)
{
	std::printf("  %-8s %6s %9s %9s %9s %9s %9s %9s\n", first, "runs", "mean", "min",
		    "p50", "p90", "p99", "max");
}

void print_summary(const std::string &name, const Summary &s)
{
	if (s.n == 0) {
		std::printf("  %-8s %6zu\n", name.c_str(), s.n);
		return;
	}
	std::printf("  %-8s %6zu %9.3f %9s %9s %9s %9s %9s\n", name.c_str(), s.n, s.mean / kMs,
		    ms3(s.min).c_str(), ms3(s.p50).c_str(), ms3(s.p90).c_str(),
		    ms3(s.p99).c_str(), ms3(s.max).c_str());
}

void print_hist(const std::map<i64, size_t> &h)
{
	size_t total = 0, top = 0;
	for (auto &[b, c] : h) {
		total += c;
		top = std::max(top, c);
	}
	for (auto &[b, c] : h) {
		int bar = top ? int(50.0 * double(c) / double(top) + 0.5) : 0;
		std::printf("  [%3" PRId64 ",%3" PRId64 ") ms %6zu %5.1f%% %s\n", b, b + 1, c,
			    100.0 * double(c) / double(total), std::string(size_t(bar), '#').c_str());
	}
}

void print_text(const Report &r)
{
	const auto &tasks = *r.tasks;
	const auto &si = r.si;
	std::printf("command     : %s\n", r.command.c_str());
	std::printf("kernel      : %s %s (%s)\n", si.release.c_str(), si.version.c_str(),
		    si.machine.c_str());
	std::printf("HZ          : %s", si.hz ? std::to_string(*si.hz).c_str() : "unknown");
	if (si.hz)
		std::printf(" from %s", si.hz_source.c_str());
	if (si.measured_hz)
		std::printf("; jiffies rate measured %.1f/s", *si.measured_hz);
	std::printf("\n");
	std::printf("preempt     : %s\n",
		    si.preempt_mode.empty() ? "unknown (/sys/kernel/debug/sched/preempt not readable)"
					    : si.preempt_mode.c_str());
	std::printf("autogroup   : enabled=%d, probe in %s%s\n", si.autogroup_enabled,
		    si.autogroup.c_str(), r.opt.isolate ? " (--isolate: own session)" : "");
	std::printf("setup       : %d hog(s) on CPU %d (of %d online), slice %s, window %s s "
		    "after %s s warm-up\n",
		    r.opt.hogs, r.opt.cpu, si.ncpus_online, slice_str(r.opt.slice_ns).c_str(),
		    strf("%.3f", double(r.opt.duration_ns) / kSec).c_str(),
		    strf("%.3f", double(r.opt.warmup_ns) / kSec).c_str());
	if (r.opt.waker)
		std::printf("waker       : period %s ms, run %s ms (wall clock), first wake "
			    "T0+%s ms, slice %s, timer slack 1 ns\n",
			    ms3(r.opt.waker_period_ns).c_str(), ms3(r.opt.waker_run_ns).c_str(),
			    ms3(r.opt.waker_offset_ns).c_str(),
			    slice_str(r.opt.waker_slice_ns).c_str());
	std::printf("gap         : a run ends at a spin gap > %" PRId64 " us; gaps of %" PRId64
		    "..%" PRId64 " us count as interrupts\n",
		    r.opt.gap_thr_ns / kUs, r.opt.irq_thr_ns / kUs, r.opt.gap_thr_ns / kUs);
	std::printf("trace       : %s\n",
		    r.traced ? "sched_switch + sched_wakeup + local_timer_entry on the CPU, "
			       "trace_clock=mono (ground truth)"
			     : ("off: " + r.trace_note).c_str());

	std::printf("\nper task, /proc/<pid>/task/<tid>/sched deltas over the window:\n");
	std::printf("  %-8s %7s %10s %11s %8s %6s %6s %6s\n", "task", "tid", "se.slice",
		    "sum_exec", "nr_sw", "vol", "invol", "migr");
	for (const auto &t : tasks) {
		const auto &a = t.st0, &b = t.st1;
		if (!a.ok || !b.ok) {
			std::printf("  %-8s %7d  (/proc/.../sched not readable at T0 or T1)\n",
				    t.name.c_str(), int(t.tid.load()));
			continue;
		}
		std::printf("  %-8s %7d %10s %11s %8" PRId64 " %6" PRId64 " %6" PRId64 " %6" PRId64
			    "\n",
			    t.name.c_str(), int(t.tid.load()), opt_ms(b.slice_ns).c_str(),
			    ms3(b.sum_exec_ns - a.sum_exec_ns).c_str(), b.nr_switches - a.nr_switches,
			    b.nr_voluntary - a.nr_voluntary, b.nr_involuntary - a.nr_involuntary,
			    b.nr_migrations - a.nr_migrations);
	}
	std::printf("  (se.slice and sum_exec in ms; deltas between reads at T0%+.3f ms and "
		    "T1%+.3f ms)\n",
		    double(tasks[0].st0.read_at - r.plan.t0) / kMs,
		    double(tasks[0].st1.read_at - r.plan.t1) / kMs);

	std::printf("\nruns, spin method (ms; runs cut by the window edges excluded):\n");
	print_summary_header("task");
	for (size_t i = 0; i < tasks.size(); ++i)
		print_summary(tasks[i].name, r.res[i].spin_runs);
	print_summary("all hogs", r.spin_all);
	std::printf("  merged across foreign interruptions (wall-clock span from one known task "
		    "to the next):\n");
	print_summary("all hogs", r.spin_merged_all);
	std::printf("histogram of hog runs, spin method:\n");
	print_hist(r.spin_hist);
	if (!r.spin_tick_hist.empty()) {
		std::printf("merged hog runs in whole ticks (rounded), spin method:");
		for (auto &[k, c] : r.spin_tick_hist)
			std::printf("  %" PRId64 ":%zu", k, c);
		std::printf("\n");
	}

	if (r.traced) {
		std::printf("\nruns, sched_switch trace (ms):\n");
		print_summary_header("task");
		for (size_t i = 0; i < tasks.size(); ++i)
			print_summary(tasks[i].name, r.res[i].trace_runs);
		print_summary("all hogs", r.trace_all);
		std::printf("  merged across foreign tasks:\n");
		print_summary("all hogs", r.trace_merged_all);
		std::printf("histogram of hog runs, trace:\n");
		print_hist(r.trace_hist);
		if (!r.trace_tick_hist.empty()) {
			std::printf("hog runs in whole ticks (rounded), trace:");
			for (auto &[k, c] : r.trace_tick_hist)
				std::printf("  %" PRId64 ":%zu", k, c);
			std::printf("\n");
		}
		std::printf("run ends per task (trace): preempted / blocked; next is known task / "
			    "foreign / idle\n");
		for (size_t i = 0; i < tasks.size(); ++i) {
			const auto &x = r.res[i];
			std::printf("  %-8s %5zu / %-5zu  %5zu / %5zu / %5zu\n", tasks[i].name.c_str(),
				    x.trace_preempted, x.trace_blocked, x.trace_by_known,
				    x.trace_by_foreign, x.trace_to_idle);
		}
	}

	std::printf("\ntick alignment:\n");
	if (r.tick_ns) {
		if (r.spin_phase.ok)
			std::printf("  spin : %zu/%zu hog->hog switches lie within [-50,+200) us of one "
				    "%.0f ms grid (phase %.3f ms); %zu of %zu short interrupt gaps on it\n",
				    r.spin_ends_at_tick, r.spin_ends, double(*r.tick_ns) / kMs,
				    double(r.spin_phase.phase) / kMs, r.irq_on_grid, r.irq_events);
		else
			std::printf("  spin : too few hog->hog switches (%zu) to look for a grid\n",
				    r.spin_ends);
		if (r.traced) {
			if (r.trace_phase.ok) {
				std::printf("  trace: %zu local_timer_entry, %zu on the tick grid (phase "
					    "%.3f ms), tick period p50 %s ms\n",
					    r.timer_events, r.tick_events, double(r.trace_phase.phase) / kMs,
					    opt_ms(r.tick_period_obs).c_str());
				std::printf("  trace: hog preempted by known task: %zu/%zu within "
					    "[-50,+200) us after a tick; hog runs starting at a tick: "
					    "%zu/%zu\n",
					    r.trace_hog_ends_at_tick, r.trace_hog_ends,
					    r.trace_hog_starts_at_tick, r.trace_hog_starts);
				if (r.end_after_timer.n)
					std::printf("  trace: switch-out minus previous timer interrupt: p50 "
						    "%.1f us, p90 %.1f us, max %.1f us\n",
						    double(r.end_after_timer.p50) / kUs,
						    double(r.end_after_timer.p90) / kUs,
						    double(r.end_after_timer.max) / kUs);
			} else {
				std::printf("  trace: %zu local_timer_entry events, no grid found\n",
					    r.timer_events);
			}
		}
	} else {
		std::printf("  HZ unknown, skipped\n");
	}

	std::printf("\nnoise on CPU %d:\n", r.opt.cpu);
	std::printf("  spin gaps > %" PRId64 " us of hogs: %zu explained by other probe tasks "
		    "running, %zu with no probe task running (foreign task, interrupt or "
		    "hypervisor), %zu partly explained (a hole > %" PRId64 " us)\n"
		    "  time in the window with no probe task on the CPU: %s ms (includes ~30-40 "
		    "us switch overhead per switch)\n",
		    r.opt.gap_thr_ns / kUs,
		    r.gaps_known, r.gaps_foreign, r.gaps_mixed,
		    std::max(r.opt.gap_thr_ns, kSwitchSlack) / kUs, ms3(r.unexplained_ns).c_str());
	if (r.traced) {
		std::printf("  trace: %zu foreign runs, %s ms foreign CPU time, %s ms idle",
			    r.foreign_runs, ms3(r.foreign_ns).c_str(), ms3(r.idle_ns).c_str());
		if (!r.foreign_top.empty()) {
			std::printf("; top:");
			for (auto &[n, f] : r.foreign_top)
				std::printf(" %s(%zux, %s ms)", n.c_str(), f.second, ms3(f.first).c_str());
		}
		std::printf("\n  spin gaps > %" PRId64 " us with no context switch in the trace "
			    "(interrupts / hypervisor): %zu, %s ms\n",
			    r.opt.gap_thr_ns / kUs, r.spin_gaps_no_switch,
			    ms3(r.spin_gaps_no_switch_ns).c_str());
		if (r.trace_written > r.trace_entries)
			std::printf("  WARNING: trace buffer overran (%" PRId64 " of %" PRId64
				    " entries kept)\n",
				    r.trace_entries, r.trace_written);
		if (r.trace_unparsed)
			std::printf("  WARNING: %zu trace lines not parsed\n", r.trace_unparsed);
	}
	for (const auto &t : tasks)
		if (t.gaps.full || t.irqs.full || t.lat.full || t.acts.full)
			std::printf("  WARNING: %s: a measurement buffer filled up\n", t.name.c_str());

	if (r.opt.waker) {
		std::printf("\nwaker:\n");
		std::printf("  activations %zu, periods skipped %" PRId64 "\n", r.waker_acts,
			    r.waker_missed);
		auto lat = [](const char *what, const Summary &s) {
			if (s.n)
				std::printf("  %-46s n=%zu p50 %.1f us, p90 %.1f us, p99 %.1f us, max "
					    "%.1f us\n",
					    what, s.n, double(s.p50) / kUs, double(s.p90) / kUs,
					    double(s.p99) / kUs, double(s.max) / kUs);
		};
		lat("latency expected wake -> first timestamp:", r.waker_lat_spin);
		if (r.traced) {
			lat("latency sched_wakeup -> switch-in (trace):", r.waker_lat_trace);
			std::printf("  hog runs ended by the waker preempting: %zu\n",
				    r.hog_runs_ended_by_waker);
		}
	}
}

std::string make_json(const Report &r)
{
	const auto &tasks = *r.tasks;
	const auto &si = r.si;
	Json j;
	j.obj();
	j.key("probe").v("eevdf-probe");
	j.key("command").v(r.command);
	j.key("kernel").obj();
	j.key("release").v(si.release);
	j.key("version").v(si.version);
	j.key("machine").v(si.machine);
	j.key("hz").opt(si.hz);
	j.key("hz_source").v(si.hz_source);
	j.key("config_hz").opt(si.config_hz);
	j.key("measured_jiffies_hz").opt(si.measured_hz);
	j.key("preempt").v(si.preempt_mode);
	j.key("autogroup_enabled").v(si.autogroup_enabled);
	j.key("autogroup").v(si.autogroup);
	j.key("cpus_online").v(si.ncpus_online);
	j.end_obj();
	j.key("config").obj();
	j.key("hogs").v(r.opt.hogs);
	if (!r.opt.nices.empty()) {
		j.key("nices").arr();
		for (int n : r.opt.nices)
			j.v(n);
		j.end_arr();
	}
	j.key("cpu").v(r.opt.cpu);
	j.key("slice_ns").opt(r.opt.slice_ns);
	j.key("duration_ns").v(r.opt.duration_ns);
	j.key("warmup_ns").v(r.opt.warmup_ns);
	j.key("t0_mono_ns").v(r.plan.t0);
	j.key("gap_threshold_ns").v(r.opt.gap_thr_ns);
	j.key("irq_threshold_ns").v(r.opt.irq_thr_ns);
	j.key("isolate").v(r.opt.isolate);
	if (r.opt.waker) {
		j.key("waker").obj();
		j.key("period_ns").v(r.opt.waker_period_ns);
		j.key("run_ns").v(r.opt.waker_run_ns);
		j.key("offset_ns").v(r.opt.waker_offset_ns);
		j.key("slice_ns").opt(r.opt.waker_slice_ns);
		j.end_obj();
	}
	j.key("traced").v(r.traced);
	if (!r.traced)
		j.key("trace_note").v(r.trace_note);
	j.end_obj();

	j.key("tasks").arr();
	for (size_t i = 0; i < tasks.size(); ++i) {
		const auto &t = tasks[i];
		const auto &x = r.res[i];
		j.obj();
		j.key("name").v(t.name);
		j.key("role").v(t.is_waker ? "waker" : "hog");
		j.key("nice").v(t.nice);
		j.key("tid").v(int(t.tid.load()));
		j.key("requested_slice_ns").opt(t.slice_ns);
		j.key("se_slice_ns").opt(t.st1.slice_ns);
		j.key("proc_delta").obj();
		j.key("valid").v(t.st0.ok && t.st1.ok);
		j.key("sum_exec_runtime_ns").v(t.st1.sum_exec_ns - t.st0.sum_exec_ns);
		j.key("nr_switches").v(t.st1.nr_switches - t.st0.nr_switches);
		j.key("nr_voluntary_switches").v(t.st1.nr_voluntary - t.st0.nr_voluntary);
		j.key("nr_involuntary_switches").v(t.st1.nr_involuntary - t.st0.nr_involuntary);
		j.key("nr_migrations").v(t.st1.nr_migrations - t.st0.nr_migrations);
		j.end_obj();
		json_summary(j, "spin_runs", x.spin_runs);
		json_summary(j, "spin_runs_merged", x.spin_merged);
		j.key("spin_gaps").obj();
		j.key("known").v(x.gaps_known);
		j.key("foreign").v(x.gaps_foreign);
		j.key("mixed").v(x.gaps_mixed);
		j.key("uncovered_by_other_tasks_ns").v(x.unexplained_ns);
		j.end_obj();
		if (r.traced) {
			json_summary(j, "trace_runs", x.trace_runs);
			json_summary(j, "trace_runs_merged", x.trace_merged);
			j.key("trace_ends").obj();
			j.key("preempted").v(x.trace_preempted);
			j.key("blocked").v(x.trace_blocked);
			j.key("next_known").v(x.trace_by_known);
			j.key("next_foreign").v(x.trace_by_foreign);
			j.key("next_idle").v(x.trace_to_idle);
			j.end_obj();
		}
		j.end_obj();
	}
	j.end_arr();

	j.key("hogs").obj();
	j.key("spin").obj();
	json_summary(j, "runs", r.spin_all);
	json_summary(j, "runs_merged", r.spin_merged_all);
	json_hist(j, "histogram", r.spin_hist);
	j.key("histogram_ticks_merged").obj();
	for (auto &[k, c] : r.spin_tick_hist)
		j.key(std::to_string(k)).v(c);
	j.end_obj();
	j.end_obj();
	if (r.traced) {
		j.key("trace").obj();
		json_summary(j, "runs", r.trace_all);
		json_summary(j, "runs_merged", r.trace_merged_all);
		json_hist(j, "histogram", r.trace_hist);
		json_hist(j, "histogram_merged", r.trace_merged_hist);
		j.key("histogram_ticks").obj();
		for (auto &[k, c] : r.trace_tick_hist)
			j.key(std::to_string(k)).v(c);
		j.end_obj();
		j.end_obj();
	}
	i64 invol = 0, sw = 0;
	for (const auto &t : tasks)
		if (!t.is_waker) {
			invol += t.st1.nr_involuntary - t.st0.nr_involuntary;
			sw += t.st1.nr_switches - t.st0.nr_switches;
		}
	j.key("nr_involuntary_switches").v(invol);
	j.key("nr_switches").v(sw);
	j.end_obj();

	j.key("ticks").obj();
	j.key("tick_ns").opt(r.tick_ns);
	j.key("spin_irq_gaps").v(r.irq_events);
	if (r.spin_phase.ok) {
		j.key("spin_phase_ns").v(r.spin_phase.phase);
		j.key("spin_irq_gaps_on_grid").v(r.irq_on_grid);
		j.key("spin_switches").v(r.spin_ends);
		j.key("spin_switches_on_grid").v(r.spin_ends_at_tick);
	}
	if (r.traced) {
		j.key("timer_events").v(r.timer_events);
		j.key("tick_events").v(r.tick_events);
		if (r.trace_phase.ok)
			j.key("trace_phase_ns").v(r.trace_phase.phase);
		j.key("tick_period_observed_ns").opt(r.tick_period_obs);
		j.key("hog_preemptions").v(r.trace_hog_ends);
		j.key("hog_preemptions_at_tick").v(r.trace_hog_ends_at_tick);
		j.key("hog_run_starts").v(r.trace_hog_starts);
		j.key("hog_run_starts_at_tick").v(r.trace_hog_starts_at_tick);
		json_summary(j, "switch_after_timer_irq", r.end_after_timer);
	}
	j.end_obj();

	j.key("noise").obj();
	j.key("spin_gaps_known").v(r.gaps_known);
	j.key("spin_gaps_foreign").v(r.gaps_foreign);
	j.key("spin_gaps_mixed").v(r.gaps_mixed);
	j.key("spin_no_probe_task_ns").v(r.unexplained_ns);
	if (r.traced) {
		j.key("foreign_runs").v(r.foreign_runs);
		j.key("foreign_ns").v(r.foreign_ns);
		j.key("idle_ns").v(r.idle_ns);
		j.key("spin_gaps_without_switch").v(r.spin_gaps_no_switch);
		j.key("spin_gaps_without_switch_ns").v(r.spin_gaps_no_switch_ns);
		j.key("trace_entries").v(r.trace_entries);
		j.key("trace_entries_written").v(r.trace_written);
		j.key("foreign_top").arr();
		for (auto &[n, f] : r.foreign_top) {
			j.obj();
			j.key("task").v(n);
			j.key("runs").v(f.second);
			j.key("ns").v(f.first);
			j.end_obj();
		}
		j.end_arr();
	}
	bool full = false;
	for (const auto &t : tasks)
		full = full || t.gaps.full || t.irqs.full || t.lat.full || t.acts.full;
	j.key("buffer_overflow").v(full);
	j.end_obj();

	if (r.opt.waker) {
		j.key("waker").obj();
		j.key("activations").v(r.waker_acts);
		j.key("periods_skipped").v(r.waker_missed);
		json_summary(j, "latency_spin", r.waker_lat_spin);
		if (r.traced) {
			json_summary(j, "latency_trace", r.waker_lat_trace);
			j.key("hog_runs_ended_by_waker").v(r.hog_runs_ended_by_waker);
		}
		j.end_obj();
	}
	j.end_obj();
	return j.text() + "\n";
}

// ------------------------------------------------------------------- main

// --isolate: a new session gets a new autogroup (kernel/sched/autogroup.c,
// sched_autogroup_create_attach() on setsid()).  A process group leader
// cannot call setsid(), so fork; the parent forwards termination signals and
// returns the child's exit status.
void isolate_session()
{
	if (getsid(0) == getpid()) {
		// Already a session leader: its autogroup may be shared with the
		// rest of the session, but we cannot make a new one.  Fine if we
		// are alone in it.
	} else {
		sigset_t sigs;
		sigemptyset(&sigs);
		for (int sg : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD})
			sigaddset(&sigs, sg);
		sigprocmask(SIG_BLOCK, &sigs, nullptr);
		std::fflush(nullptr);
		pid_t child = fork();
		if (child < 0)
			die(strf("fork: %s", strerror(errno)));
		if (child > 0) {
			for (;;) {
				int status = 0;
				pid_t w = waitpid(child, &status, WNOHANG);
				if (w == child) {
					if (WIFEXITED(status))
						std::exit(WEXITSTATUS(status));
					std::exit(kExitError);
				}
				timespec ts = to_timespec(200 * kMs);
				int sg = sigtimedwait(&sigs, nullptr, &ts);
				if (sg > 0 && sg != SIGCHLD)
					kill(child, sg);
			}
		}
		sigdelset(&sigs, SIGCHLD);
		sigprocmask(SIG_UNBLOCK, &sigs, nullptr);
		if (setsid() < 0)
			die(strf("setsid: %s", strerror(errno)));
	}
	int err = write_text("/proc/self/autogroup", "-20");
	if (err != 0)
		die(strf("--isolate: writing -20 to /proc/self/autogroup: %s%s", strerror(err),
			 err == EPERM || err == EACCES ? " (needs CAP_SYS_NICE)" : ""));
}

// Sleep until the absolute CLOCK_MONOTONIC time `until` while watching for
// the blocked termination signals.  Returns false if one arrived.
bool wait_until(i64 until, const sigset_t &sigs)
{
	for (;;) {
		i64 left = until - now_ns();
		if (left <= 0)
			return true;
		timespec ts = to_timespec(std::min<i64>(left, 100 * kMs));
		int s = sigtimedwait(&sigs, nullptr, &ts);
		if (s > 0)
			return false;
	}
}

}  // namespace

int main(int argc, char **argv)
{
	g_opt = parse_args(argc, argv);
	const Options &o = g_opt;
	if (o.isolate)
		isolate_session();

	// The CPU must exist and be allowed to us.
	cpu_set_t allowed;
	CPU_ZERO(&allowed);
	if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
		die(strf("sched_getaffinity: %s", strerror(errno)));
	if (!CPU_ISSET(o.cpu, &allowed))
		die(strf("CPU %d is not online or not in this process's affinity mask", o.cpu));

	SysInfo si = gather_sysinfo();

	// Keep the main thread off the probed CPU.
	{
		cpu_set_t rest = allowed;
		CPU_CLR(o.cpu, &rest);
		if (CPU_COUNT(&rest) > 0) {
			if (sched_setaffinity(0, sizeof rest, &rest) != 0)
				die(strf("sched_setaffinity(main): %s", strerror(errno)));
		} else {
			std::fprintf(stderr, "eevdf-probe: warning: only CPU %d is available; the "
					     "main thread shares it (it sleeps)\n", o.cpu);
		}
	}

	// Termination signals are taken synchronously by the main thread only.
	sigset_t sigs;
	sigemptyset(&sigs);
	for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
		sigaddset(&sigs, s);
	pthread_sigmask(SIG_BLOCK, &sigs, nullptr);

	Tracer tracer;
	if (o.trace != Options::Trace::Off) {
		if (!tracer.setup(o.cpu, o.duration_ns + o.warmup_ns) &&
		    o.trace == Options::Trace::On)
			die("--trace: " + tracer.note);
	} else {
		tracer.note = "disabled with --no-trace";
	}

	// Tasks and their preallocated buffers (touched now, not while measuring).
	const int ntasks = o.hogs + (o.waker ? 1 : 0);
	std::vector<Task> tasks(static_cast<size_t>(ntasks));
	const double secs = double(o.duration_ns) / kSec;
	for (int i = 0; i < ntasks; ++i) {
		Task &t = tasks[size_t(i)];
		t.idx = i;
		t.is_waker = o.waker && i == o.hogs;
		t.name = t.is_waker ? "waker" : strf("hog%d", i);
		t.slice_ns = t.is_waker ? o.waker_slice_ns : o.slice_ns;
		t.nice = !t.is_waker && !o.nices.empty() ? o.nices[size_t(i)] : 0;
		// ~300 gaps/s per task were seen in a VM; overflow is reported.
		t.gaps.init(size_t(std::clamp(5000.0 * secs, 50000.0, 1000000.0)));
		t.irqs.init(size_t(std::clamp(20000.0 * secs, 100000.0, 1000000.0)));
		if (t.is_waker) {
			size_t acts = size_t(o.duration_ns / o.waker_period_ns + 16);
			t.lat.init(acts);
			t.acts.init(acts);
		}
	}

	std::vector<std::thread> threads;
	auto finish = [&](int code) {
		{
			std::lock_guard<std::mutex> lk(g_gate.m);
			g_gate.open = true;
		}
		g_gate.cv.notify_all();
		for (auto &th : threads)
			if (th.joinable())
				th.join();
		tracer.teardown();
		return code;
	};
	for (int i = 0; i < ntasks; ++i) {
		try {
			threads.emplace_back(task_main, &tasks[size_t(i)]);
		} catch (const std::exception &e) {
			std::fprintf(stderr, "eevdf-probe: error: cannot create thread: %s\n", e.what());
			g_abort = true;
			g_stop = true;
			return finish(kExitError);
		}
	}
	{
		std::unique_lock<std::mutex> lk(g_gate.m);
		g_gate.cv.wait(lk, [&] { return g_gate.ready == ntasks; });
	}

	// Setup errors: sched_setattr / affinity.
	bool bad = false;
	for (auto &t : tasks)
		if (t.err) {
			std::fprintf(stderr, "eevdf-probe: error: %s: %s failed: %s (errno %d)%s\n",
				     t.name.c_str(), t.err_what.c_str(), strerror(t.err), t.err,
				     t.err == EPERM ? " - need root or CAP_SYS_NICE"
				     : t.err == EINVAL ? " - kernel rejected the attributes" : "");
			bad = true;
		}
	// The slice must show in /proc (6.15+ prints se.slice).
	for (auto &t : tasks) {
		if (bad)
			break;
		t.setup = read_proc_sched(t.tid);
		if (!t.setup.ok) {
			std::fprintf(stderr, "eevdf-probe: error: cannot read /proc/self/task/%d/sched "
					     "(CONFIG_SCHED_DEBUG?)\n", int(t.tid.load()));
			bad = true;
		} else if (t.setup.policy != -1 && t.setup.policy != SCHED_OTHER) {
			std::fprintf(stderr, "eevdf-probe: error: %s has policy %" PRId64 ", not "
					     "SCHED_OTHER\n", t.name.c_str(), t.setup.policy);
			bad = true;
		} else if (!t.setup.slice_ns) {
			std::fprintf(stderr, "eevdf-probe: warning: %s: no se.slice in /proc (kernel "
					     "before 6.15?); cannot verify the slice\n", t.name.c_str());
		} else if (t.slice_ns && *t.setup.slice_ns != *t.slice_ns) {
			std::fprintf(stderr, "eevdf-probe: error: %s: asked for slice %" PRId64 " ns, "
					     "se.slice shows %" PRId64 " ns (the kernel clamps to "
					     "0.1..100 ms; older kernels ignore sched_runtime)\n",
				     t.name.c_str(), *t.slice_ns, *t.setup.slice_ns);
			bad = true;
		}
	}
	if (bad) {
		g_abort = true;
		return finish(kExitError);
	}

	if (tracer.active && !tracer.on()) {
		tracer.note = "cannot switch tracing on";
		tracer.teardown();
	}
	const i64 start = now_ns();
	g_plan.t0 = start + o.warmup_ns;
	// On NO_HZ kernels the tick fires at multiples of TICK_NSEC of
	// CLOCK_MONOTONIC; start the window on one so that the waker's phase
	// relative to the tick is fixed.
	if (si.hz && *si.hz > 0) {
		const i64 tick = kSec / *si.hz;
		g_plan.t0 = (g_plan.t0 / tick + 1) * tick;
	}
	g_plan.t1 = g_plan.t0 + o.duration_ns;
	g_plan.tend = g_plan.t1 + 500 * kMs;
	{
		std::lock_guard<std::mutex> lk(g_gate.m);
		g_gate.open = true;
	}
	g_gate.cv.notify_all();

	bool ok = wait_until(g_plan.t0, sigs);
	if (ok) {
		for (auto &t : tasks)
			t.st0 = read_proc_sched(t.tid);
		ok = wait_until(g_plan.t1, sigs);
	}
	if (ok)
		for (auto &t : tasks)
			t.st1 = read_proc_sched(t.tid);
	if (!ok)
		g_stop = true;
	g_tail_done = true;
	for (auto &th : threads)
		th.join();
	threads.clear();
	tracer.off();
	std::string trace_text = ok ? tracer.read_trace() : std::string();
	tracer.teardown();
	if (!ok) {
		std::fprintf(stderr, "eevdf-probe: interrupted; threads stopped, trace instance "
				     "removed\n");
		return kExitInterrupted;
	}

	if (!o.dump_trace.empty() && !trace_text.empty()) {
		std::ofstream out(o.dump_trace);
		out << "# eevdf-probe window T0=" << g_plan.t0 << " T1=" << g_plan.t1
		    << " ns CLOCK_MONOTONIC; tids:";
		for (auto &t : tasks)
			out << ' ' << t.name << '=' << t.tid.load();
		out << '\n' << trace_text;
		if (!out)
			std::fprintf(stderr, "eevdf-probe: warning: cannot write %s\n",
				     o.dump_trace.c_str());
	}

	Report r;
	for (int i = 0; i < argc; ++i)
		r.command += (i ? " " : "") + std::string(argv[i]);
	r.si = si;
	r.opt = o;
	r.plan = g_plan;
	r.tasks = &tasks;
	r.trace_note = tracer.note;
	analyse(r, trace_text);
	if (o.json)
		std::fputs(make_json(r).c_str(), stdout);
	else
		print_text(r);
	if (!o.json_out.empty()) {
		std::ofstream out(o.json_out);
		out << make_json(r);
		if (!out)
			std::fprintf(stderr, "eevdf-probe: warning: cannot write %s\n",
				     o.json_out.c_str());
	}
	return 0;
}
