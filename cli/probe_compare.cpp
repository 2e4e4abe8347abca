// SPDX-License-Identifier: GPL-2.0-only
// `eevdf probe`: the live kernel beside the model. Runs eevdf-probe with
// --json, rebuilds the probe's scenario (hogs, custom slice, the periodic
// waker, HZ, CPU count, kernel version) in the model, and prints
// kernel | model | model with the calibrated 30 us tick jitter
// (docs/kernel-probe.md). `eevdf probe --scenario NAME` does the same for the
// probe's unpinned multi-CPU scenarios on every CPU of the machine, with a
// stated tolerance per metric.
// `eevdf probe --claim` is probe_claim.cpp, `--scenario` probe_scenario.cpp.
#include "cli/probe_compare.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/companion.hpp"
#include "cli/probe_table.hpp"
#include "model/metrics.hpp"
#include "model/simulation.hpp"
#include "report/run_budget.hpp"

namespace eevdf::cli {
namespace {

using nlohmann::json;
using probe::ms;

constexpr u64 CALIBRATED_JITTER = 30 * NSEC_PER_USEC;  // docs/kernel-probe.md

}  // namespace

// Runs the probe with `args` + --json; its stderr passes through. Returns
// its exit status and fills `out` with its stdout.
int run_probe(const std::string& path, const std::vector<std::string>& args, std::string& out)
{
	std::vector<std::string> with_json = args;
	with_json.push_back("--json");
	return capture_program(path, "eevdf-probe", with_json, out);
}

// The preset whose code a kernel release "6.18.44-..." runs: the newest
// preset at or before it (preset_for_release()).
std::string preset_for(const std::string& release)
{
	const KernelPreset* p = preset_for_release(release);
	return p ? std::string(p->name) : std::string(kernel_presets().front().name);
}

namespace probe {

std::string ms(double ns)
{
	char b[32];
	std::snprintf(b, sizeof b, "%.3f", ns / 1e6);
	return b;
}

std::string num(double x)
{
	char b[32];
	std::snprintf(b, sizeof b, "%.3f", x);
	return b;
}

}  // namespace probe

namespace {

struct ModelRun {
	Distribution hog_runs, waker_latency;
	std::vector<Distribution> per_hog;  // in the probe's hog order
};

ModelRun simulate(const json& k, const std::string& preset, u64 jitter)
{
	const json& c = k["config"];
	// The probe pins its tasks to one CPU of the machine: one CPU simulated,
	// the base slice scaled for every online CPU.
	Config cfg = make_config_one_of(*find_preset(preset), k["kernel"]["hz"].get<u32>(),
					k["kernel"]["cpus_online"].get<u32>());
	cfg.knobs.tick_jitter = jitter;
	cfg.seed = 1;
	const u64 slice = c.value("slice_ns", u64{0});
	Workload wl = hogs_workload(c["hogs"].get<int>(), c["duration_ns"].get<u64>());
	const std::vector<int> nices = c.value("nices", std::vector<int>{});
	for (size_t i = 0; i < wl.tasks.size(); i++) {
		wl.tasks[i].custom_slice = slice;
		if (i < nices.size())
			wl.tasks[i].nice = nices[i];
	}
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
	run_bounded(sim);
	m.finish(sim);
	ModelRun r;
	SampleCounts runs;
	for (const TaskMetrics& t : m.tasks) {
		if (t.name == "waker")
			r.waker_latency = summarize(t.wakeup_latency);
		else {
			runs.merge(t.runs);
			r.per_hog.push_back(summarize(t.runs));
		}
	}
	r.hog_runs = summarize(runs);
	return r;
}

std::string trio(double a, double b, double c) { return ms(a) + " / " + ms(b) + " / " + ms(c); }

}  // namespace

int probe_side_by_side(const std::vector<std::string>& args)
{
	if (std::find(args.begin(), args.end(), "--scenario") != args.end() &&
	    std::find(args.begin(), args.end(), "--json") == args.end() &&
	    std::find(args.begin(), args.end(), "--help") == args.end())
		return probe_scenario(args);
	if (args.size() == 2 && args[0] == "--claim")
		return probe_claim(args[1]);
	if (!args.empty() && args[0] == "--rtapp")
		return probe_rtapp(args);
	for (const std::string& a : args)
		if (a == "--json" || a == "--help" || a == "-h" || a == "--list-scenarios")
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
		std::string nices;
		for (const json& n : k["config"].value("nices", json::array()))
			nices += (nices.empty() ? " at nice " : ",") + std::to_string(n.get<int>());
		std::printf("kernel %s, HZ=%u, %u CPUs (model preset %s); %d hogs%s, %s; %s s; kernel runs from %s\n\n",
			    release.c_str(), k["kernel"]["hz"].get<u32>(), k["kernel"]["cpus_online"].get<u32>(), preset.c_str(),
			    k["config"]["hogs"].get<int>(), nices.c_str(),
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
		// a distribution with no whole run has no mean or percentiles
		const bool kany = kr.value("count", u64{0}) != 0;
		auto kms = [&](const char* f) { return kany ? ms(kr[f].get<double>()) : std::string("-"); };
		row("hog run mean (ms)", kms("mean_ns"), ms(mean(exact.hog_runs)), ms(mean(jit.hog_runs)));
		row("hog run p50 / p90 / p99 (ms)",
		    kany ? trio(kr["p50_ns"].get<double>(), kr["p90_ns"].get<double>(), kr["p99_ns"].get<double>()) : "-",
		    trio(static_cast<double>(exact.hog_runs.p50), static_cast<double>(exact.hog_runs.p90),
			 static_cast<double>(exact.hog_runs.p99)),
		    trio(static_cast<double>(jit.hog_runs.p50), static_cast<double>(jit.hog_runs.p90),
			 static_cast<double>(jit.hog_runs.p99)));
		// hogs at different nice levels: each hog's runs, mean / p99 / max
		if (k["config"].contains("nices")) {
			size_t h = 0;
			for (const json& t : k["tasks"]) {
				if (t.value("role", "") != "hog" || h >= exact.per_hog.size() || h >= jit.per_hog.size())
					continue;
				// merged across foreign interruptions, as the all-hogs rows
				const json& tr = t[traced ? "trace_runs_merged" : "spin_runs_merged"];
				const std::string name = "hog" + std::to_string(h) + " (nice " + std::to_string(t.value("nice", 0)) +
							 ") mean / p99 / max";
				auto cell = [&](const Distribution& d) {
					return d.count ? trio(mean(d), static_cast<double>(d.p99), static_cast<double>(d.max))
						       : std::string("no whole run");
				};
				const std::string kern = tr.value("count", u64{0}) ? trio(tr["mean_ns"].get<double>(), tr["p99_ns"].get<double>(),
										 tr["max_ns"].get<double>())
									   : std::string("no whole run");
				row(name.c_str(), kern, cell(exact.per_hog[h]), cell(jit.per_hog[h]));
				h++;
			}
		}
		if (k.contains("waker") && k["waker"].is_object()) {
			const json& wl = k["waker"][traced ? "latency_trace" : "latency_spin"];
			const Distribution& a = exact.waker_latency;
			const Distribution& b = jit.waker_latency;
			const bool measured = wl.value("count", 0) > 0;
			row("waker latency p50 / p90 / p99 (ms)",
			    measured ? trio(wl["p50_ns"].get<double>(), wl["p90_ns"].get<double>(), wl["p99_ns"].get<double>())
				     : std::string("-"),
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
