// SPDX-License-Identifier: GPL-2.0-only
#include "io/json.hpp"

#include <cstdint>

#include "io/input_error.hpp"

namespace eevdf::json {

namespace {

class Parser {
public:
	Parser(std::string_view text, const std::string& filename) : s_(text), file_(filename)
	{
		if (s_.substr(0, 3) == "\xEF\xBB\xBF")  // RFC 8259 §8.1: a parser may ignore a BOM
			pos_ = 3;
	}

	Value document()
	{
		skip_space();
		Value v = value(0);
		skip_space();
		if (pos_ < s_.size())
			fail("unexpected " + what_is_here() + " after the end of the JSON value");
		return v;
	}

private:
	std::string_view s_;
	const std::string& file_;
	std::size_t pos_ = 0;
	int line_ = 1, col_ = 1;
	std::size_t values_ = 0;

	[[noreturn]] void fail_at(int line, int col, const std::string& msg) const
	{
		throw InputError(file_ + ":" + std::to_string(line) + ":" + std::to_string(col) +
				 ": invalid JSON: " + msg);
	}
	[[noreturn]] void fail(const std::string& msg) const { fail_at(line_, col_, msg); }

	bool at_end() const { return pos_ >= s_.size(); }
	unsigned char peek(std::size_t ahead = 0) const
	{
		return pos_ + ahead < s_.size() ? static_cast<unsigned char>(s_[pos_ + ahead]) : 0;
	}
	void advance()
	{
		unsigned char c = peek();
		pos_++;
		if (c == '\n') {
			line_++;
			col_ = 1;
		} else if ((c & 0xC0) != 0x80) {  // UTF-8 continuation bytes share their character's column
			col_++;
		}
	}

	std::string what_is_here() const
	{
		if (at_end())
			return "end of input";
		unsigned char c = peek();
		if (c >= 0x20 && c < 0x7F)
			return std::string("character '") + static_cast<char>(c) + "'";
		static const char hex[] = "0123456789abcdef";
		return std::string("byte 0x") + hex[c >> 4] + hex[c & 15];
	}

	void skip_space()
	{
		for (;;) {
			unsigned char c = peek();
			if (at_end())
				return;
			if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
				advance();
			} else if (c == '/' && peek(1) == '*') {
				int line = line_, col = col_;
				advance();
				advance();
				while (!at_end() && !(peek() == '*' && peek(1) == '/'))
					advance();
				if (at_end())
					fail_at(line, col, "comment is not closed with */");
				advance();
				advance();
			} else if (c == '/' && peek(1) == '/') {
				while (!at_end() && peek() != '\n')
					advance();
			} else {
				return;
			}
		}
	}

	Value value(int depth)
	{
		// A Value costs ~130 bytes however small its text: 12 MB of "1,"
		// took 815 MB before the reader saw the first key. A document of
		// more values than any workload or claim needs is refused at once.
		if (++values_ > MAX_VALUES)
			fail("more than " + std::to_string(MAX_VALUES) + " values in one document");
		Value v;
		v.line = line_;
		v.column = col_;
		unsigned char c = peek();
		if (at_end())
			fail("expected a value, found end of input");
		if (c == '{' || c == '[') {
			if (depth >= MAX_DEPTH)
				fail("nested deeper than " + std::to_string(MAX_DEPTH) + " levels");
			if (c == '{')
				object(v, depth + 1);
			else
				array(v, depth + 1);
		} else if (c == '"') {
			v.type = Value::Type::String;
			v.text = string();
		} else if (c == '-' || (c >= '0' && c <= '9')) {
			v.type = Value::Type::Number;
			v.text = number();
		} else if (literal("true")) {
			v.type = Value::Type::Bool;
			v.boolean = true;
		} else if (literal("false")) {
			v.type = Value::Type::Bool;
		} else if (!literal("null")) {
			fail("expected a value, found " + what_is_here());
		}
		return v;
	}

	bool literal(std::string_view word)
	{
		if (s_.substr(pos_, word.size()) != word)
			return false;
		for (std::size_t i = 0; i < word.size(); i++)
			advance();
		unsigned char c = peek();
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
			fail("unexpected " + what_is_here() + " after " + std::string(word));
		return true;
	}

