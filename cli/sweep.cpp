// SPDX-License-Identifier: GPL-2.0-only
#include "cli/sweep.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <system_error>
#include <thread>

#include "cli/activity.hpp"
#include "cli/ensemble.hpp"
#include "cli/write_file.hpp"
#include "io/profile.hpp"
#include "io/values.hpp"
#include "model/check.hpp"
#include "model/metrics.hpp"
#include "model/simulation.hpp"
#include "report/plots.hpp"
#include "report/report.hpp"
#include "report/run_budget.hpp"

namespace eevdf::cli {
namespace {

enum class Type { Duration, Integer, Word };

Type key_type(const std::string& key)
{
	static const std::set<std::string> durations = {"slice", "tick-phase", "tick-jitter", "switch-cost", "custom-slice",
							"duration"};
	static const std::set<std::string> integers = {"hz", "cpus", "seed", "hogs", "nice"};
	static const std::set<std::string> words = {"kernel", "features"};
	if (durations.count(key))
		return Type::Duration;
	if (integers.count(key))
		return Type::Integer;
	if (words.count(key))
		return Type::Word;
	throw UsageError("--sweep: unknown key '" + key +
			 "' (known: hz, slice, kernel, features, cpus, seed, tick-phase, tick-jitter, switch-cost, hogs, "
			 "nice, custom-slice, duration)");
}

std::string duration_str(u64 ns)
{
	if (ns && ns % NSEC_PER_SEC == 0)
		return std::to_string(ns / NSEC_PER_SEC) + "s";
	if (ns && ns % NSEC_PER_MSEC == 0)
		return std::to_string(ns / NSEC_PER_MSEC) + "ms";
	if (ns && ns % NSEC_PER_USEC == 0)
		return std::to_string(ns / NSEC_PER_USEC) + "us";
	return std::to_string(ns) + "ns";
}

s64 integer(const std::string& text, const std::string& spec)
{
	size_t used = 0;
	long long v = 0;
	try {
		v = std::stoll(text, &used);
	} catch (const std::exception&) {
		used = 0;
	}
	if (used != text.size() || text.empty())
		throw UsageError("--sweep " + spec + ": '" + text + "' is not an integer");
	return v;
}

constexpr size_t MAX_VALUES = MAX_SWEEP_RUNS;  // per key, and configurations in all

// One item of a value list: a value or a range.
void expand_item(const std::string& item, Type type, const std::string& spec, std::vector<std::string>& out)
{
	const size_t dots = item.find("..");
	if (dots == std::string::npos || type == Type::Word) {
		if (item.empty())
			throw UsageError("--sweep " + spec + ": an empty value");
		if (type == Type::Integer)
			integer(item, spec);
		else if (type == Type::Duration)
			parse_duration(item, "--sweep " + spec);
		out.push_back(item);
		return;
	}
	const std::string a = item.substr(0, dots), rest = item.substr(dots + 2);
	const size_t colon = rest.find(':');
	const std::string b = rest.substr(0, colon), step = colon == std::string::npos ? "" : rest.substr(colon + 1);
	if (type == Type::Duration) {
		const u64 lo = parse_duration(a, "--sweep " + spec), hi = parse_duration(b, "--sweep " + spec);
		const u64 st = step.empty() ? 0 : parse_duration(step, "--sweep " + spec);
		if (lo > hi || (step.empty() && lo == 0) || (!step.empty() && st == 0))
			throw UsageError("--sweep " + spec + ": range '" + item +
					 "' must go up from a positive start (A..B doubles, A..B:STEP adds STEP > 0)");
		// The next value only while it stays <= hi: hi - v cannot wrap, v + inc then cannot either.
		for (u64 v = lo;;) {
			out.push_back(duration_str(v));
			const u64 inc = step.empty() ? v : st;
			if (out.size() > MAX_VALUES || inc > hi - v)
				break;
			v += inc;
		}
	} else {
		const s64 lo = integer(a, spec), hi = integer(b, spec), st = step.empty() ? 0 : integer(step, spec);
		if (lo > hi || (step.empty() && lo <= 0) || (!step.empty() && st <= 0))
			throw UsageError("--sweep " + spec + ": range '" + item +
					 "' must go up from a positive start (A..B doubles, A..B:STEP adds STEP > 0)");
		// As above, in u64: hi - v of two s64 with v <= hi always fits.
		for (s64 v = lo;;) {
			out.push_back(std::to_string(v));
			const u64 inc = static_cast<u64>(step.empty() ? v : st);
			if (out.size() > MAX_VALUES || inc > static_cast<u64>(hi) - static_cast<u64>(v))
				break;
			v = static_cast<s64>(static_cast<u64>(v) + inc);
		}
	}
	if (out.size() > MAX_VALUES)
		throw UsageError("--sweep " + spec + ": more than " + std::to_string(MAX_VALUES) + " values");
}


SweepRow run_one(ModelOptions mo, SimOptions so, const std::vector<std::pair<std::string, std::string>>& settings)
{
	SweepRow row;
	row.settings = settings;
	try {
		for (const auto& [k, v] : settings)
			apply_setting(mo, so, k, v);
		const Config cfg = build_config(mo);
		Simulation sim(cfg, build_workload(so));
		MetricsCollector m;
		InvariantChecker checker;
		sim.add_observer(&m);
		if (so.check)
			sim.add_observer(&checker);
		try {
			run_bounded(sim);
		} catch (const InvariantViolation& v) {
			row.violation = "invariant '" + v.failure.invariant + "' violated at t=" + std::to_string(v.failure.t) +
					" ns; replay with eevdf sim ... " + command_line_flags(cfg) + " --check";
			return row;
		}
		m.finish(sim);
		row.events_checked = checker.events_checked();
		if (sim.cfs_rq().pick_failures)
			row.violation = std::to_string(sim.cfs_rq().pick_failures) + " picks found no eligible entity";
		row.tasks = m.tasks.size();
		row.total = total_metrics(m);
		if (m.tasks.size() <= MAX_ENSEMBLE_TASKS)  // the shares an ensemble lists
			for (const TaskMetrics& t : m.tasks)
				row.task_cpu_ns.push_back(t.cpu_ns);
		row.duration_ns = sim.now();
		if (so.json)
			row.json = format_json(Report{sim, m});
	} catch (const std::exception& e) {
		row.error = e.what();
	}
	return row;
}

void progress(size_t done, size_t total)
{
	const int width = 30;
	const int filled = static_cast<int>(done * width / (total ? total : 1));
	std::fprintf(stderr, "\r[%s%s] %zu/%zu configurations", std::string(static_cast<size_t>(filled), '#').c_str(),
		     std::string(static_cast<size_t>(width - filled), ' ').c_str(), done, total);
	if (done == total)
		std::fprintf(stderr, "\n");
	std::fflush(stderr);
}

}  // namespace

SweepAxis parse_sweep(const std::string& spec)
{
	const size_t eq = spec.find('=');
	if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
		throw UsageError("--sweep: '" + spec + "' is not KEY=VALUES (e.g. hz=100,250,1000 or slice=1ms..32ms)");
	SweepAxis axis{spec.substr(0, eq), {}};
	const Type type = key_type(axis.key);
	const char sep = axis.key == "features" ? ';' : ',';
	const std::string list = spec.substr(eq + 1);
	size_t pos = 0;
	while (pos <= list.size()) {
		size_t end = list.find(sep, pos);
		if (end == std::string::npos)
			end = list.size();
		expand_item(list.substr(pos, end - pos), type, spec, axis.values);
		if (axis.values.size() > MAX_VALUES)
			throw UsageError("--sweep " + spec + ": more than " + std::to_string(MAX_VALUES) + " values");
		pos = end + 1;
	}
	return axis;
}

std::vector<std::vector<std::pair<std::string, std::string>>> sweep_product(const std::vector<SweepAxis>& axes)
{
	// The count first: the product of two 10000-value axes is 10^8
	// configurations, which must be refused before one is built.
	size_t count = 1;
	for (const SweepAxis& a : axes)
		if ((count *= a.values.size()) > MAX_VALUES)
			throw UsageError("--sweep: more than " + std::to_string(MAX_VALUES) + " configurations");
	std::vector<std::vector<std::pair<std::string, std::string>>> out{{}};
	out.reserve(count);
	for (const SweepAxis& a : axes) {
		std::vector<std::vector<std::pair<std::string, std::string>>> next;
		for (const auto& prefix : out)
			for (const std::string& v : a.values) {
				next.push_back(prefix);
				next.back().emplace_back(a.key, v);
			}
		out = std::move(next);
		if (out.size() > MAX_VALUES)
			throw UsageError("--sweep: more than " + std::to_string(MAX_VALUES) + " configurations");
	}
	return out;
}

void apply_setting(ModelOptions& mo, SimOptions& so, const std::string& key, const std::string& value)
{
	const std::string spec = key + "=" + value;
	if (key == "hz") {
		const s64 v = integer(value, spec);
		if (v < 1 || v > 100000)
			throw UsageError("--sweep " + spec + ": HZ outside 1..100000");
		mo.hz = static_cast<u32>(v);
	} else if (key == "cpus") {
		const s64 v = integer(value, spec);
		if (v < 1 || v > 1 << 20)
			throw UsageError("--sweep " + spec + ": cpus outside 1..1048576");
		mo.cpus = static_cast<u32>(v);
	} else if (key == "seed") {
		const s64 v = integer(value, spec);
		if (v < 0)
			throw UsageError("--sweep " + spec + ": seed below 0");
		mo.seed = static_cast<u64>(v);
	} else if (key == "hogs") {
		const s64 v = integer(value, spec);
		if (v < 1 || v > MAX_HOGS)
			throw UsageError("--sweep " + spec + ": hogs outside 1.." + std::to_string(MAX_HOGS));
		so.hogs = static_cast<int>(v);
	} else if (key == "nice") {
		const s64 v = integer(value, spec);
		if (v < -20 || v > 19)
			throw UsageError("--sweep " + spec + ": nice outside -20..19");
		so.nice = static_cast<int>(v);
	} else if (key == "slice") {
		mo.slice = value;
	} else if (key == "kernel") {
		mo.kernel = value;
	} else if (key == "features") {
		mo.features = mo.features.empty() ? value : mo.features + "," + value;
	} else if (key == "tick-phase") {
		mo.tick_phase = value;
	} else if (key == "tick-jitter") {
		mo.tick_jitter = value;
	} else if (key == "switch-cost") {
		mo.switch_cost = value;
	} else if (key == "custom-slice") {
		so.custom_slice = value;
	} else if (key == "duration") {
		so.duration = value;
	} else {
		key_type(key);  // throws
	}
}

unsigned run_parallel(size_t n, unsigned jobs, const std::function<void(size_t)>& work)
{
	if (jobs > MAX_JOBS)
		throw UsageError("--jobs: " + std::to_string(jobs) + " is outside 0.." + std::to_string(MAX_JOBS) +
				 " (0: every core)");
	if (jobs == 0)
		jobs = std::max(1u, std::thread::hardware_concurrency());
	jobs = static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(jobs, n)));
	std::vector<std::exception_ptr> failed(n);
	std::atomic<size_t> next{0};
	auto worker = [&] {
		for (size_t i; (i = next.fetch_add(1)) < n;) {
			try {
				work(i);
			} catch (...) {
				failed[i] = std::current_exception();
			}
		}
	};
	// A thread that cannot be made (a process or memory limit) leaves the
	// work to those that could, or to this one.
	std::vector<std::thread> pool;
	for (unsigned j = 0; j < jobs; j++) {
		try {
			pool.emplace_back(worker);
		} catch (const std::system_error&) {
			break;
		}
	}
	if (pool.empty())
		worker();
	for (std::thread& t : pool)
		t.join();
	for (const std::exception_ptr& e : failed)
		if (e)
			std::rethrow_exception(e);
	return jobs;
}

