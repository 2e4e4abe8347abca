// SPDX-License-Identifier: GPL-2.0-only
#include "trace/reader.hpp"

#include <charconv>
#include <initializer_list>
#include <limits>

#include "io/input_error.hpp"

namespace eevdf::trace {
namespace {

// A line that is not what it should be: the 0-based column and why.
struct BadLine {
	size_t col;
	std::string what;
};

using sv = std::string_view;

constexpr long long MAX_CPUS = MAX_TRACE_CPUS;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A decimal int of the whole of `s` (a leading '-' allowed), or BadLine at `col`.
long long to_int(sv s, size_t col, const char* what)
{
	long long v = 0;
	const char* b = s.data();
	const char* e = s.data() + s.size();
	const auto r = std::from_chars(b, e, v);
	if (s.empty() || r.ec != std::errc() || r.ptr != e)
		throw BadLine{col, std::string(what) + " is not an integer: '" + std::string(s) + "'"};
	return v;
}

int to_pid(sv s, size_t col, const char* what)
{
	const long long v = to_int(s, col, what);
	if (v < -1 || v > 0x3fffffff)  // PID_MAX_LIMIT is 2^22; -1 is perf's "no tid"
		throw BadLine{col, std::string(what) + " out of range: " + std::string(s)};
	return static_cast<int>(v);
}

u32 to_cpu(sv s, size_t col, const char* what)
{
	const long long v = to_int(s, col, what);
	if (v < 0 || v >= MAX_CPUS)
		throw BadLine{col, std::string(what) + " out of range: " + std::string(s)};
	return static_cast<u32>(v);
}

std::string comm_of(sv s, size_t col, const char* what)
{
	if (s.empty() || s.size() > 15)
		throw BadLine{col, std::string(what) + " must be 1 to 15 characters (TASK_COMM_LEN - 1): '" + std::string(s) + "'"};
	for (size_t i = 0; i < s.size(); i++)
		if (static_cast<unsigned char>(s[i]) < 0x20 || s[i] == 0x7f)
			throw BadLine{col + i, std::string(what) + " holds a control character (byte " +
						       std::to_string(static_cast<unsigned char>(s[i])) + ")"};
	return std::string(s);
}

// TP_printk()'s "k1=v1 k2=v2 ...": the values of `keys` in that order. Only
// the comm values may hold spaces, so each value runs to " next_key=".
// `optional` keys may be absent (e.g. "success=1" of older sched_wakeup).
struct Fields {
	sv v[8];
	size_t col[8];
};

Fields tp_fields(sv body, size_t base, std::initializer_list<const char*> keys, std::initializer_list<const char*> optional = {})
{
	const auto is_optional = [&](sv k) {
		for (const char* o : optional)
			if (k == o)
				return true;
		return false;
	};
	const char* const* key = keys.begin();
	const size_t n = keys.size();
	Fields f{};
	const std::string first = std::string(key[0]) + "=";
	if (body.substr(0, first.size()) != first)
		throw BadLine{base, "expected '" + first + "'"};
	size_t pos = first.size();
	for (size_t i = 0;;) {
		size_t j = i + 1, at = sv::npos;
		std::string nk;
		for (; j < n; j++) {
			nk = " " + std::string(key[j]) + "=";
			at = body.find(nk, pos);
			if (at != sv::npos)
				break;
			if (!is_optional(key[j]))
				throw BadLine{base + body.size(), "missing '" + nk.substr(1) + "'"};
		}
		f.col[i] = base + pos;
		if (j >= n) {
			f.v[i] = body.substr(pos);
			return f;
		}
		f.v[i] = body.substr(pos, at - pos);
		pos = at + nk.size();
		i = j;
	}
}

// prev_state as sched_switch prints it: TASK_REPORT letters joined by '|'
// (or "R"), then "+" when the task was preempted.
void parse_state(sv s, size_t col, Event& e)
{
	if (s.empty())
		throw BadLine{col, "empty prev_state"};
	e.prev_preempt = s.back() == '+';
	if (e.prev_preempt)
		s.remove_suffix(1);
	static constexpr sv letters = "RSDTtXZPIKWN";
	for (size_t i = 0; i < s.size(); i++) {
		const bool sep = i % 2 == 1;
		if (sep ? s[i] != '|' : letters.find(s[i]) == sv::npos)
			throw BadLine{col + i, "prev_state is not a task state: '" + std::string(s) + "'"};
	}
	e.prev_state = s[0];
}

// libtraceevent's sched plugin: "COMM:PID [PRIO]" (trace-cmd report).
void plugin_task(sv s, size_t col, std::string& comm, int& pid, int& prio, const char* who)
{
	const size_t lb = s.rfind(" [");
	if (lb == sv::npos || s.back() != ']')
		throw BadLine{col, std::string("expected '") + who + "COMM:PID [PRIO]'"};
	prio = static_cast<int>(to_int(s.substr(lb + 2, s.size() - lb - 3), col + lb + 2, "prio"));
	const sv cp = s.substr(0, lb);
	const size_t colon = cp.rfind(':');
	if (colon == sv::npos)
		throw BadLine{col, std::string("expected '") + who + "COMM:PID'"};
	pid = to_pid(cp.substr(colon + 1), col + colon + 1, "pid");
	comm = comm_of(cp.substr(0, colon), col, "comm");
}

void parse_switch(sv body, size_t base, Event& e)
{
	e.kind = EventKind::Switch;
	if (body.substr(0, 10) == "prev_comm=") {
		const Fields f = tp_fields(body, base, {"prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio"});
		e.prev_comm = comm_of(f.v[0], f.col[0], "prev_comm");
		e.prev_pid = to_pid(f.v[1], f.col[1], "prev_pid");
		e.prev_prio = static_cast<int>(to_int(f.v[2], f.col[2], "prev_prio"));
		sv st = f.v[3];
		if (st.size() < 4 || st.substr(st.size() - 4) != " ==>")
			throw BadLine{f.col[3], "expected ' ==>' after prev_state"};
		parse_state(st.substr(0, st.size() - 4), f.col[3], e);
		e.next_comm = comm_of(f.v[4], f.col[4], "next_comm");
		e.next_pid = to_pid(f.v[5], f.col[5], "next_pid");
		e.next_prio = static_cast<int>(to_int(f.v[6], f.col[6], "next_prio"));
		return;
	}
	// trace-cmd: "PREV:PID [PRIO] STATE ==> NEXT:PID [PRIO]"
	const size_t arrow = body.find(" ==> ");
	if (arrow == sv::npos)
		throw BadLine{base, "sched_switch without ' ==> '"};
	const sv left = body.substr(0, arrow);
	const size_t sp = left.rfind(' ');
	if (sp == sv::npos)
		throw BadLine{base, "expected 'PREV:PID [PRIO] STATE'"};
	parse_state(left.substr(sp + 1), base + sp + 1, e);
	plugin_task(left.substr(0, sp), base, e.prev_comm, e.prev_pid, e.prev_prio, "");
	plugin_task(body.substr(arrow + 5), base + arrow + 5, e.next_comm, e.next_pid, e.next_prio, "");
}

void parse_wakeup(sv body, size_t base, Event& e)
{
	if (body.substr(0, 5) == "comm=") {
		const Fields f = tp_fields(body, base, {"comm", "pid", "prio", "success", "target_cpu"}, {"success"});
		e.comm = comm_of(f.v[0], f.col[0], "comm");
		e.pid = to_pid(f.v[1], f.col[1], "pid");
		e.prio = static_cast<int>(to_int(f.v[2], f.col[2], "prio"));
		e.target_cpu = to_cpu(f.v[4], f.col[4], "target_cpu");
		return;
	}
	// trace-cmd: "COMM:PID [PRIO] [success=1 ]CPU:NNN"
	const size_t at = body.rfind(" CPU:");
	if (at == sv::npos)
		throw BadLine{base, "expected 'COMM:PID [PRIO] CPU:NNN'"};
	e.target_cpu = to_cpu(body.substr(at + 5), base + at + 5, "CPU");
	sv task = body.substr(0, at);
	if (const size_t s = task.rfind(" success="); s != sv::npos && task.find(']', s) == sv::npos)
		task = task.substr(0, s);
	plugin_task(task, base, e.comm, e.pid, e.prio, "");
}

void parse_migrate(sv body, size_t base, Event& e)
{
	const Fields f = tp_fields(body, base, {"comm", "pid", "prio", "orig_cpu", "dest_cpu"});
	e.comm = comm_of(f.v[0], f.col[0], "comm");
	e.pid = to_pid(f.v[1], f.col[1], "pid");
	e.prio = static_cast<int>(to_int(f.v[2], f.col[2], "prio"));
	e.orig_cpu = to_cpu(f.v[3], f.col[3], "orig_cpu");
	e.dest_cpu = to_cpu(f.v[4], f.col[4], "dest_cpu");
}

void parse_fork(sv body, size_t base, Event& e)
{
	const Fields f = tp_fields(body, base, {"comm", "pid", "child_comm", "child_pid"});
	e.comm = comm_of(f.v[0], f.col[0], "comm");
	e.pid = to_pid(f.v[1], f.col[1], "pid");
	e.child_comm = comm_of(f.v[2], f.col[2], "child_comm");
	e.child_pid = to_pid(f.v[3], f.col[3], "child_pid");
}

void parse_exit(sv body, size_t base, Event& e)
{
	const Fields f = tp_fields(body, base, {"comm", "pid", "prio", "group_dead"}, {"group_dead"});
	e.comm = comm_of(f.v[0], f.col[0], "comm");
	e.pid = to_pid(f.v[1], f.col[1], "pid");
	e.prio = static_cast<int>(to_int(f.v[2], f.col[2], "prio"));
}

// "SEC.FRAC" (1 to 9 fraction digits) in ns.
u64 parse_ts(sv s, size_t col, unsigned& digits)
{
	const size_t dot = s.find('.');
	if (dot == sv::npos || dot == 0 || dot + 1 == s.size() || s.size() - dot - 1 > 9)
		throw BadLine{col, "timestamp is not SECONDS.FRACTION: '" + std::string(s) + "'"};
	const long long sec = to_int(s.substr(0, dot), col, "timestamp");
	const sv frac = s.substr(dot + 1);
	const long long f = to_int(frac, col + dot + 1, "timestamp");
	if (sec < 0 || f < 0 || static_cast<u64>(sec) >= MAX_TIME_NS / NSEC_PER_SEC)
		throw BadLine{col, "timestamp out of range: '" + std::string(s) + "'"};
	digits = static_cast<unsigned>(frac.size());
	u64 ns = static_cast<u64>(f);
	for (size_t i = frac.size(); i < 9; i++)
		ns *= 10;
	return static_cast<u64>(sec) * NSEC_PER_SEC + ns;
}

// "CPU:N [LOST M EVENTS]" (ftrace, trace-cmd) as a Lost event.
bool parse_lost(sv line, Event& e)
{
	if (line.substr(0, 4) != "CPU:")
		return false;
	const size_t sp = line.find(' ');
	if (sp == sv::npos)
		return false;
	const sv rest = line.substr(sp + 1);
	if (rest.size() < 14 || rest.substr(0, 6) != "[LOST " || rest.substr(rest.size() - 8) != " EVENTS]")
		return false;
	e = Event{};
	e.kind = EventKind::Lost;
	e.cpu = to_cpu(line.substr(4, sp - 4), 4, "CPU");
	e.lost = static_cast<u64>(to_int(rest.substr(6, rest.size() - 14), sp + 7, "lost events"));
	return true;
}

}  // namespace

const char* format_name(Format f)
{
	switch (f) {
	case Format::Ftrace: return "ftrace";
	case Format::TraceCmd: return "trace-cmd";
	case Format::Perf: return "perf";
	case Format::Unknown: break;
	}
	return "unknown";
}

Reader::Reader(std::istream& in, std::string file, ReadOptions o) : in_(in), file_(std::move(file)), opt_(o) {}

void Reader::fail(size_t col, const std::string& what) const
{
	throw InputError(file_ + ":" + std::to_string(line_no_) + ":" + std::to_string(col + 1) + ": " + what);
}

// A header's CPU count ("#P:N", "cpus=N"): digits to the end of the line,
// 1..MAX_TRACE_CPUS (per-CPU state is made for each), else BadLine at `col`.
static u32 header_cpus(sv digits, size_t col)
{
	u64 n = 0;
	const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), n);
	if (digits.empty() || r.ec != std::errc() || r.ptr != digits.data() + digits.size() || n < 1 ||
	    n > MAX_TRACE_CPUS)
		throw BadLine{col, "the CPU count '" + std::string(digits) + "' is not 1.." + std::to_string(MAX_TRACE_CPUS) +
					   " (NR_CPUS of the largest kernel a distribution builds)"};
	return static_cast<u32>(n);
}

