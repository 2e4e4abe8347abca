// SPDX-License-Identifier: GPL-2.0-only
// rt-app's workgen preprocessor, the part that changes what a file means:
// a bare "suspend" key (a line `"suspend",` with no value, as the Android
// use-case files video-short/-long write it) becomes `"suspend" : "TASK"`,
// TASK being the task object it is in, so the thread waits on a
// condition named after itself and the others' `"resume" : "TASK"` wake it.
//
// workgen (rt-app 1.0, /usr/bin/workgen, check_suspend_json) works line by
// line, and so does this: lines before the first key containing "tasks"
// pass unchanged; from there a line's `{` and `}` count the nesting, the key
// of the line that opens depth 2 names the task, and a line with "suspend"
// and no ':' gets ` : "TASK"` before its first ',' (or at its end). Its
// second pass (renaming repeated keys "run" to "run2", ...) changes nothing
// here: the reader keeps repeated keys in order, as rt-app does.
#pragma once

#include <string>
#include <string_view>

namespace eevdf {

// The rewritten text and how many bare "suspend" keys were given a value.
struct WorkgenResult {
	std::string text;
	int suspends = 0;
};

WorkgenResult workgen_suspend(std::string_view text);

}  // namespace eevdf
