// SPDX-License-Identifier: GPL-2.0-only
// A claim file read and checked (claims/README.md): every key, setting and
// metric known, every number in range, each mistake an InputError naming
// the file, line, column and field.
#include "claims/claims.hpp"

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "io/input_error.hpp"
#include "io/input_file.hpp"
#include "io/json.hpp"
#include "io/values.hpp"

namespace eevdf::cli {
namespace {

using json::Value;

const std::vector<std::string> setting_keys = {"kernel", "hz", "cpus", "online_cpus", "slice", "custom_slice", "features",
					       "tick_phase", "tick_jitter", "switch_cost", "seed", "duration",
					       "nice", "hogs", "bug", "workload", "schbench", "llc", "topology", "skew_tick", "autogroup",
					       "ipi_latency", "idle_exit_latency", "wakeup_irq_cost", "balance_cost", "preempt",
					       "profile", "seeds"};
const std::vector<std::string> metric_names = {
	"mean_run_ms",   "p50_run_ms",    "p90_run_ms",     "p99_run_ms",    "max_run_ms",
	"context_switches", "involuntary_switches", "wakeup_p50_us", "wakeup_p90_us", "wakeup_p99_us",
	"wakeup_max_us", "cpu_share",     "ticks_per_second", "runs_at_least", "runs_at_least_fraction",
	"schbench_wakeup_p50_us", "schbench_wakeup_p99_us", "schbench_rps", "schbench_delayed_wakeup_fraction",
	"idle_fraction"};

[[noreturn]] void bad(const std::string& file, int line, int col, const std::string& field, const std::string& what)
{
	throw InputError(file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + field + ": " + what);
}

bool one_of(const std::string& s, const std::vector<std::string>& set)
{
	for (const std::string& x : set)
		if (x == s)
			return true;
	return false;
}

std::string join(const std::vector<std::string>& v)
{
	std::string s;
	for (const std::string& x : v)
		s += (s.empty() ? "" : ", ") + x;
	return s;
}

std::string scalar(const std::string& file, const Value& v, const std::string& field)
{
	if (v.type == Value::Type::String || v.type == Value::Type::Number)
		return v.text;
	bad(file, v.line, v.column, field, "expected a string or a number, got " + json::describe(v));
}

std::string string_of(const std::string& file, const Value& v, const std::string& field)
{
	if (!v.is_string())
		bad(file, v.line, v.column, field, "expected a string, got " + json::describe(v));
	return v.text;
}

double number_of(const std::string& file, const Value& v, const std::string& field)
{
	if (v.type != Value::Type::Number)
		bad(file, v.line, v.column, field, "expected a number, got " + json::describe(v));
	const double d = std::strtod(v.text.c_str(), nullptr);
	if (!std::isfinite(d))
		bad(file, v.line, v.column, field, "expected a finite number, got " + v.text);
	return d;
}

// The settings that are integers, and the range each may take: a JSON
// number written as an integer, never a string, a fraction or an exponent,
// so that nothing wraps or rounds on the way to the model.
struct IntRange {
	const char* key;
	long long lo;
	unsigned long long hi;
};
constexpr IntRange int_settings[] = {
	{"hz", 1, 100000}, {"cpus", 1, 256}, {"online_cpus", 1, 256}, {"llc", 1, 256},
	{"seed", 0, ~0ULL}, {"nice", -20, 19}, {"hogs", 1, MAX_HOGS}, {"seeds", 1, MAX_CLAIM_SEEDS},
};

void check_int_setting(const std::string& file, const Value& v, const std::string& field, const IntRange& r)
{
	const std::string range = std::to_string(r.lo) + ".." + std::to_string(r.hi);
	const std::string& t = v.text;
	const size_t digits = t.size() - (t.empty() || t[0] != '-' ? 0 : 1);
	bool ok = v.type == Value::Type::Number && digits > 0 && digits <= 20 &&
		  t.find_first_not_of("0123456789", t.size() - digits) == std::string::npos;
	if (ok && t[0] == '-')
		ok = r.lo < 0 && digits <= 18 && std::stoll(t) >= r.lo;
	else if (ok)
		ok = (digits < 20 || t <= "18446744073709551615") && std::stoull(t) >= static_cast<unsigned long long>(r.lo) &&
		     std::stoull(t) <= r.hi;
	if (!ok)
		bad(file, v.line, v.column, field, "expected an integer in " + range + ", got " + json::describe(v));
}

Settings settings_of(const std::string& file, const Value& v, const std::string& field)
{
	if (!v.is_object())
		bad(file, v.line, v.column, field, "expected an object of settings, got " + json::describe(v));
	Settings s;
	for (const json::Member& m : v.members) {
		if (!one_of(m.key, setting_keys))
			bad(file, m.line, m.column, field + "." + m.key, "unknown setting (known: " + join(setting_keys) + ")");
		for (const IntRange& r : int_settings)
			if (m.key == r.key)
				check_int_setting(file, m.value, field + "." + m.key, r);
		s.emplace_back(m.key, scalar(file, m.value, field + "." + m.key));
	}
	return s;
}

Metric metric_of(const std::string& path, const Value& v, const std::string& field)
{
	if (!v.is_object())
		bad(path, v.line, v.column, field, "expected an object {name, tasks, threshold}");
	Metric mt;
	for (const json::Member& s : v.members) {
		const std::string f = field + "." + s.key;
		if (s.key == "name") {
			mt.name = string_of(path, s.value, f);
			if (!one_of(mt.name, metric_names))
				bad(path, s.value.line, s.value.column, f,
				    "'" + mt.name + "' is not a metric (known: " + join(metric_names) + ")");
		} else if (s.key == "tasks") {
			mt.tasks = string_of(path, s.value, f);
		} else if (s.key == "threshold") {
			try {
				mt.threshold = parse_duration(scalar(path, s.value, f), f);
			} catch (const UsageError& e) {
				bad(path, s.value.line, s.value.column, f, e.what());
			}
		} else {
			bad(path, s.line, s.column, f, "unknown key (known: name, tasks, threshold)");
		}
	}
	if (mt.name.empty())
		bad(path, v.line, v.column, field + ".name", "missing");
	if ((mt.name == "runs_at_least" || mt.name == "runs_at_least_fraction") && !mt.threshold)
		bad(path, v.line, v.column, field + ".threshold", "needed by " + mt.name);
	return mt;
}

Tolerance tolerance_of(const std::string& path, const Value& v, const std::string& field)
{
	if (!v.is_object())
		bad(path, v.line, v.column, field, "expected {\"relative\": 0.1} and/or {\"absolute\": 0.5}");
	Tolerance t;
	for (const json::Member& s : v.members) {
		if (s.key == "relative")
			t.relative = number_of(path, s.value, field + ".relative");
		else if (s.key == "absolute")
			t.absolute = number_of(path, s.value, field + ".absolute");
		else
			bad(path, s.line, s.column, field + "." + s.key, "unknown key (known: relative, absolute)");
	}
	if (t.relative < 0 || t.absolute < 0)
		bad(path, v.line, v.column, field, "must not be negative");
	return t;
}

ClaimRow row_of(const std::string& file, const Value& v, const std::string& field)
{
	if (!v.is_object())
		bad(file, v.line, v.column, field, "expected an object, got " + json::describe(v));
	ClaimRow r;
	bool has_claimed = false;
	for (const json::Member& m : v.members) {
		const std::string f = field + "." + m.key;
		if (m.key == "set")
			r.set = settings_of(file, m.value, f);
		else if (m.key == "over")
			r.over = settings_of(file, m.value, f);
		else if (m.key == "same_as")
			r.same_as = settings_of(file, m.value, f);
		else if (m.key == "claimed") {
			has_claimed = true;
			if (m.value.type != Value::Type::Null)
				r.claimed = number_of(file, m.value, f);
		} else if (m.key == "compare") {
			r.compare = string_of(file, m.value, f);
			if (!one_of(r.compare, {"within", "at_most", "at_least"}))
				bad(file, m.value.line, m.value.column, f, "'" + r.compare + "' is not within, at_most or at_least");
		} else if (m.key == "expect") {
			const std::string e = string_of(file, m.value, f);
			if (e != "agree" && e != "disagree" && e != "straddle")
				bad(file, m.value.line, m.value.column, f, "'" + e + "' is not agree, disagree or straddle");
			r.expect_disagree = e == "disagree";
			r.expect_straddle = e == "straddle";
		} else if (m.key == "why") {
			r.why = string_of(file, m.value, f);
		} else if (m.key == "label") {
			r.label = string_of(file, m.value, f);
		} else if (m.key == "metric") {
			r.metric = metric_of(file, m.value, f);
		} else if (m.key == "tolerance") {
			r.tolerance = tolerance_of(file, m.value, f);
		} else {
			bad(file, m.line, m.column, f,
			    "unknown key (known: set, over, same_as, claimed, compare, expect, why, label, metric, tolerance)");
		}
	}
	if (!has_claimed && r.same_as.empty())
		bad(file, v.line, v.column, field, "a row needs \"claimed\" (a number, or null to only report) or \"same_as\"");
	if (r.expect_disagree && r.why.empty())
		bad(file, v.line, v.column, field, "a row expected to disagree must say why (\"why\")");
	if (r.expect_straddle && r.why.empty())
		bad(file, v.line, v.column, field, "a row expected to straddle must say why (\"why\")");
	if (r.label.empty()) {
		r.label = label_of(r.set);
		if (!r.over.empty())
			r.label += " / " + label_of(r.over);
		if (!r.same_as.empty())
			r.label += " vs " + label_of(r.same_as);
	}
	return r;
}

// A key given twice in one object would be merged silently (the last
// value winning, or both applied): refused wherever it is, naming both
// places. Only "bug" repeats, as --bug does: each switches one bug in.
void no_repeated_keys(const std::string& file, const Value& v, const std::string& field)
{
	if (v.is_object()) {
		std::map<std::string, const json::Member*> seen;
		for (const json::Member& m : v.members) {
			const std::string f = field.empty() ? m.key : field + "." + m.key;
			if (auto [it, fresh] = seen.emplace(m.key, &m); !fresh && m.key != "bug")
				bad(file, m.line, m.column, f,
				    "given twice in one object (first at line " + std::to_string(it->second->line) +
					    ", column " + std::to_string(it->second->column) + "); give each key once");
			no_repeated_keys(file, m.value, f);
		}
	} else if (v.type == Value::Type::Array) {
		for (size_t i = 0; i < v.items.size(); i++)
			no_repeated_keys(file, v.items[i], field + "[" + std::to_string(i) + "]");
	}
}

}  // namespace

std::string label_of(const Settings& s)
{
	std::string l;
	for (const auto& [k, v] : s)
		l += (l.empty() ? "" : " ") + k + "=" + v;
	return l;
}

Claim load_claim(const std::string& path) { return parse_claim(read_input_file(path, "claim file"), path); }

Claim parse_claim(std::string_view text, const std::string& path)
{
	const Value doc = json::parse(text, path);
	if (!doc.is_object())
		bad(path, doc.line, doc.column, "(top level)", "a claim is a JSON object");
	no_repeated_keys(path, doc, "");
	Claim c;
	c.file = path;
	bool has_metric = false, has_rows = false;
	for (const json::Member& m : doc.members) {
		const Value& v = m.value;
		if (m.key == "claim") {
			c.title = string_of(path, v, "claim");
		} else if (m.key == "source") {
			if (!v.is_object())
				bad(path, v.line, v.column, "source", "expected an object {commit, lkml, quote}");
			for (const json::Member& s : v.members) {
				if (s.key == "quote")
					c.quote = string_of(path, s.value, "source.quote");
				else if (s.key == "commit" || s.key == "lkml" || s.key == "url" || s.key == "seed")
					c.source += (c.source.empty() ? "" : ", ") + s.key + " " + string_of(path, s.value, "source." + s.key);
				else
					bad(path, s.line, s.column, "source." + s.key, "unknown key (known: commit, lkml, url, seed, quote)");
			}
		} else if (m.key == "out_of_scope") {
			if (v.type != Value::Type::Array)
				bad(path, v.line, v.column, "out_of_scope", "expected an array of strings");
			for (const Value& x : v.items)
				c.out_of_scope.push_back(string_of(path, x, "out_of_scope[]"));
		} else if (m.key == "config") {
			c.config = settings_of(path, v, "config");
		} else if (m.key == "workload") {
			c.workload_file = string_of(path, v, "workload");
		} else if (m.key == "metric") {
			has_metric = true;
			c.metric = metric_of(path, v, "metric");
		} else if (m.key == "tolerance") {
			c.tolerance = tolerance_of(path, v, "tolerance");
		} else if (m.key == "rows") {
			has_rows = true;
			if (v.type != Value::Type::Array || v.items.empty())
				bad(path, v.line, v.column, "rows", "expected a non-empty array of rows");
			for (size_t i = 0; i < v.items.size(); i++)
				c.rows.push_back(row_of(path, v.items[i], "rows[" + std::to_string(i) + "]"));
		} else {
			bad(path, m.line, m.column, m.key,
			    "unknown key (known: claim, source, out_of_scope, config, workload, metric, tolerance, rows)");
		}
	}
	if (c.title.empty())
		bad(path, doc.line, doc.column, "claim", "missing: a one-line statement of the claim");
	if (!has_metric)
		bad(path, doc.line, doc.column, "metric", "missing");
	if (!has_rows)
		bad(path, doc.line, doc.column, "rows", "missing");
	return c;
}

}  // namespace eevdf::cli
