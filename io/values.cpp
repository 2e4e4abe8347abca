// SPDX-License-Identifier: GPL-2.0-only
#include "io/values.hpp"
#include "model/cpumask.hpp"

#include <vector>

#include <cctype>
#include <limits>

namespace eevdf::cli {
namespace {

std::string quote(std::string_view s) { return "'" + std::string(s) + "'"; }

}  // namespace

u64 parse_duration(std::string_view text, std::string_view flag)
{
	const std::string bad = std::string(flag) + ": " + quote(text) +
				" is not a duration (use e.g. 3ms, 2.8ms, 750us, 30s or 500ns)";
	size_t i = 0;
	u64 whole = 0;
	bool digits = false;
	while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
		const u64 d = static_cast<u64>(text[i] - '0');
		if (whole > (std::numeric_limits<u64>::max() - d) / 10)
			throw UsageError(bad + ": too large");
		whole = whole * 10 + d;
		digits = true;
		i++;
	}
	std::string_view frac;
	if (i < text.size() && text[i] == '.') {
		const size_t start = ++i;
		while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
			i++;
		frac = text.substr(start, i - start);
		digits = digits || !frac.empty();
	}
	if (!digits)
		throw UsageError(bad);
	const std::string_view unit = text.substr(i);
	// A bare number has no unit everyone agrees on (ns here once, ms in
	// eevdf-probe): only 0 may go without one.
	if (unit.empty()) {
		if (whole == 0 && frac.find_first_not_of('0') == std::string_view::npos)
			return 0;
		const std::string t(text);
		throw UsageError(std::string(flag) + ": " + quote(text) + " has no unit: write " + t + "ns, " + t + "us, " + t +
				 "ms or " + t + "s");
	}
	u64 scale;
	if (unit == "ns")
		scale = 1;
	else if (unit == "us")
		scale = NSEC_PER_USEC;
	else if (unit == "ms")
		scale = NSEC_PER_MSEC;
	else if (unit == "s")
		scale = NSEC_PER_SEC;
	else
		throw UsageError(bad + ": unknown unit " + quote(unit));

	if (whole > std::numeric_limits<u64>::max() / scale)
		throw UsageError(bad + ": too large");
	u64 ns = whole * scale;
	// Checked before the fraction is added: whole * scale can sit just
	// below 2^64, and the fraction would wrap it (18446744073.709551617s).
	if (ns > MAX_TIME_NS)
		throw UsageError(bad + ": too large (the limit is 2^62 ns, 146 years)");
	u64 place = scale;
	for (char c : frac) {
		if (place == 1)
			throw UsageError(bad + ": finer than a nanosecond");
		place /= 10;
		ns += static_cast<u64>(c - '0') * place;
	}
	if (ns > MAX_TIME_NS)
		throw UsageError(bad + ": too large (the limit is 2^62 ns, 146 years)");
	return ns;
}

Features apply_feature_list(Features f, std::string_view list, std::string_view flag)
{
	size_t pos = 0;
	while (pos <= list.size()) {
		size_t comma = list.find(',', pos);
		if (comma == std::string_view::npos)
			comma = list.size();
		std::string_view item = list.substr(pos, comma - pos);
		pos = comma + 1;
		if (item.empty())
			continue;
		bool on = true;
		if (item[0] == '+' || item[0] == '-') {
			on = item[0] == '+';
			item.remove_prefix(1);
		}
		std::string name(item);
		for (char& c : name)
			c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
		auto feat = feature_by_name(name);
		if (!feat && name.rfind("NO_", 0) == 0 && feature_by_name(name.substr(3))) {
			feat = feature_by_name(name.substr(3));  // the kernel's spelling: echo NO_X > features
			on = !on;
		}
		if (!feat) {
			std::string known;
			for (auto n : feature_names)
				known += (known.empty() ? "" : ", ") + std::string(n);
			throw UsageError(std::string(flag) + ": unknown feature " + quote(item) + " (known: " + known + ")");
		}
		f.set(*feat, on);
	}
	return f;
}

// "0-3,6" -> {0,1,2,3,6}, as the kernel's cpulist_parse() reads a list: a
// mask, so a CPU named twice is one CPU (and the list at most MAX_CPUS
// long), and every comma is followed by an item.
std::vector<u32> parse_cpu_list(const std::string& text, const std::string& flag)
{
	const std::string bad = flag + ": '" + text + "' is not a CPU list (e.g. 0, 0-3 or 0,2)";
	std::vector<bool> in(MAX_CPUS);
	size_t i = 0;
	auto number = [&]() -> u32 {
		if (i >= text.size() || text[i] < '0' || text[i] > '9')
			throw UsageError(bad);
		u64 v = 0;
		while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
			v = v * 10 + static_cast<u64>(text[i++] - '0');
			if (v >= MAX_CPUS)
				throw UsageError(flag + ": CPU " + std::to_string(v) + " in '" + text + "' is beyond " +
						 std::to_string(MAX_CPUS - 1));
		}
		return static_cast<u32>(v);
	};
	if (text.empty())
		throw UsageError(flag + ": an empty CPU list");
	for (;;) {
		const u32 a = number();
		u32 b = a;
		if (i < text.size() && text[i] == '-') {
			i++;
			b = number();
			if (b < a)
				throw UsageError(flag + ": range " + std::to_string(a) + "-" + std::to_string(b) + " in '" +
						 text + "' goes backwards");
		}
		for (u32 c = a; c <= b; c++)
			in[c] = true;
		if (i == text.size())
			break;
		if (text[i++] != ',')
			throw UsageError(bad);
	}
	std::vector<u32> cpus;
	for (u32 c = 0; c < MAX_CPUS; c++)
		if (in[c])
			cpus.push_back(c);
	return cpus;
}


}  // namespace eevdf::cli
