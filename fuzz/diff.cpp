// SPDX-License-Identifier: GPL-2.0-only
// fuzz_differential's checks, the fuzzers' bug switch and their reports.
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "fuzz/genome.hpp"
#include "model/pick_by_definition.hpp"
#include "oracle/decision_oracle.hpp"
#include "props/harness.hpp"

namespace eevdf::fuzz {

std::string diff_cfs_ops(const uint8_t* data, size_t size, Bugs bugs)
{
	auto byte = [&](size_t i) -> u64 { return i < size ? data[i] : 0; };
	const auto& presets = kernel_presets();
	static const u32 hzs[] = {100, 250, 300, 1000};
	Config cfg = make_config(presets[byte(0) % presets.size()], hzs[byte(1) % 4], 1, bugs);
	const u64 flips = byte(2) | byte(3) << 8;
	const Features have = available_features(*cfg.preset);
	for (unsigned f = 0; f < FIRST_SMP_FEATURE; f++)
		if ((flips & (1u << f)) && have[static_cast<Feature>(f)])
			cfg.features.set(static_cast<Feature>(f), !cfg.features[static_cast<Feature>(f)]);
	CfsRq cfs(cfg);
	const size_t n = 2 + byte(4) % 15;
	std::vector<SchedEntity> es(n);
	size_t at = 5;
	for (size_t i = 0; i < n; i++, at += 2) {
		es[i].id = static_cast<int>(i);
		es[i].load = task_load_weight(static_cast<int>(byte(at) % 40) - 20);
		es[i].custom_slice = byte(at + 1) & 1;
		es[i].slice = es[i].custom_slice ? (100 + (byte(at + 1) >> 1) * 787) * NSEC_PER_USEC : cfg.base_slice_ns;
	}
	for (; at + 4 <= size; at += 4) {
		props::CfsOp op;
		op.kind = static_cast<props::CfsOp::Kind>(byte(at) % 5);
		op.entity = byte(at + 1) % n;
		const u64 arg = byte(at + 2) | byte(at + 3) << 8;
		if (op.kind == props::CfsOp::Enqueue) {
			const s64 lim = props::cfs_op_lag_limit(cfg, es[op.entity]);
			op.vlag = static_cast<s64>(arg % static_cast<u64>(2 * lim + 1)) - lim;
			op.wakeup = byte(at) & 8;
		}
		op.run_ns = (arg % 20'001) * NSEC_PER_USEC;
		props::apply_cfs_op(cfs, es, op);
		if (const std::string pick = tree_pick_difference(cfs); !pick.empty())
			return "pick: after operation " + std::to_string((at - 5 - 2 * n) / 4) + " " + pick;
		if (cfs.avg_vruntime() != exact_v(cfs).floor_v())
			return "V: avg_vruntime() = " + std::to_string(cfs.avg_vruntime()) + ", exact floor " +
			       std::to_string(exact_v(cfs).floor_v());
	}
	return "";
}

// Where the presets' code paths cannot differ (docs/fuzzing.md): equal-nice
// CPU hogs forked together, so no sleep (lag clamp, DELAY_*, placement of a
// waking task), no yield, no nice or slice change (reweight, protection at
// set_next_entity), no custom slice; the same base slice and the same flags
// on every preset, RUN_TO_PARITY on (NO_RUN_TO_PARITY gives 6.17+ a
// 0.7 ms quantum) and HRTICK off. v6.6 is outside the class: its
// vruntime-keyed pick keeps curr on a deadline tie, and exact ticks make
// ties (docs/findings.md F8), so its hogs switch half as often.
Genome agreement_class(Genome g)
{
	g.hogs = true;
	g.preset = 3;
	g.hog_nice = 0;       // virtual time = real time: accounted runtimes tie,
	g.jitter_ns = 0;      // so no re-pick after a renewal (docs/findings.md F1),
	g.tick_phase_ns = 0;  // which 6.6-6.16 and 6.17+ handle differently
	if (g.slice_us == 0)
		g.slice_us = static_cast<uint32_t>(default_base_slice(kernel_presets()[3], g.cpus) / NSEC_PER_USEC);
	return g;
}

std::string diff_presets(const Genome& genome, Bugs bugs)
{
	const Genome g = agreement_class(genome);
	Case ref = build(g, bugs);
	ref.cfg.features.set(Feature::RUN_TO_PARITY, true);
	std::vector<std::vector<std::pair<u64, int>>> logs;
	const KernelPreset* first_preset = nullptr;
	for (const KernelPreset& p : kernel_presets()) {
		Case c = ref;
		c.cfg.preset = &p;
		props::SwitchLog log;
		const std::string bad = props::run_checked(c.cfg, c.wl, {&log});
		if (!bad.empty())
			return "invariant on " + std::string(p.name) + ": " + bad;
		if (p.paths.tree == KernelPaths::Tree::VruntimeKeyed)
			continue;  // checked, but not compared (F8)
		if (!first_preset)
			first_preset = &p;
		if (!logs.empty() && log.switches != logs.front()) {
			size_t k = 0;
			while (k < log.switches.size() && k < logs.front().size() && log.switches[k] == logs.front()[k])
				k++;
			return "presets " + std::string(first_preset->name) + " and " + std::string(p.name) +
			       " disagree at switch " + std::to_string(k) + " of a workload where their paths agree";
		}
		logs.push_back(std::move(log.switches));
	}
	return "";
}

std::string diff_pinned(const Genome& genome, Bugs bugs)
{
	Case smp = build(genome, bugs);
	if (smp.cfg.cpus < 2)
		return "";
	for (TaskSpec& t : smp.wl.tasks)
		t.cpus = {0};
	Case one = smp;
	one.cfg.cpus = 1;
	one.cfg.llc_size = 0;
	one.cfg.smt = 1;
	one.cfg.cluster = 0;
	one.cfg.node = 0;
	one.cfg.skew_tick = false;  // CPU 0's skew is 0
	props::CpuSwitchLog a, b;
	const std::string bad_one = props::run_checked(one.cfg, one.wl, {&a});
	if (!bad_one.empty())
		return "invariant on one CPU: " + bad_one;
	const std::string bad_smp = props::run_checked(smp.cfg, smp.wl, {&b});
	if (!bad_smp.empty())
		return "invariant on " + std::to_string(smp.cfg.cpus) + " CPUs, all pinned to CPU 0: " + bad_smp;
	if (a.switches == b.switches)
		return "";
	size_t k = 0;
	while (k < a.switches.size() && k < b.switches.size() && a.switches[k] == b.switches[k])
		k++;
	return "tasks pinned to CPU 0 of " + std::to_string(smp.cfg.cpus) + " CPUs are not scheduled as on one CPU: switch " +
	       std::to_string(k) + " differs";
}

std::string diff_oracle(const Genome& genome, Bugs bugs)
{
	Genome g = genome;
	g.sim_cpus = 1;  // the oracle's rules are one CPU's (groups included)
	Case c = build(g, bugs);
	c.cfg.features.set(Feature::TTWU_QUEUE_DELAYED, false);  // released kernels only (props/test_decision_oracle.cpp)
	std::optional<oracle::DecisionOracle> o;
	try {
		o.emplace(c.cfg);
	} catch (const std::invalid_argument& e) {
		return e.what();  // a preset the oracle has no rules for
	}
	const std::string bad = props::run_checked(c.cfg, c.wl, {&*o});
	if (!bad.empty())
		return "invariant: " + bad;
	if (o->agreed())
		return "";
	std::string why = o->report();
	for (const oracle::Disagreement& d : o->classes())
		why += "\n  " + d.describe();
	return why;
}

Bugs bugs_from_env()
{
	Bugs bugs;
	const char* env = std::getenv("EEVDF_FUZZ_BUGS");
	std::string_view s = env ? env : "";
	while (!s.empty()) {
		const size_t comma = s.find(',');
		const std::string_view name = s.substr(0, comma);
		if (auto b = bug_by_name(name))
			bugs.set(*b);
		else if (!name.empty()) {
			std::fprintf(stderr, "EEVDF_FUZZ_BUGS: unknown bug %.*s (see `eevdf bugs`)\n", static_cast<int>(name.size()),
				     name.data());
			std::exit(2);
		}
		s = comma == std::string_view::npos ? "" : s.substr(comma + 1);
	}
	return bugs;
}

void report(const char* target, const Case& c, const std::string& why, const uint8_t* data, size_t size)
{
	u64 h = 1469598103934665603ULL;  // FNV-1a of the input names the files
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 1099511628211ULL;
	char name[64];
	std::snprintf(name, sizeof name, "%s-%016llx", target, static_cast<unsigned long long>(h));
	const char* env = std::getenv("EEVDF_FUZZ_OUT");
	const std::string file =
		props::save_counterexample_in(env && *env ? env : "fuzz-counterexamples", name, c.cfg, c.wl, why);
	std::fprintf(stderr, "\n==== %s: %s\ncounterexample: %s\nreplay: eevdf sim %s %s --check\n", target, why.c_str(),
		     file.c_str(), file.c_str(), command_line_flags(c.cfg).c_str());
	std::abort();
}

}  // namespace eevdf::fuzz