	void object(Value& v, int depth)
	{
		v.type = Value::Type::Object;
		advance();  // {
		skip_space();
		while (peek() != '}') {
			if (peek() != '"')
				fail("expected a \"key\" or '}', found " + what_is_here());
			Member m;
			m.line = line_;
			m.column = col_;
			m.key = string();
			skip_space();
			if (peek() != ':')
				fail("expected ':' after the key, found " + what_is_here());
			advance();
			skip_space();
			m.value = value(depth);
			v.members.push_back(std::move(m));
			skip_space();
			if (peek() == ',') {
				advance();
				skip_space();
			} else if (peek() != '}') {
				fail("expected ',' or '}' after a member, found " + what_is_here());
			}
		}
		advance();
	}

	void array(Value& v, int depth)
	{
		v.type = Value::Type::Array;
		advance();  // [
		skip_space();
		while (peek() != ']') {
			if (at_end())
				fail("expected a value or ']', found end of input");
			v.items.push_back(value(depth));
			skip_space();
			if (peek() == ',') {
				advance();
				skip_space();
			} else if (peek() != ']') {
				fail("expected ',' or ']' after an array element, found " + what_is_here());
			}
		}
		advance();
	}

	std::string number()
	{
		std::size_t start = pos_;
		auto digits = [&] {
			std::size_t n = 0;
			for (; peek() >= '0' && peek() <= '9'; n++)
				advance();
			return n;
		};
		if (peek() == '-')
			advance();
		if (peek() == '0') {
			advance();
			if (peek() >= '0' && peek() <= '9')
				fail("numbers cannot have leading zeros");
		} else if (digits() == 0) {
			fail("expected a digit, found " + what_is_here());
		}
		if (peek() == '.') {
			advance();
			if (digits() == 0)
				fail("expected a digit after '.', found " + what_is_here());
		}
		if (peek() == 'e' || peek() == 'E') {
			advance();
			if (peek() == '+' || peek() == '-')
				advance();
			if (digits() == 0)
				fail("expected a digit in the exponent, found " + what_is_here());
		}
		return std::string(s_.substr(start, pos_ - start));
	}

	static void put_utf8(std::string& out, std::uint32_t cp)
	{
		if (cp < 0x80) {
			out += static_cast<char>(cp);
		} else if (cp < 0x800) {
			out += static_cast<char>(0xC0 | (cp >> 6));
			out += static_cast<char>(0x80 | (cp & 0x3F));
		} else if (cp < 0x10000) {
			out += static_cast<char>(0xE0 | (cp >> 12));
			out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
			out += static_cast<char>(0x80 | (cp & 0x3F));
		} else {
			out += static_cast<char>(0xF0 | (cp >> 18));
			out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
			out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
			out += static_cast<char>(0x80 | (cp & 0x3F));
		}
	}

	std::uint32_t hex4()
	{
		std::uint32_t v = 0;
		for (int i = 0; i < 4; i++) {
			unsigned char c = peek();
			int d = c >= '0' && c <= '9'   ? c - '0'
				: c >= 'a' && c <= 'f' ? c - 'a' + 10
				: c >= 'A' && c <= 'F' ? c - 'A' + 10
						       : -1;
			if (d < 0 || at_end())
				fail("\\u must be followed by 4 hex digits, found " + what_is_here());
			v = v * 16 + static_cast<std::uint32_t>(d);
			advance();
		}
		return v;
	}

