// SPDX-License-Identifier: GPL-2.0-only
// A small JSON reader for rt-app files.
//
// rt-app files repeat keys inside one object ("run", "sleep", "run") and the
// order of the keys is the order of the events, so an object is an ordered
// list of members, duplicates kept. Every value and key records where it
// starts, for error messages.
//
// The grammar is RFC 8259 with two additions that json-c (rt-app's parser)
// accepts by default and that rt-app's own example files use: comments
// (/* ... */ and // ...) and a trailing comma before '}' or ']'. Everything
// else is strict: no leading zeros, no bad escapes or unpaired surrogates, no
// control characters or invalid UTF-8 inside strings, nothing after the value.
// Nesting is limited, so any byte string is rejected or accepted without
// deep recursion.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace eevdf::json {

struct Member;

struct Value {
	enum class Type { Null, Bool, Number, String, Array, Object };
	Type type = Type::Null;
	bool boolean = false;
	std::string text;             // String: the decoded UTF-8; Number: the literal as written
	std::vector<Value> items;     // Array
	std::vector<Member> members;  // Object, in file order, duplicate keys kept
	int line = 0, column = 0;     // 1-based; columns count characters, not bytes

	bool is_object() const { return type == Type::Object; }
	bool is_string() const { return type == Type::String; }
};

struct Member {
	std::string key;
	int line = 0, column = 0;  // of the key
	Value value;
};

inline constexpr int MAX_DEPTH = 64;
// Values in one document: rt-app's 4096 threads with a few hundred events
// each fit; the reader's memory stays under about 130 MB.
inline constexpr std::size_t MAX_VALUES = std::size_t{1} << 20;

// Throws InputError "FILENAME:LINE:COL: invalid JSON: ..." on bad input.
Value parse(std::string_view text, const std::string& filename);

// The value as compact JSON, cut to about `max_chars` characters: for
// quoting an offending value in an error message.
std::string describe(const Value& v, std::size_t max_chars = 60);

// `s` as a JSON string literal, quotes included.
std::string quote(std::string_view s);

}  // namespace eevdf::json
