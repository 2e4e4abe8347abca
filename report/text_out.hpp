// SPDX-License-Identifier: GPL-2.0-only
// An output's text handed on in chunks as it is made: a run's every switch
// as CSV, timehist, map or Chrome JSON is gigabytes in a long run, so
// `eevdf sim` writes each chunk to the output's temporary (OutputSpool)
// instead of holding the whole text beside the run's record.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace eevdf::cli {

using TextSink = std::function<void(std::string_view)>;

class TextOut {
public:
	explicit TextOut(const TextSink& sink) : sink_(sink) {}
	TextOut& operator+=(std::string_view s)
	{
		buf_ += s;
		if (buf_.size() >= CHUNK)
			flush();
		return *this;
	}
	TextOut& operator+=(char c) { return *this += std::string_view(&c, 1); }
	// The rest; the writer calls it once at the end (a sink may throw: a full disk).
	void flush()
	{
		if (!buf_.empty())
			sink_(buf_);
		buf_.clear();
	}

private:
	static constexpr size_t CHUNK = size_t{1} << 20;
	const TextSink& sink_;
	std::string buf_;
};

// The whole text of `write(sink)`, for the short outputs and the tests.
template <class W>
std::string whole_text(W write)
{
	std::string s;
	write([&s](std::string_view t) { s += t; });
	return s;
}

}  // namespace eevdf::cli
