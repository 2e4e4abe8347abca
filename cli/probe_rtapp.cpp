// SPDX-License-Identifier: GPL-2.0-only
// `eevdf probe --rtapp FILE`: rt-app runs FILE on the live kernel while
// eevdf-probe traces every CPU (probe/rtapp_run.hpp); the trace is read
// with `eevdf trace`'s reader and measured with its metrics, the model runs
// the same FILE on the kernel's HZ, CPU count and preset, and each of the
// file's tasks prints kernel | model. Meant for files without cross-CPU
// effects (every task pinned): placement and balancing on a live machine
// also answer to its other tasks, which the model does not have.
#include <fnmatch.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/companion.hpp"
#include "cli/probe_compare.hpp"
#include "cli/trace_input.hpp"
#include "io/input_error.hpp"
#include "io/model_options.hpp"
#include "io/rtapp.hpp"
#include "io/values.hpp"
#include "model/cpumask.hpp"
#include "model/simulation.hpp"
#include "report/side_by_side.hpp"
#include "report/run_budget.hpp"

namespace eevdf::cli {

namespace {

// The rt-app in PATH, or "".
std::string rtapp_in_path()
{
	const char* path = std::getenv("PATH");
	std::stringstream dirs(path ? path : "");
	for (std::string d; std::getline(dirs, d, ':');) {
		const std::string f = (d.empty() ? "." : d) + "/rt-app";
		if (access(f.c_str(), X_OK) == 0)
			return f;
	}
	return "";
}

// Whether that rt-app knows the "taskgroup" key: its JSON reader names it
// (parse_thread_data()), so the binary holds the string. Debian's rt-app
// 1.0 does not, and runs a file's taskgroups in the caller's group.
bool rtapp_knows_taskgroup(const std::string& binary)
{
	std::ifstream in(binary, std::ios::binary);
	const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
	return bytes.find("taskgroup") != std::string::npos;
}

bool uses_groups(const Workload& wl)
{
	if (!wl.groups.empty())
		return true;
	for (const TaskSpec& t : wl.tasks) {
		if (!t.taskgroup.empty())
			return true;
		for (const Phase& p : t.phases)
			for (const Event& e : p.events)
				if (e.kind == Event::Kind::MoveGroup || e.kind == Event::Kind::SetShares ||
				    e.kind == Event::Kind::SetIdle)
					return true;
	}
	return false;
}

}  // namespace

int probe_rtapp(const std::vector<std::string>& args)
{
	std::string file, keep;  // keep: --dump-trace FILE, the raw trace kept for the caller
	double threshold = 0.1;
	for (size_t i = 0; i < args.size(); i++) {
		auto value = [&]() -> const std::string& {
			if (i + 1 >= args.size())
				throw UsageError(args[i] + ": needs a value");
			return args[++i];
		};
		if (args[i] == "--rtapp")
			file = value();
		else if (args[i] == "--dump-trace")
			keep = value();
		else if (args[i] == "--threshold") {
			const std::string& v = value();
			char* end = nullptr;
			threshold = std::strtod(v.c_str(), &end);
			if (v.empty() || *end || !(threshold >= 0 && threshold < 1e9))
				throw UsageError("--threshold " + v + ": expected a fraction >= 0, e.g. 0.1");
		} else
			throw UsageError("probe --rtapp: unknown option " + args[i] + " (accepted: --rtapp FILE, --threshold R, --dump-trace FILE)");
	}
	RtappNotes notes;
	const Workload wl = load_rtapp_file(file, &notes);  // refused here, before anything runs on the kernel
	// A file with task groups compares only with an rt-app that makes them:
	// one that ignores "taskgroup" would run the kernel's side flat.
	if (uses_groups(wl)) {
		const std::string rtapp = rtapp_in_path();
		if (!rtapp.empty() && !rtapp_knows_taskgroup(rtapp))
			throw UsageError("probe --rtapp " + file + ": the file puts tasks in groups (\"taskgroup\"), and " +
					 rtapp + " does not know the key (Debian's rt-app 1.0 ignores it): the kernel "
					 "would run the tasks without groups. Use an rt-app with taskgroup support, or "
					 "the group scenarios (probe/run-groups.py, docs/kernel-probe.md)");
	}
	const std::string path = find_companion(PROBE);
	if (path.empty())
		return exec_companion(PROBE, {"--rtapp", file});  // reports what is missing
	std::string trace_path = keep;
	if (keep.empty()) {
		char tmpl[] = "/tmp/eevdf-probe-rtapp-XXXXXX";
		const int fd = mkstemp(tmpl);
		if (fd < 0)
			throw UsageError("probe --rtapp: cannot create a temporary file for the trace");
		close(fd);
		trace_path = tmpl;
	}
	// rt-app stops at its global duration, unless a task is in a run that
	// never ends ("run": -1): the probe stops it 120 s past the duration
	// (or after 600 s when the file has none), never hangs. The slack is
	// rt-app's calibration, which its duration does not count: ~10 s on a
	// quiet machine here, over 30 s while both CPUs compile.
	constexpr u64 SLACK = 120 * NSEC_PER_SEC, NO_DURATION = 600 * NSEC_PER_SEC;
	const u64 limit = wl.duration && wl.duration <= 3480 * NSEC_PER_SEC ? wl.duration + SLACK : NO_DURATION;
	const std::string timeout = std::to_string(limit / NSEC_PER_SEC) + "s";
	std::string out;
	const int rc = run_probe(path, {"--rtapp", file, "--dump-trace", trace_path, "--timeout", timeout}, out);
	struct Remove {
		std::string p;
		~Remove()
		{
			if (!p.empty())
				std::remove(p.c_str());
		}
	} remove_trace{keep.empty() ? trace_path : std::string()};
	if (rc != 0 && rc != 1)
		return rc;
	const nlohmann::json k = nlohmann::json::parse(out);
	if (rc == 1 && k["rtapp"].value("timed_out", false))
		std::cerr << "eevdf: probe --rtapp: rt-app ran past --timeout " << timeout
			  << " and was stopped; the kernel's side is what ran until then\n";
	else if (rc == 1)
		std::cerr << "eevdf: probe --rtapp: rt-app exited with status " << k["rtapp"]["exit_status"] << "\n";
	const std::string release = k["kernel"]["release"].get<std::string>();
	if (!k["kernel"]["hz"].is_number())
		throw UsageError("probe --rtapp: the kernel's HZ could not be read; the model needs it");

	// the kernel: the trace, each of the file's tasks by its comm (the
	// name rt-app gives the thread, cut to 15 characters)
	TraceOptions to;
	to.file = trace_path;
	MeasuredTrace mt;
	{
		TraceInput in(trace_path);
		trace::Reader r(in.stream(), trace_path);
		mt.metrics = trace::measure(r);
		mt.read = r.stats();
	}
	// the model: the same file, on the kernel's HZ, CPUs and preset
	ModelOptions mo;
	mo.kernel = preset_for(release);
	mo.hz = k["kernel"]["hz"].get<u32>();
	mo.cpus = std::min<u32>(k["kernel"]["cpus_online"].get<u32>(), MAX_CPUS);
	const Config cfg = build_config(mo);
	Simulation sim(cfg, wl);
	MetricsCollector metrics;
	sim.add_observer(&metrics);
	run_bounded(sim);
	metrics.finish(sim);

	std::ostringstream os;
	os << "# kernel " << release << ", HZ=" << mo.hz << ", " << mo.cpus << " CPUs: rt-app " << file << " ("
	   << k["rtapp"]["wall_ns"].get<long long>() / 1000000 << " ms with its calibration), traced; model: "
	   << describe(cfg) << "\n";
	os << "# '*': differs by more than " << percent(threshold) << "; docs/kernel-probe.md (rt-app files)\n";
	print_trace_warnings(mt.read, os, "# ", &mt.metrics);
	bool unpinned = false;
	size_t flagged = 0, missing = 0;
	for (size_t i = 0; i < wl.tasks.size(); i++) {
		const std::string comm = wl.tasks[i].name.substr(0, 15);
		const TaskMetrics* kt = nullptr;
		for (const TaskMetrics& t : mt.metrics.tasks)
			if (t.name == comm && (!kt || t.cpu_ns > kt->cpu_ns))
				kt = &t;
		unpinned = unpinned || wl.tasks[i].cpus.empty();
		if (!kt) {
			os << "\n" << wl.tasks[i].name << ": no thread named " << comm << " in the trace\n";
			missing++;
			continue;
		}
		flagged += write_side_by_side(os, wl.tasks[i].name + " (kernel pid " + std::to_string(kt->pid) + ")", *kt,
					      metrics.tasks[i], threshold);
	}
	os << "\n" << flagged << " metrics differ by more than " << percent(threshold) << "\n";
	if (unpinned)
		os << "note: some tasks are not pinned (\"cpus\"): on the live machine their placement also answers to "
		      "its other tasks\n";
	std::cout << os.str();
	return missing ? 1 : 0;
}

}  // namespace eevdf::cli
