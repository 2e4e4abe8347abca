// SPDX-License-Identifier: GPL-2.0-only
// What a run was made with beyond the model line: the settings the kernel
// would clamp or ignore, as the model applied them (a custom slice clamped
// to 0.1-100 ms, a custom slice on a preset without custom slices), and the
// per-task nice and custom slice. The table header, the JSON config and a
// warning on stderr all say the same, so a run cannot look cleaner than it
// was.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "model/config.hpp"
#include "model/workload.hpp"

namespace eevdf::cli {

// One setting the model, as the kernel, did not apply as given: on `tasks`
// tasks (the first named), `given_ns` became `applied_ns` (0: ignored).
struct Adjustment {
	std::string setting;   // "custom_slice" (a task's dl-runtime or --custom-slice) or "sched_runtime" (a phase's)
	std::string first_task;
	size_t tasks = 0;
	u64 given_ns = 0;
	u64 applied_ns = 0;
	std::string why;

	std::string text() const;  // one line, no newline
};

// Every adjustment of the workload's slices under `cfg`, grouped by what
// was given and what was applied, in task order.
std::vector<Adjustment> adjustments(const Config& cfg, const Workload& wl);

// "eevdf: warning: ..." lines on stderr, one per adjustment.
void warn_adjustments(const std::vector<Adjustment>& a);

// Header lines for the table: "# adjusted: ..." per adjustment and one
// "# task settings: ..." line when some task has a nice value or custom
// slice at its start (grouped, at most 8 groups named). Empty for a run
// with neither.
std::string header_lines(const Config& cfg, const Workload& wl, const std::vector<Adjustment>& a);

// The config's "adjustments" array (absent when empty).
nlohmann::ordered_json adjustments_json(const std::vector<Adjustment>& a);

}  // namespace eevdf::cli