Sweep run_sweep(const ModelOptions& mo, const SimOptions& so, const std::vector<std::string>& specs, unsigned jobs)
{
	Sweep sw;
	std::set<std::string> keys;
	for (const std::string& s : specs) {
		sw.axes.push_back(parse_sweep(s));
		if (!keys.insert(sw.axes.back().key).second)
			throw UsageError("--sweep: key '" + sw.axes.back().key +
					 "' given twice; list all its values in one --sweep");
	}
	const auto configs = sweep_product(sw.axes);
	set_activity("running the sweep's configurations");
	std::vector<SweepRow>& rows = sw.rows;
	rows.resize(configs.size());
	size_t done = 0;
	std::mutex mu;
	const bool tty = isatty(STDERR_FILENO);
	if (tty)
		progress(0, configs.size());
	sw.jobs = run_parallel(configs.size(), jobs, [&](size_t i) {
		rows[i] = run_one(mo, so, configs[i]);
		std::lock_guard<std::mutex> lock(mu);
		if (tty)
			progress(++done, configs.size());
	});

	for (const SweepRow& r : rows)
		if (!r.error.empty()) {
			std::string where;
			for (const auto& [k, v] : r.settings)
				where += (where.empty() ? "" : " ") + k + "=" + v;
			throw UsageError("sweep configuration " + where + ": " + r.error);
		}
	for (const SweepRow& r : rows)
		if (!r.violation.empty()) {
			std::cerr << "eevdf: " << r.violation << "\n";
			sw.status = 1;
		}
	return sw;
}

