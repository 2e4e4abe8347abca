// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: a multi-CPU scenario's report as text tables or as one JSON
// document (parsed by cli/probe_compare.cpp, which rebuilds the scenario in
// the model from its "scenario" object).
#pragma once

#include <string>
#include <vector>

#include "options.hpp"
#include "scenario.hpp"
#include "smp_analysis.hpp"
#include "sysinfo.hpp"
#include "workers.hpp"

namespace probe {

struct SmpReport {
	std::string command;
	SysInfo si;
	Options opt;
	Plan plan;
	Scenario scenario;
	std::vector<int> cpus;  // the CPUs the tasks may run on
	std::vector<SmpTask> *tasks = nullptr;
	SmpAnalysis a;
};

void print_smp_text(const SmpReport &r);
std::string make_smp_json(const SmpReport &r);

}  // namespace probe
