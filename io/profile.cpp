// SPDX-License-Identifier: GPL-2.0-only
// Machine profiles read from and written to JSON (io/profile.hpp).
#include "io/profile.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "io/input_error.hpp"
#include "io/input_file.hpp"
#include "io/json.hpp"
#include "io/values.hpp"

namespace eevdf {

// The profiles shipped in profiles/*.json, embedded at build time
// (io/CMakeLists.txt writes builtin_profiles.cpp): name and JSON text.
struct BuiltinProfile {
	const char* name;
	const char* json;
};
extern const BuiltinProfile builtin_profiles[];
extern const std::size_t builtin_profile_count;

namespace {

using json::Value;

[[noreturn]] void bad(const std::string& file, const Value& at, const std::string& field, const std::string& what)
{
	throw InputError(file + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + field + ": " +
			 what);
}

// A duration string as the command line takes it ("3us"); UsageError's
// message names the field instead of a flag.
u64 duration_of(const std::string& file, const Value& v, const std::string& field)
{
	if (!v.is_string())
		bad(file, v, field, "expected a duration string such as \"3us\", got " + json::describe(v));
	try {
		const u64 ns = cli::parse_duration(v.text, field);
		if (ns > MAX_TIME_NS)
			bad(file, v, field, v.text + " is above 2^62 ns");
		return ns;
	} catch (const cli::UsageError& e) {
		throw InputError(file + ":" + std::to_string(v.line) + ":" + std::to_string(v.column) + ": " + e.what());
	}
}

// A multiplier written as a plain decimal number ("1", "0.93", "1.000125"):
// read digit by digit into ppm, so nothing rounds. At most x1000.
u64 ppm_of(const std::string& file, const Value& v, const std::string& field)
{
	if (v.type != Value::Type::Number)
		bad(file, v, field, "expected a number (a multiplier such as 1.05), got " + json::describe(v));
	const std::string& t = v.text;
	if (t.find_first_of("eE-") != std::string::npos)
		bad(file, v, field, "write the multiplier " + t + " as a plain non-negative decimal");
	u64 whole = 0, frac = 0;
	size_t i = 0, places = 0;
	for (; i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); i++) {
		whole = whole * 10 + static_cast<u64>(t[i] - '0');
		if (whole > 1000)
			bad(file, v, field, "the multiplier " + t + " is above x1000");
	}
	if (i < t.size() && t[i] == '.')
		for (i++; i < t.size(); i++, places++) {
			if (places == 6) {
				if (t[i] != '0')
					bad(file, v, field, t + " has more than 6 decimal places (ppm)");
				continue;
			}
			frac = frac * 10 + static_cast<u64>(t[i] - '0');
		}
	for (; places < 6; places++)
		frac *= 10;
	const u64 ppm = whole * PPM_ONE + frac;
	if (ppm > 1000 * PPM_ONE)
		bad(file, v, field, "the multiplier " + t + " is above x1000");
	return ppm;
}

using Reader = u64 (*)(const std::string&, const Value&, const std::string&);

const Value& member(const std::string& file, const Value& obj, const std::string& key, const std::string& field)
{
	for (const json::Member& m : obj.members)
		if (m.key == key)
			return m.value;
	bad(file, obj, field, "needs \"" + key + "\"");
}

// "3us" | {"fixed": x} | {"uniform": [lo, hi]} | {"normal": {"mean": m, "sd": s}}
// | {"empirical": [q0, ..., qn]}, each value read by `read`.
Dist dist_of(const std::string& file, const Value& v, const std::string& field, Reader read)
{
	if (!v.is_object())
		return Dist::fixed(read(file, v, field));
	if (v.members.size() != 1)
		bad(file, v, field, "expected one of {\"fixed\": ...}, {\"uniform\": [lo, hi]}, "
				    "{\"normal\": {\"mean\": m, \"sd\": s}} or {\"empirical\": [quantiles]}");
	const json::Member& m = v.members[0];
	const std::string f = field + "." + m.key;
	const Value& x = m.value;
	Dist d;
	if (m.key == "fixed") {
		d = Dist::fixed(read(file, x, f));
	} else if (m.key == "uniform") {
		if (x.type != Value::Type::Array || x.items.size() != 2)
			bad(file, x, f, "expected [least, greatest], got " + json::describe(x));
		d = Dist::uniform(read(file, x.items[0], f + "[0]"), read(file, x.items[1], f + "[1]"));
	} else if (m.key == "normal") {
		if (!x.is_object())
			bad(file, x, f, "expected {\"mean\": m, \"sd\": s}, got " + json::describe(x));
		for (const json::Member& k : x.members)
			if (k.key != "mean" && k.key != "sd")
				bad(file, k.value, f + "." + k.key, "unknown key (known: mean, sd)");
		d = Dist::normal(read(file, member(file, x, "mean", f), f + ".mean"),
				 read(file, member(file, x, "sd", f), f + ".sd"));
	} else if (m.key == "empirical") {
		if (x.type != Value::Type::Array || x.items.size() < 2 || x.items.size() > MAX_PROFILE_QUANTILES)
			bad(file, x, f, "expected 2 to " + std::to_string(MAX_PROFILE_QUANTILES) +
						" quantiles at equal steps of probability, got " + json::describe(x));
		std::vector<u64> q;
		for (size_t i = 0; i < x.items.size(); i++)
			q.push_back(read(file, x.items[i], f + "[" + std::to_string(i) + "]"));
		d = Dist::empirical(std::move(q));
	} else {
		bad(file, v, field, "unknown form \"" + m.key + "\" (known: fixed, uniform, normal, empirical)");
	}
	if (const std::string why = d.invalid(); !why.empty())
		bad(file, x, f, why);
	return d;
}

std::string string_of(const std::string& file, const Value& v, const std::string& field)
{
	if (!v.is_string())
		bad(file, v, field, "expected a string, got " + json::describe(v));
	return v.text;
}

u32 int_in(const std::string& file, const Value& v, const std::string& field, u32 least, u32 limit)
{
	const std::string& t = v.text;
	const std::string range = std::to_string(least) + ".." + std::to_string(limit);
	if (v.type != Value::Type::Number || t.empty() || t.size() > 9 ||
	    t.find_first_not_of("0123456789") != std::string::npos)
		bad(file, v, field, "expected an integer " + range + ", got " + json::describe(v));
	const u32 n = static_cast<u32>(std::stoul(t));
	if (n < least || n > limit)
		bad(file, v, field, "expected an integer " + range + ", got " + t);
	return n;
}

u32 small_int_of(const std::string& file, const Value& v, const std::string& field, u32 limit)
{
	return int_in(file, v, field, 1, limit);
}

Profile::Measured measured_of(const std::string& file, const Value& v)
{
	if (!v.is_object())
		bad(file, v, "measured", "expected an object, got " + json::describe(v));
	Profile::Measured m;
	for (const json::Member& k : v.members) {
		const std::string f = "measured." + k.key;
		if (k.key == "kernel")
			m.kernel = string_of(file, k.value, f);
		else if (k.key == "hz")
			m.hz = small_int_of(file, k.value, f, 100000);
		else if (k.key == "cpus")
			m.cpus = small_int_of(file, k.value, f, 1u << 16);
		else if (k.key == "date")
			m.date = string_of(file, k.value, f);
		else if (k.key == "command")
			m.command = string_of(file, k.value, f);
		else if (k.key == "steal_ppm")
			m.steal_ppm = int_in(file, k.value, f, 0, 1000000);
		else
			bad(file, k.value, f, "unknown key (known: kernel, hz, cpus, date, command, steal_ppm)");
	}
	return m;
}

// How a cost's values read: a duration, or a multiplier in ppm.
Reader reader_of(const ProfileCost& c) { return c.multiplier ? ppm_of : duration_of; }

std::string known_keys()
{
	std::string s = "eevdf_profile, name, measured, timer_slack";
	for (const ProfileCost& c : PROFILE_COSTS)
		s += std::string(", ") + c.key;
	return s;
}

}  // namespace

