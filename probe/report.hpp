// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: a pinned run's report as text tables or as one JSON document
// (the JSON is parsed by cli/probe_compare.cpp and the kernel tests).
#pragma once

#include <map>
#include <string>

#include "analysis.hpp"
#include "json.hpp"
#include "stats.hpp"

namespace probe {

void print_text(const Report &r);
std::string make_json(const Report &r);

// Shared with the multi-CPU scenarios' report.
void json_summary(Json &j, const char *k, const Summary &s);
void json_hist(Json &j, const char *k, const std::map<i64, size_t> &h);
std::string slice_str(const std::optional<i64> &s);
std::string opt_ms(const std::optional<i64> &s);

}  // namespace probe
