// SPDX-License-Identifier: GPL-2.0-only
// The earliest of N per-CPU events, kept in a tournament tree.
//
// Not a kernel structure: the simulation's own clockwork. Each leaf is one
// CPU's earliest event as the key (t, src, cpu); each inner node holds the
// lesser of its two children, so the root is the machine's earliest event.
// Changing one CPU's event replays only its path to the root: O(log N) per
// touched CPU instead of an O(N) scan per event, which at 64 CPUs was most of
// the event loop. Keys are unique (the CPU is part of them), so the minimum,
// and with it the event order, is exactly that of the linear scan.
#pragma once

#include <vector>

#include "model/types.hpp"

namespace eevdf {

// (t, src, cpu) packed so that the integer order is the lexicographic one:
// t in the high 64 bits, the event source's rank (lower first among equal
// times) and the CPU below. One 128-bit compare per tree level.
struct EventKey {
	u128 v = ~u128{0};  // later than every event: an empty leaf

	constexpr EventKey() = default;
	constexpr EventKey(u64 t, u32 src, u32 cpu)
		: v((static_cast<u128>(t) << 64) | (static_cast<u128>(src) << 32) | cpu)
	{
	}
	constexpr u64 t() const { return static_cast<u64>(v >> 64); }
	constexpr u32 src() const { return static_cast<u32>(v >> 32); }
	constexpr u32 cpu() const { return static_cast<u32>(v); }

	friend constexpr bool operator<(const EventKey& a, const EventKey& b) { return a.v < b.v; }
};

class EventTree {
public:
	// Sized once; afterwards set() and min() never allocate.
	void resize(u32 n)
	{
		leaves_ = 1;
		while (leaves_ < n)
			leaves_ *= 2;
		node_.assign(2 * static_cast<size_t>(leaves_), EventKey{});
	}

	void set(u32 cpu, EventKey k)
	{
		size_t i = leaves_ + cpu;
		node_[i] = k;
		for (i /= 2; i >= 1; i /= 2) {
			const EventKey& l = node_[2 * i];
			const EventKey& r = node_[2 * i + 1];
			node_[i] = r < l ? r : l;
		}
	}

	const EventKey& min() const { return node_[1]; }
	const EventKey& at(u32 cpu) const { return node_[leaves_ + cpu]; }

private:
	u32 leaves_ = 1;
	std::vector<EventKey> node_;  // 1-based heap layout; node_[0] unused
};

}  // namespace eevdf
