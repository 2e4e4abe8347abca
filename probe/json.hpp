// SPDX-License-Identifier: GPL-2.0-only
// eevdf-probe: a minimal streaming JSON writer (no dependencies: the probe
// builds with a bare compiler).
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util.hpp"

namespace probe {

class Json {
public:
	Json &key(std::string_view k)
	{
		sep();
		str(k);
		out_ += ':';
		pending_ = true;
		return *this;
	}
	Json &obj()
	{
		pre();
		out_ += '{';
		first_.push_back(true);
		return *this;
	}
	Json &end_obj()
	{
		first_.pop_back();
		out_ += '}';
		return *this;
	}
	Json &arr()
	{
		pre();
		out_ += '[';
		first_.push_back(true);
		return *this;
	}
	Json &end_arr()
	{
		first_.pop_back();
		out_ += ']';
		return *this;
	}
	Json &v(i64 x) { pre(); out_ += std::to_string(x); return *this; }
	Json &v(int x) { return v(i64(x)); }
	Json &v(size_t x) { pre(); out_ += std::to_string(x); return *this; }
	Json &v(double x)
	{
		pre();
		if (std::isfinite(x))
			out_ += strf("%.6g", x);
		else
			out_ += "null";
		return *this;
	}
	Json &v(bool x) { pre(); out_ += x ? "true" : "false"; return *this; }
	Json &v(std::string_view s) { pre(); str(s); return *this; }
	Json &v(const char *s) { return v(std::string_view(s)); }
	Json &null() { pre(); out_ += "null"; return *this; }
	template <typename T>
	Json &opt(const std::optional<T> &x)
	{
		if (x)
			return v(*x);
		return null();
	}
	const std::string &text() const { return out_; }

private:
	std::string out_;
	std::vector<bool> first_;
	bool pending_ = false;
	void sep()
	{
		if (!first_.empty()) {
			if (!first_.back())
				out_ += ',';
			first_.back() = false;
		}
	}
	void pre()
	{
		if (pending_)
			pending_ = false;
		else
			sep();
	}
	void str(std::string_view s)
	{
		out_ += '"';
		for (char c : s) {
			if (c == '"' || c == '\\') {
				out_ += '\\';
				out_ += c;
			} else if ((unsigned char)c < 0x20) {
				out_ += strf("\\u%04x", c);
			} else {
				out_ += c;
			}
		}
		out_ += '"';
	}
};

}  // namespace probe