int cmd_sweep(const ModelOptions& mo, const SimOptions& so, const std::vector<std::string>& specs, unsigned jobs)
{
	for (const auto& [flag, v] : {std::pair{"--trace", so.trace}, {"--timehist", so.timehist}, {"--latency", so.latency},
				      {"--csv", so.csv}, {"--chrome", so.chrome}, {"--svg-lag", so.svg_lag}})
		if (!v.empty())
			throw UsageError(std::string(flag) + " writes one schedule; it cannot be combined with --sweep "
							     "(run 'eevdf sim' once for the configuration you want to see)");
	if (so.want_schbench)
		throw UsageError("--schbench cannot be combined with --sweep; the sweep table has the wakeup p99");
	const Sweep sw = run_sweep(mo, so, specs, jobs);
	const std::vector<SweepAxis>& axes = sw.axes;
	const std::vector<SweepRow>& rows = sw.rows;
	int status = sw.status;
	jobs = sw.jobs;

	if (so.check && status == 0) {
		u64 events = 0;
		for (const SweepRow& r : rows)
			events += r.events_checked;
		std::cerr << "eevdf: --check: " << events << " events checked in " << rows.size()
			  << " configurations against " << INVARIANT_NAMES.size() << " invariants (model/check.hpp): 0 violations\n";
	}
	if (so.json) {
		nlohmann::ordered_json arr = nlohmann::ordered_json::array();
		for (const SweepRow& r : rows) {
			nlohmann::ordered_json doc;
			nlohmann::ordered_json sweep = nlohmann::ordered_json::object();
			for (const auto& [k, v] : r.settings)
				sweep[k] = v;
			doc["sweep"] = sweep;
			if (!r.json.empty()) {
				const nlohmann::ordered_json run = nlohmann::ordered_json::parse(r.json);
				for (auto it = run.begin(); it != run.end(); ++it)
					doc[it.key()] = *it;
			}
			arr.push_back(doc);
		}
		std::cout << arr.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
		return status;
	}
	std::cout << "# sweep: " << rows.size() << " configurations on " << jobs << " threads\n";
	std::string head, rule;
	for (const SweepAxis& a : axes) {
		char b[64];
		std::snprintf(b, sizeof b, "| %-10s ", a.key.c_str());
		head += b;
		rule += "| ---------- ";
	}
	std::cout << head << "| tasks | runs    | mean_run_ms | p99_run_ms | switches | involuntary | wake_p99_us | max_lag_us |\n"
		  << rule << "| ----- | ------- | ----------- | ---------- | -------- | ----------- | ----------- | ---------- |\n";
	for (const SweepRow& r : rows) {
		char b[256];
		for (const auto& [k, v] : r.settings) {
			std::snprintf(b, sizeof b, "| %-10s ", v.c_str());
			std::cout << b;
		}
		const Distribution d = summarize(r.total.runs);
		const Distribution w = summarize(r.total.wakeup_latency);
		const double mean = d.count ? static_cast<double>(d.sum) / static_cast<double>(d.count) / 1e6 : 0;
		std::snprintf(b, sizeof b, "| %5zu | %7llu | %11.3f | %10.3f | %8llu | %11llu | %11.1f | %10.1f |%s\n", r.tasks,
			      static_cast<unsigned long long>(d.count), mean, static_cast<double>(d.p99) / 1e6,
			      static_cast<unsigned long long>(r.total.switches),
			      static_cast<unsigned long long>(r.total.involuntary_switches), static_cast<double>(w.p99) / 1e3,
			      static_cast<double>(r.total.max_abs_lag_ns) / 1e3, r.violation.empty() ? "" : " VIOLATION");
		std::cout << b;
	}
	return status;
}

