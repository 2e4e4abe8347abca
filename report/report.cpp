// SPDX-License-Identifier: GPL-2.0-only
#include "report/report.hpp"

#include <charconv>
#include <cstdio>
#include <ostream>
#include <algorithm>
#include <sstream>
#include <nlohmann/json.hpp>

#include "model/fair.hpp"
#include "report/deadlock.hpp"
#include "report/fixed_decimal.hpp"
#include "report/json_writer.hpp"
#include "report/metrics_json.hpp"
#include "report/run_record.hpp"
#include "report/version.hpp"

namespace eevdf::cli {
namespace {

using ordered_json = nlohmann::ordered_json;

std::string ms(u64 ns) { char b[32]; std::snprintf(b, sizeof b, "%.3f", static_cast<double>(ns) / 1e6); return b; }
std::string ms(double ns) { char b[32]; std::snprintf(b, sizeof b, "%.3f", ns / 1e6); return b; }

// `text` (a dump with indent 2) as a value nested `by` columns deeper.
std::string indented(const std::string& text, size_t by)
{
	std::string out;
	out.reserve(text.size() + text.size() / 8);
	for (char ch : text) {
		out += ch;
		if (ch == '\n')
			out.append(by, ' ');
	}
	return out;
}

// One member of the top-level object, as ordered_json::dump(2) writes it.
void member(std::ostream& os, const char* key, const ordered_json& value, bool first)
{
	os << (first ? "  \"" : ",\n  \"") << key
	   << "\": " << indented(value.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace), 2);
}

}  // namespace

TaskMetrics total_metrics(const MetricsCollector& m)
{
	TaskMetrics t;
	t.name = "total";
	for (const TaskMetrics& x : m.tasks)
		add_to_total(t, x);
	return t;
}

