// SPDX-License-Identifier: GPL-2.0-only
// The trace readers' documented limits (docs/cli.md, "Limits") at their
// edges: 2^20 distinct pids for `trace stats` and `trace workload`, 2^22
// sched events for `trace workload`. The lines are made as they are read,
// so the millions of them are never held.
#include <catch2/catch.hpp>

#include <cinttypes>
#include <cstdio>
#include <functional>
#include <istream>
#include <streambuf>
#include <string>

#include "io/input_error.hpp"
#include "trace/stats.hpp"
#include "trace/to_workload.hpp"

using namespace eevdf;
using namespace eevdf::trace;
using Catch::Contains;

namespace {

// `n` lines, line i (from 0) made by `line(i)`, a chunk of them at a time.
class Lines : public std::streambuf {
public:
	Lines(u64 n, std::function<std::string(u64)> line) : n_(n), line_(std::move(line)) {}

protected:
	int_type underflow() override
	{
		if (gptr() < egptr())
			return traits_type::to_int_type(*gptr());
		chunk_.clear();
		for (int k = 0; k < 4096 && i_ < n_; k++)
			chunk_ += line_(i_++);
		if (chunk_.empty())
			return traits_type::eof();
		setg(chunk_.data(), chunk_.data(), chunk_.data() + chunk_.size());
		return traits_type::to_int_type(*gptr());
	}

private:
	u64 n_, i_ = 0;
	std::function<std::string(u64)> line_;
	std::string chunk_;
};

// A wake-up of `pid` at 1 s + i us: one sched event a line, time going on.
std::string wakeup(u64 i, u64 pid)
{
	char s[128];
	std::snprintf(s, sizeof s,
		      "a-10 [000] d..2. %" PRIu64 ".%06" PRIu64 ": sched_wakeup: comm=b pid=%" PRIu64
		      " prio=120 target_cpu=000\n",
		      1 + i / 1000000, i % 1000000, pid);
	return s;
}

// What to_workload() or measure() refuses in `n` lines, "" for nothing.
template <class F>
std::string refusal(u64 n, std::function<std::string(u64)> line, F read)
{
	Lines src(n, std::move(line));
	std::istream in(&src);
	Reader r(in, "big.trace");
	try {
		read(r);
	} catch (const InputError& e) {
		return e.what();
	} catch (const TraceLimit& e) {
		return e.what();
	}
	return "";
}

auto to_wl = [](Reader& r) { to_workload(r, {}); };
auto stats = [](Reader& r) { measure(r); };

}  // namespace

TEST_CASE("trace workload reads 2^22 sched events and refuses the next, naming its line")
{
	const u64 n = MAX_TRACE_EVENTS_TO_WORKLOAD;
	// The refusal comes at line 2^22 + 1: the 2^22 lines before it were read.
	CHECK_THAT(refusal(
			   n + 1, [](u64 i) { return wakeup(i, 11); }, to_wl),
		   Contains("big.trace:4194305: more than 4194304 sched events"));
}

TEST_CASE("trace workload holds 2^20 distinct pids and refuses one more")
{
	const u64 n = MAX_TRACE_TASKS;  // the waker (pid 10) and n - 1 wakees
	auto line = [](u64 i) { return wakeup(i, 100 + i); };
	CHECK(refusal(n - 1, line, to_wl) == "");
	CHECK_THAT(refusal(n + 1, line, to_wl), Contains("more than 1048576 tasks (distinct pids)"));
}

TEST_CASE("trace stats holds 2^20 distinct pids and refuses one more, naming the line")
{
	// Line i wakes pid 100 + i beside the waker, pid 10: line 2^20 brings
	// pid 2^20 + 1, so the refusal there says the 2^20 before were held.
	const u64 n = MAX_TRACE_TASKS;
	CHECK_THAT(refusal(
			   n + 1000, [](u64 i) { return wakeup(i, 100 + i); }, stats),
		   Contains("big.trace:1048576: ") && Contains("more than 1048576 tasks"));
}
