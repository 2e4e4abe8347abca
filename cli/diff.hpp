// SPDX-License-Identifier: GPL-2.0-only
// `eevdf diff A.json B.json`: two `eevdf sim --json` runs side by side, the
// configuration keys that differ, then per task (matched by name) and in
// total every metric of both runs with its difference, flagged when it is
// beyond --threshold. Exit status as diff(1): 0 the runs' metrics are the
// same (within the threshold), 1 some differ, 2 a bad file.
#pragma once

#include <string>

namespace eevdf::cli {

struct DiffOptions {
	std::string a, b;
	double threshold = 0;  // relative: a metric is flagged when |B - A| > threshold * |A| (0: any change)
	bool json = false;
};

int cmd_diff(const DiffOptions& o);

}  // namespace eevdf::cli
