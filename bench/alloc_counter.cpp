// SPDX-License-Identifier: GPL-2.0-only
// Replaces every form of the global operator new and delete with versions
// that count (see alloc_counter.hpp). Only executables that link this file
// are affected.
#include "bench/alloc_counter.hpp"

#include <cxxabi.h>
#include <execinfo.h>
#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

namespace eevdf::bench::alloc {
namespace {

std::atomic<bool> counting{false};
std::atomic<std::uint64_t> count_{0}, bytes_{0};
std::atomic<std::uint64_t> live_{0}, peak_{0};

constexpr int MAX_FRAMES = 48;
void* frames[MAX_FRAMES];
int nframes = 0;
std::atomic<bool> have_stack{false};
thread_local bool in_hook = false;

void note_alloc(void* p, std::size_t n)
{
	const std::uint64_t size = malloc_usable_size(p);
	const std::uint64_t live = live_.fetch_add(size, std::memory_order_relaxed) + size;
	std::uint64_t peak = peak_.load(std::memory_order_relaxed);
	while (live > peak && !peak_.compare_exchange_weak(peak, live, std::memory_order_relaxed)) {
	}
	if (!counting.load(std::memory_order_relaxed) || in_hook)
		return;
	count_.fetch_add(1, std::memory_order_relaxed);
	bytes_.fetch_add(n, std::memory_order_relaxed);
	bool expected = false;
	if (have_stack.compare_exchange_strong(expected, true)) {
		in_hook = true;  // backtrace() may allocate on its first use
		nframes = backtrace(frames, MAX_FRAMES);
		in_hook = false;
	}
}

void note_free(void* p)
{
	if (p)
		live_.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
}

void* do_new(std::size_t n)
{
	void* p = std::malloc(n ? n : 1);
	if (!p)
		throw std::bad_alloc();
	note_alloc(p, n);
	return p;
}

void* do_new_nothrow(std::size_t n) noexcept
{
	void* p = std::malloc(n ? n : 1);
	if (p)
		note_alloc(p, n);
	return p;
}

void* do_new_aligned(std::size_t n, std::align_val_t al)
{
	const std::size_t a = static_cast<std::size_t>(al);
	const std::size_t size = ((n ? n : 1) + a - 1) / a * a;
	void* p = std::aligned_alloc(a, size);
	if (!p)
		throw std::bad_alloc();
	note_alloc(p, n);
	return p;
}

void do_delete(void* p) noexcept
{
	note_free(p);
	std::free(p);
}

}  // namespace

void start()
{
	// Warm backtrace() up so that its own first-use allocation is not counted.
	void* warm[2];
	in_hook = true;
	backtrace(warm, 2);
	in_hook = false;
	count_ = 0;
	bytes_ = 0;
	nframes = 0;
	have_stack = false;
	counting = true;
}

Stats stop()
{
	counting = false;
	return Stats{count_.load(), bytes_.load()};
}

std::uint64_t live_bytes() { return live_.load(); }
std::uint64_t peak_bytes() { return peak_.load(); }
void reset_peak() { peak_ = live_.load(); }

std::string first_stack()
{
	if (!have_stack || nframes == 0)
		return {};
	std::string out;
	char** syms = backtrace_symbols(frames, nframes);
	for (int i = 0; i < nframes; i++) {
		std::string line = syms ? syms[i] : "?";
		// "binary(mangled+0x12) [0xaddr]": demangle the part in parentheses.
		const auto lp = line.find('('), plus = line.find('+', lp == std::string::npos ? 0 : lp);
		if (lp != std::string::npos && plus != std::string::npos && plus > lp + 1) {
			const std::string mangled = line.substr(lp + 1, plus - lp - 1);
			int status = 0;
			char* dem = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
			if (status == 0 && dem)
				line = line.substr(0, lp + 1) + dem + line.substr(plus);
			std::free(dem);
		}
		out += "  #" + std::to_string(i) + " " + line + "\n";
	}
	std::free(syms);
	return out;
}

}  // namespace eevdf::bench::alloc

using eevdf::bench::alloc::do_delete;
using eevdf::bench::alloc::do_new;
using eevdf::bench::alloc::do_new_aligned;
using eevdf::bench::alloc::do_new_nothrow;

void* operator new(std::size_t n) { return do_new(n); }
void* operator new[](std::size_t n) { return do_new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return do_new_nothrow(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return do_new_nothrow(n); }
void* operator new(std::size_t n, std::align_val_t a) { return do_new_aligned(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return do_new_aligned(n, a); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept
{
	try {
		return do_new_aligned(n, a);
	} catch (...) {
		return nullptr;
	}
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept
{
	try {
		return do_new_aligned(n, a);
	} catch (...) {
		return nullptr;
	}
}

void operator delete(void* p) noexcept { do_delete(p); }
void operator delete[](void* p) noexcept { do_delete(p); }
void operator delete(void* p, std::size_t) noexcept { do_delete(p); }
void operator delete[](void* p, std::size_t) noexcept { do_delete(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { do_delete(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { do_delete(p); }
void operator delete(void* p, std::align_val_t) noexcept { do_delete(p); }
void operator delete[](void* p, std::align_val_t) noexcept { do_delete(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { do_delete(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { do_delete(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { do_delete(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { do_delete(p); }