Profile parse_profile(std::string_view text, const std::string& filename)
{
	const Value doc = json::parse(text, filename);
	if (!doc.is_object())
		bad(filename, doc, "profile", "expected a JSON object, got " + json::describe(doc));
	Profile p;
	p.name.clear();
	bool version = false;
	std::vector<std::string> seen;
	for (const json::Member& m : doc.members) {
		for (const std::string& s : seen)
			if (s == m.key)
				bad(filename, m.value, m.key, "given twice");
		seen.push_back(m.key);
		const Value& v = m.value;
		if (m.key == "eevdf_profile") {
			if (v.type != Value::Type::Number || v.text != "1")
				bad(filename, v, m.key, "this eevdf reads profile format 1, got " + json::describe(v));
			version = true;
		} else if (m.key == "name") {
			p.name = string_of(filename, v, m.key);
			if (p.name.empty() || p.name.size() > 64 ||
			    p.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-_") != std::string::npos)
				bad(filename, v, m.key, "expected 1 to 64 of a-z 0-9 . - _, got " + json::describe(v));
		} else if (m.key == "measured") {
			p.measured = measured_of(filename, v);
		} else if (m.key == "timer_slack") {
			p.timer_slack = duration_of(filename, v, m.key);
		} else {
			bool known = false;
			for (const ProfileCost& c : PROFILE_COSTS)
				if (m.key == c.key) {
					p.*(c.dist) = dist_of(filename, v, m.key, reader_of(c));
					known = true;
				}
			if (!known)
				bad(filename, v, m.key, "unknown key (known: " + known_keys() + ")");
		}
	}
	if (!version)
		bad(filename, doc, "eevdf_profile", "missing: a profile file starts with \"eevdf_profile\": 1");
	if (p.name.empty())
		bad(filename, doc, "name", "missing");
	// A profile measured before busy and idle CPUs were told apart has one
	// delivery delay for both.
	if (std::find(seen.begin(), seen.end(), "timer_delay_busy") == seen.end())
		p.timer_delay_busy = p.timer_delay;
	if (const std::string why = p.invalid(); !why.empty())
		bad(filename, doc, "profile", why);
	return p;
}

std::vector<std::string> builtin_profile_names()
{
	std::vector<std::string> names{"exact"};
	for (std::size_t i = 0; i < builtin_profile_count; i++)
		names.emplace_back(builtin_profiles[i].name);
	return names;
}

Profile find_profile(const std::string& name_or_file)
{
	if (name_or_file == "exact")
		return exact_profile();
	for (std::size_t i = 0; i < builtin_profile_count; i++)
		if (name_or_file == builtin_profiles[i].name)
			return parse_profile(builtin_profiles[i].json,
					     std::string("(built-in profile ") + builtin_profiles[i].name + ")");
	if (name_or_file.find('/') == std::string::npos && name_or_file.find(".json") == std::string::npos) {
		std::string known;
		for (const std::string& n : builtin_profile_names())
			known += (known.empty() ? "" : ", ") + n;
		throw InputError("--profile: no built-in profile '" + name_or_file + "' (built in: " + known +
				 "; a profile file is given by a path with a / or ending in .json)");
	}
	return parse_profile(read_input_file(name_or_file, "profile", MAX_PROFILE_BYTES), name_or_file);
}

namespace {

std::string ns_text(u64 ns) { return json::quote(std::to_string(ns) + "ns"); }

std::string ppm_text(u64 ppm)
{
	std::string frac = std::to_string(ppm % PPM_ONE);
	frac.insert(0, 6 - frac.size(), '0');
	while (frac.size() > 1 && frac.back() == '0')
		frac.pop_back();
	return std::to_string(ppm / PPM_ONE) + "." + frac;
}

std::string dist_json(const Dist& d, std::string (*value)(u64))
{
	switch (d.kind) {
	case Dist::Kind::Fixed:
		return value(d.a);
	case Dist::Kind::Uniform:
		return "{\"uniform\": [" + value(d.a) + ", " + value(d.b) + "]}";
	case Dist::Kind::Normal:
		return "{\"normal\": {\"mean\": " + value(d.a) + ", \"sd\": " + value(d.b) + "}}";
	case Dist::Kind::Empirical: {
		std::string s = "{\"empirical\": [";
		for (size_t i = 0; i < d.q.size(); i++)
			s += (i ? ", " : "") + value(d.q[i]);
		return s + "]}";
	}
	}
	return "null";
}

}  // namespace

std::string profile_json(const Profile& p)
{
	std::string s = "{\n  \"eevdf_profile\": 1,\n  \"name\": " + json::quote(p.name) + ",\n";
	const Profile::Measured& m = p.measured;
	if (m != Profile::Measured{}) {
		s += "  \"measured\": {\"kernel\": " + json::quote(m.kernel);
		if (m.hz)
			s += ", \"hz\": " + std::to_string(m.hz);
		if (m.cpus)
			s += ", \"cpus\": " + std::to_string(m.cpus);
		s += ", \"date\": " + json::quote(m.date) + ", \"command\": " + json::quote(m.command);
		if (m.steal_ppm)
			s += ", \"steal_ppm\": " + std::to_string(m.steal_ppm);
		s += "},\n";
	}
	s += "  \"timer_slack\": " + ns_text(p.timer_slack);
	for (const ProfileCost& c : PROFILE_COSTS)
		s += std::string(",\n  \"") + c.key + "\": " + dist_json(p.*(c.dist), c.multiplier ? ppm_text : ns_text);
	return s + "\n}\n";
}

}  // namespace eevdf
