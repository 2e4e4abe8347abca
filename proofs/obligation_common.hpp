// SPDX-License-Identifier: GPL-2.0-only
// What the obligation files (run_, pick_, wakeup_ and nohz_obligations.cpp)
// share: the tick lengths, the 6.18 configuration of the symbolic encoding,
// keys bounded around v0, an entity with every field free, and the replay of
// a waker that waits for a whole request (wakeup_wait_tight and
// nohz_enqueue_tight).
#pragma once

#include <optional>
#include <string>

#include "model/config.hpp"
#include "proofs/encoding.hpp"
#include "proofs/obligation.hpp"
#include "proofs/query.hpp"

namespace eevdf::proofs {

// TICK_NSEC at the HZ values the obligations name.
inline constexpr u64 TICK_HZ1000 = 1000000, TICK_HZ300 = 3333333, TICK_HZ250 = 4000000, TICK_HZ100 = 10000000;
inline constexpr u64 HZ_TICKS[] = {TICK_HZ100, TICK_HZ250, TICK_HZ300, TICK_HZ1000};

// The HZ of a counterexample's TICK_NSEC (0 if none of the four), for its replay.
inline u32 hz_of_tick(u64 t)
{
	for (u32 hz : {100u, 250u, 300u, 1000u})
		if (tick_nsec(hz) == t)
			return hz;
	return 0;
}

// The encoding's configuration: the 6.18 preset at a symbolic slice and tick.
inline SymConfig sym_config(Query&, const expr& slice, const expr& tick, unsigned mutation)
{
	const KernelPreset& p = *find_preset("6.18");
	return SymConfig{slice, tick, p.features, p.paths.normalized_base_slice, mutation};
}

// |v - v0| <= mag as signed 64-bit values.
inline expr key_bounded(Query& q, const expr& v, const expr& v0, u64 mag)
{
	const expr k = v - v0;
	return z3::sle(q.bv(static_cast<u64>(-static_cast<s64>(mag))), k) && z3::sle(k, q.bv(mag));
}

// An entity whose every field is a free variable named after n.
inline SymSE free_se(Query& q, const std::string& n)
{
	return SymSE{q.show("v_" + n, q.var("v_" + n)), q.show("d_" + n, q.var("d_" + n)),
		     q.show("vprot_" + n, q.var("vprot_" + n)), q.show("slice_" + n, q.var("slice_" + n)), q.bv(0),
		     q.var("exec_" + n), q.var("sumexec_" + n), q.var("w_" + n), CdfParams{}, false, false};
}

// Two tasks: A runs T/2, sleeps until 2 TICK + 1 ns and is picked alone; B
// is created at the same instant. B waits for A's whole request.
std::optional<Replay> replay_wait_tight(u32 hz, u64 r, bool nohz);  // wakeup_obligations.cpp

}  // namespace eevdf::proofs
