// SPDX-License-Identifier: GPL-2.0-only
#include "cli/diff.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <nlohmann/json.hpp>
#include <vector>

#include "io/input_error.hpp"
#include "io/input_file.hpp"
#include "io/json.hpp"
#include "io/values.hpp"
#include "report/version.hpp"

namespace eevdf::cli {
namespace {

using json::Value;

[[noreturn]] void bad(const std::string& file, const Value& v, const std::string& field, const std::string& what)
{
	throw InputError(file + ":" + std::to_string(v.line) + ":" + std::to_string(v.column) + ": " + field + ": " + what);
}

const Value* member(const Value& obj, std::string_view key)
{
	for (const json::Member& m : obj.members)
		if (m.key == key)
			return &m.value;
	return nullptr;
}

const Value& need(const std::string& file, const Value& obj, std::string_view key, const std::string& where)
{
	const Value* v = member(obj, key);
	if (!v)
		bad(file, obj, where, "no \"" + std::string(key) + "\": not an 'eevdf sim --json' document");
	return *v;
}

double number(const std::string& file, const Value& v, const std::string& field)
{
	if (v.type != Value::Type::Number)
		bad(file, v, field, "expected a number, found " + json::describe(v));
	const double d = std::strtod(v.text.c_str(), nullptr);
	if (!std::isfinite(d))
		bad(file, v, field, "expected a finite number, found " + v.text);
	return d;
}

// The metrics compared, as (name, path in a task object); the same for the
// summary. Times are in ns as the JSON has them.
struct MetricPath {
	const char* name;
	const char* key;
	const char* sub;  // nullptr: the key itself
};
constexpr MetricPath METRICS[] = {
	{"cpu_ns", "cpu_ns", nullptr},
	{"runs", "runs", nullptr},
	{"run_mean_ns", "run_ns", "mean"},
	{"run_p50_ns", "run_ns", "p50"},
	{"run_p99_ns", "run_ns", "p99"},
	{"run_max_ns", "run_ns", "max"},
	{"switches", "switches", nullptr},
	{"involuntary_switches", "involuntary_switches", nullptr},
	{"wakeup_p50_ns", "wakeup_latency_ns", "p50"},
	{"wakeup_p99_ns", "wakeup_latency_ns", "p99"},
	{"max_abs_lag_ns", "max_abs_lag_ns", nullptr},
	{"migrations", "migrations", nullptr},
};

// name -> value for the metrics a task (or the summary) has; a metric
// absent from both runs (migrations on one CPU) is left out.
std::map<std::string, double> metrics_of(const std::string& file, const Value& t, const std::string& where)
{
	std::map<std::string, double> out;
	for (const MetricPath& m : METRICS) {
		const Value* v = member(t, m.key);
		if (!v)
			continue;
		if (m.sub) {
			if (!v->is_object())
				bad(file, *v, where + "." + m.key, "expected an object");
			v = member(*v, m.sub);
			if (!v)
				continue;  // e.g. no percentiles without samples
		}
		out[m.name] = number(file, *v, where + "." + m.key + (m.sub ? std::string(".") + m.sub : ""));
	}
	return out;
}

struct Run {
	std::string file;
	Value doc;
	std::vector<std::pair<std::string, std::map<std::string, double>>> tasks;  // in file order
	std::map<std::string, double> summary;
};

Run load(const std::string& file)
{
	Run r{file, json::parse(read_input_file(file, "sim JSON"), file), {}, {}};
	if (!r.doc.is_object())
		bad(file, r.doc, "(top level)", "not an 'eevdf sim --json' document (an object)");
	(void)need(file, r.doc, "config", "(top level)");
	const Value& tasks = need(file, r.doc, "tasks", "(top level)");
	if (tasks.type != Value::Type::Array)
		bad(file, tasks, "tasks", "expected an array");
	// Tasks are matched by name; where a name repeats (`trace stats --json`
	// of threads that share a comm), by "name:pid", as perf names them.
	std::map<std::string, size_t> count;
	for (size_t i = 0; i < tasks.items.size(); i++) {
		const Value& t = tasks.items[i];
		const std::string where = "tasks[" + std::to_string(i) + "]";
		if (!t.is_object())
			bad(file, t, where, "expected an object");
		const Value& name = need(file, t, "name", where);
		if (!name.is_string())
			bad(file, name, where + ".name", "expected a string");
		for (unsigned char c : name.text)
			if (c < 0x20 || c == 0x7f)
				bad(file, name, where + ".name",
				    "holds a control character (byte " + std::to_string(c) +
					    "), which would forge a line of the table");
		count[name.text]++;
	}
	std::set<std::string> names;
	for (size_t i = 0; i < tasks.items.size(); i++) {
		const Value& t = tasks.items[i];
		const std::string where = "tasks[" + std::to_string(i) + "]";
		const Value& name = need(file, t, "name", where);
		std::string key = name.text;
		if (count[key] > 1) {
			const Value* pid = member(t, "pid");
			if (!pid || pid->type != Value::Type::Number ||
			    pid->text.find_first_not_of("0123456789") != std::string::npos)
				bad(file, name, where + ".name",
				    "task '" + name.text + "' appears twice, and without a \"pid\" to tell them apart");
			key += ":" + pid->text;
		}
		if (!names.insert(key).second)
			bad(file, name, where + ".name", "task '" + key + "' appears twice");
		r.tasks.emplace_back(key, metrics_of(file, t, where));
	}
	r.summary = metrics_of(file, need(file, r.doc, "summary", "(top level)"), "summary");
	return r;
}

// Config keys whose values differ (compact JSON of each side; "-" absent),
// objects (features, knobs) key by key, as "features.PREEMPT_SHORT".
void config_diff(const Value* ca, const Value* cb, const std::string& prefix, std::vector<std::array<std::string, 3>>& out)
{
	std::vector<std::string> keys;
	for (const Value* c : {ca, cb})
		if (c)
			for (const json::Member& m : c->members)
				if (std::find(keys.begin(), keys.end(), m.key) == keys.end())
					keys.push_back(m.key);
	for (const std::string& k : keys) {
		const Value* x = ca ? member(*ca, k) : nullptr;
		const Value* y = cb ? member(*cb, k) : nullptr;
		if (x && y && x->is_object() && y->is_object()) {
			config_diff(x, y, prefix + k + ".", out);
			continue;
		}
		const std::string sx = x ? json::describe(*x, 200) : "-", sy = y ? json::describe(*y, 200) : "-";
		if (sx != sy)
			out.push_back({prefix + k, sx, sy});
	}
}

std::vector<std::array<std::string, 3>> config_diff(const Run& a, const Run& b)
{
	std::vector<std::array<std::string, 3>> out;
	config_diff(member(a.doc, "config"), member(b.doc, "config"), "", out);
	return out;
}

struct Line {
	std::string task, metric;
	std::optional<double> a, b;
	bool flagged = false;
};

bool differs(std::optional<double> a, std::optional<double> b, double threshold)
{
	if (!a || !b)
		return a.has_value() != b.has_value();
	return std::fabs(*b - *a) > threshold * std::fabs(*a);
}

void compare(std::vector<Line>& out, const std::string& task, const std::map<std::string, double>* a,
	     const std::map<std::string, double>* b, double threshold)
{
	for (const MetricPath& m : METRICS) {
		std::optional<double> x, y;
		if (a && a->count(m.name))
			x = a->at(m.name);
		if (b && b->count(m.name))
			y = b->at(m.name);
		if (!x && !y)
			continue;
		out.push_back(Line{task, m.name, x, y, differs(x, y, threshold)});
	}
}

std::string num(std::optional<double> v)
{
	if (!v)
		return "-";
	char b[40];  // past 1e30 in exponent form, which always fits
	std::snprintf(b, sizeof b,
		      std::fabs(*v) >= 1e30                          ? "%.6g"
		      : *v == std::floor(*v) && std::fabs(*v) < 1e15 ? "%.0f"
								     : "%.3f",
		      *v);
	return b;
}

std::string delta(std::optional<double> a, std::optional<double> b)
{
	if (!a || !b)
		return "-";
	char s[40];
	const double d = *a != 0 ? 100.0 * (*b - *a) / std::fabs(*a) : *b - *a;
	if (std::fabs(d) >= 1e30)
		std::snprintf(s, sizeof s, *a != 0 ? "%+.6g %%" : "%+.6g", d);
	else
		std::snprintf(s, sizeof s, *a != 0 ? "%+.1f %%" : "%+.0f", d);
	return s;
}

}  // namespace

int cmd_diff(const DiffOptions& o)
{
	if (!(o.threshold >= 0) || !std::isfinite(o.threshold))
		throw UsageError("--threshold: must be a finite number >= 0 (a relative difference, e.g. 0.01 for 1 %)");
	const Run a = load(o.a), b = load(o.b);
	std::vector<Line> lines;
	std::map<std::string, const std::map<std::string, double>*> in_b;
	for (const auto& [n, m] : b.tasks)
		in_b[n] = &m;
	for (const auto& [n, m] : a.tasks) {
		const auto it = in_b.find(n);
		compare(lines, n, &m, it == in_b.end() ? nullptr : it->second, o.threshold);
	}
	std::set<std::string> in_a;
	for (const auto& [n, m] : a.tasks)
		in_a.insert(n);
	for (const auto& [n, m] : b.tasks)
		if (!in_a.count(n))
			compare(lines, n, nullptr, &m, o.threshold);
	compare(lines, "total", &a.summary, &b.summary, o.threshold);
	const auto cfg = config_diff(a, b);
	size_t flagged = 0;
	for (const Line& l : lines)
		flagged += l.flagged;

	if (o.json) {
		nlohmann::ordered_json doc;
		doc["eevdf"] = version_json();
		doc["a"] = o.a;
		doc["b"] = o.b;
		doc["threshold"] = o.threshold;
		nlohmann::ordered_json c = nlohmann::ordered_json::array();
		for (const auto& [k, x, y] : cfg)
			c.push_back({{"key", k}, {"a", x}, {"b", y}});
		doc["config_differs"] = c;
		nlohmann::ordered_json rows = nlohmann::ordered_json::array();
		for (const Line& l : lines)
			rows.push_back({{"task", l.task},
					{"metric", l.metric},
					{"a", l.a ? nlohmann::ordered_json(*l.a) : nlohmann::ordered_json(nullptr)},
					{"b", l.b ? nlohmann::ordered_json(*l.b) : nlohmann::ordered_json(nullptr)},
					{"differs", l.flagged}});
		doc["metrics"] = rows;
		doc["differing"] = flagged;
		std::cout << doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
		return flagged ? 1 : 0;
	}
	std::cout << "# eevdf diff: A = " << o.a << ", B = " << o.b;
	if (o.threshold > 0)
		std::cout << "; flagged (*) beyond " << num(o.threshold * 100) << " %";
	std::cout << "\n";
	if (cfg.empty())
		std::cout << "# config: the same\n";
	for (const auto& [k, x, y] : cfg)
		std::cout << "# config " << k << ": " << x << " | " << y << "\n";
	size_t tw = 5, mw = 6;
	for (const Line& l : lines) {
		tw = std::max(tw, l.task.size());
		mw = std::max(mw, l.metric.size());
	}
	std::vector<char> line(tw + mw + 128);  // a long task name is printed whole
	std::snprintf(line.data(), line.size(), "%-*s %-*s %16s %16s %10s\n", static_cast<int>(tw), "task",
		      static_cast<int>(mw), "metric", "A", "B", "delta");
	std::cout << line.data();
	for (const Line& l : lines) {
		std::snprintf(line.data(), line.size(), "%-*s %-*s %16s %16s %10s%s\n", static_cast<int>(tw),
			      l.task.c_str(), static_cast<int>(mw), l.metric.c_str(), num(l.a).c_str(),
			      num(l.b).c_str(), delta(l.a, l.b).c_str(), l.flagged ? " *" : "");
		std::cout << line.data();
	}
	std::cout << "# " << flagged << " of " << lines.size() << " metrics differ\n";
	return flagged ? 1 : 0;
}

}  // namespace eevdf::cli
