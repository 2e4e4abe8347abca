// SPDX-License-Identifier: GPL-2.0-only
// Counting replacements of the global operator new/delete (alloc_counter.cpp),
// linked only into the executables that measure allocation: alloc_tests and
// eevdf_bench. Counting is off until start(); live and peak heap bytes (as
// malloc_usable_size reports them) are tracked always.
#pragma once

#include <cstdint>
#include <string>

namespace eevdf::bench::alloc {

struct Stats {
	std::uint64_t count = 0;  // operator new calls (every form) since start()
	std::uint64_t bytes = 0;  // bytes requested by them
};

// Begin counting (resets the counters and the recorded stack).
void start();
// Stop counting and return what was counted.
Stats stop();

// Heap bytes currently allocated through operator new, and the peak since
// reset_peak().
std::uint64_t live_bytes();
std::uint64_t peak_bytes();
void reset_peak();

// The call stack of the first allocation counted since start(), one frame a
// line (demangled where possible); empty if there was none. Call after stop().
std::string first_stack();

// RAII: counts allocations for its lifetime.
class Scope {
public:
	Scope() { start(); }
	~Scope()
	{
		if (!stopped_)
			stop();
	}
	Stats finish()
	{
		stopped_ = true;
		return stop();
	}
	Scope(const Scope&) = delete;
	Scope& operator=(const Scope&) = delete;

private:
	bool stopped_ = false;
};

}  // namespace eevdf::bench::alloc