int cmd_sweep_ensemble(const ModelOptions& mo, const SimOptions& so, const std::vector<std::string>& specs,
		       unsigned seeds, unsigned jobs)
{
	if (seeds < 1 || seeds > MAX_SEEDS)
		throw UsageError("--seeds: " + std::to_string(seeds) + " is not 1.." + std::to_string(MAX_SEEDS));
	if (mo.seed > ~u64{0} - seeds)
		throw UsageError("--seeds: --seed " + std::to_string(mo.seed) + " + " + std::to_string(seeds) +
				 " seeds passes 2^64");
	for (const auto& [flag, v] : {std::pair{"--trace", so.trace},
				      {"--timehist", so.timehist},
				      {"--latency", so.latency},
				      {"--csv", so.csv},
				      {"--chrome", so.chrome},
				      {"--svg-lag", so.svg_lag}})
		if (!v.empty())
			throw UsageError(std::string(flag) +
					 " writes one schedule; it cannot be combined with --sweep");
	if (so.want_schbench)
		throw UsageError("--schbench cannot be combined with --sweep; the sweep table has the wakeup p99");
	std::vector<SweepAxis> axes;
	for (const std::string& s : specs)
		if ((axes.push_back(parse_sweep(s)), axes.back().key == "seed"))
			throw UsageError("--seeds: the seed is swept (--sweep " + s +
					 "); give --seed S --seeds N for the seeds instead");
	// The product is counted before anything runs: configurations times
	// seeds, each a whole simulation.
	// Each factor is at most MAX_VALUES and the product stops once past
	// MAX_SWEEP_RUNS, so it cannot wrap.
	size_t configs = 1;
	for (const SweepAxis& a : axes)
		if (configs <= MAX_SWEEP_RUNS)
			configs *= a.values.size();
	if (configs > MAX_SWEEP_RUNS || configs * seeds > MAX_SWEEP_RUNS)
		throw UsageError("--seeds " + std::to_string(seeds) + " x " + std::to_string(configs) +
				 " sweep configurations: more than " + std::to_string(MAX_SWEEP_RUNS) +
				 " runs (docs/cli.md, 'Limits'); sweep fewer values or run fewer seeds");
	std::vector<std::string> all = specs;
	all.push_back("seed=" + std::to_string(mo.seed) + ".." + std::to_string(mo.seed + seeds - 1) + ":1");
	SimOptions quiet = so;
	quiet.json = false;
	const Sweep sw = run_sweep(mo, quiet, all, jobs);
	if (so.check && sw.status == 0) {
		u64 events = 0;
		for (const SweepRow& r : sw.rows)
			events += r.events_checked;
		std::cerr << "eevdf: --check: " << events << " events checked in " << sw.rows.size() << " runs against "
			  << INVARIANT_NAMES.size() << " invariants (model/check.hpp): 0 violations\n";
	}
	// The seed axis is the last, so each configuration's seeds are
	// consecutive rows.
	struct Point {
		std::vector<std::pair<std::string, std::string>> settings;
		std::vector<EnsembleMetric> metrics;
	};
	std::vector<Point> points;
	for (size_t i = 0; i < sw.rows.size(); i += seeds) {
		const std::vector<SweepRow> group(sw.rows.begin() + static_cast<std::ptrdiff_t>(i),
						  sw.rows.begin() + static_cast<std::ptrdiff_t>(i + seeds));
		auto settings = group.front().settings;
		settings.pop_back();  // the seed
		points.push_back({settings, ensemble_metrics(group)});
	}
	const std::string profile = find_profile(mo.profile).name;
	if (so.json) {
		nlohmann::ordered_json doc;
		doc["ensemble"] = {
			{"seeds", seeds},
			{"first_seed", mo.seed},
			{"profile", profile},
			{"interval", "2.5th..97.5th percentile of the per-seed values"},
			{"pooled", "percentile of all seeds' samples together; for counts, the mean over seeds"}};
		nlohmann::ordered_json arr = nlohmann::ordered_json::array();
		for (const Point& p : points) {
			nlohmann::ordered_json j, sweep = nlohmann::ordered_json::object(),
						  metrics = nlohmann::ordered_json::object();
			for (const auto& [k, v] : p.settings)
				sweep[k] = v;
			for (const EnsembleMetric& m : p.metrics)
				metrics[m.name] = {
					{"median", m.median}, {"lo", m.lo}, {"hi", m.hi}, {"pooled", m.pooled}};
			j["sweep"] = sweep;
			j["metrics"] = metrics;
			arr.push_back(j);
		}
		doc["points"] = arr;
		std::cout << doc.dump(2) << "\n";
		return sw.status;
	}
	std::printf("# sweep: %zu configurations x %u seeds (%llu..%llu), profile %s, on %u threads\n", points.size(),
		    seeds, static_cast<unsigned long long>(mo.seed),
		    static_cast<unsigned long long>(mo.seed + seeds - 1), profile.c_str(), sw.jobs);
	std::printf("# each cell: the median over the seeds [the 2.5th..97.5th percentile of the per-seed values]\n");
	// A cell is "median [lo..hi]"; each column as wide as its widest cell.
	static const char* const shown[] = {"mean_run_ms", "p99_run_ms", "switches", "wakeup_p99_us", "migrations"};
	std::vector<std::string> names;
	for (const SweepAxis& a : axes)
		names.push_back(a.key);
	names.insert(names.end(), std::begin(shown), std::end(shown));
	std::vector<std::vector<std::string>> cells;
	for (const Point& p : points) {
		std::vector<std::string> row;
		for (const auto& [k, v] : p.settings)
			row.push_back(v);
		for (const char* name : shown)
			for (const EnsembleMetric& m : p.metrics)
				if (m.name == name) {
					char b[128];
					std::snprintf(b, sizeof b, "%.3f [%.3f..%.3f]", m.median, m.lo, m.hi);
					row.push_back(b);
				}
		cells.push_back(row);
	}
	std::vector<size_t> width;
	for (const std::string& n : names)
		width.push_back(std::max<size_t>(n.size(), 10));
	for (const auto& row : cells)
		for (size_t i = 0; i < row.size(); i++)
			width[i] = std::max(width[i], row[i].size());
	auto print_row = [&](const std::vector<std::string>& row) {
		std::string line;
		for (size_t i = 0; i < row.size(); i++)
			line += "| " + row[i] + std::string(width[i] - row[i].size() + 1, ' ');
		std::cout << line << "|\n";
	};
	print_row(names);
	std::vector<std::string> rule;
	for (size_t w : width)
		rule.push_back(std::string(w, '-'));
	print_row(rule);
	for (const auto& row : cells)
		print_row(row);
	return sw.status;
}

