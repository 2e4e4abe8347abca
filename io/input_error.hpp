// SPDX-License-Identifier: GPL-2.0-only
// The one exception type for bad input files: its message is meant for the
// user as is ("FILE:LINE:COL: field.path: what is wrong").
#pragma once

#include <stdexcept>

namespace eevdf {

struct InputError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

}  // namespace eevdf