void write_json(const Report& r, std::ostream& os)
{
	const Config& c = r.sim.config();
	ordered_json cfg;
	cfg["kernel"] = std::string(c.preset->name);
	cfg["kernel_description"] = std::string(c.preset->description);
	cfg["hz"] = c.hz;
	cfg["tick_ns"] = c.tick_ns;
	cfg["base_slice_ns"] = c.base_slice_ns;
	cfg["cpus"] = c.cpus;
	if (c.online_cpus != c.cpus)
		cfg["online_cpus"] = c.online_cpus;
	if (c.cpus > 1) {
		if (c.smt > 1)  // SMT siblings per core; absent: none
			cfg["smt"] = c.smt;
		if (c.cluster)  // CPUs per cluster; absent: none
			cfg["cluster"] = c.cluster;
		cfg["llc_size"] = llc_size_of(c);
		if (several_nodes(c)) {  // CPUs per NUMA node and their distances; absent: one node
			cfg["node_size"] = c.node;
			cfg["numa_distance"] = c.numa_distance;
			cfg["reclaim_distance"] = c.reclaim_distance;
		}
		cfg["skew_tick"] = c.skew_tick;
	}
	if (c.preempt != Preempt::None)
		cfg["preempt"] = std::string(preempt_name(c.preempt));
	if (c.autogroup)
		cfg["autogroup"] = true;
	ordered_json feats = ordered_json::object();
	// The SMP features only where there are several CPUs (they decide
	// nothing on one), so one-CPU documents keep their shape.
	const unsigned nfeat = c.cpus > 1 ? static_cast<unsigned>(feature_names.size()) : FIRST_SMP_FEATURE;
	for (unsigned i = 0; i < nfeat; i++)
		feats[std::string(feature_names[i])] = c.features[static_cast<Feature>(i)];
	cfg["features"] = feats;
	cfg["seed"] = c.seed;
	// Only when some are switched in, so a clean run's document is unchanged.
	ordered_json bugs = ordered_json::array();
	for (unsigned i = 0; i < bug_info.size(); i++)
		if (c.bugs[static_cast<Bug>(i)])
			bugs.push_back(std::string(bug_info[i].name));
	if (!bugs.empty())
		cfg["bugs"] = bugs;
	// Only when the kernel would clamp or ignore a setting (run_record.hpp).
	if (const auto adj = adjustments(c, r.sim.workload()); !adj.empty())
		cfg["adjustments"] = adjustments_json(adj);
	cfg["knobs"] = ordered_json{{"tick_phase_ns", c.knobs.tick_phase},
				    {"tick_jitter_ns", c.knobs.tick_jitter},
				    {"switch_cost_ns", c.knobs.switch_cost}};
	if (c.cpus > 1) {
		cfg["knobs"]["ipi_latency_ns"] = c.knobs.ipi_latency;
		cfg["knobs"]["idle_exit_latency_ns"] = c.knobs.idle_exit_latency;
		cfg["knobs"]["wakeup_irq_cost_ns"] = c.knobs.wakeup_irq_cost;
		cfg["knobs"]["balance_cost_ns"] = c.knobs.balance_cost;
	}
	// Only under a profile that varies the costs, so exact runs' documents
	// are unchanged: its name, where it was measured, and each cost drawn.
	if (!c.profile.exact()) {
		ordered_json prof{{"name", c.profile.name}};
		const Profile::Measured& m = c.profile.measured;
		if (!m.kernel.empty())
			prof["measured"] = ordered_json{
				{"kernel", m.kernel}, {"hz", m.hz}, {"cpus", m.cpus}, {"date", m.date}, {"command", m.command}};
		if (m.steal_ppm)
			prof["measured"]["steal_ppm"] = m.steal_ppm;
		prof["timer_slack_ns"] = c.profile.timer_slack;
		for (const ProfileCost& cost : PROFILE_COSTS)  // a multiplier's key says its unit
			prof[std::string(cost.key) + (cost.multiplier ? "_ppm" : "")] = (c.profile.*cost.dist).describe();
		cfg["profile"] = prof;
	}
	cfg["duration_ns"] = r.sim.now();

	const bool smp = c.cpus > 1;

	// The document is written member by member, each task as it is made
	// (JsonWriter, one reused buffer), so a run of many tasks never holds
	// them all: the bytes are those of one ordered_json dumped with indent 2.
	os << "{\n";
	member(os, "eevdf", version_json(), true);
	member(os, "config", cfg, false);
	os << ",\n  \"tasks\": [";
	const auto& specs = r.sim.workload().tasks;
	std::string buf;
	for (size_t i = 0; i < r.metrics.tasks.size(); i++) {
		const TaskMetrics& m = r.metrics.tasks[i];
		buf.assign(i ? ",\n    " : "\n    ");
		JsonWriter w(buf, 4);
		w.begin_object();
		w.member("name", m.name);
		w.member("pid", m.pid);
		write_task_metrics(w, m, {c.tick_ns, smp, true});
		// The settings it started with, when not the defaults.
		if (specs[i].nice)
			w.member("nice", specs[i].nice);
		if (specs[i].policy != Policy::Normal)
			w.member("policy", std::string_view(policy_name(specs[i].policy)));
		if (specs[i].custom_slice && c.preset->paths.custom_slices)
			w.member("custom_slice_ns", clamp_custom_slice(specs[i].custom_slice));
		if (!specs[i].taskgroup.empty())
			w.member("taskgroup", specs[i].taskgroup);
		if (const GroupSpec* ag = r.sim.task_autogroup(i))
			w.member("autogroup_id", ag->autogroup_id);
		w.end_object();
		os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
	}
	os << (r.metrics.tasks.empty() ? "]" : "\n  ]");
	buf.assign(",\n  \"summary\": ");
	{
		JsonWriter w(buf, 2);
		w.begin_object();
		write_task_metrics(w, total_metrics(r.metrics), {c.tick_ns, smp, true});
		w.member("busy_ns", r.sim.busy_ns());
		w.member("idle_ns", r.sim.idle_ns());
		w.member("ticks", r.sim.ticks());
		w.member("events", r.sim.events());
		w.end_object();
	}
	os << buf;
	if (smp) {
		ordered_json cpus = ordered_json::array();
		for (size_t i = 0; i < r.metrics.cpus.size(); i++) {
			const CpuMetrics& m = r.metrics.cpus[i];
			cpus.push_back(ordered_json{{"cpu", i},
						    {"busy_ns", m.busy_ns},
						    {"idle_ns", m.idle_ns},
						    {"switches", m.switches},
						    {"ticks", m.ticks},
						    {"ipis", m.ipis},
						    {"balance_attempts", m.balance_attempts},
						    {"tasks_pulled", m.tasks_pulled}});
		}
		member(os, "cpus", cpus, false);
	}
	// Only with task groups: each group's weight and the CPU time of the
	// tasks in it and below it (what its cpuacct.usage would count); the
	// cgroups, then the autogroups.
	static const std::string root_path;
	std::vector<GroupSpec> groups = r.sim.workload().groups;
	groups.insert(groups.end(), r.sim.autogroups().begin(), r.sim.autogroups().end());
	if (!groups.empty()) {
		ordered_json arr = ordered_json::array();
		const u64 busy = r.sim.busy_ns();
		// A task's CPU time by the group it ran in: one span without moves.
		auto in_group = [](const std::string& tg, const std::string& g) {
			return tg == g || (tg.size() > g.size() && tg.compare(0, g.size(), g) == 0 && tg[g.size()] == '/');
		};
		for (const GroupSpec& g : groups) {
			u64 cpu_ns = 0;
			for (size_t i = 0; i < specs.size(); i++) {
				const TaskMetrics& m = r.metrics.tasks[i];
				const std::string* tg = &r.sim.task_group_path(i);
				u64 from = 0;
				for (const TaskMetrics::GroupMove& mv : m.group_moves) {
					if (in_group(*tg, g.path))
						cpu_ns += mv.cpu_ns - from;
					from = mv.cpu_ns;
					tg = mv.group < 0 ? &root_path : &r.sim.groups()[static_cast<size_t>(mv.group)].path;
				}
				if (in_group(*tg, g.path))
					cpu_ns += m.cpu_ns - from;
			}
			// What cpu.shares reads: an idle group's is WEIGHT_IDLEPRIO.
			const u64 w = g.idle ? WEIGHT_IDLEPRIO : scale_load_down(g.shares);
			const u64 cpu_weight = sched_weight_to_cgroup(w);
			arr.push_back(ordered_json{{"path", g.path},
						   {"shares", w},
						   {"cpu_weight", cpu_weight},
						   {"cpu_ns", cpu_ns},
						   {"share", busy ? static_cast<double>(cpu_ns) / static_cast<double>(busy) : 0.0}});
			if (g.autogroup_id)
				arr.back()["autogroup_id"] = g.autogroup_id;
			if (g.idle)
				arr.back()["idle"] = true;
		}
		member(os, "groups", arr, false);
	}
	// Only when the run ended in one, so that other documents are unchanged.
	if (r.deadlock) {
		ordered_json waiting = ordered_json::array();
		for (const Deadlock::Waiter& w : r.deadlock->waiting) {
			ordered_json o{{"task", w.task}, {"pid", w.pid}, {"on", w.on}};
			if (w.held_by)
				o["held_by"] = ordered_json{{"task", *w.held_by}, {"pid", w.held_by_pid}};
			waiting.push_back(std::move(o));
		}
		ordered_json d{{"since_ns", r.deadlock->since_ns}};
		if (r.deadlock->partial)
			d["partial"] = true;
		d["waiting"] = std::move(waiting);
		member(os, "deadlock", d, false);
	}
	os << "\n}\n";
}