namespace {

// The sweep table's columns as numbers (its units), for plot sweep.
struct PlotMetric {
	const char* name;
	double (*of)(const SweepRow&);
};
double mean_run_ms(const SweepRow& r)
{
	const Distribution d = summarize(r.total.runs);
	return d.count ? static_cast<double>(d.sum) / static_cast<double>(d.count) / 1e6 : 0;
}
constexpr PlotMetric PLOT_METRICS[] = {
	{"mean_run_ms", mean_run_ms},
	{"p99_run_ms", [](const SweepRow& r) { return static_cast<double>(summarize(r.total.runs).p99) / 1e6; }},
	{"runs", [](const SweepRow& r) { return static_cast<double>(summarize(r.total.runs).count); }},
	{"switches", [](const SweepRow& r) { return static_cast<double>(r.total.switches); }},
	{"involuntary", [](const SweepRow& r) { return static_cast<double>(r.total.involuntary_switches); }},
	{"wake_p99_us", [](const SweepRow& r) { return static_cast<double>(summarize(r.total.wakeup_latency).p99) / 1e3; }},
	{"max_lag_us", [](const SweepRow& r) { return static_cast<double>(r.total.max_abs_lag_ns) / 1e3; }},
};

const PlotMetric& plot_metric(const std::string& name)
{
	std::string known;
	for (const PlotMetric& m : PLOT_METRICS) {
		if (name == m.name)
			return m;
		known += (known.empty() ? "" : ", ") + std::string(m.name);
	}
	throw UsageError("--metric " + name + ": not a sweep metric (" + known + ")");
}

// A swept value as a number on the x axis: durations in ms, integers as
// they are.
double x_value(const std::string& key, const std::string& v)
{
	if (key_type(key) == Type::Duration)
		return static_cast<double>(parse_duration(v, "--sweep " + key)) / 1e6;
	return static_cast<double>(std::stoll(v));
}

}  // namespace