	// One raw UTF-8 character starting at a byte >= 0x80, validated
	// (no overlong forms, no surrogates, nothing above U+10FFFF).
	void utf8_char(std::string& out)
	{
		unsigned char c = peek();
		std::size_t n = c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : 0;
		if (n == 0)
			fail("invalid UTF-8 in string (" + what_is_here() + ")");
		std::uint32_t cp = c & (0x3Fu >> n);
		for (std::size_t i = 1; i <= n; i++) {
			unsigned char cc = peek(i);
			if (pos_ + i >= s_.size() || (cc & 0xC0) != 0x80)
				fail("invalid UTF-8 in string (truncated sequence)");
			cp = cp << 6 | (cc & 0x3F);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			fail("invalid UTF-8 in string (overlong, surrogate or out of range)");
		out.append(s_.substr(pos_, n + 1));
		for (std::size_t i = 0; i <= n; i++)
			advance();
	}

	std::string string()
	{
		int line = line_, col = col_;
		advance();  // "
		std::string out;
		for (;;) {
			if (at_end())
				fail_at(line, col, "string is not closed with \"");
			unsigned char c = peek();
			if (c == '"') {
				advance();
				return out;
			}
			if (c < 0x20)
				fail("control character (" + what_is_here() + ") in string; write it as an escape");
			if (c >= 0x80) {
				utf8_char(out);
				continue;
			}
			advance();
			if (c != '\\') {
				out += static_cast<char>(c);
				continue;
			}
			unsigned char e = peek();
			switch (e) {
			case '"': case '\\': case '/': out += static_cast<char>(e); break;
			case 'b': out += '\b'; break;
			case 'f': out += '\f'; break;
			case 'n': out += '\n'; break;
			case 'r': out += '\r'; break;
			case 't': out += '\t'; break;
			case 'u': {
				advance();
				std::uint32_t cp = hex4();
				if (cp >= 0xDC00 && cp <= 0xDFFF)
					fail("unpaired low surrogate \\u escape");
				if (cp >= 0xD800 && cp <= 0xDBFF) {
					if (peek() != '\\' || peek(1) != 'u')
						fail("high surrogate \\u escape must be followed by a low surrogate");
					advance();
					advance();
					std::uint32_t lo = hex4();
					if (lo < 0xDC00 || lo > 0xDFFF)
						fail("high surrogate \\u escape must be followed by a low surrogate");
					cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				}
				put_utf8(out, cp);
				continue;
			}
			default: fail("invalid escape \\" + (at_end() ? std::string("at end of input") : what_is_here()));
			}
			advance();
		}
	}
};

void render(const Value& v, std::string& out, std::size_t limit)
{
	if (out.size() > limit)
		return;
	switch (v.type) {
	case Value::Type::Null: out += "null"; break;
	case Value::Type::Bool: out += v.boolean ? "true" : "false"; break;
	case Value::Type::Number: out += v.text; break;
	case Value::Type::String: out += quote(v.text); break;
	case Value::Type::Array:
		out += '[';
		for (std::size_t i = 0; i < v.items.size() && out.size() <= limit; i++) {
			if (i)
				out += ", ";
			render(v.items[i], out, limit);
		}
		out += ']';
		break;
	case Value::Type::Object:
		out += '{';
		for (std::size_t i = 0; i < v.members.size() && out.size() <= limit; i++) {
			if (i)
				out += ", ";
			out += quote(v.members[i].key) + ": ";
			render(v.members[i].value, out, limit);
		}
		out += '}';
		break;
	}
}

}  // namespace

Value parse(std::string_view text, const std::string& filename)
{
	return Parser(text, filename).document();
}

std::string describe(const Value& v, std::size_t max_chars)
{
	std::string out;
	render(v, out, max_chars);
	if (out.size() > max_chars) {
		std::size_t cut = max_chars;
		while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80)
			cut--;  // do not split a UTF-8 character
		out = out.substr(0, cut) + "...";
	}
	return out;
}

std::string quote(std::string_view s)
{
	static const char hex[] = "0123456789abcdef";
	std::string out = "\"";
	for (char ch : s) {
		unsigned char c = static_cast<unsigned char>(ch);
		switch (c) {
		case '"': out += "\\\""; break;
		case '\\': out += "\\\\"; break;
		case '\n': out += "\\n"; break;
		case '\t': out += "\\t"; break;
		case '\r': out += "\\r"; break;
		default:
			if (c < 0x20 || c == 0x7F) {
				out += "\\u00";
				out += hex[c >> 4];
				out += hex[c & 15];
			} else {
				out += ch;
			}
		}
	}
	return out + "\"";
}

}  // namespace eevdf::json
