// SPDX-License-Identifier: GPL-2.0-only
#include "claims/claims.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "io/input_error.hpp"
#include "io/input_file.hpp"
#include "io/json.hpp"
#include "io/rtapp.hpp"
#include "io/schbench.hpp"
#include "io/values.hpp"
#include "model/metrics.hpp"
#include "model/simulation.hpp"
#include "report/schbench_meter.hpp"
#include "report/version.hpp"

namespace eevdf::cli {
namespace {

using json::Value;

const std::vector<std::string> setting_keys = {"kernel", "hz", "cpus", "online_cpus", "slice", "custom_slice", "features",
					       "tick_phase", "tick_jitter", "switch_cost", "seed", "duration",
					       "nice", "hogs", "bug", "workload", "schbench", "llc", "skew_tick",
					       "ipi_latency", "idle_exit_latency", "wakeup_irq_cost", "balance_cost", "preempt"};
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
	{"seed", 0, ~0ULL}, {"nice", -20, 19}, {"hogs", 1, MAX_HOGS},
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

std::string label_of(const Settings& s)
{
	std::string l;
	for (const auto& [k, v] : s)
		l += (l.empty() ? "" : " ") + k + "=" + v;
	return l;
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
			if (e != "agree" && e != "disagree")
				bad(file, m.value.line, m.value.column, f, "'" + e + "' is not agree or disagree");
			r.expect_disagree = e == "disagree";
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
	if (r.label.empty()) {
		r.label = label_of(r.set);
		if (!r.over.empty())
			r.label += " / " + label_of(r.over);
		if (!r.same_as.empty())
			r.label += " vs " + label_of(r.same_as);
	}
	return r;
}

// ---------------------------------------------------------------- running

struct RunSpec {
	ModelOptions model;
	Workload workload;
	std::string schbench;  // a schbench command line: the workload is eevdf schbench's
	u64 schbench_warmup_ns = 0;  // its -w: the metrics start after it
};

bool skew_tick_value(const std::string& v)
{
	if (v == "true" || v == "1")
		return true;
	if (v == "false" || v == "0")
		return false;
	throw UsageError("skew_tick: \"" + v + "\" is not true or false");
}

RunSpec spec_for(const Claim& c, const Settings& row, const std::string& where)
{
	Settings all = c.config;
	all.insert(all.end(), row.begin(), row.end());
	RunSpec s;
	int hogs = 4, nice = 0;
	std::string custom_slice, duration, workload_file = c.workload_file;
	try {
		for (const auto& [k, v] : all) {
			if (k == "kernel")
				s.model.kernel = v;
			else if (k == "hz")
				s.model.hz = static_cast<u32>(std::stoul(v));
			else if (k == "cpus")
				s.model.cpus = static_cast<u32>(std::stoul(v));
			else if (k == "online_cpus")
				s.model.online_cpus = static_cast<u32>(std::stoul(v));
			else if (k == "slice")
				s.model.slice = v;
			else if (k == "custom_slice")
				custom_slice = v;
			else if (k == "features")
				s.model.features = v;
			else if (k == "tick_phase")
				s.model.tick_phase = v;
			else if (k == "tick_jitter")
				s.model.tick_jitter = v;
			else if (k == "switch_cost")
				s.model.switch_cost = v;
			else if (k == "seed")
				s.model.seed = std::stoull(v);
			else if (k == "duration")
				duration = v;
			else if (k == "nice")
				nice = std::stoi(v);
			else if (k == "hogs")
				hogs = std::stoi(v);
			else if (k == "bug")
				s.model.bugs.push_back(v);
			else if (k == "workload")
				workload_file = v;
			else if (k == "schbench")
				s.schbench = v;
			else if (k == "llc")
				s.model.llc = static_cast<u32>(std::stoul(v));
			else if (k == "skew_tick")
				s.model.skew_tick = skew_tick_value(v);
			else if (k == "preempt")
				s.model.preempt = v;
			else if (k == "ipi_latency")
				s.model.ipi_latency = v;
			else if (k == "idle_exit_latency")
				s.model.idle_exit_latency = v;
			else if (k == "wakeup_irq_cost")
				s.model.wakeup_irq_cost = v;
			else if (k == "balance_cost")
				s.model.balance_cost = v;
		}
		if (!s.schbench.empty()) {
			if (duration.empty())
				throw UsageError("schbench: the claim must give a duration (schbench's -r)");
			SchbenchOptions o = parse_schbench_command(s.schbench);
			o.runtime_ns = parse_duration(duration, "duration");
			if (o.warmup_ns >= o.runtime_ns)
				throw UsageError("schbench -w: the warm-up must end before the duration");
			s.workload = schbench_workload(o, s.model.cpus);
			s.schbench_warmup_ns = o.warmup_ns;
		} else if (workload_file.empty()) {
			if (hogs < 1 || hogs > MAX_HOGS)
				throw UsageError("hogs: " + std::to_string(hogs) + " is outside 1.." + std::to_string(MAX_HOGS));
			s.workload = hogs_workload(hogs, 0);
			for (TaskSpec& t : s.workload.tasks) {
				t.nice = nice;
				if (!custom_slice.empty())
					t.custom_slice = parse_duration(custom_slice, "custom_slice");
			}
		} else {
			const auto path = std::filesystem::path(c.file).parent_path() / workload_file;
			s.workload = load_rtapp_file(path.string());
		}
		if (!duration.empty())
			s.workload.duration = parse_duration(duration, "duration");
		if (s.workload.duration == 0)
			throw UsageError("duration: the claim must give one");
	} catch (const std::invalid_argument& e) {  // std::stoi and the schbench command line
		throw InputError(c.file + ": " + where + ": bad setting: " + e.what());
	} catch (const std::logic_error& e) {  // std::stoi and friends
		throw InputError(c.file + ": " + where + ": bad setting: " + e.what());
	} catch (const UsageError& e) {
		throw InputError(c.file + ": " + where + ": " + e.what());
	}
	return s;
}

// What one schbench run gives every schbench metric (and idle_fraction).
struct SchbenchFigures {
	double rps = 0, wakeup_p50_us = 0, wakeup_p99_us = 0, delayed_fraction = 0, idle_fraction = 0;
};

double idle_fraction_of(const Simulation& sim)
{
	const u64 all = sim.busy_ns() + sim.idle_ns();
	return all ? static_cast<double>(sim.idle_ns()) / static_cast<double>(all) : 0.0;
}

// The figures after the warm-up (schbench -w), idle time included.
SchbenchFigures run_schbench(const Config& cfg, const Workload& wl, u64 warmup_ns)
{
	Simulation sim(cfg, wl);
	SchbenchMeter meter(sim, warmup_ns);
	sim.add_observer(&meter);
	sim.run_until(warmup_ns);
	const u64 busy0 = sim.busy_ns(), idle0 = sim.idle_ns();
	sim.run();
	SchbenchFigures f;
	f.rps = static_cast<double>(meter.requests) * 1e9 / static_cast<double>(wl.duration - warmup_ns);
	// As schbench reports them: its histogram's 50th and 99th percentiles.
	f.wakeup_p50_us = static_cast<double>(meter.wakeup.value_at(50.0));
	f.wakeup_p99_us = static_cast<double>(meter.wakeup.value_at(99.0));
	f.delayed_fraction =
		meter.wakeups ? static_cast<double>(meter.delayed_wakeups) / static_cast<double>(meter.wakeups) : 0.0;
	const u64 busy = sim.busy_ns() - busy0, idle = sim.idle_ns() - idle0;
	f.idle_fraction = busy + idle ? static_cast<double>(idle) / static_cast<double>(busy + idle) : 0.0;
	return f;
}

double schbench_metric(const SchbenchFigures& f, const std::string& name)
{
	if (name == "schbench_rps")
		return f.rps;
	if (name == "schbench_delayed_wakeup_fraction")
		return f.delayed_fraction;
	if (name == "idle_fraction")
		return f.idle_fraction;
	return name == "schbench_wakeup_p50_us" ? f.wakeup_p50_us : f.wakeup_p99_us;
}

// Schbench runs of one evaluate(), by their settings.
using SchbenchRuns = std::map<std::string, SchbenchFigures>;

double metric_value(const Claim& c, const Metric& mt, const Settings& row, const std::string& where, SchbenchRuns& runs_of)
{
	RunSpec s = spec_for(c, row, where);
	Config cfg;
	try {
		cfg = build_config(s.model);
	} catch (const UsageError& e) {
		throw InputError(c.file + ": " + where + ": " + e.what());
	}
	MetricsCollector m;
	try {
		if (mt.name.rfind("schbench_", 0) == 0 && s.schbench.empty())
			throw InputError(c.file + ": " + where + ": metric " + mt.name + " needs a \"schbench\" setting");
		if (!s.schbench.empty() && (mt.name.rfind("schbench_", 0) == 0 || mt.name == "idle_fraction")) {
			Settings all = c.config;
			all.insert(all.end(), row.begin(), row.end());
			const std::string key = label_of(all);
			auto it = runs_of.find(key);
			if (it == runs_of.end())
				it = runs_of.emplace(key, run_schbench(cfg, s.workload, s.schbench_warmup_ns)).first;
			return schbench_metric(it->second, mt.name);
		}
		Simulation sim(cfg, s.workload);
		if (mt.name == "idle_fraction") {
			sim.run();
			return idle_fraction_of(sim);
		}
		sim.add_observer(&m);
		sim.run();
		m.finish(sim);
		SampleCounts runs, lat;
		u64 switches = 0, invol = 0, cpu = 0, total_cpu = 0;
		for (const TaskMetrics& t : m.tasks) {
			total_cpu += t.cpu_ns;
			if (t.name.rfind(mt.tasks, 0) != 0)
				continue;
			runs.merge(t.runs);
			lat.merge(t.wakeup_latency);
			switches += t.switches;
			invol += t.involuntary_switches;
			cpu += t.cpu_ns;
		}
		const Distribution r = summarize(runs), w = summarize(lat);
		const std::string& n = mt.name;
		if (n == "mean_run_ms")
			return r.count ? static_cast<double>(r.sum) / static_cast<double>(r.count) / 1e6 : 0;
		if (n == "p50_run_ms")
			return static_cast<double>(r.p50) / 1e6;
		if (n == "p90_run_ms")
			return static_cast<double>(r.p90) / 1e6;
		if (n == "p99_run_ms")
			return static_cast<double>(r.p99) / 1e6;
		if (n == "max_run_ms")
			return static_cast<double>(r.max) / 1e6;
		if (n == "context_switches")
			return static_cast<double>(switches);
		if (n == "involuntary_switches")
			return static_cast<double>(invol);
		if (n == "wakeup_p50_us")
			return static_cast<double>(w.p50) / 1e3;
		if (n == "wakeup_p90_us")
			return static_cast<double>(w.p90) / 1e3;
		if (n == "wakeup_p99_us")
			return static_cast<double>(w.p99) / 1e3;
		if (n == "wakeup_max_us")
			return static_cast<double>(w.max) / 1e3;
		if (n == "cpu_share")
			return total_cpu ? static_cast<double>(cpu) / static_cast<double>(total_cpu) : 0;
		if (n == "ticks_per_second")
			return static_cast<double>(sim.ticks()) * 1e9 / static_cast<double>(sim.now());
		u64 above = 0;
		for (const auto& [x, count] : runs.counts())
			if (x >= mt.threshold)
				above += count;
		if (n == "runs_at_least")
			return static_cast<double>(above);
		return runs.empty() ? 0 : static_cast<double>(above) / static_cast<double>(runs.count());
	} catch (const WorkloadError& e) {
		throw InputError(c.file + ": " + where + ": " + e.what());
	}
}

}  // namespace

bool row_agrees(const Claim& c, const ClaimRow& r, double claimed, double model)
{
	const Tolerance& t = r.tolerance ? *r.tolerance : c.tolerance;
	const double tol = std::max(t.absolute, t.relative * std::fabs(claimed));
	if (r.compare == "at_most")
		return model <= claimed + tol;
	if (r.compare == "at_least")
		return model >= claimed - tol;
	return std::fabs(model - claimed) <= tol;
}

namespace {

std::string fmt(double x)
{
	char b[32];
	if (std::fabs(x) >= 1000 || x == std::floor(x))
		std::snprintf(b, sizeof b, "%.0f", x);
	else
		std::snprintf(b, sizeof b, "%.3f", x);
	return b;
}

std::string tolerance_text(const Tolerance& t)
{
	std::string tol;
	if (t.relative) {
		char b[32];
		std::snprintf(b, sizeof b, "%g %%", t.relative * 100);
		tol = b;
	}
	if (t.absolute)
		tol += (tol.empty() ? "" : " or ") + fmt(t.absolute);
	return tol.empty() ? std::string("0 (exact)") : tol;
}

// How a row is judged against its claimed value, in words.
std::string judged_text(const std::string& compare, const Tolerance& t)
{
	const std::string tol = tolerance_text(t);
	const bool exact = t.relative == 0 && t.absolute == 0;
	if (compare == "at_most")
		return exact ? "at most" : "at most +" + tol;
	if (compare == "at_least")
		return exact ? "at least" : "at least -" + tol;
	return exact ? "exact" : "within " + tol;
}

// One format for a row's claimed and model values: whole numbers when both
// are whole or either is 1000 or more, else 3 decimals for both.
std::string fmt_pair(double x, const std::optional<double>& other)
{
	const auto whole = [](double v) { return v == std::floor(v); };
	const bool big = std::fabs(x) >= 1000 || (other && std::fabs(*other) >= 1000);
	const bool ints = whole(x) && (!other || whole(*other));
	char b[40];
	std::snprintf(b, sizeof b, big || ints ? "%.0f" : "%.3f", x);
	return b;
}

std::string delta_of(const std::optional<double>& claimed, double model)
{
	if (!claimed)
		return "-";
	char b[32];
	if (*claimed != 0)
		std::snprintf(b, sizeof b, "%+.1f %%", 100.0 * (model - *claimed) / std::fabs(*claimed));
	else
		std::snprintf(b, sizeof b, "%+.3f", model - *claimed);
	return b;
}

}  // namespace

Claim load_claim(const std::string& path) { return parse_claim(read_input_file(path, "claim file"), path); }

Claim parse_claim(std::string_view text, const std::string& path)
{
	const Value doc = json::parse(text, path);
	if (!doc.is_object())
		bad(path, doc.line, doc.column, "(top level)", "a claim is a JSON object");
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

std::vector<RowResult> evaluate(const Claim& c)
{
	std::vector<RowResult> out;
	SchbenchRuns runs;
	for (size_t i = 0; i < c.rows.size(); i++) {
		const ClaimRow& r = c.rows[i];
		const std::string where = "rows[" + std::to_string(i) + "] (" + r.label + ")";
		const Metric& mt = metric_of_row(c, r);
		RowResult res;
		res.label = r.label;
		res.metric = mt.name + (r.over.empty() ? "" : " ratio");  // metric(set) / metric(over)
		res.compare = r.compare;
		res.tolerance = r.tolerance ? *r.tolerance : c.tolerance;
		res.model = metric_value(c, mt, r.set, where, runs);
		if (!r.over.empty()) {
			const double denom = metric_value(c, mt, r.over, where, runs);
			res.model = denom != 0 ? res.model / denom : 0;
		}
		res.claimed = r.claimed;
		if (!r.same_as.empty())
			res.claimed = metric_value(c, mt, r.same_as, where, runs);
		res.why = r.why;
		res.judged = res.claimed ? judged_text(r.compare, res.tolerance) : "-";
		if (!res.claimed) {
			res.verdict = "info";
		} else {
			const bool ok = row_agrees(c, r, *res.claimed, res.model);
			if (r.expect_disagree) {
				res.verdict = ok ? "AGREES, expected not to" : "finding";
				res.ok = !ok;
			} else {
				res.verdict = ok ? "agrees" : "DISAGREES";
				res.ok = ok;
			}
		}
		out.push_back(res);
	}
	return out;
}

std::string format_claim(const Claim& c, const std::vector<RowResult>& rows)
{
	std::string s = "claim:  " + c.title + "\n";
	if (!c.source.empty())
		s += "source: " + c.source + "\n";
	if (!c.quote.empty())
		s += "quote:  \"" + c.quote + "\"\n";
	s += "model:  " + label_of(c.config) + (c.workload_file.empty() ? "" : " workload=" + c.workload_file) +
	     "; metric " + c.metric.name + (c.metric.tasks.empty() ? "" : " of tasks " + c.metric.tasks + "*");
	s += "; tolerance " + tolerance_text(c.tolerance) + "\n\n";
	size_t w = 3, mw = 6, jw = 6;
	for (const RowResult& r : rows) {
		w = std::max(w, r.label.size());
		mw = std::max(mw, r.metric.size());
		jw = std::max(jw, r.judged.size());
	}
	const int W = static_cast<int>(w), MW = static_cast<int>(mw), JW = static_cast<int>(jw);
	char line[1024];
	std::snprintf(line, sizeof line, "| %-*s | %-*s | %10s | %10s | %9s | %-*s | %-23s |\n", W, "row", MW, "metric",
		      "claimed", "model", "delta", JW, "judged", "verdict");
	s += line;
	s += "| " + std::string(w, '-') + " | " + std::string(mw, '-') + " | ---------- | ---------- | --------- | " +
	     std::string(jw, '-') + " | ----------------------- |\n";
	for (const RowResult& r : rows) {
		const std::string claimed = r.claimed ? fmt_pair(*r.claimed, r.model) : "-";
		const std::string model = fmt_pair(r.model, r.claimed);
		std::snprintf(line, sizeof line, "| %-*s | %-*s | %10s | %10s | %9s | %-*s | %-23s |\n", W, r.label.c_str(), MW,
			      r.metric.c_str(), claimed.c_str(), model.c_str(), delta_of(r.claimed, r.model).c_str(), JW,
			      r.judged.c_str(), r.verdict.c_str());
		s += line;
	}
	bool notes = false;
	for (const RowResult& r : rows)
		if (!r.why.empty() && (r.verdict == "finding" || r.verdict == "info" || !r.ok)) {
			if (!notes)
				s += "\n";
			notes = true;
			s += "- " + r.label + ": " + r.why + "\n";
		}
	for (const std::string& o : c.out_of_scope)
		s += "- out of scope: " + o + "\n";
	return s;
}

std::string claims_json(const std::vector<std::pair<Claim, std::vector<RowResult>>>& all)
{
	nlohmann::ordered_json doc = nlohmann::ordered_json::array();
	for (const auto& [c, rows] : all) {
		nlohmann::ordered_json j;
		j["eevdf"] = version_json();
		j["file"] = c.file;
		j["claim"] = c.title;
		j["source"] = c.source;
		j["metric"] = c.metric.name;
		nlohmann::ordered_json rs = nlohmann::ordered_json::array();
		for (const RowResult& r : rows) {
			nlohmann::ordered_json x;
			x["row"] = r.label;
			x["metric"] = r.metric;
			x["claimed"] = r.claimed ? nlohmann::ordered_json(*r.claimed) : nlohmann::ordered_json(nullptr);
			x["model"] = r.model;
			x["judged"] = {{"compare", r.compare}, {"relative", r.tolerance.relative}, {"absolute", r.tolerance.absolute},
				       {"text", r.judged}};
			x["verdict"] = r.verdict;
			x["ok"] = r.ok;
			if (!r.why.empty())
				x["why"] = r.why;
			rs.push_back(x);
		}
		j["rows"] = rs;
		j["out_of_scope"] = c.out_of_scope;
		doc.push_back(j);
	}
	return doc.dump(2) + "\n";
}

}  // namespace eevdf::cli
