// SPDX-License-Identifier: GPL-2.0-only
#include "report/json_writer.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <nlohmann/json.hpp>

namespace eevdf::cli {

void JsonWriter::before_value()
{
	if (after_key_) {  // the member's key already wrote the separator
		after_key_ = false;
		return;
	}
	if (depth_ == 0)
		return;
	out_ += count_[depth_ - 1]++ ? ",\n" : "\n";
	indent(depth_);
}

void JsonWriter::open(char c)
{
	before_value();
	if (depth_ == MAX_DEPTH)
		throw std::logic_error("JsonWriter: nested deeper than " + std::to_string(MAX_DEPTH));
	out_ += c;
	count_[depth_++] = 0;
}

void JsonWriter::close(char c)
{
	if (count_[--depth_]) {
		out_ += '\n';
		indent(depth_);
	}
	out_ += c;
}

void JsonWriter::key(std::string_view k)
{
	before_value();
	// Keys are this program's own identifiers, plain ASCII: no escaping.
	out_ += '"';
	out_ += k;
	out_ += "\": ";
	after_key_ = true;
}

void JsonWriter::value(u64 v)
{
	before_value();
	char b[24];
	out_.append(b, std::to_chars(b, b + sizeof b, v).ptr);
}

void JsonWriter::value(s64 v)
{
	before_value();
	char b[24];
	out_.append(b, std::to_chars(b, b + sizeof b, v).ptr);
}

void JsonWriter::value(bool v)
{
	before_value();
	out_ += v ? "true" : "false";
}

// dump() writes an integral double of at most 15 digits as its digits and
// ".0" (nlohmann's format_buffer, kMaxExp = digits10); anything else goes
// through nlohmann's own grisu2 formatting.
void JsonWriter::value(double v)
{
	before_value();
	if (v >= 0 && v < 1e15 && std::floor(v) == v && !(v == 0 && std::signbit(v))) {
		char b[24];
		out_.append(b, std::to_chars(b, b + sizeof b, static_cast<u64>(v)).ptr);
		out_ += ".0";
		return;
	}
	out_ += nlohmann::ordered_json(v).dump();
}

// Printable ASCII other than '"' and '\\' is written as it is; anything
// else (control characters, UTF-8, which dump() validates) by nlohmann.
void JsonWriter::value(std::string_view s)
{
	before_value();
	string(s);
}

void JsonWriter::string(std::string_view s)
{
	bool plain = true;
	for (unsigned char ch : s)
		if (ch < 0x20 || ch > 0x7e || ch == '"' || ch == '\\') {
			plain = false;
			break;
		}
	if (plain) {
		out_ += '"';
		out_ += s;
		out_ += '"';
		return;
	}
	out_ += nlohmann::ordered_json(std::string(s))
			.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace eevdf::cli
