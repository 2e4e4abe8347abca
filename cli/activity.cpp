// SPDX-License-Identifier: GPL-2.0-only
#include "cli/activity.hpp"

namespace eevdf::cli {
namespace {

const char* current = "running the command";

}  // namespace

void set_activity(const char* what) { current = what; }

const char* activity() { return current; }

}  // namespace eevdf::cli