int cmd_plot_sweep(const ModelOptions& mo, const SimOptions& so, const PlotSweepOptions& po)
{
	if (po.specs.empty())
		throw UsageError("plot sweep: give at least one --sweep KEY=VALUES (the x axis)");
	const PlotMetric& metric = plot_metric(po.metric);
	std::vector<SweepAxis> axes;
	for (const std::string& sp : po.specs)
		axes.push_back(parse_sweep(sp));
	const std::string x = po.x.empty() ? axes.back().key : po.x;
	bool found = false;
	for (const SweepAxis& a : axes)
		found = found || a.key == x;
	if (!found)
		throw UsageError("--x " + x + ": not a swept key (sweep it with --sweep " + x + "=...)");
	if (key_type(x) == Type::Word)
		throw UsageError("--x " + x + ": not a number; plot it as the lines and sweep a number for x");
	const Sweep sw = run_sweep(mo, so, po.specs, po.jobs);
	// One line per combination of the other keys, in the product's order.
	std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>> lines;
	for (const SweepRow& r : sw.rows) {
		std::string label;
		double xv = 0;
		for (const auto& [k, v] : r.settings) {
			if (k == x)
				xv = x_value(k, v);
			else
				label += (label.empty() ? "" : " ") + k + "=" + v;
		}
		if (label.empty())
			label = po.metric;
		auto it = lines.begin();
		while (it != lines.end() && it->first != label)
			++it;
		if (it == lines.end()) {
			lines.push_back({label, {}});
			it = lines.end() - 1;
		}
		it->second.emplace_back(xv, metric.of(r));
	}
	for (auto& [label, pts] : lines)
		std::sort(pts.begin(), pts.end());
	const std::string what = so.workload.empty() ? std::to_string(so.hogs) + " CPU hogs"
						     : std::filesystem::path(so.workload).filename().string();
	const std::string xlabel = x + (key_type(x) == Type::Duration ? " (ms)" : "");
	write_file_atomic(po.output, sweep_figure(lines, po.metric + " against " + x + ", " + what + ", kernel " + mo.kernel,
						    xlabel, po.metric),
			  "--output", so.workload.empty() ? std::vector<std::string>{} : std::vector<std::string>{so.workload});
	return sw.status;
}

}  // namespace eevdf::cli
