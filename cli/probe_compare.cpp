// SPDX-License-Identifier: GPL-2.0-only
// `eevdf probe`: the live kernel beside the model. Runs eevdf-probe with
// --json, rebuilds the probe's scenario (hogs, custom slice, the periodic
// waker, HZ, CPU count, kernel version) in the model, and prints
// kernel | model | model with the calibrated 30 us tick jitter
// (docs/kernel-probe.md).
#include "cli/probe_compare.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/companion.hpp"
#include "model/metrics.hpp"
#include "model/simulation.hpp"

namespace eevdf::cli {
namespace {

using nlohmann::json;

constexpr u64 CALIBRATED_JITTER = 30 * NSEC_PER_USEC;  // docs/kernel-probe.md

// Runs the probe with `args` + --json; its stderr passes through. Returns
// its exit status and fills `out` with its stdout.
int run_probe(const std::string& path, const std::vector<std::string>& args, std::string& out)
{
	int fd[2];
	if (pipe(fd) != 0)
		return 2;
	const pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		std::vector<std::string> copy = args;
		copy.insert(copy.begin(), "eevdf-probe");
		copy.push_back("--json");
		std::vector<char*> argv;
		for (std::string& a : copy)
			argv.push_back(a.data());
		argv.push_back(nullptr);
		execv(path.c_str(), argv.data());
		_exit(2);
	}
	close(fd[1]);
	char buf[65536];
	ssize_t n;
	while ((n = read(fd[0], buf, sizeof buf)) > 0)
		out.append(buf, static_cast<size_t>(n));
	close(fd[0]);
	int status = 0;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

// The model preset closest to a kernel release "6.18.44-...".
std::string preset_for(const std::string& release)
{
	int major = 0, minor = 0;
	std::sscanf(release.c_str(), "%d.%d", &major, &minor);
	const int v = major * 100 + minor;
	if (v >= 618)
		return "6.18";
	if (v >= 615)
		return "6.15";
	if (v >= 612)
		return "6.12";
	return "6.6";
}

struct ModelRun {
	Distribution hog_runs, waker_latency;
};

ModelRun simulate(const json& k, const std::string& preset, u64 jitter)
{
	const json& c = k["config"];
	Config cfg = make_config(*find_preset(preset), k["kernel"]["hz"].get<u32>(), k["kernel"]["cpus_online"].get<u32>());
	cfg.knobs.tick_jitter = jitter;
	cfg.seed = 1;
	const u64 slice = c.value("slice_ns", u64{0});
	Workload wl = hogs_workload(c["hogs"].get<int>(), c["duration_ns"].get<u64>());
	for (TaskSpec& t : wl.tasks)
		t.custom_slice = slice;
	if (c.contains("waker") && c["waker"].is_object()) {
		const json& w = c["waker"];
		// The probe's waker sleeps to an absolute period grid starting
		// offset_ns after a tick, then spins run_ns.
		TaskSpec t = looping_task("waker", {Event{Event::Kind::Timer, w["period_ns"].get<u64>(), wl.ref("period")},
						    Event{Event::Kind::Run, w["run_ns"].get<u64>()}});
		t.delay = w.value("offset_ns", u64{0});
		t.custom_slice = w.value("slice_ns", u64{0});
		wl.tasks.push_back(t);
	}
	Simulation sim(cfg, wl);
	MetricsCollector m;
	sim.add_observer(&m);
	sim.run();
	m.finish(sim);
	ModelRun r;
	std::vector<u64> runs;
	for (const TaskMetrics& t : m.tasks) {
		if (t.name == "waker")
			r.waker_latency = summarize(t.wakeup_latency);
		else
			runs.insert(runs.end(), t.runs.begin(), t.runs.end());
	}
	r.hog_runs = summarize(runs);
	return r;
}

std::string ms(double ns)
{
	char b[32];
	std::snprintf(b, sizeof b, "%.3f", ns / 1e6);
	return b;
}

std::string trio(double a, double b, double c) { return ms(a) + " / " + ms(b) + " / " + ms(c); }

}  // namespace

int probe_side_by_side(const std::vector<std::string>& args)
{
	for (const std::string& a : args)
		if (a == "--json" || a == "--help" || a == "-h")
			return exec_companion(PROBE, args);  // the probe's own output
	const std::string path = find_companion(PROBE);
	if (path.empty())
		return exec_companion(PROBE, args);  // reports what is missing
	std::string out;
	const int rc = run_probe(path, args, out);
	if (rc != 0)
		return rc;
	json k;
	try {
		k = json::parse(out);
		const std::string release = k["kernel"]["release"].get<std::string>();
		const std::string preset = preset_for(release);
		const ModelRun exact = simulate(k, preset, 0), jit = simulate(k, preset, CALIBRATED_JITTER);
		const bool traced = k["config"].value("traced", false);
		const json& kr = k["hogs"][traced ? "trace" : "spin"]["runs_merged"];
		std::printf("kernel %s, HZ=%u, %u CPUs (model preset %s); %d hogs, %s; %s s; kernel runs from %s\n\n",
			    release.c_str(), k["kernel"]["hz"].get<u32>(), k["kernel"]["cpus_online"].get<u32>(), preset.c_str(),
			    k["config"]["hogs"].get<int>(),
			    k["config"].value("slice_ns", u64{0}) ? ("slice " + ms(static_cast<double>(k["config"]["slice_ns"].get<u64>())) + " ms").c_str()
								   : "default slice",
			    ms(static_cast<double>(k["config"]["duration_ns"].get<u64>()) / 1e3).c_str(),
			    traced ? "sched_switch" : "the spin method");
		std::printf("| %-34s | %-24s | %-24s | %-24s |\n", "metric", "kernel", "model", "model, 30 us tick jitter");
		std::printf("| %s | %s | %s | %s |\n", std::string(34, '-').c_str(), std::string(24, '-').c_str(),
			    std::string(24, '-').c_str(), std::string(24, '-').c_str());
		auto mean = [](const Distribution& d) { return d.count ? static_cast<double>(d.sum) / static_cast<double>(d.count) : 0.0; };
		auto row = [](const char* name, const std::string& a, const std::string& b, const std::string& c) {
			std::printf("| %-34s | %-24s | %-24s | %-24s |\n", name, a.c_str(), b.c_str(), c.c_str());
		};
		row("hog runs", std::to_string(kr["count"].get<u64>()), std::to_string(exact.hog_runs.count),
		    std::to_string(jit.hog_runs.count));
		row("hog run mean (ms)", ms(kr["mean_ns"].get<double>()), ms(mean(exact.hog_runs)), ms(mean(jit.hog_runs)));
		row("hog run p50 / p90 / p99 (ms)",
		    trio(kr["p50_ns"].get<double>(), kr["p90_ns"].get<double>(), kr["p99_ns"].get<double>()),
		    trio(static_cast<double>(exact.hog_runs.p50), static_cast<double>(exact.hog_runs.p90),
			 static_cast<double>(exact.hog_runs.p99)),
		    trio(static_cast<double>(jit.hog_runs.p50), static_cast<double>(jit.hog_runs.p90),
			 static_cast<double>(jit.hog_runs.p99)));
		if (k.contains("waker") && k["waker"].is_object()) {
			const json& wl = k["waker"][traced ? "latency_trace" : "latency_spin"];
			const Distribution& a = exact.waker_latency;
			const Distribution& b = jit.waker_latency;
			row("waker latency p50 / p90 / p99 (ms)",
			    trio(wl["p50_ns"].get<double>(), wl["p90_ns"].get<double>(), wl["p99_ns"].get<double>()),
			    trio(static_cast<double>(a.p50), static_cast<double>(a.p90), static_cast<double>(a.p99)),
			    trio(static_cast<double>(b.p50), static_cast<double>(b.p90), static_cast<double>(b.p99)));
		}
	} catch (const std::exception& e) {
		std::cerr << "eevdf: probe: cannot compare the probe's output with the model: " << e.what() << "\n";
		return 2;
	}
	return 0;
}

}  // namespace eevdf::cli
