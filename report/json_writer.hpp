// SPDX-License-Identifier: GPL-2.0-only
// JSON written as it is made, byte for byte as nlohmann::ordered_json's
// dump(2) prints the same document, without building it as values first.
//
// A run of a million tasks reports a million task objects: as ordered_json
// values each costs some thirty allocations and a tree walk, which was most
// of the run's time. The writer appends to a caller's string, so a task
// object is written into one reused buffer. Its layout rules are dump(2)'s:
// members and items one per line, indented two spaces per level (plus a
// base indent for a value nested in a document written elsewhere), ", \n"
// between them, "{}" and "[]" when empty; numbers as dump() writes them
// (doubles through nlohmann's own shortest round-trip formatting unless
// they are small integers). tests/test_json_writer.cpp re-parses and
// re-dumps the output with nlohmann to hold it to that.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "model/types.hpp"

namespace eevdf::cli {

class JsonWriter {
public:
	// Appends to `out`; every line after the first is indented by `base` columns.
	explicit JsonWriter(std::string& out, unsigned base = 0) : out_(out), base_(base) {}

	void begin_object() { open('{'); }
	void end_object() { close('}'); }
	void begin_array() { open('['); }
	void end_array() { close(']'); }
	// The next member's key, inside an object.
	void key(std::string_view k);

	void value(u64 v);
	void value(s64 v);
	void value(int v) { value(static_cast<s64>(v)); }
	void value(unsigned v) { value(static_cast<u64>(v)); }
	void value(double v);
	void value(bool v);
	void value(std::string_view s);
	void value(const char* s) { value(std::string_view(s)); }

	template <class T>
	void member(std::string_view k, const T& v)
	{
		key(k);
		value(v);
	}

private:
	static constexpr unsigned MAX_DEPTH = 16;
	void before_value();  // the separator and indent an item or member starts with
	void open(char c);
	void close(char c);
	void string(std::string_view s);  // quoted and escaped, as a value or a key
	void indent(unsigned level) { out_.append(base_ + 2 * level, ' '); }

	std::string& out_;
	unsigned base_;
	unsigned depth_ = 0;
	std::array<u64, MAX_DEPTH> count_{};  // items or members written at each open level
	bool after_key_ = false;
};

}  // namespace eevdf::cli
