// SPDX-License-Identifier: GPL-2.0-only
// A cfs_rq set to a given state, for checks of single decisions (the
// proofs' encoding check, the properties of proved statements): the tree
// entities inserted into tasks_timeline in the order given, with the sums
// the kernel keeps for them (avg_vruntime, avg_load, load, nr_queued), and
// curr on or off the queue. This is not a path the kernel takes: it reaches
// states no schedule does (keys 2^52 apart, key * weight products that wrap
// s64), which is what a statement "for any keys" must be tested on.
#pragma once

#include <deque>
#include <vector>

#include "model/fair.hpp"

namespace eevdf {

struct EntitySpec {
	int nice = 0;
	u64 vruntime = 0, deadline = 0, slice = 0;
	u64 vprot = 0;  // where curr's protection ends (6.17+; the vlag stash on 6.6-6.16)
	s64 vlag = 0;
	u64 exec_start = 0, sum_exec_runtime = 0;
	bool custom_slice = false, rel_deadline = false;
};

class CfsRqState {
public:
	// v0: the cfs_rq's min_vruntime / zero_vruntime; clock: rq clock_task.
	CfsRqState(const Config& cfg, u64 v0, u64 clock, const std::vector<EntitySpec>& tree);
	CfsRqState(const CfsRqState&) = delete;
	CfsRqState& operator=(const CfsRqState&) = delete;

	// curr, queued (on_rq) or not; at most once.
	SchedEntity* set_curr(const EntitySpec& e, bool on_rq);
	// An entity outside the queue (to be placed, renewed or woken).
	SchedEntity* make_entity(const EntitySpec& e);

	CfsRq& rq() { return rq_; }
	const CfsRq& rq() const { return rq_; }
	SchedEntity* tree_entity(size_t i) const { return tree_[i]; }
	size_t tree_size() const { return tree_.size(); }
	SchedEntity* curr() const { return curr_; }

private:
	Config cfg_;
	std::deque<SchedEntity> ses_;  // stable addresses
	CfsRq rq_;
	std::vector<SchedEntity*> tree_;
	SchedEntity* curr_ = nullptr;
};

}  // namespace eevdf
