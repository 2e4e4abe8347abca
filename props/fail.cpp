// SPDX-License-Identifier: GPL-2.0-only
#include "props/fail.hpp"

#include <rapidcheck.h>

#include "props/harness.hpp"

namespace eevdf::props {
namespace {

std::string tag(const std::string& name, Bugs bugs)
{
	std::string s = name;
	for (unsigned i = 0; i < bug_info.size(); i++)
		if (bugs[static_cast<Bug>(i)])
			s += "+" + std::string(bug_info[i].name);
	return s;
}

}  // namespace

void fail(const std::string& property, Bugs bugs, const Config& cfg, const Workload& wl, const std::string& why)
{
	const std::string file = save_counterexample(tag(property, bugs), cfg, wl, why);
	RC_FAIL(why + "\ncounterexample: " + file + "\nreplay: eevdf sim " + file + " " + command_line_flags(cfg));
}

void run_or_fail(const std::string& property, Bugs bugs, const Config& cfg, const Workload& wl,
		 std::vector<Observer*> extra)
{
	const std::string bad = run_checked(cfg, wl, std::move(extra));
	if (!bad.empty())
		fail(property, bugs, cfg, wl, bad);
}

}  // namespace eevdf::props