// The header lines of each layout: the ftrace header's entry counts and
// CPU count, trace-cmd's "cpus=N" and "version = N".
static void parse_header(sv line, ReadStats& st)
{
	if (line.substr(0, 10) == "# tracer: ") {
		st.format = Format::Ftrace;
		return;
	}
	static constexpr sv entries = "# entries-in-buffer/entries-written: ";
	if (line.substr(0, entries.size()) == entries) {
		sv rest = line.substr(entries.size());
		const size_t slash = rest.find('/');
		const size_t sp = rest.find(' ');
		const size_t p = rest.find("#P:");
		if (slash == sv::npos || sp == sv::npos || p == sv::npos)
			return;
		u64 a = 0, b = 0;
		std::from_chars(rest.data(), rest.data() + slash, a);
		std::from_chars(rest.data() + slash + 1, rest.data() + sp, b);
		sv cpus = rest.substr(p + 3);
		while (!cpus.empty() && cpus.back() == ' ')
			cpus.remove_suffix(1);
		st.header_cpus = header_cpus(cpus, entries.size() + p + 3);
		st.entries_in_buffer = a;
		st.entries_written = b;
		st.has_entries_header = true;
	}
}

Reader::Line Reader::parse(sv line, Event& e)
{
	// the CPU column " [NNN] " locates the context's parts
	size_t lb = 0;
	for (;;) {
		lb = line.find(" [", lb);
		if (lb == sv::npos)
			throw BadLine{0, "not a trace line (no [CPU] column)"};
		size_t d = lb + 2;
		while (d < line.size() && is_digit(line[d]))
			d++;
		if (d > lb + 2 && d < line.size() && line[d] == ']')
			break;
		lb += 2;
	}
	const size_t rb = line.find(']', lb);
	e.cpu = to_cpu(line.substr(lb + 2, rb - lb - 2), lb + 2, "CPU");
	// the task: "COMM-PID" (ftrace, trace-cmd; a "(TGID)" column may follow)
	// or "COMM PID" (perf script)
	sv task = line.substr(0, lb);
	while (!task.empty() && task.back() == ' ')
		task.remove_suffix(1);
	if (!task.empty() && task.back() == ')') {
		const size_t lp = task.rfind(" (");
		if (lp == sv::npos)
			throw BadLine{0, "unbalanced '(' in the task column"};
		task = task.substr(0, lp);
		while (!task.empty() && task.back() == ' ')
			task.remove_suffix(1);
	}
	size_t pid_at = task.size();
	while (pid_at > 0 && is_digit(task[pid_at - 1]))
		pid_at--;
	if (pid_at == task.size() || pid_at == 0 || (task[pid_at - 1] != '-' && task[pid_at - 1] != ' '))
		throw BadLine{0, "expected COMM-PID or COMM PID before the [CPU] column"};
	const bool perf = task[pid_at - 1] == ' ';
	if (stats_.format == Format::Unknown)
		stats_.format = perf ? Format::Perf : Format::Ftrace;
	e.context_pid = to_pid(task.substr(pid_at), pid_at, "pid");
	{
		sv comm = task.substr(0, pid_at - 1);
		while (!comm.empty() && comm.front() == ' ')
			comm.remove_prefix(1);
		while (!comm.empty() && comm.back() == ' ')
			comm.remove_suffix(1);
		for (size_t i = 0; i < comm.size(); i++)
			if (static_cast<unsigned char>(comm[i]) < 0x20 || comm[i] == 0x7f)
				throw BadLine{i, "the task column's comm holds a control character (byte " +
							 std::to_string(static_cast<unsigned char>(comm[i])) + ")"};
		e.context_comm.assign(comm.substr(0, 16));
	}
	// then optional latency flags ("d..2." or "dNh1."), the timestamp and ':'
	size_t p = rb + 1;
	while (p < line.size() && line[p] == ' ')
		p++;
	size_t tok_end = line.find(' ', p);
	if (tok_end == sv::npos)
		throw BadLine{p, "expected a timestamp"};
	e.irq = '.';
	if (line[tok_end - 1] != ':') {  // the flags column: irqs-off, need-resched, hardirq/softirq, ...
		if (tok_end - p >= 3)
			e.irq = line[p + 2];
		p = tok_end;
		while (p < line.size() && line[p] == ' ')
			p++;
		tok_end = line.find(' ', p);
		if (tok_end == sv::npos || line[tok_end - 1] != ':')
			throw BadLine{p, "expected 'SECONDS.FRACTION:'"};
	}
	unsigned digits = 0;
	e.ts = parse_ts(line.substr(p, tok_end - 1 - p), p, digits);
	if (stats_.timestamp_digits == 0 || digits < stats_.timestamp_digits)
		stats_.timestamp_digits = digits;
	p = tok_end;
	while (p < line.size() && line[p] == ' ')
		p++;
	const size_t colon = line.find(':', p);
	if (colon == sv::npos)
		throw BadLine{p, "expected 'EVENT:'"};
	// "EVENT:" (ftrace, trace-cmd) or "SUBSYSTEM:EVENT:" (perf script)
	sv name = line.substr(p, colon - p);
	size_t body = colon + 1;
	if (body < line.size() && line[body] != ' ') {
		const size_t c2 = line.find(':', body);
		if (c2 == sv::npos)
			throw BadLine{p, "expected 'EVENT:' or 'SUBSYSTEM:EVENT:'"};
		name = name == "sched" ? line.substr(body, c2 - body) : line.substr(p, c2 - p);
		body = c2 + 1;
	}
	for (size_t i = 0; i < name.size(); i++) {
		const char c = name[i];
		if (!(is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || c == '-'))
			throw BadLine{p + i, "not an event name: '" + std::string(name) + "'"};
	}
	if (name.empty())
		throw BadLine{p, "expected 'EVENT:'"};
	while (body < line.size() && line[body] == ' ')
		body++;
	const sv b = line.substr(body);
	if (name == "sched_switch")
		parse_switch(b, body, e);
	else if (name == "sched_waking") {
		e.kind = EventKind::Waking;
		parse_wakeup(b, body, e);
	} else if (name == "sched_wakeup") {
		e.kind = EventKind::Wakeup;
		parse_wakeup(b, body, e);
	} else if (name == "sched_wakeup_new") {
		e.kind = EventKind::WakeupNew;
		parse_wakeup(b, body, e);
	} else if (name == "sched_migrate_task") {
		e.kind = EventKind::Migrate;
		parse_migrate(b, body, e);
	} else if (name == "sched_process_fork") {
		e.kind = EventKind::Fork;
		parse_fork(b, body, e);
	} else if (name == "sched_process_exit") {
		e.kind = EventKind::Exit;
		parse_exit(b, body, e);
	} else {
		std::string key(name);
		if (stats_.skipped.size() >= MAX_TRACE_EVENT_NAMES && !stats_.skipped.count(key))
			key = "(other names)";
		stats_.skipped[key]++;
		return Line::Skip;
	}
	if (stats_.format == Format::Ftrace && e.kind == EventKind::Switch && b.substr(0, 10) != "prev_comm=")
		stats_.format = Format::TraceCmd;
	return Line::Event;
}

