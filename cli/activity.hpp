// SPDX-License-Identifier: GPL-2.0-only
// What the command is doing right now, for main()'s last resort: an
// allocation that fails (std::bad_alloc) or a library's exception is exit 2
// with "while simulating", "while reading the trace", ... rather than a
// SIGABRT. Set by the main thread at each stage, as a string literal (no
// allocation: the message must be printable when memory has run out). A
// stage marker, not a scope: an exception leaves it naming the stage it
// came from.
#pragma once

namespace eevdf::cli {

void set_activity(const char* what);
const char* activity();

}  // namespace eevdf::cli
