// SPDX-License-Identifier: GPL-2.0-only
// The values of an rt-app file as the reader takes them (rtapp_reader.hpp):
// whole numbers, microseconds, loops, nice values, names, policies, the
// global duration in seconds and CPU lists, each refused with its file
// position, field path and reason.
#include <charconv>
#include <string>

#include "io/rtapp_reader.hpp"

namespace eevdf::rtapp {

void Reader::fail_at(int line, int col, const std::string& path, const std::string& msg) const
{
	throw InputError(file_ + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " +
			 (path.empty() ? "" : path + ": ") + msg);
}

void Reader::fail(const Value& v, const std::string& path, const std::string& msg) const
{
	fail_at(v.line, v.column, path, msg);
}

void Reader::fail(const Member& m, const std::string& path, const std::string& msg) const
{
	fail_at(m.line, m.column, path, msg);
}

s64 Reader::integer(const Value& v, const std::string& path, const std::string& expected) const
{
	s64 n = 0;
	bool plain = v.type == Value::Type::Number && v.text.find_first_of(".eE") == std::string::npos;
	if (!plain)
		fail(v, path, "expected " + expected + ", got " + json::describe(v));
	auto [end, ec] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), n);
	if (ec != std::errc() || end != v.text.data() + v.text.size())
		fail(v, path, json::describe(v) + " is out of range; expected " + expected);
	return n;
}

u64 Reader::micros(const Value& v, const std::string& path, const char* expected) const
{
	s64 us = integer(v, path, expected);
	if (us < 0)
		fail(v, path, "expected " + std::string(expected) + ", got " + json::describe(v));
	if (static_cast<u64>(us) > MAX_US)
		fail(v, path, json::describe(v) + " us is too large; the limit is " + std::to_string(MAX_US) +
				      " (2^62 ns, 146 years)");
	return static_cast<u64>(us) * NSEC_PER_USEC;
}

s64 Reader::loop(const Value& v, const std::string& path) const
{
	s64 n = integer(v, path, "-1 (forever) or a count >= 1");
	if (n == -1)
		return LOOP_FOREVER;
	if (n < 1)
		fail(v, path, "expected -1 (forever) or a count >= 1, got " + json::describe(v));
	return n;
}

int Reader::nice(const Value& v, const std::string& path) const
{
	const char* expected = "a nice value from -20 to 19";
	s64 n = integer(v, path, expected);
	if (n < -20 || n > 19)
		fail(v, path, "expected " + std::string(expected) + ", got " + json::describe(v));
	return static_cast<int>(n);
}

const std::string& Reader::name(const Value& v, const std::string& path, bool allow_empty) const
{
	if (!v.is_string() || (!allow_empty && v.text.empty()))
		fail(v, path, "expected a non-empty name (a string), got " + json::describe(v));
	// A resource's name reaches stderr (the deadlock report) and the
	// outputs as the task names do: printable, so no line can be forged.
	for (const char c : v.text)
		if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
			fail(v, path, "the name " + json::quote(v.text) + " has a control character; names must be printable");
	return v.text;
}

Policy Reader::policy(const Value& v, const std::string& path) const
{
	if (v.is_string() && v.text == "SCHED_OTHER")
		return Policy::Normal;
	if (v.is_string() && v.text == "SCHED_BATCH")
		return Policy::Batch;
	if (v.is_string() && v.text == "SCHED_IDLE")
		return Policy::Idle;
	for (const char* p : {"SCHED_FIFO", "SCHED_RR", "SCHED_DEADLINE"})
		if (v.is_string() && v.text == p)
			fail(v, path, v.text + " is not modelled: the model covers the fair class (SCHED_OTHER, SCHED_BATCH, "
					       "SCHED_IDLE) only");
	fail(v, path, "unknown policy " + json::describe(v) + "; accepted: \"SCHED_OTHER\", \"SCHED_BATCH\", \"SCHED_IDLE\"");
}

// Global "duration": whole or decimal seconds; -1 and 0 mean until the tasks end.
u64 Reader::seconds(const Value& v, const std::string& path) const
{
	const char* expected = "seconds >= 0 (such as 2 or 0.5), or -1 to run until the tasks end";
	const std::string& t = v.text;
	if (v.type != Value::Type::Number || t.find_first_of("eE") != std::string::npos)
		fail(v, path, "expected " + std::string(expected) + ", got " + json::describe(v));
	std::size_t dot = t.find('.');
	std::string whole = t.substr(0, dot), frac = dot == std::string::npos ? "" : t.substr(dot + 1);
	bool frac_zero = frac.find_first_not_of('0') == std::string::npos;
	if (whole[0] == '-') {
		if (whole == "-1" && frac_zero)
			return 0;
		if (!(whole == "-0" && frac_zero))
			fail(v, path, "expected " + std::string(expected) + ", got " + json::describe(v));
		return 0;
	}
	if (frac.size() > 9 && frac.find_first_not_of('0', 9) != std::string::npos)
		fail(v, path, json::describe(v) + " is finer than a nanosecond");
	frac.resize(9, '0');
	u64 s = 0;
	auto [end, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), s);
	if (ec != std::errc() || s >= MAX_TIME_NS / NSEC_PER_SEC)
		fail(v, path, json::describe(v) + " s is too long; the limit is 2^62 ns (146 years)");
	return s * NSEC_PER_SEC + std::stoull(frac);
}

// rt-app "cpus": an array of CPU numbers (the affinity mask).
std::vector<u32> Reader::cpu_list(const Value& v, const std::string& path) const
{
	if (v.type != Value::Type::Array || v.items.empty())
		fail(v, path, "expected a non-empty array of CPU numbers, got " + json::describe(v));
	std::vector<u32> cpus;
	for (const Value& e : v.items) {
		const s64 c = integer(e, path, "a CPU number from 0 to 255");
		if (c < 0 || c > 255)
			fail(e, path, "expected a CPU number from 0 to 255, got " + json::describe(e));
		cpus.push_back(static_cast<u32>(c));
	}
	return cpus;
}

}  // namespace eevdf::rtapp