std::string format_json(const Report& r)
{
	std::ostringstream os;
	write_json(r, os);
	return os.str();
}

namespace {

// The table's columns, as printf's "%-16s %6s %11s %7llu %9s %9s %9s %9s
// %9s %9s %8llu %7llu %10s %10s %10s" laid them out: a field wider than its
// column pushes the rest right.
class Row {
public:
	explicit Row(std::string& out) : out_(out) {}
	Row& left(std::string_view s, size_t w)
	{
		sep();
		out_ += s;
		if (s.size() < w)
			out_.append(w - s.size(), ' ');
		return *this;
	}
	Row& right(std::string_view s, size_t w)
	{
		sep();
		if (s.size() < w)
			out_.append(w - s.size(), ' ');
		out_ += s;
		return *this;
	}
	Row& count(u64 v, size_t w)
	{
		char b[24];
		return right(std::string_view(b, static_cast<size_t>(std::to_chars(b, b + sizeof b, v).ptr - b)), w);
	}
	Row& ms(u64 ns, size_t w)
	{
		field_.clear();
		append_ms(field_, ns);
		return right(field_, w);
	}
	Row& ms(double ns, size_t w)  // a mean: integral means take the exact integer path
	{
		if (ns >= 0 && ns < 0x1p52 && static_cast<double>(static_cast<u64>(ns)) == ns)
			return ms(static_cast<u64>(ns), w);
		return right(cli::ms(ns), w);
	}
	Row& us(u64 ns, size_t w)
	{
		field_.clear();
		append_us(field_, ns);
		return right(field_, w);
	}
	void end() { out_ += '\n'; }

private:
	void sep()
	{
		if (started_)
			out_ += ' ';
		started_ = true;
	}
	std::string& out_;
	std::string field_;
	bool started_ = false;
};

void write_row(std::string& out, const TaskMetrics& m, std::string_view pid)
{
	const Distribution d = summarize(m.runs);
	const Distribution w = summarize(m.wakeup_latency);
	Row row(out);
	row.left(m.name, 16).right(pid, 6).ms(m.cpu_ns, 11).count(d.count, 7);
	row.ms(mean(d), 9).ms(d.min, 9).ms(d.p50, 9).ms(d.p90, 9).ms(d.p99, 9).ms(d.max, 9);
	row.count(m.switches, 8).count(m.involuntary_switches, 7);
	if (w.count)
		row.us(w.p50, 10).us(w.p99, 10);
	else
		row.right("-", 10).right("-", 10);
	row.us(static_cast<u64>(m.max_abs_lag_ns), 10).end();
}

// Appended text goes to `os` whenever it has grown past a few pages.
void flush_past(std::string& buf, std::ostream& os, size_t at = 1 << 16)
{
	if (buf.size() >= at) {
		os.write(buf.data(), static_cast<std::streamsize>(buf.size()));
		buf.clear();
	}
}

}  // namespace