// The next line into line_, without its '\n': false at the end. A line
// longer than MAX_TRACE_LINE is read to its end but kept only in part
// (too_long): a file that is one endless line must not fill the memory.
bool Reader::read_line(bool& too_long)
{
	if (buf_.empty())
		buf_.resize(MAX_TRACE_LINE + 2);
	too_long = false;
	in_.getline(buf_.data(), static_cast<std::streamsize>(buf_.size()));
	std::streamsize n = in_.gcount();
	if (n == 0 && in_.fail())
		return false;
	if (in_.fail() && !in_.eof()) {  // no '\n' within the buffer: skip the rest of the line
		in_.clear();
		in_.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
	} else if (!in_.eof()) {
		n--;  // the '\n' was extracted, not stored
	}
	too_long = static_cast<size_t>(n) > MAX_TRACE_LINE;
	line_.assign(buf_.data(), static_cast<size_t>(n));
	return true;
}

bool Reader::next(Event& e)
{
	bool too_long = false;
	while (read_line(too_long)) {
		line_no_++;
		stats_.lines++;
		if (too_long) {
			if (opt_.lenient) {
				stats_.unparsed++;
				continue;
			}
			fail(MAX_TRACE_LINE, "the line is longer than " + std::to_string(MAX_TRACE_LINE) +
						     " bytes, the limit of a trace line (a sched event's is about 200)");
		}
		if (!line_.empty() && line_.back() == '\r')
			line_.pop_back();
		sv line = line_;
		size_t lead = 0;
		while (lead < line.size() && line[lead] == ' ')
			lead++;
		if (lead == line.size())
			continue;
		if (line[0] == '#') {
			static constexpr sv started = "##### CPU ";
			try {
				if (line.substr(0, started.size()) == started) {
					u32 c = 0;
					std::from_chars(line.data() + started.size(), line.data() + line.size(), c);
					if (stats_.buffer_started.size() < MAX_TRACE_CPUS)
						stats_.buffer_started.push_back(c);
				} else {
					parse_header(line, stats_);
				}
			} catch (const BadLine& bad) {
				fail(bad.col, bad.what);
			}
			continue;
		}
		// trace-cmd report's preamble
		if (line.substr(0, 5) == "cpus=") {
			try {
				sv n = line.substr(5);
				while (!n.empty() && n.back() == ' ')
					n.remove_suffix(1);
				stats_.header_cpus = header_cpus(n, 5);
			} catch (const BadLine& bad) {
				fail(bad.col, bad.what);
			}
			stats_.format = Format::TraceCmd;
			continue;
		}
		if (line.substr(0, 7) == "version" && line.find('=') != sv::npos && line.find('[') == sv::npos)
			continue;
		try {
			if (parse_lost(line.substr(lead), e)) {
				e.ts = stats_.last_ts;
				stats_.lost_markers++;
				stats_.lost_events += e.lost;
				stats_.events++;
				return true;
			}
			e.kind = EventKind::Switch;
			e.prev_preempt = false;
			if (parse(line, e) == Line::Skip)
				continue;
		} catch (const BadLine& bad) {
			if (opt_.lenient) {
				stats_.unparsed++;
				continue;
			}
			fail(bad.col, bad.what);
		}
		if (stats_.events && e.ts < stats_.last_ts)
			fail(0, "timestamp goes back in time (" + std::to_string(e.ts) + " ns after " +
					std::to_string(stats_.last_ts) + " ns): the lines are not in the kernel's merged order");
		if (!stats_.events)
			stats_.first_ts = e.ts;
		stats_.last_ts = e.ts;
		if (e.cpu > stats_.max_cpu)
			stats_.max_cpu = e.cpu;
		stats_.events++;
		return true;
	}
	if (in_.bad())
		throw InputError(file_ + ": read error");
	return false;
}

std::vector<Event> read_all(std::istream& in, const std::string& file, ReadStats* stats, ReadOptions o)
{
	Reader r(in, file, o);
	std::vector<Event> out;
	Event e;
	while (r.next(e))
		out.push_back(e);
	if (stats)
		*stats = r.stats();
	return out;
}

}  // namespace eevdf::trace
