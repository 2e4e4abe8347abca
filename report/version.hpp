// SPDX-License-Identifier: GPL-2.0-only
// The version a run was made with: the project version (CMakeLists.txt) and,
// when built from a git checkout, `git describe --always --dirty` of it at
// build time (cmake/version.cmake). `eevdf --version` prints it and every
// JSON document carries it as "eevdf": {"version", "git"}.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace eevdf::cli {

extern const char EEVDF_VERSION[];
extern const char EEVDF_GIT_DESCRIBE[];  // "" outside a checkout

// "eevdf 0.1.0 (git 46a1c9a1b2c3)", or "eevdf 0.1.0" outside a checkout.
std::string version_line();

// {"version": "0.1.0", "git": "46a1c9a1b2c3"}; "git" only from a checkout.
nlohmann::ordered_json version_json();

class JsonWriter;
// The same object as the next value of `w`.
void write_version(JsonWriter& w);

}  // namespace eevdf::cli