void write_table(const Report& r, std::ostream& os)
{
	std::string out = "# eevdf model: " + describe(r.sim.config()) + "\n";
	out += header_lines(r.sim.config(), r.sim.workload(), adjustments(r.sim.config(), r.sim.workload()));
	out += "# simulated " + ms(r.sim.now()) + " ms: busy " + ms(r.sim.busy_ns()) + " ms, idle " +
	       ms(r.sim.idle_ns()) + " ms, " + std::to_string(r.sim.ticks()) + " ticks\n";
	Row(out).left("task", 16).right("pid", 6).right("cpu_ms", 11).right("runs", 7).right("mean_ms", 9)
		.right("min_ms", 9).right("p50_ms", 9).right("p90_ms", 9).right("p99_ms", 9).right("max_ms", 9)
		.right("switches", 8).right("invol", 7).right("wake_p50us", 10).right("wake_p99us", 10)
		.right("maxlag_us", 10).end();
	char pid[16];
	for (const TaskMetrics& m : r.metrics.tasks) {
		write_row(out, m, std::string_view(pid, static_cast<size_t>(std::to_chars(pid, pid + sizeof pid, m.pid).ptr - pid)));
		flush_past(out, os);
	}
	const TaskMetrics total = total_metrics(r.metrics);
	write_row(out, total, "-");
	u64 longer = 0;
	const std::vector<u64> hist = tick_histogram(total.runs, r.sim.config().tick_ns, longer);
	if (!hist.empty() || longer) {
		out += "# runs by length in ticks (rounded), ticks:runs:";
		for (size_t k = 0; k < hist.size(); k++)
			if (hist[k])
				out += " " + std::to_string(k) + ":" + std::to_string(hist[k]);
		if (longer)
			out += " >=" + std::to_string(MAX_TICK_BUCKETS) + ":" + std::to_string(longer);
		out += "\n";
	}
	bool inexact = false;
	for (const TaskMetrics& m : r.metrics.tasks)
		if (!m.runs.exact() || !m.wakeup_latency.exact()) {
			if (!inexact)
				out += "# percentiles approximate (more distinct values than a task's sample memory keeps; "
				       "docs/cli.md, Limits) for: ";
			else
				out += ", ";
			out += m.name;
			inexact = true;
			flush_past(out, os);
		}
	if (inexact)
		out += "\n";
	if (r.sim.nr_cpus() > 1) {
		out += "# migrations (wake-ups local/remote/migrated):";
		for (const TaskMetrics& m : r.metrics.tasks) {
			out += " " + m.name + "=" + std::to_string(m.migrations) + " (" + std::to_string(m.wakeups_local) +
			       "/" + std::to_string(m.wakeups_remote) + "/" + std::to_string(m.wakeups_migrate) + ")";
			flush_past(out, os);
		}
		out += "\n";
		char line[512];
		for (size_t i = 0; i < r.metrics.cpus.size(); i++) {
			const CpuMetrics& m = r.metrics.cpus[i];
			std::snprintf(line, sizeof line,
				      "# cpu %zu: busy %s ms, idle %s ms, %llu switches, %llu ticks, %llu IPIs, %llu balance "
				      "attempts, %llu tasks pulled\n",
				      i, ms(m.busy_ns).c_str(), ms(m.idle_ns).c_str(), static_cast<unsigned long long>(m.switches),
				      static_cast<unsigned long long>(m.ticks), static_cast<unsigned long long>(m.ipis),
				      static_cast<unsigned long long>(m.balance_attempts),
				      static_cast<unsigned long long>(m.tasks_pulled));
			out += line;
		}
	}
	os << out;
}

}  // namespace eevdf::cli
